//! No public entry point panics or hangs on any input: the finder under every TLD policy,
//! the security checks, termination, formatting from a string, from parts and of one
//! part, email quoting, host display, the display module (bidi isolation, fields,
//! spoofing), HTML linkification, TLD list parsing and the conformance file parsers. Run with `-timeout` so that a hang is reported.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/common/properties.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(properties::no_panic(data));
});
