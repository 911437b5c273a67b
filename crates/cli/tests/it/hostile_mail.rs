//! Hostile mail archives: inputs of the kind that arrive from the internet, generated here,
//! that used to crash the scanner, lose the links of a part, stall at start-up or drop a
//! Maildir folder. Each test names the defect it guards against; the command line runs
//! under a 1 GiB address-space limit where memory or the stack is the point.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use linkscan_mail::message::{MAX_DEPTH, MAX_ENCODED_NESTED_MESSAGES, MAX_NESTED_MESSAGES};
use linkscan_mail::{Base64Problem, MailScanner, MailWarning, ScannedMessage};

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("hostile-mail", name)
}

/// Scans `raw` on a thread with the 2 MiB stack of a rayon worker (where the command line
/// scans messages), so that a recursion too deep for it aborts the test.
fn scan_on_worker_stack(raw: Vec<u8>) -> ScannedMessage {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || MailScanner::new().scan(&raw))
        .expect("thread starts")
        .join()
        .expect("scan returns")
}

/// `(part, link)` of every link of a scanned message.
fn links(m: &ScannedMessage) -> Vec<(String, String)> {
    m.parts()
        .iter()
        .flat_map(|p| {
            p.links()
                .iter()
                .map(|l| (p.path().to_string(), l.text().to_string()))
        })
        .collect()
}

fn has_link(m: &ScannedMessage, link: &str) -> bool {
    links(m).iter().any(|(_, l)| l == link)
}

fn has_warning(m: &ScannedMessage, words: &str) -> bool {
    m.warnings().iter().any(|w| w.to_string().contains(words))
}

/// A message holding `depth` messages nested as `message/rfc822` parts, one inside the
/// other (30 bytes a level), the innermost with a link.
fn nested_rfc822(depth: usize) -> Vec<u8> {
    let mut raw = b"From: a@example.com\nSubject: deep\n".to_vec();
    for _ in 0..depth {
        raw.extend_from_slice(b"Content-Type: message/rfc822\n\n");
    }
    raw.extend_from_slice(b"Subject: inner\n\nhttps://deep.example.com/innermost\n");
    raw
}

/// The RFC 2045 base64 encoding of `data`, in lines of 76 characters.
fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, chunk) in data.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push('\n');
        }
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.push('\n');
    out
}

fn mbox(messages: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in messages {
        out.extend_from_slice(b"From a@example.com Mon Jan  1 00:00:00 2024\n");
        out.extend_from_slice(m);
        if !m.ends_with(b"\n") {
            out.push(b'\n');
        }
        out.push(b'\n');
    }
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use flate2::{write::GzEncoder, Compression};
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(data).unwrap();
    gz.finish().unwrap()
}

