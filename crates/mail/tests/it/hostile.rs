//! Hostile messages that fuzzing found (`mail_no_panic`), kept as regression tests.

use crate::properties;

/// `mail_no_panic`: a mangled forward (mutated from `sample.mbox`) whose nested multipart
/// loses its boundary. mail-parser 0.11.9 reaches `debug_assert!(false, "Invalid part ID,
/// could not find multipart.")` on it, so its parse panics in builds with debug assertions
/// (the fuzzer's, and `cargo test`'s); `MailScanner` contains the panic, says so in a warning
/// and scans the raw bytes, so neither the message nor its links are lost (the package's
/// unit tests check the parser's own parse). The scan's own general parse is that loop
/// without the assertion: it reads the message in every build as a release build of the
/// parser does.
#[test]
fn mime_parser_panic_is_contained() {
    use linkscan_mail::{MailScanner, MailWarning};
    let raw: &[u8] = include_bytes!("../data/mail/fuzz-multipart-part-id.eml");
    properties::mail_no_panic(raw).unwrap();
    let links = |scanned: &linkscan_mail::ScannedMessage| -> Vec<String> {
        scanned
            .parts()
            .iter()
            .flat_map(|part| part.links().iter().map(|link| link.text().to_string()))
            .collect()
    };
    let failed = |scanned: &linkscan_mail::ScannedMessage| {
        scanned
            .warnings()
            .iter()
            .any(|w| matches!(w, MailWarning::ParserFailed { .. }))
    };
    let scanned = MailScanner::new().scan(raw);
    let found = links(&scanned);
    assert!(
        found.contains(&"https://orig.example.com".into()),
        "{found:?}"
    );
    assert!(!failed(&scanned), "{:?}", scanned.warnings());
}

/// `mail_no_panic`, second find: a mangled forward on which mail-parser lists parts of a
/// multipart more than once. Walked as a tree, the part graph took time exponential in
/// its depth (the fuzzer's 10-second timeout); each part is now read once, with a warning.
#[test]
fn repeated_mime_parts_are_read_once() {
    use linkscan_mail::{open_mbox, MailScanner, MailWarning, MboxReader};
    let raw: &[u8] = include_bytes!("../data/mail/fuzz-multipart-repeated-parts.eml");
    properties::mail_no_panic(raw).unwrap();
    // As the property reads it: as an mbox archive, each message scanned.
    let scanner = MailScanner::new();
    let mut warnings = Vec::new();
    let mut messages = 0;
    for message in MboxReader::new(open_mbox(raw).expect("an archive")) {
        let scanned = scanner.scan(message.expect("readable").bytes());
        messages += 1;
        // Nothing was read twice: no two parts share a path, and far fewer parts than
        // the input has lines.
        let mut paths: Vec<&str> = scanned.parts().iter().map(|p| p.path()).collect();
        let count = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), count, "a path read twice");
        assert!(count < 200, "{count} parts read");
        warnings.extend(scanned.warnings().iter().cloned());
    }
    assert!(messages > 0);
    if !cfg!(debug_assertions) {
        // (With debug assertions the parser's own assertion may fire first; see above.)
        assert!(
            warnings
                .iter()
                .any(|w| matches!(w, MailWarning::DuplicatePart { .. })),
            "{warnings:?}"
        );
    }
}
