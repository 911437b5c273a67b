//! The archive's attachments (`linkify --mbox --out --attachments`): text attachments
//! drawn on the message page with their links, a patch's lines told apart (checked in
//! Chromium by their computed style), the others written under `a/NNNNN/` with safe names
//! and linked; hostile names and types never make markup or a file a browser would run.

#![cfg(feature = "mail")]

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use crate::browser::{chromium, measure_with};
use crate::common::build_archive as build;

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("attach", name)
}

/// A message with a text part and the attachments `parts` (headers, body).
fn message(parts: &[(&str, &str)]) -> String {
    let mut m = String::from(
        "From a@example.com Mon Jan  1 00:00:00 2024\n\
         Message-ID: <1@example.com>\nFrom: Ann <ann@example.com>\n\
         Date: Mon, 1 Jan 2024 10:00:00 +0100\nSubject: a fix\n\
         MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n\
         --b\nContent-Type: text/plain\n\nthe fix is attached\n",
    );
    for (headers, body) in parts {
        m.push_str(&format!("--b\n{headers}\n\n{body}\n"));
    }
    m.push_str("--b--\n");
    m
}

const PATCH: &str = "diff --git a/src/x.rs b/src/x.rs\n--- a/src/x.rs\n+++ b/src/x.rs\n\
@@ -1,3 +1,3 @@\n fn main() {\n-    old(\"https://old.example.org/a\");\n\
+    new(\"https://new.example.org/b\");\n }";

