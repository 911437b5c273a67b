//! Skips over runs of bytes inside a URL part, for the termination automaton
//! (`crate::terminate`), which is generic over them ([`Runs`]) and never imported here.
//!
//! * [`PLAIN`] bytes (ASCII, Link_Term Include, no part's separator) only extend the link:
//!   `skip_plain` finds the end of their run.
//! * With no bracket open, [`SIMPLE`] bytes (Include or Soft ASCII, no terminator of the
//!   part) act by their Link_Term alone: `skip_simple` finds the end of their run and the
//!   end of its last [`SIMPLE_INCLUDE`] byte.
//!
//! Membership is tested a vector at a time with two nibble lookups (`pshufb`/`tbl`): each
//! high nibble is given a bit standing for its set of low nibbles ([`nibble_tables`]), and
//! a byte is in the set exactly when `HI[b >> 4] & LO[b & 15] != 0`. The vector versions
//! are written once ([`skip_plain`], [`skip_simple`]) over [`Lookup`]; the last bytes of a
//! text, which a load would overrun, and kernels without a byte lookup (SSE2, portable)
//! use the scalar tables ([`skip_plain_scalar`], [`skip_simple_scalar`]).
//!
//! Invariant: a vector is loaded at `i` only when `i + BYTES <= text.len()`.

use super::simd::Lookup;
use crate::ascii::{LOCAL_PART, PLAIN, SIMPLE, SIMPLE_INCLUDE};

/// `(LO, HI)` nibble tables for an ASCII byte set: `b` is in it iff
/// `HI[b >> 4] & LO[b & 15] != 0`. Each high nibble gets the bit of its set of low nibbles
/// (at most 8 distinct sets, as only 0..=7 can hold ASCII); high nibbles 8..=15 get none.
const fn nibble_tables(member: &[bool; 256]) -> ([u8; 16], [u8; 16]) {
    let mut sets = [0u16; 8]; // distinct low-nibble sets, as 16-bit masks
    let mut count = 0;
    let mut lo = [0u8; 16];
    let mut hi = [0u8; 16];
    let mut h = 0;
    while h < 8 {
        let mut set = 0u16;
        let mut l = 0;
        while l < 16 {
            if member[h * 16 + l] {
                set |= 1 << l;
            }
            l += 1;
        }
        if set != 0 {
            let mut k = 0;
            while k < count && sets[k] != set {
                k += 1;
            }
            if k == count {
                sets[count] = set;
                count += 1;
            }
            hi[h] = 1 << k;
            let mut l = 0;
            while l < 16 {
                if set & (1 << l) != 0 {
                    lo[l] |= 1 << k;
                }
                l += 1;
            }
        }
        h += 1;
    }
    (lo, hi)
}

/// Nibble tables for [`PLAIN`].
pub(crate) static PLAIN_NIBBLES: ([u8; 16], [u8; 16]) = nibble_tables(&PLAIN);

/// Nibble tables for [`SIMPLE`] and [`SIMPLE_INCLUDE`], of each part's set.
pub(crate) static SIMPLE_NIBBLES: [[([u8; 16], [u8; 16]); 2]; 3] = [
    [nibble_tables(&SIMPLE[0]), nibble_tables(&SIMPLE_INCLUDE[0])],
    [nibble_tables(&SIMPLE[1]), nibble_tables(&SIMPLE_INCLUDE[1])],
    [nibble_tables(&SIMPLE[2]), nibble_tables(&SIMPLE_INCLUDE[2])],
];

/// Nibble tables for [`LOCAL_PART`] (the backward local-part walk of [`super::walks`]).
pub(crate) static LOCAL_PART_NIBBLES: ([u8; 16], [u8; 16]) = nibble_tables(&LOCAL_PART);

/// The two skips the termination automaton uses; each kernel has one implementation, and
/// the automaton is compiled once per implementation (see [`super::Kernel::with_ops`]).
pub(crate) trait Runs: Copy {
    /// The first position at or after `i` whose byte is not [`PLAIN`] (`text.len()` if
    /// none).
    fn skip_plain(self, text: &[u8], i: usize) -> usize;
    /// The run of [`SIMPLE`] bytes of the set `set` (a part's, `ascii::simple_set`) at `i`:
    /// the first position at or after `i` whose byte is not simple (`text.len()` if none),
    /// and the end of the last [`SIMPLE_INCLUDE`] byte of the run (0 if it has none).
    fn skip_simple(self, text: &[u8], i: usize, set: usize) -> (usize, usize);
}

/// The scalar skips: the portable kernel's, and SSE2's (SSE2 has no byte shuffle; CPUs
/// without AVX2 are rare enough not to warrant an SSSE3 kernel).
#[derive(Clone, Copy)]
pub(crate) struct ScalarRuns;

