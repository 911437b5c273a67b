//! The package's unit tests that need its private parts: the scanner's reference
//! configuration ([`MailScanner::parse_all_headers`](crate::MailScanner::parse_all_headers),
//! which parses as `mail-parser`'s defaults do, and
//! [`MailScanner::takes_flat_path`](crate::MailScanner::takes_flat_path)), and the buffer
//! splitter. The other tests are the package's integration tests (`tests/it`).
//!
//! * `paths`: the fast paths of the scan give the reference's results, on both corpora,
//!   on generated messages and on the fuzzer's finds.
//! * `flowed`: flowed text on both paths, and the corpus's lines broken by soft breaks.
//! * `attachment_sizes`: the size of the parts not shown, alike on both paths, and on the
//!   archive's pages.
//! * `splitter`: the buffer splitter gives the line reader's messages.
//! * `data`: their inputs; `common`: the engine's test helpers (where the shared data is,
//!   a random generator), included by their path.

#[path = "../../../../tests/it/common/mod.rs"]
mod common;

mod attachment_sizes;
mod data;
mod flowed;
mod paths;
mod splitter;
