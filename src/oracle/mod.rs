//! A slow, spec-literal reference implementation: the oracle the fast engine is tested
//! against.
//!
//! Everything here works on a vector of code points with plain indices and follows the
//! text of the specification step by step, with no memoisation and no shortcuts, so it
//! can be read side by side with UTS #58 sections 3.5.1, 4.1 and 5.2 and with
//! `initiation.md`. It may be quadratic; it is meant for tests, fuzzing and benchmarks'
//! sanity checks, not for production scanning.

mod detect;
mod format;

pub use detect::{find_links, terminate};
pub use format::{format_url_parts, minimal_escape, Part};

/// The code points of `text` with their byte offsets. Every maximal invalid UTF-8
/// sequence becomes one [`INVALID`] unit, which has the properties of a Hard character.
pub(crate) struct CodePoints {
    /// `cp[i]`: the i-th code point (or [`INVALID`]).
    pub cp: Vec<u32>,
    /// `offset[i]`: the byte offset of `cp[i]`; `offset[cp.len()]` is the text length.
    pub offset: Vec<usize>,
}

/// The unit that stands for an invalid UTF-8 sequence.
pub const INVALID: u32 = crate::utf8::INVALID;

impl CodePoints {
    pub(crate) fn new(text: &[u8]) -> CodePoints {
        let mut cp = Vec::new();
        let mut offset = Vec::new();
        let mut at = 0;
        for chunk in text.utf8_chunks() {
            for (i, c) in chunk.valid().char_indices() {
                cp.push(c as u32);
                offset.push(at + i);
            }
            at += chunk.valid().len();
            if !chunk.invalid().is_empty() {
                cp.push(INVALID);
                offset.push(at);
                at += chunk.invalid().len();
            }
        }
        offset.push(at);
        CodePoints { cp, offset }
    }
}
