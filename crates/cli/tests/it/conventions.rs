//! Conventions of command-line tools that users and scripts rely on: short and long help,
//! shell completions and a man page generated from the command line's definition,
//! `linkify --standalone` pages, a `--default-scheme` restricted to safe schemes, and error
//! messages in one style.

use crate::common;

use common::linkscan;

use std::path::PathBuf;
use std::process::Output;

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 errors")
}

/// A fresh folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("conv", name)
}

#[test]
fn short_help_is_short_and_long_help_has_examples() {
    for command in [&[][..], &["find"], &["linkify"], &["completions"], &["man"]] {
        let short = linkscan(&[command, &["-h"]].concat(), b"");
        let long = linkscan(&[command, &["--help"]].concat(), b"");
        assert!(short.status.success() && long.status.success());
        let (short, long) = (stdout(&short), stdout(&long));
        assert!(!short.contains("Examples:"), "-h of {command:?}:\n{short}");
        assert!(long.contains("Examples:"), "--help of {command:?}:\n{long}");
        assert!(short.len() < long.len());
    }
}

#[test]
fn linkify_help_says_the_default_is_a_fragment() {
    let help = stdout(&linkscan(&["linkify", "--help"], b""));
    assert!(help.contains("HTML fragment, for embedding"), "{help}");
    assert!(help.contains("--standalone"), "{help}");
}

