//! The archive and output pipeline: the fast paths give exactly the results of the general
//! ones, and memory stays bounded whatever the input.
//!
//! * The header-skipping parser of `MailScanner` equals `mail-parser`'s default
//!   configuration on every message of both corpora (the multilingual text corpus wrapped
//!   as messages in several charsets and transfer encodings) and on generated messages.
//! * `MboxSplitter` equals `MboxReader` on the corpus and on generated archives, at any
//!   buffer size.
//! * The command line: TSV rows keep their columns, file names that are not UTF-8 stay
//!   distinct, over-limit messages are scanned raw with every link found, a file that
//!   shrinks while read is an error, a UTF-16 input is warned about, and the hostile
//!   archives of the limits section finish under a 1 GB address-space limit.

#![cfg(feature = "mail")]

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use linkscan_mail::splitter::{find_from, unescape, MboxSplitter, Split};
use linkscan_mail::{MailScanner, MboxReader, MboxWarning};
use proptest::prelude::*;

fn corpus(name: &str) -> Vec<u8> {
    let path = common::shared().join("corpus").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The messages of an mbox, as the line reader gives them.
fn mbox_messages(mbox: &[u8]) -> Vec<linkscan_mail::MboxMessage> {
    MboxReader::new(mbox)
        .collect::<std::io::Result<Vec<_>>>()
        .expect("in-memory reads cannot fail")
}

/// Asserts that both configurations of the scanner give the same result for `raw`.
fn assert_same_scan(fast: &MailScanner, general: &MailScanner, raw: &[u8], what: &str) {
    let a = fast.scan(raw);
    let b = general.scan(raw);
    assert_eq!(a, b, "{what}: the fast path differs");
}

#[test]
fn fast_header_parse_equals_the_general_one_on_every_corpus_message() {
    let fast = MailScanner::new();
    let general = MailScanner::new().parse_all_headers();
    let messages = mbox_messages(&corpus("email-en.mbox"));
    assert!(messages.len() > 6000, "{} messages", messages.len());
    let mut links = 0;
    for m in &messages {
        let scanned = fast.scan(m.bytes());
        links += scanned.link_count();
        assert_eq!(
            scanned,
            general.scan(m.bytes()),
            "message {} differs",
            m.index()
        );
    }
    // The comparison is not vacuous: the corpus has its links, and both paths are taken.
    assert!(links > 20_000, "{links} links");
    let flat = messages
        .iter()
        .filter(|m| fast.takes_flat_path(m.bytes()))
        .count();
    // Every message of this archive is flat (text parts, multiparts of them, signatures,
    // attachments): the general path is exercised by the generated messages below.
    assert_eq!(
        flat,
        messages.len(),
        "messages that took the path of flat messages"
    );
}

/// The multilingual corpus cut into documents of about 4 KB at line breaks.
fn intl_documents() -> Vec<String> {
    let text = String::from_utf8_lossy(&corpus("email-intl.txt")).into_owned();
    let mut docs = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        current.push_str(line);
        if current.len() > 4096 {
            docs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        docs.push(current);
    }
    docs
}

/// Quoted-printable encoding (RFC 2045 section 6.7), lines of at most 76 characters.
fn quoted_printable(text: &str) -> String {
    let mut out = String::new();
    for line in text.split('\n') {
        let mut width = 0;
        for &b in line.as_bytes() {
            let piece = if (b == b' ' || b.is_ascii_graphic()) && b != b'=' {
                (b as char).to_string()
            } else {
                format!("={b:02X}")
            };
            if width + piece.len() > 75 {
                out.push_str("=\n");
                width = 0;
            }
            width += piece.len();
            out.push_str(&piece);
        }
        out.push('\n');
    }
    out
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, group) in bytes.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push('\n');
        }
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out.push('\n');
    out
}

