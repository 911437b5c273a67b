//! The engine's integration tests, one binary (as ripgrep and regex have): each module
//! is a file of tests, `common` the helpers every package's tests share, `properties` the
//! properties the fuzz targets check too.

mod common;
#[path = "common/properties.rs"]
mod properties;

mod checks;
mod corpus;
mod dense;
mod detection_conformance;
mod differential;
mod display;
mod formatting_conformance;
mod hostile;
mod initiation;
mod kernels;
mod limits;
mod linearity;
mod policy;
mod proptests;
mod public_suffix_list;
mod redact;
mod tables;
