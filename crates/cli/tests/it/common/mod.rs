//! Helpers of the command line's tests: the engine's test helpers (where the data is,
//! reading it, a random generator), running the binary, and measuring its memory.
#![allow(dead_code)]

#[path = "../../../../../tests/it/common/mod.rs"]
mod data;
pub mod memory;

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub use data::*;

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
