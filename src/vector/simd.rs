//! The vector trait the kernels are written against, in the style of `memchr`'s: a
//! handful of byte-lane operations, implemented once per instruction set (`__m128i` for
//! SSE2 and `__m256i` for AVX2 in [`super::x86_64`], `__m512i` for AVX-512 in `avx512`,
//! `uint8x16_t` for NEON in `aarch64`), and every algorithm of the layer written once,
//! generic over it.
//!
//! The methods are `#[inline(always)]` and carry no `#[target_feature]` themselves: they
//! are inlined into the generic algorithms, which are inlined into the one
//! `#[target_feature]` entry point of each instruction set, so every intrinsic ends up in
//! a function compiled for its instruction set.
//!
//! Invariants: `movemask` gives bit `k` for lane `k` (lane 0 is the lowest address), its
//! other bits clear; `load_reversed` puts the byte at `p + BYTES - 1 - k` in lane `k`, so
//! that the `movemask` of any lane-wise function of such loads has the bytes in reverse
//! order; [`Vector::BYTES`] is at most 64. The walks and skips take a mask and one more
//! bit in a `u64`, so they are only instantiated for vectors of at most 32 lanes (the
//! AVX-512 kernel's `__m512i` serves the candidate search alone).

/// A vector of [`Vector::BYTES`] byte lanes.
///
/// # Safety
///
/// Every method may only be called where the CPU has the instruction set of the
/// implementing type (the constructors of [`super::Kernel`] check it), and `load` only on
/// a pointer with [`Vector::BYTES`] readable bytes.
pub(crate) trait Vector: Copy {
    /// Lanes per vector: 16, 32 or 64.
    const BYTES: usize;
    /// A mask with one bit set per lane.
    const ALL: u64 = u64::MAX >> (64 - Self::BYTES);

    /// Every lane `b`.
    unsafe fn splat(b: u8) -> Self;
    /// The `BYTES` bytes at `p` (any alignment).
    unsafe fn load(p: *const u8) -> Self;
    /// All ones in the lanes where `self == other`.
    unsafe fn eq(self, other: Self) -> Self;
    /// All ones in the lanes where `self > other`, comparing bytes as signed.
    unsafe fn gt(self, other: Self) -> Self;
    /// Lane-wise and.
    unsafe fn and(self, other: Self) -> Self;
    /// Lane-wise or.
    unsafe fn or(self, other: Self) -> Self;
    /// The top bit of each lane, as bit `k` for lane `k`.
    unsafe fn movemask(self) -> u64;
    /// The `BYTES` bytes at `p` in reverse order: lane `k` holds the byte at
    /// `p + BYTES - 1 - k`. Reversing the loads of a block, rather than each of the masks
    /// taken from them, costs one reversal per load instead of one per class.
    unsafe fn load_reversed(p: *const u8) -> Self;
}

/// A vector with a 16-entry byte table lookup (`pshufb`, `tbl`): the nibble tests of
/// [`super::runs`].
pub(crate) trait Lookup: Vector {
    /// The 16-byte `table` in each 16-lane half.
    unsafe fn table(table: &[u8; 16]) -> Self;
    /// Lanes `lo[b & 15] & hi[b >> 4]` for each byte `b` of `self` (tables made by
    /// [`Lookup::table`]).
    unsafe fn nibble_lookup(self, lo: Self, hi: Self) -> Self;
}

/// The first byte of `text` at or after `at` in a lane that `stops` marks (all ones), a
/// vector at a time while a whole vector fits, then `scalar(text, i)` from the first
/// position it does not: the search loop of the kernels that look for the first of a
/// few bytes (`fields::name_end`, `strings::run_end`).
///
/// # Safety
/// The CPU has the instruction set of `V`, and `stops` marks what `scalar` finds.
#[inline(always)]
pub(crate) unsafe fn first_stop<V: Vector>(
    text: &[u8],
    at: usize,
    stops: impl Fn(V) -> V,
    scalar: impl Fn(&[u8], usize) -> usize,
) -> usize {
    let mut i = at;
    // SAFETY: the CPU has `V`'s instruction set (the caller's promise); every load reads
    // `BYTES` bytes inside `text` (`i + BYTES <= text.len()`, tested without an overflow
    // for any `at`).
    unsafe {
        let p = text.as_ptr();
        while text.len().saturating_sub(i) >= V::BYTES {
            let found = stops(V::load(p.add(i))).movemask();
            if found != 0 {
                return i + found.trailing_zeros() as usize;
            }
            i += V::BYTES;
        }
    }
    scalar(text, i)
}

/// Lanes of `v` whose byte is `[A-Za-z0-9]`, and those whose byte is `[0-9]`, by range
/// compares (signed compares suffice: bytes >= 0x80 are negative and fall outside every
/// range, and `b | 0x20` keeps them negative). With `-`, the first is ASCII
/// HostCharNoDot, `ascii::HOST_NO_DOT`, which the scanner reads.
#[inline(always)]
pub(crate) unsafe fn alphanumeric_digit<V: Vector>(v: V) -> (V, V) {
    // SAFETY: the caller's CPU has the instruction set of `V` (the trait's contract).
    unsafe {
        let lower = v.or(V::splat(0x20));
        let letter = lower
            .gt(V::splat(b'a' - 1))
            .and(V::splat(b'z' + 1).gt(lower));
        let digit = v.gt(V::splat(b'0' - 1)).and(V::splat(b'9' + 1).gt(v));
        (letter.or(digit), digit)
    }
}
