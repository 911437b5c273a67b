//! Hostile input through the command line: hostile bytes between links, unreadable inputs
//! among readable ones, and gigabytes on standard input in bounded memory.

use crate::common::linkscan;
use linkscan::LinkFinder;

use std::io::Write;
use std::process::{Command, Stdio};

// The command line.

/// A text with every hostile byte sequence of this file between links.
fn hostile_text() -> Vec<u8> {
    let mut text = Vec::new();
    for piece in [
        &b"\xEF\xBB\xBFexample.com\r"[..],
        b"\0x@example.org\0",
        b"\xED\xA0\x80https://example.net/a\xC0\xAFb\xFF",
        b"\r\rexample.com/\xE2\x80\xAEx\r",
        b"\xF0\x9F\x98example.org",
    ] {
        text.extend_from_slice(piece);
    }
    text
}

#[test]
fn cli_reports_byte_offsets_of_hostile_input() {
    let text = hostile_text();
    let want: Vec<(usize, usize)> = links(&text);
    assert_eq!(want.len(), 5);
    let out = linkscan(&["find", "--json", "--checks"], &text);
    assert!(out.status.success(), "{out:?}");
    let got: Vec<(usize, usize)> = String::from_utf8(out.stdout)
        .expect("jsonl is UTF-8")
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            (
                v["start"].as_u64().unwrap() as usize,
                v["end"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(got, want);
    // Marked output gives back every byte of the input, invalid ones included.
    let out = linkscan(&["find", "--format", "marked"], &text);
    let unmarked: Vec<u8> = String::from_utf8_lossy(&out.stdout)
        .replace(['⸠', '⸡'], "")
        .into_bytes();
    assert_eq!(
        unmarked,
        String::from_utf8_lossy(&text).into_owned().into_bytes()
    );
    let raw = out.stdout;
    assert_eq!(raw.len(), text.len() + 5 * ("⸠".len() + "⸡".len()));
    // linkify writes valid UTF-8 HTML whatever the input.
    let out = linkscan(&["linkify"], &text);
    assert!(out.status.success());
    let html = String::from_utf8(out.stdout).expect("HTML is UTF-8");
    assert_eq!(html.matches("<a href").count(), 5);
    // escape reads invalid lines lossily.
    let out = linkscan(&["escape"], &text);
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).is_ok());
}

#[test]
fn cli_goes_on_past_unreadable_inputs() {
    let dir = std::env::temp_dir().join(format!("linkscan-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, b"example.com and x@example.org").unwrap();
    let missing = dir.join("missing.txt");
    let subdir = dir.join("a-directory");
    std::fs::create_dir_all(&subdir).unwrap();
    let args = [
        "find",
        "--count",
        good.to_str().unwrap(),
        subdir.to_str().unwrap(),
        missing.to_str().unwrap(),
        "-",
        good.to_str().unwrap(),
    ];
    let out = linkscan(&args, b"example.net");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_unreadable_file_is_skipped(&dir, &good);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let counts: Vec<&str> = stdout
        .lines()
        .map(|l| l.rsplit(':').next().unwrap())
        .collect();
    assert_eq!(counts, ["2", "1", "2"], "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    // The directory is walked (it is empty: nothing to read, nothing to report).
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("missing.txt"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A file without read permission among readable ones (Unix; skipped when running as a
/// user that can read it anyway, such as root).
#[cfg(unix)]
fn assert_unreadable_file_is_skipped(dir: &std::path::Path, good: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    let locked = dir.join("locked.txt");
    std::fs::write(&locked, b"example.com").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&locked).is_ok() {
        eprintln!("skipping the permission case: this user reads a mode 000 file");
        return;
    }
    let out = linkscan(
        &[
            "find",
            "--count",
            good.to_str().unwrap(),
            locked.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}:2\n", good.display())
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("locked.txt"));
}

#[cfg(not(unix))]
fn assert_unreadable_file_is_skipped(_: &std::path::Path, _: &std::path::Path) {}

/// The peak resident memory of process `pid`, in bytes (Linux; `None` elsewhere or once
/// it has exited).
fn peak_rss_of(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn cli_streams_a_multi_gigabyte_stdin_in_bounded_memory() {
    const GB: usize = 1 << 30;
    let line = "see https://example.com/path?q=(1) and x@example.org, example.net.\n";
    let block = line.repeat((1 << 20) / line.len());
    let blocks = 3 * GB / block.len();
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "--count", "-j", "2", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("linkscan runs");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut peak = 0;
    for k in 0..blocks {
        stdin
            .write_all(block.as_bytes())
            .expect("linkscan reads its input");
        if k % 256 == 0 {
            peak = peak.max(peak_rss_of(pid).unwrap_or(0));
        }
    }
    peak = peak.max(peak_rss_of(pid).unwrap_or(0));
    drop(stdin);
    let out = child.wait_with_output().expect("linkscan finishes");
    assert!(out.status.success(), "{out:?}");
    let lines = blocks * (block.len() / line.len());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", 3 * lines)
    );
    // The input is 3 GiB; the program keeps a bounded buffer (a few tens of MB).
    assert!(
        peak < 256 << 20,
        "peak memory {peak} bytes for a 3 GiB stream"
    );
    eprintln!("3 GiB on stdin: peak memory {} MB", peak >> 20);
}

/// The links of `text` as `(start, end)`, as the library finds them (the engine's
/// `hostile` tests check them against the oracle).
fn links(text: &[u8]) -> Vec<(usize, usize)> {
    LinkFinder::new()
        .links_bytes(text)
        .map(|l| (l.start(), l.end()))
        .collect()
}
