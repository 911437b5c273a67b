//! `linkscan display` and the display form in HTML: what people see of a link, in every
//! script and paragraph direction (`linkscan::display`).

mod common;

use common::linkscan;

fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn display_shows_links_as_people_should_see_them() {
    let out = linkscan(
        &[
            "display",
            "https://xn--bcher-kva.de/b%C3%BCcher?q=%CE%B1#%CE%B2",
            "https://xn--80ak6aa92e.com/login",
            "https://example.com/\u{202E}fdp.exe",
            "σωκράτης@xn--bcher-kva.de",
            "john doe@example.com",
        ],
        b"",
    );
    assert_eq!(
        stdout(&out),
        "https://bücher.de/bücher?q=α#β\n\
         https://xn--80ak6aa92e.com/login\n\
         https://example.com/%E2%80%AEfdp.exe\n\
         σωκράτης@bücher.de\n\
         \"john doe\"@example.com\n"
    );
}

#[test]
fn display_with_bidi_isolates_the_link_and_each_field() {
    let out = linkscan(
        &[
            "display",
            "--bidi",
            "https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1?a=b#c",
        ],
        b"",
    );
    let marked = stdout(&out)
        .replace('\u{2066}', "⁅")
        .replace('\u{2069}', "⁆")
        .replace('\u{200E}', "|");
    assert_eq!(
        marked,
        "⁅|https|://|ar|.|wikipedia|.|org|/|wiki|/|مصر|?|a|=|b|#|c|⁆\n"
    );
}

#[test]
fn display_reads_stdin_lines_at_every_line_end_and_keeps_bad_bytes_escaped() {
    let out = linkscan(
        &["display"],
        b"example.com/%CE%B1\rexample.com/\xff\r\nx@xn--bcher-kva.de\n",
    );
    assert_eq!(
        stdout(&out),
        "example.com/α\nexample.com/%FF\nx@bücher.de\n"
    );
}

#[test]
fn escape_keeps_its_conformant_meaning() {
    // escape leaves a Bidi_Control character (section 4.1) and shows any valid host in
    // Unicode; display escapes it and keeps a spoofable host in Punycode.
    let url = "https://xn--80ak6aa92e.com/\u{202E}x";
    let escaped = stdout(&linkscan(&["escape", url], b""));
    let shown = stdout(&linkscan(&["display", url], b""));
    assert_eq!(escaped, "https://аррӏе.com/\u{202E}x\n");
    assert_eq!(shown, "https://xn--80ak6aa92e.com/%E2%80%AEx\n");
}

/// `linkify` writes each link in its display form, isolated, pointing to its ASCII form;
/// with `--checks` a failing link is text, but its U+202E is escaped all the same.
#[test]
fn linkify_writes_display_forms_and_never_a_raw_bidi_control() {
    let text = "انظر xn--bcher-kva.de/%CE%B1 و example.com/\u{202E}fdp.exe ثم تابع";
    let html = stdout(&linkscan(&["linkify"], text.as_bytes()));
    assert!(
        html.contains(
            "<bdi dir=\"ltr\"><a href=\"https://xn--bcher-kva.de/%CE%B1\">\
             <bdi>bücher</bdi>.<bdi>de</bdi>/<bdi>α</bdi></a></bdi>"
        ),
        "{html}"
    );
    assert!(
        html.contains(
            "<bdi dir=\"ltr\"><a href=\"https://example.com/%E2%80%AEfdp.exe\">\
             example.com/%E2%80%AEfdp.exe</a></bdi>"
        ),
        "{html}"
    );
    let checked = stdout(&linkscan(&["linkify", "--checks"], text.as_bytes()));
    assert_eq!(checked.matches("<a ").count(), 1, "{checked}");
    assert!(
        checked.contains(" example.com/%E2%80%AEfdp.exe ثم"),
        "{checked}"
    );
    for html in [&html, &checked] {
        assert!(!html.contains('\u{202E}'), "{html}");
    }
}

#[cfg(feature = "mail")]
mod archive {
    use super::*;
    use std::fs;
    use std::path::{Path, PathBuf};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("linkscan-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn mbox(dir: &Path, body: &str) -> PathBuf {
        let path = dir.join("in.mbox");
        fs::write(
            &path,
            format!(
                "From x@example.com Mon Jan  1 00:00:00 2024\nFrom: x@example.com\n\
                 Subject: مرحبا\nContent-Type: text/plain; charset=utf-8\n\n{body}\n"
            ),
        )
        .unwrap();
        path
    }

    fn run(args: &[&str], out: &Path, input: &Path) -> std::process::Output {
        let mut all: Vec<&str> = vec!["linkify", "--mbox", "--no-progress", "--out"];
        all.push(out.to_str().unwrap());
        all.extend_from_slice(args);
        all.push(input.to_str().unwrap());
        linkscan(&all, b"")
    }

    /// Pages: text parts and header cells take their own direction, links their display
    /// form; with --checks a failing link is text with its U+202E escaped.
    #[test]
    fn pages_read_in_their_own_direction() {
        let dir = scratch("display-archive");
        let input = mbox(
            &dir,
            "انظر https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1 و example.com/\u{202E}x",
        );
        for checks in [false, true] {
            let web = dir.join(if checks { "checked" } else { "web" });
            let args: &[&str] = if checks { &["--checks"] } else { &[] };
            let out = run(args, &web, &input);
            assert!(out.status.success(), "{out:?}");
            let page = fs::read_to_string(web.join("00001.html")).unwrap();
            assert!(page.contains("<pre dir=\"auto\">انظر <bdi dir=\"ltr\"><a href=\"https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1\" rel=\"nofollow\"><bdi>https</bdi>://"), "{page}");
            assert!(
                page.contains("<td class=\"subject\" dir=\"auto\">مرحبا</td>"),
                "{page}"
            );
            assert!(page.contains("example.com/%E2%80%AEx"), "{page}");
            assert!(!page.contains('\u{202E}'), "{page}");
            let index = fs::read_to_string(web.join("index.html")).unwrap();
            assert!(
                index.contains("<td dir=\"auto\"><a href=\"00001.html\">مرحبا</a></td>"),
                "{index}"
            );
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A symbolic link already in the --out folder is replaced, never written through.
    #[test]
    fn out_replaces_symbolic_links_and_leaves_their_targets() {
        let dir = scratch("display-symlinks");
        let input = mbox(&dir, "see example.com");
        let web = dir.join("web");
        fs::create_dir_all(&web).unwrap();
        let precious = dir.join("precious.txt");
        fs::write(&precious, "keep me").unwrap();
        for name in ["index.html", "00001.html"] {
            std::os::unix::fs::symlink(&precious, web.join(name)).unwrap();
        }
        let out = run(&[], &web, &input);
        assert!(out.status.success(), "{out:?}");
        assert_eq!(fs::read_to_string(&precious).unwrap(), "keep me");
        for name in ["index.html", "00001.html"] {
            let meta = fs::symlink_metadata(web.join(name)).unwrap();
            assert!(meta.file_type().is_file(), "{name} is still a link");
            assert!(fs::read_to_string(web.join(name))
                .unwrap()
                .starts_with("<!DOCTYPE html>"));
        }
        // No temporary file is left behind.
        let names: Vec<String> = fs::read_dir(&web)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
