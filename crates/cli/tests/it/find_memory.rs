//! `find_memory`: the peak memory of `linkscan find` on link-dense text without white
//! space is bounded by its windows, not by its links.
//!
//! The input is 35 MB of `a.co,` (7 million links, no ASCII space or control character),
//! so a window grows to the longest run kept whole (32 MiB) and then is cut. Before the
//! output was streamed per window, every window's rendered output was held until written:
//! 1.2 GB for 50 MB of it in JSON lines at `-j 2`. Now a worker holds at most a budget
//! (8 MiB) of a window's output and the writing thread
//! renders the rest itself, so the peak is the windows' buffers plus a few budgets:
//! [`bound`] for `-j N`.
//!
//! The peak is the child's `VmHWM` (Linux), read every few milliseconds while the test
//! reads its output: a high-water mark, so any reading after the peak sees it. Each output
//! is checked line by line (every record in order, each a link of the input, as many as
//! `--count` finds), so streaming changes neither the bytes nor their order.

use crate::common;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;

use common::memory::MIB;

/// The unit repeated: the shortest link and a comma, which ends it and is no white space.
const UNIT: &[u8] = b"a.co,";
const UNITS: usize = 7_000_000;

/// The documented bound of `find` at `-j threads` on a regular file: one window buffer
/// per worker and one for the writing thread (each at most 32 MiB, the longest run kept
/// whole), four outputs in flight per worker (each at most 8 MiB), and 48 MiB for the
/// program, its tables and the allocator.
fn bound(threads: usize) -> usize {
    (threads + 1) * 32 * MIB + 4 * threads * 8 * MIB + 48 * MIB
}

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("fmem", name)
}

/// The input, written to `dir/dense.txt`.
fn dense(dir: &Path) -> (PathBuf, Vec<u8>) {
    let text = UNIT.repeat(UNITS);
    let path = dir.join("dense.txt");
    std::fs::write(&path, &text).expect("write the input");
    (path, text)
}

/// Runs `linkscan ARGS` (with the file `stdin` as standard input when given, through a
/// pipe, else none), hands its output to `check` as it comes, checks that it succeeded and
/// returns the peak memory seen and the stderr.
fn run_measured(
    args: &[&str],
    stdin: Option<&Path>,
    check: impl FnOnce(&mut dyn BufRead),
) -> (usize, String) {
    let text = stdin.map(|path| std::fs::read(path).expect("read the input"));
    let (peak, code, stderr) = common::memory::run_measured(args, text, check);
    assert_eq!(code, Some(0), "{args:?}\n{stderr}");
    (peak, stderr)
}

/// The number of links `find --count` finds in `path`.
fn count(path: &Path) -> usize {
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "--count", path.to_str().unwrap()])
        .output()
        .expect("linkscan runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Reads lines of `output`, each `prefix START suffix(START)`, and checks that the starts
/// increase, that each is a link of `text`, and that there are `links` of them.
fn check_records(
    output: &mut dyn BufRead,
    text: &[u8],
    links: usize,
    prefix: &str,
    suffix: impl Fn(usize) -> String,
) {
    let mut line = Vec::new();
    let mut seen = 0;
    let mut last = None;
    loop {
        line.clear();
        if output.read_until(b'\n', &mut line).expect("read a line") == 0 {
            break;
        }
        let record = std::str::from_utf8(&line).expect("UTF-8 output");
        let rest = record
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("record {seen}: {record:?} does not start {prefix:?}"));
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let start: usize = rest[..digits].parse().expect("a start offset");
        assert_eq!(&rest[digits..], suffix(start), "record {seen}");
        assert!(
            last.is_none_or(|last| start > last),
            "record {seen}: {start} out of order"
        );
        assert_eq!(
            &text[start..start + 4],
            b"a.co",
            "record {seen}: no link at {start}"
        );
        last = Some(start);
        seen += 1;
    }
    assert_eq!(seen, links, "records against --count");
}

fn assert_bounded(what: &str, peak: usize, threads: usize) {
    common::memory::assert_under(what, peak, bound(threads));
}

