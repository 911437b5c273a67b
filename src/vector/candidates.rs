//! The candidate positions: the Dots that can precede a TLD, found a 64-byte block at a
//! time.
//!
//! A link always has a TLD, and a TLD always follows a Dot: `.` (U+002E) or `。` (U+3002,
//! bytes `E3 80 82`). So the scanner only ever needs the positions of those two, in order
//! — and of the few `://` that may start a host without a TLD (`http://localhost/`),
//! marked in the same pass ([`scheme_marks`]). A kernel classifies a 64-byte block into
//! five `u64` bitmasks, one bit per byte ([`Classes`]): `.`, the start of `。`, the `:` of
//! a `://`, ASCII HostCharNoDot (`[A-Za-z0-9-]`) and non-ASCII ([`dots`] and [`hosts`],
//! written once over [`Vector`]; [`classes_scalar`] byte by byte). [`Classes::candidates`]
//! then drops, with a few integer operations for the whole block, the dots that can never
//! start a link — those two checks of the scanner that need no table:
//!
//! * a dot followed by an ASCII byte that is not HostCharNoDot (a space, a second dot…):
//!   the run after it is empty, so it is no TLD;
//! * a dot whose run of ASCII HostCharNoDot ends at another dot that is followed by one
//!   again (`.kernel` in `vger.kernel.org`): an inner label, rejected by step 2. These are
//!   found backwards from the *second* dot, as the nearest non-HostCharNoDot byte below
//!   it: a count of leading zeros each for the few of a block of mail, and for more
//!   (lines of labels) a carry in reversed bit order, `((killers << 1) + host) & !host`;
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
//! lines of `a.a.a.…` or `.com.com.…`, almost none reach the scalar code. The cursor
//! over them ([`super::Candidates`], beside the kernel dispatch) walks the set bits and
//! skips empty blocks at the speed of a few vector operations per 64 bytes
//! ([`next_block`]). This replaces a `memchr` call per dot, whose fixed cost
//! dominates when dots come every few dozen bytes (as in mail headers), and finds both
//! Dots in one pass.
//!
//! Invariants: a vector kernel reads the bytes `at..at + 67` (the block plus the two bytes
//! a `。` starting at its end needs, and the three after a `://` with the byte after it)
//! only when they exist ([`READ_AHEAD`]); otherwise the
//! scalar classification handles the block. Bits for positions past the end of the text
//! are never set.

use super::simd::{host_no_dot, Vector};
use crate::ascii::{is_host_no_dot, ENDS_RUN};

/// Dots in a block from which the filter of [`Classes::candidates`] pays.
pub(crate) const DENSE_DOTS: u32 = 2;

/// Bytes per block: one bit of the mask per byte.
pub(crate) const BLOCK: usize = 64;
/// Bytes a vector kernel may read past the start of a block.
pub(crate) const READ_AHEAD: usize = BLOCK + 3;

/// The byte classes of one block (bit `i`: byte `at + i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Classes {
    /// `.`
    pub(crate) dot: u64,
    /// The first byte of `。` (`E3 80 82`).
    pub(crate) ideographic: u64,
    /// The `:` of a `://` followed by `l`, `L`, a digit or `[`, which may start a host
    /// without a TLD (see [`scheme_marks`]; `https://www.` is not one).
    pub(crate) scheme: u64,
    /// ASCII HostCharNoDot: `[A-Za-z0-9-]`.
    pub(crate) host: u64,
    /// Bytes >= 0x80.
    pub(crate) non_ascii: u64,
}

