//! The AVX-512 kernel (x86_64 with AVX-512 F, BW and VBMI, and the AVX2 kernel's
//! instructions): [`Vector`] for `__m512i`, for the candidate search only, whose block of
//! 64 bytes is one vector; every other operation is the AVX2 kernel's, compiled into the
//! same entry points.
//!
//! A block is one load, reversed by one `vpermb`, and each class one compare into a mask
//! register: the search's first stage takes one vector per block where AVX2 takes two,
//! and the second stage's full classes have no halves to reverse and join. Counting the
//! links of `email-intl.txt` took 0.93× the time of the AVX2 kernel, `email-en.mbox`
//! 0.98×, link-free prose 0.90× (`benches/README.md`). The host and local-part walks and
//! the path skips stay on 32-byte vectors: they read a few bytes around each link, and
//! their masks take one more bit than a vector has lanes (see [`super::simd`]).
//!
//! The compares give masks (`k` registers), and the generic code, written for vectors
//! whose compares give lanes of all ones, combines them with vector `and`s and `or`s
//! before taking their top bits: the conversions to lanes (`vpmovm2b`) and back
//! (`vpmovb2m`) are what the trait asks for, and the compiler folds most of them into
//! operations on the masks.
//!
//! Compiled only where the compiler has the AVX-512 intrinsics (Rust 1.89; the build
//! script's `cfg(linkscan_avx512)`). The entry points are `unsafe fn`s that assume the
//! CPU has every feature they enable; a [`super::Kernel`] of this kind is only made after
//! checking them all, and holding an [`Avx512Ops`] is the proof inside.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

#[cfg(test)]
use super::candidates::Classes;
use super::candidates::{self, Batch, TldShape};
use super::ops::{Ops, WithOps};
use super::runs::{self, Runs};
use super::simd::Vector;
use super::walks;

// SAFETY (all methods below): the trait's contract — the CPU has AVX-512 F, BW and VBMI,
// and `load` reads `BYTES` readable bytes.
impl Vector for __m512i {
    const BYTES: usize = 64;
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: the CPU has AVX-512 F (the trait's contract).
        unsafe { _mm512_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 64 bytes at `p` are readable, and the CPU has AVX-512 F (the caller's
        // promise).
        unsafe { _mm512_loadu_si512(p as *const __m512i) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: the CPU has AVX-512 BW.
        unsafe { _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(self, other)) }
    }
    #[inline(always)]
    unsafe fn gt(self, other: Self) -> Self {
        // SAFETY: the CPU has AVX-512 BW.
        unsafe { _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(self, other)) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F.
        unsafe { _mm512_and_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F.
        unsafe { _mm512_or_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn movemask(self) -> u64 {
        // SAFETY: the CPU has AVX-512 BW.
        unsafe { _mm512_movepi8_mask(self) }
    }
    #[inline(always)]
    unsafe fn load_reversed(p: *const u8) -> Self {
        // One byte permutation across the whole vector (VBMI): lane `k` takes byte
        // `63 - k`.
        // SAFETY: 64 bytes at `p` are readable, and the CPU has AVX-512 F and VBMI (the
        // caller's promise).
        unsafe {
            let reverse = _mm512_set_epi8(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
            );
            _mm512_permutexvar_epi8(reverse, _mm512_loadu_si512(p as *const __m512i))
        }
    }
}

/// AVX-512 [`candidates::classes`] (for the tests, which compare every kernel's classes).
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI, and `at + READ_AHEAD <= text.len()`.
#[cfg(test)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn avx512_classes(text: &[u8], at: usize) -> Classes {
    // SAFETY: the caller's promises.
    unsafe { candidates::classes::<__m512i>(text.as_ptr().add(at)) }
}

/// The AVX-512 kernel's [`Ops`]: the candidate search on 64-byte vectors, the rest the
/// AVX2 kernel's. A value exists only inside [`avx512_with_ops`] and
/// [`avx512_outlined`], which run with every feature of `avx512_detected` enabled, so
/// holding one proves the CPU has them.
#[derive(Clone, Copy)]
pub(crate) struct Avx512Ops(());

impl Runs for Avx512Ops {
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

impl Ops for Avx512Ops {
    #[inline(always)]
    fn fill(self, text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
        // SAFETY: the CPU has every feature of `avx512_detected` (see the type).
        unsafe { avx512_fill(text, at, tlds, out) }
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
        // SAFETY: the CPU has every feature of `avx512_detected` (see the type).
        unsafe { avx512_outlined(work) }
    }
}

/// [`Ops::outlined`] of the AVX-512 kernel: [`avx512_with_ops`], never inlined.
///
/// # Safety
/// The CPU has every feature of `avx512_detected`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn avx512_outlined<W: WithOps>(work: W) -> W::Output {
    work.run(Avx512Ops(()))
}

/// [`Ops::fill`] of the AVX-512 kernel, out of line (as the AVX2 kernel's).
///
/// # Safety
/// The CPU has every feature of `avx512_detected`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn avx512_fill(text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
    // SAFETY: the caller's promise.
    unsafe { candidates::fill::<__m512i>(text, at, tlds, out) }
}

/// Runs `work` with the AVX-512 [`Ops`], compiled with every feature of
/// `avx512_detected` enabled, so that the operations are inlined into it.
///
/// # Safety
/// The CPU has every feature of `avx512_detected`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx2,bmi1,bmi2,lzcnt,popcnt")]
pub(crate) unsafe fn avx512_with_ops<W: WithOps>(work: W) -> W::Output {
    work.run(Avx512Ops(()))
}
