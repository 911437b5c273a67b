//! Hostile input: what the internet sends a link detector that reads it at scale.
//!
//! Invalid UTF-8 at every position, NUL bytes, surrogates encoded as UTF-8 (CESU-8),
//! overlong encodings, byte order marks, CR-only line ends, a directory or a missing file
//! among readable ones, and the inputs that fuzzing found. The library is checked against
//! the spec-literal oracle and against links written out by hand; the command line as a
//! user runs it.

use crate::properties;

use linkscan::html::Linkifier;
use linkscan::LinkFinder;

/// The links of `text` as `(start, end)`, after checking that the finder and the oracle
/// agree, that `&str` and `&[u8]` agree, and that no link holds invalid UTF-8.
fn links(text: &[u8]) -> Vec<(usize, usize)> {
    properties::finder_matches_oracle(text).unwrap();
    properties::entry_points_agree(text).unwrap();
    LinkFinder::new()
        .links_bytes(text)
        .map(|l| (l.start(), l.end()))
        .collect()
}

/// The link texts of `text`, lossily decoded (links themselves are always valid UTF-8).
fn link_texts(text: &[u8]) -> Vec<String> {
    links(text)
        .into_iter()
        .map(|(s, e)| String::from_utf8(text[s..e].to_vec()).expect("links are UTF-8"))
        .collect()
}

const SAMPLE: &str = "Mail x.y@example.com, see https://example.com/wiki/A_(b)?q=1#f \
                      or ουτοπία.δπθ.gr/α. (example.org)";

#[test]
fn invalid_bytes_anywhere_act_as_hard_characters() {
    let sample = SAMPLE.as_bytes();
    let bad: &[&[u8]] = &[
        b"\x80",
        b"\xBF",
        b"\xC0",
        b"\xC1",
        b"\xC3",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xF5",
        b"\xFE",
        b"\xFF",
    ];
    let boundaries: Vec<usize> = (0..=sample.len())
        .filter(|&i| SAMPLE.is_char_boundary(i))
        .collect();
    for &b in bad {
        for &at in &boundaries {
            let mut text = sample[..at].to_vec();
            text.extend_from_slice(b);
            text.extend_from_slice(&sample[at..]);
            // The oracle (spec text, one Hard unit per invalid sequence) is the reference.
            let found = links(&text);
            for &(s, e) in &found {
                assert!(
                    e <= at || s >= at + b.len(),
                    "a link spans the invalid bytes {b:?} at {at}"
                );
            }
        }
    }
}

#[test]
fn a_text_of_only_invalid_bytes_or_only_nul_has_no_links() {
    let all: Vec<u8> = (0x80..=0xFF).cycle().take(1 << 16).collect();
    assert!(links(&all).is_empty());
    assert!(links(&[0u8; 1 << 16]).is_empty());
    assert!(links(b"").is_empty());
}

#[test]
fn nul_bytes_end_links() {
    assert_eq!(
        link_texts(b"\0example.com\0/path\0x@example.org\0"),
        ["example.com", "x@example.org"]
    );
    assert_eq!(
        link_texts(b"example.com/a\0b https://exa\0mple.com"),
        ["example.com/a", "mple.com"]
    );
}

#[test]
fn surrogates_encoded_as_utf8_are_invalid() {
    // CESU-8 / WTF-8: U+D800 as ED A0 80, U+DC00 as ED B0 80, and a pair for U+1F600.
    for surrogate in [
        &b"\xED\xA0\x80"[..],
        b"\xED\xB0\x80",
        b"\xED\xA0\xBD\xED\xB8\x80",
    ] {
        let mut text = b"example.com/a".to_vec();
        text.extend_from_slice(surrogate);
        text.extend_from_slice(b"b and ex");
        text.extend_from_slice(surrogate);
        text.extend_from_slice(b"ample.org");
        assert_eq!(link_texts(&text), ["example.com/a", "ample.org"]);
    }
}

