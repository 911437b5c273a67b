//! The aarch64 instantiations: [`Vector`] and [`Lookup`] for `uint8x16_t` (NEON, 16
//! lanes, `tbl` lookups), and the NEON kernel's [`Ops`], into which the generic
//! algorithms are inlined, with its entry point ([`neon_with_ops`]). NEON is part of the
//! aarch64 baseline, so nothing here needs `#[target_feature]`.
//!
//! NEON has no `movemask`: keep one distinct bit per lane (`LANE_BITS`), then three
//! pairwise additions fold the 16 lanes into 16 bits.
//!
//! Tested on x86_64 machines too: CI cross-builds the tests for aarch64 and runs them
//! under qemu-user (`.ci/run`), where `Kernel::available` includes this kernel.

#![allow(unsafe_code)]

use core::arch::aarch64::*;

#[cfg(test)]
use super::candidates::Classes;
use super::candidates::{self, Batch, TldShape};
use super::fields;
use super::ops::{Ops, WithOps};
use super::runs::{self, Runs};
use super::simd::{Lookup, Vector};
use super::strings;
use super::walks;

/// Bit `i` of each byte lane, for folding lanes into a mask.
const LANE_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

// SAFETY (all methods below): NEON is in the aarch64 baseline, and `load` reads the 16
// bytes the caller promises readable.
impl Vector for uint8x16_t {
    const BYTES: usize = 16;
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: NEON is in the aarch64 baseline.
        unsafe { vdupq_n_u8(b) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 bytes at `p` are readable (the caller's promise).
        unsafe { vld1q_u8(p) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: NEON is in the aarch64 baseline.
        unsafe { vceqq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn gt(self, other: Self) -> Self {
        // SAFETY: NEON is in the aarch64 baseline.
        unsafe { vcgtq_s8(vreinterpretq_s8_u8(self), vreinterpretq_s8_u8(other)) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: NEON is in the aarch64 baseline.
        unsafe { vandq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: NEON is in the aarch64 baseline.
        unsafe { vorrq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn movemask(self) -> u64 {
        // SAFETY: LANE_BITS has 16 bytes.
        unsafe {
            let top = vcltzq_s8(vreinterpretq_s8_u8(self));
            let bits = vandq_u8(top, vld1q_u8(LANE_BITS.as_ptr()));
            let sum = vpaddq_u8(bits, bits);
            let sum = vpaddq_u8(sum, sum);
            let sum = vpaddq_u8(sum, sum);
            vgetq_lane_u16(vreinterpretq_u16_u8(sum), 0) as u64
        }
    }
    #[inline(always)]
    unsafe fn load_reversed(p: *const u8) -> Self {
        // The bytes of each 8-byte half reversed, then the halves swapped.
        // SAFETY: 16 bytes at `p` are readable (the caller's promise).
        unsafe {
            let v = vrev64q_u8(vld1q_u8(p));
            vextq_u8::<8>(v, v)
        }
    }
}

impl Lookup for uint8x16_t {
    #[inline(always)]
    unsafe fn table(table: &[u8; 16]) -> Self {
        // SAFETY: the table has 16 bytes.
        unsafe { vld1q_u8(table.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn nibble_lookup(self, lo: Self, hi: Self) -> Self {
        // SAFETY: NEON is in the aarch64 baseline.
        unsafe {
            vandq_u8(
                vqtbl1q_u8(lo, vandq_u8(self, vdupq_n_u8(0x0F))),
                vqtbl1q_u8(hi, vshrq_n_u8::<4>(self)),
            )
        }
    }
}

/// NEON [`candidates::classes`] (for the tests, which compare every kernel's classes).
///
/// # Safety
/// `at + READ_AHEAD <= text.len()`.
#[cfg(test)]
pub(crate) unsafe fn neon_classes(text: &[u8], at: usize) -> Classes {
    // SAFETY: the caller's promise; NEON is in the baseline.
    unsafe { candidates::classes::<uint8x16_t>(text.as_ptr().add(at)) }
}

/// NEON [`fields::name_end`].
pub(crate) fn neon_name_end(text: &[u8], at: usize) -> usize {
    // SAFETY: NEON is in the baseline.
    unsafe { fields::name_end::<uint8x16_t>(text, at) }
}

/// NEON [`strings::run_end`].
pub(crate) fn neon_string_run_end(text: &[u8], at: usize) -> usize {
    // SAFETY: NEON is in the baseline.
    unsafe { strings::run_end::<uint8x16_t>(text, at) }
}

/// NEON [`fields::field_end`].
pub(crate) fn neon_field_end(text: &[u8], at: usize) -> usize {
    // SAFETY: NEON is in the baseline.
    unsafe { fields::field_end::<uint8x16_t>(text, at) }
}

/// The NEON kernel's [`Ops`].
#[derive(Clone, Copy)]
pub(crate) struct NeonOps;

impl Runs for NeonOps {
    #[inline(always)]
    fn skip_plain(self, text: &[u8], i: usize) -> usize {
        // SAFETY: NEON is in the baseline.
        unsafe { runs::skip_plain::<uint8x16_t>(text, i) }
    }
    #[inline(always)]
    fn skip_simple(self, text: &[u8], i: usize, set: usize) -> (usize, usize) {
        // SAFETY: NEON is in the baseline.
        unsafe { runs::skip_simple::<uint8x16_t>(text, i, set) }
    }
}

impl Ops for NeonOps {
    #[inline(always)]
    fn fill(self, text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
        neon_fill(text, at, tlds, out)
    }
    #[inline(always)]
    fn walk_host(self, text: &[u8], i: usize, stop: usize, next: u8) -> (usize, bool, u8) {
        // SAFETY: NEON is in the baseline.
        unsafe { walks::walk_host::<uint8x16_t>(text, i, stop, next) }
    }
    #[inline(always)]
    fn walk_local_part(
        self,
        text: &[u8],
        i: usize,
        floor: usize,
        dot_after: bool,
    ) -> (usize, bool, bool) {
        // SAFETY: NEON is in the baseline.
        unsafe { walks::walk_local_part::<uint8x16_t>(text, i, floor, dot_after) }
    }
    #[inline(always)]
    fn outlined<W: WithOps>(self, work: W) -> W::Output {
        neon_outlined(work)
    }
}

/// [`Ops::outlined`] of the NEON kernel.
#[inline(never)]
fn neon_outlined<W: WithOps>(work: W) -> W::Output {
    work.run(NeonOps)
}

/// [`Ops::fill`] of the NEON kernel, out of line (a call per group of blocks costs the
/// scanner's loop less than the registers the search would take).
#[inline(never)]
fn neon_fill(text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
    // SAFETY: NEON is in the baseline.
    unsafe { candidates::fill::<uint8x16_t>(text, at, tlds, out) }
}

/// Runs `work` with the NEON [`Ops`].
pub(crate) fn neon_with_ops<W: WithOps>(work: W) -> W::Output {
    work.run(NeonOps)
}
