//! x86_64 kernels: SSE2 (16 bytes per compare) and AVX2 (32 bytes per compare).
//!
//! For each vector `v` at offset `k` of the block, with `v1`, `v2` the same bytes shifted
//! by one and two: dots `v == '.'`, `。` starts `(v == E3) & (v1 == 80) & (v2 == 82)`,
//! ASCII host characters by range compares, non-ASCII bytes by their sign bit; `movemask`
//! puts one bit per byte of each class into the block's [`Classes`].

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::{
    block_candidates, portable, Classes, BLOCK, EMAIL_NIBBLE_TABLES, NIBBLE_TABLES, READ_AHEAD,
    SIMPLE_NIBBLE_TABLES,
};

/// SSE2 classes (the host classes only with `hosts`). Needs `text.len() - at >=
/// READ_AHEAD` (checked).
#[inline]
pub(crate) fn sse2_classes(text: &[u8], at: usize, hosts: bool) -> Classes {
    assert!(text.len() - at >= READ_AHEAD);
    // SAFETY: SSE2 is part of the x86_64 baseline, and the assertion above guarantees
    // that the 66 bytes the kernels read from `at` are inside `text`.
    unsafe {
        let p = text.as_ptr().add(at);
        let (dot, ideographic) = sse2_dots(p);
        let (host, non_ascii) = if hosts { sse2_hosts(p) } else { (0, 0) };
        Classes {
            dot,
            ideographic,
            host,
            non_ascii,
        }
    }
}

/// AVX2 classes (the host classes only with `hosts`). Needs `text.len() - at >=
/// READ_AHEAD` (checked). Only called through a [`super::Kernel`] of the AVX2 kind, which
/// exists only once AVX2 was detected.
#[inline]
pub(crate) fn avx2_classes(text: &[u8], at: usize, hosts: bool) -> Classes {
    assert!(text.len() - at >= READ_AHEAD);
    // SAFETY: the CPU has AVX2 (an AVX2 `Kernel` is only made after detecting it), and
    // the 66 bytes read from `at` are inside `text` (asserted).
    unsafe {
        let p = text.as_ptr().add(at);
        let (dot, ideographic) = avx2_dots(p);
        let (host, non_ascii) = if hosts { avx2_hosts(p) } else { (0, 0) };
        Classes {
            dot,
            ideographic,
            host,
            non_ascii,
        }
    }
}

/// The SSE2 loop of `Kernel::next_block` over the blocks a vector load may read whole:
/// the candidate mask of the first block with one, `at` left at that block; or 0, `at`
/// left at the first block it could not look at. (A `u64` comes back in a register; an
/// `Option<(usize, u64)>` went through memory.)
#[inline]
pub(crate) fn sse2_next_block(text: &[u8], at: &mut usize, drop_one_byte_runs: bool) -> u64 {
    // SAFETY: SSE2 is part of the x86_64 baseline; the loop reads 66 bytes from `*at`
    // only while they are inside `text`.
    unsafe { sse2_loop(text, at, drop_one_byte_runs) }
}

/// The AVX2 loop of `Kernel::next_block`. Only called through an AVX2 [`super::Kernel`],
/// made only once AVX2 was detected.
#[inline]
pub(crate) fn avx2_next_block(text: &[u8], at: &mut usize, drop_one_byte_runs: bool) -> u64 {
    // SAFETY: the CPU has AVX2 (see above); the loop reads 66 bytes from `*at` only while
    // they are inside `text`.
    unsafe { avx2_loop(text, at, drop_one_byte_runs) }
}

#[target_feature(enable = "sse2")]
unsafe fn sse2_loop(text: &[u8], at: &mut usize, drop_one_byte_runs: bool) -> u64 {
    while text.len().saturating_sub(*at) >= READ_AHEAD {
        // SAFETY: 66 bytes from `*at` are inside `text` (loop condition).
        let p = unsafe { text.as_ptr().add(*at) };
        // SAFETY: as above.
        let (dot, ideographic) = unsafe { sse2_dots(p) };
        if dot | ideographic != 0 {
            // SAFETY: as above.
            let mask =
                block_candidates(dot, ideographic, text, *at, drop_one_byte_runs, || unsafe {
                    sse2_hosts(p)
                });
            if mask != 0 {
                return mask;
            }
        }
        *at += BLOCK;
    }
    0
}

