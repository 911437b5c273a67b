//! x86_64 kernels: SSE2 (16 bytes per compare) and AVX2 (32 bytes per compare).
//!
//! For each vector `v` at offset `k` of the block, with `v1`, `v2` the same bytes shifted
//! by one and two: `mask = (v == '.') | ((v == E3) & (v1 == 80) & (v2 == 82))`, then
//! `movemask` puts one bit per byte into the block's `u64`.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::{portable, NIBBLE_TABLES, READ_AHEAD};

/// SSE2 block mask. Needs `text.len() - at >= READ_AHEAD` (checked).
#[inline]
pub(crate) fn sse2_block_mask(text: &[u8], at: usize) -> u64 {
    assert!(text.len() - at >= READ_AHEAD);
    // SAFETY: SSE2 is part of the x86_64 baseline, and the assertion above guarantees
    // that the 66 bytes the kernel reads from `at` are inside `text`.
    unsafe { sse2(text.as_ptr().add(at)) }
}

/// AVX2 block mask. Needs `text.len() - at >= READ_AHEAD` (checked). Only called through
/// a [`super::Kernel`] of the AVX2 kind, which exists only once AVX2 was detected.
#[inline]
pub(crate) fn avx2_block_mask(text: &[u8], at: usize) -> u64 {
    assert!(text.len() - at >= READ_AHEAD);
    // SAFETY: the CPU has AVX2 (an AVX2 `Kernel` is only made after detecting it), and
    // the 66 bytes read from `at` are inside `text` (asserted).
    unsafe { avx2(text.as_ptr().add(at)) }
}

#[target_feature(enable = "sse2")]
unsafe fn sse2(p: *const u8) -> u64 {
    let dot = _mm_set1_epi8(b'.' as i8);
    let e3 = _mm_set1_epi8(0xE3u8 as i8);
    let x80 = _mm_set1_epi8(0x80u8 as i8);
    let x82 = _mm_set1_epi8(0x82u8 as i8);
    let mut mask = 0u64;
    for k in 0..4 {
        // SAFETY: the caller guarantees p..p+66 is readable; k*16+2+16 <= 66.
        let (v0, v1, v2) = unsafe {
            (
                _mm_loadu_si128(p.add(16 * k) as *const __m128i),
                _mm_loadu_si128(p.add(16 * k + 1) as *const __m128i),
                _mm_loadu_si128(p.add(16 * k + 2) as *const __m128i),
            )
        };
        let ideographic = _mm_and_si128(
            _mm_cmpeq_epi8(v0, e3),
            _mm_and_si128(_mm_cmpeq_epi8(v1, x80), _mm_cmpeq_epi8(v2, x82)),
        );
        let hits = _mm_or_si128(_mm_cmpeq_epi8(v0, dot), ideographic);
        mask |= (_mm_movemask_epi8(hits) as u16 as u64) << (16 * k);
    }
    mask
}

#[target_feature(enable = "avx2")]
unsafe fn avx2(p: *const u8) -> u64 {
    let dot = _mm256_set1_epi8(b'.' as i8);
    let e3 = _mm256_set1_epi8(0xE3u8 as i8);
    let x80 = _mm256_set1_epi8(0x80u8 as i8);
    let x82 = _mm256_set1_epi8(0x82u8 as i8);
    let mut mask = 0u64;
    for k in 0..2 {
        // SAFETY: the caller guarantees p..p+66 is readable; k*32+2+32 <= 66.
        let (v0, v1, v2) = unsafe {
            (
                _mm256_loadu_si256(p.add(32 * k) as *const __m256i),
                _mm256_loadu_si256(p.add(32 * k + 1) as *const __m256i),
                _mm256_loadu_si256(p.add(32 * k + 2) as *const __m256i),
            )
        };
        let ideographic = _mm256_and_si256(
            _mm256_cmpeq_epi8(v0, e3),
            _mm256_and_si256(_mm256_cmpeq_epi8(v1, x80), _mm256_cmpeq_epi8(v2, x82)),
        );
        let hits = _mm256_or_si256(_mm256_cmpeq_epi8(v0, dot), ideographic);
        mask |= (_mm256_movemask_epi8(hits) as u32 as u64) << (32 * k);
    }
    mask
}

/// SSE2 has no byte shuffle (`pshufb` is SSSE3), so the SSE2 kernel skips plain bytes
/// with the scalar table; CPUs without AVX2 are rare enough not to warrant an SSSE3 one.
#[inline]
pub(crate) fn sse2_skip_plain(text: &[u8], i: usize) -> usize {
    portable::skip_plain(text, i)
}

/// AVX2 skip over plain bytes, 32 at a time; the last bytes go through the scalar table.
/// Only called through an AVX2 [`super::Kernel`], made only once AVX2 was detected.
#[inline]
pub(crate) fn avx2_skip_plain(text: &[u8], i: usize) -> usize {
    // SAFETY: the CPU has AVX2 (see above); `avx2_skip` only loads 32 bytes at offsets
    // `j` with `j + 32 <= text.len()`.
    let j = unsafe { avx2_skip(text, i) };
    if j + 32 <= text.len() {
        return j; // a non-plain byte stands at j
    }
    portable::skip_plain(text, j)
}

#[target_feature(enable = "avx2")]
unsafe fn avx2_skip(text: &[u8], mut i: usize) -> usize {
    let (lo, hi) = &NIBBLE_TABLES;
    // SAFETY: both tables have 16 bytes.
    let (lo, hi) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(lo.as_ptr() as *const __m128i)),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(hi.as_ptr() as *const __m128i)),
        )
    };
    let nibble = _mm256_set1_epi8(0x0F);
    let zero = _mm256_setzero_si256();
    while i + 32 <= text.len() {
        // SAFETY: i + 32 <= text.len().
        let v = unsafe { _mm256_loadu_si256(text.as_ptr().add(i) as *const __m256i) };
        let low = _mm256_and_si256(v, nibble);
        let high = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
        let classes = _mm256_and_si256(_mm256_shuffle_epi8(lo, low), _mm256_shuffle_epi8(hi, high));
        let not_plain = _mm256_movemask_epi8(_mm256_cmpeq_epi8(classes, zero)) as u32;
        if not_plain != 0 {
            return i + not_plain.trailing_zeros() as usize;
        }
        i += 32;
    }
    i
}
