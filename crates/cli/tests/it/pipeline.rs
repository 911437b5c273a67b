//! The command line's pipeline: TSV rows keep their columns, file names that are not UTF-8
//! stay distinct, over-limit messages are scanned raw with every link found, a file that
//! shrinks while read is an error, a UTF-16 input is warned about, and the hostile archives
//! of the limits section finish under a 1 GB address-space limit. (That the fast paths of
//! the scan give the results of the general ones, and the buffer splitter the line
//! reader's messages, is the mail package's to test: its unit tests do.)

#![cfg(feature = "mail")]

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("pipeline", name)
}

fn run(args: &[&str]) -> std::process::Output {
    common::linkscan(args, b"")
}

#[test]
fn tsv_rows_keep_their_columns_and_escape_tabs_newlines_and_backslashes() {
    let dir = temp_dir("tsv");
    let path = dir.join("a\tb\\c.txt");
    std::fs::write(&path, "see example.com/x\\y and x@example.org\n").unwrap();
    let out = run(&["find", "--format", "tsv", path.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in &rows {
        assert_eq!(row.split('\t').count(), 5, "{row:?}");
        assert!(row.contains("a\\tb\\\\c.txt"), "{row:?}");
    }
    assert!(rows[0].ends_with("\texample.com/x\\\\y"), "{:?}", rows[0]);

    // The mail TSV: a tab in a Content-Type (read with --all-text) stays in its column.
    let mbox = dir.join("tab.mbox");
    std::fs::write(
        &mbox,
        "From a Mon Jan  1 00:00:00 2024\nMessage-ID: <x\ty@example.org>\n\
         Content-Type: text/x-patch;\tname=a\n\nsee example.com\n",
    )
    .unwrap();
    let out = run(&[
        "find",
        "--mbox",
        "--all-text",
        "--format",
        "tsv",
        "--no-progress",
        mbox.to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert_eq!(
        text.lines().next().unwrap().split('\t').count(),
        11,
        "{text}"
    );
    assert!(text.contains("x\\ty@example.org"), "{text}");
    std::fs::remove_dir_all(dir).ok();
}

#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_stay_distinct() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = temp_dir("names");
    let a = dir.join(OsStr::from_bytes(b"caf\xE9.txt"));
    let b = dir.join(OsStr::from_bytes(b"caf\xE8.txt"));
    for p in [&a, &b] {
        std::fs::write(p, "example.com\n").unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "--json"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).expect("the output is UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_ne!(
        lines[0].split(',').next(),
        lines[1].split(',').next(),
        "{text}"
    );
    assert!(lines[0].starts_with("{\"file\":{\"bytes\":\""), "{text}");
    assert!(!text.contains('\u{FFFD}'), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "--format", "tsv"])
        .arg(&a)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!("{}/caf\\xE9.txt\t0\t11\t", dir.display())),
        "{text}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// The links of `text` as the finder sees raw bytes.
fn raw_link_count(text: &[u8]) -> usize {
    linkscan::LinkFinder::new().links_bytes(text).count()
}

#[test]
fn a_message_over_the_limit_is_scanned_raw_with_every_link_and_a_warning() {
    let dir = temp_dir("limit");
    let body = "line with example.com/page and x@example.org in it\n".repeat(60_000);
    let mbox = format!(
        "From a Mon Jan  1 00:00:00 2024\nSubject: big\n\n{body}\
         From b Mon Jan  1 00:00:00 2024\nSubject: small\n\nsee example.net\n"
    );
    let path = dir.join("big.mbox");
    std::fs::write(&path, &mbox).unwrap();
    let out = run(&[
        "find",
        "--mbox",
        "--max-message-size",
        "1M",
        "--format",
        "tsv",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("message 1: the message is larger than the limit of 1048576 bytes"),
        "{stderr}"
    );
    assert!(stderr.contains("2 messages"), "{stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    let first: Vec<&str> = text
        .lines()
        .filter(|l| l.split('\t').nth(1) == Some("1"))
        .collect();
    // Every link of the raw message, once, in order, with offsets in the message.
    let raw = format!("Subject: big\n\n{body}");
    assert_eq!(first.len(), raw_link_count(raw.as_bytes()));
    assert_eq!(first.len(), 120_000);
    let starts: Vec<usize> = first
        .iter()
        .map(|l| l.split('\t').nth(6).unwrap().parse().unwrap())
        .collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]));
    let last = first.last().unwrap();
    let start = starts.last().copied().unwrap();
    assert!(raw[start..].starts_with("x@example.org in it\n"), "{last}");
    assert!(last.ends_with("mailto:x@example.org"), "{last}");
    // The next message is parsed as usual.
    assert!(text
        .lines()
        .any(|l| l.starts_with(&format!("{}\t2\t", path.display())) && l.contains("example.net")));
    // Under the default limit, the same archive is parsed whole: the same links.
    let out = run(&[
        "find",
        "--mbox",
        "--count",
        "--no-progress",
        path.to_str().unwrap(),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "120001");
    assert!(
        run(&[
            "find",
            "--json",
            "--mbox",
            "--max-message-size",
            "0",
            path.to_str().unwrap()
        ])
        .status
        .code()
            == Some(2)
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_file_that_shrinks_while_read_is_an_error_naming_it_after_the_links_read() {
    // A FIFO-free way to shrink a file under the reader: a large file truncated by a
    // second thread once the first output has come out.
    let dir = temp_dir("shrink");
    let path = dir.join("log.txt");
    let line = "see example.com/abc here\n";
    std::fs::write(&path, line.repeat(4_000_000)).unwrap(); // 100 MB
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "-j", "1", "--format", "tsv"])
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(1000 * line.len() as u64)
        .unwrap();
    let mut rest = Vec::new();
    std::io::Read::read_to_end(&mut stdout, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("log.txt: the file shrank while it was read"),
        "{stderr}"
    );
    // What was printed before is whole rows.
    rest.insert(0, first[0]);
    let text = String::from_utf8(rest).unwrap();
    assert!(text.lines().count() >= 1000, "{}", text.lines().count());
    assert!(text.ends_with('\n'));
    assert!(text.lines().all(|l| l.split('\t').count() == 5));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_utf16_input_is_warned_about() {
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "see example.com\n".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    let out = common::linkscan(&["find", "--count"], &utf16);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("UTF-16"), "{stderr}");
    // Read, and no link found in it: exit status 1, as grep's.
    assert_eq!(out.status.code(), Some(1));
}

/// A gzip member of `block`, repeated `times` (concatenated members decompress to the
/// concatenation), so a huge decompressed archive is made from a small compression.
fn repeated_gzip(block: &[u8], times: usize) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(block).unwrap();
    let member = encoder.finish().unwrap();
    member.repeat(times)
}

/// Runs linkscan under a 1 GB address-space limit.
fn run_limited(args: &[&str]) -> std::process::Output {
    Command::new("prlimit")
        .arg("--as=1073741824")
        .arg(env!("CARGO_BIN_EXE_linkscan"))
        .args(args)
        .output()
        .expect("prlimit runs")
}

fn has_prlimit() -> bool {
    Command::new("prlimit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
#[ignore = "needs prlimit (util-linux)"]
fn hostile_gzip_archives_finish_under_a_1_gb_address_space_limit() {
    assert!(has_prlimit(), "prlimit is not installed");
    let dir = temp_dir("gz");
    // 512 MB of zeros.
    let zeros = dir.join("zeros.mbox.gz");
    std::fs::write(&zeros, repeated_gzip(&vec![0u8; 1 << 20], 512)).unwrap();
    let out = run_limited(&[
        "find",
        "--mbox",
        "--count",
        "-j",
        "2",
        zeros.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Read to the end, and no link: exit status 1, as grep's.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0");
    assert!(stderr.contains("larger than the limit"), "{stderr}");
    assert!(stderr.contains("1 message,"), "{stderr}");

    // One message of 1 GB (after a header), with a link every 64 KiB.
    let mut block = "a line of ordinary words without links, long enough to fill\n"
        .repeat(1 << 10)
        .into_bytes();
    block.truncate((1 << 16) - 20);
    block.extend_from_slice(b"see example.com/x \n");
    let block = block.repeat(16); // 1 MiB minus a little, 16 links
    let mut gz = repeated_gzip(b"From a Mon Jan  1 00:00:00 2024\nSubject: huge\n\n", 1);
    gz.extend(repeated_gzip(&block, 1024));
    let huge = dir.join("huge.mbox.gz");
    std::fs::write(&huge, gz).unwrap();
    let out = run_limited(&[
        "find",
        "--mbox",
        "--count",
        "-j",
        "2",
        huge.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        (16 * 1024).to_string()
    );
    assert!(
        stderr.contains("message 1: the message is larger than the limit"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// Peak RSS of `linkscan ARGS` in KiB, from `/usr/bin/time -f %M` (the output is
/// thrown away).
fn peak_rss_kib(args: &[&str]) -> usize {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_linkscan"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .output()
        .expect("/usr/bin/time runs");
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"))
}

#[test]
#[ignore = "needs /usr/bin/time (GNU time)"]
fn memory_does_not_grow_with_the_number_of_links() {
    assert!(
        Path::new("/usr/bin/time").exists(),
        "/usr/bin/time is not installed"
    );
    let dir = temp_dir("dense");
    let line = "x.com ".repeat(1000) + "\n";
    let write = |name: &str, mib: usize| {
        let path = dir.join(name);
        std::fs::write(&path, line.repeat((mib << 20) / line.len())).unwrap();
        path
    };
    let (mb1, mb8, mb64) = (write("1.txt", 1), write("8.txt", 8), write("64.txt", 64));
    let peak = |args: &[&str], p: &Path| {
        let mut all = args.to_vec();
        all.push(p.to_str().unwrap());
        peak_rss_kib(&all)
    };
    // --count: the same memory for 1 MB, 8 MB and 64 MB of links (within 10 %): one
    // window buffer per worker, whatever the size of the input. With two workers, the
    // two windows of 1 MB may both go to the first one, so the second worker's buffer
    // and stack (under 1 MiB) may be missing from the smaller run.
    for (threads, slack) in [("1", 0), ("2", 1024)] {
        let count = ["find", "--count", "-j", threads];
        let (small, a, b) = (peak(&count, &mb1), peak(&count, &mb8), peak(&count, &mb64));
        for (what, big) in [("8 MB", a), ("64 MB", b)] {
            assert!(
                big * 10 <= (small + slack) * 11 && small * 10 <= big * 11,
                "--count -j {threads}: {small} KiB for 1 MB, {big} KiB for {what}"
            );
        }
    }
    // JSON lines: the outputs of the windows in flight at most (a few per worker), so
    // about the same memory once the input fills them (8 MB), however many links follow:
    // not 8 times as much for 8 times the links. How many of those outputs are alive at
    // once, and how soon the allocator reuses the memory of those written, depend on
    // the timing of the workers: the same run peaks anywhere from 43 to 85 MB, hence the
    // least of two runs and the margin, which still fails memory that grows with links.
    let jsonl = ["find", "--format", "jsonl", "-j", "2"];
    let least = |p: &Path| peak(&jsonl, p).min(peak(&jsonl, p));
    let (a, b) = (least(&mb8), least(&mb64));
    assert!(b <= a * 3, "jsonl: {a} KiB for 8 MB, {b} KiB for 64 MB");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_corrupt_gzip_archive_is_an_error_that_says_what_was_not_verified() {
    let dir = temp_dir("corrupt");
    let mut mbox = String::new();
    for i in 0..2000 {
        mbox.push_str(&format!(
            "From a Mon Jan  1 00:00:00 2024\nSubject: {i}\n\nsee example.com/{i} and more {}\n\n",
            "words ".repeat(i % 50)
        ));
    }
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(mbox.as_bytes()).unwrap();
    let mut gz = encoder.finish().unwrap();
    let middle = gz.len() / 2;
    for b in &mut gz[middle..middle + 64] {
        *b ^= 0x5A;
    }
    let path = dir.join("bad.mbox.gz");
    std::fs::write(&path, gz).unwrap();
    let out = run(&["find", "--mbox", "--count", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.mbox.gz: the compressed data is corrupt"),
        "{stderr}"
    );
    assert!(
        stderr.contains("was not verified by its checksum"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_maildir_message_over_the_limit_is_scanned_raw_in_pieces() {
    let dir = temp_dir("maildir");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let body = "text with example.com/a and more words\n".repeat(100_000); // 3.9 MB
    std::fs::write(dir.join("cur/1:2,S"), format!("Subject: big\n\n{body}")).unwrap();
    std::fs::write(dir.join("new/2"), "Subject: small\n\nsee example.net\n").unwrap();
    let out = run(&[
        "find",
        "--maildir",
        "--max-message-size",
        "1M",
        "--format",
        "tsv",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("larger than the limit of 1048576 bytes"),
        "{stderr}"
    );
    assert!(stderr.contains("2 messages"), "{stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    let big: Vec<&str> = text.lines().filter(|l| l.contains("1:2,S\t1\t")).collect();
    assert_eq!(big.len(), 100_000);
    // Offsets run on across the pieces, in the raw file.
    let raw = format!("Subject: big\n\n{body}");
    let last: usize = big[99_999].split('\t').nth(6).unwrap().parse().unwrap();
    assert!(
        raw[last..].starts_with("example.com/a and"),
        "{}",
        big[99_999]
    );
    assert!(text.lines().any(|l| l.contains("example.net")));
    std::fs::remove_dir_all(dir).ok();
}
