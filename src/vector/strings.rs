//! The end of a run of a JSON string's plain text, for the records reader of the
//! command-line package (`records/scan.rs` there), which reads a record's string values
//! to find their closing quote.
//!
//! A run ends at the first `"`, `\` or control character (a byte below 0x20, which a JSON
//! string may not hold): the closing quote, an escape, or an error. [`run_end`] tests a
//! vector of bytes at a time: equal to `"`, equal to `\`, and below 0x20 as an unsigned
//! byte (above -1 and below 0x20 as a signed one, the lanes of the trait's signed
//! compare); [`run_end_scalar`] is the definition, used by the portable kernel and for
//! the last bytes of a text.
//!
//! Invariants: a vector is loaded at `i` only when `i + BYTES <= text.len()`; every
//! kernel returns what [`run_end_scalar`] returns, for every text and every start, one
//! past the end included (the tests below compare them at every offset).

use super::simd::{first_stop, Vector};

/// The first `"`, `\` or byte below 0x20 at or after `at`, or `text.len()`.
pub(crate) fn run_end_scalar(text: &[u8], at: usize) -> usize {
    text[at.min(text.len())..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map_or(text.len(), |i| at + i)
}

/// [`run_end_scalar`], a vector at a time.
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn run_end<V: Vector>(text: &[u8], at: usize) -> usize {
    // SAFETY: the CPU has `V`'s instruction set (the caller's promise), and the lanes
    // marked are the bytes `run_end_scalar` stops at.
    unsafe {
        let (quote, backslash) = (V::splat(b'"'), V::splat(b'\\'));
        // Signed: a byte is below 0x20 unsigned when it is above -1 and below 0x20.
        let (space, minus_one) = (V::splat(0x20), V::splat(0xFF));
        let stops = |v: V| {
            let control = space.gt(v).and(v.gt(minus_one));
            v.eq(quote).or(v.eq(backslash)).or(control)
        };
        first_stop(text, at, stops, run_end_scalar)
    }
}

#[cfg(test)]
mod tests {
    use super::run_end_scalar;
    use crate::vector::rng::Rng;
    use crate::vector::Kernel;

    /// Every kernel agrees with the definition at every start, on texts of every length
    /// around the vectors' widths made of plain bytes (ASCII and not) with a few stops
    /// among them, every byte value below 0x20 and the bytes next to the stops' values
    /// (`!`, `#`, `[`, `]`, 0x20, 0x7F, 0x80, 0xFF) included.
    #[test]
    fn every_kernel_finds_the_run_ends_the_definition_finds() {
        let mut texts: Vec<Vec<u8>> = vec![Vec::new(), b"\"".to_vec(), b"abc\\".to_vec()];
        let stops: Vec<u8> = (0u8..0x20).chain(*b"\"\\").collect();
        let near = [b'!', b'#', b'[', b']', 0x20, 0x7F, 0x80, 0xFF, 0xC3, 0xA9];
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for len in [1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 200] {
            for _ in 0..40 {
                let text = (0..len)
                    .map(|_| {
                        let r = (rng.next_u64() >> 32) as usize;
                        match r % 16 {
                            0 => stops[r / 16 % stops.len()],
                            1..=4 => near[r / 16 % near.len()],
                            _ => b'x',
                        }
                    })
                    .collect();
                texts.push(text);
            }
        }
        for kernel in Kernel::available() {
            for text in &texts {
                // Every start, and starts past the end, however far.
                let past = [text.len() + 1, usize::MAX - 3, usize::MAX];
                for at in (0..=text.len()).chain(past) {
                    assert_eq!(
                        kernel.string_run_end(text, at),
                        run_end_scalar(text, at),
                        "{} at {at} of {text:?}",
                        kernel.name()
                    );
                }
            }
        }
    }
}
