//! UTS58-C2: every pair of the official `LinkFormattingTest.txt`, through the formatter
//! and through the oracle; the known errata of the 17.0.0 file; and the goal of section 4,
//! that a formatted URL is detected whole.

use crate::common;

use linkscan::conformance::{
    parse_formatting_tests, run_formatting, Failure, FormattingCase, FORMATTING_ERRATA_17,
};
use linkscan::format::{escape_url, escape_url_parts, UrlParts};
use linkscan::{oracle, LinkFinder};

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

#[test]
fn escape_url_parts_passes_every_pair_18_draft() {
    let cases = cases(DRAFT);
    let failures = run_formatting(&cases, escape_url_parts);
    assert_all_pass("escape_url_parts", &cases, &failures);
}

#[test]
fn oracle_passes_every_pair_18_draft() {
    let cases = cases(DRAFT);
    let failures = run_formatting(&cases, oracle::format_url_parts);
    assert_all_pass("oracle", &cases, &failures);
}

/// The 17.0.0 file: 45 pairs pass; the other 10 are exactly the known errata, and on
/// each the output is what the draft file (which corrects them) expects.
fn check_17(name: &str, format: fn(&UrlParts) -> String) {
    let old = cases("17.0.0");
    let new = cases(DRAFT);
    for (o, n) in old.iter().zip(&new) {
        assert_eq!(
            o.structure, n.structure,
            "the two files pair up (line {})",
            o.line
        );
    }
    let failures = run_formatting(&old, format);
    let errata: Vec<&FormattingCase> = old.iter().filter(|c| c.is_erratum_17()).collect();
    assert_eq!(
        errata.len(),
        FORMATTING_ERRATA_17.len(),
        "every erratum names one pair"
    );

    let unexpected: Vec<Failure> = failures
        .iter()
        .filter(|f| !errata.iter().any(|c| c.line == f.line))
        .cloned()
        .collect();
    assert!(
        unexpected.is_empty(),
        "{name}: pairs of 17.0.0 that fail and are not known errata:\n{}",
        report(&unexpected)
    );
    assert_eq!(failures.len(), 10, "{name}: {}", report(&failures));
    assert_eq!(old.len() - failures.len(), 45);
    for (o, n) in old.iter().zip(&new) {
        if o.is_erratum_17() {
            let actual = format(&o.parts);
            assert_ne!(
                o.expected, n.expected,
                "line {}: the draft corrects it",
                o.line
            );
            assert_eq!(
                actual, n.expected,
                "{name}, line {}: an erratum must differ exactly as the draft says",
                o.line
            );
        } else {
            assert_eq!(
                o.expected, n.expected,
                "line {}: same in both files",
                o.line
            );
        }
    }
}

#[test]
fn escape_url_parts_on_17_passes_all_but_the_errata() {
    check_17("escape_url_parts", escape_url_parts);
}

#[test]
fn oracle_on_17_passes_all_but_the_errata() {
    check_17("oracle", oracle::format_url_parts);
}

/// The links found in `text`.
fn links_in(text: &str) -> Vec<&str> {
    LinkFinder::new().links(text).map(|l| l.as_str()).collect()
}

/// Section 4's goal: the minimally escaped form is "completely link-detected when
/// isolated" — in running text too, when Hard characters surround it.
#[test]
fn formatted_urls_are_detected_whole() {
    for case in cases(DRAFT) {
        let url = escape_url_parts(&case.parts);
        for text in [url.clone(), format!("See {url} for more information.")] {
            assert_eq!(
                links_in(&text),
                [url.as_str()],
                "line {}: in {text:?}",
                case.line
            );
        }
    }
}

