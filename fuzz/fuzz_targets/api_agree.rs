//! The entry points of detection agree on arbitrary bytes: `&str` and `&[u8]`, parallel
//! and sequential (`par_links`), streaming (`scan_reader`), the kind filters, the length
//! limit, the checked iterator, and termination alone against the oracle's; links are
//! ordered, disjoint and on character boundaries. (Inputs this small are scanned in one
//! piece by the parallel and streaming scans; `split_scans` cuts them into pieces.) The property is shared with the
//! proptest suite: `tests/it/common/properties.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/common/properties.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = properties::entry_points_agree(data) {
        panic!("{e}");
    }
});
