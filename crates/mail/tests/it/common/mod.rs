//! Helpers of the mail package's tests: the engine's test helpers (where the data is,
//! reading it, a random generator), included by their path.
#![allow(dead_code)]

#[path = "../../../../../tests/it/common/mod.rs"]
mod data;

pub use data::*;
