//! The fuzz targets' properties (`tests/common/properties.rs`) under proptest, with
//! bounded case counts so that every `cargo test` checks them in a few seconds.
//!
//! The generators build text from tokens that matter to detection and formatting (dots,
//! TLDs, schemes, `@`, brackets of several scripts, Soft punctuation, URL syntax,
//! Bidi_Control characters, invalid UTF-8) mixed with arbitrary characters, so that a
//! small number of cases reaches the interesting paths; the fuzz targets explore the rest.
//! `PROPTEST_CASES` raises the number of cases for a longer run.

use crate::common;
use crate::properties;

use common::rng::Rng;
use linkscan::format::UrlParts;
use properties::UrlCase;
use proptest::prelude::*;

/// Tokens of text to scan: words, dots, TLDs, schemes, URL syntax, brackets, punctuation,
/// space, Bidi_Control, invalid UTF-8 (as bytes).
const TOKENS: &[&[u8]] = &[
    b"a",
    b"ex",
    b"x-y",
    "\u{0436}\u{0438}".as_bytes(),
    "\u{4F8B}\u{3048}".as_bytes(),
    "\u{00FC}".as_bytes(),
    "\u{FF45}".as_bytes(),
    b".",
    "\u{3002}".as_bytes(),
    "\u{FF0E}".as_bytes(),
    b"..",
    b"com",
    b"org",
    b"COM",
    "\u{0440}\u{0444}".as_bytes(),
    b"xn--p1ai",
    b"c0m",
    "\u{30C6}\u{30B9}\u{30C8}".as_bytes(),
    b"invalid",
    // Longer than a vector: runs of Include and Soft bytes inside a path or query.
    b"wiki/Some_Long-Title.with,soft;bytes!and'more\"/x=1&y",
    b"https://",
    b"http://",
    b"mailto:",
    b"@",
    b":",
    b":8080",
    b":99999",
    b"/",
    b"?",
    b"#",
    b":~:",
    b"&",
    b"=",
    b",",
    b"(",
    b")",
    b"[",
    b"]",
    b"<",
    b">",
    "\u{FF08}".as_bytes(),
    "\u{FF09}".as_bytes(),
    "\u{300C}".as_bytes(),
    "\u{300D}".as_bytes(),
    b"!",
    b"'",
    b"\"",
    b";",
    b" ",
    b"\n",
    b"\r",
    b"\t",
    b"-",
    b"%2E",
    b"%",
    "\u{202E}".as_bytes(),
    "\u{200F}".as_bytes(),
    b"\xFF",
    b"\xC3",
    b"\xE2\x80",
    b"\xED\xA0\x80",
    b"\xC0\xAE",
    b"\0",
    "\u{FEFF}".as_bytes(),
    // Ignored code points (a host walk passes over them), literal hosts.
    "\u{AD}".as_bytes(),
    "\u{200B}".as_bytes(),
    "\u{E0100}".as_bytes(),
    b"li@",
    b"localhost",
    b"127.0.0.1",
    b"[::1]",
    b"[",
    b"]:80",
];

/// Text as bytes: 0 to 24 tokens or arbitrary characters.
fn text_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => proptest::sample::select(TOKENS).prop_map(|t| t.to_vec()),
        1 => any::<char>().prop_map(|c| c.to_string().into_bytes()),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

/// Characters that matter to formatting: every Link_Term value, brackets of several
/// scripts, each part's syntax, `%` and hex digits, `:~:`, Bidi_Control, combining marks.
const PART_CHARS: &[char] = &[
    'a', 'F', '0', '9', '.', ',', ':', ';', '!', '?', '\'', '"', '(', ')', '[', ']', '{', '}', '<',
    '>', '\u{FF08}', '\u{FF09}', '\u{300C}', '\u{300D}', '/', '#', '&', '=', '+', '%', '~', '-',
    ' ', '\t', '\\', '@', '\u{202E}', '\u{200F}', '\u{2066}', '\u{00E9}', '\u{03B1}', '\u{3042}',
    '\u{0301}', '\u{FFFD}', '\u{3002}', '\u{00A0}',
];

/// The text of a URL part: 0 to 10 characters, mostly from [`PART_CHARS`].
fn part_text() -> impl Strategy<Value = String> {
    let c = prop_oneof![
        6 => proptest::sample::select(PART_CHARS),
        1 => any::<char>(),
    ];
    proptest::collection::vec(c, 0..10).prop_map(|cs| cs.into_iter().collect())
}

