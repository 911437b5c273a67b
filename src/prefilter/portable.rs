//! The portable kernel: one byte at a time, the definition the vector kernels are tested
//! against.

/// Bit `i`: a Dot (`.` or the first byte of `。`) starts at `at + i`.
pub(crate) fn block_mask(text: &[u8], at: usize) -> u64 {
    let end = text.len().min(at + super::BLOCK);
    let mut mask = 0u64;
    for (i, &b) in text[at..end].iter().enumerate() {
        let hit = b == b'.'
            || (b == 0xE3
                && text.get(at + i + 1) == Some(&0x80)
                && text.get(at + i + 2) == Some(&0x82));
        mask |= (hit as u64) << i;
    }
    mask
}

/// The first position at or after `i` whose byte is not plain (`text.len()` if none).
#[inline]
pub(crate) fn skip_plain(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && super::PLAIN[text[i] as usize] {
        i += 1;
    }
    i
}