#[test]
fn overlong_encodings_are_not_read_as_what_they_spell() {
    // `.`, `/`, `@` and `:` in two- and three-byte overlong forms.
    assert!(links(b"example\xC0\xAEcom").is_empty());
    assert!(links(b"example\xE0\x80\xAEcom").is_empty());
    assert_eq!(link_texts(b"example.com\xC0\xAFpath"), ["example.com"]);
    assert_eq!(link_texts(b"x\xC1\x80example.com"), ["example.com"]);
    assert_eq!(link_texts(b"example.com\xC0\xBA80/x"), ["example.com"]);
    assert_eq!(link_texts(b"https\xC0\xBA//example.com"), ["example.com"]);
}

#[test]
fn byte_order_marks() {
    // A UTF-8 BOM before a link, inside one, and UTF-16 text (which holds no links).
    assert_eq!(link_texts(b"\xEF\xBB\xBFexample.com"), ["example.com"]);
    assert_eq!(links(b"\xEF\xBB\xBFexample.com"), [(3, 14)]);
    assert_eq!(
        link_texts("example.com/a\u{FEFF}b".as_bytes()),
        ["example.com/a\u{FEFF}b"]
    );
    let utf16: Vec<u8> = "\u{FEFF}see example.com"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert!(links(&utf16).is_empty());
    let mut out = Vec::new();
    Linkifier::new().write_html(&utf16, &mut out).unwrap();
    assert!(String::from_utf8(out).is_ok());
}

#[test]
fn cr_only_line_ends_separate_links() {
    let text = b"example.com\rx@example.org\rhttps://a.example.com/p?q=(1)\r\r(example.net)\r";
    assert_eq!(
        link_texts(text),
        [
            "example.com",
            "x@example.org",
            "https://a.example.com/p?q=(1)",
            "example.net"
        ]
    );
}

#[test]
fn control_and_format_characters_around_links() {
    for c in [
        '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}', '\u{1B}', '\u{7F}',
    ] {
        let text = format!("{c}example.com/a{c}b{c}");
        assert_eq!(link_texts(text.as_bytes()), ["example.com/a"], "{c:?}");
    }
}

/// Inputs that fuzzing found, each kept as a regression test.
mod fuzz_regressions {
    use super::*;

    /// `escape_detect`, first run: a path with more than 125 `{` and a `>` among them.
    /// Formatting pops the stack at the unmatched `>` and writes one more `{` literally
    /// than detection's full stack then accepts, so the detected link ends early — the
    /// bracket gap of section 4.1 (see `linkscan::format`), which the property must
    /// recognise rather than report.
    const BRACKET_LIMIT_GAP: &[u8] = b"httpr\x94s_/\x9Fam{{{{{{{{{{{{{{{{{{{{{{{am{{{{{{{{{{{{{{{{\
{{{{{{{{{{{{{{{{{{{{{{{{{{\x01\x00\x00\x00\x00\x00\x00>{{{{{{{{{{\x8A{{{{{{{{{{{{{m{{{{{{{{{{{{{{{{{\
{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{ple.chttpr\x94s_\xC3/\x9F\
ample%i.pedia\xEF\xBF";

    #[test]
    fn bracket_limit_after_an_unmatched_close() {
        let text = String::from_utf8_lossy(BRACKET_LIMIT_GAP);
        for secure in [false, true] {
            let case = properties::url_case_from_text(&text, secure).expect("decodes");
            assert!(properties::hits_bracket_gap(&case.parts));
            properties::escaped_url_is_detected(&case).unwrap();
            properties::escaped_url_decodes_to_parts(&case).unwrap();
        }
        // The gap itself, reduced: 125 `{`, an unmatched `>`, one more `{`.
        let segment = format!("{}>{{", "{".repeat(125));
        let parts = linkscan::format::UrlParts::new("example.com").with_segment(segment);
        let form = linkscan::escape_url_parts(&parts);
        assert_eq!(form, format!("example.com/{}%3E{{", "{".repeat(125)));
        let detected: Vec<_> = LinkFinder::new().links(&form).map(|l| l.end()).collect();
        assert_eq!(
            detected,
            [form.len() - 1],
            "detection stops at the 126th `{{`"
        );
        assert!(properties::hits_bracket_gap(&parts));
    }
}
