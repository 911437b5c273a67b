//! Helpers of the command line's tests: the engine's test helpers (where the data is,
//! reading it, a random generator), running the binary, and measuring its memory.
#![allow(dead_code)]

#[path = "../../../../../tests/it/common/mod.rs"]
mod data;
pub mod memory;

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub use data::*;

/// Runs the `linkscan` binary with `args`, feeding it `stdin` from a thread of its own
/// while its output is read (a large input and a large output would otherwise wait on
/// each other). The program may exit before reading its input (a usage error): a closed
/// pipe is fine.
pub fn linkscan(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("linkscan runs");
    let mut pipe = child.stdin.take().expect("stdin");
    std::thread::scope(|scope| {
        // Dropping the pipe at the end of the write closes the program's input.
        let writer = scope.spawn(move || pipe.write_all(stdin));
        let output = child.wait_with_output().expect("linkscan finishes");
        if let Err(e) = writer.join().expect("the writer thread") {
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe,
                "writing stdin: {e}"
            );
        }
        output
    })
}

/// A fresh, empty folder `linkscan-GROUP-PID-NAME` in the system's temporary folder: the
/// process id keeps two test runs apart, `name` two tests of one group.
pub fn temp_dir(group: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("linkscan-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// `linkscan linkify --mbox --no-progress MBOX --out OUT MORE…`, as it ended.
pub fn linkify_archive(mbox: &std::path::Path, out: &std::path::Path, more: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "--no-progress"])
        .arg(mbox)
        .arg("--out")
        .arg(out)
        .args(more)
        .output()
        .expect("linkscan runs")
}

/// [`linkify_archive`]: builds the archive of `mbox` into `out`, and fails the test
/// unless it succeeds.
pub fn build_archive(mbox: &std::path::Path, out: &std::path::Path, more: &[&str]) {
    let run = linkify_archive(mbox, out, more);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
