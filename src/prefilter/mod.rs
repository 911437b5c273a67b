//! Stage 1: find the candidate positions — the Dots that can precede a TLD — at memory
//! speed.
//!
//! A link always has a TLD, and a TLD always follows a Dot: `.` (U+002E) or `。` (U+3002,
//! bytes `E3 80 82`). So the scanner only ever needs the positions of those two, in order.
//! A *kernel* classifies a 64-byte block into four `u64` bitmasks, one bit per byte
//! ([`Classes`]): `.`, the start of `。`, ASCII HostCharNoDot (`[A-Za-z0-9-]`) and
//! non-ASCII. [`Classes::candidates`] then drops, with a few integer operations for the
//! whole block, the dots that can never start a link — those two checks of the scanner
//! that need no table:
//!
//! * a dot followed by an ASCII byte that is not HostCharNoDot (a space, a second dot…):
//!   the run after it is empty, so it is no TLD;
//! * a dot whose run of ASCII HostCharNoDot ends at another dot that is followed by one
//!   again (`.kernel` in `vger.kernel.org`): an inner label, rejected by step 2. These are
//!   found backwards from the *second* dot: reversing the bit order turns "the nearest
//!   non-HostCharNoDot byte below it" into a carry, `((killers << 1) + host) & !host`;
//! * when the scanner's TLD set has no one-byte entry (the IANA list), a dot followed by
//!   one ASCII HostCharNoDot and then an ASCII byte that is not (`e.g.`, `1.5%`,
//!   `v2.0 `): the run is one byte long, so it is no TLD.
//!
//! The first and third checks are the only ones applied to a block with a single dot
//! (a byte lookup or two), and the first to every `。` (sentence ends before a line
//! break); the second needs the host mask and pays only in blocks with [`DENSE_DOTS`]
//! dots or more, which get all three.
//!
//! Patterns that cross the end of a block are left in (conservative). So the scanner
//! sees only plausible candidates: in prose, where most dots end sentences, and in hostile
//! lines of `a.a.a.…` or `.com.com.…`, almost none reach the scalar code. [`Candidates`]
//! walks the set bits and skips empty blocks at the speed of a few vector operations per
//! 64 bytes. This replaces a `memchr` call per dot, whose fixed cost dominates when dots
//! come every few dozen bytes (as in mail headers), and finds both Dots in one pass.
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
//! and a byte is plain exactly when `HI[b >> 4] & LO[b & 15] != 0`. With no bracket open,
//! [`Kernel::skip_simple`] goes further: over [`SIMPLE`] bytes (Include or Soft ASCII, no
//! terminator of the part), returning the end of the last Include one; two such lookups
//! per vector (AVX2 and NEON; SSE2 and the portable kernel use the scalar tables).
//!
//! Invariants: a kernel reads the bytes `at..at + 66` (the block plus the two bytes a
//! `。` starting at its end needs) only when they exist; otherwise the portable kernel
//! handles the block. Bits for positions past the end of the text are never set.

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// Classes of the host walk's bytes, shared with the scanner: not a host character, a
/// host character, a dot, a hyphen, a byte >= 0x80.
pub(crate) const C_STOP: u8 = 0;
pub(crate) const C_HOST: u8 = 1;
pub(crate) const C_DOT: u8 = 2;
pub(crate) const C_HYPHEN: u8 = 3;
pub(crate) const C_NON_ASCII: u8 = 4;

/// Dots in a block from which the filter of [`Classes::candidates`] pays.
pub(crate) const DENSE_DOTS: u32 = 2;

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
pub(crate) static NIBBLE_TABLES: ([u8; 16], [u8; 16]) = nibble_tables(&PLAIN);

/// ASCII bytes that, inside a path, query or fragment with an empty bracket stack, act
/// only by their Link_Term value: Include or Soft, and no part's terminator (`? # :`).
/// A part's separators (`/` in a path, `=` `&` in a query) are among them: with nothing
/// on the stack, clearing it is the same as including the byte. Brackets, Hard bytes and
/// bytes >= 0x80 are not.
pub(crate) static SIMPLE: [bool; 256] = {
    use crate::props::{LT_INCLUDE, LT_MASK, LT_SOFT};
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let term = crate::tables::PROPS_BLOCKS[b] & LT_MASK;
        let terminator = matches!(b as u8, b'?' | b'#' | b':');
        table[b] = !terminator && (term == LT_INCLUDE || term == LT_SOFT);
        b += 1;
    }
    table
};

