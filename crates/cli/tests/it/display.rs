use crate::common::linkscan;

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

    /// Only web schemes become hrefs in the archive, in the text and in the `href`s of an
    /// HTML part alike; `--href-schemes` adds more.
    #[test]
    fn only_web_schemes_get_an_href() {
        let dir = scratch("display-archive-schemes");
        let input = dir.join("html.mbox");
        fs::write(
            &input,
            "From x@example.com Mon Jan  1 00:00:00 2024\nFrom: x@example.com\n\
             Subject: links\nContent-Type: text/html; charset=utf-8\n\n\
             <p>see smb://evil.example.com/share and \
             <a href=\"ms-msdt://x.example.com/a\">help</a> \
             <a href=\"file://evil.example.com/x\">file</a> \
             <a href=\"ftp://files.example.org/pub\">ftp</a> \
             <a href=\"https://example.com/ok\">ok</a></p>\n",
        )
        .unwrap();
        let out_dir = dir.join("out");
        let out = run(&[], &out_dir, &input);
        assert!(out.status.success(), "{out:?}");
        let page = fs::read_to_string(out_dir.join("00001.html")).unwrap();
        for bad in ["smb:", "ms-msdt:", "file:", "ftp:"] {
            assert!(!page.contains(&format!("href=\"{bad}")), "{bad}: {page}");
        }
        assert!(page.contains("href=\"https://example.com/ok\""), "{page}");
        assert!(
            page.contains("<span class=\"link\">smb://evil.example.com/share</span>"),
            "{page}"
        );
        assert!(page.contains("<span class=\"link\">help</span>"), "{page}");
        let out = run(&["--href-schemes", "ftp"], &out_dir, &input);
        assert!(out.status.success(), "{out:?}");
        let page = fs::read_to_string(out_dir.join("00001.html")).unwrap();
        assert!(
            page.contains("href=\"ftp://files.example.org/pub\""),
            "{page}"
        );
        assert!(!page.contains("href=\"file:"), "{page}");
        fs::remove_dir_all(&dir).unwrap();
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
            // The subject in the lists, isolated in its own direction.
            let thread = fs::read_to_string(web.join("t00001.html")).unwrap();
            assert!(
                thread.contains("<a href=\"#m1\"><bdi dir=\"auto\">مرحبا</bdi></a>"),
                "{thread}"
            );
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Only web schemes get an href in the archive, from the text and from an HTML part's
    /// anchors alike; `--href-schemes` adds one.
    #[test]
    fn archive_writes_hrefs_for_web_schemes_only() {
        let dir = scratch("display-href-schemes");
        let path = dir.join("in.mbox");
        fs::write(
            &path,
            "From x@example.com Mon Jan  1 00:00:00 2024\nFrom: x@example.com\n\
             Subject: s\nContent-Type: text/html; charset=utf-8\n\n\
             <p>see smb://files.example.org/share and https://example.com/a\n\
             <a href=\"file://files.example.org/etc/passwd\">report</a>\n\
             <a href=\"ftp://example.org/pub\">pub</a>\n\
             <a href=\"https://example.net/ok\">ok</a></p>\n",
        )
        .unwrap();
        let web = dir.join("web");
        let out = run(&[], &web, &path);
        assert!(out.status.success(), "{out:?}");
        let page = fs::read_to_string(web.join("00001.html")).unwrap();
        for bad in ["href=\"smb:", "href=\"file:", "href=\"ftp:"] {
            assert!(!page.contains(bad), "{bad}: {page}");
        }
        assert!(
            page.contains("<span class=\"link\">report</span>"),
            "{page}"
        );
        assert!(page.contains("<span class=\"link\">pub</span>"), "{page}");
        assert!(page.contains("href=\"https://example.net/ok\""), "{page}");
        assert!(page.contains("href=\"https://example.com/a\""), "{page}");

        let web = dir.join("ftp");
        let out = run(&["--href-schemes", "ftp"], &web, &path);
        assert!(out.status.success(), "{out:?}");
        let page = fs::read_to_string(web.join("00001.html")).unwrap();
        assert!(page.contains("href=\"ftp://example.org/pub\""), "{page}");
        assert!(!page.contains("href=\"file:"), "{page}");
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
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// Syntax look-alikes (`⁄` `∕` `／` `․` `Ɂ` …) are percent-escaped in the display form, by
/// the library, `display` and `linkify`; letters of other scripts are not.
#[test]
fn syntax_lookalikes_are_escaped_for_display() {
    use linkscan::display::{display_url, DisplayOptions, SYNTAX_LOOKALIKES};
    let plain = DisplayOptions::default();
    for (c, ascii) in SYNTAX_LOOKALIKES {
        let url = format!("https://example.com/a{c}b");
        let shown = display_url(&url, &plain);
        assert!(!shown.contains(c), "{c:?} ({ascii}): {shown}");
        let mut utf8 = [0; 4];
        let escaped: String = c
            .encode_utf8(&mut utf8)
            .bytes()
            .map(|b| format!("%{b:02X}"))
            .collect();
        assert_eq!(shown, format!("https://example.com/a{escaped}b"), "{c:?}");
    }
    assert_eq!(
        display_url("https://example.com/ノート/丿", &plain),
        "https://example.com/ノート/丿"
    );
    let out = linkscan(
        &["display", "https://bank.example/a\u{2044}login\u{0241}x=1"],
        b"",
    );
    assert_eq!(
        stdout(&out),
        "https://bank.example/a%E2%81%84login%C9%81x=1\n"
    );
    let out = linkscan(&["linkify"], "https://example.com/a\u{FF0F}b".as_bytes());
    assert!(stdout(&out).contains(">https://example.com/a%EF%BC%8Fb</a>"));
}

/// Only web schemes become hrefs in `linkify`; `--href-schemes` adds more, and refuses
/// schemes that run script.
#[test]
fn linkify_writes_hrefs_for_web_schemes_only() {
    let text = "a https://example.com/x b mailto:me@example.org c ftp://example.org/pub \
                d sftp://example.net/f e me@example.org";
    let html = stdout(&linkscan(&["linkify"], text.as_bytes()));
    assert_eq!(html.matches("<a href=").count(), 3, "{html}");
    assert!(
        html.contains("<span class=\"link\">ftp://example.org/pub</span>"),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"link\">sftp://example.net/f</span>"),
        "{html}"
    );
    assert!(
        !html.contains("href=\"ftp:") && !html.contains("href=\"sftp:"),
        "{html}"
    );

    let html = stdout(&linkscan(
        &["linkify", "--href-schemes", "FTP,sftp"],
        text.as_bytes(),
    ));
    assert_eq!(html.matches("<a href=").count(), 5, "{html}");
    assert!(
        html.contains("<a href=\"ftp://example.org/pub\">"),
        "{html}"
    );

    for bad in ["javascript", "data", "1abc", "a b"] {
        let out = linkscan(&["linkify", "--href-schemes", bad], b"x");
        assert_eq!(out.status.code(), Some(2), "{bad}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--href-schemes"));
    }
}

