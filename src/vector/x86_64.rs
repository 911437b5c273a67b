//! The x86_64 instantiations: [`Vector`] for `__m128i` (SSE2, 16 lanes) and `__m256i`
//! (AVX2, 32 lanes; with [`Lookup`] by `vpshufb`), and each kernel's [`Ops`], into which
//! the generic algorithms are inlined, with its entry point ([`sse2_with_ops`],
//! [`avx2_with_ops`]: a `#[target_feature]` function into which the code generic over
//! `Ops` is inlined in turn) and its out-of-line candidate search.
//!
//! SSE2 has no byte shuffle (`pshufb` is SSSE3), so its kernel takes the scalar skips and
//! local-part walk; CPUs without AVX2 are rare enough not to warrant an SSSE3 kernel.
//!
//! The AVX2 kernel's code is compiled for AVX2 and the BMI1, BMI2, LZCNT and POPCNT that
//! come with it on every CPU that has it; its functions are `unsafe fn`s that assume them,
//! which the caller proves by holding a [`super::Kernel`] of that kind (made only where
//! the CPU reports all five); inside them, holding an [`Avx2Ops`] is the proof. The `Vector` methods are plain intrinsics (see [`super::simd`]).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

#[cfg(test)]
use super::candidates::Classes;
use super::candidates::{self, Batch, TldShape};
use super::fields;
use super::ops::{Ops, WithOps};
use super::runs::{self, Runs, ScalarRuns};
use super::simd::{Lookup, Vector};
use super::strings;
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
    #[inline(always)]
    unsafe fn load_reversed(p: *const u8) -> Self {
        // SSE2 has no byte shuffle: the 32-bit lanes reversed, then the 16-bit halves of
        // each, then the bytes of each half by shifts.
        // SAFETY: 16 bytes at `p` are readable (the caller's promise).
        let v = unsafe { _mm_loadu_si128(p as *const __m128i) };
        let dwords = _mm_shuffle_epi32::<0x1B>(v);
        let words = _mm_shufflehi_epi16::<0xB1>(_mm_shufflelo_epi16::<0xB1>(dwords));
        _mm_or_si128(_mm_slli_epi16::<8>(words), _mm_srli_epi16::<8>(words))
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
    #[inline(always)]
    unsafe fn load_reversed(p: *const u8) -> Self {
        // The two 16-byte halves loaded swapped (the second into the low half), then each
        // reversed by a shuffle, which stays within halves.
        // SAFETY: 32 bytes at `p` are readable, and the CPU has AVX2 (the caller's promise).
        unsafe {
            let reverse = _mm256_setr_epi8(
                15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
                7, 6, 5, 4, 3, 2, 1, 0,
            );
            let swapped = _mm256_loadu2_m128i(p as *const __m128i, p.add(16) as *const __m128i);
            _mm256_shuffle_epi8(swapped, reverse)
        }
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

/// SSE2 [`candidates::classes`] (for the tests, which compare every kernel's classes).
///
/// # Safety
/// `at + READ_AHEAD <= text.len()`.
#[cfg(test)]
pub(crate) unsafe fn sse2_classes(text: &[u8], at: usize) -> Classes {
    // SAFETY: the caller's promise; SSE2 is in the baseline.
    unsafe { candidates::classes::<__m128i>(text.as_ptr().add(at)) }
}

/// SSE2 [`fields::name_end`].
pub(crate) fn sse2_name_end(text: &[u8], at: usize) -> usize {
    // SAFETY: SSE2 is in the baseline.
    unsafe { fields::name_end::<__m128i>(text, at) }
}

/// SSE2 [`strings::run_end`].
pub(crate) fn sse2_string_run_end(text: &[u8], at: usize) -> usize {
    // SAFETY: SSE2 is in the baseline.
    unsafe { strings::run_end::<__m128i>(text, at) }
}

/// SSE2 [`fields::field_end`].
pub(crate) fn sse2_field_end(text: &[u8], at: usize) -> usize {
    // SAFETY: SSE2 is in the baseline.
    unsafe { fields::field_end::<__m128i>(text, at) }
}

/// The SSE2 kernel's [`Ops`]: the vector candidate search and host walk, the scalar skips
/// and no local-part walk (both need a byte shuffle).
#[derive(Clone, Copy)]
pub(crate) struct Sse2Ops(());

impl Runs for Sse2Ops {
    #[inline(always)]
    fn skip_plain(self, text: &[u8], i: usize) -> usize {
        ScalarRuns.skip_plain(text, i)
    }
    #[inline(always)]
    fn skip_simple(self, text: &[u8], i: usize, set: usize) -> (usize, usize) {
        ScalarRuns.skip_simple(text, i, set)
    }
}

impl Ops for Sse2Ops {
    #[inline(always)]
    fn fill(self, text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
        sse2_fill(text, at, tlds, out)
    }
    #[inline(always)]
    fn walk_host(self, text: &[u8], i: usize, stop: usize, next: u8) -> (usize, bool, u8) {
        // SAFETY: SSE2 is in the baseline.
        unsafe { walks::walk_host::<__m128i>(text, i, stop, next) }
    }
    // No local-part walk (it needs a byte shuffle): the default, which walks nothing.
    #[inline(always)]
    fn outlined<W: WithOps>(self, work: W) -> W::Output {
        sse2_outlined(work)
    }
}

/// [`Ops::outlined`] of the SSE2 kernel.
#[inline(never)]
fn sse2_outlined<W: WithOps>(work: W) -> W::Output {
    work.run(Sse2Ops(()))
}

/// [`Ops::fill`] of the SSE2 kernel, out of line (as [`avx2_fill`]).
#[inline(never)]
fn sse2_fill(text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
    // SAFETY: SSE2 is in the baseline.
    unsafe { candidates::fill::<__m128i>(text, at, tlds, out) }
}

/// Runs `work` with the SSE2 [`Ops`].
pub(crate) fn sse2_with_ops<W: WithOps>(work: W) -> W::Output {
    work.run(Sse2Ops(()))
}

/// AVX2 [`candidates::classes`] (for the tests, which compare every kernel's classes).
///
/// # Safety
/// The CPU has AVX2, and `at + READ_AHEAD <= text.len()`.
#[cfg(test)]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_classes(text: &[u8], at: usize) -> Classes {
    // SAFETY: the caller's promises.
    unsafe { candidates::classes::<__m256i>(text.as_ptr().add(at)) }
}

/// AVX2 [`fields::name_end`].
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_name_end(text: &[u8], at: usize) -> usize {
    // SAFETY: the caller's promise.
    unsafe { fields::name_end::<__m256i>(text, at) }
}

/// AVX2 [`strings::run_end`].
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_string_run_end(text: &[u8], at: usize) -> usize {
    // SAFETY: the caller's promise.
    unsafe { strings::run_end::<__m256i>(text, at) }
}

/// AVX2 [`fields::field_end`].
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_field_end(text: &[u8], at: usize) -> usize {
    // SAFETY: the caller's promise.
    unsafe { fields::field_end::<__m256i>(text, at) }
}

/// The AVX2 kernel's [`Ops`]. A value exists only inside [`avx2_with_ops`], which runs
/// with AVX2 (and BMI1, BMI2, LZCNT, POPCNT) enabled, so holding one proves the CPU has
/// them.
#[derive(Clone, Copy)]
pub(crate) struct Avx2Ops(());

impl Runs for Avx2Ops {
    #[inline(always)]
    fn skip_plain(self, text: &[u8], i: usize) -> usize {
        // SAFETY: the CPU has AVX2 (see the type).
        unsafe { runs::skip_plain::<__m256i>(text, i) }
    }
    #[inline(always)]
    fn skip_simple(self, text: &[u8], i: usize, set: usize) -> (usize, usize) {
        // SAFETY: the CPU has AVX2 (see the type).
        unsafe { runs::skip_simple::<__m256i>(text, i, set) }
    }
}

impl Ops for Avx2Ops {
    #[inline(always)]
    fn fill(self, text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
        // SAFETY: the CPU has AVX2 (see the type).
        unsafe { avx2_fill(text, at, tlds, out) }
    }
    #[inline(always)]
    fn walk_host(self, text: &[u8], i: usize, stop: usize, next: u8) -> (usize, bool, u8) {
        // SAFETY: the CPU has AVX2 (see the type).
        unsafe { walks::walk_host::<__m256i>(text, i, stop, next) }
    }
    #[inline(always)]
    fn walk_local_part(
        self,
        text: &[u8],
        i: usize,
        floor: usize,
        dot_after: bool,
    ) -> (usize, bool, bool) {
        // SAFETY: the CPU has AVX2 (see the type).
        unsafe { walks::walk_local_part::<__m256i>(text, i, floor, dot_after) }
    }
    #[inline(always)]
    fn outlined<W: WithOps>(self, work: W) -> W::Output {
        // SAFETY: the CPU has AVX2 (see the type).
        unsafe { avx2_outlined(work) }
    }
}

/// [`Ops::outlined`] of the AVX2 kernel: [`avx2_with_ops`], never inlined.
///
/// # Safety
/// The CPU has AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn avx2_outlined<W: WithOps>(work: W) -> W::Output {
    work.run(Avx2Ops(()))
}

/// [`Ops::fill`] of the AVX2 kernel, out of line: a call per group of blocks costs the
/// scanner's loop less than the registers that the search inlined into it takes from
/// the rest (link-dense text, with a link every few bytes, took 3 to 5 % more time with
/// a search block by block inlined).
///
/// # Safety
/// The CPU has AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn avx2_fill(text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
    // SAFETY: the caller's promise.
    unsafe { candidates::fill::<__m256i>(text, at, tlds, out) }
}

/// Runs `work` with the AVX2 [`Ops`], compiled with AVX2 (and BMI1, BMI2, LZCNT, POPCNT)
/// enabled, so that the operations are inlined into it.
///
/// # Safety
/// The CPU has AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
pub(crate) unsafe fn avx2_with_ops<W: WithOps>(work: W) -> W::Output {
    work.run(Avx2Ops(()))
}
