//! The fast finder equals the oracle on the real corpora, link for link.
//!
//! A link never contains a Hard character, so a text can be cut at newlines and each
//! piece scanned alone; the test checks that too (whole-file scan == piecewise scan) and
//! compares each piece with the oracle, which keeps the oracle's memory small. The `&str`
//! entry point gives the same links on the corpus as text, each bound to it.

use crate::common;

use linkscan::{oracle, Link, LinkFinder, TldPolicy};

/// Pieces of about `size` bytes, cut just after a newline.
fn pieces(bytes: &[u8], size: usize) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let mut end = (start + size).min(bytes.len());
        while end < bytes.len() && bytes[end - 1] != b'\n' {
            end += 1;
        }
        out.push((start, &bytes[start..end]));
        start = end;
    }
    out
}

fn check_corpus(name: &str) {
    let path = common::shared().join("corpus").join(name);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => panic!("cannot read corpus {}: {e}", path.display()),
    };
    let finder = LinkFinder::new();
    let whole: Vec<Link> = finder.links_bytes(&bytes).collect();
    assert!(whole.len() > 1000, "{name}: only {} links", whole.len());
    let mut piecewise = Vec::new();
    for (offset, piece) in pieces(&bytes, 1 << 20) {
        let fast: Vec<Link> = finder.links_bytes(piece).collect();
        let reference = oracle::find_links(piece, &TldPolicy::Iana);
        if fast != reference {
            let first = fast.iter().zip(&reference).position(|(a, b)| a != b);
            panic!(
                "{name}: finder and oracle differ in the piece at byte {offset}: \
                 {} vs {} links, first difference at index {first:?}: {:?} vs {:?}",
                fast.len(),
                reference.len(),
                first.map(|i| &fast[i]),
                first.map(|i| &reference[i]),
            );
        }
        piecewise.extend(
            fast.into_iter()
                .map(|l| (l.start() + offset, l.end() + offset, l.kind())),
        );
    }
    let whole: Vec<_> = whole
        .iter()
        .map(|l| (l.start(), l.end(), l.kind()))
        .collect();
    assert_eq!(
        whole, piecewise,
        "{name}: whole-file scan differs from piecewise scan"
    );
    matches_are_bound_to_the_text(name, &String::from_utf8_lossy(&bytes));
}

/// `links(&str)` on the whole corpus: the links of `links_bytes`, and each match's
/// `as_str()` is `&text[range()]`.
fn matches_are_bound_to_the_text(name: &str, text: &str) {
    let finder = LinkFinder::new();
    let mut links = finder.links_bytes(text.as_bytes());
    let mut count = 0;
    for m in finder.links(text) {
        assert_eq!(
            Some(m.link()),
            links.next(),
            "{name}: match {count} differs"
        );
        assert_eq!(m.as_str(), &text[m.range()], "{name}: match {count}");
        count += 1;
    }
    assert_eq!(links.next(), None, "{name}: links_bytes found more");
    assert!(count > 1000, "{name}: only {count} matches");
}

#[test]
fn email_en_mbox_matches_oracle() {
    check_corpus("email-en.mbox");
}

#[test]
fn email_intl_matches_oracle() {
    check_corpus("email-intl.txt");
}
