use crate::common::{self, linkscan};
use linkscan_mail::{MailScanner, MailWarning, MboxReader};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::Output;

/// A test file of the mail package.
fn data(name: &str) -> PathBuf {
    common::root()
        .join("crates/mail/tests/data/mail")
        .join(name)
}

#[test]
fn cli_jsonl_keys_and_values() {
    let path = data("sample.mbox");
    let out = linkscan(&["find", "--json", "--mbox", path.to_str().unwrap()], b"");
    assert!(out.status.success(), "{out:?}");
    let rows = jsonl(&out);
    assert_eq!(rows.len(), 28);
    let keys: Vec<_> = rows[0].as_object().unwrap().keys().cloned().collect();
    let mut expected = [
        "file",
        "message",
        "message_id",
        "part",
        "content_type",
        "source",
        "start",
        "end",
        "kind",
        "text",
        "href",
    ]
    .map(String::from)
    .to_vec();
    expected.sort();
    let mut keys_sorted = keys.clone();
    keys_sorted.sort();
    assert_eq!(keys_sorted, expected);
    let html_href = rows
        .iter()
        .find(|r| r["source"] == "href" && r["kind"] == "email")
        .expect("the mailto href");
    assert_eq!(html_href["message"], 9);
    assert_eq!(html_href["message_id"], "html@example.com");
    assert_eq!(html_href["part"], "2");
    assert_eq!(html_href["content_type"], "text/html");
    assert_eq!(html_href["text"], "mailto:sales@example.com");
    let subject = rows.iter().find(|r| r["part"] == "subject").unwrap();
    assert_eq!(subject["content_type"], serde_json::Value::Null);
    assert_eq!(subject["href"], "https://de.wikipedia.org/wiki/Straße");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("12 messages, 30 parts scanned, 28 links, 0 warnings"),
        "{stderr}"
    );
    // -j 1 gives the same output, in the same order.
    let one = linkscan(
        &[
            "find",
            "--json",
            "--mbox",
            "-j",
            "1",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(one.stdout, out.stdout);
}

#[test]
fn cli_tsv_count_stdin_and_quiet() {
    let path = data("sample.mbox");
    let path = path.to_str().unwrap();
    let tsv = linkscan(
        &["find", "--mbox", "--format", "tsv", "--no-progress", path],
        b"",
    );
    assert!(tsv.status.success());
    assert!(
        tsv.stderr.is_empty(),
        "--no-progress: {:?}",
        String::from_utf8_lossy(&tsv.stderr)
    );
    let tsv = String::from_utf8(tsv.stdout).unwrap();
    let first: Vec<&str> = tsv.lines().next().unwrap().split('\t').collect();
    assert_eq!(first.len(), 11);
    assert_eq!(
        first[1..6],
        ["1", "qp-soft@example.com", "1", "text/plain", "text"]
    );
    let count = linkscan(&["find", "--mbox", "--count", path], b"");
    assert_eq!(String::from_utf8(count.stdout).unwrap(), "28\n");
    let broken = data("broken.mbox");
    let both = linkscan(
        &["find", "--mbox", "-c", path, broken.to_str().unwrap()],
        b"",
    );
    assert_eq!(
        String::from_utf8(both.stdout).unwrap(),
        format!("{path}:28\n{}:10\n", broken.display())
    );
    let stdin = linkscan(&["find", "--mbox", "-c"], &std::fs::read(path).unwrap());
    assert_eq!(String::from_utf8(stdin.stdout).unwrap(), "28\n");
    let marked = linkscan(&["find", "--mbox", "--format", "marked", path], b"");
    assert_eq!(marked.status.code(), Some(2));
}

#[test]
fn cli_broken_archive_warns_and_goes_on() {
    let path = data("broken.mbox");
    let out = linkscan(&["find", "--json", "--mbox", path.to_str().unwrap()], b"");
    assert!(out.status.success(), "{out:?}");
    let rows = jsonl(&out);
    let messages: Vec<u64> = rows
        .iter()
        .map(|r| r["message"].as_u64().unwrap())
        .collect();
    assert_eq!(messages, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("message 6 <broken-6@example.com>: part 1: unknown charset"),
        "{stderr}"
    );
    assert!(
        stderr.contains("10 messages, 20 parts scanned, 10 links, 9 warnings"),
        "{stderr}"
    );
}

#[test]
fn cli_gzip_is_detected_by_content() {
    use flate2::{write::GzEncoder, Compression};
    let dir = temp_dir("gz");
    let raw = std::fs::read(data("sample.mbox")).unwrap();
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(&raw).unwrap();
    let gz = gz.finish().unwrap();
    let plain = linkscan(&["find", "--json", "--mbox", "--no-progress", "-"], &raw);
    for name in ["sample.mbox.gz", "misnamed.mbox"] {
        let path = dir.join(name);
        std::fs::write(&path, &gz).unwrap();
        let out = linkscan(
            &[
                "find",
                "--json",
                "--mbox",
                "--no-progress",
                path.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success());
        let strip = |o: &Output| {
            jsonl(o)
                .into_iter()
                .map(|mut v| {
                    v["file"] = serde_json::Value::Null;
                    v
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&out), strip(&plain), "{name}");
    }
    // A truncated gzip stream: the messages before the cut are processed, then exit 2.
    let path = dir.join("cut.mbox.gz");
    std::fs::write(&path, &gz[..gz.len() * 2 / 3]).unwrap();
    let out = linkscan(&["find", "--mbox", "--count", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("messages"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_maildir_gives_the_same_links() {
    let dir = temp_dir("maildir");
    let raw = std::fs::read(data("sample.mbox")).unwrap();
    std::fs::create_dir_all(dir.join("cur")).unwrap();
    std::fs::create_dir_all(dir.join("new")).unwrap();
    for m in MboxReader::new(&raw[..]) {
        let m = m.unwrap();
        // The first half in cur/, the rest in new/: cur comes first in archive order.
        let sub = if m.index() <= 6 { "cur" } else { "new" };
        let name = format!("17000000{:02}.M1P1.host:2,S", m.index());
        std::fs::write(dir.join(sub).join(name), m.bytes()).unwrap();
    }
    let maildir = linkscan(&["find", "--json", "--maildir", dir.to_str().unwrap()], b"");
    assert!(maildir.status.success(), "{maildir:?}");
    let mbox = linkscan(
        &[
            "find",
            "--json",
            "--mbox",
            data("sample.mbox").to_str().unwrap(),
        ],
        b"",
    );
    let key = |o: &Output| {
        jsonl(o)
            .into_iter()
            .map(|v| {
                (
                    v["message"].clone(),
                    v["part"].clone(),
                    v["start"].clone(),
                    v["text"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&maildir), key(&mbox));
    let first = &jsonl(&maildir)[0];
    assert!(first["file"]
        .as_str()
        .unwrap()
        .contains("/cur/1700000001.M1P1.host:2,S"));
    // Not a Maildir: reported, exit status 2.
    let out = linkscan(
        &[
            "find",
            "--json",
            "--maildir",
            dir.join("cur").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a Maildir"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_unreadable_input_is_reported_and_the_others_processed() {
    let path = data("sample.mbox");
    let out = linkscan(
        &[
            "find",
            "--mbox",
            "-c",
            "/nonexistent/x.mbox",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}:28\n", path.display())
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.mbox: No such file"));
}

#[test]
fn corpus_message_counts_and_no_failures() {
    let path = common::shared().join("corpus").join("email-en.mbox");
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("cannot read corpus {}: {e}", path.display()));
    let expected = from_lines(&bytes);
    assert_eq!(expected, 6669, "the corpus README gives 6,669 messages");

    // The library: the splitter agrees with the count, and no message fails to parse.
    let scanner = MailScanner::new();
    let mut per_message: BTreeMap<usize, usize> = BTreeMap::new();
    let mut n = 0;
    for m in MboxReader::new(&bytes[..]) {
        let m = m.unwrap();
        n += 1;
        assert_eq!(m.index(), n);
        assert!(
            m.warnings().is_empty(),
            "message {}: {:?}",
            m.index(),
            m.warnings()
        );
        let scanned = scanner.scan(m.bytes());
        for w in scanned.warnings() {
            assert!(
                matches!(
                    w,
                    MailWarning::UndecodableText { .. } | MailWarning::UndeclaredEightBit { .. }
                ),
                "message {}: unexpected failure: {w}",
                m.index()
            );
        }
        assert!(
            scanned.message_id().is_some() && scanned.from().is_some(),
            "message {}: header not parsed",
            m.index()
        );
        per_message.insert(m.index(), scanned.link_count());
    }
    assert_eq!(n, expected);

    // The command line counts the same messages and finds the same links, in order, with
    // one thread, two, or sixteen (a deeper pipeline: more reads and batches in flight).
    let one = linkscan(
        &[
            "find",
            "--json",
            "--mbox",
            "-j",
            "1",
            path.to_str().unwrap(),
        ],
        b"",
    );
    let two = linkscan(
        &[
            "find",
            "--json",
            "--mbox",
            "-j",
            "2",
            path.to_str().unwrap(),
        ],
        b"",
    );
    let sixteen = linkscan(
        &[
            "find",
            "--json",
            "--mbox",
            "-j",
            "16",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert!(one.status.success() && two.status.success() && sixteen.status.success());
    assert_eq!(one.stdout, two.stdout, "-j 1 and -j 2 differ");
    assert_eq!(one.stdout, sixteen.stdout, "-j 1 and -j 16 differ");
    let stderr = String::from_utf8_lossy(&two.stderr);
    let total: usize = per_message.values().sum();
    assert!(
        stderr.contains(&format!("{expected} messages, "))
            && stderr.contains(&format!(" {total} links, ")),
        "{stderr}"
    );
    let mut cli: BTreeMap<usize, usize> = BTreeMap::new();
    for row in jsonl(&two) {
        *cli.entry(row["message"].as_u64().unwrap() as usize)
            .or_default() += 1;
    }
    per_message.retain(|_, n| *n > 0);
    assert_eq!(cli, per_message);
}

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("mail", name)
}

fn jsonl(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// Lines starting with `From `: the independent message count of an mboxrd archive.
fn from_lines(bytes: &[u8]) -> usize {
    let starts = bytes.starts_with(b"From ") as usize;
    starts + memchr_count(bytes)
}

fn memchr_count(bytes: &[u8]) -> usize {
    bytes.windows(6).filter(|w| w == b"\nFrom ").count()
}
