//! The promise of UTS #58 section 4, and that formatting loses nothing.
//!
//! The input is read as a URL (then optionally a line of text to put before it and the
//! text to put after it); the URL is split into parts and decoded, its host made valid
//! (`properties::url_case_from_text`). The parts are formatted with minimal escaping,
//! with and without Bidi_Control escaping, and then:
//!
//! * placed between spaces in the surrounding text, the escaped form is detected as
//!   exactly one link that covers exactly it;
//! * decoding the escaped form gives back the parts.
//!
//! Seeds: the URLs of the formatting test files (`fuzz/seed-corpus.sh`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/common/properties.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for secure in [false, true] {
        let Some(case) = properties::url_case_from_text(&text, secure) else {
            return;
        };
        if let Err(e) = properties::escaped_url_is_detected(&case) {
            panic!("{e}");
        }
        if let Err(e) = properties::escaped_url_decodes_to_parts(&case) {
            panic!("{e}");
        }
    }
});
