//! The fast finder agrees with the spec-literal oracle on arbitrary bytes, for every TLD
//! policy (IANA, syntactic, a list of the user's own): every link, with the same offsets,
//! kinds and schemes. The property is shared with the proptest suite:
//! `tests/it/common/properties.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/common/properties.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = properties::finder_matches_oracle(data) {
        panic!("{e}");
    }
});