#[target_feature(enable = "avx2")]
unsafe fn avx2_loop(text: &[u8], at: &mut usize, drop_one_byte_runs: bool) -> u64 {
    while text.len().saturating_sub(*at) >= READ_AHEAD {
        // SAFETY: 66 bytes from `*at` are inside `text` (loop condition).
        let p = unsafe { text.as_ptr().add(*at) };
        // SAFETY: as above, and the CPU has AVX2 (this function's target feature).
        let (dot, ideographic) = unsafe { avx2_dots(p) };
        if dot | ideographic != 0 {
            // SAFETY: as above.
            let mask =
                block_candidates(dot, ideographic, text, *at, drop_one_byte_runs, || unsafe {
                    avx2_hosts(p)
                });
            if mask != 0 {
                return mask;
            }
        }
        *at += BLOCK;
    }
    0
}

// Signed byte compares suffice for the ASCII ranges below: bytes >= 0x80 are negative and
// fall outside every range (and `b | 0x20` keeps them negative).

/// `.` and `。` starts of the 64 bytes at `p` (66 readable).
#[target_feature(enable = "sse2")]
unsafe fn sse2_dots(p: *const u8) -> (u64, u64) {
    let set = |b: u8| _mm_set1_epi8(b as i8);
    let (mut dot, mut ideographic) = (0, 0);
    for k in 0..4 {
        // SAFETY: the caller guarantees p..p+66 is readable; k*16+2+16 <= 66.
        let (v0, v1, v2) = unsafe {
            (
                _mm_loadu_si128(p.add(16 * k) as *const __m128i),
                _mm_loadu_si128(p.add(16 * k + 1) as *const __m128i),
                _mm_loadu_si128(p.add(16 * k + 2) as *const __m128i),
            )
        };
        let ideo = _mm_and_si128(
            _mm_cmpeq_epi8(v0, set(0xE3)),
            _mm_and_si128(_mm_cmpeq_epi8(v1, set(0x80)), _mm_cmpeq_epi8(v2, set(0x82))),
        );
        let bits = |m: __m128i| (_mm_movemask_epi8(m) as u16 as u64) << (16 * k);
        dot |= bits(_mm_cmpeq_epi8(v0, set(b'.')));
        ideographic |= bits(ideo);
    }
    (dot, ideographic)
}

/// ASCII host characters and non-ASCII bytes of the 64 bytes at `p`.
#[target_feature(enable = "sse2")]
unsafe fn sse2_hosts(p: *const u8) -> (u64, u64) {
    let set = |b: u8| _mm_set1_epi8(b as i8);
    let (mut host, mut non_ascii) = (0, 0);
    for k in 0..4 {
        // SAFETY: the caller guarantees p..p+64 is readable.
        let v = unsafe { _mm_loadu_si128(p.add(16 * k) as *const __m128i) };
        let lower = _mm_or_si128(v, set(0x20));
        let letter = _mm_and_si128(
            _mm_cmpgt_epi8(lower, set(b'a' - 1)),
            _mm_cmplt_epi8(lower, set(b'z' + 1)),
        );
        let digit = _mm_and_si128(
            _mm_cmpgt_epi8(v, set(b'0' - 1)),
            _mm_cmplt_epi8(v, set(b'9' + 1)),
        );
        let h = _mm_or_si128(_mm_or_si128(letter, digit), _mm_cmpeq_epi8(v, set(b'-')));
        let bits = |m: __m128i| (_mm_movemask_epi8(m) as u16 as u64) << (16 * k);
        host |= bits(h);
        non_ascii |= bits(v);
    }
    (host, non_ascii)
}

