//! The archive's downloads: each message as sent (`NNNNN.txt`), each thread
//! (`tNNNNN.mbox.gz`) and month (`YYYY-MM.mbox.gz`) as a gzipped mbox, linked from their
//! pages; none under `--addresses obfuscate`, whose pages say so.

#![cfg(feature = "mail")]

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::common::build_archive as build;
use linkscan_mail::{MailScanner, MboxReader};

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("downloads", name)
}

/// Three messages: 1 and 3 a thread in January, 2 alone in February; message 1 has a
/// line that an mboxrd writer quoted (`>From`), and one that reads as one quoted more.
const MBOX: &str = "From a@example.com Mon Jan  1 00:00:00 2024\n\
Message-ID: <1@example.com>\nFrom: Ann <ann@example.com>\n\
Date: Mon, 1 Jan 2024 10:00:00 +0000\nSubject: plans\n\n\
see example.com\n>From here on\n>>From there\nend\n\n\
From b@example.com Thu Feb  1 00:00:00 2024\n\
Message-ID: <2@example.com>\nFrom: Bob <bob@example.com>\n\
Date: Thu, 1 Feb 2024 10:00:00 +0000\nSubject: other\n\nhi\n\n\
From c@example.com Tue Jan  2 00:00:00 2024\n\
Message-ID: <3@example.com>\nIn-Reply-To: <1@example.com>\nFrom: Carol <carol@example.com>\n\
Date: Tue, 2 Jan 2024 10:00:00 +0000\nSubject: re: plans\n\n>From now on, yes\n";