#[cfg(target_os = "linux")]
#[test]
fn json_lines_of_dense_text_are_streamed_per_window() {
    let dir = temp_dir("jsonl");
    let (path, text) = dense(&dir);
    let name = path.to_str().unwrap();
    let links = count(&path);
    assert!(links >= UNITS - 2, "{links}");
    let file_json = serde_json::to_string(name).unwrap();
    for threads in [1, 2] {
        let j = threads.to_string();
        let (peak, stderr) = run_measured(
            &["find", "-j", &j, "--format", "jsonl", name],
            None,
            |out| {
                check_records(
                    out,
                    &text,
                    links,
                    &format!("{{\"file\":{file_json},\"start\":"),
                    |s| format!(",\"end\":{},\"kind\":\"url\",\"text\":\"a.co\"}}\n", s + 4),
                );
            },
        );
        assert!(stderr.contains("without white space"), "{stderr}");
        assert_bounded(&format!("jsonl -j {threads}"), peak, threads);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[cfg(target_os = "linux")]
#[test]
fn tsv_and_only_matching_of_dense_text_are_streamed_per_window() {
    let dir = temp_dir("tsv");
    let (path, text) = dense(&dir);
    let name = path.to_str().unwrap();
    let links = count(&path);
    let (peak, _) = run_measured(&["find", "-j", "1", "--format", "tsv", name], None, |out| {
        check_records(out, &text, links, &format!("{name}\t"), |s| {
            format!("\t{}\turl\ta.co\n", s + 4)
        });
    });
    assert_bounded("tsv", peak, 1);

    // -o with two inputs: each link after its file name; the empty file has none.
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let (peak, _) = run_measured(
        &["find", "-j", "1", "-o", name, empty.to_str().unwrap()],
        None,
        |out| {
            let expected = format!("{name}:a.co\n");
            let mut line = Vec::new();
            let mut seen = 0;
            while out.read_until(b'\n', &mut line).expect("read a line") > 0 {
                assert_eq!(line, expected.as_bytes(), "line {seen}");
                line.clear();
                seen += 1;
            }
            assert_eq!(seen, links);
        },
    );
    assert_bounded("-o", peak, 1);
    std::fs::remove_dir_all(dir).ok();
}

#[cfg(target_os = "linux")]
#[test]
fn marked_dense_text_is_streamed_per_window() {
    let dir = temp_dir("marked");
    let (path, text) = dense(&dir);
    let links = count(&path);
    let (peak, _) = run_measured(
        &[
            "find",
            "-j",
            "1",
            "--format",
            "marked",
            path.to_str().unwrap(),
        ],
        None,
        |out| {
            let mut marked = Vec::new();
            out.read_to_end(&mut marked).expect("read the output");
            let marked = String::from_utf8(marked).expect("UTF-8 output");
            assert_eq!(marked.matches('⸠').count(), links);
            assert_eq!(marked.matches('⸡').count(), links);
            assert!(marked.starts_with("⸠a.co⸡,⸠a.co⸡,"));
            // The input itself, every byte in order, between the marks.
            assert!(marked.replace(['⸠', '⸡'], "").as_bytes() == text);
        },
    );
    assert_bounded("marked", peak, 1);
    std::fs::remove_dir_all(dir).ok();
}

/// Standard input from a pipe, and `-n` (which counts lines from the start), take the
/// reader thread's path: pieces rendered a batch at a time, each with the same budget.
#[cfg(target_os = "linux")]
#[test]
fn dense_text_on_a_pipe_and_with_line_numbers_is_streamed() {
    let dir = temp_dir("stdin");
    let (path, text) = dense(&dir);
    let name = path.to_str().unwrap();
    let links = count(&path);
    let (peak, _) = run_measured(
        &["find", "-j", "2", "--format", "tsv", "-"],
        Some(&path),
        |out| {
            check_records(out, &text, links, "-\t", |s| {
                format!("\t{}\turl\ta.co\n", s + 4)
            });
        },
    );
    // The reader's two windows take the place of the writer's one.
    assert_bounded("tsv, standard input", peak, 2);
    let (peak, _) = run_measured(&["find", "-j", "2", "-n", "-o", name], None, |out| {
        let mut line = Vec::new();
        let mut seen = 0;
        while out.read_until(b'\n', &mut line).expect("read a line") > 0 {
            assert_eq!(line, b"1:a.co\n", "line {seen}");
            line.clear();
            seen += 1;
        }
        assert_eq!(seen, links);
    });
    assert_bounded("-n -o", peak, 2);
    std::fs::remove_dir_all(dir).ok();
}

/// A window of ordinary lines whose output passes the budget (a long file name on every
/// record): the rest is rendered from the last line break before where the worker
/// stopped. The records are those of the same text read from a pipe, where the short name
/// keeps every piece under the budget.
#[test]
fn output_past_the_budget_in_ordinary_lines_is_the_same() {
    let dir = temp_dir("long-name");
    let deep = dir.join("d".repeat(200)).join("e".repeat(200));
    std::fs::create_dir_all(&deep).unwrap();
    let line = "see a.co and x@b.org, http://c.com/p?q=(1). \u{200b}d.com\n";
    // 600 KB: more than one window of a regular file (512 KiB), about 25 MB of JSON.
    let text = line.repeat(600_000 / line.len());
    let path = deep.join("lines.txt");
    std::fs::write(&path, &text).unwrap();
    let name = path.to_str().unwrap();
    let run = |args: &[&str], stdin: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("linkscan runs");
        let mut pipe = child.stdin.take().expect("stdin");
        let stdin = stdin.to_vec();
        let feeder = thread::spawn(move || {
            let _ = pipe.write_all(&stdin);
        });
        let out = child.wait_with_output().expect("linkscan finishes");
        feeder.join().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).expect("UTF-8 output")
    };
    // With -n and --column the file takes the reader thread's path too, in pieces.
    for options in [
        &["--checks", "--format", "jsonl"][..],
        &["--checks", "--format", "tsv"],
        &["-n", "--column", "--format", "jsonl"],
    ] {
        let file = run(&[&["find", "-j", "2"], options, &[name]].concat(), b"");
        let pipe = run(
            &[&["find", "-j", "2"], options, &["-"]].concat(),
            text.as_bytes(),
        );
        // Past the budget (8 MiB) in each window.
        assert!(file.len() > 16 << 20, "{}", file.len());
        let file_json = serde_json::to_string(name).unwrap();
        let file = if options.contains(&"tsv") {
            file.replace(&format!("{name}\t"), "-\t")
        } else {
            file.replace(&format!("{{\"file\":{file_json},"), "{\"file\":\"-\",")
        };
        assert!(
            file == pipe,
            "{options:?}: the file's records differ from the pipe's"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Units of `a.co, ` (a link every 6 bytes) in each message of [`dense_mbox`].
const MAIL_UNITS: usize = 2_000_000;

/// Two messages of 12 MB, a link every 6 bytes, in `dir/dense.mbox`. Before the output of
/// `find --mbox` was bounded, each message's links were all kept (a record of some 100
/// bytes each) and all rendered before any was written: 1.1 GB for these two at `-j 2`
/// (3.45 GB for two of 31 MB).
fn dense_mbox(dir: &Path) -> PathBuf {
    let mut mbox = Vec::new();
    for id in 1..=2 {
        mbox.extend_from_slice(b"From a@example.com Mon Jan  1 00:00:00 2024\n");
        mbox.extend_from_slice(format!("Message-ID: <m{id}@example.com>\n").as_bytes());
        mbox.extend_from_slice(b"Subject: dense\n\n");
        mbox.extend_from_slice(&b"a.co, ".repeat(MAIL_UNITS));
        mbox.extend_from_slice(b"\n\n");
    }
    let path = dir.join("dense.mbox");
    std::fs::write(&path, &mbox).expect("write the archive");
    path
}

/// The documented bound of `find --mbox` at `-j threads` on an archive of messages of
/// `message` bytes at most: per thread, one message being scanned and one waiting to be
/// written, each with its bytes and its decoded text (four times the message in all),
/// and the output budget (8 MiB); and 48 MiB for the program, its tables and the
/// allocator.
fn mail_bound(threads: usize, message: usize) -> usize {
    threads * (4 * message + 8 * MIB) + 48 * MIB
}

fn assert_mail_bounded(what: &str, peak: usize, threads: usize) {
    common::memory::assert_under(what, peak, mail_bound(threads, MAIL_UNITS * 6 + 100));
}

/// Reads the records of the two messages of [`dense_mbox`], each line `prefix(message)
/// START suffix(START)`, and checks that each is the next link of its message's text.
fn check_mail_records(
    output: &mut dyn BufRead,
    prefix: impl Fn(usize) -> String,
    suffix: impl Fn(usize) -> String,
) {
    let mut line = Vec::new();
    let mut seen = [0; 2];
    loop {
        line.clear();
        if output.read_until(b'\n', &mut line).expect("read a line") == 0 {
            break;
        }
        let record = std::str::from_utf8(&line).expect("UTF-8 output");
        let message = if seen[0] < MAIL_UNITS { 1 } else { 2 };
        let n = seen[message - 1];
        let start = 6 * n;
        let expected = format!("{}{start}{}", prefix(message), suffix(start));
        assert!(
            record == expected,
            "message {message}, record {n}: {record:?}, not {expected:?}"
        );
        seen[message - 1] += 1;
    }
    assert_eq!(seen, [MAIL_UNITS; 2], "records of each message");
}

/// `find --mbox` on messages dense with links: the scan keeps no record per link of the
/// text (they are found again as they are rendered), and the workers render at most a
/// budget of output; the writing thread renders the rest. Every output format: JSON
/// lines at `-j 1` and `-j 2`, TSV, `-o` and `--count` in bounded memory, with every record
/// in order; `--format marked` is refused for archives, cleanly.
#[cfg(target_os = "linux")]
#[test]
fn mbox_output_of_messages_dense_with_links_is_bounded() {
    let dir = temp_dir("mbox");
    let path = dense_mbox(&dir);
    let name = path.to_str().unwrap();
    let file_json = serde_json::to_string(name).unwrap();
    for threads in [1, 2] {
        let j = threads.to_string();
        let (peak, _) = run_measured(
            &[
                "find",
                "--mbox",
                "--no-progress",
                "-j",
                &j,
                "--format",
                "jsonl",
                name,
            ],
            None,
            |out| {
                check_mail_records(
                    out,
                    |m| {
                        format!(
                            "{{\"file\":{file_json},\"message\":{m},\"message_id\":\
                             \"m{m}@example.com\",\"part\":\"1\",\"content_type\":\
                             \"text/plain\",\"source\":\"text\",\"start\":"
                        )
                    },
                    |s| {
                        format!(
                            ",\"end\":{},\"kind\":\"url\",\"text\":\"a.co\",\
                             \"href\":\"https://a.co\"}}\n",
                            s + 4
                        )
                    },
                )
            },
        );
        assert_mail_bounded(&format!("--mbox jsonl -j {threads}"), peak, threads);
    }
    let (peak, _) = run_measured(
        &[
            "find",
            "--mbox",
            "--no-progress",
            "-j",
            "2",
            "--format",
            "tsv",
            name,
        ],
        None,
        |out| {
            check_mail_records(
                out,
                |m| format!("{name}\t{m}\tm{m}@example.com\t1\ttext/plain\ttext\t"),
                |s| format!("\t{}\turl\ta.co\thttps://a.co\n", s + 4),
            )
        },
    );
    assert_mail_bounded("--mbox tsv -j 2", peak, 2);
    let (peak, _) = run_measured(
        &["find", "--mbox", "--no-progress", "-j", "2", "-o", name],
        None,
        |out| {
            let mut line = Vec::new();
            let mut seen = 0;
            while out.read_until(b'\n', &mut line).expect("read a line") > 0 {
                assert_eq!(line, b"a.co\n", "line {seen}");
                line.clear();
                seen += 1;
            }
            assert_eq!(seen, 2 * MAIL_UNITS);
        },
    );
    assert_mail_bounded("--mbox -o -j 2", peak, 2);
    let (peak, _) = run_measured(
        &[
            "find",
            "--mbox",
            "--no-progress",
            "-j",
            "2",
            "--count",
            name,
        ],
        None,
        |out| {
            let mut count = String::new();
            out.read_to_string(&mut count).expect("read the count");
            assert_eq!(count, format!("{}\n", 2 * MAIL_UNITS));
        },
    );
    assert_mail_bounded("--mbox --count -j 2", peak, 2);
    // Marked text is for plain text: an error, not a run.
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "--mbox", "--format", "marked", name])
        .output()
        .expect("linkscan runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format marked is for plain text"));
    std::fs::remove_dir_all(dir).ok();
}