/// `.` and `。` starts of the 64 bytes at `p` (66 readable). Most blocks have neither a
/// `.` nor an `E3` byte: one compare pair per 32 bytes settles those, and the shifted
/// loads of the three-byte `。` test are only made when an `E3` is present.
#[target_feature(enable = "avx2")]
unsafe fn avx2_dots(p: *const u8) -> (u64, u64) {
    let set = |b: u8| _mm256_set1_epi8(b as i8);
    // SAFETY: the caller guarantees p..p+66 is readable.
    let (lo, hi) = unsafe {
        (
            _mm256_loadu_si256(p as *const __m256i),
            _mm256_loadu_si256(p.add(32) as *const __m256i),
        )
    };
    let bits = |lo: __m256i, hi: __m256i| {
        (_mm256_movemask_epi8(lo) as u32 as u64) | ((_mm256_movemask_epi8(hi) as u32 as u64) << 32)
    };
    let dot = bits(
        _mm256_cmpeq_epi8(lo, set(b'.')),
        _mm256_cmpeq_epi8(hi, set(b'.')),
    );
    let e3 = bits(
        _mm256_cmpeq_epi8(lo, set(0xE3)),
        _mm256_cmpeq_epi8(hi, set(0xE3)),
    );
    if e3 == 0 {
        return (dot, 0);
    }
    // SAFETY: as above; 32 + 2 + 32 <= 66.
    let (lo1, hi1, lo2, hi2) = unsafe {
        (
            _mm256_loadu_si256(p.add(1) as *const __m256i),
            _mm256_loadu_si256(p.add(33) as *const __m256i),
            _mm256_loadu_si256(p.add(2) as *const __m256i),
            _mm256_loadu_si256(p.add(34) as *const __m256i),
        )
    };
    let tail = bits(
        _mm256_and_si256(
            _mm256_cmpeq_epi8(lo1, set(0x80)),
            _mm256_cmpeq_epi8(lo2, set(0x82)),
        ),
        _mm256_and_si256(
            _mm256_cmpeq_epi8(hi1, set(0x80)),
            _mm256_cmpeq_epi8(hi2, set(0x82)),
        ),
    );
    (dot, e3 & tail)
}

