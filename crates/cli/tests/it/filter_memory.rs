//! `filter_memory`: the peak memory of `escape`, `display` and `linkify` is bounded
//! whatever the length of a line or the density of links.
//!
//! * `escape` and `display` hold one line at a time, and no line over 2 MiB (the longest
//!   URL Chromium accepts): a longer one is read and dropped, written as an empty line
//!   with a warning (exit status 2). Before, a 100 MB line took about 450 MiB, 20 MB of
//!   invalid UTF-8 about 260 MiB.
//! * `linkify` holds at most a batch of links per piece of a window, not a whole window's
//!   list: on 30 MB of `a.co,` (a window of 6 million links, no white space) it held
//!   24 bytes a link, 272 MiB at its peak.
//!
//! The peak is the child's `VmHWM` (Linux), read every few milliseconds while the test
//! feeds its input and reads its output, as in `tests/find_memory.rs`.

use crate::common;

use std::io::{BufRead, Write};
use std::process::{Command, Stdio};

use common::memory::{assert_under, run_measured, MIB};

/// The output lines, each over 100 bytes given as its length only (so that a failure
/// does not print megabytes).
fn read_lines(out: &mut dyn BufRead) -> Vec<String> {
    let mut text = String::new();
    out.read_to_string(&mut text).expect("UTF-8 output");
    text.lines()
        .map(|line| match line.len() {
            0..=100 => line.to_string(),
            len => format!("<{len} bytes ending {:?}>", &line[len - 6..]),
        })
        .collect()
}

/// A 100 MB URL between two ordinary ones: the ordinary ones are formatted as ever, the
/// long one is an empty line and a warning, and the memory stays far below the line's.
#[cfg(target_os = "linux")]
#[test]
fn escape_and_display_do_not_hold_a_100_mb_line() {
    let mut input = b"example.com/%CE%B1\nhttps://example.com/".to_vec();
    input.extend(std::iter::repeat_n(b'a', 100_000_000));
    input.extend_from_slice(b"\nexample.com/%CE%B2.\n");
    for (command, second) in [
        ("escape", "example.com/β%2E"),
        ("display", "example.com/β%2E"),
    ] {
        let mut lines = Vec::new();
        let (peak, code, stderr) = run_measured(&[command], Some(input.clone()), |out| {
            lines = read_lines(out)
        });
        assert_under(command, peak, 32 * MIB);
        assert_eq!(lines, ["example.com/α", "", second], "{command}");
        assert_eq!(code, Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains("line 2: 100000020 bytes, more than the 2 MiB"),
            "{command}: {stderr}"
        );
    }
}

/// 20 MB of invalid UTF-8 on one line (each byte becomes three when escaped).
#[cfg(target_os = "linux")]
#[test]
fn escape_and_display_do_not_hold_a_long_line_of_invalid_utf8() {
    let mut input = b"example.com/".to_vec();
    input.extend(std::iter::repeat_n(0xFF, 20_000_000));
    // The same without a line end: the last line is dropped too.
    for command in ["escape", "display"] {
        let mut lines = Vec::new();
        let (peak, code, stderr) = run_measured(&[command], Some(input.clone()), |out| {
            lines = read_lines(out)
        });
        assert_under(command, peak, 32 * MIB);
        assert_eq!(lines, [""], "{command}");
        assert_eq!(code, Some(2), "{command}: {stderr}");
    }
    // A line just under the limit is formatted whole, as before.
    let mut input = b"example.com/".to_vec();
    input.extend(std::iter::repeat_n(0xFF, (2 << 20) - 12));
    let (_, code, _) = run_measured(&["escape"], Some(input), |out| {
        let want = format!("<{} bytes ending \"%FF%FF\">", 12 + 3 * ((2 << 20) - 12));
        assert_eq!(read_lines(out), [want]);
    });
    assert_eq!(code, Some(0));
}

/// 30 MB of `a.co,`: one window without white space (under the 32 MiB run kept whole) and
/// six million links. The output is each link's HTML in order, as for one `a.co,`.
#[cfg(target_os = "linux")]
#[test]
fn linkify_does_not_hold_a_windows_links() {
    const UNITS: usize = 6_000_000;
    let unit = {
        let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
            .args(["linkify", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                child.stdin.take().unwrap().write_all(b"a.co,")?;
                child.wait_with_output()
            })
            .expect("linkscan runs");
        String::from_utf8(out.stdout).unwrap().into_bytes()
    };
    assert!(unit.starts_with(b"<bdi dir=\"ltr\"><a href=\"https://a.co\""));
    for threads in ["1", "2"] {
        let (peak, code, stderr) = run_measured(
            &["linkify", "-j", threads, "-"],
            Some(b"a.co,".repeat(UNITS)),
            |out| {
                let mut got = vec![0; unit.len()];
                for k in 0..UNITS {
                    out.read_exact(&mut got).expect("the output of every link");
                    assert!(got == unit, "link {k}: {:?}", String::from_utf8_lossy(&got));
                }
                let mut rest = Vec::new();
                out.read_to_end(&mut rest).unwrap();
                assert!(rest.is_empty(), "{:?}", String::from_utf8_lossy(&rest));
            },
        );
        assert_eq!(code, Some(0), "{stderr}");
        // The input is one window of 30 MB (the run is kept whole); the links held add at
        // most 1.5 MiB per piece in flight. 43 MiB here; 272 MiB when a window's links
        // were held.
        assert_under(&format!("linkify -j {threads}"), peak, 96 * MIB);
    }
}
