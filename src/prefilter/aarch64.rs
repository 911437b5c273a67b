//! The aarch64 NEON kernel: four 16-byte compares per block, and the usual NEON
//! "movemask": keep one distinct bit per lane, then three pairwise additions fold the
//! 64 lanes into 64 bits. The path skips use `tbl` nibble lookups, 16 bytes at a time;
//! `skip_simple` narrows its lanes to four bits each (`shrn`), so that the run's end and
//! its last Include byte are a trailing-ones count and a leading-zeros count.
//!
//! Tested on x86_64 machines too: CI cross-builds the tests for aarch64 and runs them
//! under qemu-user (`.ci/run`), where `Kernel::available` includes this kernel.

#![allow(unsafe_code)]

use core::arch::aarch64::*;

use super::{portable, Classes, NIBBLE_TABLES, READ_AHEAD, SIMPLE_NIBBLE_TABLES};

/// Bit `i` of each byte lane, for folding compare results into a mask.
const LANE_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// NEON classes (all of them; `hosts` is for the x86 kernels, which skip work without
/// it). Needs `text.len() - at >= READ_AHEAD` (checked).
#[inline]
pub(crate) fn neon_classes(text: &[u8], at: usize, hosts: bool) -> Classes {
    assert!(text.len() - at >= READ_AHEAD);
    // SAFETY: NEON is part of the aarch64 baseline, and the assertion above guarantees
    // that the 66 bytes the kernel reads from `at` are inside `text`.
    let c = unsafe { neon(text.as_ptr().add(at)) };
    if hosts {
        c
    } else {
        Classes {
            host: 0,
            non_ascii: 0,
            ..c
        }
    }
}

/// Folds four compare results (16 lanes each, 0 or 0xFF) into one 64-bit mask.
#[target_feature(enable = "neon")]
unsafe fn fold(lanes: [uint8x16_t; 4]) -> u64 {
    // SAFETY: LANE_BITS has 16 bytes.
    let bits = unsafe { vld1q_u8(LANE_BITS.as_ptr()) };
    let sum01 = vpaddq_u8(vandq_u8(lanes[0], bits), vandq_u8(lanes[1], bits));
    let sum23 = vpaddq_u8(vandq_u8(lanes[2], bits), vandq_u8(lanes[3], bits));
    let sum = vpaddq_u8(sum01, sum23);
    let sum = vpaddq_u8(sum, sum);
    vgetq_lane_u64(vreinterpretq_u64_u8(sum), 0)
}

#[target_feature(enable = "neon")]
unsafe fn neon(p: *const u8) -> Classes {
    let zero = vdupq_n_u8(0);
    let mut dot = [zero; 4];
    let mut ideographic = [zero; 4];
    let mut host = [zero; 4];
    let mut non_ascii = [zero; 4];
    for k in 0..4 {
        // SAFETY: the caller guarantees p..p+66 is readable; k*16+2+16 <= 66.
        let (v0, v1, v2) = unsafe {
            (
                vld1q_u8(p.add(16 * k)),
                vld1q_u8(p.add(16 * k + 1)),
                vld1q_u8(p.add(16 * k + 2)),
            )
        };
        let in_range = |v: uint8x16_t, lo: u8, hi: u8| {
            vandq_u8(vcgeq_u8(v, vdupq_n_u8(lo)), vcleq_u8(v, vdupq_n_u8(hi)))
        };
        let lower = vorrq_u8(v0, vdupq_n_u8(0x20));
        dot[k] = vceqq_u8(v0, vdupq_n_u8(b'.'));
        ideographic[k] = vandq_u8(
            vceqq_u8(v0, vdupq_n_u8(0xE3)),
            vandq_u8(
                vceqq_u8(v1, vdupq_n_u8(0x80)),
                vceqq_u8(v2, vdupq_n_u8(0x82)),
            ),
        );
        host[k] = vorrq_u8(
            vorrq_u8(in_range(lower, b'a', b'z'), in_range(v0, b'0', b'9')),
            vceqq_u8(v0, vdupq_n_u8(b'-')),
        );
        non_ascii[k] = vcgeq_u8(v0, vdupq_n_u8(0x80));
    }
    // SAFETY: NEON is available (this function's target feature).
    unsafe {
        Classes {
            dot: fold(dot),
            ideographic: fold(ideographic),
            host: fold(host),
            non_ascii: fold(non_ascii),
        }
    }
}

