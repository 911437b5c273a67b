//! Parallel and streaming scans cut a text into pieces and must find exactly the links of
//! one sequential scan. The input is repeated past 2 MiB, so that `par_links` cuts it into
//! pieces on the rayon pool and `scan_reader` streams it through a 64 KiB buffer; both are
//! compared with `links_bytes`. Slow per input (megabytes each), so it has a target of its
//! own. The property is shared with the proptest suite: `tests/it/common/properties.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/common/properties.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = properties::split_scans_agree(data) {
        panic!("{e}");
    }
});