/// A patch is drawn on the page with its links, each line of it in the span of its
/// class; a source file sent as bytes is drawn as text too; an image is written and
/// linked; `--attachments none` lists them as before; `link` writes them all.
#[test]
fn text_attachments_are_drawn_and_others_linked() {
    let dir = temp_dir("modes");
    let mbox = dir.join("list.mbox");
    fs::write(
        &mbox,
        message(&[
            ("Content-Type: text/x-patch; name=\"fix.patch\"", PATCH),
            (
                "Content-Type: application/octet-stream\nContent-Disposition: attachment; filename=main.c",
                "int main(void) { return 0; } /* see example.com/c */",
            ),
            (
                "Content-Type: image/png; name=\"shot.png\"\nContent-Transfer-Encoding: base64",
                "iVBORw0KGgo=",
            ),
        ]),
    )
    .unwrap();
    let web = dir.join("inline");
    build(&mbox, &web, &[]);
    let page = fs::read_to_string(web.join("00001.html")).unwrap();
    assert!(page.contains("<pre class=\"diff\" dir=\"ltr\">"), "{page}");
    assert!(
        page.contains("<span class=\"hunk\">@@ -1,3 +1,3 @@</span>"),
        "{page}"
    );
    assert!(
        page.contains(
            "<span class=\"add\">+    new(&quot;<bdi dir=\"ltr\"><a href=\"https://new.example.org/b\""
        ),
        "{page}"
    );
    assert!(page.contains("<span class=\"del\">-    old("), "{page}");
    assert!(
        page.contains("<span class=\"file\">+++ b/src/x.rs</span>"),
        "{page}"
    );
    assert!(page.contains("href=\"https://example.com/c\""), "{page}");
    assert!(
        page.contains("<a href=\"a/00001/1-shot.png\" download><bdi dir=\"auto\">shot.png</bdi></a>, image/png, <span title=\"8 bytes\">8 bytes</span>"),
        "{page}"
    );
    assert_eq!(
        fs::read(web.join("a/00001/1-shot.png")).unwrap(),
        b"\x89PNG\r\n\x1a\n"
    );
    // The links of the attachments count as the message's: on the page of links.
    let links = fs::read_to_string(web.join("links.json")).unwrap();
    assert!(links.contains("https://new.example.org/b"), "{links}");
    // Only the message's own text part goes without a heading.
    assert_eq!(page.matches("<section class=\"attachment\">").count(), 2);
    // none: as before, nothing written.
    let none = dir.join("none");
    build(&mbox, &none, &["--attachments", "none"]);
    let page = fs::read_to_string(none.join("00001.html")).unwrap();
    assert!(page.contains("<h2>Not shown</h2>"), "{page}");
    assert_eq!(page.matches("<li>Part ").count(), 3, "{page}");
    assert!(!none.join("a").exists());
    // link: every attachment written, the patch under its own name.
    let link = dir.join("link");
    build(&mbox, &link, &["--attachments", "link"]);
    let mut names: Vec<String> = fs::read_dir(link.join("a/00001"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["1-fix.patch", "2-main.txt", "3-shot.png"]);
    assert_eq!(
        fs::read_to_string(link.join("a/00001/1-fix.patch")).unwrap(),
        PATCH
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Hostile names and types: markup, quotes, path separators, leading dots, control and
/// Bidi_Control characters, HTML and SVG content. No page gets markup from them, every
/// written file has a safe name whose extension no server serves as HTML, SVG, XML or a
/// script, and none lands outside its message's folder.
#[test]
fn hostile_names_and_types_stay_text_and_files_stay_inert() {
    let dir = temp_dir("hostile");
    let mbox = dir.join("list.mbox");
    let hostile = [
        (
            "<script>alert(1)</script>.html",
            "text/html",
            "<script>alert(1)</script>",
        ),
        (
            "../../../index.html",
            "application/octet-stream",
            "<h1>owned</h1>",
        ),
        ("..\\..\\x.svg", "image/svg+xml", "<svg onload=alert(1)/>"),
        (
            ".htaccess",
            "application/octet-stream",
            "AddHandler cgi-script .txt",
        ),
        ("a\u{202E}gpj.exe", "application/x-msdownload", "MZ\u{0}"),
        (
            "x.php.txt",
            "application/x-php",
            "<?php system($_GET[1]); ?>",
        ),
        (
            "\"><img src=x onerror=alert(1)>.xml",
            "application/xml\"><b>",
            "<x/>",
        ),
    ];
    let parts: Vec<(String, &str)> = hostile
        .iter()
        .map(|(name, ctype, body)| {
            (
                format!(
                    "Content-Type: {ctype}\nContent-Disposition: attachment; filename=\"{}\"",
                    name.replace('"', "\\\"")
                ),
                *body,
            )
        })
        .collect();
    let parts: Vec<(&str, &str)> = parts.iter().map(|(h, b)| (h.as_str(), *b)).collect();
    fs::write(&mbox, message(&parts)).unwrap();
    for how in ["inline", "link"] {
        let web = dir.join(how);
        build(&mbox, &web, &["--attachments", how]);
        let page = fs::read_to_string(web.join("00001.html")).unwrap();
        for bad in [
            "<script>alert",
            "<img src",
            "<svg",
            "<h1>",
            "<b>",
            "<?php",
            "<x/>",
        ] {
            assert!(!page.contains(bad), "{how}: {bad} in {page}");
        }
        assert!(!page.contains('\u{202E}'), "{how}: a raw U+202E");
        // Nothing written outside the folders of the messages (but the pages, downloads
        // and feeds).
        let mut top: Vec<String> = fs::read_dir(&web)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| {
                !n.starts_with(".linkscan")
                    && ![".html", ".txt", ".mbox.gz", ".atom"]
                        .iter()
                        .any(|e| n.ends_with(e))
            })
            .collect();
        top.sort();
        assert_eq!(top, ["a", "links.json"], "{how}");
        for e in fs::read_dir(web.join("a/00001")).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            assert!(e.file_type().unwrap().is_file(), "{name}");
            assert!(
                name.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)),
                "{name}"
            );
            assert_eq!(name.matches('.').count(), 1, "{name}");
            let ext = name.rsplit('.').next().unwrap();
            assert!(
                ["txt", "bin"].contains(&ext),
                "{how}: {name} would be served by its extension"
            );
            assert!(
                page.contains(&format!("href=\"a/00001/{name}\"")),
                "{how}: {name} not linked"
            );
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Past `--attachment-limit`, an attachment is listed and not written, and the page says
/// so; one after it that fits is written.
#[test]
fn the_limit_per_message_is_said_on_the_page() {
    let dir = temp_dir("limit");
    let mbox = dir.join("list.mbox");
    let big = "A".repeat(4000);
    fs::write(
        &mbox,
        message(&[
            ("Content-Type: image/png; name=big.png", &big),
            ("Content-Type: image/png; name=small.png", "PNG"),
        ]),
    )
    .unwrap();
    let web = dir.join("web");
    build(&mbox, &web, &["--attachment-limit", "1K"]);
    let page = fs::read_to_string(web.join("00001.html")).unwrap();
    assert!(
        page.contains("big.png</bdi>, image/png, 3.9 KiB encoded: not written, past the archive's limit of 1.0 KiB"),
        "{page}"
    );
    assert!(page.contains("href=\"a/00001/2-small.png\""), "{page}");
    assert!(!web.join("a/00001/1-big.png").exists());
    // A limit that is no size is refused before anything is read.
    let run = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "--attachment-limit", "lots", "--out"])
        .arg(dir.join("refused"))
        .arg(&mbox)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(!dir.join("refused").exists());
    fs::remove_dir_all(&dir).unwrap();
}

