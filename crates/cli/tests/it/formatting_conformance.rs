use crate::common::{self};
use linkscan::conformance::{parse_formatting_tests, Failure, FormattingCase};
use linkscan::format::{escape_url, escape_url_parts, UrlParts};

/// UTS58-C2 through the string path, for all 55 pairs: `escape_url`, and `linkscan
/// escape` reading the lines on standard input, turn each fully escaped source line into
/// the minimally escaped line of the file. The lines are the file's own source lines
/// made unambiguous (checked: they decode to the same characters).
#[test]
fn escape_on_every_fully_escaped_source_line() {
    let cases = cases(DRAFT);
    let lines: Vec<String> = cases
        .iter()
        .map(|case| fully_escaped_source_line(&case.parts))
        .collect();
    let mut failures = Vec::new();
    for (case, line) in cases.iter().zip(&lines) {
        assert_eq!(
            percent_decode(line),
            percent_decode(&case.escaped),
            "line {}: the unambiguous line spells the file's characters",
            case.escaped_line
        );
        let actual = escape_url(line);
        if actual != case.expected {
            failures.push(Failure {
                line: case.escaped_line,
                input: line.clone(),
                expected: case.expected.clone(),
                actual,
            });
        }
    }
    assert_all_pass("escape_url on fully escaped lines", &cases, &failures);

    let out = common::linkscan(&["escape"], lines.join("\n").as_bytes());
    assert!(out.status.success(), "{out:?}");
    let printed = String::from_utf8(out.stdout).expect("UTF-8 output");
    let printed: Vec<&str> = printed.lines().collect();
    let expected: Vec<&str> = cases.iter().map(|c| c.expected.as_str()).collect();
    assert_eq!(printed.len(), 55);
    for ((got, want), case) in printed.iter().zip(&expected).zip(&cases) {
        assert_eq!(got, want, "linkscan escape, line {}", case.escaped_line);
    }
}

/// `linkscan escape` on standard input: bytes that are not UTF-8 stay percent-escaped
/// (not U+FFFD), and LF, CR and CRLF each end one URL.
#[test]
fn escape_stdin_keeps_invalid_utf8_escaped_and_splits_at_every_line_end() {
    let out = common::linkscan(&["escape"], b"https://example.com/\xff%CE%B1\n");
    assert!(out.status.success(), "{out:?}");
    // One invalid byte marks the URL as legacy-encoded: no non-ASCII byte is decoded.
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "https://example.com/%FF%CE%B1\n"
    );
    let out = common::linkscan(
        &["escape"],
        b"example.com/%CE%B1\rexample.com/%CE%B2\r\nexample.com/%CE%B3\nexample.com/%CE%B4",
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "example.com/α\nexample.com/β\nexample.com/γ\nexample.com/δ\n"
    );
}

/// The string path and the parts path agree on a `#` inside a fragment.
#[test]
fn escape_and_parts_agree_on_a_hash_in_the_fragment() {
    let out = common::linkscan(&["escape", "https://example.com#a%23b"], b"");
    let parts = UrlParts::new("example.com")
        .with_scheme("https")
        .with_fragment("a#b");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        escape_url_parts(&parts)
    );
    assert_eq!(escape_url_parts(&parts), "https://example.com#a#b");
}

/// `value` with every character but ASCII letters and digits percent-escaped (UTF-8).
fn escape_fully(value: &str, out: &mut String) {
    for c in value.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
}

/// The source line of a pair with nothing left ambiguous: the URL its structure comment
/// describes, each value fully percent-escaped. The file's own source line writes some
/// data characters raw (`%` as `%CE%B3%%CE%B5%`, a `#` or `/` inside a path segment), so
/// it spells another URL in six pairs; this one is that line written unambiguously.
fn fully_escaped_source_line(parts: &UrlParts) -> String {
    let mut line = String::new();
    if let Some(scheme) = &parts.scheme {
        line.push_str(scheme);
        line.push_str("://");
    }
    line.push_str(&parts.host);
    for segment in &parts.path {
        line.push('/');
        escape_fully(segment, &mut line);
    }
    for (k, (key, value)) in parts.query.iter().enumerate() {
        line.push(if k == 0 { '?' } else { '&' });
        escape_fully(key, &mut line);
        if let Some(value) = value {
            line.push('=');
            escape_fully(value, &mut line);
        }
    }
    if parts.fragment.is_some() || !parts.fragment_directives.is_empty() {
        line.push('#');
        escape_fully(parts.fragment.as_deref().unwrap_or(""), &mut line);
    }
    for directive in &parts.fragment_directives {
        line.push_str(":~:");
        line.push_str(directive);
    }
    line
}

const DRAFT: &str = "18.0.0-draft";

fn cases(version: &str) -> Vec<FormattingCase> {
    let text = common::read(common::unicode(version).join("LinkFormattingTest.txt"));
    let cases = parse_formatting_tests(&text).unwrap_or_else(|e| panic!("{version}: {e}"));
    assert_eq!(cases.len(), 55, "{version}: pairs parsed");
    cases
}

fn report(failures: &[Failure]) -> String {
    failures
        .iter()
        .map(|f| f.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_all_pass(name: &str, cases: &[FormattingCase], failures: &[Failure]) {
    assert!(
        failures.is_empty(),
        "{name}: {} of {} pairs fail:\n{}",
        failures.len(),
        cases.len(),
        report(failures)
    );
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
