//! Regular files are read by the workers that scan them, in windows that the calling
//! thread plans with small positioned reads (`src/bin/linkscan/files.rs`); standard input
//! from a pipe is read by a reader thread (`input.rs`). The two must give the same output
//! byte for byte whatever the layout of the text around the window boundaries: lines
//! longer than a window, no line break at all, runs without white space across several
//! windows, multi-byte characters and links where a window ends, many small files.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::rng::Rng;

/// The planner's usual window (`files::WINDOW`).
const WINDOW: usize = 512 << 10;

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("windows", name)
}

/// `linkscan ARGS FILES…` with the files named (the workers read them).
fn on_files(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(args)
        .args(files)
        .stdin(Stdio::null())
        .output()
        .expect("linkscan runs")
}

/// `linkscan ARGS` with `text` on a pipe (the reader thread reads it).
fn on_pipe(args: &[&str], text: &[u8]) -> Output {
    common::linkscan(args, text)
}

/// The output of a run on the file `path` as it would be on standard input: the file's
/// name (in TSV and JSON records and in warnings) is `-` there.
fn as_stdin(mut out: Output, path: &Path) -> Output {
    let name = path.to_str().unwrap().as_bytes();
    let replace = |bytes: &[u8]| -> Vec<u8> {
        let mut res = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i..].starts_with(name) {
                res.push(b'-');
                i += name.len();
            } else {
                res.push(bytes[i]);
                i += 1;
            }
        }
        res
    };
    out.stdout = replace(&out.stdout);
    out.stderr = replace(&out.stderr);
    out
}

/// Asserts that a file and a pipe of `text` give the same output, status and warnings,
/// in every output format, on one and two threads.
fn assert_file_equals_pipe(dir: &Path, what: &str, text: &[u8]) {
    let path = dir.join(format!("{what}.txt"));
    std::fs::write(&path, text).unwrap();
    for format in [
        ["--format", "tsv"],
        ["--format", "jsonl"],
        ["--format", "marked"],
        ["--format", "text"],
    ] {
        for threads in ["1", "2"] {
            let mut args = vec!["find", "-j", threads];
            args.extend(format);
            let file = as_stdin(on_files(&args, &[&path]), &path);
            let pipe = on_pipe(&args, text);
            assert_eq!(file.status.code(), pipe.status.code(), "{what} {args:?}");
            assert!(
                file.stdout == pipe.stdout,
                "{what} {args:?}: {} bytes from the file, {} from the pipe",
                file.stdout.len(),
                pipe.stdout.len()
            );
            assert_eq!(
                String::from_utf8_lossy(&file.stderr),
                String::from_utf8_lossy(&pipe.stderr),
                "{what} {args:?}"
            );
        }
    }
    let count = on_files(&["find", "--count"], &[&path]);
    let links = String::from_utf8_lossy(&count.stdout)
        .trim()
        .parse::<usize>()
        .unwrap();
    let tsv = on_files(&["find", "--format", "tsv"], &[&path]);
    assert_eq!(
        links,
        tsv.stdout.iter().filter(|&&b| b == b'\n').count(),
        "{what}"
    );
}