/// What the reader sees: the added, removed and hunk lines of a patch each in their own
/// colours and backgrounds (computed style), the context lines in the block's, and every
/// line of the patch on its own line, in order.
#[test]
#[ignore = "needs chromium"]
fn a_patch_is_drawn_with_its_lines_told_apart() {
    let browser = chromium();
    let dir = temp_dir("chromium");
    let mbox = dir.join("list.mbox");
    fs::write(
        &mbox,
        message(&[("Content-Type: text/x-diff; name=fix.diff", PATCH)]),
    )
    .unwrap();
    let web = dir.join("web");
    build(&mbox, &web, &[]);
    const SCRIPT: &str = r#"<script>
const out = [];
const pre = document.querySelector('pre.diff');
const style = e => { const s = getComputedStyle(e); return s.color.replace(/ /g, '') + '|' + s.backgroundColor.replace(/ /g, ''); };
out.push(['pre', style(pre), encodeURIComponent(pre.textContent)].join(' '));
pre.querySelectorAll(':scope > span').forEach(s => {
  out.push(['span', s.className, style(s), Math.round(s.getBoundingClientRect().top), Math.round(s.getBoundingClientRect().height)].join(' '));
});
document.getElementById('measured').textContent = out.join('\n');
</script>"#;
    let measured = measure_with(&browser, &web.join("00001.html"), SCRIPT, false);
    let pre = &measured[0][1];
    // The patch reads as sent, every character of it.
    let decoded = percent_decode(&measured[0][2]);
    assert_eq!(decoded, PATCH, "{measured:?}");
    let spans: Vec<&Vec<String>> = measured.iter().filter(|m| m[0] == "span").collect();
    let classes: Vec<&str> = spans.iter().map(|s| s[1].as_str()).collect();
    assert_eq!(
        classes,
        ["file", "file", "file", "hunk", "del", "add"],
        "{measured:?}"
    );
    // Each line below the one before (the context line between them too).
    for pair in spans.windows(2) {
        let (a, b): (f64, f64) = (pair[0][3].parse().unwrap(), pair[1][3].parse().unwrap());
        let height: f64 = pair[0][4].parse().unwrap();
        assert!(b >= a + height - 1.0, "{measured:?}");
    }
    let class_style = |class: &str| -> &str { &spans.iter().find(|l| l[1] == class).unwrap()[2] };
    let (add, del, hunk) = (class_style("add"), class_style("del"), class_style("hunk"));
    assert!(add != del && add != hunk && del != hunk, "{measured:?}");
    for drawn in [add, del, hunk] {
        // Its own colour and background, not the block's.
        assert_ne!(drawn, pre, "{measured:?}");
        let (_, background) = drawn.split_once('|').unwrap();
        assert_ne!(background, "rgba(0,0,0,0)", "{measured:?}");
    }
    // Added lines green, removed red: their colours say so.
    let rgb = |s: &str| -> Vec<u32> {
        s.trim_start_matches("rgb(")
            .trim_end_matches(')')
            .split(',')
            .map(|n| n.parse().unwrap())
            .collect()
    };
    let (a, d) = (
        rgb(add.split('|').next().unwrap()),
        rgb(del.split('|').next().unwrap()),
    );
    assert!(a[1] > a[0] && d[0] > d[1], "{measured:?}");
    fs::remove_dir_all(&dir).unwrap();
}

/// `%XX` escapes of UTF-8 decoded (what `encodeURIComponent` writes).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}
