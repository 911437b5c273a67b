//! The mail package's integration tests, one binary: each module is a file of tests;
//! `common` holds the helpers (the engine's, included by path), `properties` the property
//! the `mail_no_panic` fuzz target checks too.

mod common;

mod attachment_sizes;
mod flowed;
mod hostile;
mod mail;
mod mail_memory;
mod policy;
pub mod properties;
