//! The HTML archive as a browser sees it: `linkscan linkify --mbox` on the test archive,
//! then headless Chromium loads pages and prints the DOM it built, and the links, the
//! decoded texts and the escaping are checked there.
//!
//! Needs `chromium` (Debian's package; `.ci/run` installs it). Without it the test fails
//! under CI (`CI` set, as `.ci/run` runs), so CI never passes without the browser check;
//! elsewhere (a newcomer's first `cargo test`) it is skipped with a message on stderr.
#![cfg(feature = "mail")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
}

/// The DOM of `page` after Chromium parsed and rendered it.
fn dump_dom(browser: &Path, page: &Path) -> String {
    let profile = page.parent().unwrap().join(".chromium-profile");
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {out:?}");
    String::from_utf8(out.stdout).expect("the DOM is UTF-8")
}

#[test]
fn archive_pages_render_with_their_links() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the browser test needs chromium under CI (apt-get install chromium)"
        );
        eprintln!(
            "SKIPPED: archive_pages_render_with_their_links: no chromium on PATH \
             (apt-get install chromium to run it)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("linkscan-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mail/sample.mbox");
    // A hostile message after the sample: markup in the Subject and the body must stay text.
    let hostile = dir.join("hostile.mbox");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        &hostile,
        "From x@example.com Mon Jan  1 00:00:00 2024\n\
         From: <script>alert(1)</script> <x@example.com>\n\
         Subject: <script>document.title='pwned'</script> https://evil.example.com/?a=<b>\n\
         Message-ID: <hostile@example.com>\n\
         Content-Type: text/html; charset=utf-8\n\n\
         <p>Hi <img src=x onerror=\"document.title='pwned'\"> \
         <a href=\"javascript:alert(1)\">js</a> &lt;script&gt; https://ok.example.com</p>\n",
    )
    .unwrap();
    let out_dir = dir.join("web");
    let status = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "-q", "--out"])
        .arg(&out_dir)
        .arg(&sample)
        .arg(&hostile)
        .status()
        .expect("linkscan runs");
    assert!(status.success());

    // The HTML message: links from the text and from href attributes, entities decoded.
    let dom = dump_dom(&browser, &out_dir.join("00009.html"));
    for expected in [
        "<a href=\"https://shop.example.com/?a=1&amp;b=2\" rel=\"nofollow\">our shop</a>",
        "<a href=\"https://text.example.org/page\" rel=\"nofollow\">https://text.example.org/page</a>",
        "<a href=\"mailto:sales@example.com\" rel=\"nofollow\">sales</a>",
        "<a href=\"https://café.example.com/x\" rel=\"nofollow\">https://café.example.com/x</a>",
        "<a href=\"mailto:ivan@example.com\">ivan@example.com</a>",
    ] {
        assert!(dom.contains(expected), "missing {expected:?} in\n{dom}");
    }
    assert!(
        !dom.contains("script.example.com"),
        "script text leaked:\n{dom}"
    );

    // Decoded legacy charsets and subjects reach the page as UTF-8.
    let dom = dump_dom(&browser, &out_dir.join("00005.html"));
    assert!(
        dom.contains(
            "<a href=\"https://example.jp/詳細\" rel=\"nofollow\">https://example.jp/詳細</a>"
        ),
        "{dom}"
    );
    assert!(
        dom.contains("<title>お知らせ https://example.jp/お知らせ</title>"),
        "{dom}"
    );

    // The hostile message: everything is text, nothing runs, no javascript: link.
    let dom = dump_dom(&browser, &out_dir.join("00013.html"));
    assert!(
        dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"),
        "{dom}"
    );
    assert!(!dom.contains("<title>pwned</title>"), "{dom}");
    assert!(
        !dom.contains("<img") && !dom.contains("javascript:"),
        "{dom}"
    );
    assert!(
        dom.contains("<a href=\"https://ok.example.com\" rel=\"nofollow\">"),
        "{dom}"
    );
    assert!(
        dom.contains("<a href=\"https://evil.example.com/?a=&lt;b&gt;\" rel=\"nofollow\">"),
        "{dom}"
    );
    assert_eq!(dom.matches("<script").count(), 0, "{dom}");

    // The index lists every message, in order, linked to its page.
    let dom = dump_dom(&browser, &out_dir.join("index.html"));
    for n in 1..=13 {
        assert!(
            dom.contains(&format!("<a href=\"{n:05}.html\">")),
            "page {n} not listed"
        );
    }
    assert!(dom.contains(">Fwd: Original</a>"), "{dom}");
    std::fs::remove_dir_all(&dir).unwrap();
}