/// Wraps document `i` of the corpus as a message, cycling through the encodings a
/// message can have: plain UTF-8, quoted-printable, base64, Latin-1 (when the text has
/// only Latin-1 characters), HTML, and multipart/alternative.
fn wrap(i: usize, doc: &str) -> Vec<u8> {
    let header = format!(
        "Received: from mx{i}.example.net (mx{i}.example.net [192.0.2.{}]) by example.org\n\
         \twith ESMTP id {i}; Mon, 1 Jan 2024 00:00:00 +0000\n\
         From: =?utf-8?q?J=C3=BCrgen?= <j{i}@example.org>\n\
         To: list@example.org\n\
         Date: Mon, 1 Jan 2024 00:00:{:02} +0000\n\
         Message-ID: <doc{i}@example.org>\n\
         Subject: =?utf-8?b?{}?=\n\
         MIME-Version: 1.0\n",
        i % 256,
        i % 60,
        base64(doc.lines().next().unwrap_or("").as_bytes()).trim_end()
    );
    let body = match i % 6 {
        0 => format!("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n{doc}"),
        1 => format!(
            "Content-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n\n{}",
            quoted_printable(doc)
        ),
        2 => format!(
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n{}",
            base64(doc.as_bytes())
        ),
        3 => {
            let latin1: Option<Vec<u8>> = doc
                .chars()
                .map(|c| u8::try_from(u32::from(c)).ok())
                .collect();
            match latin1 {
                Some(bytes) => {
                    let mut m = b"Content-Type: text/plain; charset=iso-8859-1\n\n".to_vec();
                    m.extend_from_slice(&bytes);
                    return [header.as_bytes(), &m].concat();
                }
                None => format!("Content-Type: text/plain\n\n{doc}"),
            }
        }
        4 => format!(
            "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n{}",
            quoted_printable(&format!("<html><body><p>{}</p><a href=\"https://example.com/{i}\">x</a></body></html>", doc.replace('<', "&lt;")))
        ),
        _ => format!(
            "Content-Type: multipart/alternative; boundary=\"b{i}\"\n\n--b{i}\n\
             Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n{}\n--b{i}\n\
             Content-Type: text/html; charset=utf-8\n\n<p>{}</p>\n--b{i}--\n",
            quoted_printable(doc),
            doc.replace('<', "&lt;")
        ),
    };
    [header.as_bytes(), body.as_bytes()].concat()
}

#[test]
fn fast_header_parse_equals_the_general_one_on_the_multilingual_corpus_as_messages() {
    let fast = MailScanner::new();
    let general = MailScanner::new().parse_all_headers();
    let docs = intl_documents();
    assert!(docs.len() > 2000, "{} documents", docs.len());
    let mut links = 0;
    for (i, doc) in docs.iter().enumerate() {
        let raw = wrap(i, doc);
        links += fast.scan(&raw).link_count();
        assert_same_scan(&fast, &general, &raw, &format!("document {i}"));
        // All six wrappings are flat: one text part (8bit, quoted-printable, base64,
        // Latin-1, HTML), or a multipart/alternative of two.
        assert!(fast.takes_flat_path(&raw), "document {i}: the path taken");
    }
    assert!(links > 10_000, "{links} links");
}

/// A message as (index, offset, From_ line, unescaped bytes, warnings).
type Flat = (usize, u64, String, Vec<u8>, Vec<MboxWarning>);

/// `mbox` split by `MboxSplitter` fed `step` bytes at a time, flattened as the line reader
/// gives messages; checked on the way against a twin given the positions of `From `
/// found beforehand (`split_found`, as the command line splits archive files).
fn split_in_steps(mbox: &[u8], step: usize) -> Vec<Flat> {
    let mut splitter = MboxSplitter::new(u64::MAX);
    let mut twin = MboxSplitter::new(u64::MAX);
    let mut found = Vec::new();
    let mut buf = Vec::new();
    let mut fed = 0;
    let mut result = Vec::new();
    loop {
        let next = (fed + step).min(mbox.len());
        buf.extend_from_slice(&mbox[fed..next]);
        fed = next;
        let at_end = fed == mbox.len();
        let mut out = Vec::new();
        let consumed = splitter.split(&buf, at_end, &mut out);
        found.clear();
        find_from(&buf, 0, &mut found);
        let mut given = Vec::new();
        let twin_consumed = twin.split_found(&buf, Some(&found), at_end, &mut given);
        assert_eq!(
            (twin_consumed, &given),
            (consumed, &out),
            "split_found differs"
        );
        for split in out {
            let Split::Message(m) = split else {
                panic!("no limit, so no chunks")
            };
            // Unescaped only where the splitter saw an escape: a missed one shows as a
            // difference from the line reader.
            let bytes = match m.escaped {
                true => unescape(&buf[m.range.clone()]).into_owned(),
                false => buf[m.range.clone()].to_vec(),
            };
            result.push((m.index, m.offset, m.from_line, bytes, m.warnings));
        }
        buf.drain(..consumed);
        if at_end {
            return result;
        }
    }
}