/// A label's raw text: letters of several scripts, digits, hyphens, and anything else
/// (which [`properties::valid_host`] filters).
fn label_text() -> impl Strategy<Value = String> {
    let c = prop_oneof![
        4 => proptest::sample::select(&[
            'a', 'z', 'Q', '0', '-', '\u{00FC}', '\u{0436}', '\u{4F8B}', '\u{05D0}', '\u{0661}',
            '\u{FF45}', '\u{00DF}', '\u{03C2}', '\u{0301}', '\u{00AD}', '\u{2488}', '\u{FF0D}',
        ][..]),
        1 => any::<char>(),
    ];
    proptest::collection::vec(c, 0..8).prop_map(|cs| cs.into_iter().collect())
}

/// A URL case: a valid host (labels, an IANA TLD), optional scheme and port, 0 to 3 path
/// segments, query pairs, a fragment, directives, and text before and after.
fn url_case() -> impl Strategy<Value = UrlCase> {
    let tlds: &'static [&'static str] = &linkscan::internals::TLDS;
    let host = (
        proptest::collection::vec(label_text(), 0..3),
        proptest::sample::select(tlds),
    )
        .prop_map(|(labels, tld)| properties::valid_host(&labels, tld));
    let scheme = proptest::option::of(proptest::sample::select(&["http", "https", "HTTPS"][..]));
    let query = proptest::collection::vec((part_text(), proptest::option::of(part_text())), 0..3);
    let around = proptest::collection::vec(text_bytes(), 2).prop_map(|v| {
        v.into_iter()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .collect::<Vec<_>>()
    });
    (
        (host, scheme, proptest::option::of(any::<u16>())),
        (
            proptest::collection::vec(part_text(), 0..4),
            query,
            proptest::option::of(part_text()),
            proptest::collection::vec(part_text(), 0..2),
        ),
        any::<bool>(),
        around,
    )
        .prop_map(
            |((host, scheme, port), (path, query, fragment, directives), secure, around)| {
                let parts = UrlParts {
                    scheme: scheme.map(str::to_string),
                    host,
                    port,
                    path,
                    query: query
                        .into_iter()
                        .map(|(k, v)| (k, v.map(|v: String| v)))
                        .collect(),
                    fragment,
                    fragment_directives: directives,
                };
                let [before, after]: [String; 2] = around.try_into().expect("two texts");
                UrlCase {
                    parts,
                    secure,
                    before,
                    after,
                }
            },
        )
}

