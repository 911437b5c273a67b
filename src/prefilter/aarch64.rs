//! The aarch64 NEON kernel: four 16-byte compares per block, and the usual NEON
//! "movemask": keep one distinct bit per lane, then three pairwise additions fold the
//! 64 lanes into 64 bits.

#![allow(unsafe_code)]

use core::arch::aarch64::*;

use super::READ_AHEAD;

/// Bit `i` of each byte lane, for folding compare results into a mask.
const LANE_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// NEON block mask. Needs `text.len() - at >= READ_AHEAD` (checked).
#[inline]
pub(crate) fn neon_block_mask(text: &[u8], at: usize) -> u64 {
    assert!(text.len() - at >= READ_AHEAD);
    // SAFETY: NEON is part of the aarch64 baseline, and the assertion above guarantees
    // that the 66 bytes the kernel reads from `at` are inside `text`.
    unsafe { neon(text.as_ptr().add(at)) }
}

#[target_feature(enable = "neon")]
unsafe fn neon(p: *const u8) -> u64 {
    let dot = vdupq_n_u8(b'.');
    let e3 = vdupq_n_u8(0xE3);
    let x80 = vdupq_n_u8(0x80);
    let x82 = vdupq_n_u8(0x82);
    // SAFETY: LANE_BITS has 16 bytes.
    let bits = unsafe { vld1q_u8(LANE_BITS.as_ptr()) };
    let mut lanes = [vdupq_n_u8(0); 4];
    for (k, lane) in lanes.iter_mut().enumerate() {
        // SAFETY: the caller guarantees p..p+66 is readable; k*16+2+16 <= 66.
        let (v0, v1, v2) = unsafe {
            (
                vld1q_u8(p.add(16 * k)),
                vld1q_u8(p.add(16 * k + 1)),
                vld1q_u8(p.add(16 * k + 2)),
            )
        };
        let ideographic = vandq_u8(
            vceqq_u8(v0, e3),
            vandq_u8(vceqq_u8(v1, x80), vceqq_u8(v2, x82)),
        );
        *lane = vandq_u8(vorrq_u8(vceqq_u8(v0, dot), ideographic), bits);
    }
    let sum01 = vpaddq_u8(lanes[0], lanes[1]);
    let sum23 = vpaddq_u8(lanes[2], lanes[3]);
    let sum = vpaddq_u8(sum01, sum23);
    let sum = vpaddq_u8(sum, sum);
    vgetq_lane_u64(vreinterpretq_u64_u8(sum), 0)
}
