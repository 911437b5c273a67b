//! The portable kernel: one byte at a time, the definition the vector kernels are tested
//! against.

use super::{is_ascii_host, Classes};

/// The classes of the bytes `at..at + 64` (fewer at the end of the text); the host
/// classes only with `hosts`.
pub(crate) fn classes(text: &[u8], at: usize, hosts: bool) -> Classes {
    let end = text.len().min(at + super::BLOCK);
    let mut c = Classes::default();
    for (i, &b) in text[at..end].iter().enumerate() {
        let ideographic =
            b == 0xE3 && text.get(at + i + 1) == Some(&0x80) && text.get(at + i + 2) == Some(&0x82);
        c.dot |= ((b == b'.') as u64) << i;
        c.ideographic |= (ideographic as u64) << i;
        c.host |= ((hosts && is_ascii_host(b)) as u64) << i;
        c.non_ascii |= ((hosts && b >= 0x80) as u64) << i;
    }
    c
}

/// The first position at or after `i` whose byte is not plain (`text.len()` if none).
#[inline]
pub(crate) fn skip_plain(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && super::PLAIN[text[i] as usize] {
        i += 1;
    }
    i
}

/// The run of simple bytes at `i` (see `Kernel::skip_simple`); `included` is the end of
/// the last Include byte before `i` in the same run, or 0.
#[inline]
pub(crate) fn skip_simple(text: &[u8], mut i: usize, mut included: usize) -> (usize, usize) {
    while i < text.len() && super::SIMPLE[text[i] as usize] {
        i += 1;
        if super::SIMPLE_INCLUDE[text[i - 1] as usize] {
            included = i;
        }
    }
    (i, included)
}
