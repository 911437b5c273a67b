//! The `linkscan` command line, run as a user would.

use crate::common;

use common::linkscan;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("linkscan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

const SAMPLE: &str = "See example.com/αβγ and x.abcd@example.com.\n(https://en.wikipedia.org/wiki/The_Lovemakers_(film)).\n";

#[test]
fn find_jsonl_from_stdin() {
    let out = linkscan(&["find", "--json"], SAMPLE.as_bytes());
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["file"], "-");
    assert_eq!(lines[0]["text"], "example.com/αβγ");
    assert_eq!(lines[0]["kind"], "url");
    assert_eq!(lines[1]["kind"], "email");
    for line in &lines {
        let (start, end) = (
            line["start"].as_u64().unwrap() as usize,
            line["end"].as_u64().unwrap() as usize,
        );
        assert_eq!(
            &SAMPLE[start..end],
            line["text"].as_str().unwrap(),
            "offsets are bytes"
        );
    }
}

#[test]
fn find_tsv_count_and_marked() {
    let path = temp_file("sample.txt", SAMPLE.as_bytes());
    let path = path.to_str().unwrap();
    let tsv = stdout(&linkscan(&["find", "--format", "tsv", path], b""));
    assert_eq!(
        tsv.lines().next(),
        Some(format!("{path}\t4\t22\turl\texample.com/αβγ").as_str())
    );
    assert_eq!(stdout(&linkscan(&["find", "--count", path], b"")), "3\n");
    assert_eq!(
        stdout(&linkscan(&["find", "-c", path, "-"], SAMPLE.as_bytes())),
        format!("{path}:3\n-:3\n")
    );
    assert_eq!(
        stdout(&linkscan(
            &["find", "--kind", "email", "--count", path],
            b""
        )),
        "1\n"
    );
    let marked = stdout(&linkscan(&["find", "--format", "marked", path], b""));
    assert_eq!(
        marked,
        "See ⸠example.com/αβγ⸡ and ⸠x.abcd@example.com⸡.\n(⸠https://en.wikipedia.org/wiki/The_Lovemakers_(film)⸡).\n"
    );
}

#[test]
fn marked_output_reproduces_the_official_test_file() {
    let text = common::read(common::unicode("17.0.0").join("LinkDetectionTest.txt"));
    let input = text.replace(['⸠', '⸡'], "");
    let out = linkscan(&["find", "--format", "marked"], input.as_bytes());
    assert!(out.status.success());
    let marked = stdout(&out);
    // Every test line comes back exactly as written (comment lines carry no marks).
    for case in linkscan::conformance::parse_detection_tests(&text) {
        assert!(
            marked.lines().any(|l| l == case.expected),
            "line {} not reproduced: {}",
            case.line,
            case.expected
        );
    }
}