fn flatten(mbox: &[u8]) -> Vec<Flat> {
    mbox_messages(mbox)
        .into_iter()
        .map(|m| {
            let (index, offset, from_line) = (m.index(), m.offset(), m.from_line().to_string());
            let warnings = m.warnings().to_vec();
            (index, offset, from_line, m.into_bytes(), warnings)
        })
        .collect()
}

#[test]
fn the_buffer_splitter_equals_the_line_reader_on_the_corpora() {
    let en = corpus("email-en.mbox");
    let want = flatten(&en);
    for step in [64 << 10, 1 << 20, en.len()] {
        assert!(
            split_in_steps(&en, step) == want,
            "email-en.mbox in steps of {step}"
        );
    }
    // The multilingual documents as an archive, with unescaped and escaped From lines.
    let mut mbox = Vec::new();
    for (i, doc) in intl_documents().iter().enumerate().take(600) {
        mbox.extend_from_slice(
            format!("From doc{i}@example.org Mon Jan  1 00:00:00 2024\n").as_bytes(),
        );
        mbox.extend_from_slice(&wrap(i, doc));
        if i % 7 == 0 {
            mbox.extend_from_slice(b"\nFrom the desk of nobody\n>From here\n");
        }
        mbox.push(b'\n');
    }
    let want = flatten(&mbox);
    assert_eq!(want.len(), 600);
    for step in [4096, 100_003, mbox.len()] {
        assert!(
            split_in_steps(&mbox, step) == want,
            "intl archive in steps of {step}"
        );
    }
}

/// Header lines, body lines and separators that exercise the parser's and the splitter's
/// corners.
fn header_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Received: from a.example (a.example [192.0.2.1])\n\tby b.example; Mon, 1 Jan 2024 00:00:00 +0000\n".to_string()),
        Just("Subject: =?utf-8?q?see_example.com?=\n".to_string()),
        Just("Subject: =?iso-8859-1?q?caf=E9?= x.org/a\n".to_string()),
        Just("Subject: folded\n example.net/x\n".to_string()),
        Just("From: \"A, B\" <a@example.com>\n".to_string()),
        Just("From: broken <<>\n".to_string()),
        Just("Date: Mon, 1 Jan 2024 00:00:00 +0000\n".to_string()),
        Just("Date: not a date\n".to_string()),
        Just("Message-ID: <id@example.org>\n".to_string()),
        Just("Message-ID: no brackets\n".to_string()),
        Just("To: x@example.org\n".to_string()),
        Just("X-Weird:\n\tcontinued\n".to_string()),
        Just("Content-Type: text/plain; charset=utf-8\n".to_string()),
        Just("Content-Type: text/plain; charset=iso-8859-1\n".to_string()),
        Just("Content-Type: text/plain; charset=x-unknown\n".to_string()),
        Just("Content-Type: text/html\n".to_string()),
        Just("Content-Type: multipart/mixed; boundary=zz\n".to_string()),
        Just("Content-Type: multipart/signed; boundary=\"zz\"; protocol=\"application/pgp-signature\"\n".to_string()),
        Just("Content-Type: multipart/digest; boundary=zz\n".to_string()),
        Just("Content-Transfer-Encoding: quoted-printable\n".to_string()),
        Just("Content-Transfer-Encoding: base64\n".to_string()),
        Just("Content-Transfer-Encoding: 8bit\n".to_string()),
        Just("Content-Disposition: attachment\n".to_string()),
        "[A-Za-z-]{1,12}: [ -~]{0,30}\n",
    ]
}