/// `linkify` reads with the readable policy unless told otherwise; `find` stays
/// conformant.
#[test]
fn linkify_defaults_to_the_readable_policy_and_find_does_not() {
    let text = "see NEWS.md, Proc.new and example.com";
    let html = stdout(&linkscan(&["linkify"], text.as_bytes()));
    assert_eq!(html.matches("<a href=").count(), 1, "{html}");
    let html = stdout(&linkscan(
        &["linkify", "--policy", "conformant"],
        text.as_bytes(),
    ));
    assert_eq!(html.matches("<a href=").count(), 3, "{html}");
    let found = stdout(&linkscan(&["find", "-o"], text.as_bytes()));
    assert_eq!(found, "NEWS.md\nProc.new\nexample.com\n");
    let found = stdout(&linkscan(
        &["find", "-o", "--policy", "readable"],
        text.as_bytes(),
    ));
    assert_eq!(found, "example.com\n");
}

/// `--version` names the data built in; `LINKSCAN_TLD_LIST` gives a TLD list as
/// `--tld-list` does, and a bad one is a clear error.
#[test]
fn version_names_the_data_and_the_tld_list_variable_is_read() {
    let version = stdout(&linkscan(&["--version"], b""));
    assert!(
        version.contains(&format!("Unicode {}", linkscan::UNICODE_VERSION)),
        "{version}"
    );
    assert!(version.contains(linkscan::TLD_LIST_VERSION), "{version}");
    assert!(version.contains("LINKSCAN_TLD_LIST"), "{version}");

    let dir = std::env::temp_dir().join(format!("linkscan-tld-var-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("tlds.txt");
    std::fs::write(&list, "# Version test\nNEWTLD\nCOM\n").unwrap();
    let run = |args: &[&str], var: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_linkscan"))
            .args(args)
            .env("LINKSCAN_TLD_LIST", var)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let input = dir.join("in.txt");
    std::fs::write(&input, "a.newtld b.com c.org").unwrap();
    let input = input.to_str().unwrap();
    let out = run(&["find", "-o", input], &list);
    assert_eq!(stdout(&out), "a.newtld\nb.com\n");
    // --tld-policy syntactic ignores the variable; --tld-list wins over it.
    let out = run(&["find", "-o", "--tld-policy", "syntactic", input], &list);
    assert_eq!(stdout(&out), "a.newtld\nb.com\nc.org\n");
    let missing = dir.join("missing.txt");
    let out = run(&["find", "-o", input], &missing);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("LINKSCAN_TLD_LIST="));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}
