//! The one random generator of the tests (integration tests through `common`, the
//! library's unit tests through `#[path]`): xorshift64, deterministic from its seed, so a
//! failing case is the same on every run and needs no crate.
#![allow(dead_code)] // each test uses a part of it

/// Marsaglia's xorshift64 (shifts 13, 7, 17): every non-zero seed gives a sequence of
/// period 2^64 - 1.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (0, which xorshift cannot leave, is replaced).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One element of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}