fn body_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("see https://example.com/a_(b) now\n".to_string()),
        Just("https://en.wikipedia.org/wiki/Ham=\nburg =3D x@example.org\n".to_string()),
        Just("caf=E9 =C3=A9t=C3=A9 example.org/=\n".to_string()),
        Just("==41 =ZZ =\n".to_string()),
        Just("aHR0cHM6Ly9leGFtcGxlLmNvbS8K\n".to_string()),
        Just("--zz\nContent-Type: text/plain\n\nin part x.com\n".to_string()),
        Just("--zz--\n".to_string()),
        // Parts of every kind the path of flat messages reads, and the nested ones it
        // leaves to the general path.
        Just("--zz\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\ncaf=C3=A9 x.org/=\n".to_string()),
        Just("--zz\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<a href=3D\"https://h.example/\">t</a>=\r\n".to_string()),
        Just("--zz\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\naHR0cHM6Ly9leGFtcGxlLmNvbS8K\n".to_string()),
        Just("--zz\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\naGVsbG8=\n".to_string()),
        Just("--zz\nContent-Type: image/png\n\n\u{89}PNG\n".to_string()),
        Just("--zz\nContent-Type: message/rfc822\n\nSubject: inner\n\nx.com\n".to_string()),
        Just("--zz\nContent-Type: multipart/alternative; boundary=yy\n\n--yy\n\nnested y.com\n--yy--\n".to_string()),
        Just("-- \nsignature z.org --zz trailing\n".to_string()),
        Just("<a href=\"https://h.example/\">t</a> <p>p.example</p>\n".to_string()),
        Just("From the body\n".to_string()),
        Just(">From escaped\n".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        "[ -~]{0,40}\n",
        "[ -~éß中]{0,20}\n",
    ]
}

fn message() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(header_line(), 0..8),
        prop::collection::vec(body_line(), 0..12),
        any::<bool>(),
    )
        .prop_map(|(headers, body, blank)| {
            let mut m = headers.concat();
            if blank {
                m.push('\n');
            }
            m.push_str(&body.concat());
            m.into_bytes()
        })
}

/// The generated messages exercise both paths, and the path of flat messages on
/// multiparts: the property below is not vacuous.
#[test]
fn generated_messages_take_both_paths() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let scanner = MailScanner::new();
    let (mut general, mut flat_multipart, mut flat_single) = (0, 0, 0);
    for _ in 0..4000 {
        let raw = message().new_tree(&mut runner).unwrap().current();
        if !scanner.takes_flat_path(&raw) {
            general += 1;
        } else if String::from_utf8_lossy(&raw).contains("Content-Type: multipart/") {
            flat_multipart += 1;
        } else {
            flat_single += 1;
        }
    }
    for (what, n) in [
        ("the general path", general),
        ("the flat path as a multipart", flat_multipart),
        ("the flat path as one part", flat_single),
    ] {
        assert!(n > 200, "{n} of 4000 generated messages took {what}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn fast_path_equals_the_general_path_on_generated_messages(raw in message()) {
        let fast = MailScanner::new();
        let general = MailScanner::new().parse_all_headers();
        prop_assert_eq!(fast.scan(&raw), general.scan(&raw));
    }

    #[test]
    fn the_buffer_splitter_equals_the_line_reader_on_generated_archives(
        messages in prop::collection::vec(
            (prop_oneof![Just("From a Mon Jan  1 00:00:00 2024\n"), Just("From \n"), Just("")],
             message()),
            0..6),
        lead in prop_oneof![Just(""), Just("\n \n"), Just("stray text\n")],
        step in 1usize..300,
    ) {
        let mut mbox = lead.as_bytes().to_vec();
        for (from, m) in &messages {
            mbox.extend_from_slice(from.as_bytes());
            mbox.extend_from_slice(m);
        }
        prop_assert_eq!(split_in_steps(&mbox, step), flatten(&mbox));
    }
}

// ---- The command line ----

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("linkscan-pipeline-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
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
        .args(["find"])
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
