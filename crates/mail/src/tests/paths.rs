//! The fast paths of the scan against the reference: the parse of only the header fields
//! the scan reads (`fast`) and the parse of flat messages (`message::flat`) give exactly
//! the results of `mail-parser`'s default configuration and general parse
//! ([`MailScanner::parse_all_headers`]), on every message of both corpora (the
//! multilingual text corpus wrapped as messages in several charsets and transfer
//! encodings), on generated messages, and on the hostile ones the fuzzer found.

use proptest::prelude::*;

use super::data::{corpus, intl_documents, mbox_messages, message, wrap};
use crate::{MailScanner, MailWarning, ScannedMessage};

/// Asserts that both configurations of the scanner give the same result for `raw`.
fn assert_same_scan(fast: &MailScanner, general: &MailScanner, raw: &[u8], what: &str) {
    let a = fast.scan(raw);
    let b = general.scan(raw);
    assert_eq!(a, b, "{what}: the fast path differs");
}

#[test]
fn fast_header_parse_equals_the_general_one_on_every_corpus_message() {
    let fast = MailScanner::new();
    let general = MailScanner::new().parse_all_headers();
    let messages = mbox_messages(&corpus("email-en.mbox"));
    assert!(messages.len() > 6000, "{} messages", messages.len());
    let mut links = 0;
    for m in &messages {
        let scanned = fast.scan(m.bytes());
        links += scanned.link_count();
        assert_eq!(
            scanned,
            general.scan(m.bytes()),
            "message {} differs",
            m.index()
        );
    }
    // The comparison is not vacuous: the corpus has its links, and both paths are taken.
    assert!(links > 20_000, "{links} links");
    let flat = messages
        .iter()
        .filter(|m| fast.takes_flat_path(m.bytes()))
        .count();
    // Every message of this archive is flat (text parts, multiparts of them, signatures,
    // attachments): the general path is exercised by the generated messages below.
    assert_eq!(
        flat,
        messages.len(),
        "messages that took the path of flat messages"
    );
}

#[test]
fn fast_header_parse_equals_the_general_one_on_the_multilingual_corpus_as_messages() {
    let fast = MailScanner::new();
    let general = MailScanner::new().parse_all_headers();
    let docs = intl_documents();
    assert!(docs.len() > 2000, "{} documents", docs.len());
    let mut links = 0;
    for (i, doc) in docs.iter().enumerate() {
        let raw = wrap(i, doc);
        links += fast.scan(&raw).link_count();
        assert_same_scan(&fast, &general, &raw, &format!("document {i}"));
        // All six wrappings are flat: one text part (8bit, quoted-printable, base64,
        // Latin-1, HTML), or a multipart/alternative of two.
        assert!(fast.takes_flat_path(&raw), "document {i}: the path taken");
    }
    assert!(links > 10_000, "{links} links");
}

/// The generated messages exercise both paths, and the path of flat messages on
/// multiparts: the property below is not vacuous.
#[test]
fn generated_messages_take_both_paths() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let scanner = MailScanner::new();
    let (mut general, mut flat_multipart, mut flat_single) = (0, 0, 0);
    for _ in 0..4000 {
        let raw = message().new_tree(&mut runner).unwrap().current();
        if !scanner.takes_flat_path(&raw) {
            general += 1;
        } else if String::from_utf8_lossy(&raw).contains("Content-Type: multipart/") {
            flat_multipart += 1;
        } else {
            flat_single += 1;
        }
    }
    for (what, n) in [
        ("the general path", general),
        ("the flat path as a multipart", flat_multipart),
        ("the flat path as one part", flat_single),
    ] {
        assert!(n > 200, "{n} of 4000 generated messages took {what}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn fast_path_equals_the_general_path_on_generated_messages(raw in message()) {
        let fast = MailScanner::new();
        let general = MailScanner::new().parse_all_headers();
        prop_assert_eq!(fast.scan(&raw), general.scan(&raw));
    }
}

/// A mangled forward (mutated from `sample.mbox` by the fuzzer) whose nested multipart
/// loses its boundary: mail-parser 0.11.9 reaches `debug_assert!(false, "Invalid part ID,
/// could not find multipart.")` on it, so its own parse panics in builds with debug
/// assertions (the fuzzer's, and `cargo test`'s). The reference contains the panic, says so
/// in a warning and scans the raw bytes; the scan's own general parse is that loop without
/// the assertion, and reads the message in every build as a release build of the parser
/// does (`tests/it/hostile.rs`).
#[test]
fn the_reference_contains_the_parser_panic() {
    let raw: &[u8] = include_bytes!("../../tests/data/mail/fuzz-multipart-part-id.eml");
    let links = |scanned: &ScannedMessage| -> Vec<String> {
        scanned
            .parts()
            .iter()
            .flat_map(|part| part.links().iter().map(|link| link.text().to_string()))
            .collect()
    };
    let failed = |scanned: &ScannedMessage| {
        scanned
            .warnings()
            .iter()
            .any(|w| matches!(w, MailWarning::ParserFailed { .. }))
    };
    let scanned = MailScanner::new().scan(raw);
    let reference = MailScanner::new().parse_all_headers().scan(raw);
    let found = links(&reference);
    assert!(
        found.contains(&"https://orig.example.com".into()),
        "{found:?}"
    );
    if cfg!(debug_assertions) {
        // Scanned as raw text: the header lines are text too.
        assert!(failed(&reference), "{:?}", reference.warnings());
        assert!(found.contains(&"orig@example.com".into()), "{found:?}");
    } else {
        assert_eq!(reference, scanned);
    }
}
