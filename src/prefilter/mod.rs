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

/// A block classifier. Every variant computes the same mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Scalar code, on every target.
    Portable,
    /// x86_64 SSE2 (always present on x86_64).
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// x86_64 AVX2, when the CPU has it.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// aarch64 NEON (always present on aarch64).
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl Kernel {
    /// The fastest kernel this CPU supports.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
            Kernel::Sse2
        }
        #[cfg(target_arch = "aarch64")]
        {
            Kernel::Neon
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            Kernel::Portable
        }
    }

    /// Every kernel this CPU can run (for tests and benchmarks).
    pub fn available() -> Vec<Kernel> {
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            kernels.push(Kernel::Sse2);
            if std::is_x86_feature_detected!("avx2") {
                kernels.push(Kernel::Avx2);
            }
        }
        #[cfg(target_arch = "aarch64")]
        kernels.push(Kernel::Neon);
        kernels
    }

    /// The candidate mask of the block of `text` starting at `at` (`at < text.len()`).
    #[inline]
    pub(crate) fn block_mask(self, text: &[u8], at: usize) -> u64 {
        if text.len() - at < READ_AHEAD {
            return portable::block_mask(text, at);
        }
        match self {
            Kernel::Portable => portable::block_mask(text, at),
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => x86_64::sse2_block_mask(text, at),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => x86_64::avx2_block_mask(text, at),
            #[cfg(target_arch = "aarch64")]
            Kernel::Neon => aarch64::neon_block_mask(text, at),
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