#[test]
fn completions_for_each_shell_know_the_subcommands_and_flags() {
    let expected = [
        ("bash", "_linkscan()"),
        ("zsh", "#compdef linkscan"),
        ("fish", "complete -c linkscan"),
        ("elvish", "edit:completion:arg-completer[linkscan]"),
        ("powershell", "Register-ArgumentCompleter"),
    ];
    for (shell, marker) in expected {
        let out = linkscan(&["completions", shell], b"");
        assert!(out.status.success(), "{shell}: {out:?}");
        let script = stdout(&out);
        assert!(script.contains(marker), "{shell} script lacks {marker:?}");
        for word in ["linkify", "conformance", "standalone", "default-scheme"] {
            assert!(script.contains(word), "{shell} script lacks {word:?}");
        }
    }
    let out = linkscan(&["completions", "tcsh"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid value 'tcsh'"), "{out:?}");
}

#[test]
fn completions_run_in_bash() {
    // The bash script is loaded by bash itself and completes a subcommand's flag.
    let Some(bash) = ["/bin/bash", "/usr/bin/bash"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
    else {
        panic!("this test needs bash");
    };
    let dir = temp_dir("bash");
    let script = dir.join("linkscan.bash");
    std::fs::write(&script, linkscan(&["completions", "bash"], b"").stdout).unwrap();
    let probe = format!(
        "source {}; COMP_WORDS=(linkscan linkify --stand); COMP_CWORD=2; \
         COMP_LINE='linkscan linkify --stand'; COMP_POINT=${{#COMP_LINE}}; \
         _linkscan linkscan --stand linkify; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let out = std::process::Command::new(bash)
        .args(["--norc", "-c", &probe])
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out).trim(), "--standalone", "{out:?}");
}

#[test]
fn man_page_covers_every_subcommand() {
    let out = linkscan(&["man"], b"");
    assert!(out.status.success(), "{out:?}");
    let page = stdout(&out);
    assert!(page.contains(".TH linkscan 1"), "{page}");
    for sub in [
        "find",
        "linkify",
        "escape",
        "display",
        "conformance",
        "completions",
        "man",
    ] {
        assert!(
            page.contains(&format!("linkscan\\-{sub}(1)")),
            "no {sub} in\n{page}"
        );
    }

    let dir = temp_dir("man");
    let out = linkscan(&["man", "--out-dir", dir.to_str().unwrap()], b"");
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty());
    let find = std::fs::read_to_string(dir.join("linkscan-find.1")).expect("linkscan-find.1");
    assert!(find.contains(".TH linkscan-find 1"), "{find}");
    assert!(find.contains("\\-\\-tld\\-policy"), "{find}");
    let linkify = std::fs::read_to_string(dir.join("linkscan-linkify.1")).unwrap();
    assert!(linkify.contains("\\-\\-standalone"), "{linkify}");
    assert!(dir.join("linkscan.1").is_file());
}

#[test]
fn errors_have_no_os_error_codes() {
    let dir = temp_dir("errors");
    let missing = dir.join("missing");
    let out = linkscan(&["man", "--out-dir", missing.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("linkscan: ") && err.contains("missing"),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
    let out = linkscan(&["find", "--json", missing.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains("os error"), "{out:?}");
}

#[test]
fn default_scheme_is_http_or_https() {
    for bad in [
        "ftp",
        "ftp://",
        "javascript:",
        "http",
        "https:",
        "data:text/html,",
    ] {
        let out = linkscan(&["linkify", "--default-scheme", bad], b"example.com");
        assert_eq!(out.status.code(), Some(2), "{bad}: {out:?}");
        assert!(out.stdout.is_empty());
        let err = stderr(&out);
        assert!(
            err.contains("must be one of https://, http://"),
            "{bad}: {err}"
        );
    }
    for (good, href) in [("http://", "http://"), ("HTTPS://", "https://")] {
        let out = linkscan(&["linkify", "--default-scheme", good], b"example.com");
        assert!(out.status.success(), "{good}: {out:?}");
        let html = stdout(&out);
        assert!(
            html.contains(&format!("href=\"{href}example.com\"")),
            "{good}: {html}"
        );
    }
}

#[test]
fn linkify_default_is_a_bare_fragment() {
    let out = linkscan(&["linkify"], b"a example.com\nb");
    assert!(out.status.success());
    let html = stdout(&out);
    assert!(html.starts_with("a <bdi"), "{html}");
    assert!(!html.contains("<html") && !html.contains("<pre"), "{html}");
}

#[test]
fn linkify_standalone_is_a_complete_page() {
    let dir = temp_dir("standalone");
    let first = dir.join("first.txt");
    let second = dir.join("second.txt");
    std::fs::write(&first, "see example.com\n\n    indented & <kept>\n").unwrap();
    std::fs::write(&second, "مرحبا example.org\n").unwrap();
    let missing = dir.join("missing.txt");
    let out = linkscan(
        &[
            "linkify",
            "--standalone",
            first.to_str().unwrap(),
            missing.to_str().unwrap(),
            second.to_str().unwrap(),
        ],
        b"",
    );
    // The missing file is reported and the others still make the page.
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("missing.txt"));
    let page = stdout(&out);
    assert!(
        page.starts_with("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"),
        "{page}"
    );
    assert!(page.ends_with("</body>\n</html>\n"), "{page}");
    assert!(page.contains("white-space: pre-wrap"), "{page}");
    // The title names the files, not the folders they are in.
    assert!(
        page.contains("<title>first.txt, missing.txt, second.txt</title>"),
        "{page}"
    );
    assert!(!page.contains(dir.to_str().unwrap()), "{page}");
    // One block per input that was read, each with its text and links, in order.
    let blocks: Vec<&str> = page
        .split("<pre class=\"text\" dir=\"auto\">")
        .skip(1)
        .map(|rest| &rest[..rest.find("</pre>").expect("closed block")])
        .collect();
    assert_eq!(blocks.len(), 2, "{page}");
    assert_eq!(
        blocks[0],
        "see <bdi dir=\"ltr\"><a href=\"https://example.com\">example.com</a></bdi>\n\n    \
         indented &amp; &lt;kept&gt;\n"
    );
    assert!(blocks[1].starts_with("مرحبا <bdi dir=\"ltr\"><a href=\"https://example.org\">"));

    // Standard input, and the same text as the fragment inside the block.
    let out = linkscan(&["linkify", "--standalone"], b"x example.com");
    assert!(out.status.success());
    let page = stdout(&out);
    let fragment = stdout(&linkscan(&["linkify"], b"x example.com"));
    assert!(page.contains("<title>linkscan</title>"), "{page}");
    assert!(
        page.contains(&format!("dir=\"auto\">{fragment}</pre>")),
        "{page}"
    );
}

#[test]
fn standalone_is_refused_for_archives() {
    let out = linkscan(&["linkify", "--standalone", "--mbox", "-"], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("--standalone"), "{out:?}");
}

/// An mbox of five messages: a thread over two months (root, reply, late reply), another
/// message inside it, and one without a date.
const THREADED_MBOX: &str = "\
From a@example.com Mon Jan  1 00:00:00 2024
From: A <a@example.com>
Date: Mon, 1 Jan 2024 10:00:00 +0000
Subject: Root
Message-ID: <root@example.com>

see example.com

From b@example.com Mon Jan  1 00:00:00 2024
From: B <b@example.com>
Date: Tue, 2 Jan 2024 10:00:00 +0000
Subject: Other
Message-ID: <other@example.com>

hi

From c@example.com Mon Jan  1 00:00:00 2024
From: C <c@example.com>
Date: Wed, 3 Jan 2024 10:00:00 +0000
Subject: Re: Root
Message-ID: <reply@example.com>
In-Reply-To: <root@example.com>

ok

From d@example.com Mon Jan  1 00:00:00 2024
From: D <d@example.com>
Date: Thu, 1 Feb 2024 10:00:00 +0000
Subject: Re: Root
Message-ID: <late@example.com>
References: <root@example.com> <reply@example.com>

late

From e@example.com Mon Jan  1 00:00:00 2024
From: E <e@example.com>
Subject: no date

x
";

#[test]
fn archive_index_is_grouped_by_month_and_thread() {
    let dir = temp_dir("archive-index");
    let mbox = dir.join("list.mbox");
    std::fs::write(&mbox, THREADED_MBOX).unwrap();
    let web = dir.join("web");
    let out = linkscan(
        &[
            "linkify",
            "--mbox",
            mbox.to_str().unwrap(),
            "--out",
            web.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    let index = std::fs::read_to_string(web.join("index.html")).unwrap();

    // The archive by file name with proper plurals; never the folder it was read from.
    assert!(
        index.contains(
            "<li>list.mbox: 5 messages, 1 link (URLs and email addresses), 0 warnings</li>"
        ),
        "{index}"
    );
    assert!(!index.contains(dir.to_str().unwrap()), "{index}");

    // Months in order, undated last, each on its own row with its counts.
    let rows: Vec<&str> = index
        .match_indices("<tr><td><a href=")
        .map(|(at, _)| &index[at..at + index[at..].find("</tr>").unwrap()])
        .collect();
    assert_eq!(
        rows,
        [
            "<tr><td><a href=\"2024-01.html\">2024-01</a></td><td class=\"n\">3</td><td class=\"n\">2</td>",
            "<tr><td><a href=\"2024-02.html\">2024-02</a></td><td class=\"n\">1</td><td class=\"n\">1</td>",
            "<tr><td><a href=\"undated.html\">Undated</a></td><td class=\"n\">1</td><td class=\"n\">1</td>",
        ]
    );
    assert!(
        index.contains("5 messages in 3 threads; their texts cite 1 URL and 0 email addresses"),
        "{index}"
    );

    // In January: the thread of message 1 (its reply 3 in a list inside its item), then
    // message 2; the structure is in the markup, not only in the style.
    let january = std::fs::read_to_string(web.join("2024-01.html")).unwrap();
    let order: Vec<&str> = january
        .match_indices("<li><a ")
        .map(|(at, _)| {
            let href = at + january[at..].find("href=\"").unwrap() + 6;
            &january[href..href + 5]
        })
        .collect();
    assert_eq!(order, ["00001", "00003", "00002"]);
    // The reply's subject is its parent's: the link is its author's name and its date.
    assert!(
        january.contains(
            "<a class=\"count\" href=\"t00001.html\">thread of 3 messages</a>\n\
             <ul class=\"thread\"><li><a class=\"same\" href=\"00003.html\">\
             <span class=\"from\" dir=\"ltr\"><bdi>"
        ),
        "{january}"
    );
    assert!(!january.contains("Re: Root"), "{january}");
    assert!(january.contains("3 messages in 2 threads"), "{january}");
    // One date format everywhere: the sender's, and UTC.
    assert!(
        january.contains("<span class=\"date\">2024-01-03 10:00 UTC</span>"),
        "{january}"
    );
    // February's message is a reply to January's: at the top of its month, in its thread.
    let february = std::fs::read_to_string(web.join("2024-02.html")).unwrap();
    assert!(
        february.contains("<ul class=\"threads\">\n<li><a href=\"00004.html\">"),
        "{february}"
    );
    // The thread page: each reply one level deeper than the message it answers, each
    // entry a link to the message's text below.
    let thread = std::fs::read_to_string(web.join("t00001.html")).unwrap();
    let nesting: Vec<(usize, &str)> = thread
        .match_indices("<li><a ")
        .map(|(at, _)| {
            let before = &thread[..at];
            let depth = before.matches("<ul").count() - before.matches("</ul>").count();
            let href = at + thread[at..].find("href=\"").unwrap() + 6;
            (
                depth,
                &thread[href..href + thread[href..].find('"').unwrap()],
            )
        })
        .collect();
    assert_eq!(nesting, [(1, "#m1"), (2, "#m3"), (3, "#m4")]);
    for n in [1, 3, 4] {
        assert!(
            thread.contains(&format!(
                "<a class=\"own\" href=\"0000{n}.html\">message {n}</a>"
            )),
            "{thread}"
        );
    }
    assert!(web.join("undated.html").exists());
}

#[test]
fn archive_pages_link_previous_and_next() {
    let dir = temp_dir("archive-pages");
    let mbox = dir.join("list.mbox");
    std::fs::write(&mbox, THREADED_MBOX).unwrap();
    let web = dir.join("web");
    let out = linkscan(
        &[
            "linkify",
            "--mbox",
            mbox.to_str().unwrap(),
            "--out",
            web.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    let nav = |n: usize| {
        let page = std::fs::read_to_string(web.join(format!("{n:05}.html"))).unwrap();
        assert!(
            !page.contains(dir.to_str().unwrap()),
            "a local path in page {n}"
        );
        assert!(
            page.contains(&format!("<td dir=\"auto\">list.mbox, message {n}</td>")),
            "{page}"
        );
        let start = page.find("<nav class=\"archive\">").unwrap();
        page[start..start + page[start..].find("</nav>").unwrap()].to_string()
    };
    assert_eq!(
        nav(1),
        "<nav class=\"archive\"><span class=\"none\">Previous</span>\
         <a rel=\"next\" href=\"00002.html\">Next</a><a href=\"t00001.html#m1\">Thread</a>\
         <a href=\"2024-01.html\">Month</a><a href=\"index.html\">Index</a>"
    );
    assert_eq!(
        nav(3),
        "<nav class=\"archive\"><a rel=\"prev\" href=\"00002.html\">Previous</a>\
         <a rel=\"next\" href=\"00004.html\">Next</a><a href=\"t00001.html#m3\">Thread</a>\
         <a href=\"2024-01.html\">Month</a><a href=\"index.html\">Index</a>"
    );
    assert_eq!(
        nav(5),
        "<nav class=\"archive\"><a rel=\"prev\" href=\"00004.html\">Previous</a>\
         <span class=\"none\">Next</span><a href=\"t00005.html#m5\">Thread</a>\
         <a href=\"undated.html\">Month</a><a href=\"index.html\">Index</a>"
    );
    // The thread links: the message answered, the replies, previous and next in the
    // thread (its order: 1, 3, 4).
    let page = |n: usize| std::fs::read_to_string(web.join(format!("{n:05}.html"))).unwrap();
    let three = page(3);
    assert!(
        three.contains("<tr><th>In reply to</th><td><a href=\"00001.html\">"),
        "{three}"
    );
    assert!(
        three.contains("<tr><th>Replies</th><td><ul><li><a href=\"00004.html\">"),
        "{three}"
    );
    assert!(
        three.contains(
            "<a href=\"00001.html\">Previous in thread</a><a href=\"00004.html\">Next in thread</a>\
             <span>message 2 of 3</span>"
        ),
        "{three}"
    );
    assert!(!page(1).contains("In reply to"));
    // The date as written and in UTC; To and Cc when the message has them.
    assert!(
        three.contains("<tr><th>Date</th><td class=\"date\">2024-01-03 10:00 UTC</td></tr>"),
        "{three}"
    );
    assert!(!web.join("00006.html").exists());
}

#[test]
fn scanned_messages_carry_their_thread_headers() {
    let raw = b"Message-ID: <c@x>\nIn-Reply-To: <b@x> <a@x>\nReferences: <a@x>\n <b@x>\n\nhi\n";
    let m = linkscan_mail::MailScanner::new().scan(raw);
    assert_eq!(m.message_id(), Some("c@x"));
    assert_eq!(m.in_reply_to(), Some("b@x"));
    assert_eq!(m.references(), ["a@x", "b@x"]);
    let m = linkscan_mail::MailScanner::new().scan(b"Subject: alone\n\nhi\n");
    assert_eq!((m.in_reply_to(), m.references().len()), (None, 0));
}

/// Every public type can be shown with `{:?}` (the crate also denies a missing `Debug`
/// through `missing_debug_implementations`); iterators show their state, not the text.
#[test]
fn public_iterators_and_readers_implement_debug() {
    let finder = linkscan::LinkFinder::new();
    let text = "see example.com and more text";
    let links = finder.links_bytes(text.as_bytes());
    let shown = format!("{links:?}");
    assert!(
        shown.starts_with("Links {") && shown.contains("urls: true"),
        "{shown}"
    );
    assert!(!shown.contains("example"), "{shown}");
    let mut matches = finder.links(text);
    let shown = format!("{matches:?}");
    assert!(
        shown.starts_with("Matches {") && shown.contains("urls: true"),
        "{shown}"
    );
    assert!(!shown.contains("example"), "{shown}");
    // A match shows its link and the link's text, not the whole text.
    let shown = format!("{:?}", matches.next().unwrap());
    assert_eq!(
        shown,
        r#"Match { start: 4, end: 15, kind: Url, has_scheme: false, text: "example.com" }"#
    );
    let checked = linkscan::checks::checked_links(&finder, text.as_bytes());
    let shown = format!("{checked:?}");
    assert!(shown.contains("text_len: 29"), "{shown}");
    #[cfg(feature = "mail")]
    {
        let mut reader = linkscan_mail::MboxReader::new(&b"From a\nSubject: x\n\nbody\n"[..]);
        assert!(reader.next().is_some());
        let shown = format!("{reader:?}");
        assert!(
            shown.starts_with("MboxReader {") && shown.contains("count: 1"),
            "{shown}"
        );
    }
}

/// `conformance -v` on the 17.0.0 files: no failures, and the known errata of the
/// formatting file listed under their own heading, not in the layout of failures.
#[test]
fn conformance_verbose_lists_errata_apart_from_failures() {
    let dir = common::unicode("17.0.0");
    let out = linkscan(&["conformance", "-v", dir.to_str().unwrap()], b"");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("failures:"), "{text}");
    assert!(
        !text.contains("\nline "),
        "an erratum shown as a failure:\n{text}"
    );
    let heading = "formatter, known errata of the 17.0.0 file (the file's expectation is wrong; \
                   not failures):";
    let at = text.find(heading).unwrap_or_else(|| panic!("{text}"));
    let errata = &text[at..];
    let errata = &errata[..errata.find("\n  oracle").unwrap_or(errata.len())];
    assert_eq!(errata.matches("erratum, line ").count(), 10, "{errata}");
    assert!(errata.contains("\n  file expects:  "), "{errata}");
    assert!(errata.contains("\n  UTS #58 gives: "), "{errata}");

    // A real failure gets the failures heading and the failure layout.
    let broken = temp_dir("conformance");
    std::fs::write(
        broken.join("LinkDetectionTest.txt"),
        "# comment\n⸠wrong.zz⸡\n",
    )
    .unwrap();
    std::fs::write(broken.join("LinkFormattingTest.txt"), "").unwrap();
    let out = linkscan(&["conformance", "-v", broken.to_str().unwrap()], b"");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("  finder failures:\nline 2:\n  input:    wrong.zz\n"),
        "{text}"
    );
    assert!(!text.contains("errata"), "{text}");
}

/// A message's warnings, typed in the library, reach its archive page in words (they were
/// once taken away before the page was written).
#[test]
fn archive_pages_show_the_message_warnings() {
    let dir = temp_dir("archive-warnings");
    let mbox = dir.join("w.mbox");
    std::fs::write(
        &mbox,
        "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: odd\n\
         Content-Type: text/plain; charset=x-klingon\n\nsee example.com\n",
    )
    .unwrap();
    let web = dir.join("web");
    let out = linkscan(
        &[
            "linkify",
            "--mbox",
            mbox.to_str().unwrap(),
            "--out",
            web.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    let text = "part 1: unknown charset &quot;x-klingon&quot;; read as UTF-8";
    assert!(
        stderr(&out).contains("part 1: unknown charset \"x-klingon\""),
        "{out:?}"
    );
    let page = std::fs::read_to_string(web.join("00001.html")).unwrap();
    assert!(
        page.contains(&format!(
            "<ul class=\"warnings\">\n<li dir=\"auto\">{text}</li>"
        )),
        "{page}"
    );
}

// --- grep's conventions for `find` -------------------------------------------------------

#[test]
fn find_exit_status_is_one_when_nothing_is_found() {
    let out = linkscan(&["find"], b"hello, no links here\n");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let out = linkscan(&["find", "--count"], b"hello\n");
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(1), "0\n"));
    let out = linkscan(&["find"], b"see example.com\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // An unreadable input (2) wins over nothing found (1), and over links found elsewhere.
    let dir = temp_dir("exit");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "no links\n").unwrap();
    let missing = dir.join("missing.txt");
    let links = dir.join("links.txt");
    std::fs::write(&links, "example.org\n").unwrap();
    for file in [&empty, &links] {
        let out = linkscan(
            &[
                "find",
                "--json",
                file.to_str().unwrap(),
                missing.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{out:?}");
    }
}

#[test]
fn find_quiet_prints_nothing_and_stops_at_the_first_link() {
    let out = linkscan(&["find", "-q"], b"see example.com and x@example.org\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let out = linkscan(&["find", "--quiet", "--count"], b"nothing\n");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    // As grep -q: a link found exits 0 even though an input could not be read.
    let dir = temp_dir("quiet");
    let links = dir.join("links.txt");
    std::fs::write(&links, "example.com\n").unwrap();
    let out = linkscan(
        &[
            "find",
            "-q",
            dir.join("missing").to_str().unwrap(),
            links.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // It stops at the first link: the standard input after it is not read to the end.
    // 64 MiB of input would take a while to scan; the pipe closes early instead.
    let mut big = b"example.com\n".to_vec();
    big.resize(64 << 20, b'a');
    let out = linkscan(&["find", "-q"], &big);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn find_only_matching_prints_link_texts() {
    let out = linkscan(
        &["find", "-o"],
        b"See example.com/a\tand <x@example.org>; (https://en.wikipedia.org/wiki/A_(b)).\n",
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stdout(&out),
        "example.com/a\nx@example.org\nhttps://en.wikipedia.org/wiki/A_(b)\n"
    );
    let out = linkscan(
        &["find", "-o", "--kind", "email"],
        b"example.com x@example.org\n",
    );
    assert_eq!(stdout(&out), "x@example.org\n");
    let out = linkscan(&["find", "-o", "--count"], b"x");
    assert_eq!(out.status.code(), Some(2), "-o with --count: {out:?}");
}

#[test]
fn archive_only_flags_are_errors_on_plain_input() {
    for flags in [
        &["--all-text"][..],
        &["--no-progress"],
        &["--max-message-size", "1M"],
    ] {
        let out = linkscan(&[&["find"][..], flags].concat(), b"example.com\n");
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {out:?}");
        assert!(out.stdout.is_empty());
        assert!(
            stderr(&out).contains(&format!("{} is for --mbox or --maildir inputs", flags[0])),
            "{out:?}"
        );
        let out = linkscan(&[&["linkify"][..], flags].concat(), b"example.com\n");
        assert_eq!(out.status.code(), Some(2), "linkify {flags:?}: {out:?}");
    }
}

#[test]
fn find_mbox_follows_grep_conventions() {
    let mbox = "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: hi\n\nsee example.com\n\n\
                From b@example.com Mon Jan  1 00:00:00 2024\nSubject: x\n\nno links\n";
    let out = linkscan(&["find", "--mbox", "-o", "-"], mbox.as_bytes());
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out), "example.com\n");
    // -q: nothing on stdout, no summary on stderr.
    let out = linkscan(&["find", "--mbox", "-q", "-"], mbox.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let none = "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: hi\n\nnothing\n";
    let out = linkscan(&["find", "--mbox", "-q", "-"], none.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    // Without -q the summary stays, unless --no-progress.
    let out = linkscan(&["find", "--json", "--mbox", "-"], none.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr(&out).contains(": 1 message, 2 parts scanned, 0 links, 0 warnings"),
        "{out:?}"
    );
    let out = linkscan(
        &["find", "--json", "--mbox", "--no-progress", "-"],
        none.as_bytes(),
    );
    assert!(out.stderr.is_empty(), "{out:?}");
}

/// A Maildir message that cannot be read is reported and counted as a read error (exit 2),
/// and is not scanned: no "the message is empty" after its read error.
#[test]
fn maildir_read_error_is_not_scanned_as_an_empty_message() {
    let dir = temp_dir("maildir");
    let maildir = dir.join("Mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    std::fs::write(
        maildir.join("cur").join("1.eml"),
        "Subject: a\n\nsee example.com\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.join("gone"), maildir.join("cur").join("2.eml")).unwrap();
    let out = linkscan(&["find", "--maildir", "-o", maildir.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(stdout(&out), "example.com\n");
    let err = stderr(&out);
    assert!(
        err.contains("2.eml") && err.contains("could not be read"),
        "{err}"
    );
    assert!(!err.contains("the message is empty"), "{err}");
    assert!(!err.contains("os error"), "{err}");
}

#[test]
fn find_line_numbers_and_columns_for_people() {
    let text = "a example.com\nαβ x@example.org\n\n  https://e.org/x y.com\n";
    let out = linkscan(&["find", "--json", "-n", "--column"], text.as_bytes());
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let at: Vec<(u64, u64, &str)> = lines
        .iter()
        .map(|l| {
            (
                l["line"].as_u64().unwrap(),
                l["column"].as_u64().unwrap(),
                l["text"].as_str().unwrap(),
            )
        })
        .collect();
    // Columns count characters: "αβ " is three, so the address starts at column 4.
    assert_eq!(
        at,
        [
            (1, 3, "example.com"),
            (2, 4, "x@example.org"),
            (4, 3, "https://e.org/x"),
            (4, 19, "y.com")
        ]
    );
    // The byte offsets are still there, for programs.
    assert_eq!(lines[1]["start"], 19);

    let out = linkscan(&["find", "--format", "tsv", "-n"], text.as_bytes());
    assert_eq!(
        stdout(&out).lines().nth(1),
        Some("-\t19\t32\t2\temail\tx@example.org")
    );
    let out = linkscan(&["find", "-o", "-n", "--column"], text.as_bytes());
    assert_eq!(
        stdout(&out),
        "1:3:example.com\n2:4:x@example.org\n4:3:https://e.org/x\n4:19:y.com\n"
    );
    let out = linkscan(&["find", "--format", "marked", "-n"], text.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

/// Line numbers run on across the pieces and windows an input is scanned in.
#[test]
fn find_line_numbers_count_across_a_large_input() {
    let mut text = String::new();
    for line in 1..=200_000 {
        if line % 50_000 == 0 {
            text.push_str(&format!("line {line} example{line}.com\n"));
        } else {
            text.push_str("ordinary words without a link, to fill some room αβγ\n");
        }
    }
    assert!(text.len() > 9 << 20, "more than one window");
    let dir = temp_dir("lines");
    let file = dir.join("big.txt");
    std::fs::write(&file, &text).unwrap();
    for source in [Some(file.to_str().unwrap()), None] {
        let args: Vec<&str> = ["find", "-o", "-n", "--column"]
            .into_iter()
            .chain(source)
            .collect();
        let out = linkscan(
            &args,
            if source.is_some() {
                b""
            } else {
                text.as_bytes()
            },
        );
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            stdout(&out),
            "50000:12:example50000.com\n100000:13:example100000.com\n\
             150000:13:example150000.com\n200000:13:example200000.com\n"
        );
    }
}

#[test]
fn find_only_matching_names_files_when_there_are_several() {
    let dir = temp_dir("only-several");
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    std::fs::write(&a, "see example.com\n").unwrap();
    std::fs::write(&b, "\nmail x@example.org\n").unwrap();
    let out = linkscan(
        &["find", "-o", "-n", a.to_str().unwrap(), b.to_str().unwrap()],
        b"",
    );
    assert_eq!(
        stdout(&out),
        format!(
            "{}:1:example.com\n{}:2:x@example.org\n",
            a.display(),
            b.display()
        )
    );
}

// --- Directories, walked as ripgrep walks them --------------------------------------------

/// A git repository with a .gitignore, a hidden folder, a binary file, and files of two
/// types.
fn tree(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    // .gitignore applies inside a git repository (as in ripgrep).
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .arg(&dir)
        .output()
        .expect("git runs");
    assert!(init.status.success(), "{init:?}");
    for sub in ["sub", ".hidden", "ignored"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(dir.join(".gitignore"), "ignored/\n*.log\n").unwrap();
    std::fs::write(dir.join("sub/a.txt"), "see a.example.com\n").unwrap();
    std::fs::write(dir.join("sub/b.md"), "and b.example.com\n").unwrap();
    std::fs::write(dir.join("top.log"), "log.example.com\n").unwrap();
    std::fs::write(dir.join(".hidden/h.txt"), "h.example.com\n").unwrap();
    std::fs::write(dir.join("ignored/i.txt"), "i.example.com\n").unwrap();
    std::fs::write(dir.join("sub/bin.dat"), b"\x00\x01 bin.example.com\n").unwrap();
    dir
}

/// Runs `linkscan find -o ARGS .` in `dir`; the links found, sorted, and the output.
fn find_in(dir: &std::path::Path, args: &[&str]) -> (Vec<String>, Output) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .current_dir(dir)
        .args(["find", "-o"])
        .args(args)
        .arg(".")
        .output()
        .expect("linkscan runs");
    let mut links: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    links.sort();
    (links, out)
}

#[test]
fn directories_are_walked_respecting_gitignore_hidden_and_binary() {
    let dir = tree("walk");
    let (links, out) = find_in(&dir, &[]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        links,
        ["./sub/a.txt:a.example.com", "./sub/b.md:b.example.com"],
        "{out:?}"
    );
    // The binary file is skipped quietly, as ripgrep skips it (--binary scans it).
    assert_eq!(stderr(&out), "", "{out:?}");
    let (links, _) = find_in(&dir, &["--binary"]);
    assert!(
        links.contains(&"./sub/bin.dat:bin.example.com".to_string()),
        "{links:?}"
    );
    // --hidden adds the hidden folder; --no-ignore the ignored files.
    let (links, _) = find_in(&dir, &["--hidden"]);
    assert!(
        links.contains(&"./.hidden/h.txt:h.example.com".to_string()),
        "{links:?}"
    );
    assert!(
        !links.iter().any(|l| l.contains("i.example.com")),
        "{links:?}"
    );
    let (links, _) = find_in(&dir, &["--no-ignore"]);
    assert!(
        links.contains(&"./ignored/i.txt:i.example.com".to_string()),
        "{links:?}"
    );
    assert!(
        links.contains(&"./top.log:log.example.com".to_string()),
        "{links:?}"
    );
    assert!(
        !links.iter().any(|l| l.contains("h.example.com")),
        "{links:?}"
    );
}

#[test]
fn globs_and_types_choose_files_in_directories() {
    let dir = tree("walk-globs");
    let (links, out) = find_in(&dir, &["-g", "*.md"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(links, ["./sub/b.md:b.example.com"]);
    let (links, _) = find_in(&dir, &["-g", "!*.md"]);
    assert_eq!(links, ["./sub/a.txt:a.example.com"]);
    let (links, _) = find_in(&dir, &["-t", "markdown"]);
    assert_eq!(links, ["./sub/b.md:b.example.com"]);
    let (_, out) = find_in(&dir, &["-t", "no-such-type"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    // Without a directory among the inputs, they are errors, not ignored.
    let out = linkscan(&["find", "--json", "--hidden", "-"], b"example.com");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("for directories"), "{out:?}");
    // A directory with nothing to read: no link found, and standard input is not read.
    let empty = dir.join("sub-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = linkscan(
        &["find", "--json", empty.to_str().unwrap()],
        b"stdin.example.com",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
}

/// The TLD list's read error keeps its cause (the library's `source()`), printed in the
/// style of the other read errors.
#[test]
fn tld_list_read_errors_say_why() {
    let out = linkscan(
        &["find", "--json", "--tld-list", "/no/such/tlds.txt"],
        b"x.com",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        stderr(&out),
        "linkscan: cannot read TLD list /no/such/tlds.txt: No such file or directory\n"
    );
}

/// `Link` and `LinkKind` through serde (the `serde` feature, on for the tests).
#[test]
fn links_serialize_and_deserialize() {
    let text = "mail x@example.org or see https://example.com/a";
    let links: Vec<linkscan::Link> = linkscan::LinkFinder::new()
        .links(text)
        .map(linkscan::Link::from)
        .collect();
    let json = serde_json::to_string(&links).unwrap();
    assert_eq!(
        json,
        r#"[{"start":5,"end":18,"kind":"email","has_scheme":false},{"start":26,"end":47,"kind":"url","has_scheme":true}]"#
    );
    let back: Vec<linkscan::Link> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, links);
    assert_eq!(
        serde_json::from_str::<linkscan::LinkKind>("\"email\"").unwrap(),
        linkscan::LinkKind::Email
    );
    let err = serde_json::from_str::<linkscan::Link>(
        r#"{"start":9,"end":2,"kind":"url","has_scheme":false}"#,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("start (9) is after its end (2)"),
        "{err}"
    );
}

/// `spans()` cuts every text into non-empty pieces that concatenate to it, links where
/// `links()` finds them and never two text pieces in a row; its links are those of `links()`.
#[test]
fn spans_cover_the_text_and_agree_with_links() {
    let finder = linkscan::LinkFinder::new();
    let texts = [
        "",
        "no links at all",
        "example.com",
        "example.com x@example.org",
        "(https://en.wikipedia.org/wiki/A_(b)). Voir σωκράτης@example.om!",
        "a.com,b.com;c.com\nd.com",
        "日本語のテキスト https://例え.jp/パス。終わり",
    ];
    for text in texts {
        let spans: Vec<linkscan::Span> = finder.spans(text).collect();
        let joined: String = spans.iter().map(|s| s.as_str()).collect();
        assert_eq!(joined, text);
        let mut at = 0;
        for (i, span) in spans.iter().enumerate() {
            assert!(!span.as_str().is_empty(), "{text:?}");
            assert_eq!(span.start(), at, "{text:?}");
            assert_eq!(&text[span.range()], span.as_str());
            at = span.end();
            if i > 0 {
                assert!(span.is_link() || spans[i - 1].is_link(), "{text:?}");
            }
        }
        let from_spans: Vec<linkscan::Link> = spans.iter().filter_map(|s| s.link()).collect();
        let links: Vec<linkscan::Link> = finder.links(text).map(linkscan::Link::from).collect();
        assert_eq!(from_spans, links, "{text:?}");
        let bound: Vec<&str> = finder.links(text).map(|m| m.as_str()).collect();
        let texts: Vec<&str> = links.iter().map(|l| l.as_str(text)).collect();
        assert_eq!(bound, texts, "{text:?}");
        let link_spans: Vec<&str> = spans
            .iter()
            .filter(|s| s.is_link())
            .map(|s| s.as_str())
            .collect();
        assert_eq!(link_spans, texts, "{text:?}");
    }
}

/// The lines of the `[name]` table of a TOML file (up to the next table), trimmed, without
/// comments or blank lines.
fn toml_table<'a>(toml: &'a str, name: &str) -> Vec<&'a str> {
    let header = format!("[{name}]");
    toml.lines()
        .map(str::trim)
        .skip_while(|line| *line != header)
        .skip(1)
        .take_while(|line| !line.starts_with('['))
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

#[test]
fn release_binary_is_stripped_and_profiling_keeps_symbols() {
    let manifest = std::fs::read_to_string(common::root().join("Cargo.toml")).expect("Cargo.toml");
    let release = toml_table(&manifest, "profile.release");
    assert!(release.contains(&"strip = true"), "{release:?}");
    assert!(
        !release.iter().any(|line| line.starts_with("debug")),
        "{release:?}"
    );
    let profiling = toml_table(&manifest, "profile.profiling");
    for line in ["inherits = \"release\"", "debug = 1", "strip = \"none\""] {
        assert!(profiling.contains(&line), "{line} not in {profiling:?}");
    }
    let bench = toml_table(&manifest, "profile.bench");
    for line in ["debug = 1", "strip = \"none\""] {
        assert!(bench.contains(&line), "{line} not in {bench:?}");
    }
    let pipeline = std::fs::read_to_string(common::root().join("benches/pipeline.sh"))
        .expect("benches/pipeline.sh");
    assert!(pipeline.contains("--profile profiling"), "pipeline.sh");
    assert!(!pipeline.contains("target/release"), "pipeline.sh");
}

#[test]
fn licences_and_package_metadata_are_real() {
    let root = common::root();
    let mit = std::fs::read_to_string(root.join("LICENSE-MIT")).expect("LICENSE-MIT");
    assert!(mit.contains("Copyright (c) The linkscan authors"), "{mit}");
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    let apache = std::fs::read_to_string(root.join("LICENSE-APACHE")).expect("LICENSE-APACHE");
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0, January 2004"));
    assert!(apache.contains("END OF TERMS AND CONDITIONS"));
    for package in ["", "crates/mail/", "crates/cli/", "crates/python/"] {
        let path = root.join(format!("{package}Cargo.toml"));
        let manifest = std::fs::read_to_string(&path).expect("Cargo.toml");
        let package = toml_table(&manifest, "package");
        assert!(
            package.contains(&"license = \"MIT OR Apache-2.0\""),
            "{path:?}: {package:?}"
        );
        // A repository field only with a real address.
        for line in package.iter().filter(|l| l.starts_with("repository")) {
            assert!(line.contains("https://") && !line.contains('<'), "{line}");
        }
    }
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    // Features that are not for users start with `__` (the convention docs.rs hides).
    let features = toml_table(&manifest, "features");
    assert!(
        features.iter().any(|l| l.starts_with("__internals = ")),
        "{features:?}"
    );
    assert!(
        !features.iter().any(|l| l.starts_with("internals")),
        "{features:?}"
    );
}