/// Runs the command line under a 1 GiB address-space limit (`prlimit`, util-linux).
fn linkscan_limited(args: &[&str]) -> Output {
    let out = Command::new("prlimit")
        .arg("--as=1073741824")
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_linkscan"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("prlimit (util-linux) runs the command line");
    assert!(
        !String::from_utf8_lossy(&out.stderr).starts_with("prlimit:"),
        "prlimit failed: {out:?}"
    );
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

// --- Nesting -----------------------------------------------------------------------------

/// The reproducer: about 22,000 nested `message/rfc822` parts (a 2 KB gzip file) aborted
/// the release build with a stack overflow when the parser's tree was freed. Here 200,000
/// levels (6 MB), which overflow a worker's stack in the test build too without the bound
/// (checked: SIGABRT, "has overflowed its stack").
#[test]
fn nested_rfc822_200000_deep_is_scanned_as_raw_text_with_a_warning() {
    let m = scan_on_worker_stack(nested_rfc822(200_000));
    assert!(
        has_warning(&m, &format!("{MAX_NESTED_MESSAGES} message parts")),
        "{:?}",
        m.warnings()
    );
    assert_eq!(
        links(&m),
        [
            ("1".to_string(), "a@example.com".to_string()),
            (
                "1".to_string(),
                "https://deep.example.com/innermost".to_string()
            )
        ]
    );
    assert_eq!(m.warnings().len(), 1, "{:?}", m.warnings());
}

/// Just under the limit the message is parsed (built and freed on a worker's stack): the
/// walk stops at its depth limit and scans the rest as raw text, so the link is found.
#[test]
fn nesting_just_under_the_limit_is_parsed_and_walked_to_its_depth() {
    let m = scan_on_worker_stack(nested_rfc822(MAX_NESTED_MESSAGES - 1));
    assert!(
        !has_warning(&m, "nested message parts"),
        "{:?}",
        m.warnings()
    );
    assert!(
        has_warning(&m, &format!("nested deeper than {MAX_DEPTH} levels")),
        "{:?}",
        m.warnings()
    );
    assert!(
        has_link(&m, "https://deep.example.com/innermost"),
        "{:?}",
        links(&m)
    );
    // The first subject is the top-level one; the deep part is one text.
    assert_eq!(m.subject(), Some("deep"));
}

/// A base64 `message/rfc822` part (which RFC 2046 forbids and the parser decodes anyway)
/// hides its nesting from a scan of the raw bytes; the parser copies such a tree
/// recursively while parsing, and its decoded body once per level. The bound decodes it:
/// at its limit it is parsed, past it the message is read raw.
#[test]
fn nesting_inside_a_base64_message_part_is_bounded_too() {
    let encoded = |depth: usize| {
        let mut raw = b"From: a@example.com\nSubject: encoded\n\
                        Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n"
            .to_vec();
        raw.extend_from_slice(base64(&nested_rfc822(depth)).as_bytes());
        raw
    };
    let under = scan_on_worker_stack(encoded(MAX_ENCODED_NESTED_MESSAGES));
    assert!(
        !has_warning(&under, "nested message parts"),
        "{:?}",
        under.warnings()
    );
    assert!(
        has_link(&under, "https://deep.example.com/innermost"),
        "{:?}",
        links(&under)
    );
    let over = scan_on_worker_stack(encoded(MAX_ENCODED_NESTED_MESSAGES + 1));
    assert!(
        has_warning(&over, "nested message parts"),
        "{:?}",
        over.warnings()
    );
}

/// Siblings count towards the bound but do not nest: a digest of 300 forwarded messages is
/// parsed as usual, each message's link found in its part.
#[test]
fn a_digest_of_300_messages_is_parsed_normally() {
    let mut raw = b"From: list@example.com\nSubject: digest\n\
                    Content-Type: multipart/digest; boundary=\"d\"\n\n"
        .to_vec();
    for i in 0..300 {
        raw.extend_from_slice(
            format!(
                "--d\nContent-Type: message/rfc822\n\nSubject: n{i}\n\nhttps://digest.example.com/{i}\n"
            )
            .as_bytes(),
        );
    }
    raw.extend_from_slice(b"--d--\n");
    let m = scan_on_worker_stack(raw);
    assert!(m.warnings().is_empty(), "{:?}", m.warnings());
    let found = links(&m);
    assert_eq!(found.len(), 300);
    assert_eq!(
        found[299],
        (
            "300.1".to_string(),
            "https://digest.example.com/299".to_string()
        )
    );
}

/// Multiparts nested deeper than the walk's limit were reported and not scanned: their
/// links were lost. The raw bytes of the deepest walked part are scanned now.
#[test]
fn multiparts_deeper_than_the_walk_limit_keep_their_links() {
    let depth = 100;
    let mut raw = b"From: a@example.com\nSubject: deep multipart\n".to_vec();
    for i in 0..depth {
        raw.extend_from_slice(
            format!("Content-Type: multipart/mixed; boundary=\"b{i}\"\n\n--b{i}\n").as_bytes(),
        );
    }
    raw.extend_from_slice(b"Content-Type: text/plain\n\nhttps://multi.example.com/innermost\n");
    for i in (0..depth).rev() {
        raw.extend_from_slice(format!("--b{i}--\n").as_bytes());
    }
    let m = scan_on_worker_stack(raw);
    assert!(
        has_warning(&m, &format!("nested deeper than {MAX_DEPTH} levels")),
        "{:?}",
        m.warnings()
    );
    assert_eq!(
        links(&m)
            .iter()
            .filter(|(_, l)| l == "https://multi.example.com/innermost")
            .count(),
        1,
        "{:?}",
        links(&m)
    );
}

/// The reproducer through the command line: a gzip archive of 2 KB holding the deep
/// message, then a normal one, under a 1 GiB address-space limit. Both commands finish,
/// with the warning and every link, and the HTML archive's index is complete.
#[cfg(target_os = "linux")]
#[test]
fn cli_survives_the_deep_nesting_archive() {
    let dir = temp_dir("deep");
    let archive = gzip(&mbox(&[
        &nested_rfc822(22_000),
        b"Subject: after\n\nhttps://after.example.com/\n",
    ]));
    assert!(archive.len() < 8_000, "{} bytes", archive.len());
    let path = dir.join("deep.mbox.gz");
    std::fs::write(&path, &archive).unwrap();
    let path = path.to_str().unwrap();

    let out = linkscan_limited(&["find", "--mbox", "--format", "tsv", path]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("https://deep.example.com/innermost"),
        "{text}"
    );
    assert!(text.contains("https://after.example.com/"), "{text}");
    assert!(
        stderr(&out).contains("nested message parts"),
        "{}",
        stderr(&out)
    );

    let web = dir.join("web");
    let out = linkscan_limited(&["linkify", "--mbox", path, "--out", web.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let index = std::fs::read_to_string(web.join("index.html")).unwrap();
    assert!(index.trim_end().ends_with("</html>"), "index cut off");
    std::fs::remove_dir_all(&dir).unwrap();
}

// --- Base64 ------------------------------------------------------------------------------

fn base64_message(content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "From: a@example.com\nSubject: b64\nContent-Type: {content_type}; charset=utf-8\n\
         Content-Transfer-Encoding: base64\n\n{body}"
    )
    .into_bytes()
}

/// A `-- ` signature after the base64 data used to leave the whole part undecoded; now
/// the data is decoded and the footer, which is text, is scanned as text.
#[test]
fn base64_with_a_list_footer_keeps_every_link() {
    let data = base64(
        "Read https://b64.example.com/page today.\nBye\n"
            .repeat(3)
            .as_bytes(),
    );
    let body = format!("{data}-- \nList: https://list.example.org/info\n");
    let m = scan_on_worker_stack(base64_message("text/plain", &body));
    let found: Vec<String> = links(&m).into_iter().map(|(_, l)| l).collect();
    assert_eq!(
        found,
        [
            "https://b64.example.com/page",
            "https://b64.example.com/page",
            "https://b64.example.com/page",
            "https://list.example.org/info"
        ]
    );
    assert_eq!(m.warnings().len(), 1, "{:?}", m.warnings());
    assert_eq!(
        m.warnings()[0],
        MailWarning::InvalidBase64 {
            part: "1".into(),
            content_type: "text/plain".into(),
            problems: vec![Base64Problem::TextAfterData { lines: 2 }],
        }
    );
    assert!(
        !has_warning(&m, "outside the base64 alphabet")
            && has_warning(
                &m,
                "2 line(s) of text after the base64 data were scanned as text"
            ),
        "{:?}",
        m.warnings()
    );
}

/// A stray character inside the data (anywhere, the last line too) is ignored as RFC 2045
/// section 6.8 says; the decoded text is exact.
#[test]
fn base64_with_a_stray_character_is_decoded_exactly() {
    let plain = "Links: https://stray.example.com/a/b?c=d and me@stray.example.com.\n".repeat(4);
    let data = base64(plain.as_bytes());
    let lines: Vec<&str> = data.lines().collect();
    for line in 0..lines.len() {
        let mut damaged: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        damaged[line].insert(5, '!');
        let body = damaged.join("\n") + "\n";
        let m = scan_on_worker_stack(base64_message("text/plain", &body));
        let part = m.parts().iter().find(|p| p.path() == "1").expect("part 1");
        assert_eq!(part.text(), plain, "stray `!` on line {line}");
        assert_eq!(links(&m).len(), 8, "line {line}: {:?}", links(&m));
        assert!(
            has_warning(
                &m,
                "1 character(s) outside the base64 alphabet were ignored"
            ),
            "{:?}",
            m.warnings()
        );
        assert!(
            m.warnings().iter().any(|w| matches!(
                w,
                MailWarning::InvalidBase64 { problems, .. }
                    if problems.contains(&Base64Problem::IgnoredCharacters { count: 1 })
            )),
            "{:?}",
            m.warnings()
        );
    }
}

/// The same inside a multipart, in an HTML part (the href is decoded and found too), in a
/// legacy charset.
#[test]
fn base64_html_part_with_a_footer_in_a_multipart() {
    let html = "<p>Voir <a href=\"https://html.example.fr/caf\u{e9}\">ici</a></p>\n";
    let latin1: Vec<u8> = html
        .chars()
        .map(|c| u8::try_from(u32::from(c)).expect("Latin-1"))
        .collect();
    let raw = format!(
        "From: a@example.com\nSubject: html\nContent-Type: multipart/mixed; boundary=\"zz\"\n\n\
         --zz\nContent-Type: text/html; charset=iso-8859-1\nContent-Transfer-Encoding: base64\n\n\
         {}-- \nhttps://footer.example.org/\n--zz--\n",
        base64(&latin1)
    );
    let m = scan_on_worker_stack(raw.into_bytes());
    let found = links(&m);
    assert!(
        found.contains(&(
            "1".to_string(),
            "https://html.example.fr/caf\u{e9}".to_string()
        )),
        "{found:?}"
    );
    assert!(
        found.contains(&("1".to_string(), "https://footer.example.org/".to_string())),
        "{found:?}"
    );
    assert!(has_warning(&m, "part 1 (text/html)"), "{:?}", m.warnings());
}

// --- -j ----------------------------------------------------------------------------------

/// `-j` accepted up to 65535 and spent seconds starting threads; it is bounded now, with a
/// clear error past the bound, and the largest value runs.
#[test]
fn jobs_are_bounded() {
    let out = common::linkscan(&["find", "--json", "-j", "257", "-"], b"x.com");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("257") && err.contains("1..=256"), "{err}");
    let out = common::linkscan(&["find", "--json", "-j", "65535", "-"], b"x.com");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = common::linkscan(&["find", "--count", "-j", "256", "-"], b"see x.com\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(stdout(&out), "1\n");
}

// --- Maildir -----------------------------------------------------------------------------

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A symbolically linked message was skipped silently; it is followed now, and a dangling
/// link is reported by name (exit 2) while the other messages are read. A link out of the
/// Maildir (`cur/1 -> /proc/self/environ`) published the archiver's environment: it is
/// not followed, and is reported by name.
#[cfg(unix)]
#[test]
fn maildir_symlinks_are_followed_and_dangling_ones_reported() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("maildir-links");
    let md = dir.join("Maildir");
    write(
        &md.join("store/1"),
        b"Subject: linked\n\nhttps://linked.example.com/\n",
    );
    write(
        &md.join("cur/2.plain"),
        b"Subject: plain\n\nhttps://plain.example.com/\n",
    );
    write(
        &dir.join("secret"),
        b"Subject: secret\n\nhttps://secret.example.com/\n",
    );
    std::fs::create_dir_all(md.join("new")).unwrap();
    symlink(md.join("store/1"), md.join("cur/1.linked")).unwrap();
    symlink(dir.join("store/none"), md.join("new/3.dangling")).unwrap();
    symlink(dir.join("secret"), md.join("new/4.outside")).unwrap();
    symlink("/proc/self/environ", md.join("new/5.environ")).unwrap();
    let out = common::linkscan(
        &["find", "--maildir", "--format", "tsv", md.to_str().unwrap()],
        b"",
    );
    let text = stdout(&out);
    assert!(text.contains("https://linked.example.com/"), "{text}");
    assert!(text.contains("https://plain.example.com/"), "{text}");
    assert!(!text.contains("secret.example.com"), "{text}");
    let err = stderr(&out);
    assert!(
        err.contains("3.dangling") && err.contains("could not be read"),
        "{err}"
    );
    for name in ["4.outside", "5.environ"] {
        let line = err.lines().find(|l| l.contains(name)).unwrap_or_default();
        assert!(line.contains("outside the Maildir"), "{err}");
    }
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    // And in the HTML archive: no page shows the environment.
    let web = dir.join("web");
    let out = common::linkscan(
        &[
            "linkify",
            "--maildir",
            md.to_str().unwrap(),
            "--out",
            web.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    for entry in std::fs::read_dir(&web).unwrap() {
        let page = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!page.contains("PATH="), "{page}");
        assert!(!page.contains("secret.example.com"), "{page}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An unreadable `cur/` dropped the readable `new/` with it. Now `cur/` is reported (exit
/// 2) and `new/` is read. Permissions do not bind root, so as root the command runs as
/// user `nobody` (`setpriv`, util-linux).
#[cfg(target_os = "linux")]
#[test]
fn maildir_unreadable_cur_keeps_new() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("maildir-cur");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let md = dir.join("Maildir");
    write(
        &md.join("cur/1.hidden"),
        b"Subject: a\n\nhttps://cur.example.com/\n",
    );
    write(
        &md.join("new/2.seen"),
        b"Subject: b\n\nhttps://new.example.com/\n",
    );
    std::fs::set_permissions(&md, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(md.join("new"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(
        md.join("new/2.seen"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    std::fs::set_permissions(md.join("cur"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let args = ["find", "--maildir", "--format", "tsv", md.to_str().unwrap()];
    let out = if std::fs::read_dir(md.join("cur")).is_ok() {
        // Root: drop to `nobody`, whom the permissions bind.
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(env!("CARGO_BIN_EXE_linkscan"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("setpriv (util-linux) runs the command line as nobody")
    } else {
        common::linkscan(&args, b"")
    };
    std::fs::set_permissions(md.join("cur"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let text = stdout(&out);
    assert!(text.contains("https://new.example.com/"), "{out:?}");
    assert!(!text.contains("https://cur.example.com/"), "{text}");
    let err = stderr(&out);
    assert!(
        err.contains("Maildir/cur") && err.contains("ermission denied"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// --- Round 3 -----------------------------------------------------------------------------

/// One HTML part with a tag of 7,000 double-quoted attributes (42 KB) overflowed a
/// worker's stack in the HTML tokenizer (SIGABRT, exit 134), and every message after it
/// was lost. Here 50,000 of them, then a message with a link.
#[test]
fn a_tag_of_many_attributes_does_not_kill_the_run() {
    let attrs = " x=\"y\"".repeat(50_000);
    let html = format!(
        "Subject: wide\nContent-Type: text/html\n\n<p{attrs}>https://wide.example.com/</p>\n"
    );
    let archive = mbox(&[
        html.as_bytes(),
        b"Subject: after\n\nhttps://after.example.com/\n",
    ]);
    let dir = temp_dir("wide-tag");
    let path = dir.join("wide.mbox");
    write(&path, &archive);
    let out = linkscan_limited(&["find", "--mbox", "--format", "tsv", path.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(text.contains("https://wide.example.com/"), "{text}");
    assert!(text.contains("https://after.example.com/"), "{text}");
    let web = dir.join("web");
    let out = linkscan_limited(&[
        "linkify",
        "--mbox",
        path.to_str().unwrap(),
        "--out",
        web.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(web.join("index.html").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `(href, shown text)` of every `<a href>` of an HTML page.
fn anchors_of(page: &str) -> Vec<(String, String)> {
    page.split("<a href=\"")
        .skip(1)
        .filter_map(|rest| {
            let href = &rest[..rest.find('"')?];
            let after = &rest[rest.find('>')? + 1..];
            let shown = &after[..after.find("</a>")?];
            Some((href.to_string(), shown.to_string()))
        })
        .collect()
}

/// The pages of a message over `--max-message-size` drew the links of their piece at
/// offsets in the whole message: only the first page had links, or they were drawn over
/// the wrong text. Each page now draws each link of its piece over its own text, every
/// link once, also in a piece with bytes that are not UTF-8.
#[test]
fn pages_of_an_over_limit_message_draw_their_own_links() {
    let mut body = String::new();
    let mut n = 0;
    while body.len() < 3 << 20 {
        body.push_str(&format!(
            "line {n} https://p{n}.example.com/x{n} and more\n"
        ));
        n += 1;
    }
    let mut message = b"Subject: big\n\n".to_vec();
    message.extend_from_slice(body.as_bytes());
    // A byte that is not UTF-8 in the middle of the second piece.
    let bad = message.len() * 2 / 3;
    let bad = bad + message[bad..].iter().position(|&b| b == b' ').unwrap();
    message.insert(bad, 0xff);
    let archive = mbox(&[&message, b"Subject: after\n\nhttps://after.example.com/\n"]);
    let dir = temp_dir("pages-of-pieces");
    let path = dir.join("big.mbox");
    write(&path, &archive);
    let web = dir.join("web");
    let out = linkscan_limited(&[
        "linkify",
        "--mbox",
        "--max-message-size",
        "1M",
        path.to_str().unwrap(),
        "--out",
        web.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut seen = Vec::new();
    let mut pages = 0;
    for entry in std::fs::read_dir(&web).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with(|c: char| c.is_ascii_digit()) || !name.ends_with(".html") {
            continue;
        }
        pages += 1;
        let page = std::fs::read_to_string(&path).unwrap();
        for (href, shown) in anchors_of(&page) {
            if let Some(k) = href.strip_prefix("https://p") {
                let k = &k[..k.find('.').unwrap()];
                assert_eq!(
                    shown,
                    format!("https://p{k}.example.com/x{k}"),
                    "{name}: {href} drawn over other text"
                );
                seen.push(k.parse::<usize>().unwrap());
            }
        }
    }
    assert!(pages >= 4, "{pages} pages");
    seen.sort_unstable();
    assert_eq!(seen, (0..n).collect::<Vec<_>>(), "every link drawn once");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An anchor whose text reads as another URL or host than its `href`
/// (`https://www.paypal.com/` with a zero-width space, or with U+2024 for its dots) was
/// drawn as a working link to its real target. Such a link now shows its target as its
/// text; anchors whose text is prose or the same host stay as they are.
#[test]
fn anchors_that_claim_another_host_show_their_target() {
    let html = "Subject: pay\nContent-Type: text/html; charset=utf-8\n\n\
        <p><a href=\"https://evil.com/steal\">https://www.pay\u{200B}pal.com/</a></p>\
        <p><a href=\"https://evil.com/two\">www\u{2024}paypal\u{2024}com</a></p>\
        <p><a href=\"mailto:thief@evil.com\">support@pay\u{00AD}pal.com</a></p>\
        <p><a href=\"https://www.paypal.com/help\">paypal.com</a></p>\
        <p><a href=\"https://evil.com/three\">Click here</a></p>\n";
    let dir = temp_dir("claims");
    let path = dir.join("pay.mbox");
    write(&path, &mbox(&[html.as_bytes()]));
    let web = dir.join("web");
    let out = linkscan_limited(&[
        "linkify",
        "--mbox",
        path.to_str().unwrap(),
        "--out",
        web.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = std::fs::read_to_string(web.join("00001.html")).unwrap();
    let anchors = anchors_of(&page);
    for (href, shown) in &anchors {
        if href.contains("evil.com") {
            assert!(
                shown.contains("evil.com") || shown == "Click here",
                "{href} drawn over {shown:?}"
            );
        }
    }
    let hrefs: Vec<&str> = anchors.iter().map(|(h, _)| h.as_str()).collect();
    for target in [
        "https://evil.com/steal",
        "https://evil.com/two",
        "mailto:thief@evil.com",
        "https://evil.com/three",
    ] {
        assert!(hrefs.contains(&target), "{target} not drawn: {anchors:?}");
    }
    // The honest anchor keeps its text (drawn as the text link it is).
    let honest = anchors.iter().find(|(_, shown)| shown == "paypal.com");
    assert!(honest.unwrap().0.contains("paypal.com"), "{anchors:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An mbox with classic Mac OS line ends (CR alone): the first `From ` line never ended,
/// so its first 4 MiB became one "From line" and no link was found (exit 1). Its lines
/// are read as LF-ended now, plain, gzip-compressed and on standard input.
#[test]
fn cr_only_mbox_keeps_every_link() {
    let mut archive = Vec::new();
    for k in 0..1000 {
        archive.extend_from_slice(
            format!(
                "From a@example.com Mon Jan  1 00:00:00 2024\rSubject: m{k}\r\rsee https://m{k}.example.com/\r\r"
            )
            .as_bytes(),
        );
    }
    let dir = temp_dir("cr-only");
    let plain = dir.join("mac.mbox");
    write(&plain, &archive);
    let gz = dir.join("mac.mbox.gz");
    write(&gz, &gzip(&archive));
    for path in [&plain, &gz] {
        let out = linkscan_limited(&["find", "--mbox", "--count", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).contains("1000"), "{}", stdout(&out));
        let out = linkscan_limited(&["find", "--mbox", "--format", "tsv", path.to_str().unwrap()]);
        let text = stdout(&out);
        assert!(text.contains("https://m0.example.com/"), "{text}");
        assert!(text.contains("https://m999.example.com/"), "{text}");
        assert!(!stderr(&out).contains("From line"), "{}", stderr(&out));
    }
    let out = common::linkscan(&["find", "--mbox", "--count", "-"], &archive);
    assert!(stdout(&out).contains("1000"), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The links of a Maildir message over `--max-message-size`, as `start end text` lines.
fn link_lines(args: &[&str]) -> Vec<String> {
    let out = linkscan_limited(args);
    assert!(out.status.code() == Some(0), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            // file, message, message_id, part, content_type, source, start, end, kind, text
            format!("{} {} {}", f[6], f[7], f[9])
        })
        .collect()
}

/// A Maildir message over the size limit was read in 1 MiB pieces cut at an arbitrary
/// byte when a piece had no space or control character, so a link there was reported cut
/// short; the same message in an mbox was cut correctly. The pieces now grow to the end of
/// the run, and both give the same links.
#[test]
fn maildir_pieces_are_cut_where_no_link_crosses() {
    let mut body = String::from("Subject: run\n\nstart\n");
    let mut n = 0;
    while body.len() < 1_600_000 {
        body.push_str(&format!("(https://c{n}.example.com/{}),", "a".repeat(200)));
        n += 1;
    }
    body.push_str("\nend https://end.example.com/\n");
    let dir = temp_dir("maildir-run");
    let md = dir.join("Maildir");
    write(&md.join("cur/1"), body.as_bytes());
    std::fs::create_dir_all(md.join("new")).unwrap();
    let mbox_path = dir.join("run.mbox");
    write(&mbox_path, &mbox(&[body.as_bytes()]));
    let args = |kind: &'static str, path: &Path| -> Vec<String> {
        link_lines(&[
            "find",
            kind,
            "--max-message-size",
            "1200K",
            "--format",
            "tsv",
            path.to_str().unwrap(),
        ])
    };
    let from_maildir = args("--maildir", &md);
    let from_mbox = args("--mbox", &mbox_path);
    assert_eq!(
        from_maildir.len(),
        n + 1,
        "{:?}",
        &from_maildir[..from_maildir.len().min(3)]
    );
    let short: Vec<&String> = from_maildir
        .iter()
        .filter(|l| l.contains("example.com/a") && !l.ends_with(&"a".repeat(200)))
        .collect();
    assert!(short.is_empty(), "links cut short: {short:?}");
    assert_eq!(from_maildir, from_mbox);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A part with an invalid Content-Type (`text`, `text/`, `text/plain charset=utf-8`) was
/// skipped without a word; RFC 2045 section 5.2 reads it as text/plain. A message with two
/// Content-Type fields used the last one silently; the first is used, with a warning.
#[test]
fn invalid_and_duplicate_content_types() {
    for ct in ["text", "text/", "text/plain charset=utf-8", "foo", "/plain"] {
        let raw = format!("Subject: x\nContent-Type: {ct}\n\nhttps://body.example.com/\n");
        let m = MailScanner::new().scan(raw.as_bytes());
        assert!(has_link(&m, "https://body.example.com/"), "{ct}: {m:?}");
        assert!(
            m.warnings()
                .iter()
                .any(|w| matches!(w, MailWarning::InvalidContentType { .. })),
            "{ct}: {:?}",
            m.warnings()
        );
    }
    for (first, second) in [
        ("text/plain", "image/png"),
        ("text/html", "application/pdf"),
    ] {
        let raw = format!(
            "Subject: x\nContent-Type: {first}\nContent-Type: {second}\n\n<p>https://body.example.com/ </p>\n"
        );
        let m = MailScanner::new().scan(raw.as_bytes());
        assert!(has_link(&m, "https://body.example.com/"), "{first}: {m:?}");
        assert!(
            has_warning(&m, "2 Content-Type fields"),
            "{:?}",
            m.warnings()
        );
    }
    // A valid one stays silent.
    let m = MailScanner::new().scan(b"Content-Type: text/plain; charset=utf-8\n\nx.com\n");
    assert!(m.warnings().is_empty(), "{:?}", m.warnings());
}

/// A valid gzip stream followed by zero padding is not an error (`zcat` says the same);
/// other bytes after it still are.
#[test]
fn gzip_zero_padding_is_not_an_error() {
    let archive = mbox(&[b"Subject: a\n\nhttps://padded.example.com/\n"]);
    let dir = temp_dir("gzip-padding");
    let mut padded = gzip(&archive);
    padded.extend_from_slice(&[0; 4096]);
    let path = dir.join("padded.mbox.gz");
    write(&path, &padded);
    let out = linkscan_limited(&["find", "--mbox", "--format", "tsv", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("https://padded.example.com/"));
    assert!(!stderr(&out).contains("corrupt"), "{}", stderr(&out));
    let mut trailing = gzip(&archive);
    trailing.extend_from_slice(b"\0\0junk");
    write(&path, &trailing);
    let out = linkscan_limited(&["find", "--mbox", "--format", "tsv", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).contains("https://padded.example.com/"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A message that is only a header (no blank line, no body) got a warning that its body
/// could not be decoded; it has none, and gets no warning.
#[test]
fn a_header_only_message_gets_no_warning() {
    for raw in [
        &b"Subject: only a header example.com\nFrom: a@example.com\n"[..],
        b"Subject: only a header example.com\nFrom: a@example.com",
        b"Subject: only a header example.com\n\n",
    ] {
        let m = MailScanner::new().scan(raw);
        assert!(m.warnings().is_empty(), "{raw:?}: {:?}", m.warnings());
        assert!(has_link(&m, "example.com"));
    }
}

/// `find -q --mbox` read an endless stream forever; it stops at the first link now, as
/// `grep -q` does (exit 0).
#[test]
fn quiet_find_stops_at_the_first_link() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "-q", "--mbox", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let message = mbox(&[b"Subject: a\n\nsee https://endless.example.com/ here\n"]);
        // Endless, until the reader is gone (or far more than any buffer holds).
        for _ in 0..2_000_000 {
            if stdin.write_all(&message).is_err() {
                return true;
            }
        }
        false
    });
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("find -q --mbox did not stop at the first link");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
    assert!(writer.join().unwrap(), "the stream was read to its end");
}

/// Each warning was about seven writes (one per piece of its format), which made input
/// with many warnings ten times slower; each is one write now. Counted with strace.
#[test]
#[ignore = "needs strace"]
fn each_warning_is_one_write() {
    let dir = temp_dir("one-write");
    let messages: Vec<Vec<u8>> = (0..50)
        .map(|k| format!("Subject: {k}\nContent-Type: text\n\nx{k}.example.com\n").into_bytes())
        .collect();
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let path = dir.join("warn.mbox");
    write(&path, &mbox(&refs));
    let trace = dir.join("trace");
    let out = Command::new("strace")
        .args(["-f", "-e", "trace=write", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "--mbox", "--no-progress", "--format", "tsv"])
        .arg(&path)
        .output()
        .expect("strace runs");
    let warnings = stderr(&out)
        .lines()
        .filter(|l| l.contains("Content-Type"))
        .count();
    assert_eq!(warnings, 50, "{}", stderr(&out));
    let trace = std::fs::read_to_string(&trace).unwrap();
    let writes = trace.lines().filter(|l| l.contains("write(2,")).count();
    assert_eq!(writes, warnings, "{trace}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Pages of an earlier, larger run stayed in `--out`, reachable by number though the index
/// no longer lists them; they are removed (and said so), and no temporary file is left.
#[test]
fn stale_pages_of_an_earlier_run_are_removed() {
    let dir = temp_dir("stale-pages");
    let big = dir.join("big.mbox");
    write(
        &big,
        &mbox(&[
            b"Subject: 1\n\na\n",
            b"Subject: 2\n\nb\n",
            b"Subject: 3\n\nc\n",
        ]),
    );
    let small = dir.join("small.mbox");
    write(&small, &mbox(&[b"Subject: only\n\nd\n"]));
    let web = dir.join("web");
    for (path, pages) in [(&big, 3), (&small, 1)] {
        let out = linkscan_limited(&[
            "linkify",
            "--mbox",
            path.to_str().unwrap(),
            "--out",
            web.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let mut names: Vec<String> = std::fs::read_dir(&web)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        // Each message's page, and its thread's (each a thread of its own here).
        // The state of the build (for --update) and the folder's lock sort first.
        // Each message as sent, and each thread and month as an mbox, beside them.
        let mut expected: Vec<String> = vec![".linkscan-archive".into(), ".linkscan.lock".into()];
        expected.extend((1..=pages).flat_map(|k| [format!("{k:05}.html"), format!("{k:05}.txt")]));
        // The list's feed and each thread's.
        expected.extend([
            "feed.atom".into(),
            "index.html".into(),
            "links.html".into(),
            "links.json".into(),
        ]);
        expected.extend((1..=pages).flat_map(|k| {
            [
                format!("t{k:05}.atom"),
                format!("t{k:05}.html"),
                format!("t{k:05}.mbox.gz"),
            ]
        }));
        expected.extend(["undated.html".into(), "undated.mbox.gz".into()]);
        assert_eq!(names, expected, "{}", stderr(&out));
        if pages == 1 {
            // Two message pages, two thread pages and their feeds.
            assert!(stderr(&out).contains("removed 6 pages"), "{}", stderr(&out));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Parts that were never scanned (message/partial, message/external-body,
/// application/octet-stream, text/enriched, text/rfc822-headers, …) got no word; the
/// summary counts them and says why, and `--all-text` scans every text-like one.
#[test]
fn skipped_parts_are_counted_and_all_text_covers_text_like_types() {
    let part =
        |ct: &str, k: usize| format!("--b\nContent-Type: {ct}\n\nhttps://p{k}.example.com/\n");
    let types = [
        ("text/plain", true),
        ("text/enriched", true),
        ("text/rfc822-headers", true),
        ("message/partial; id=x; number=1", true),
        ("message/delivery-status", true),
        ("application/json", true),
        ("application/xhtml+xml", true),
        ("application/octet-stream", false),
        ("image/png", false),
    ];
    let mut body = String::from("Subject: parts\nContent-Type: multipart/mixed; boundary=b\n\n");
    for (k, (ct, _)) in types.iter().enumerate() {
        body.push_str(&part(ct, k));
    }
    body.push_str("--b--\n");
    let m = MailScanner::new().scan(body.as_bytes());
    let skipped: Vec<(&str, bool)> = m
        .skipped()
        .iter()
        .map(|p| (p.content_type.as_str(), p.text_like))
        .collect();
    assert_eq!(skipped.len(), 8, "{skipped:?} {m:?}");
    let all = MailScanner::new().other_text(true).scan(body.as_bytes());
    for (k, (ct, text_like)) in types.iter().enumerate() {
        let link = format!("https://p{k}.example.com/");
        assert_eq!(has_link(&all, &link), *text_like, "{ct}: {:?}", links(&all));
    }
    assert_eq!(all.skipped().len(), 2, "{:?}", all.skipped());
    let dir = temp_dir("skipped-parts");
    let path = dir.join("parts.mbox");
    write(&path, &mbox(&[body.as_bytes()]));
    let out = linkscan_limited(&["find", "--mbox", "--count", path.to_str().unwrap()]);
    let err = stderr(&out);
    assert!(
        err.contains("8 parts not scanned (2 attachments or other non-text types, 6 text-like: --all-text scans them)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `find --count` on a message with a link every 6 bytes kept a record per link (1.07 GB
/// for 31 MB); it counts them now, and gets the number of links `find` lists, also over
/// the size limit and in HTML parts.
#[test]
fn count_counts_what_find_lists() {
    let dense = format!("Subject: a.co b.co\n\n{}\n", "ab.co ".repeat(50_000));
    let html = format!(
        "Subject: h\nContent-Type: text/html\n\n{}\n",
        "<a href=\"https://h.example.com/\">x</a> c.co ".repeat(1000)
    );
    let archive = mbox(&[dense.as_bytes(), html.as_bytes()]);
    let dir = temp_dir("count-dense");
    let path = dir.join("dense.mbox");
    write(&path, &archive);
    for limit in ["32M", "64K"] {
        let base = ["find", "--mbox", "--max-message-size", limit];
        let listed =
            linkscan_limited(&[&base[..], &["--format", "tsv", path.to_str().unwrap()]].concat());
        let lines = stdout(&listed).lines().count();
        let counted = linkscan_limited(&[&base[..], &["--count", path.to_str().unwrap()]].concat());
        assert_eq!(
            stdout(&counted).trim(),
            lines.to_string(),
            "{limit}: {}",
            stderr(&counted)
        );
        assert!(lines > 52_000, "{lines}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// --- The archive's thread, month and front pages -------------------------------------------

/// The deepest `<ul>` nesting of an HTML page.
fn list_depth(page: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0);
    let mut rest = page;
    while let Some(i) = rest.find("<ul").into_iter().chain(rest.find("</ul>")).min() {
        if rest[i..].starts_with("</ul>") {
            depth = depth.saturating_sub(1);
            rest = &rest[i + 5..];
        } else {
            depth += 1;
            deepest = deepest.max(depth);
            rest = &rest[i + 3..];
        }
    }
    deepest
}

/// A thread 10,000 replies deep, a message that answers itself and two whose References
/// name each other: every message has its page, no thread loops or is lost, the thread
/// goes on over pages of at most `THREAD_PAGE_MESSAGES` messages, and the lists nest at most
/// `MAX_NESTING` levels (a browser's parser stops nesting at a few hundred).
#[test]
fn a_thread_10000_deep_and_cycles_make_bounded_pages() {
    use linkscan_mail::archive::{MAX_NESTING, THREAD_PAGE_MESSAGES};
    let n: usize = 10_000;
    let mut messages: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            let parent = if i == 0 {
                String::new()
            } else {
                format!("In-Reply-To: <m{}@example.com>\nReferences: <m0@example.com> <m{}@example.com>\n", i - 1, i - 1)
            };
            format!(
                "Message-ID: <m{i}@example.com>\n{parent}Date: Mon, 1 Jan 2024 10:00:00 +0000\n\
                 Subject: deep {i}\n\nx\n"
            )
            .into_bytes()
        })
        .collect();
    messages.push(
        b"Message-ID: <self@example.com>\nIn-Reply-To: <self@example.com>\nSubject: me\n\nx\n"
            .to_vec(),
    );
    messages.push(
        b"Message-ID: <a@example.com>\nReferences: <b@example.com>\nSubject: a\n\nx\n".to_vec(),
    );
    messages.push(
        b"Message-ID: <b@example.com>\nReferences: <a@example.com>\nSubject: b\n\nx\n".to_vec(),
    );
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let dir = temp_dir("deep-thread");
    let path = dir.join("deep.mbox");
    write(&path, &mbox(&refs));
    let web = dir.join("web");
    let out = linkscan_limited(&[
        "linkify",
        "--mbox",
        "--no-progress",
        path.to_str().unwrap(),
        "--out",
        web.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let pages = n.div_ceil(THREAD_PAGE_MESSAGES);
    let mut listed = 0;
    for k in 0..pages {
        let name = if k == 0 {
            "t00001.html".to_string()
        } else {
            format!("t00001-{}.html", k + 1)
        };
        let page = std::fs::read_to_string(web.join(&name)).unwrap();
        listed += page.matches("<li><a href=").count();
        assert!(
            list_depth(&page) <= MAX_NESTING + 1,
            "{name} nests too deep"
        );
        assert!(page.len() < 400 << 10, "{name}: {} bytes", page.len());
    }
    assert_eq!(listed, n, "every message of the thread listed once");
    assert!(!web.join(format!("t00001-{}.html", pages + 1)).exists());
    let last = std::fs::read_to_string(web.join(format!("{n:05}.html"))).unwrap();
    assert!(
        last.contains(&format!(
            "<tr><th>In reply to</th><td><a href=\"{:05}.html\">",
            n - 1
        )),
        "the last reply links its parent"
    );
    // The message that answers itself is the root of its own thread.
    let me = std::fs::read_to_string(web.join(format!("{:05}.html", n + 1))).unwrap();
    assert!(!me.contains("In reply to"));
    assert!(me.contains("<span>message 1 of 1</span>"), "{me}");
    // The two that name each other: the later answers the earlier (a parent comes
    // first), each shown once, and nothing loops.
    let a = std::fs::read_to_string(web.join(format!("{:05}.html", n + 2))).unwrap();
    assert!(!a.contains("In reply to"));
    assert!(a.contains("<span>message 1 of 2</span>"), "{a}");
    let b = std::fs::read_to_string(web.join(format!("{:05}.html", n + 3))).unwrap();
    assert!(b.contains(&format!(
        "<tr><th>In reply to</th><td><a href=\"{:05}.html\">",
        n + 2
    )));
    assert!(b.contains("<span>message 2 of 2</span>"), "{b}");
    let month = std::fs::read_to_string(web.join("2024-01.html")).unwrap();
    assert!(month.len() < 400 << 10, "{} bytes", month.len());
    assert!(list_depth(&month) <= MAX_NESTING + 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The links of `find --format tsv` (their start, end and text), sorted.
fn found_links(out: &Output) -> Vec<(String, String, String)> {
    let mut links: Vec<(String, String, String)> = stdout(out)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[6].into(), f[7].into(), f[9].into())
        })
        .collect();
    links.sort();
    links
}

/// A message over the size limit in a Maildir is cut as the same message in an mbox is:
/// a run without white space that spans less than a block read keeps its link whole (it
/// was cut inside the link at the limit), and one far longer is cut with a warning that
/// names the file; nothing is dropped, and both find the same links.
#[test]
fn a_maildir_message_over_the_limit_is_cut_as_in_an_mbox() {
    const M: usize = 1 << 20;
    let dir = temp_dir("maildir-over-limit");
    for (k, body) in [
        // A link across the limit, in a run of about 2 MiB.
        format!(
            "{}https://example.com/{}{} end\nand example.org\n",
            ",".repeat(M - 100),
            "p".repeat(1000),
            ",".repeat(M - 300_000)
        ),
        // A run of 5 MiB: cut, the links around it kept.
        format!(
            "see example.net\n{}https://example.com/{} then example.org\n",
            ",".repeat(5 * M),
            "q".repeat(100)
        ),
    ]
    .iter()
    .enumerate()
    {
        let message = format!("Message-ID: <big@example.com>\nSubject: big\n\n{body}\n");
        let mbox = dir.join(format!("{k}.mbox"));
        write(
            &mbox,
            format!("From a@example.com Mon Jan  1 00:00:00 2024\n{message}").as_bytes(),
        );
        let maildir = dir.join(format!("md{k}"));
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(maildir.join(sub)).unwrap();
        }
        write(&maildir.join("cur/1.host:2,S"), message.as_bytes());
        let run = |args: &[&str], input: &Path| {
            Command::new(env!("CARGO_BIN_EXE_linkscan"))
                .args(["find", "--no-progress", "--max-message-size", "1M"])
                .args(["--format", "tsv"])
                .args(args)
                .arg(input)
                .output()
                .unwrap()
        };
        let from_mbox = run(&["--mbox"], &mbox);
        let from_maildir = run(&["--maildir"], &maildir);
        assert_eq!(
            found_links(&from_mbox),
            found_links(&from_maildir),
            "body {k}: {}",
            stderr(&from_maildir)
        );
        let said = stderr(&from_maildir);
        let cut = said.lines().filter(|l| l.contains("cut")).count();
        if k == 0 {
            assert!(found_links(&from_maildir)
                .iter()
                .any(|l| l.2 == format!("https://example.com/{}", "p".repeat(1000))));
            assert_eq!(cut, 0, "{said}");
        } else {
            assert!(cut > 0, "{said}");
            assert!(
                said.lines()
                    .filter(|l| l.contains("cut"))
                    .all(|l| l.contains("1.host:2,S")),
                "{said}"
            );
            for link in ["example.net", "example.org"] {
                assert!(
                    found_links(&from_maildir).iter().any(|l| l.2 == link),
                    "{link}: {said}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
