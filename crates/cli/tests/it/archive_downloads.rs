//! The archive's downloads: each message as sent (`NNNNN.txt`), each thread
//! (`tNNNNN.mbox.gz`) and month (`YYYY-MM.mbox.gz`) as a gzipped mbox, linked from their
//! pages; none under `--addresses obfuscate`, whose pages say so.

#![cfg(feature = "mail")]

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use linkscan_mail::{MailScanner, MboxReader};

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("linkscan-downloads-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn build(mbox: &Path, out: &Path, more: &[&str]) {
    let run = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "--no-progress"])
        .arg(mbox)
        .arg("--out")
        .arg(out)
        .args(more)
        .output()
        .expect("linkscan runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
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
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&bytes[..])
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