impl Classes {
    /// The candidate positions of the block: every `。`, and every `.` that the checks
    /// above do not rule out (the third only with `drop_one_byte_runs`). `next` is the
    /// byte after the block (`None` at the end of the text).
    #[inline]
    pub(crate) fn candidates(self, next: Option<u8>, drop_one_byte_runs: bool) -> u64 {
        let (next_host, next_non_ascii) = match next {
            Some(b) => (is_host_no_dot(b), b >= 0x80),
            None => (false, false),
        };
        // Bit i: byte i + 1 is ASCII HostCharNoDot / non-ASCII.
        let host_after = (self.host >> 1) | ((next_host as u64) << 63);
        let non_ascii_after = (self.non_ascii >> 1) | ((next_non_ascii as u64) << 63);
        let empty_run = self.dot & !host_after & !non_ascii_after;
        // Dots followed by a label: each kills the dot before its run, if that run is
        // all ASCII HostCharNoDot and inside the block.
        let inner = nearest_outside_below(self.dot & host_after, self.host) & self.dot;
        // Bit i: byte i + 2 may continue a run (ASCII HostCharNoDot or non-ASCII); set for
        // the last two dots of the block, whose byte i + 2 is not looked at.
        let continues_2 = ((self.host | self.non_ascii) >> 2) | (0b11 << 62);
        let one_byte_run = self.dot & host_after & !continues_2;
        let one_byte_run = if drop_one_byte_runs { one_byte_run } else { 0 };
        (self.dot & !(empty_run | inner | one_byte_run)) | self.ideographic
    }
}

/// For each set bit `e` of `marks`, the bit of the nearest byte below `e` that is not in
/// `run` (none when every byte below `e` is): where a run of `run` bytes ending right
/// before `e` starts, less one. A few marks (the common case: a host name or two in a
/// block) each take a count of leading zeros; more than [`MANY_MARKS`] (lines of labels)
/// are taken at once, by a carry in reversed bit order (three bit reversals, which
/// x86_64 has no instruction for: about 40 instructions).
#[inline(always)]
fn nearest_outside_below(marks: u64, run: u64) -> u64 {
    if marks.count_ones() > MANY_MARKS {
        let marks = marks.reverse_bits();
        let run = run.reverse_bits();
        return ((marks << 1).wrapping_add(run) & !run).reverse_bits();
    }
    let mut rest = marks;
    let mut found = 0;
    while rest != 0 {
        let outside = !run & (rest & rest.wrapping_neg()).wrapping_sub(1);
        rest &= rest - 1;
        found |= (1u64 << 63)
            .checked_shr(outside.leading_zeros())
            .unwrap_or(0);
    }
    found
}

/// The most marks [`nearest_outside_below`] takes one by one.
const MANY_MARKS: u32 = 6;

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

/// The host classes of a block, computed only when [`block_candidates`] needs them. (A
/// trait rather than a closure: a closure is compiled without the instruction set of the
/// kernel whose code defines it, and its vector intrinsics become calls.)
pub(crate) trait HostClasses {
    /// ASCII HostCharNoDot and non-ASCII bytes of the block (see [`hosts`]).
    fn get(self) -> (u64, u64);
}

/// The host classes of the 64 bytes at a pointer, a vector at a time.
struct VectorHosts<V>(*const u8, core::marker::PhantomData<V>);

impl<V: Vector> HostClasses for VectorHosts<V> {
    #[inline(always)]
    fn get(self) -> (u64, u64) {
        // SAFETY: made only in `next_block`, for a block whose 64 bytes are readable, in
        // code where the CPU has the instruction set of `V`.
        unsafe { hosts::<V>(self.0) }
    }
}

/// The host classes of the block of a text at an offset, byte by byte.
struct ScalarHosts<'t>(&'t [u8], usize);