impl Runs for ScalarRuns {
    #[inline(always)]
    fn skip_plain(self, text: &[u8], i: usize) -> usize {
        skip_plain_scalar(text, i)
    }
    #[inline(always)]
    fn skip_simple(self, text: &[u8], i: usize, set: usize) -> (usize, usize) {
        skip_simple_scalar(text, i, 0, set)
    }
}

/// The first position at or after `i` whose byte is not plain (`text.len()` if none).
#[inline]
pub(crate) fn skip_plain_scalar(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && PLAIN[text[i] as usize] {
        i += 1;
    }
    i
}

/// The run of simple bytes of the set `set` at `i` (see [`Runs::skip_simple`]);
/// `included` is the end of the last Include byte before `i` in the same run, or 0.
#[inline]
pub(crate) fn skip_simple_scalar(
    text: &[u8],
    mut i: usize,
    mut included: usize,
    set: usize,
) -> (usize, usize) {
    let (simple, include) = (&SIMPLE[set], &SIMPLE_INCLUDE[set]);
    while i < text.len() && simple[text[i] as usize] {
        i += 1;
        if include[text[i - 1] as usize] {
            included = i;
        }
    }
    (i, included)
}

/// Lanes of the vector at `p` that are in the set of the nibble tables `(lo, hi)`, as a
/// mask (bit `k`: lane `k`).
#[inline(always)]
unsafe fn members<V: Lookup>(v: V, lo: V, hi: V) -> u64 {
    // SAFETY: the caller's CPU has the instruction set of `V`.
    unsafe { !v.nibble_lookup(lo, hi).eq(V::splat(0)).movemask() & V::ALL }
}

/// [`Runs::skip_plain`] a vector at a time, the last bytes with the scalar table.
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn skip_plain<V: Lookup>(text: &[u8], mut i: usize) -> usize {
    let (lo, hi) = &PLAIN_NIBBLES;
    // SAFETY: the CPU has the instruction set of `V` (the caller's promise).
    let (lo, hi) = unsafe { (V::table(lo), V::table(hi)) };
    while i + V::BYTES <= text.len() {
        // SAFETY: i + BYTES <= text.len(), and the CPU has the instruction set of `V`.
        let plain = unsafe { members(V::load(text.as_ptr().add(i)), lo, hi) };
        if plain != V::ALL {
            return i + (!plain).trailing_zeros() as usize;
        }
        i += V::BYTES;
    }
    skip_plain_scalar(text, i)
}

/// [`Runs::skip_simple`] a vector at a time, the last bytes with the scalar tables.
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn skip_simple<V: Lookup>(
    text: &[u8],
    mut i: usize,
    set: usize,
) -> (usize, usize) {
    let [(simple_lo, simple_hi), (include_lo, include_hi)] = &SIMPLE_NIBBLES[set];
    // SAFETY: the CPU has the instruction set of `V` (the caller's promise).
    let (simple_lo, simple_hi, include_lo, include_hi) = unsafe {
        (
            V::table(simple_lo),
            V::table(simple_hi),
            V::table(include_lo),
            V::table(include_hi),
        )
    };
    let mut included = 0;
    while i + V::BYTES <= text.len() {
        // SAFETY: i + BYTES <= text.len(), and the CPU has the instruction set of `V`.
        let (simple, include) = unsafe {
            let v = V::load(text.as_ptr().add(i));
            (
                members(v, simple_lo, simple_hi),
                members(v, include_lo, include_hi),
            )
        };
        // The lanes of the run in this vector: all, or those before the first other byte.
        let run = simple & !simple.wrapping_add(1);
        if include & run != 0 {
            included = i + 64 - (include & run).leading_zeros() as usize;
        }
        if run != V::ALL {
            return (i + run.count_ones() as usize, included);
        }
        i += V::BYTES;
    }
    skip_simple_scalar(text, i, included, set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nibble_tables_classify_every_byte_like_their_tables() {
        for (tables, set) in [
            (&PLAIN_NIBBLES, &PLAIN),
            (&LOCAL_PART_NIBBLES, &LOCAL_PART),
            (&SIMPLE_NIBBLES[0][0], &SIMPLE[0]),
            (&SIMPLE_NIBBLES[0][1], &SIMPLE_INCLUDE[0]),
            (&SIMPLE_NIBBLES[1][0], &SIMPLE[1]),
            (&SIMPLE_NIBBLES[1][1], &SIMPLE_INCLUDE[1]),
            (&SIMPLE_NIBBLES[2][0], &SIMPLE[2]),
            (&SIMPLE_NIBBLES[2][1], &SIMPLE_INCLUDE[2]),
        ] {
            let (lo, hi) = tables;
            for b in 0..=255usize {
                assert_eq!(hi[b >> 4] & lo[b & 15] != 0, set[b], "byte {b:#04x}");
            }
        }
    }
}