#[test]
fn missing_file_is_reported_and_others_still_processed() {
    let path = temp_file("present.txt", b"visit example.org today");
    let out = linkscan(
        &[
            "find",
            "--count",
            "/nonexistent/linkscan-missing.txt",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/nonexistent/linkscan-missing.txt"),
        "{stderr}"
    );
    assert!(stdout(&out).ends_with(":1\n"), "{}", stdout(&out));
}

#[test]
fn invalid_utf8_is_scanned_not_rejected() {
    let out = linkscan(
        &["find", "--format", "tsv"],
        b"\xFF\xFEexample.com\xC3 and b\xE9b\xE9@example.org",
    );
    assert!(out.status.success());
    assert_eq!(stdout(&out), "-\t2\t13\turl\texample.com\n");
    let marked = linkscan(&["find", "--format", "marked"], b"\xFFa.com\xFF");
    assert_eq!(
        marked.stdout,
        [&b"\xFF"[..], "⸠a.com⸡".as_bytes(), b"\xFF"].concat()
    );
}

#[test]
fn tld_policy_options() {
    let text = b"a example.invalid b example.com c example.zz";
    let count = |args: &[&str]| stdout(&linkscan(args, text));
    assert_eq!(count(&["find", "-c"]), "1\n");
    assert_eq!(count(&["find", "-c", "--tld-policy", "syntactic"]), "3\n");
    let list = temp_file("tlds.txt", b"# mine\nZZ\ninvalid\n");
    assert_eq!(
        count(&["find", "-c", "--tld-list", list.to_str().unwrap()]),
        "2\n"
    );
    let bad = temp_file("bad-tlds.txt", b"good\nnot a tld\n");
    let out = linkscan(
        &["find", "--json", "--tld-list", bad.to_str().unwrap()],
        text,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
}

#[test]
fn linkify_writes_escaped_html() {
    let out = linkscan(&["linkify"], b"<b> example.com/?a=1&b=2 \xFF");
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "&lt;b&gt; <bdi dir=\"ltr\"><a href=\"https://example.com/?a=1&amp;b=2\">example.com/?a=1&amp;b=2</a></bdi> \u{FFFD}"
    );
    let out = linkscan(&["linkify", "--default-scheme", "http://"], b"x.com");
    assert_eq!(
        stdout(&out),
        "<bdi dir=\"ltr\"><a href=\"http://x.com\">x.com</a></bdi>"
    );
}

#[test]
fn conformance_command_reports_counts() {
    let dir = common::unicode("17.0.0");
    let out = linkscan(&["conformance", dir.to_str().unwrap()], b"");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(": 344 lines"), "{text}");
    assert!(
        text.contains("finder: 344 passed, 0 failed (of 344)"),
        "{text}"
    );
    assert!(
        text.contains("oracle: 344 passed, 0 failed (of 344)"),
        "{text}"
    );
    assert!(
        text.contains("formatter: 45 passed, 10 known errata of the 17.0.0 file, 0 failed (of 55)"),
        "{text}"
    );
    let draft = common::unicode("18.0.0-draft");
    let out = linkscan(&["conformance", draft.to_str().unwrap()], b"");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("formatter: 55 passed, 0 failed (of 55)"),
        "{text}"
    );
    assert!(
        text.contains("oracle: 55 passed, 0 failed (of 55)"),
        "{text}"
    );
    let out = linkscan(&["conformance", "/nonexistent"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("LinkDetectionTest.txt"));
}

#[test]
fn conformance_command_fails_on_a_failing_case() {
    let dir = std::env::temp_dir().join(format!("linkscan-conf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("LinkDetectionTest.txt"),
        "# comment\nSee ⸠example.com⸡ on…\n⸠wrong.zz⸡\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("LinkFormattingTest.txt"),
        "# {𝑺=https:// 𝑯=example.com 𝑷=α.}\nhttps://example.com/%CE%B1.\nhttps://example.com/α.\n",
    )
    .unwrap();
    let out = linkscan(&["conformance", "--verbose", dir.to_str().unwrap()], b"");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("finder: 1 passed, 1 failed (of 2)"), "{text}");
    assert!(
        text.contains("formatter: 0 passed, 1 failed (of 1)"),
        "{text}"
    );
    assert!(text.contains("expected: https://example.com/α."), "{text}");
}

#[test]
fn escape_formats_arguments_and_stdin_lines() {
    let out = linkscan(
        &[
            "escape",
            "https://example.com/%CE%B1%CE%B2%CE%B3/%CE%B4.%CE%B5%CE%B6.",
            "https://xn--bcher-kva.de/b%C3%BCcher",
        ],
        b"",
    );
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "https://example.com/αβγ/δ.εζ%2E\nhttps://bücher.de/bücher\n"
    );
    let out = linkscan(
        &["escape"],
        b"https://example.com#%CE%B5(%CE%B6))\r\nexample.com/a%20b%FF\n",
    );
    assert_eq!(
        stdout(&out),
        "https://example.com#ε(ζ)%29\nexample.com/a%20b%FF\n"
    );
}

#[test]
fn help_shows_examples() {
    let out = linkscan(&["--help"], b"");
    assert!(stdout(&out).contains("Examples:"));
    let out = linkscan(&["find", "--help"], b"");
    assert!(stdout(&out).contains("Examples:"));
}

