//! Mail archives: any bytes read as one raw message, as an mbox archive (plain, or gzip
//! when they start with its magic bytes) and as an HTML part must not panic or hang, and
//! the links found must be text of their parts. The property is shared with the proptest
//! suite: `tests/common/properties.rs` (`mail_no_panic`).
//!
//! A panic raised inside the MIME parser (mail-parser) is not a finding by itself:
//! `MailScanner` catches it, warns and scans the message's raw bytes, and the property
//! checks what comes out. (libFuzzer's panic hook would abort on it even though it is
//! caught; the hook installed here lets exactly those through. Any other panic, or one
//! that escapes linkscan, still aborts.) Found this way: an assertion of mail-parser
//! 0.11.9 that fires in builds with debug assertions, kept as
//! `mime_parser_panic_is_contained` in `tests/hostile.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/properties.rs"]
mod properties;

fuzz_target!(
    init: {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_parser = info
                .location()
                .is_some_and(|at| at.file().contains("/mail-parser-"));
            if !in_parser {
                abort(info);
            }
        }));
    },
    |data: &[u8]| {
        if let Err(e) = properties::mail_no_panic(data) {
            panic!("{e}");
        }
    }
);