impl HostClasses for ScalarHosts<'_> {
    #[inline(always)]
    fn get(self) -> (u64, u64) {
        let h = classes_scalar(self.0, self.1, true);
        (h.host, h.non_ascii)
    }
}

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
    scheme: u64,
    text: &[u8],
    at: usize,
    drop_one_byte_runs: bool,
    hosts: impl HostClasses,
) -> u64 {
    // `。` ends sentences in CJK text, most often before a line break: drop those.
    let mut rest = ideographic;
    let mut ideographic = ideographic;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if text.get(at + i + 3).is_none_or(|&b| ENDS_RUN[b as usize]) {
            ideographic &= !(1 << i);
        }
    }
    if !is_dense(dot) {
        // At most one dot: drop it when no run, or (if asked) a one-byte run, follows it.
        let after = at + dot.trailing_zeros() as usize + 1;
        let no_run = |i: usize| text.get(i).is_none_or(|&b| ENDS_RUN[b as usize]);
        let short_run = dot != 0
            && (no_run(after) || drop_one_byte_runs && text[after] < 0x80 && no_run(after + 1));
        let dots = if short_run {
            ideographic
        } else {
            dot | ideographic
        };
        return with_schemes(dots, scheme, text, at);
    }
    let (host, non_ascii) = hosts.get();
    let dots = Classes {
        dot,
        ideographic,
        scheme: 0,
        host,
        non_ascii,
    }
    .candidates(text.get(at + BLOCK).copied(), drop_one_byte_runs);
    with_schemes(dots, scheme, text, at)
}

/// `dots` and the marks of [`scheme_marks`]. The call comes last, after the host
/// classes: an out-of-line call in the middle made every block with a dot save and
/// reload its vectors around it.
#[inline(always)]
fn with_schemes(dots: u64, scheme: u64, text: &[u8], at: usize) -> u64 {
    if scheme == 0 {
        dots
    } else {
        dots | scheme_marks(scheme, text, at)
    }
}

/// The `://` of the block at `at` that can start a host without a TLD, from the `:` of
/// those its classes keep (`pairs`: an `l`, `L`, digit or `[` after the `://`, as in
/// `localhost`, an IPv4 address, a bracketed IPv6 address): those with a `p` or `s` (any
/// case) before them, the last letter of `http` or `https`. The scanner looks at the few
/// left (`Scanner::literal_host`); the rest (`https://www.…`, `file:///`, `a://b`) never
/// leave the kernel, most of them not even to come here (the byte after the `://` is
/// tested a vector at a time: this call for every `://` was 4 % of the instructions of
/// the scan of `email-intl.txt`, whose URLs have a scheme). A byte by byte loop, over
/// rare marks.
#[inline(never)]
fn scheme_marks(pairs: u64, text: &[u8], at: usize) -> u64 {
    let mut rest = pairs;
    let mut keep = 0;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let colon = at + i;
        let live = colon > 0 && matches!(text[colon - 1], b'p' | b'P' | b's' | b'S');
        keep |= (live as u64) << i;
    }
    keep
}

