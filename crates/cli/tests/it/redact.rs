//! `linkscan redact`: the templates and their placeholders, the inputs (files, several,
//! standard input, one that cannot be read), and every byte outside a link kept: the
//! input is rebuilt from the output of `redact` and the links of `find --json`.

use std::path::{Path, PathBuf};

use crate::common;
use common::memory::{self, MIB};

/// The README's tour: three lines in five scripts.
const TOUR: &str = "\
See fr.wikipedia.org/wiki/Paris_(France), or write to σωκράτης@example.gr.
詳細は https://ja.wikipedia.org/wiki/東京都 をご覧ください。連絡先：（info@例え.jp）
راجع موقع.وزارة-الاتصالات.مصر/صفحة، أو www.straße.de/ü?q=1!
";

/// A replacement that no input holds.
const MARKER: &str = "\u{F8FF}";

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("redact", name)
}

/// Runs `linkscan ARGS` on `stdin`; the exit code, stdout and stderr.
fn run(args: &[&str], stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let out = common::linkscan(args, stdin);
    (
        out.status.code(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `redact ARGS` on `stdin`, which must succeed: its output as text.
fn redact(args: &[&str], stdin: &str) -> String {
    let mut all = vec!["redact"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, stdin.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    String::from_utf8(out).expect("UTF-8 output")
}

/// The links `find --json` reports in `file` with `options`: (start, end, text).
fn found(file: &Path, options: &[&str]) -> Vec<(usize, usize, String)> {
    let mut args = vec!["find", "--json"];
    args.extend_from_slice(options);
    let path = file.to_str().unwrap();
    args.push(path);
    let (code, out, err) = run(&args, b"");
    assert!(matches!(code, Some(0 | 1)), "{err}");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                v["start"].as_u64().unwrap() as usize,
                v["end"].as_u64().unwrap() as usize,
                v["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Checks that `redact` with `options` of `file` (whose bytes are `text`) keeps every byte
/// outside the links `find` reports: the input rebuilt from the output with each marker
/// put back as its link is the input.
fn rebuilds(file: &Path, text: &[u8], options: &[&str]) {
    let links = found(file, options);
    let mut args = vec!["redact", "--replace", MARKER];
    args.extend_from_slice(options);
    args.push(file.to_str().unwrap());
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, Some(0), "{err}");
    let marker = MARKER.as_bytes();
    let mut rebuilt = Vec::with_capacity(text.len());
    let mut rest = &out[..];
    let mut at = 0;
    for (start, end, link) in &links {
        let i = memchr::memmem::find(rest, marker).expect("a marker per link");
        assert_eq!(&rest[..i], &text[at..*start], "the bytes before {link}");
        rebuilt.extend_from_slice(&rest[..i]);
        rebuilt.extend_from_slice(link.as_bytes());
        rest = &rest[i + marker.len()..];
        at = *end;
    }
    assert!(
        memchr::memmem::find(rest, marker).is_none(),
        "more markers than links"
    );
    rebuilt.extend_from_slice(rest);
    assert!(
        rebuilt == text,
        "{} not rebuilt with {options:?}",
        file.display()
    );
}

#[test]
fn default_templates_are_url_and_email() {
    assert_eq!(
        redact(&[], TOUR),
        "See <URL>, or write to <EMAIL>.\n\
         詳細は <URL> をご覧ください。連絡先：（<EMAIL>）\n\
         راجع <URL>، أو <URL>!\n"
    );
}

#[test]
fn kind_email_keeps_the_urls() {
    assert_eq!(
        redact(&["--kind", "email"], TOUR),
        "See fr.wikipedia.org/wiki/Paris_(France), or write to <EMAIL>.\n\
         詳細は https://ja.wikipedia.org/wiki/東京都 をご覧ください。連絡先：（<EMAIL>）\n\
         راجع موقع.وزارة-الاتصالات.مصر/صفحة، أو www.straße.de/ü?q=1!\n"
    );
    assert_eq!(
        redact(&["--kind", "url"], "x@example.org example.org"),
        "x@example.org <URL>"
    );
}

#[test]
fn host_is_the_urls_host_or_the_emails_domain() {
    assert_eq!(
        redact(&["--replace", "[{kind} {host}]"], TOUR),
        "See [URL fr.wikipedia.org], or write to [EMAIL example.gr].\n\
         詳細は [URL ja.wikipedia.org] をご覧ください。連絡先：（[EMAIL 例え.jp]）\n\
         راجع [URL موقع.وزارة-الاتصالات.مصر]، أو [URL www.straße.de]!\n"
    );
    assert_eq!(
        redact(&["--replace", "{{{host}}}"], "mailto:x@example.org"),
        "{example.org}"
    );
}

#[test]
fn hash_is_stable_and_changes_with_the_key() {
    let text = "x@example.org and x@example.org, y@example.org\n";
    let once = redact(&["--replace", "{hash}", "--hash-key", "k1"], text);
    let again = redact(&["--replace", "{hash}", "--hash-key", "k1"], text);
    let other = redact(&["--replace", "{hash}", "--hash-key", "k2"], text);
    let unkeyed = redact(&["--replace", "{hash}"], text);
    assert_eq!(once, again);
    assert_ne!(once, other);
    assert_ne!(once, unkeyed);
    let words: Vec<&str> = once
        .split([' ', ',', '\n'])
        .filter(|w| !w.is_empty())
        .collect();
    assert_eq!(words.len(), 4, "{once}");
    assert_eq!(words[0], words[2]);
    assert_ne!(words[0], words[3]);
    assert!(words[0].len() == 32 && words[0].bytes().all(|b| b.is_ascii_hexdigit()));
    // The same on every machine: SipHash-2-4 is defined on bytes.
    assert_eq!(
        redact(
            &["--replace", "{hash}", "--hash-key", "k1"],
            "x@example.org"
        ),
        words[0]
    );
}

#[test]
fn an_unknown_placeholder_is_a_usage_error() {
    for template in ["{name}", "{kind", "}", "{KIND}"] {
        let (code, out, err) = run(&["redact", "--replace", template], TOUR.as_bytes());
        assert_eq!(code, Some(2), "{template}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("--replace"), "{err}");
    }
    let (_, _, err) = run(&["redact", "--replace", "<{name}>"], b"");
    assert!(err.contains("unknown placeholder {name}"), "{err}");
}

#[test]
fn standard_input_and_several_files_are_concatenated() {
    let dir = temp_dir("several");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&a, "a example.com").unwrap();
    std::fs::write(&b, "b x@example.org\n").unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    assert_eq!(redact(&[], "see example.com\n"), "see <URL>\n");
    assert_eq!(redact(&["-"], "see example.com\n"), "see <URL>\n");
    assert_eq!(
        redact(&[a, "-", b], " stdin example.org "),
        "a <URL> stdin <URL> b <EMAIL>\n"
    );
    assert_eq!(redact(&[], "no link at all\n"), "no link at all\n");
    // An input that cannot be read is reported, the others still written: exit 2.
    let missing = dir.join("missing.txt");
    let (code, out, err) = run(&["redact", a, missing.to_str().unwrap(), b], b"");
    assert_eq!(code, Some(2));
    assert_eq!(String::from_utf8(out).unwrap(), "a <URL>b <EMAIL>\n");
    assert!(err.contains("missing.txt"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_byte_outside_a_link_is_kept() {
    let dir = temp_dir("bytes");
    let tour = dir.join("tour.txt");
    std::fs::write(&tour, TOUR).unwrap();
    let mixed = dir.join("mixed.txt");
    let mixed_text: Vec<u8> = [
        TOUR.as_bytes(),
        b"\xFF bad \xFEexample.com\xFF\r\n\0x@example.org\t",
        TOUR.as_bytes(),
    ]
    .concat();
    std::fs::write(&mixed, &mixed_text).unwrap();
    for options in [
        &[][..],
        &["--kind", "email"],
        &["--kind", "url"],
        &["--policy", "readable"],
        &["--tld-policy", "syntactic"],
    ] {
        rebuilds(&tour, TOUR.as_bytes(), options);
        rebuilds(&mixed, &mixed_text, options);
    }
    let corpus = common::shared().join("corpus").join("email-intl.txt");
    let text = std::fs::read(&corpus).expect("the corpus (../shared/corpus)");
    rebuilds(&corpus, &text, &[]);
    rebuilds(&corpus, &text, &["--policy", "readable", "--kind", "email"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_large_input_streams_with_bounded_memory() {
    // 40 MB of lines with links; the output is checked as it streams.
    let line = "Write to σωκράτης@example.gr or see https://ja.wikipedia.org/wiki/東京都 now.\n";
    let want = "Write to <EMAIL> or see <URL> now.\n";
    let lines = 40_000_000 / line.len();
    let dir = temp_dir("large");
    let path = dir.join("large.txt");
    std::fs::write(&path, line.repeat(lines)).unwrap();
    let (peak, code, err) = memory::run_measured(
        &["redact", "-j", "2", path.to_str().unwrap()],
        None,
        |out| {
            let mut n = 0;
            let mut got = String::new();
            while out.read_line(&mut got).unwrap() > 0 {
                assert_eq!(got, want, "line {n}");
                got.clear();
                n += 1;
            }
            assert_eq!(n, lines);
        },
    );
    assert_eq!(code, Some(0), "{err}");
    // As `find`: a window buffer per worker and one for the writer, and the program.
    memory::assert_under("redact of 40 MB at -j 2", peak, 3 * 32 * MIB + 48 * MIB);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_read_by_the_workers_redact_as_standard_input_does() {
    // A regular file is redacted on the workers, window by window; standard input (a
    // pipe), and any input with a template that may grow a window too much, by the
    // reader thread's pieces. The same bytes either way, across many windows: link-dense
    // lines, a run without white space longer than a window, text around them.
    let mut text = Vec::new();
    for i in 0..40_000 {
        text.extend_from_slice(format!("x{i}.com a{i}@b.org:{i} ").as_bytes());
        if i % 7 == 0 {
            text.push(b'\n');
        }
    }
    text.extend_from_slice(&"x.com:1".repeat(150_000).into_bytes());
    text.extend_from_slice(TOUR.as_bytes());
    let dir = temp_dir("paths");
    let path = dir.join("dense.txt");
    std::fs::write(&path, &text).unwrap();
    let file = path.to_str().unwrap();
    let long = format!("<{}{{kind}}>", "-".repeat(200));
    for template in ["<{kind}>", "{host}/{hash}", long.as_str()] {
        let (code, from_file, err) = run(&["redact", "--replace", template, file], b"");
        assert_eq!(code, Some(0), "{err}");
        let (code, from_stdin, err) = run(&["redact", "--replace", template], &text);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            from_file == from_stdin,
            "{template}: the file and stdin differ"
        );
        if template == "<{kind}>" {
            // And the links are those `find` reports, each replaced once.
            let out = String::from_utf8(from_file).unwrap();
            let replaced = out.matches("<URL>").count() + out.matches("<EMAIL>").count();
            assert_eq!(replaced, found(&path, &[]).len());
            assert!(replaced > 200_000, "{replaced}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
