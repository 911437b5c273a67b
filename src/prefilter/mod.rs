//! Stage 1: find the candidate positions — the Dots that can precede a TLD — at memory
//! speed.
//!
//! A link always has a TLD, and a TLD always follows a Dot: `.` (U+002E) or `。` (U+3002,
//! bytes `E3 80 82`). So the scanner only ever needs the positions of those two, in order.
//! A *kernel* classifies a 64-byte block into a `u64` bitmask whose bit `i` is set when a
//! Dot starts at byte `i` of the block; [`Candidates`] walks the set bits, and skips
//! blocks without any at the speed of a few vector compares per 64 bytes. This replaces a
//! `memchr` call per dot, whose fixed cost dominates when dots come every few dozen bytes
//! (as in mail headers), and finds both Dots in one pass.
//!
//! Kernels: AVX2 and SSE2 on x86_64 (chosen at run time), NEON on aarch64, and a portable
//! one everywhere (also used for the last bytes of a text, where a vector load would read
//! past the end). All produce identical masks; the tests force each one and compare.
//!
//! The same kernels serve the termination automaton: inside a path, query or fragment,
//! [`Kernel::skip_plain`] finds the end of a run of [`PLAIN`] bytes — ASCII, Link_Term
//! Include and no part's separator — which only extends the link. Membership in `PLAIN`
//! is tested 16 or 32 bytes at a time with two nibble lookups (`pshufb`/`tbl`): each
//! high nibble is given a bit standing for its set of low nibbles ([`NIBBLE_TABLES`]),
//! and a byte is plain exactly when `HI[b >> 4] & LO[b & 15] != 0`.
//!
//! Invariants: a kernel reads the bytes `at..at + 66` (the block plus the two bytes a
//! `。` starting at its end needs) only when they exist; otherwise the portable kernel
//! handles the block. Bits for positions past the end of the text are never set.

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// Bytes per block: one bit of the mask per byte.
pub(crate) const BLOCK: usize = 64;
/// Bytes a vector kernel may read past the start of a block.
pub(crate) const READ_AHEAD: usize = BLOCK + 2;

/// ASCII bytes that are Link_Term=Include and no part's separator (`/ ? # = & , :`):
/// inside any part, a run of them only moves the end of the link to the end of the run.
/// (`,` and `:` are Soft anyway; they are listed for clarity.)
pub(crate) static PLAIN: [bool; 256] = {
    use crate::props::{LT_INCLUDE, LT_MASK};
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let special = matches!(b as u8, b'/' | b'?' | b'#' | b'=' | b'&' | b',' | b':');
        table[b] = !special && crate::tables::PROPS_BLOCKS[b] & LT_MASK == LT_INCLUDE;
        b += 1;
    }
    table
};

/// `(LO, HI)` nibble tables for [`PLAIN`]: `b` is plain iff `HI[b >> 4] & LO[b & 15] != 0`.
/// Each high nibble gets the bit of its set of low nibbles (at most 8 distinct sets, as
/// only 0..=7 can be plain); high nibbles 8..=15 get no bit.
pub(crate) static NIBBLE_TABLES: ([u8; 16], [u8; 16]) = {
    let mut sets = [0u16; 8]; // distinct low-nibble sets, as 16-bit masks
    let mut count = 0;
    let mut lo = [0u8; 16];
    let mut hi = [0u8; 16];
    let mut h = 0;
    while h < 8 {
        let mut set = 0u16;
        let mut l = 0;
        while l < 16 {
            if PLAIN[h * 16 + l] {
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
};

/// A choice of vector kernels. Every kernel computes the same results.
///
/// A value can only be had from [`Kernel::detect`], [`Kernel::available`] or
/// [`Kernel::portable`], which check the CPU first: holding an AVX2 kernel is the proof
/// that the CPU has AVX2, so the kernels do not test it again on every call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Kind);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Sse2,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl Kernel {
    /// The fastest kernel this CPU supports.
    pub fn detect() -> Kernel {
        *Kernel::available()
            .last()
            .expect("the portable kernel is always available")
    }

    /// The scalar kernel, available everywhere.
    pub fn portable() -> Kernel {
        Kernel(Kind::Portable)
    }

    /// Every kernel this CPU can run, slowest first (for tests and benchmarks).
    pub fn available() -> Vec<Kernel> {
        let mut kernels = vec![Kernel(Kind::Portable)];
        #[cfg(target_arch = "x86_64")]
        {
            kernels.push(Kernel(Kind::Sse2));
            if std::is_x86_feature_detected!("avx2") {
                kernels.push(Kernel(Kind::Avx2));
            }
        }
        #[cfg(target_arch = "aarch64")]
        kernels.push(Kernel(Kind::Neon));
        kernels
    }

    /// `"portable"`, `"sse2"`, `"avx2"` or `"neon"`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Kind::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => "sse2",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => "avx2",
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => "neon",
        }
    }

    /// The first position at or after `i` whose byte is not [`PLAIN`] (`text.len()` if none).
    #[inline]
    pub(crate) fn skip_plain(self, text: &[u8], i: usize) -> usize {
        match self.0 {
            Kind::Portable => portable::skip_plain(text, i),
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => x86_64::sse2_skip_plain(text, i),
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => x86_64::avx2_skip_plain(text, i),
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => aarch64::neon_skip_plain(text, i),
        }
    }

    /// The candidate mask of the block of `text` starting at `at` (`at < text.len()`).
    #[inline]
    pub(crate) fn block_mask(self, text: &[u8], at: usize) -> u64 {
        if text.len() - at < READ_AHEAD {
            return portable::block_mask(text, at);
        }
        match self.0 {
            Kind::Portable => portable::block_mask(text, at),
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => x86_64::sse2_block_mask(text, at),
            #[cfg(target_arch = "x86_64")]
            // Only reachable with a kernel made after detecting AVX2.
            Kind::Avx2 => x86_64::avx2_block_mask(text, at),
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => aarch64::neon_block_mask(text, at),
        }
    }
}

