//! The peak memory of a run of the command line, for the tests that bound it
//! (`find_memory`, `filter_memory`): the child's `VmHWM` (Linux), read every few
//! milliseconds while the test feeds its input and reads its output. A high-water mark, so
//! any reading after the peak sees it.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// A mebibyte.
pub const MIB: usize = 1 << 20;

/// Asserts that a run's `peak` memory was read and is at most `bound` bytes, and says both
/// (in MiB) on stderr.
pub fn assert_under(what: &str, peak: usize, bound: usize) {
    eprintln!(
        "{what}: peak {} MiB (bound {} MiB)",
        peak / MIB,
        bound / MIB
    );
    assert!(peak > 0, "{what}: no peak read");
    assert!(
        peak <= bound,
        "{what}: peak {} MiB over the bound of {} MiB",
        peak / MIB,
        bound / MIB
    );
}

/// The peak resident memory of process `pid`, in bytes (`None` once it has exited).
pub fn peak_rss_of(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `linkscan ARGS`, with `stdin` fed through a pipe when given (so the input is a
/// stream, not a regular file) and no standard input otherwise, hands its output to
/// `check` as it comes, and returns the peak memory seen, the exit code and the stderr.
pub fn run_measured(
    args: &[&str],
    stdin: Option<Vec<u8>>,
    check: impl FnOnce(&mut dyn BufRead),
) -> (usize, Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_linkscan"));
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match stdin {
        Some(_) => command.stdin(Stdio::piped()),
        None => command.stdin(Stdio::null()),
    };
    let mut child = command.spawn().expect("linkscan runs");
    let pid = child.id();
    let feeder = stdin.map(|text| {
        let mut pipe = child.stdin.take().expect("stdin");
        thread::spawn(move || {
            let _ = pipe.write_all(&text);
        })
    });
    let peak = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let poller = {
        let (peak, done) = (Arc::clone(&peak), Arc::clone(&done));
        thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if let Some(now) = peak_rss_of(pid) {
                    peak.fetch_max(now, Ordering::Relaxed);
                }
                thread::sleep(Duration::from_millis(2));
            }
        })
    };
    let mut stdout = BufReader::with_capacity(1 << 16, child.stdout.take().expect("stdout"));
    check(&mut stdout);
    // Whatever `check` left unread, so the child can finish.
    std::io::copy(&mut stdout, &mut std::io::sink()).expect("read the output");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    let status = child.wait().expect("linkscan finishes");
    done.store(true, Ordering::Relaxed);
    poller.join().expect("the poller ends");
    if let Some(feeder) = feeder {
        feeder.join().expect("the feeder ends");
    }
    (peak.load(Ordering::Relaxed), status.code(), stderr)
}
