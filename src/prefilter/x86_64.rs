//! x86_64 kernels: SSE2 (16 bytes per compare) and AVX2 (32 bytes per compare).
//!
//! For each vector `v` at offset `k` of the block, with `v1`, `v2` the same bytes shifted
//! by one and two: `mask = (v == '.') | ((v == E3) & (v1 == 80) & (v2 == 82))`, then
//! `movemask` puts one bit per byte into the block's `u64`.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::READ_AHEAD;

/// SSE2 block mask. Needs `text.len() - at >= READ_AHEAD` (checked).
#[inline]
pub(crate) fn sse2_block_mask(text: &[u8], at: usize) -> u64 {
    assert!(text.len() - at >= READ_AHEAD);
    // SAFETY: SSE2 is part of the x86_64 baseline, and the assertion above guarantees
    // that the 66 bytes the kernel reads from `at` are inside `text`.
    unsafe { sse2(text.as_ptr().add(at)) }
}

/// AVX2 block mask. Needs `text.len() - at >= READ_AHEAD` (checked) and an AVX2 CPU.
#[inline]
pub(crate) fn avx2_block_mask(text: &[u8], at: usize) -> u64 {
    assert!(text.len() - at >= READ_AHEAD);
    assert!(std::is_x86_feature_detected!("avx2"));
    // SAFETY: the CPU has AVX2 (asserted; the check is a cached atomic load), and the 66
    // bytes read from `at` are inside `text` (asserted).
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
