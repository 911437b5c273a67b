//! Redaction keeps every byte outside a link: the redacted text, with each link put back
//! where its replacement is, is the input again, and the links taken out are those the
//! finder reports. Over the conformance file's lines, random mixes of them with text of
//! many scripts, the mail corpus, and bytes that are not UTF-8; for every kind and policy.

use std::borrow::Cow;

use linkscan::{Link, LinkFinder, Policy};

use crate::common;
use crate::common::rng::Rng;

/// The replacement of every link: a private-use character the texts never hold.
const MARKER: char = '\u{F8FF}';

/// Finders for each kind and policy.
fn finders() -> Vec<LinkFinder> {
    let mut finders = Vec::new();
    for policy in [Policy::Conformant, Policy::Readable] {
        for (urls, emails) in [(true, true), (true, false), (false, true)] {
            finders.push(
                LinkFinder::builder()
                    .urls(urls)
                    .emails(emails)
                    .policy(policy)
                    .build(),
            );
        }
    }
    finders
}

/// Checks both forms of redaction of `text` by `finder`: rebuilt from the output and the
/// links taken out, it is `text`; those links are `finder.links(text)`.
fn check(finder: &LinkFinder, text: &str) {
    assert!(!text.contains(MARKER));
    let mut removed: Vec<(usize, usize, String)> = Vec::new();
    let redacted = finder.redact(text, |m, out| {
        removed.push((m.start(), m.end(), m.as_str().to_string()));
        out.push(MARKER);
    });
    let expected: Vec<(usize, usize, String)> = finder
        .links(text)
        .map(|m| (m.start(), m.end(), m.as_str().to_string()))
        .collect();
    assert_eq!(removed, expected, "links of {text:?}");
    if expected.is_empty() {
        assert!(matches!(redacted, Cow::Borrowed(_)), "{text:?}");
    }
    let gaps: Vec<&str> = redacted.split(MARKER).collect();
    assert_eq!(gaps.len(), removed.len() + 1, "{text:?}");
    let mut rebuilt = String::with_capacity(text.len());
    for (i, gap) in gaps.iter().enumerate() {
        rebuilt.push_str(gap);
        if let Some((_, _, link)) = removed.get(i) {
            rebuilt.push_str(link);
        }
    }
    assert_eq!(rebuilt, text);
    check_bytes(finder, text.as_bytes());
}

/// The bytes form: the same property, over text that need not be UTF-8.
fn check_bytes(finder: &LinkFinder, text: &[u8]) {
    let marker = MARKER.to_string();
    let mut removed: Vec<(Link, Vec<u8>)> = Vec::new();
    let mut out = Vec::new();
    let n = finder
        .redact_to(text, &mut out, |link, bytes, out| {
            removed.push((*link, bytes.to_vec()));
            out.extend_from_slice(marker.as_bytes());
        })
        .unwrap();
    assert_eq!(n, removed.len());
    let links: Vec<Link> = finder.links_bytes(text).collect();
    assert_eq!(removed.iter().map(|(l, _)| *l).collect::<Vec<_>>(), links);
    let mut rebuilt = Vec::with_capacity(text.len());
    let mut rest = &out[..];
    for (link, bytes) in &removed {
        assert_eq!(&text[link.range()], &bytes[..]);
        let at = memchr::memmem::find(rest, marker.as_bytes()).expect("a marker per link");
        rebuilt.extend_from_slice(&rest[..at]);
        rebuilt.extend_from_slice(bytes);
        rest = &rest[at + marker.len()..];
    }
    assert!(memchr::memmem::find(rest, marker.as_bytes()).is_none());
    rebuilt.extend_from_slice(rest);
    assert_eq!(rebuilt, text);
}

/// The inputs of the conformance file.
fn conformance_inputs() -> Vec<String> {
    let file = common::read(common::unicode("17.0.0").join("LinkDetectionTest.txt"));
    linkscan::conformance::parse_detection_tests(&file)
        .into_iter()
        .map(|case| case.input.replace(MARKER, ""))
        .collect()
}