#[test]
fn closed_stdout_ends_quietly() {
    // Many links, and a reader that closes the pipe at once.
    let input = "see example.com\n".repeat(200_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .arg("find")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn jobs_and_stdin_give_the_same_links_as_a_mapped_file() {
    let path = common::shared().join("corpus").join("email-intl.txt");
    let path = path.to_str().unwrap();
    let one = linkscan(&["find", "--format", "tsv", "-j", "1", path], b"");
    assert!(one.status.success());
    let three = linkscan(&["find", "--format", "tsv", "-j", "3", path], b"");
    assert_eq!(one.stdout, three.stdout, "-j 1 and -j 3 differ");
    let bytes = std::fs::read(path).unwrap();
    let streamed = linkscan(&["find", "--format", "tsv", "-j", "2", "-"], &bytes);
    let expected = String::from_utf8(one.stdout)
        .unwrap()
        .replace(&format!("{path}\t"), "-\t");
    assert_eq!(
        stdout(&streamed),
        expected,
        "stdin and the mapped file differ"
    );
    assert!(expected.lines().count() > 40_000);
    let out = linkscan(&["find", "--json", "-j", "0"], b"");
    assert_eq!(out.status.code(), Some(2), "-j 0 is rejected");
}

#[test]
fn empty_input_and_length_limit() {
    let empty = temp_file("empty.txt", b"");
    assert_eq!(
        stdout(&linkscan(&["find", "-c", empty.to_str().unwrap()], b"")),
        "0\n"
    );
    assert_eq!(stdout(&linkscan(&["find", "-c"], b"")), "0\n");
    let long = format!("x.com/{} y.com", "a".repeat(70_000));
    assert_eq!(stdout(&linkscan(&["find", "-c"], long.as_bytes())), "1\n");
    assert_eq!(
        stdout(&linkscan(
            &["find", "-c", "--no-length-limit"],
            long.as_bytes()
        )),
        "2\n"
    );
}

/// The characters that must never reach a terminal raw: C0 and C1 controls, DEL and the
/// Bidi_Control characters.
fn is_terminal_control(c: char) -> bool {
    c.is_control() || linkscan::is_bidi_control(c)
}

#[test]
fn output_escapes_controls_and_bidi_controls() {
    let controls: Vec<char> = (0..0x20u32)
        .chain([0x7F])
        .chain(0x80..0xA0)
        .filter_map(char::from_u32)
        .chain("\u{061C}\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}".chars())
        .chain("\u{2066}\u{2067}\u{2068}\u{2069}".chars())
        .collect();
    let mut rng = common::rng::Rng::new(0x7465_726d);
    let mut text = String::new();
    for i in 0..200 {
        let c = *rng.pick(&controls);
        let d = *rng.pick(&controls);
        text.push_str(&format!(
            "{d}see https://h{i}.example.com/a{c}b?q=“x” and m{i}@example.org{c} “quoted” {d}\n"
        ));
    }
    let name = format!("out\u{1B}]0;title\u{7}{}.txt", '\u{202E}');
    let path = temp_file(&name, text.as_bytes());
    let path = path.to_str().unwrap();
    let clean = |out: &Output| {
        let printed = stdout(out);
        assert!(
            !printed
                .chars()
                .filter(|&c| c != '\n' && c != '\t')
                .any(is_terminal_control),
            "{printed:?}"
        );
        printed
    };
    // JSON: escaped as \uXXXX, and read back as the very text.
    let jsonl = clean(&linkscan(&["find", "--json", path], b""));
    let mut links = 0;
    for line in jsonl.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let (start, end) = (
            record["start"].as_u64().unwrap(),
            record["end"].as_u64().unwrap(),
        );
        assert_eq!(record["text"], text[start as usize..end as usize], "{line}");
        assert_eq!(record["file"], path);
        links += 1;
    }
    assert!(links >= 400, "{links} links");
    assert!(
        jsonl.contains("\\u202e") || jsonl.contains("\\u0085"),
        "{jsonl}"
    );
    // TSV and -o: escaped as TSV escapes a tab.
    let tsv = clean(&linkscan(&["find", "--format", "tsv", path], b""));
    assert_eq!(tsv.lines().count(), links);
    assert!(tsv.lines().all(|l| l.split('\t').count() == 5), "{tsv}");
    assert!(tsv.contains("/out\\x1B]0;title\\x07\\u202E.txt\t"), "{tsv}");
    let only = clean(&linkscan(&["find", "-o", path], b""));
    assert_eq!(only.lines().count(), links);
    // "quoted" text and other characters of the U+20xx block are not escaped.
    assert!(clean(&linkscan(&["find", "-o"], "x.com/“a”—b".as_bytes())).contains("“a”—b"));
}

#[test]
fn warnings_on_stderr_carry_no_control_bytes() {
    let mbox = temp_file(
        "evil.mbox",
        b"From a@example.com Mon Jan  1 00:00:00 2024\nMessage-ID: <\x1b]0;owned\x07@x\xe2\x80\xae>\n\
Subject: hi\nContent-Type: text/plain; charset=x-no-such-charset\n\nsee a.example.com\n",
    );
    let out = linkscan(&["find", "--json", "--mbox", mbox.to_str().unwrap()], b"");
    let err = String::from_utf8(out.stderr).expect("UTF-8 warnings");
    assert!(err.contains("x-no-such-charset"), "{err}");
    assert!(err.contains("\\x1B]0;owned\\x07@x\\u202E"), "{err}");
    let missing = "missing\u{1B}[31m\u{202E}.txt".to_string();
    let out = linkscan(&["find", "--json", &missing], b"");
    let err2 = String::from_utf8(out.stderr).expect("UTF-8 errors");
    assert!(err2.contains("missing\\x1B[31m\\u202E.txt"), "{err2}");
    for err in [err, err2] {
        assert!(
            !err.chars().filter(|&c| c != '\n').any(is_terminal_control),
            "{err:?}"
        );
    }
}

/// `escape` and `display` leave a URL without hierarchy, a userinfo and a host as given,
/// but no control character of them reaches the terminal: each is percent-escaped.
#[test]
fn escape_and_display_percent_escape_controls() {
    for command in ["escape", "display"] {
        let out = linkscan(
            &[
                command,
                "mailto:a\u{1B}]0;owned\u{7}@example.com",
                "example.com\u{85}/x",
            ],
            b"example.com\x1b[2J/p\nhttp://u\x7f@example.com/\n",
        );
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            stdout(&out),
            "mailto:a%1B]0;owned%07@example.com\nexample.com%C2%85/x\n",
            "{command}"
        );
        let out = linkscan(
            &[command],
            b"example.com\x1b[2/p\nhttp://u\x7f@example.com/\n",
        );
        let printed = stdout(&out);
        assert!(
            !printed
                .chars()
                .filter(|&c| c != '\n')
                .any(is_terminal_control),
            "{printed:?}"
        );
        assert!(
            printed.starts_with("example.com%1B[2/p\n"),
            "{command}: {printed:?}"
        );
        assert!(printed.contains("u%7F@"), "{command}: {printed:?}");
    }
}

