//! Helpers shared by the integration tests: where the data is, reading it, and running
//! the command line.
#![allow(dead_code)]

pub mod memory;
pub mod rng;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

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

/// Runs the `linkscan` binary with `args`, feeding it `stdin`. The program may exit before
/// reading its input (a usage error): a closed pipe is fine.
pub fn linkscan(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("linkscan runs");
    if let Err(e) = child.stdin.take().expect("stdin").write_all(stdin) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing stdin: {e}"
        );
    }
    child.wait_with_output().expect("linkscan finishes")
}