/// The [`SIMPLE`] bytes that are Link_Term=Include: each moves the end of the link past
/// itself; the others (Soft) only do so if an Include byte follows.
pub(crate) static SIMPLE_INCLUDE: [bool; 256] = {
    use crate::props::{LT_INCLUDE, LT_MASK};
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = SIMPLE[b] && crate::tables::PROPS_BLOCKS[b] & LT_MASK == LT_INCLUDE;
        b += 1;
    }
    table
};

/// Nibble tables for [`SIMPLE`] and [`SIMPLE_INCLUDE`].
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)] // used by the x86_64 and aarch64 kernels
pub(crate) static SIMPLE_NIBBLE_TABLES: [([u8; 16], [u8; 16]); 2] =
    [nibble_tables(&SIMPLE), nibble_tables(&SIMPLE_INCLUDE)];

/// ASCII bytes of an email local part: Link_Email=Yes, and `.`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86_64 kernels
pub(crate) static EMAIL: [bool; 256] = {
    use crate::props::LINK_EMAIL;
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = b == b'.' as usize || crate::tables::PROPS_BLOCKS[b] & LINK_EMAIL != 0;
        b += 1;
    }
    table
};

/// Nibble tables for [`EMAIL`].
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86_64 kernels
pub(crate) static EMAIL_NIBBLE_TABLES: ([u8; 16], [u8; 16]) = nibble_tables(&EMAIL);

/// The byte classes of one block (bit `i`: byte `at + i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Classes {
    /// `.`
    pub(crate) dot: u64,
    /// The first byte of `。` (`E3 80 82`).
    pub(crate) ideographic: u64,
    /// ASCII HostCharNoDot: `[A-Za-z0-9-]`.
    pub(crate) host: u64,
    /// Bytes >= 0x80.
    pub(crate) non_ascii: u64,
}

