//! Mail archives: any bytes read as one raw message, as an mbox archive (plain, or gzip
//! when they start with its magic bytes) and as an HTML part must not panic or hang, and
//! the links found must be text of their parts. The property is shared with the proptest
//! suite: `tests/common/properties.rs` (`mail_no_panic`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/properties.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = properties::mail_no_panic(data) {
        panic!("{e}");
    }
});
