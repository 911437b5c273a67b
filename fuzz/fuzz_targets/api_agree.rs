//! The entry points of detection agree on arbitrary bytes: `&str` and `&[u8]`, the kind
//! filters, the checked iterator, and termination alone against the oracle's; links are
//! ordered, disjoint and on character boundaries. The property is shared with the
//! proptest suite: `tests/common/properties.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/properties.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = properties::entry_points_agree(data) {
        panic!("{e}");
    }
});
