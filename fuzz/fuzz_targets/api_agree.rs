//! The entry points of detection agree on arbitrary bytes: `&str` and `&[u8]`, parallel
//! and sequential (`par_links`), streaming (`scan_reader`), the kind filters, the length
//! limit, the checked iterator, and termination alone against the oracle's; links are
//! ordered, disjoint and on character boundaries. The input is also repeated past 2 MiB so
//! that the parallel and streaming scans cut it into pieces. The property is shared with the
//! proptest suite: `tests/common/properties.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/properties.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = properties::entry_points_agree(data) {
        panic!("{e}");
    }
    if let Err(e) = properties::split_scans_agree(data) {
        panic!("{e}");
    }
});