/// Whether `b` is ASCII HostCharNoDot: `[A-Za-z0-9-]`.
#[inline]
pub(crate) const fn is_ascii_host(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

impl Classes {
    /// The candidate positions of the block: every `。`, and every `.` that the checks
    /// above do not rule out (the third only with `drop_one_byte_runs`). `next` is the
    /// byte after the block (`None` at the end of the text).
    #[inline]
    pub(crate) fn candidates(self, next: Option<u8>, drop_one_byte_runs: bool) -> u64 {
        let (next_host, next_non_ascii) = match next {
            Some(b) => (is_ascii_host(b), b >= 0x80),
            None => (false, false),
        };
        // Bit i: byte i + 1 is ASCII HostCharNoDot / non-ASCII.
        let host_after = (self.host >> 1) | ((next_host as u64) << 63);
        let non_ascii_after = (self.non_ascii >> 1) | ((next_non_ascii as u64) << 63);
        let empty_run = self.dot & !host_after & !non_ascii_after;
        // Dots followed by a label: each kills the dot before its run, if that run is
        // all ASCII HostCharNoDot and inside the block.
        let killers = (self.dot & host_after).reverse_bits();
        let host = self.host.reverse_bits();
        let landed = ((killers << 1).wrapping_add(host) & !host).reverse_bits();
        let inner = landed & self.dot;
        // Bit i: byte i + 2 may continue a run (ASCII HostCharNoDot or non-ASCII); set for
        // the last two dots of the block, whose byte i + 2 is not looked at.
        let continues_2 = ((self.host | self.non_ascii) >> 2) | (0b11 << 62);
        let one_byte_run = self.dot & host_after & !continues_2;
        let one_byte_run = if drop_one_byte_runs { one_byte_run } else { 0 };
        (self.dot & !(empty_run | inner | one_byte_run)) | self.ideographic
    }
}

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

    /// The termination automaton compiled for this kernel, when it has its own
    /// instantiation (AVX2); `None`: use the generic one with [`Kernel::skip_plain`].
    #[inline]
    pub(crate) fn terminate(
        self,
        text: &[u8],
        start: usize,
        stack: &mut crate::terminate::BracketStack,
    ) -> Option<usize> {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // Only reachable with a kernel made after detecting AVX2.
            Kind::Avx2 => Some(x86_64::avx2_terminate(text, start, stack)),
            _ => {
                let _ = (text, start, stack); // used by the x86_64 kernels only
                None
            }
        }
    }

    /// Walks back from `i` over ASCII host bytes (`[A-Za-z0-9.-]`) while above `stop`, as
    /// the scanner's host walk does byte by byte: returns the new position, whether a bad
    /// label pair (Dot Dot, Dot `-`, `-` Dot) was seen among the bytes walked and the
    /// character after them (whose class is `next`), and the class of the last byte
    /// walked (or `next`). Kernels without a vector version walk nothing.
    #[inline]
    pub(crate) fn walk_ascii_host(
        self,
        text: &[u8],
        i: usize,
        stop: usize,
        next: u8,
    ) -> (usize, bool, u8) {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // Only reachable with a kernel made after detecting AVX2.
            Kind::Avx2 => x86_64::avx2_walk_ascii_host(text, i, stop, next),
            _ => {
                let _ = (text, stop); // used by the x86_64 kernels only
                (i, false, next)
            }
        }
    }

    /// Walks back from `i` over ASCII local-part bytes ([`EMAIL`]) while above `floor`, as
    /// the scanner's local-part walk does byte by byte: returns the new position, whether
    /// two adjacent dots were seen (counting the byte after the walked ones, a dot when
    /// `dot_after`), and whether the last byte walked is a dot (or `dot_after`). Kernels
    /// without a vector version walk nothing.
    #[inline]
    pub(crate) fn walk_ascii_email(
        self,
        text: &[u8],
        i: usize,
        floor: usize,
        dot_after: bool,
    ) -> (usize, bool, bool) {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // Only reachable with a kernel made after detecting AVX2.
            Kind::Avx2 => x86_64::avx2_walk_ascii_email(text, i, floor, dot_after),
            _ => {
                let _ = (text, floor); // used by the x86_64 kernels only
                (i, false, dot_after)
            }
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

    /// Skips the run of [`SIMPLE`] bytes at `i`: returns the first position at or after
    /// `i` whose byte is not simple (`text.len()` if none), and the end of the last
    /// [`SIMPLE_INCLUDE`] byte of the run (0 if it has none).
    #[inline]
    pub(crate) fn skip_simple(self, text: &[u8], i: usize) -> (usize, usize) {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // Only reachable with a kernel made after detecting AVX2.
            Kind::Avx2 => x86_64::avx2_skip_simple(text, i),
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => aarch64::neon_skip_simple(text, i),
            _ => portable::skip_simple(text, i, 0),
        }
    }

    /// The byte classes of the block of `text` starting at `at` (`at < text.len()`); the
    /// host classes (`host`, `non_ascii`) are left empty unless `hosts`.
    #[inline]
    pub(crate) fn classes(self, text: &[u8], at: usize, hosts: bool) -> Classes {
        if text.len() - at < READ_AHEAD {
            return portable::classes(text, at, hosts);
        }
        match self.0 {
            Kind::Portable => portable::classes(text, at, hosts),
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => x86_64::sse2_classes(text, at, hosts),
            #[cfg(target_arch = "x86_64")]
            // Only reachable with a kernel made after detecting AVX2.
            Kind::Avx2 => x86_64::avx2_classes(text, at, hosts),
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => aarch64::neon_classes(text, at, hosts),
        }
    }

    /// The candidate mask of the block of `text` starting at `at` (`at < text.len()`).
    #[inline]
    pub(crate) fn block_mask(self, text: &[u8], at: usize, drop_one_byte_runs: bool) -> u64 {
        let c = self.classes(text, at, false);
        block_candidates(c.dot, c.ideographic, text, at, drop_one_byte_runs, || {
            let h = self.classes(text, at, true);
            (h.host, h.non_ascii)
        })
    }

    /// The first block at or after `at` (blocks start at `at`, `at + 64`, …) with a
    /// candidate: `(block start, candidate mask)`, the mask 0 when there is none. The
    /// vector kernels run the loop over empty blocks inside one call. With
    /// `drop_one_byte_runs`, dots before a one-byte run are no candidates (see the module
    /// documentation).
    #[inline]
    pub(crate) fn next_block(
        self,
        text: &[u8],
        mut at: usize,
        drop_one_byte_runs: bool,
    ) -> (usize, u64) {
        let mask = match self.0 {
            Kind::Portable => 0,
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => x86_64::sse2_next_block(text, &mut at, drop_one_byte_runs),
            #[cfg(target_arch = "x86_64")]
            // Only reachable with a kernel made after detecting AVX2.
            Kind::Avx2 => x86_64::avx2_next_block(text, &mut at, drop_one_byte_runs),
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => 0,
        };
        if mask != 0 {
            return (at, mask);
        }
        // The rest (all of it for the portable and NEON kernels; the last bytes, which a
        // vector load would overrun, for the others).
        while at < text.len() {
            let mask = self.block_mask(text, at, drop_one_byte_runs);
            if mask != 0 {
                return (at, mask);
            }
            at += BLOCK;
        }
        (at, 0)
    }
}