/// `find --format marked` is the input unchanged in a pipe, and on a terminal escapes
/// every control and Bidi_Control character but line feeds, tabs and a CRLF's CR.
#[test]
#[ignore = "needs script (util-linux)"]
fn marked_text_on_a_terminal_has_no_raw_controls() {
    let text = "see a.co\u{1B}]0;owned\u{7} and b.co/\u{202E}x\r\nnext\tline\u{85}\n";
    let path = temp_file("marked-terminal.txt", text.as_bytes());
    let piped = linkscan(&["find", "--format", "marked", path.to_str().unwrap()], b"");
    assert_eq!(
        stdout(&piped),
        text.replace("a.co", "⸠a.co⸡")
            .replace("b.co/\u{202E}x", "⸠b.co/\u{202E}x⸡")
    );
    let command = format!(
        "{} find --format marked {}",
        env!("CARGO_BIN_EXE_linkscan"),
        path.display()
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    assert!(out.status.success(), "{out:?}");
    // The terminal writes each line feed as CR LF; the CR of the CRLF stays raw.
    let shown = stdout(&out).replace("\r\n", "\n");
    assert_eq!(
        shown,
        "see ⸠a.co⸡\\x1B]0;owned\\x07 and ⸠b.co/\\u202Ex⸡\r\nnext\tline\\u0085\n"
    );
}

/// `--public-suffix-hosts`: the URLs whose host is itself a public suffix, which spec
/// section 1.4 leaves out, are reported too (the library's `public_suffix_hosts(true)`).
#[test]
fn public_suffix_hosts_option() {
    let text = b"see co.uk and github.io, but bbc.co.uk; https://gov.uk/ a@co.uk\n";
    let only = |args: &[&str]| stdout(&linkscan(&[&["find", "-o"], args].concat(), text));
    assert_eq!(only(&[]), "github.io\nbbc.co.uk\na@co.uk\n");
    assert_eq!(
        only(&["--public-suffix-hosts"]),
        "co.uk\ngithub.io\nbbc.co.uk\nhttps://gov.uk/\na@co.uk\n"
    );
    // The readable policy still leaves out scheme-less public suffixes of either section.
    assert_eq!(
        only(&["--public-suffix-hosts", "--policy", "readable"]),
        "bbc.co.uk\nhttps://gov.uk/\na@co.uk\n"
    );
    let html = stdout(&linkscan(&["linkify", "--public-suffix-hosts"], text));
    assert!(html.contains("<a href=\"https://gov.uk/\""), "{html}");
    let html = stdout(&linkscan(&["linkify"], text));
    assert!(!html.contains("gov.uk/\""), "{html}");
}
