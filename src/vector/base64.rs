//! Base64 decoding 32 characters at a time, for mail mode's decoders
//! (`message/base64.rs` of the linkscan-mail package), whose text parts in base64 (HTML
//! newsletters, mail in other scripts) are otherwise decoded at some ten instructions a
//! character.
//!
//! # Algorithm
//!
//! Muła and Lemire's ("Faster Base64 Encoding and Decoding Using AVX2 Instructions",
//! ACM TOMS 2018): each character's high and low nibbles index two 16-byte tables of bit
//! sets whose `and` is empty exactly for the 64 characters of the alphabet (one `vptest`
//! for the block); a third table, indexed by the high nibble (less one for `/`, the only
//! character whose offset differs from the rest of its nibble's), gives the offset that
//! turns each character into its 6-bit value. Two multiply-adds pack the four 6-bit values
//! of each 32-bit lane into 24 bits, a shuffle puts those bytes in order within each half,
//! and a permutation joins the halves: 24 bytes for 32 characters.
//!
//! [`blocks`] decodes blocks while every character of the next 32 is in the alphabet and
//! stops at the first block that holds anything else (a line break, `=`, the end): the
//! caller decodes the rest with its own scalar loop. Kernels without the byte shuffle
//! (SSE2, portable) decode no block, and NEON none yet: their callers' scalar loop does
//! all, with the same result.
//!
//! Invariants: a block is loaded at `i` only when `i + 32 <= input.len()`; the characters
//! consumed are a multiple of 32, all in the alphabet, and decoded exactly as the
//! standard decodes them (the tests check every byte value in every lane).

/// Decodes the blocks of 32 base64 alphabet characters at the start of `input` onto `out`
/// (AVX2); returns how many characters they were (a multiple of 32).
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn blocks(input: &[u8], out: &mut Vec<u8>) -> usize {
    use core::arch::x86_64::*;

    let mut i = 0;
    // SAFETY: the CPU has AVX2 (the caller's promise); every load reads the 32 bytes at
    // `i`, inside `input` (`i + 32 <= input.len()`), and every store writes the 32 bytes
    // of `block`.
    unsafe {
        let twice = |t: [i8; 16]| {
            _mm256_setr_epi8(
                t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12],
                t[13], t[14], t[15], t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9],
                t[10], t[11], t[12], t[13], t[14], t[15],
            )
        };
        // Bit sets by low and by high nibble: their `and` is empty exactly for
        // `A-Z a-z 0-9 + /`.
        let by_low = twice([
            0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B,
            0x1B, 0x1A,
        ]);
        let by_high = twice([
            0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
            0x10, 0x10,
        ]);
        // Offsets by high nibble (index 1: `/`, whose nibble, 2, is lowered by one).
        let offsets = twice([0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0]);
        let mask_2f = _mm256_set1_epi8(0x2F);
        let order = twice([2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1]);
        let join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, -1, -1);
        let mut block = [0u8; 32];
        while i + 32 <= input.len() {
            let chars = _mm256_loadu_si256(input.as_ptr().add(i) as *const __m256i);
            // Bits 0-3 of each lane: its high nibble (bit 5 of the next byte rides along;
            // the shuffles ignore it).
            let high = _mm256_and_si256(_mm256_srli_epi32::<4>(chars), mask_2f);
            let low = _mm256_and_si256(chars, mask_2f);
            let bad_low = _mm256_shuffle_epi8(by_low, low);
            let bad_high = _mm256_shuffle_epi8(by_high, high);
            if _mm256_testz_si256(bad_low, bad_high) == 0 {
                break;
            }
            let is_slash = _mm256_cmpeq_epi8(chars, mask_2f);
            let offset = _mm256_shuffle_epi8(offsets, _mm256_add_epi8(is_slash, high));
            let values = _mm256_add_epi8(chars, offset);
            // `a b c d` (6 bits each) → `ab` (12 bits) `cd` → `abcd` (24 bits) per lane.
            let pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x0140_0140));
            let quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x0001_1000));
            let bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(quads, order), join);
            _mm256_storeu_si256(block.as_mut_ptr() as *mut __m256i, bytes);
            out.extend_from_slice(&block[..24]);
            i += 32;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use crate::vector::Kernel;

    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// The standard decoding of whole groups of alphabet characters.
    fn standard(chars: &[u8]) -> Vec<u8> {
        let value = |c: u8| ALPHABET.iter().position(|&a| a == c).unwrap() as u32;
        chars
            .chunks_exact(4)
            .flat_map(|g| {
                let n = g.iter().fold(0, |n, &c| n << 6 | value(c));
                [(n >> 16) as u8, (n >> 8) as u8, n as u8]
            })
            .collect()
    }

    /// Every character in every lane decodes to its value; every other byte value in any
    /// lane stops the block; a stop in a later block keeps the blocks before it.
    #[test]
    fn every_byte_value_in_every_lane() {
        for kernel in Kernel::available() {
            let mut checked = 0;
            for lane in 0..32 {
                for byte in 0..=255u8 {
                    // Two blocks: the second holds `byte` in `lane`, the first is all
                    // alphabet characters, rotated so that each lane sees many.
                    let mut input: Vec<u8> = (0..64)
                        .map(|k| ALPHABET[(k * 7 + lane + byte as usize) % 64])
                        .collect();
                    input[32 + lane] = byte;
                    let mut out = Vec::new();
                    let n = kernel.base64_blocks(&input, &mut out);
                    let valid = ALPHABET.contains(&byte);
                    let expect = match kernel.name() {
                        "avx2" | "avx512" if valid => 64,
                        "avx2" | "avx512" => 32,
                        _ => 0,
                    };
                    assert_eq!(n, expect, "{} byte {byte:#04x} lane {lane}", kernel.name());
                    assert_eq!(
                        out,
                        standard(&input[..n]),
                        "{} byte {byte:#04x}",
                        kernel.name()
                    );
                    checked += n;
                }
            }
            assert!(!matches!(kernel.name(), "avx2" | "avx512") || checked > 100_000);
        }
    }

    #[test]
    fn a_line_is_decoded_up_to_its_last_whole_block() {
        let line = b"TGlua3M6IGh0dHBzOi8vZXhhbXBsZS5jb20vYS9iP2M9ZCBhbmQgbWFpbHRvOnhAZXhhbXBsZS5vcmcu\r\nAA";
        for kernel in Kernel::available() {
            let mut out = Vec::new();
            let n = kernel.base64_blocks(line, &mut out);
            if matches!(kernel.name(), "avx2" | "avx512") {
                assert_eq!(n, 64);
                assert_eq!(out, b"Links: https://example.com/a/b?c=d and mailto:x@");
            } else {
                assert_eq!((n, out.len()), (0, 0));
            }
        }
    }
}