#[test]
fn files_and_pipes_give_the_same_links_whatever_the_layout_at_window_ends() {
    let dir = temp_dir("layouts");
    let link = "see https://example.com/a/b?c=d and mail ann@example.org, x.com:8080 ";
    let mut layouts: Vec<(&str, Vec<u8>)> = Vec::new();
    // Ordinary lines.
    layouts.push((
        "lines",
        format!("{link}\n")
            .repeat(3 * WINDOW / link.len())
            .into_bytes(),
    ));
    // One line of spaces and links, no line break at all.
    layouts.push((
        "one_line",
        link.repeat(3 * WINDOW / link.len()).into_bytes(),
    ));
    // A link that ends exactly at, one before and one after each window end.
    for shift in [0usize, 1, 2] {
        let mut text = vec![b'\n'; WINDOW - 20 + shift];
        text.extend_from_slice(b"https://example.com/");
        text.extend_from_slice(&b"\n".repeat(WINDOW));
        text.extend_from_slice(b"x.com");
        layouts.push((["link_end_0", "link_end_1", "link_end_2"][shift], text));
    }
    // A run without white space longer than a window and than a block, holding links
    // (a path), across two window ends; then text after it.
    let mut run = b"start https://example.com/".to_vec();
    while run.len() < 2 * WINDOW + 12_345 {
        run.extend_from_slice("ab/ç/x.com/".as_bytes());
    }
    run.extend_from_slice(b" then x.com and y.org\n");
    layouts.push(("long_run", run.repeat(2)));
    // The last line break of a window far before its end (found in the later, larger
    // blocks the planner reads backwards), then runs without white space of decreasing
    // lengths, each over a window (read into the same reused buffer, which holds more of
    // the run before it than each window reads).
    for (name, back) in [
        ("cut_back_5k", 5_000usize),
        ("cut_back_70k", 70_000),
        ("cut_back_300k", 300_000),
    ] {
        let mut text = b"see x.com and ".repeat((WINDOW - back) / 14);
        text.push(b'\n');
        for (i, len) in [3 * WINDOW + 1, 2 * WINDOW + 3, WINDOW + 5]
            .into_iter()
            .enumerate()
        {
            let unit = ["y.org/(a)", "\u{e7}.x.com:8/", "a@b.co."][i].as_bytes();
            let end = text.len() + len;
            while text.len() < end {
                text.extend_from_slice(unit);
            }
            text.push(if i == 1 { b' ' } else { b'\n' });
        }
        layouts.push((name, text));
    }
    // Multi-byte characters everywhere, and a few ideographic spaces (not cut bytes).
    let intl = "日本語のテキスト。例えば example.jp／パス　と мир.рф, العربية.com ";
    layouts.push(("intl", intl.repeat(3 * WINDOW / intl.len()).into_bytes()));
    // Random mixtures of short units, with and without line breaks.
    let units = [
        "x.com", " ", "\n", "a@b.co", "ç", "日", ".", "/", "https://", "(", ")", "\t", ":8", "-",
        "\u{3000}", "www.", "e\u{301}",
    ];
    let mut rng = Rng::new(58);
    for name in ["random_0", "random_1", "random_2"] {
        let mut text = String::new();
        while text.len() < 2 * WINDOW + 777 {
            text.push_str(units[rng.below(units.len())]);
        }
        layouts.push((name, text.into_bytes()));
    }
    // Empty, and shorter than a block.
    layouts.push(("empty", Vec::new()));
    layouts.push(("short", b"x.com".to_vec()));
    for (what, text) in &layouts {
        assert_file_equals_pipe(&dir, what, text);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_run_longer_than_the_limit_is_cut_with_the_same_warning_from_a_file_as_from_a_pipe() {
    let dir = temp_dir("forced");
    // 33 MiB without white space (over the 32 MiB kept whole), starting with a link.
    let mut text = b"https://example.com/".to_vec();
    text.resize(33 << 20, b'a');
    text.extend_from_slice(b" x.com\n");
    let path = dir.join("run.txt");
    std::fs::write(&path, &text).unwrap();
    let file = as_stdin(on_files(&["find", "--format", "tsv"], &[&path]), &path);
    let pipe = on_pipe(&["find", "--format", "tsv"], &text);
    let stderr = String::from_utf8_lossy(&file.stderr);
    assert!(stderr.contains("1 run(s) of more than 32 MiB"), "{stderr}");
    assert_eq!(stderr, String::from_utf8_lossy(&pipe.stderr));
    assert_eq!(file.stdout, pipe.stdout);
    // The link after the run (the one at its start is over the length limit).
    assert!(String::from_utf8_lossy(&file.stdout).ends_with("\turl\tx.com\n"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn many_small_files_come_out_in_order_with_errors_in_their_place() {
    let dir = temp_dir("many");
    let mut paths = Vec::new();
    for i in 0..300 {
        let path = dir.join(format!("f{i:03}.txt"));
        std::fs::write(
            &path,
            format!("file {i}: host{i}.example.com\n").repeat(i % 7),
        )
        .unwrap();
        paths.push(path);
        if i == 150 {
            paths.push(dir.join("missing.txt"));
        }
    }
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    for threads in ["1", "2"] {
        let out = on_files(&["find", "-j", threads, "--count", "--include-zero"], &refs);
        assert_eq!(out.status.code(), Some(2), "a missing file is an error");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("missing.txt: No such file or directory"),
            "{stderr}"
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 300, "one count per readable file");
        for (i, line) in lines.iter().enumerate() {
            let path = dir.join(format!("f{i:03}.txt"));
            assert_eq!(*line, format!("{}:{}", path.display(), i % 7));
        }
        let tsv = on_files(&["find", "-j", threads, "--format", "tsv"], &refs);
        let text = String::from_utf8(tsv.stdout).unwrap();
        let hosts: Vec<String> = text
            .lines()
            .map(|l| l.rsplit('\t').next().unwrap().to_string())
            .collect();
        let want: Vec<String> = (0..300)
            .flat_map(|i| std::iter::repeat_n(format!("host{i}.example.com"), i % 7))
            .collect();
        assert_eq!(hosts, want);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn standard_input_redirected_from_a_file_is_read_as_the_file() {
    let dir = temp_dir("stdin");
    let path = dir.join("in.txt");
    let text = "x.com y.org\n".repeat(200_000);
    std::fs::write(&path, &text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "--count"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "400000");
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "--format", "tsv", "-"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert_eq!(first, "-\t0\t5\turl\tx.com");
    std::fs::remove_dir_all(dir).ok();
}

/// An mbox archive of `n` messages of varied sizes around the read buffers (4 MiB, with
/// 1 MiB of room for a carried message start): small ones, some over the room, one over
/// a whole buffer; each with links at its start and end and an escaped `From ` line.
fn archive() -> Vec<u8> {
    let sizes = [
        200,
        3_000,
        700 << 10,
        (1 << 20) + 5_000,
        50,
        (5 << 20) + 17,
        (2 << 20) - 3,
        10_000,
    ];
    let mut mbox = Vec::new();
    for (i, &size) in sizes.iter().cycle().take(24).enumerate() {
        mbox.extend_from_slice(
            format!(
                "From sender{i}@example.com Mon Jan  1 00:00:00 2024\n\
                 From: A <a{i}@example.com>\nSubject: message {i}\n\
                 Message-ID: <{i}@example.com>\n\n\
                 first https://start{i}.example.com/\n>From the archive\n"
            )
            .as_bytes(),
        );
        let line = format!("filler line {i} with no link at all, just words\n");
        let mut body = 0;
        while body < size {
            mbox.extend_from_slice(line.as_bytes());
            body += line.len();
        }
        mbox.extend_from_slice(format!("last end{i}.example.org\n\n").as_bytes());
    }
    mbox
}

/// Runs `find --mbox --format jsonl -j THREADS` on the archive file `path` and on `mbox`
/// (its bytes) from a pipe; asserts both succeed with the same output and warnings, and
/// returns the file's output (its name written `-`, as on the pipe).
fn assert_mbox_file_equals_pipe(path: &Path, mbox: &[u8], threads: &str) -> Output {
    let args = ["find", "--mbox", "--format", "jsonl", "-j", threads];
    let file = as_stdin(on_files(&args, &[path]), path);
    let pipe = on_pipe(&args, mbox);
    assert_eq!(
        file.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&file.stderr)
    );
    assert!(
        file.stdout == pipe.stdout,
        "-j {threads}: the file and the pipe differ"
    );
    assert_eq!(file.stderr, pipe.stderr, "-j {threads}");
    file
}

#[test]
fn an_mbox_file_read_on_the_pool_equals_the_same_archive_on_a_pipe() {
    let dir = temp_dir("mbox");
    let path = dir.join("archive.mbox");
    let mbox = archive();
    std::fs::write(&path, &mbox).unwrap();
    // 16 and 32 threads ask for more reads ahead and keep more batches in flight.
    for threads in ["1", "2", "16", "32"] {
        let file = assert_mbox_file_equals_pipe(&path, &mbox, threads);
        let text = String::from_utf8(file.stdout).unwrap();
        for i in 0..24 {
            assert!(
                text.contains(&format!("start{i}.example.com")),
                "message {i}"
            );
            assert!(text.contains(&format!("end{i}.example.org")), "message {i}");
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

/// An mbox archive whose `From ` lines cross the boundaries of the reads of an archive
/// file (every 4 MiB, `READ_BYTES` in `mail.rs`), each cut at another byte: separators,
/// an mboxrd-escaped line (the message must still be unescaped) and a `From ` inside a
/// line. The workers that read find the `From ` in their bytes, and the splitting thread
/// those across the junction with the bytes carried from the read before. Returns the
/// archive and how many messages it holds.
fn archive_with_from_lines_across_reads() -> (Vec<u8>, usize) {
    const READ: usize = 4 << 20;
    let mut mbox = Vec::new();
    let mut messages = 0;
    let mut start = |mbox: &mut Vec<u8>| {
        let i = messages;
        messages += 1;
        mbox.extend_from_slice(
            format!(
                "From s{i}@example.com Mon Jan  1 00:00:00 2024\nSubject: {i}\n\
                 Message-ID: <{i}@example.com>\n\nsee https://m{i}.example.com/\n"
            )
            .as_bytes(),
        );
    };
    // (boundary, where in `From ` it falls, the text before `From ` on its line).
    let crossings: [(usize, usize, &[u8]); 8] = [
        (1, 1, b""),
        (2, 2, b""),
        (3, 3, b""),
        (4, 4, b""),
        (5, 2, b">"),
        (6, 3, b">>"),
        (7, 1, b"as said, "),
        (8, 4, b""),
    ];
    for (k, cut, before) in crossings {
        let from_at = k * READ - cut;
        let line_at = from_at - before.len();
        // Messages of 150 KB up to a little before the line (under the 1 MiB of room
        // for a carried message start, so that the carry is not joined to a new buffer).
        while line_at - mbox.len() > 300_000 {
            start(&mut mbox);
            while mbox.len() % 150_000 > 100 {
                mbox.extend_from_slice(b"filler words and no links at all\n");
            }
        }
        if before.is_empty() {
            // The line starts a message: pad the message before it.
            start(&mut mbox);
            let pad = line_at - mbox.len() - 1;
            mbox.extend(std::iter::repeat_n(b'x', pad));
            mbox.push(b'\n');
            start(&mut mbox);
        } else {
            // The line is inside a message, with a link after it.
            start(&mut mbox);
            let pad = line_at - mbox.len() - 1;
            mbox.extend(std::iter::repeat_n(b'y', pad));
            mbox.push(b'\n');
            mbox.extend_from_slice(before);
            mbox.extend_from_slice(
                b"From the archive, x.example.net\nand after it y.example.net\n",
            );
        }
        assert_eq!(&mbox[from_at..from_at + 5], b"From ".as_slice());
    }
    start(&mut mbox);
    mbox.extend_from_slice(b"the last one.example.org\n");
    (mbox, messages)
}

#[test]
fn from_lines_across_the_reads_of_an_archive_file_split_as_on_a_pipe() {
    let dir = temp_dir("mbox-across");
    let path = dir.join("archive.mbox");
    let (mbox, messages) = archive_with_from_lines_across_reads();
    std::fs::write(&path, &mbox).unwrap();
    for threads in ["1", "2", "16"] {
        let file = assert_mbox_file_equals_pipe(&path, &mbox, threads);
        let stderr = String::from_utf8_lossy(&file.stderr);
        assert!(
            stderr.contains(&format!(": {messages} messages, ")),
            "{stderr}"
        );
        // The escaped lines were unescaped: the links after them are where the unescaped
        // text has them, the same as on the pipe, and every message's link is there.
        let text = String::from_utf8(file.stdout).unwrap();
        for i in 0..messages {
            assert!(text.contains(&format!("m{i}.example.com")), "message {i}");
        }
        assert_eq!(text.matches("\"text\":\"x.example.net\"").count(), 3);
    }
    std::fs::remove_dir_all(dir).ok();
}