/// `.`, `。` starts and `://` starts of the 64 bytes at `p`: `(dot, ideographic,
/// scheme)`. Most blocks have no `E3` byte and no `:/` pair: one pass of a dot compare
/// and one "rare" mask per vector (an `E3`, or a `:` before a `/` on a load one byte
/// further on) settles those; the second pass, made only when the rare mask has a bit,
/// tests the three bytes of `。` and of `://` on loads one and two bytes further on, and
/// the byte after a `://` on a load three bytes further on (see [`Classes::scheme`]).
/// (The `:/` pairs in a mask of their own in the first pass, and the call of
/// [`scheme_marks`] before the host classes, cost 15 % more instructions and 10 % more
/// time in the candidate search of `email-en.mbox`, where one block in a hundred has a
/// `://`. Returning up to 8 blocks' masks per call of the kernel saved another 6 % of the
/// instructions but took 5 % more time: the call is not what costs.)
///
/// # Safety
/// The CPU has the instruction set of `V`, and the [`READ_AHEAD`] bytes at `p` are
/// readable.
#[inline(always)]
pub(crate) unsafe fn dots<V: Vector>(p: *const u8) -> (u64, u64, u64) {
    let (mut dot, mut rare) = (0, 0);
    let mut k = 0;
    while k < BLOCK {
        // SAFETY: k + 1 + BYTES <= 65 bytes from `p` are readable; the CPU has `V`'s set.
        unsafe {
            let v = V::load(p.add(k));
            let after = V::load(p.add(k + 1));
            dot |= v.eq(V::splat(b'.')).movemask() << k;
            let pair = v.eq(V::splat(b':')).and(after.eq(V::splat(b'/')));
            rare |= v.eq(V::splat(0xE3)).or(pair).movemask() << k;
        }
        k += V::BYTES;
    }
    if rare == 0 {
        return (dot, 0, 0);
    }
    let (mut ideographic, mut scheme) = (0, 0);
    let mut k = 0;
    while k < BLOCK {
        // SAFETY: k + 3 + BYTES <= 67 bytes from `p` are readable; the CPU has `V`'s set.
        unsafe {
            let v = V::load(p.add(k));
            let v1 = V::load(p.add(k + 1));
            let v2 = V::load(p.add(k + 2));
            let v3 = V::load(p.add(k + 3));
            ideographic |= v
                .eq(V::splat(0xE3))
                .and(v1.eq(V::splat(0x80)))
                .and(v2.eq(V::splat(0x82)))
                .movemask()
                << k;
            // What may start a host without a TLD after `://`: `l`, `L`, a digit, `[`.
            let literal = v3
                .or(V::splat(0x20))
                .eq(V::splat(b'l'))
                .or(v3.gt(V::splat(b'0' - 1)).and(V::splat(b'9' + 1).gt(v3)))
                .or(v3.eq(V::splat(b'[')));
            scheme |= v
                .eq(V::splat(b':'))
                .and(v1.eq(V::splat(b'/')))
                .and(v2.eq(V::splat(b'/')))
                .and(literal)
                .movemask()
                << k;
        }
        k += V::BYTES;
    }
    (dot, ideographic, scheme)
}

/// ASCII HostCharNoDot and non-ASCII bytes of the 64 bytes at `p`.
///
/// # Safety
/// The CPU has the instruction set of `V`, and the 64 bytes at `p` are readable.
#[inline(always)]
pub(crate) unsafe fn hosts<V: Vector>(p: *const u8) -> (u64, u64) {
    let (mut host, mut non_ascii) = (0, 0);
    let mut k = 0;
    while k < BLOCK {
        // SAFETY: k + BYTES <= 64 bytes from `p` are readable; the CPU has `V`'s set.
        unsafe {
            let v = V::load(p.add(k));
            host |= host_no_dot(v).movemask() << k;
            non_ascii |= v.movemask() << k;
        }
        k += V::BYTES;
    }
    (host, non_ascii)
}

/// The classes of the block at `at` (the host classes only with `hosts`); for the tests,
/// which compare every kernel's classes with [`classes_scalar`].
///
/// # Safety
/// The CPU has the instruction set of `V`, and `at + READ_AHEAD <= text.len()`.
#[cfg(test)]
#[inline(always)]
pub(crate) unsafe fn classes<V: Vector>(text: &[u8], at: usize, with_hosts: bool) -> Classes {
    // SAFETY: the caller's promises.
    unsafe {
        let p = text.as_ptr().add(at);
        let (dot, ideographic, scheme) = dots::<V>(p);
        let (host, non_ascii) = if with_hosts { hosts::<V>(p) } else { (0, 0) };
        Classes {
            dot,
            ideographic,
            scheme,
            host,
            non_ascii,
        }
    }
}

