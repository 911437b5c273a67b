//! The aarch64 NEON kernel: four 16-byte compares per block, and the usual NEON
//! "movemask": keep one distinct bit per lane, then three pairwise additions fold the
//! 64 lanes into 64 bits.

#![allow(unsafe_code)]

use core::arch::aarch64::*;

use super::{portable, Classes, NIBBLE_TABLES, READ_AHEAD};

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