/// NEON skip over plain bytes, 16 at a time (`tbl` nibble lookups); the last bytes go
/// through the scalar table.
#[inline]
pub(crate) fn neon_skip_plain(text: &[u8], i: usize) -> usize {
    // SAFETY: NEON is in the aarch64 baseline; `neon_skip` only loads 16 bytes at offsets
    // `j` with `j + 16 <= text.len()`.
    let j = unsafe { neon_skip(text, i) };
    portable::skip_plain(text, j)
}

#[target_feature(enable = "neon")]
unsafe fn neon_skip(text: &[u8], mut i: usize) -> usize {
    let (lo, hi) = &NIBBLE_TABLES;
    // SAFETY: both tables have 16 bytes.
    let (lo, hi) = unsafe { (vld1q_u8(lo.as_ptr()), vld1q_u8(hi.as_ptr())) };
    let nibble = vdupq_n_u8(0x0F);
    while i + 16 <= text.len() {
        // SAFETY: i + 16 <= text.len().
        let v = unsafe { vld1q_u8(text.as_ptr().add(i)) };
        let classes = vandq_u8(
            vqtbl1q_u8(lo, vandq_u8(v, nibble)),
            vqtbl1q_u8(hi, vshrq_n_u8::<4>(v)),
        );
        // All lanes plain: every class byte non-zero, so the minimum is non-zero.
        if vminvq_u8(classes) == 0 {
            // Find the first zero lane.
            let mut lanes = [0u8; 16];
            // SAFETY: `lanes` has 16 bytes.
            unsafe { vst1q_u8(lanes.as_mut_ptr(), classes) };
            return i + lanes.iter().position(|&c| c == 0).unwrap_or(16);
        }
        i += 16;
    }
    i
}

/// NEON skip over simple bytes (see `Kernel::skip_simple`), 16 at a time; the last bytes
/// go through the scalar tables.
#[inline]
pub(crate) fn neon_skip_simple(text: &[u8], i: usize) -> (usize, usize) {
    // SAFETY: NEON is in the aarch64 baseline; `neon_simple` only loads 16 bytes at
    // offsets `j` with `j + 16 <= text.len()`.
    unsafe { neon_simple(text, i) }
}

/// Narrows 16 lanes of 0 or 0xFF to 64 bits, four per lane (lane `k` in bits `4k..4k+4`):
/// the shift-right-and-narrow "movemask" of NEON.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn nibble_mask(lanes: uint8x16_t) -> u64 {
    let narrowed = vshrn_n_u16::<4>(vreinterpretq_u16_u8(lanes));
    vget_lane_u64(vreinterpret_u64_u8(narrowed), 0)
}

#[target_feature(enable = "neon")]
unsafe fn neon_simple(text: &[u8], mut i: usize) -> (usize, usize) {
    let [(simple_lo, simple_hi), (include_lo, include_hi)] = &SIMPLE_NIBBLE_TABLES;
    // SAFETY: the four tables have 16 bytes each.
    let (simple_lo, simple_hi, include_lo, include_hi) = unsafe {
        (
            vld1q_u8(simple_lo.as_ptr()),
            vld1q_u8(simple_hi.as_ptr()),
            vld1q_u8(include_lo.as_ptr()),
            vld1q_u8(include_hi.as_ptr()),
        )
    };
    let nibble = vdupq_n_u8(0x0F);
    let mut included = 0;
    while i + 16 <= text.len() {
        // SAFETY: i + 16 <= text.len().
        let v = unsafe { vld1q_u8(text.as_ptr().add(i)) };
        let (low, high) = (vandq_u8(v, nibble), vshrq_n_u8::<4>(v));
        let lookup = |lo: uint8x16_t, hi: uint8x16_t| {
            let lanes = vtstq_u8(vqtbl1q_u8(lo, low), vqtbl1q_u8(hi, high));
            // SAFETY: NEON is available (this function's target feature).
            unsafe { nibble_mask(lanes) }
        };
        let simple = lookup(simple_lo, simple_hi);
        let include = lookup(include_lo, include_hi);
        // The lanes of the run in this vector (four bits each): all, or those before the
        // first other byte.
        let run = simple & !simple.wrapping_add(1);
        if include & run != 0 {
            included = i + 16 - (include & run).leading_zeros() as usize / 4;
        }
        if run != u64::MAX {
            return (i + run.count_ones() as usize / 4, included);
        }
        i += 16;
    }
    portable::skip_simple(text, i, included)
}