/// Whether a block has at least [`DENSE_DOTS`] dots (clearing the lowest set bit is
/// cheaper than a population count on the x86_64 baseline, which has no `popcnt`).
#[inline(always)]
fn is_dense(dot: u64) -> bool {
    let mut rest = dot;
    for _ in 1..DENSE_DOTS {
        rest &= rest.wrapping_sub(1);
    }
    rest != 0
}

/// ASCII bytes that cannot start or continue a TLD run: a dot before one has an empty
/// run; a dot before an ASCII host byte and one has a one-byte run.
static NO_RUN_AFTER: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = !is_ascii_host(b as u8);
        b += 1;
    }
    table
};

/// The candidates of the block of `text` at `at` from its dots and `。` starts. The
/// filter of [`Classes::candidates`] costs about as much as the scalar code spends
/// rejecting one dot, so a block with a single dot only gets the cheapest part of it, a
/// look at the byte after the dot (sentence ends: `. `, `.\n`; the same look drops `。`
/// before a line break, in every block), and with `drop_one_byte_runs` at the byte after
/// that; from [`DENSE_DOTS`] dots on (host names, hostile lines of dots) the whole filter
/// pays (measured with callgrind on the corpora: 2 beat 1, 3, 4 and 6). `hosts` gives the
/// host classes when they are needed.
#[inline(always)]
pub(crate) fn block_candidates(
    dot: u64,
    ideographic: u64,
    text: &[u8],
    at: usize,
    drop_one_byte_runs: bool,
    hosts: impl FnOnce() -> (u64, u64),
) -> u64 {
    // `。` ends sentences in CJK text, most often before a line break: drop those.
    let mut rest = ideographic;
    let mut ideographic = ideographic;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if text
            .get(at + i + 3)
            .is_none_or(|&b| NO_RUN_AFTER[b as usize])
        {
            ideographic &= !(1 << i);
        }
    }
    if !is_dense(dot) {
        // At most one dot: drop it when no run, or (if asked) a one-byte run, follows it.
        let after = at + dot.trailing_zeros() as usize + 1;
        let no_run = |i: usize| text.get(i).is_none_or(|&b| NO_RUN_AFTER[b as usize]);
        let short_run = dot != 0
            && (no_run(after) || drop_one_byte_runs && text[after] < 0x80 && no_run(after + 1));
        return if short_run {
            ideographic
        } else {
            dot | ideographic
        };
    }
    let (host, non_ascii) = hosts();
    Classes {
        dot,
        ideographic,
        host,
        non_ascii,
    }
    .candidates(text.get(at + BLOCK).copied(), drop_one_byte_runs)
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
    /// Dots before a one-byte run are dropped (the TLD set has no one-byte entry).
    drop_one_byte_runs: bool,
}

impl Candidates {
    /// The candidates for a scanner whose TLDs are never shorter than `min_tld_len`
    /// bytes.
    pub(crate) fn new(kernel: Kernel, min_tld_len: usize) -> Candidates {
        Candidates {
            kernel,
            started: false,
            base: 0,
            mask: 0,
            drop_one_byte_runs: min_tld_len > 1,
        }
    }