/// ASCII host characters and non-ASCII bytes of the 64 bytes at `p`.
#[target_feature(enable = "avx2")]
unsafe fn avx2_hosts(p: *const u8) -> (u64, u64) {
    let set = |b: u8| _mm256_set1_epi8(b as i8);
    let (mut host, mut non_ascii) = (0, 0);
    for k in 0..2 {
        // SAFETY: the caller guarantees p..p+64 is readable.
        let v = unsafe { _mm256_loadu_si256(p.add(32 * k) as *const __m256i) };
        let lower = _mm256_or_si256(v, set(0x20));
        let letter = _mm256_and_si256(
            _mm256_cmpgt_epi8(lower, set(b'a' - 1)),
            _mm256_cmpgt_epi8(set(b'z' + 1), lower),
        );
        let digit = _mm256_and_si256(
            _mm256_cmpgt_epi8(v, set(b'0' - 1)),
            _mm256_cmpgt_epi8(set(b'9' + 1), v),
        );
        let h = _mm256_or_si256(
            _mm256_or_si256(letter, digit),
            _mm256_cmpeq_epi8(v, set(b'-')),
        );
        let bits = |m: __m256i| (_mm256_movemask_epi8(m) as u32 as u64) << (32 * k);
        host |= bits(h);
        non_ascii |= bits(v);
    }
    (host, non_ascii)
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

/// The termination automaton compiled with AVX2, its plain-byte skip inlined. Only
/// called through an AVX2 [`super::Kernel`], made only once AVX2 was detected.
#[inline]
pub(crate) fn avx2_terminate(
    text: &[u8],
    start: usize,
    stack: &mut crate::terminate::BracketStack,
) -> usize {
    // SAFETY: the CPU has AVX2 (see above).
    unsafe { avx2_terminate_impl(text, start, stack) }
}

#[target_feature(enable = "avx2")]
unsafe fn avx2_terminate_impl(
    text: &[u8],
    start: usize,
    stack: &mut crate::terminate::BracketStack,
) -> usize {
    crate::terminate::terminate_with(
        text,
        start,
        stack,
        |text, i| {
            // SAFETY: AVX2 is enabled here; `avx2_skip` only loads 32 bytes at offsets
            // `j` with `j + 32 <= text.len()`.
            let j = unsafe { avx2_skip(text, i) };
            if j + 32 <= text.len() {
                j
            } else {
                portable::skip_plain(text, j)
            }
        },
        // SAFETY: AVX2 is enabled here.
        |text, i| unsafe { avx2_simple(text, i) },
    )
}

/// AVX2 skip over simple bytes (see `Kernel::skip_simple`), 32 at a time; the last bytes
/// go through the scalar tables. Only called through an AVX2 [`super::Kernel`], made only
/// once AVX2 was detected.
#[inline]
pub(crate) fn avx2_skip_simple(text: &[u8], i: usize) -> (usize, usize) {
    // SAFETY: the CPU has AVX2 (see above).
    unsafe { avx2_simple(text, i) }
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn avx2_simple(text: &[u8], mut i: usize) -> (usize, usize) {
    let [(simple_lo, simple_hi), (include_lo, include_hi)] = &SIMPLE_NIBBLE_TABLES;
    let table = |t: &[u8; 16]| {
        // SAFETY: the table has 16 bytes.
        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr() as *const __m128i) })
    };
    let (simple_lo, simple_hi) = (table(simple_lo), table(simple_hi));
    let (include_lo, include_hi) = (table(include_lo), table(include_hi));
    let nibble = _mm256_set1_epi8(0x0F);
    let zero = _mm256_setzero_si256();
    let mut included = 0;
    while i + 32 <= text.len() {
        // SAFETY: i + 32 <= text.len().
        let v = unsafe { _mm256_loadu_si256(text.as_ptr().add(i) as *const __m256i) };
        let low = _mm256_and_si256(v, nibble);
        let high = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
        let lookup = |lo: __m256i, hi: __m256i| {
            let classes =
                _mm256_and_si256(_mm256_shuffle_epi8(lo, low), _mm256_shuffle_epi8(hi, high));
            !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(classes, zero)) as u32)
        };
        let simple = lookup(simple_lo, simple_hi);
        let include = lookup(include_lo, include_hi);
        // The bytes of the run in this vector: all, or those before the first other byte.
        let run = simple & !simple.wrapping_add(1);
        if include & run != 0 {
            included = i + 32 - (include & run).leading_zeros() as usize;
        }
        if run != u32::MAX {
            return (i + run.count_ones() as usize, included);
        }
        i += 32;
    }
    portable::skip_simple(text, i, included)
}

#[inline]
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

/// The AVX2 backward walk over ASCII host bytes (see `Kernel::walk_ascii_host`). Only
/// called through an AVX2 [`super::Kernel`], made only once AVX2 was detected.
#[inline]
pub(crate) fn avx2_walk_ascii_host(
    text: &[u8],
    i: usize,
    stop: usize,
    next: u8,
) -> (usize, bool, u8) {
    // SAFETY: the CPU has AVX2 (see above); the walk loads the 32 bytes before `j` only
    // while `j >= 32`.
    unsafe { avx2_walk(text, i, stop, next) }
}

