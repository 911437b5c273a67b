//! The x86_64 instantiations: [`Vector`] for `__m128i` (SSE2, 16 lanes) and `__m256i`
//! (AVX2, 32 lanes; with [`Lookup`] by `vpshufb`), and one `#[target_feature]` entry
//! point per algorithm and instruction set, into which the generic algorithm is inlined.
//!
//! SSE2 has no byte shuffle (`pshufb` is SSSE3), so its kernel takes the scalar skips and
//! local-part walk; CPUs without AVX2 are rare enough not to warrant an SSSE3 kernel.
//!
//! Every entry point is an `unsafe fn`: it assumes its instruction set, which the caller
//! proves by holding a [`super::Kernel`] of that kind, and the preconditions its
//! documentation states. The `Vector` methods are plain intrinsics (see [`super::simd`]).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::candidates::{self, Classes};
use super::runs::{self, Runs, WithRuns};
use super::simd::{Lookup, Vector};
use super::walks;

// SAFETY (all methods below): the trait's contract — the CPU has the instruction set of
// the type, and `load` reads `BYTES` readable bytes.
impl Vector for __m128i {
    const BYTES: usize = 16;
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        _mm_set1_epi8(b as i8)
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 bytes at `p` are readable (the caller's promise).
        unsafe { _mm_loadu_si128(p as *const __m128i) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        _mm_cmpeq_epi8(self, other)
    }
    #[inline(always)]
    unsafe fn gt(self, other: Self) -> Self {
        _mm_cmpgt_epi8(self, other)
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        _mm_and_si128(self, other)
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        _mm_or_si128(self, other)
    }
    #[inline(always)]
    unsafe fn movemask(self) -> u64 {
        _mm_movemask_epi8(self) as u16 as u64
    }
}

impl Vector for __m256i {
    const BYTES: usize = 32;
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's contract).
        unsafe { _mm256_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 32 bytes at `p` are readable, and the CPU has AVX2 (the caller's promise).
        unsafe { _mm256_loadu_si256(p as *const __m256i) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: the CPU has AVX2.
        unsafe { _mm256_cmpeq_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn gt(self, other: Self) -> Self {
        // SAFETY: the CPU has AVX2.
        unsafe { _mm256_cmpgt_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the CPU has AVX2.
        unsafe { _mm256_and_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the CPU has AVX2.
        unsafe { _mm256_or_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn movemask(self) -> u64 {
        // SAFETY: the CPU has AVX2.
        unsafe { _mm256_movemask_epi8(self) as u32 as u64 }
    }
}

impl Lookup for __m256i {
    #[inline(always)]
    unsafe fn table(table: &[u8; 16]) -> Self {
        // SAFETY: the table has 16 bytes; the CPU has AVX2.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr() as *const __m128i)) }
    }
    #[inline(always)]
    unsafe fn nibble_lookup(self, lo: Self, hi: Self) -> Self {
        // SAFETY: the CPU has AVX2.
        unsafe {
            let nibble = _mm256_set1_epi8(0x0F);
            let low = _mm256_and_si256(self, nibble);
            let high = _mm256_and_si256(_mm256_srli_epi16(self, 4), nibble);
            _mm256_and_si256(_mm256_shuffle_epi8(lo, low), _mm256_shuffle_epi8(hi, high))
        }
    }
}

// SSE2 is part of the x86_64 baseline: its entry points need no `#[target_feature]`.

/// SSE2 [`candidates::classes`].
///
/// # Safety
/// `at + READ_AHEAD <= text.len()`.
pub(crate) unsafe fn sse2_classes(text: &[u8], at: usize, hosts: bool) -> Classes {
    // SAFETY: the caller's promise; SSE2 is in the baseline.
    unsafe { candidates::classes::<__m128i>(text, at, hosts) }
}

/// SSE2 [`candidates::next_block`].
pub(crate) fn sse2_next_block(text: &[u8], at: &mut usize, drop_one_byte_runs: bool) -> u64 {
    // SAFETY: SSE2 is in the baseline.
    unsafe { candidates::next_block::<__m128i>(text, at, drop_one_byte_runs) }
}

/// SSE2 [`walks::walk_host`].
pub(crate) fn sse2_walk_host(text: &[u8], i: usize, stop: usize, next: u8) -> (usize, bool, u8) {
    // SAFETY: SSE2 is in the baseline.
    unsafe { walks::walk_host::<__m128i>(text, i, stop, next) }
}

/// AVX2 [`candidates::classes`].
///
/// # Safety
/// The CPU has AVX2, and `at + READ_AHEAD <= text.len()`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_classes(text: &[u8], at: usize, hosts: bool) -> Classes {
    // SAFETY: the caller's promises.
    unsafe { candidates::classes::<__m256i>(text, at, hosts) }
}

/// AVX2 [`candidates::next_block`].
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_next_block(text: &[u8], at: &mut usize, drop_one_byte_runs: bool) -> u64 {
    // SAFETY: AVX2 is enabled here.
    unsafe { candidates::next_block::<__m256i>(text, at, drop_one_byte_runs) }
}

/// AVX2 [`walks::walk_host`].
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_walk_host(
    text: &[u8],
    i: usize,
    stop: usize,
    next: u8,
) -> (usize, bool, u8) {
    // SAFETY: AVX2 is enabled here.
    unsafe { walks::walk_host::<__m256i>(text, i, stop, next) }
}

/// AVX2 [`walks::walk_local_part`].
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_walk_local_part(
    text: &[u8],
    i: usize,
    floor: usize,
    dot_after: bool,
) -> (usize, bool, bool) {
    // SAFETY: AVX2 is enabled here.
    unsafe { walks::walk_local_part::<__m256i>(text, i, floor, dot_after) }
}

/// The AVX2 skips. A value exists only inside [`avx2_with_runs`], which runs with AVX2
/// enabled, so holding one proves the CPU has AVX2.
#[derive(Clone, Copy)]
pub(crate) struct Avx2Runs(());

impl Runs for Avx2Runs {
    #[inline(always)]
    fn skip_plain(self, text: &[u8], i: usize) -> usize {
        // SAFETY: the CPU has AVX2 (see the type).
        unsafe { runs::skip_plain::<__m256i>(text, i) }
    }
    #[inline(always)]
    fn skip_simple(self, text: &[u8], i: usize) -> (usize, usize) {
        // SAFETY: the CPU has AVX2 (see the type).
        unsafe { runs::skip_simple::<__m256i>(text, i) }
    }
}

/// Runs `work` with the AVX2 skips, compiled with AVX2 enabled (so that the skips are
/// inlined into it: a call per run of a few bytes would cost more than the run).
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_with_runs<W: WithRuns>(work: W) -> W::Output {
    work.run(Avx2Runs(()))
}
