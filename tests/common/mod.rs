//! Helpers shared by the integration tests: where the data is, and reading it.
#![allow(dead_code)]

use std::path::PathBuf;

/// `$LINKSCAN_SHARED`, else `../shared` beside the crate.
pub fn shared() -> PathBuf {
    linkscan::conformance::shared_dir(env!("CARGO_MANIFEST_DIR").as_ref())
}

/// A Unicode data folder such as `17.0.0`.
pub fn unicode(version: &str) -> PathBuf {
    shared().join("unicode").join(version)
}

/// Reads a data file or panics with a message naming it and where to get it.
pub fn read(path: PathBuf) -> String {
    linkscan::conformance::read_data_file(&path).unwrap_or_else(|e| panic!("{e}"))
}