/// Text between links, in many scripts, with the characters links end at.
const FILLERS: &[&str] = &[
    " ",
    "\n",
    "\r\n",
    "\t",
    ", ",
    ". ",
    "(",
    ")",
    "「",
    "」",
    "。",
    "、",
    " и ",
    " والموقع ",
    " אתר ",
    " 東京都 ",
    "σωκράτης ",
    " हिन्दी ",
    " ภาษาไทย ",
    " 한국어 ",
    "\u{200B}",
    "\u{202E}",
    "@",
    ".",
    "/",
    ":",
    "mailto:",
    "https://",
    "",
];

#[test]
fn redaction_rebuilds_each_conformance_line() {
    let inputs = conformance_inputs();
    assert!(inputs.len() > 100);
    for finder in finders() {
        for input in &inputs {
            check(&finder, input);
        }
        check(&finder, &inputs.join("\n"));
    }
}

#[test]
fn redaction_rebuilds_random_mixes_in_many_scripts() {
    let inputs = conformance_inputs();
    let finders = finders();
    let mut rng = Rng::new(0x5EDA_C7ED_0047);
    for round in 0..600 {
        let mut text = String::new();
        for _ in 0..rng.below(12) {
            if rng.below(2) == 0 {
                text.push_str(rng.pick(&inputs).as_str());
            } else {
                let filler: &&str = rng.pick(FILLERS);
                text.push_str(filler);
            }
        }
        check(&finders[round % finders.len()], &text);
    }
}

#[test]
fn redaction_keeps_bytes_that_are_not_utf8() {
    let inputs = conformance_inputs();
    let finders = finders();
    let mut rng = Rng::new(0xB17E_5000_0047);
    for round in 0..300 {
        let mut text: Vec<u8> = Vec::new();
        for _ in 0..rng.below(10) {
            match rng.below(3) {
                0 => text.extend_from_slice(rng.pick(&inputs).as_bytes()),
                1 => text.extend_from_slice(rng.pick(FILLERS).as_bytes()),
                _ => text.push(*rng.pick(&[0xFF, 0xFE, 0x80, 0xC3, 0xE4, 0x00])),
            }
        }
        check_bytes(&finders[round % finders.len()], &text);
    }
}

#[test]
fn redaction_rebuilds_the_mail_corpus() {
    let corpus = common::read(common::shared().join("corpus").join("email-intl.txt"));
    let corpus = corpus.replace(MARKER, "");
    // Three slices at character boundaries, to keep a debug run short.
    let len = corpus.len();
    for (i, finder) in finders().iter().enumerate() {
        let mut start = (len / 7) * (i % 6);
        while !corpus.is_char_boundary(start) {
            start += 1;
        }
        let mut end = (start + 300_000).min(len);
        while !corpus.is_char_boundary(end) {
            end += 1;
        }
        check(finder, &corpus[start..end]);
    }
}

#[test]
fn a_text_without_links_is_borrowed() {
    let finder = LinkFinder::new();
    for text in ["", "no link here", "東京都 σωκράτης", "x@y", "a.b"] {
        let redacted = finder.redact(text, |_, out| out.push_str("<LINK>"));
        assert!(
            matches!(redacted, Cow::Borrowed(t) if t == text),
            "{text:?}"
        );
    }
    let mut out = Vec::new();
    let n = finder
        .redact_to(b"no \xFF link", &mut out, |_, _, _| {})
        .unwrap();
    assert_eq!((n, &out[..]), (0, &b"no \xFF link"[..]));
}

#[test]
fn a_replacement_cannot_touch_the_text_before_it() {
    let finder = LinkFinder::new();
    let redacted = finder.redact("a example.com b x@example.org c", |m, out| {
        assert!(out.is_empty());
        out.push_str(m.kind().as_str());
    });
    assert_eq!(redacted, "a url b email c");
}