#[target_feature(enable = "avx2")]
unsafe fn avx2_walk(text: &[u8], mut i: usize, stop: usize, mut next: u8) -> (usize, bool, u8) {
    use super::{C_DOT, C_HOST, C_HYPHEN};
    let set = |b: u8| _mm256_set1_epi8(b as i8);
    let mut bad = false;
    while i > stop && i >= 32 && i <= text.len() {
        // SAFETY: 32 <= i <= text.len(), so text[i - 32..i] is readable.
        let v = unsafe { _mm256_loadu_si256(text.as_ptr().add(i - 32) as *const __m256i) };
        let lower = _mm256_or_si256(v, set(0x20));
        let letter = _mm256_and_si256(
            _mm256_cmpgt_epi8(lower, set(b'a' - 1)),
            _mm256_cmpgt_epi8(set(b'z' + 1), lower),
        );
        let digit = _mm256_and_si256(
            _mm256_cmpgt_epi8(v, set(b'0' - 1)),
            _mm256_cmpgt_epi8(set(b'9' + 1), v),
        );
        let dot = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, set(b'.'))) as u32 as u64;
        let hyphen = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, set(b'-'))) as u32 as u64;
        let alnum = _mm256_movemask_epi8(_mm256_or_si256(letter, digit)) as u32 as u64;
        // Bit k: byte i - 32 + k. Bytes below `stop` do not count.
        let floor_mask = if i - stop >= 32 {
            u64::MAX
        } else {
            u64::MAX << (32 - (i - stop))
        };
        let host = (alnum | dot | hyphen) & floor_mask & 0xFFFF_FFFF;
        // The run: the set bits from bit 31 down to the first clear one.
        let run_len = (((!host) << 32).leading_zeros() as usize).min(32);
        if run_len == 0 {
            break;
        }
        let run = (u64::MAX << (32 - run_len)) & 0xFFFF_FFFF;
        // Pairs (k, k + 1) inside the run or with the character after it (bit 32).
        let dots = dot | (((next == C_DOT) as u64) << 32);
        let hyphens = hyphen | (((next == C_HYPHEN) as u64) << 32);
        let pairs = (dot & ((dots | hyphens) >> 1)) | (hyphen & (dots >> 1));
        bad |= pairs & run != 0;
        i -= run_len;
        let low = 32 - run_len; // the bit of text[i]
        next = if dot >> low & 1 == 1 {
            C_DOT
        } else if hyphen >> low & 1 == 1 {
            C_HYPHEN
        } else {
            C_HOST
        };
        if run_len < 32 {
            break;
        }
    }
    (i, bad, next)
}

/// The AVX2 backward walk over ASCII local-part bytes (see `Kernel::walk_ascii_email`).
/// Only called through an AVX2 [`super::Kernel`], made only once AVX2 was detected.
#[inline]
pub(crate) fn avx2_walk_ascii_email(
    text: &[u8],
    i: usize,
    floor: usize,
    dot_after: bool,
) -> (usize, bool, bool) {
    // SAFETY: the CPU has AVX2 (see above); the walk loads the 32 bytes before `j` only
    // while `32 <= j <= text.len()`.
    unsafe { avx2_email_walk(text, i, floor, dot_after) }
}

#[target_feature(enable = "avx2")]
unsafe fn avx2_email_walk(
    text: &[u8],
    mut i: usize,
    floor: usize,
    mut dot_after: bool,
) -> (usize, bool, bool) {
    let (lo, hi) = &EMAIL_NIBBLE_TABLES;
    // SAFETY: both tables have 16 bytes.
    let (lo, hi) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(lo.as_ptr() as *const __m128i)),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(hi.as_ptr() as *const __m128i)),
        )
    };
    let nibble = _mm256_set1_epi8(0x0F);
    let mut double_dot = false;
    while i > floor && i >= 32 && i <= text.len() {
        // SAFETY: 32 <= i <= text.len(), so text[i - 32..i] is readable.
        let v = unsafe { _mm256_loadu_si256(text.as_ptr().add(i - 32) as *const __m256i) };
        let classes = _mm256_and_si256(
            _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble)),
            _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)),
        );
        let outside = _mm256_movemask_epi8(_mm256_cmpeq_epi8(classes, _mm256_setzero_si256()));
        let dot =
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'.' as i8))) as u32 as u64;
        // Bit k: byte i - 32 + k. Bytes below `floor` do not count.
        let floor_mask = if i - floor >= 32 {
            u64::MAX
        } else {
            u64::MAX << (32 - (i - floor))
        };
        let email = !(outside as u32 as u64) & floor_mask & 0xFFFF_FFFF;
        let run_len = (((!email) << 32).leading_zeros() as usize).min(32);
        if run_len == 0 {
            break;
        }
        let run = (u64::MAX << (32 - run_len)) & 0xFFFF_FFFF;
        let dots = dot | ((dot_after as u64) << 32);
        double_dot |= dot & (dots >> 1) & run != 0;
        i -= run_len;
        dot_after = dot >> (32 - run_len) & 1 == 1;
        if run_len < 32 {
            break;
        }
    }
    (i, double_dot, dot_after)
}