    /// The first Dot at or after `from` (never less than an earlier `from`):
    /// `(position, byte length)`.
    #[inline]
    pub(crate) fn next(&mut self, text: &[u8], from: usize) -> Option<(usize, usize)> {
        if !self.started || from >= self.base + BLOCK {
            self.started = true;
            (self.base, self.mask) = self.kernel.next_block(text, from, self.drop_one_byte_runs);
        } else if from > self.base {
            self.mask &= u64::MAX << (from - self.base);
            if self.mask == 0 {
                (self.base, self.mask) =
                    self.kernel
                        .next_block(text, self.base + BLOCK, self.drop_one_byte_runs);
            }
        }
        if self.mask == 0 {
            return None;
        }
        let at = self.base + self.mask.trailing_zeros() as usize;
        let len = if text[at] == b'.' { 1 } else { 3 };
        Some((at, len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every Dot, and which of them could start a link by the checks of the filter
    /// applied with no block boundaries (for `。`, only the byte after it), for a TLD set
    /// whose shortest entry has `min_tld_len` bytes: `(all, live)`.
    fn naive(text: &[u8], min_tld_len: usize) -> (Vec<usize>, Vec<usize>) {
        let all: Vec<usize> = (0..text.len())
            .filter(|&i| text[i] == b'.' || text[i..].starts_with("。".as_bytes()))
            .collect();
        let live = all
            .iter()
            .copied()
            .filter(|&d| {
                let dot_len = if text[d] == b'.' { 1 } else { 3 };
                match text.get(d + dot_len) {
                    None => return false,
                    Some(&b) if b < 0x80 && !is_ascii_host(b) => return false,
                    _ => {}
                }
                if dot_len == 3 {
                    return true;
                }
                let mut e = d + 1;
                while e < text.len() && is_ascii_host(text[e]) {
                    e += 1;
                }
                let one_byte_run = e == d + 2 && text.get(e).is_none_or(|&b| b < 0x80);
                if one_byte_run && min_tld_len > 1 {
                    return false;
                }
                !(text.get(e) == Some(&b'.') && text.get(e + 1).is_some_and(|&b| is_ascii_host(b)))
            })
            .collect();
        (all, live)
    }

    fn all(kernel: Kernel, text: &[u8], min_tld_len: usize) -> Vec<usize> {
        let mut c = Candidates::new(kernel, min_tld_len);
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
            for min_tld_len in [1, 2] {
                let (dots, live) = naive(&text, min_tld_len);
                let expected = all(Kernel::portable(), &text, min_tld_len);
                // Never a live dot dropped; never anything but a dot kept.
                assert!(
                    live.iter().all(|d| expected.contains(d)),
                    "round {round}, min_tld_len {min_tld_len}: a live dot was dropped"
                );
                assert!(
                    expected.iter().all(|d| dots.contains(d)),
                    "round {round}: a non-dot was kept"
                );
                for kernel in Kernel::available() {
                    assert_eq!(
                        all(kernel, &text, min_tld_len),
                        expected,
                        "round {round}, min_tld_len {min_tld_len}, kernel {kernel:?}"
                    );
                }
            }
            for kernel in Kernel::available() {
                // The classes at every start offset, too.
                for at in 0..text.len() {
                    for hosts in [false, true] {
                        assert_eq!(
                            kernel.classes(&text, at, hosts),
                            portable::classes(&text, at, hosts),
                            "kernel {kernel:?} at {at}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn nibble_tables_classify_every_byte_like_their_tables() {
        for (tables, set) in [(&NIBBLE_TABLES, &PLAIN), (&EMAIL_NIBBLE_TABLES, &EMAIL)] {
            let (lo, hi) = tables;
            for b in 0..=255usize {
                assert_eq!(hi[b >> 4] & lo[b & 15] != 0, set[b], "byte {b:#04x}");
            }
        }
    }

    /// 300 texts of up to 200 bytes from `alphabet`, with one byte in 24 anything.
    fn texts_mostly_of(alphabet: &[u8], mut state: u64) -> Vec<Vec<u8>> {
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..300)
            .map(|_| {
                let len = (random() % 200) as usize;
                (0..len)
                    .map(|_| {
                        if random() % 24 == 0 {
                            random() as u8
                        } else {
                            alphabet[(random() % alphabet.len() as u64) as usize]
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Every kernel's skip equals the scalar definition from every start offset.
    #[test]
    fn skip_plain_agrees_across_kernels() {
        // Mostly plain bytes, sometimes anything, so runs of all lengths occur.
        let texts = texts_mostly_of(b"abcXYZ019-_~%+*$@", 0x2545_F491_4F6C_DD1D);
        for (round, text) in texts.iter().enumerate() {
            for i in 0..=text.len() {
                let expected = (i..text.len())
                    .find(|&j| !PLAIN[text[j] as usize])
                    .unwrap_or(text.len());
                for kernel in Kernel::available() {
                    assert_eq!(
                        kernel.skip_plain(text, i),
                        expected,
                        "round {round} at {i} {kernel:?}"
                    );
                }
            }
        }
    }

    /// Every kernel's simple-run skip equals the scalar definition from every offset.
    #[test]
    fn skip_simple_agrees_across_kernels() {
        // Mostly simple bytes (Include and Soft), sometimes anything.
        let texts = texts_mostly_of(b"abcXYZ019-_~%/=&.,;!'\"", 0x9E37_79B9_7F4A_7C15);
        for (round, text) in texts.iter().enumerate() {
            for i in 0..=text.len() {
                let end = (i..text.len())
                    .find(|&j| !SIMPLE[text[j] as usize])
                    .unwrap_or(text.len());
                let included = (i..end)
                    .rev()
                    .find(|&j| SIMPLE_INCLUDE[text[j] as usize])
                    .map_or(0, |j| j + 1);
                for kernel in Kernel::available() {
                    assert_eq!(
                        kernel.skip_simple(text, i),
                        (end, included),
                        "round {round} at {i} {kernel:?}"
                    );
                }
            }
        }
    }

    /// The simple bytes are exactly the Include and Soft ASCII bytes other than `? # :`.
    #[test]
    fn simple_bytes_are_include_or_soft() {
        let simple: Vec<u8> = (0..=255u8).filter(|&b| SIMPLE[b as usize]).collect();
        let include: Vec<u8> = (0..=255u8)
            .filter(|&b| SIMPLE_INCLUDE[b as usize])
            .collect();
        let soft: Vec<u8> = simple
            .iter()
            .copied()
            .filter(|b| !include.contains(b))
            .collect();
        assert_eq!(soft, b"!\"',.;");
        for b in b"/=&$%*+-@\\^_`|~09azAZ" {
            assert!(include.contains(b), "{}", *b as char);
        }
        for b in b"?#:()[]{}<> \t\n\x7F\x80\xFF" {
            assert!(!simple.contains(b), "{b:#04x}");
        }
    }

    #[test]
    fn skips_from_positions_inside_and_past_blocks() {
        // Dots followed by "ab ", and one at the very end (dropped: nothing follows it;
        // its block has two dots, so the filter runs).
        let mut text = vec![b' '; 1000];
        for i in [0, 61, 64, 130, 500, 996] {
            text[i..i + 3].copy_from_slice(b".ab");
        }
        text[999] = b'.';
        for kernel in Kernel::available() {
            let mut c = Candidates::new(kernel, 2);
            assert_eq!(c.next(&text, 0), Some((0, 1)));
            assert_eq!(c.next(&text, 1), Some((61, 1)));
            assert_eq!(c.next(&text, 62), Some((64, 1)));
            assert_eq!(c.next(&text, 66), Some((130, 1)));
            assert_eq!(c.next(&text, 131), Some((500, 1)));
            assert_eq!(c.next(&text, 996), Some((996, 1)));
            assert_eq!(c.next(&text, 997), None);
            assert_eq!(Candidates::new(kernel, 2).next(b"", 0), None);
        }
    }

    /// A dot before a one-byte run (`e.g`, `1.5%`) is dropped when no TLD is that short,
    /// and kept otherwise, in blocks with one dot and in dense ones, and at the end of
    /// the text.
    #[test]
    fn one_byte_runs_are_dropped_when_no_tld_is_that_short() {
        // One dot per block: `.g` and `.5` have one-byte runs, `.ab` a two-byte one,
        // `.α` and `.qé` are not known to be short (non-ASCII), `.x` ends the text.
        let mut sparse = Vec::new();
        for piece in [
            "see e.g this",
            "1.5% of",
            "x.ab and",
            "y.α or",
            "z.qé",
            "end.x",
        ] {
            sparse.resize(sparse.len().next_multiple_of(BLOCK), b' ');
            sparse.extend_from_slice(piece.as_bytes());
        }
        // A dense block: `.b` is an inner label either way; `.c`, `.e` and `.j` have
        // one-byte runs, `.gh` a two-byte one; then `.l` ends the text.
        let mut dense = b"a.b.c d.e, f.gh i.j".to_vec();
        dense.extend_from_slice(&[b' '; 60]);
        dense.extend_from_slice(b"k.l");
        for kernel in Kernel::available() {
            assert_eq!(all(kernel, &sparse, 2), [129, 193, 257], "{kernel:?}");
            assert_eq!(
                all(kernel, &sparse, 1),
                [5, 65, 129, 193, 257, 323],
                "{kernel:?}"
            );
            assert_eq!(all(kernel, &dense, 2), [12], "{kernel:?}");
            assert_eq!(all(kernel, &dense, 1), [3, 7, 12, 17, 80], "{kernel:?}");
        }
    }
}