/// [`super::Ops::next_block`] a vector at a time: the first block at or after `at` with a
/// candidate, `(block start, candidate mask)`, the mask 0 when there is none. The blocks
/// a vector load may not read whole (the last [`READ_AHEAD`] bytes) are left to
/// [`next_block_scalar`]. (Two integers come back in registers; an `Option<(usize, u64)>`
/// went through memory.)
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn next_block<V: Vector>(
    text: &[u8],
    mut pos: usize,
    drop_one_byte_runs: bool,
) -> (usize, u64) {
    if let Some(last) = text.len().checked_sub(READ_AHEAD) {
        while pos <= last {
            // SAFETY: 67 bytes from `pos` are inside `text` (`pos + READ_AHEAD <= len`).
            let p = unsafe { text.as_ptr().add(pos) };
            // SAFETY: as above, and the CPU has the instruction set of `V`.
            let (dot, ideographic, scheme) = unsafe { dots::<V>(p) };
            if dot | ideographic | scheme != 0 {
                // The host classes are read (the 64 bytes at `p`, readable as above) only
                // for a block with enough dots.
                let mask = block_candidates(
                    dot,
                    ideographic,
                    scheme,
                    text,
                    pos,
                    drop_one_byte_runs,
                    VectorHosts::<V>(p, core::marker::PhantomData),
                );
                if mask != 0 {
                    return (pos, mask);
                }
            }
            pos += BLOCK;
        }
    }
    next_block_scalar(text, pos, drop_one_byte_runs)
}

/// [`next_block`] byte by byte, from `at` to the end of the text: the portable kernel's
/// search, and the vector kernels' over the last blocks, which a vector load would
/// overrun (out of line: the vector kernels meet it once per text).
#[inline(never)]
pub(crate) fn next_block_scalar(
    text: &[u8],
    mut at: usize,
    drop_one_byte_runs: bool,
) -> (usize, u64) {
    while at < text.len() {
        let c = classes_scalar(text, at, false);
        let mask = block_candidates(
            c.dot,
            c.ideographic,
            c.scheme,
            text,
            at,
            drop_one_byte_runs,
            ScalarHosts(text, at),
        );
        if mask != 0 {
            return (at, mask);
        }
        at += BLOCK;
    }
    (at, 0)
}

/// The classes of the bytes `at..at + 64` (fewer at the end of the text) byte by byte; the
/// host classes only with `hosts`: the definition the vector kernels are tested against.
pub(crate) fn classes_scalar(text: &[u8], at: usize, hosts: bool) -> Classes {
    let end = text.len().min(at + BLOCK);
    let mut c = Classes::default();
    for (i, &b) in text[at..end].iter().enumerate() {
        let ideographic =
            b == 0xE3 && text.get(at + i + 1) == Some(&0x80) && text.get(at + i + 2) == Some(&0x82);
        c.dot |= ((b == b'.') as u64) << i;
        c.ideographic |= (ideographic as u64) << i;
        let literal = matches!(text.get(at + i + 3), Some(b'l' | b'L' | b'0'..=b'9' | b'['));
        c.scheme |=
            ((b == b':' && text.get(at + i + 1..at + i + 3) == Some(b"//") && literal) as u64) << i;
        c.host |= ((hosts && is_host_no_dot(b)) as u64) << i;
        c.non_ascii |= ((hosts && b >= 0x80) as u64) << i;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`nearest_outside_below`] bit by bit.
    fn naive(marks: u64, run: u64) -> u64 {
        let mut found = 0;
        for e in (0..64).filter(|e| marks >> e & 1 == 1) {
            if let Some(d) = (0..e).rev().find(|d| run >> d & 1 == 0) {
                found |= 1 << d;
            }
        }
        found
    }

    /// Both ways of [`nearest_outside_below`] (a few marks one by one, many at once) give
    /// the bit-by-bit answer, for every number of marks from 0 to 64.
    #[test]
    fn nearest_outside_below_agrees_with_the_definition() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for count in 0..=64 {
            for _ in 0..200 {
                let mut marks = 0u64;
                while marks.count_ones() < count {
                    marks |= 1 << (next() % 64);
                }
                // Runs mostly set, so that they are long, and never over a mark (as
                // `host` never holds a dot).
                let run = (next() | next()) & !marks;
                assert_eq!(
                    nearest_outside_below(marks, run),
                    naive(marks, run),
                    "marks {marks:#x} run {run:#x}"
                );
            }
        }
    }
}