/// The Dots of a text, in order, from a position that only moves forward.
pub(crate) struct Candidates {
    kernel: Kernel,
    /// Whether `base` and `mask` describe a block yet.
    started: bool,
    /// Start of the current block.
    base: usize,
    /// Candidates of the current block not yet returned (bit i: `base + i`).
    mask: u64,
}

impl Candidates {
    pub(crate) fn new(kernel: Kernel) -> Candidates {
        Candidates {
            kernel,
            started: false,
            base: 0,
            mask: 0,
        }
    }

    /// The first Dot at or after `from` (never less than an earlier `from`):
    /// `(position, byte length)`.
    #[inline]
    pub(crate) fn next(&mut self, text: &[u8], from: usize) -> Option<(usize, usize)> {
        if !self.started || from >= self.base + BLOCK {
            if from >= text.len() {
                return None;
            }
            self.started = true;
            self.base = from;
            self.mask = self.kernel.block_mask(text, from);
        } else if from > self.base {
            self.mask &= u64::MAX << (from - self.base);
        }
        loop {
            if self.mask != 0 {
                let at = self.base + self.mask.trailing_zeros() as usize;
                let len = if text[at] == b'.' { 1 } else { 3 };
                return Some((at, len));
            }
            self.base += BLOCK;
            if self.base >= text.len() {
                self.base = text.len();
                return None;
            }
            self.mask = self.kernel.block_mask(text, self.base);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(text: &[u8]) -> Vec<usize> {
        (0..text.len())
            .filter(|&i| text[i] == b'.' || text[i..].starts_with("。".as_bytes()))
            .collect()
    }

    fn all(kernel: Kernel, text: &[u8]) -> Vec<usize> {
        let mut c = Candidates::new(kernel);
        let mut out = Vec::new();
        let mut from = 0;
        while let Some((at, len)) = c.next(text, from) {
            out.push(at);
            from = at + len;
        }
        out
    }

    /// Every kernel equals the naive definition at every alignment and length, with dots
    /// and ideographic full stops across block boundaries.
    #[test]
    fn kernels_agree_with_the_naive_search() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces: [&[u8]; 7] = [
            b".",
            "。".as_bytes(),
            b"a",
            b"\xE3",
            b"\x80\x82",
            b" ",
            "中".as_bytes(),
        ];
        for round in 0..400 {
            let len = (random() % 300) as usize;
            let mut text = Vec::new();
            while text.len() < len {
                let p = pieces[(random() % pieces.len() as u64) as usize];
                text.extend_from_slice(p);
            }
            let expected = naive(&text);
            for kernel in Kernel::available() {
                assert_eq!(
                    all(kernel, &text),
                    expected,
                    "round {round} kernel {kernel:?}"
                );
                // Mask by mask, too, at every start offset.
                for at in 0..text.len() {
                    assert_eq!(
                        kernel.block_mask(&text, at),
                        portable::block_mask(&text, at),
                        "kernel {kernel:?} at {at}"
                    );
                }
            }
        }
    }

    #[test]
    fn nibble_tables_classify_every_byte_like_the_plain_table() {
        let (lo, hi) = NIBBLE_TABLES;
        for b in 0..=255usize {
            assert_eq!(hi[b >> 4] & lo[b & 15] != 0, PLAIN[b], "byte {b:#04x}");
        }
    }

    /// Every kernel's skip equals the scalar definition from every start offset.
    #[test]
    fn skip_plain_agrees_across_kernels() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..300 {
            let len = (random() % 200) as usize;
            // Mostly plain bytes, sometimes anything, so runs of all lengths occur.
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    if random() % 24 == 0 {
                        random() as u8
                    } else {
                        b"abcXYZ019-_~%+*$@"[(random() % 17) as usize]
                    }
                })
                .collect();
            for i in 0..=text.len() {
                let expected = (i..text.len())
                    .find(|&j| !PLAIN[text[j] as usize])
                    .unwrap_or(text.len());
                for kernel in Kernel::available() {
                    assert_eq!(
                        kernel.skip_plain(&text, i),
                        expected,
                        "round {round} at {i} {kernel:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn skips_from_positions_inside_and_past_blocks() {
        let mut text = vec![b'x'; 1000];
        for i in [0, 63, 64, 65, 130, 500, 999] {
            text[i] = b'.';
        }
        for kernel in Kernel::available() {
            let mut c = Candidates::new(kernel);
            assert_eq!(c.next(&text, 0), Some((0, 1)));
            assert_eq!(c.next(&text, 1), Some((63, 1)));
            assert_eq!(c.next(&text, 66), Some((130, 1)));
            assert_eq!(c.next(&text, 131), Some((500, 1)));
            assert_eq!(c.next(&text, 999), Some((999, 1)));
            assert_eq!(c.next(&text, 1000), None);
            assert_eq!(Candidates::new(kernel).next(b"", 0), None);
        }
    }
}