fn config(cases: u32) -> ProptestConfig {
    // PROPTEST_CASES, when set, overrides the bounded default.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    // Each case scans more than 2 MiB, three times.
    #![proptest_config(config(24))]

    #[test]
    fn split_scans_agree(data in text_bytes()) {
        properties::split_scans_agree(&data).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(config(20_000))]

    #[test]
    fn finder_matches_oracle(data in text_bytes()) {
        properties::finder_matches_oracle(&data).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn entry_points_agree(data in text_bytes()) {
        properties::entry_points_agree(&data).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn escaped_url_is_detected(case in url_case()) {
        properties::escaped_url_is_detected(&case).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn escaped_url_decodes_to_parts(case in url_case()) {
        properties::escaped_url_decodes_to_parts(&case).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn no_entry_point_panics(data in text_bytes()) {
        properties::no_panic(&data);
    }
}

/// Every URL of the formatting test files, read as a case for the two formatting
/// properties (the seeds of the `escape_detect` fuzz target).
#[test]
fn formatting_test_urls_keep_the_promise() {
    let mut checked = 0;
    for version in ["17.0.0", "18.0.0-draft"] {
        let file = common::read(common::unicode(version).join("LinkFormattingTest.txt"));
        for line in file
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            for secure in [false, true] {
                let Some(case) = properties::url_case_from_text(line, secure) else {
                    continue;
                };
                properties::escaped_url_is_detected(&case).unwrap();
                properties::escaped_url_decodes_to_parts(&case).unwrap();
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} cases");
}

/// The properties themselves must be able to fail: a wrong oracle answer, a wrong
/// decoding and a form that is not detected are caught.
#[test]
fn the_properties_catch_what_they_should() {
    // The known gap of section 4.1 is recognised, and nothing else is excused.
    let gap = UrlParts::new("example.com").with_segment("(<])");
    assert!(properties::hits_bracket_gap(&gap));
    assert!(!properties::hits_bracket_gap(
        &UrlParts::new("example.com").with_segment("(<>)]")
    ));
    // A form that is not one link: a space in a host is not something the formatter
    // escapes, so this "URL" is detected as less than itself.
    let broken = UrlCase {
        parts: UrlParts::new("exa mple.com"),
        secure: false,
        before: String::new(),
        after: String::new(),
    };
    assert!(properties::escaped_url_is_detected(&broken).is_err());
    // Decoding a form back: an escaped `/` stays inside its segment.
    let parts = properties::decode_url("https://example.com:8/a%2Fb/%E2%80%AE?k=v&x#f:~:t=a,b")
        .expect("decodes");
    assert_eq!(parts.path, ["a/b", "\u{202E}"]);
    assert_eq!(
        parts.query,
        [
            ("k".to_string(), Some("v".to_string())),
            ("x".to_string(), None)
        ]
    );
    assert_eq!(parts.fragment_directives, ["t=a,b"]);
    assert_eq!(properties::percent_decode("%4%41%"), Ok("%4A%".to_string()));
}

/// Regressions found by fuzzing and by these properties live in `tests/hostile.rs`;
/// here, a few hand-picked cases of each property that must keep passing.
#[test]
fn hand_picked_cases() {
    for text in [
        &b"see https://example.com/a(b)c. and x@example.com"[..],
        b"\xFFexample.com\xFE/path",
        "\u{FF45}xample.com/\u{202E}x".as_bytes(),
        b"a.b.c.d.e.com:65535/((([[[",
    ] {
        properties::finder_matches_oracle(text).unwrap();
        properties::entry_points_agree(text).unwrap();
        properties::no_panic(text);
    }
    let case = UrlCase {
        parts: UrlParts::new("xn--bcher-kva.de")
            .with_scheme("https")
            .with_segment("a.")
            .with_query("k", Some("v)"))
            .with_fragment(":~")
            .with_directive("text=x,"),
        secure: true,
        before: "x@".to_string(),
        after: ")".to_string(),
    };
    properties::escaped_url_is_detected(&case).unwrap();
    properties::escaped_url_decodes_to_parts(&case).unwrap();
}

/// Hostile host runs that the scanner skips once two candidates in a row were rejected
/// for their host: whatever comes before, inside and after such a run, the links are the
/// oracle's.
#[test]
fn doomed_host_runs_match_the_oracle() {
    let heads = ["", "-", ".", "a", "a..", "a-", "x@", "http://", " "];
    let units = [
        "-x.com．",
        "x.com．",
        ".com",
        "-x.com.",
        "x--y.org．",
        "a.com。",
    ];
    let breaks = [
        "", " ", "/", "\u{FF01}", "\u{3002}", "\u{FF0E}", "\u{0416}", "\u{FFFF}",
    ];
    let tails = ["", "x.com", " x.com", "-x.com", "@x.com", ".org/path"];
    let mut checked = 0;
    for head in heads {
        for unit in units {
            for brk in breaks {
                for tail in tails {
                    for repeats in [1, 2, 5] {
                        let text = format!("{head}{}{brk}{tail}", unit.repeat(repeats));
                        if let Err(e) = properties::finder_matches_oracle(text.as_bytes()) {
                            panic!("{e}");
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 9 * 6 * 8 * 6 * 3);
}

/// Chains of labels, which the scanner walks from dot to dot without going back to the
/// candidate search: labels in several scripts, TLDs among them, joined by every kind of
/// dot and by breaks.
#[test]
fn label_chains_match_the_oracle() {
    let labels = [
        "a",
        "ex",
        "\u{3B1}",
        "\u{4E2D}",
        "\u{627}",
        "com",
        "org",
        "\u{30C6}\u{30B9}\u{30C8}",
        "xn--p1ai",
        "\u{440}\u{444}",
        "-x",
        "x-",
        "",
        "c0m",
        "\u{4E2D}\u{56FD}",
    ];
    let joins = [
        ".", ".", ".", "\u{3002}", "\u{FF0E}", "..", ". ", "@", "/", "\u{FFFD}",
    ];
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut random = move |n: usize| rng.below(n);
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..1 + random(12) {
            text.push_str(labels[random(labels.len())]);
            text.push_str(joins[random(joins.len())]);
        }
        text.push_str(labels[random(labels.len())]);
        if let Err(e) = properties::finder_matches_oracle(text.as_bytes()) {
            panic!("{e}");
        }
    }
}
