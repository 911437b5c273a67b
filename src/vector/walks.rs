//! The scanner's backward walks, a vector at a time: over the ASCII bytes of a host name
//! (`[A-Za-z0-9.-]`, [`walk_host`]) and of an email local part
//! ([`crate::ascii::LOCAL_PART`], [`walk_local_part`]), from a position down to a floor,
//! the way the scanner walks byte by byte, with what the scanner needs to know about the
//! bytes walked.
//!
//! Each vector of `BYTES` bytes ending at `i` becomes masks (bit `k`: byte `i - BYTES +
//! k`); the run of wanted bytes ending at `i` is the count of leading ones from the top
//! bit, and the bad pairs (Dot Dot, Dot `-`, `-` Dot in a host; two dots in a local part)
//! are a shift and an and, with the byte after the vector as bit `BYTES`. The walk goes on
//! while a whole vector belongs to the run.
//!
//! The `scalar` definitions (compiled for the tests) are what every walk must equal;
//! kernels without a vector walk (the portable one) walk nothing, and the scanner's own
//! byte loop does the rest.
//!
//! Invariant: a vector is loaded from `i - BYTES` only when `BYTES <= i <= text.len()`.

use super::runs::LOCAL_PART_NIBBLES;
use super::simd::{alphanumeric_digit, Lookup, Vector};
#[cfg(test)]
use crate::ascii::LOCAL_PART;
use crate::ascii::{C_DOT, C_HOST, C_HYPHEN};

/// Bits of the lanes at or above `floor` in a vector ending at `i` (bit `k`: byte
/// `i - BYTES + k`).
#[inline(always)]
fn above<V: Vector>(i: usize, floor: usize) -> u64 {
    if i - floor >= V::BYTES {
        V::ALL
    } else {
        (u64::MAX << (V::BYTES - (i - floor))) & V::ALL
    }
}

/// The length of the run of set bits of `mask` from bit `BYTES - 1` down.
#[inline(always)]
fn top_run<V: Vector>(mask: u64) -> usize {
    ((!mask) << (64 - V::BYTES))
        .leading_zeros()
        .min(V::BYTES as u32) as usize
}

/// Walks back from `i` over ASCII host bytes while above `stop`: returns the new position,
/// whether a bad label pair (Dot Dot, Dot `-`, `-` Dot) was seen among the bytes walked
/// and the character after them (whose class is `next`), and the class of the last byte
/// walked (or `next`).
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn walk_host<V: Vector>(
    text: &[u8],
    mut i: usize,
    stop: usize,
    mut next: u8,
) -> (usize, bool, u8) {
    let mut bad = false;
    while i > stop && i >= V::BYTES && i <= text.len() {
        // SAFETY: BYTES <= i <= text.len(), so text[i - BYTES..i] is readable; the CPU has
        // the instruction set of `V` (the caller's promise).
        let (dot, hyphen, alnum) = unsafe {
            let v = V::load(text.as_ptr().add(i - V::BYTES));
            (
                v.eq(V::splat(b'.')).movemask(),
                v.eq(V::splat(b'-')).movemask(),
                alphanumeric_digit(v).0.movemask(),
            )
        };
        let host = (alnum | dot | hyphen) & above::<V>(i, stop);
        let run_len = top_run::<V>(host);
        if run_len == 0 {
            break;
        }
        let run = (u64::MAX << (V::BYTES - run_len)) & V::ALL;
        // Pairs (k, k + 1) inside the run or with the character after it (bit BYTES).
        let dots = dot | (((next == C_DOT) as u64) << V::BYTES);
        let hyphens = hyphen | (((next == C_HYPHEN) as u64) << V::BYTES);
        let pairs = (dot & ((dots | hyphens) >> 1)) | (hyphen & (dots >> 1));
        bad |= pairs & run != 0;
        i -= run_len;
        let low = V::BYTES - run_len; // the bit of text[i]
        next = if dot >> low & 1 == 1 {
            C_DOT
        } else if hyphen >> low & 1 == 1 {
            C_HYPHEN
        } else {
            C_HOST
        };
        if run_len < V::BYTES {
            break;
        }
    }
    (i, bad, next)
}

/// Walks back from `i` over ASCII local-part bytes ([`LOCAL_PART`](crate::ascii::LOCAL_PART)) while above `floor`:
/// returns the new position, whether two adjacent dots were seen (counting the byte after
/// the walked ones, a dot when `dot_after`), and whether the last byte walked is a dot (or
/// `dot_after`).
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn walk_local_part<V: Lookup>(
    text: &[u8],
    mut i: usize,
    floor: usize,
    mut dot_after: bool,
) -> (usize, bool, bool) {
    let (lo, hi) = &LOCAL_PART_NIBBLES;
    // SAFETY: the CPU has the instruction set of `V` (the caller's promise).
    let (lo, hi) = unsafe { (V::table(lo), V::table(hi)) };
    let mut double_dot = false;
    while i > floor && i >= V::BYTES && i <= text.len() {
        // SAFETY: BYTES <= i <= text.len(), so text[i - BYTES..i] is readable; the CPU has
        // the instruction set of `V`.
        let (outside, dot) = unsafe {
            let v = V::load(text.as_ptr().add(i - V::BYTES));
            (
                v.nibble_lookup(lo, hi).eq(V::splat(0)).movemask(),
                v.eq(V::splat(b'.')).movemask(),
            )
        };
        let local = !outside & above::<V>(i, floor);
        let run_len = top_run::<V>(local);
        if run_len == 0 {
            break;
        }
        let run = (u64::MAX << (V::BYTES - run_len)) & V::ALL;
        let dots = dot | ((dot_after as u64) << V::BYTES);
        double_dot |= dot & (dots >> 1) & run != 0;
        i -= run_len;
        dot_after = dot >> (V::BYTES - run_len) & 1 == 1;
        if run_len < V::BYTES {
            break;
        }
    }
    (i, double_dot, dot_after)
}

/// The walks byte by byte: the definitions the vector walks are tested against.
#[cfg(test)]
pub(crate) mod scalar {
    use super::*;

    /// [`super::walk_host`] byte by byte, all the way.
    pub(crate) fn walk_host(
        text: &[u8],
        mut i: usize,
        stop: usize,
        mut next: u8,
    ) -> (usize, bool, u8) {
        let mut bad = false;
        while i > stop {
            let class = match text[i - 1] {
                b'.' => C_DOT,
                b'-' => C_HYPHEN,
                b if b.is_ascii_alphanumeric() => C_HOST,
                _ => break,
            };
            bad |= matches!(
                (class, next),
                (C_DOT, C_DOT) | (C_DOT, C_HYPHEN) | (C_HYPHEN, C_DOT)
            );
            next = class;
            i -= 1;
        }
        (i, bad, next)
    }

    /// [`super::walk_local_part`] byte by byte, all the way.
    pub(crate) fn walk_local_part(
        text: &[u8],
        mut i: usize,
        floor: usize,
        mut dot_after: bool,
    ) -> (usize, bool, bool) {
        let mut double_dot = false;
        while i > floor && LOCAL_PART[text[i - 1] as usize] {
            let dot = text[i - 1] == b'.';
            double_dot |= dot && dot_after;
            dot_after = dot;
            i -= 1;
        }
        (i, double_dot, dot_after)
    }
}