fn gunzip(path: &Path) -> Vec<u8> {
    let bytes = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Deterministic: no file name, no modification time.
    assert_eq!(&bytes[..3], b"\x1f\x8b\x08", "{}", path.display());
    assert_eq!(bytes[3], 0, "flags (a file name?) in {}", path.display());
    assert_eq!(&bytes[4..8], [0, 0, 0, 0], "mtime in {}", path.display());
    // Every member, as `gzip -d` reads them: a thread's or a month's file is the
    // members of its messages one after the other.
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(&bytes[..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// The Message-IDs of the messages of an mbox, as the reader splits it.
fn ids(mbox: &[u8]) -> Vec<String> {
    let scanner = MailScanner::new();
    MboxReader::new(mbox)
        .map(|m| {
            let m = m.unwrap();
            scanner
                .scan(m.bytes())
                .message_id()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// The message as sent: its header and body, the `From ` line left out and the
/// mboxrd quoting undone; it parses to its Message-ID. The thread's mbox holds its
/// messages in thread order, the month's those of the month, each line quoted again;
/// the pages link them.
#[test]
fn messages_threads_and_months_download() {
    let dir = temp_dir("all");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, MBOX).unwrap();
    let web = dir.join("web");
    build(&mbox, &web, &[]);
    let raw = fs::read_to_string(web.join("00001.txt")).unwrap();
    assert!(raw.starts_with("Message-ID: <1@example.com>\n"), "{raw}");
    assert!(raw.contains("\nFrom here on\n>From there\nend\n"), "{raw}");
    assert_eq!(
        MailScanner::new().scan(raw.as_bytes()).message_id(),
        Some("1@example.com")
    );
    let page = fs::read_to_string(web.join("00001.html")).unwrap();
    assert!(
        page.contains("<a href=\"00001.txt\" type=\"text/plain\" download>The message as sent</a>"),
        "{page}"
    );
    let thread = gunzip(&web.join("t00001.mbox.gz"));
    assert_eq!(ids(&thread), ["1@example.com", "3@example.com"]);
    let text = String::from_utf8(thread.clone()).unwrap();
    assert!(text.contains("\n>From here on\n>>From there\n"), "{text}");
    assert!(text.contains("\n>From now on, yes\n"), "{text}");
    // Split back, each message is its download.
    let first = MboxReader::new(&thread[..]).next().unwrap().unwrap();
    assert_eq!(first.bytes(), raw.as_bytes());
    let page = fs::read_to_string(web.join("t00001.html")).unwrap();
    assert!(page.contains("href=\"t00001.mbox.gz\""), "{page}");
    assert_eq!(
        ids(&gunzip(&web.join("2024-01.mbox.gz"))),
        ["1@example.com", "3@example.com"]
    );
    assert_eq!(
        ids(&gunzip(&web.join("2024-02.mbox.gz"))),
        ["2@example.com"]
    );
    assert_eq!(ids(&gunzip(&web.join("t00002.mbox.gz"))), ["2@example.com"]);
    let page = fs::read_to_string(web.join("2024-02.html")).unwrap();
    assert!(page.contains("href=\"2024-02.mbox.gz\""), "{page}");
    // Rebuilt with fewer messages: the downloads of the others go.
    fs::write(&mbox, &MBOX[..MBOX.find("From c@").unwrap()]).unwrap();
    build(&mbox, &web, &[]);
    assert!(!web.join("00003.txt").exists());
    assert_eq!(ids(&gunzip(&web.join("t00001.mbox.gz"))), ["1@example.com"]);
    fs::remove_dir_all(&dir).unwrap();
}

/// Under `--addresses obfuscate` no download is written (and those of an earlier build
/// go), and each page says why.
#[test]
fn obfuscated_archives_offer_no_download() {
    let dir = temp_dir("obfuscated");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, MBOX).unwrap();
    let web = dir.join("web");
    build(&mbox, &web, &[]);
    assert!(web.join("00001.txt").exists());
    build(&mbox, &web, &["--addresses", "obfuscate"]);
    let left: Vec<String> = fs::read_dir(&web)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt") || n.ends_with(".gz"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    for (page, said) in [
        ("00001.html", "The message as sent is not offered"),
        ("t00001.html", "The thread as an mbox is not offered"),
        ("2024-01.html", "The month as an mbox is not offered"),
    ] {
        let html = fs::read_to_string(web.join(page)).unwrap();
        assert!(html.contains(said), "{page}: {html}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// The names of the files of `dir` that end with `suffix`, sorted.
fn names(dir: &Path, suffix: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(suffix))
        .collect();
    names.sort();
    names
}

/// A message over `--max-message-size` is shown as pieces, each a message of the
/// archive with its own page: each offers its bytes, and each is in its thread's mbox and
/// its month's, so every mbox holds as many messages as its thread (or month) shows,
/// and the pieces joined are the message as the mbox held it.
#[test]
fn every_message_is_in_the_mboxes_pieces_too() {
    let dir = temp_dir("pieces");
    // Some 2.5 MiB: three pieces of about 1 MiB.
    let body: String = (0..50_000)
        .map(|i| match i % 5000 {
            0 => format!("line {i}, see example.com/{i}\n"),
            _ => format!("line {i} of a long message, in plain words\n"),
        })
        .collect();
    let long = format!(
        "From d@example.com Wed Jan  3 00:00:00 2024\n\
         Message-ID: <4@example.com>\nFrom: Dan <dan@example.com>\n\
         Date: Wed, 3 Jan 2024 10:00:00 +0000\nSubject: long\n\n{body}"
    );
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, format!("{MBOX}\n{long}")).unwrap();
    let web = dir.join("web");
    build(&mbox, &web, &["--max-message-size", "1024"]);
    let pages: Vec<String> = names(&web, ".html")
        .into_iter()
        .filter(|n| n.len() == 10 && n.as_bytes()[0].is_ascii_digit())
        .collect();
    assert!(pages.len() >= 6, "the long message in pieces: {pages:?}");
    // Each page offers its download; the pieces say they are pieces.
    let mut joined = Vec::new();
    for page in &pages[3..] {
        let html = fs::read_to_string(web.join(page)).unwrap();
        assert!(
            html.contains("This piece of the message</a>"),
            "{page}: {html}"
        );
        joined.extend(fs::read(web.join(page.replace(".html", ".txt"))).unwrap());
    }
    let in_mbox = &long[long.find('\n').unwrap() + 1..];
    assert_eq!(String::from_utf8(joined).unwrap(), in_mbox);
    // Each thread's mbox holds as many messages as its pages show, and every message
    // is in one thread's mbox and one month's. Counted by their `From ` lines: a later
    // piece has no header, and a reader that wants one after a `From ` line (as
    // `MboxReader` does) reads it with the piece before it.
    let entries = |name: &str| {
        let text = gunzip(&web.join(name));
        let from = b"From archive@localhost ";
        let lines = text.split(|&b| b == b'\n');
        lines.filter(|l| l.starts_with(from)).count()
    };
    let mut in_threads = 0;
    for name in names(&web, ".mbox.gz")
        .iter()
        .filter(|n| n.starts_with('t'))
    {
        let count = entries(name);
        // Alone in its mbox, a piece reads as one message.
        assert_eq!(MboxReader::new(&gunzip(&web.join(name))[..]).count(), count);
        let stem = name.trim_end_matches(".mbox.gz");
        let shown: usize = names(&web, ".html")
            .iter()
            .filter(|n| *n == &format!("{stem}.html") || n.starts_with(&format!("{stem}-")))
            .map(|n| {
                fs::read_to_string(web.join(n))
                    .unwrap()
                    .matches("<article class=\"post")
                    .count()
            })
            .sum();
        assert_eq!(count, shown, "{name}");
        in_threads += count;
    }
    let in_months: usize = names(&web, ".mbox.gz")
        .iter()
        .filter(|n| !n.starts_with('t'))
        .map(|n| entries(n))
        .sum();
    assert_eq!(in_threads, pages.len());
    assert_eq!(in_months, pages.len());
    fs::remove_dir_all(&dir).unwrap();
}
