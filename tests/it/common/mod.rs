//! Helpers shared by the integration tests of every package (the others include this file
//! by its path): where the data is, reading it, and a small random generator.
#![allow(dead_code)]

pub mod rng;

use std::path::PathBuf;

/// The workspace's root: the nearest folder above the package under test that holds
/// `Cargo.lock` (the package's own folder for the engine).
pub fn root() -> PathBuf {
    let package = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    package
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .unwrap_or(package)
        .to_path_buf()
}

/// `$LINKSCAN_SHARED`, else `../shared` beside the workspace.
pub fn shared() -> PathBuf {
    linkscan::conformance::shared_dir(&root())
}

/// A Unicode data folder such as `17.0.0`.
pub fn unicode(version: &str) -> PathBuf {
    shared().join("unicode").join(version)
}

/// Reads a data file or panics with a message naming it and where to get it.
pub fn read(path: PathBuf) -> String {
    linkscan::conformance::read_data_file(&path).unwrap_or_else(|e| panic!("{e}"))
}