/// Why the ten are errata: their expected line of 17.0.0 loses its final character
/// when it is detected in running text.
#[test]
fn errata_of_17_are_not_detected_whole() {
    for case in cases("17.0.0").into_iter().filter(|c| c.is_erratum_17()) {
        let text = format!("See {} for more information.", case.expected);
        let links = links_in(&text);
        assert_eq!(links.len(), 1, "line {}", case.line);
        assert!(
            case.expected.starts_with(links[0]) && links[0].len() < case.expected.len(),
            "line {}: {:?} was detected whole",
            case.line,
            case.expected
        );
    }
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

/// The structure that the fully escaped line spells when it is split at its literal
/// syntax characters and each piece is decoded.
fn structure_of_escaped_line(line: &str) -> UrlParts {
    let (scheme, rest) = line.split_once("://").unwrap_or(("", line));
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let mut parts = UrlParts::new(&rest[..host_end]);
    if !scheme.is_empty() {
        parts = parts.with_scheme(scheme);
    }
    let rest = &rest[host_end..];
    let (before_fragment, fragment) = match rest.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (rest, None),
    };
    let (path, query) = match before_fragment.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (before_fragment, None),
    };
    if let Some(path) = path.strip_prefix('/') {
        parts.path = path.split('/').map(percent_decode).collect();
    }
    if let Some(query) = query {
        for pair in query.split('&') {
            let (key, value) = match pair.split_once('=') {
                Some((k, v)) => (k, Some(percent_decode(v))),
                None => (pair, None),
            };
            parts.query.push((percent_decode(key), value));
        }
    }
    if let Some(fragment) = fragment {
        let mut pieces = fragment.split(":~:").map(percent_decode);
        parts.fragment = pieces.next();
        parts.fragment_directives = pieces.collect();
    }
    parts
}

/// Whether some value of `parts` holds a character that is syntax where it stands, which
/// the fully escaped line should have escaped but did not.
fn has_data_syntax_character(parts: &UrlParts) -> bool {
    parts.path.iter().any(|s| s.contains(['/', '?', '#']))
        || parts.query.iter().any(|(k, v)| {
            k.contains(['&', '=', '#']) || v.as_ref().is_some_and(|v| v.contains(['&', '=', '#']))
        })
}

/// `escape_url` on the fully escaped line gives the minimally escaped one, for every pair
/// whose fully escaped line spells its structure. Pairs are skipped only when the line is
/// ambiguous: a value of their structure holds a syntax character that the line leaves
/// unescaped (`𝑷=β/γ` written `/%CE%B2/%CE%B3`), so the line is a different URL; on those
/// the formatter is not wrong, the line is. For 17.0.0 the expected line is the draft's
/// (which corrects the ten errata).
#[test]
fn escape_url_on_fully_escaped_lines() {
    let draft = cases(DRAFT);
    for version in ["17.0.0", DRAFT] {
        let mut failures = Vec::new();
        let mut skipped = Vec::new();
        for (case, corrected) in cases(version).iter().zip(&draft) {
            if structure_of_escaped_line(&case.escaped) != case.parts {
                assert!(
                    has_data_syntax_character(&case.parts),
                    "{version} line {}: the fully escaped line differs from its structure \
                     for no visible reason",
                    case.escaped_line
                );
                skipped.push(case.escaped_line);
                continue;
            }
            let actual = escape_url(&case.escaped);
            if actual != corrected.expected {
                failures.push(Failure {
                    line: case.escaped_line,
                    input: case.escaped.clone(),
                    expected: corrected.expected.clone(),
                    actual,
                });
            }
        }
        assert!(
            failures.is_empty(),
            "{version}: escape_url fails on {} pairs:\n{}",
            failures.len(),
            report(&failures)
        );
        assert!(
            skipped.len() <= 5,
            "{version}: too many ambiguous lines skipped: {skipped:?}"
        );
    }
}

/// Formatting is stable: parsing a formatted URL and formatting it again changes nothing.
#[test]
fn escape_url_is_idempotent_on_formatted_urls() {
    for case in cases(DRAFT) {
        let url = escape_url_parts(&case.parts);
        assert_eq!(escape_url(&url), url, "line {}", case.line);
    }
}
