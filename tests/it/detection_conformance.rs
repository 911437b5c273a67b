//! UTS58-C1 and C3: every line of the official `LinkDetectionTest.txt`, through the fast
//! finder and through the oracle.

use crate::common;

use linkscan::conformance::{mark, parse_detection_tests, run_detection, DetectionCase};
use linkscan::{oracle, Link, LinkFinder, TldPolicy};

fn cases(version: &str) -> Vec<DetectionCase> {
    let text = common::read(common::unicode(version).join("LinkDetectionTest.txt"));
    let cases = parse_detection_tests(&text);
    assert!(cases.len() > 300, "only {} cases parsed", cases.len());
    cases
}

fn assert_all_pass(name: &str, cases: &[DetectionCase], detect: impl FnMut(&str) -> String) {
    let failures = run_detection(cases, detect);
    let report: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
    assert!(
        failures.is_empty(),
        "{name}: {} of {} lines fail:\n{}",
        failures.len(),
        cases.len(),
        report.join("\n")
    );
}

#[test]
fn finder_passes_every_line_17() {
    let cases = cases("17.0.0");
    assert_eq!(cases.len(), 344);
    let finder = LinkFinder::new();
    assert_all_pass("finder", &cases, |s| {
        mark(s, finder.links(s).map(Link::from))
    });
}

#[test]
fn oracle_passes_every_line_17() {
    let cases = cases("17.0.0");
    assert_all_pass("oracle", &cases, |s| {
        mark(s, oracle::find_links(s.as_bytes(), &TldPolicy::Iana))
    });
}

#[test]
fn finder_passes_every_line_18_draft() {
    let cases = cases("18.0.0-draft");
    let finder = LinkFinder::new();
    assert_all_pass("finder", &cases, |s| {
        mark(s, finder.links(s).map(Link::from))
    });
}

#[test]
fn bytes_entry_point_passes_every_line() {
    let cases = cases("17.0.0");
    let finder = LinkFinder::new();
    assert_all_pass("links_bytes", &cases, |s| {
        mark(s, finder.links_bytes(s.as_bytes()))
    });
}

/// `links(&str)` yields matches bound to the line: marking each line with the matches'
/// own `as_str()` (not with offsets into the line) gives the official marks, and each
/// `as_str()` is `&line[range()]`.
#[test]
fn text_bound_matches_pass_every_line() {
    let finder = LinkFinder::new();
    for version in ["17.0.0", "18.0.0-draft"] {
        let cases = cases(version);
        let mut matches = 0;
        assert_all_pass(version, &cases, |s| {
            let mut out = String::new();
            let mut at = 0;
            for m in finder.links(s) {
                assert_eq!(m.as_str(), &s[m.range()], "{s:?}");
                out.push_str(&s[at..m.start()]);
                out.push('⸠');
                out.push_str(m.as_str());
                out.push('⸡');
                at = m.end();
                matches += 1;
            }
            out.push_str(&s[at..]);
            out
        });
        assert!(matches > 300, "{version}: only {matches} links");
    }
}

/// With the purely syntactic TLD rule the official lines come back as written: a host
/// right before `@` is an email's local part (`john.smith@example.com`, where `smith` is
/// a syntactic TLD), through the finder and the oracle alike.
#[test]
fn syntactic_policy_passes_every_line_17() {
    let cases = cases("17.0.0");
    assert_eq!(cases.len(), 344);
    let finder = LinkFinder::builder()
        .tld_policy(TldPolicy::Syntactic)
        .build();
    assert_all_pass("finder, syntactic", &cases, |s| {
        mark(s, finder.links(s).map(Link::from))
    });
    assert_all_pass("oracle, syntactic", &cases, |s| {
        mark(s, oracle::find_links(s.as_bytes(), &TldPolicy::Syntactic))
    });
}
