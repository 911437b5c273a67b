//! The candidate positions: the Dots that can precede a TLD, found a 64-byte block at a
//! time, a group of 32 blocks per call.
//!
//! A link always has a TLD, and a TLD always follows a Dot: `.` (U+002E) or `。` (U+3002,
//! bytes `E3 80 82`). So the scanner only ever needs the positions of those two, in order
//! — and of the few `://` that may start a host without a TLD (`http://localhost/`),
//! marked in the same pass ([`scheme_marks`]). A kernel classifies a 64-byte block into
//! eight `u64` bitmasks, one bit per byte ([`Classes`]): `.`, the start of `。`, the `:`
//! of a `://`, ASCII HostCharNoDot (`[A-Za-z0-9-]`), ASCII digits, non-ASCII, `@`, and
//! the bytes that may start a literal host (`[lL0-9[]`) ([`classes`], written once over
//! [`Vector`]; [`classes_scalar`] byte by byte). [`Classes::candidates`] then drops, with
//! integer operations and no branch for the whole block, the dots that can never start a
//! link — those checks of the scanner that need no table:
//!
//! * a dot followed by an ASCII byte that is not HostCharNoDot (a space, a second dot…):
//!   the run after it is empty, so it is no TLD; the same for a `。` three bytes further
//!   on (sentence ends before a line break);
//! * a dot whose run of ASCII HostCharNoDot ends at another dot that is followed by one
//!   again (`.kernel` in `vger.kernel.org`): an inner label, rejected by step 2. These are
//!   found backwards from the *second* dot, as the nearest non-HostCharNoDot byte before
//!   it, by one carry, `((killers << 1) + host) & !host`, which runs back through the
//!   text because the masks hold the bytes in reverse order (bit 63 is the block's first
//!   byte: the vector kernels load each vector with its lanes reversed, so that every
//!   mask taken from it comes out reversed);
//! * in the same carry, a dot whose run of ASCII HostCharNoDot ends at `@` (`.smith` in
//!   `john.smith@example.com`): a host right before `@` is a local part, never a URL, so
//!   the scanner rejects it however the run ends (a TLD or not); in mail, where addresses
//!   fill the headers and the quoting lines, these were a tenth of the candidates
//!   (`email-en.mbox`: 0.97× the time without them);
//! * when the scanner's TLD set has no one-byte entry (the IANA list), a dot followed by
//!   one ASCII HostCharNoDot and then an ASCII byte that is not (`e.g.`, `1.5%`,
//!   `v2.0 `): the run is one byte long, so it is no TLD;
//! * when no entry of the set starts with an ASCII digit (the IANA list), a `.` followed
//!   by one (`2.4.0`, `v1.9.3-p545`, IPv4 addresses, whose literal hosts come from the
//!   `://` marks): its run is no TLD. In prose these were the largest part of the
//!   candidates the scanner rejected (`email-intl.txt` without its links: 5,500 of
//!   12,800).
//!
//! One check is made as the cursor ([`super::Candidates`]) hands a `。` out: a `。`
//! before a character of three bytes that no TLD starts with (the filter of
//! `TldSet::may_start_with`; [`TldShape::may_follow_ideographic`]). In Chinese text most
//! `。` end a sentence before the next one. The scanner rejected them as the first thing
//! it looked at, but the trip there cost more than the rest of the search: on
//! `email-intl.txt` without its links, handing them out no more takes 0.90× the time. A
//! loop over a block's `。` in the kernels cost more than it saved. (A `.` before a digit
//! was dropped by the cursor once, but its test on every `.` made lines with a link every
//! few bytes 9 % slower; the kernels' mask of digits costs less, now that they reverse a
//! block's loads rather than each of its masks.)
//!
//! Patterns that cross the end of a block are left in (conservative). So the scanner
//! sees only plausible candidates: in prose, where most dots end sentences, and in hostile
//! lines of `a.a.a.…` or `.com.com.…`, almost none reach the scalar code.
//!
//! Two stages, as in simdjson. [`fill`] first looks at a group of [`GROUP`] blocks with
//! two cheap tests each (a `.`; an `E3` byte or a `:/`: [`busy`]), and only then
//! classifies the busy ones with no branch on their contents: those with `E3` or `:/`
//! whole ([`classes`]), those with dots only by their dots and host classes
//! ([`dot_classes`], half the work), each kind in a loop of its own. Their masks stay
//! where the group's block index puts them ([`Batch`]), with one bit per block that has
//! candidates; the call returns with the first group that has one. The cursor over them
//! ([`super::Candidates`], beside the kernel dispatch) takes the blocks from those bits
//! and walks each mask's set bits. (The masks were moved into a list of the blocks with
//! candidates, in a third loop per group: without it, counting the links of
//! `email-intl.txt` takes 0.97× the time, of link-free prose 0.92×.) A search block by
//! block, which branched on every block's dots, on a second pass for `。` and `://`,
//! and on the number of dots, spent most of its time on mispredicted branches in text
//! where half the blocks have a candidate (`email-intl.txt`); see `benches/README.md`.
//!
//! Invariants: the blocks of a text are at `0, 64, 128, …` from where the cursor
//! started, whatever the kernel, so every kernel gives the same candidates. A vector
//! kernel reads the bytes `at..at + 66` of a block (the block plus the two bytes a `。`
//! or a `://` starting at its end needs) only when they exist ([`READ_AHEAD`]);
//! otherwise it classifies a copy of the last bytes padded with zero bytes, which are in
//! no class. Bits for positions past the end of the text are never set.

use super::simd::{alphanumeric_digit, Vector};
use crate::ascii::is_host_no_dot;
use crate::tld::first_char_bit;

/// Bytes per block: one bit of the mask per byte.
pub(crate) const BLOCK: usize = 64;
/// Bytes a vector kernel may read past the start of a block.
pub(crate) const READ_AHEAD: usize = BLOCK + 2;
/// Blocks the first stage tests before any is classified (2 KiB). The loops over a
/// group's busy blocks mispredict their exits once per group; groups of 8 blocks were 3 %
/// slower on `email-intl.txt` and 1.5 % on `email-en.mbox`, of 16 about 1 %.
pub(crate) const GROUP: usize = 32;
/// A group of blocks from [`fill`]: the candidate masks of the blocks at `start`,
/// `start + 64`, …, those whose bit of `live` is set (the others are stale).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Batch {
    /// Where the group's first block starts.
    pub(crate) start: usize,
    /// Bit `b`: block `b` has candidates.
    pub(crate) live: u32,
    /// Block `b`'s candidates, when its bit of `live` is set.
    pub(crate) masks: [u64; GROUP],
}

impl Batch {
    /// No blocks.
    pub(crate) const EMPTY: Batch = Batch {
        start: 0,
        live: 0,
        masks: [0; GROUP],
    };
}

/// What the search knows of the scanner's TLDs, for the checks that depend on them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TldShape<'p> {
    /// No TLD is one byte long: a dot before a one-byte run is no candidate.
    pub(crate) drop_one_byte_runs: bool,
    /// No TLD starts with an ASCII digit: a `.` before one is no candidate.
    pub(crate) drop_digit_runs: bool,
    /// The first characters of the non-ASCII TLDs, as a filter: the bit of
    /// [`first_char_bit`] is set for each (`TldSet::may_start_with`). A `。` before a
    /// three-byte character whose bit is clear is no candidate.
    pub(crate) first_non_ascii: &'p [u64; 64],
}

impl TldShape<'_> {
    /// Whether the character at `next` (after a `。`) may start a TLD: false only for a
    /// three-byte character whose bit of `first_non_ascii` is clear. The scanner rejects
    /// such a `。` as the first thing it looks at, with nothing else changed (and so one
    /// before a character that is no HostChar, or invalid UTF-8, on which the run after
    /// the dot is empty).
    #[inline(always)]
    pub(crate) fn may_follow_ideographic(self, text: &[u8], next: usize) -> bool {
        match text.get(next..next + 3) {
            Some(&[b0, b1, b2]) if b0 & 0xF0 == 0xE0 => {
                let cp =
                    ((b0 as u32 & 0x0F) << 12) | ((b1 as u32 & 0x3F) << 6) | (b2 as u32 & 0x3F);
                let (word, bit) = first_char_bit(cp);
                self.first_non_ascii[word] & bit != 0
            }
            _ => true,
        }
    }
}

impl TldShape<'static> {
    /// For a scanner that takes any TLD (of one byte or more, starting with anything).
    pub(crate) const ANY: TldShape<'static> = TldShape {
        drop_one_byte_runs: false,
        drop_digit_runs: false,
        first_non_ascii: &[u64::MAX; 64],
    };
}

/// The byte classes of one block, one bit per byte in reverse order: bit `63 - i` is byte
/// `at + i`, so that a carry, which runs to higher bits, runs back through the text (see
/// [`nearest_outside_above`]), and a mask's first byte is its highest bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Classes {
    /// `.`
    pub(crate) dot: u64,
    /// The first byte of `。` (`E3 80 82`).
    pub(crate) ideographic: u64,
    /// The `:` of a `://`.
    pub(crate) scheme: u64,
    /// ASCII HostCharNoDot: `[A-Za-z0-9-]`.
    pub(crate) host: u64,
    /// ASCII digits: `[0-9]`.
    pub(crate) digit: u64,
    /// Bytes >= 0x80.
    pub(crate) non_ascii: u64,
    /// `@`.
    pub(crate) at_sign: u64,
    /// What may start a host without a TLD after `://`: `l`, `L`, a digit, `[`.
    pub(crate) literal: u64,
}

/// The bit of byte `i` of a block ([`Classes`]' order).
#[inline(always)]
pub(crate) const fn bit(i: usize) -> u64 {
    1 << (BLOCK - 1 - i)
}

/// The three bits of a block whose byte `i + 3` is past it (its last three bytes): kept,
/// for want of a look.
const LAST_THREE: u64 = 0b111;

impl Classes {
    /// The candidate positions of the block at `at` of `text`, in the order of
    /// [`Classes`]: the `。` and `.` that the checks of the module do not rule out (the
    /// one-byte runs only when `tlds` has no one-byte entry, the runs that start with a
    /// digit only when it has no such entry; the `。` before a character that starts no
    /// TLD are left to the cursor), and the `://` of [`scheme_marks`].
    /// No branch, but for the rare `://` before a literal host's first byte.
    #[inline(always)]
    pub(crate) fn candidates(self, text: &[u8], at: usize, tlds: TldShape<'_>) -> u64 {
        let (next_host, next_digit, next_non_ascii) = match text.get(at + BLOCK) {
            Some(&b) => (is_host_no_dot(b), b.is_ascii_digit(), b >= 0x80),
            None => (false, false, false),
        };
        // Byte i's bit: byte i + 1 is ASCII HostCharNoDot / non-ASCII.
        let host_after = (self.host << 1) | next_host as u64;
        let non_ascii_after = (self.non_ascii << 1) | next_non_ascii as u64;
        let empty_run = self.dot & !host_after & !non_ascii_after;
        // Dots followed by a label: each kills the dot before its run, if that run is
        // all ASCII HostCharNoDot and inside the block.
        let inner =
            nearest_outside_above((self.dot & host_after) | self.at_sign, self.host) & self.dot;
        // Byte i's bit: byte i + 2 / i + 3 may continue a run (ASCII HostCharNoDot or
        // non-ASCII); set where that byte is past the block.
        let runs = self.host | self.non_ascii;
        let continues_2 = (runs << 2) | 0b11;
        let continues_3 = (runs << 3) | LAST_THREE;
        let one_byte_run = self.dot & host_after & !continues_2;
        let one_byte_run = one_byte_run & 0u64.wrapping_sub(tlds.drop_one_byte_runs as u64);
        let digit_run = self.dot & ((self.digit << 1) | next_digit as u64);
        let digit_run = digit_run & 0u64.wrapping_sub(tlds.drop_digit_runs as u64);
        let dots = (self.dot & !(empty_run | inner | one_byte_run | digit_run))
            | (self.ideographic & continues_3);
        let schemes = self.scheme & ((self.literal << 3) | LAST_THREE);
        if schemes == 0 {
            dots
        } else {
            dots | scheme_marks(schemes, text, at)
        }
    }
}

/// For each set bit `e` of `marks`, the nearest bit above `e` that is not in `run` (none
/// when every bit above `e` is): in the order of [`Classes`], the byte where a run of
/// `run` bytes ending right before the byte of `e` starts, less one. One carry, no branch
/// (in the order of the text this took three bit reversals, about 40 instructions, and
/// counting down from each mark with its own count of leading zeros mispredicted a
/// branch per block of host names).
#[inline(always)]
fn nearest_outside_above(marks: u64, run: u64) -> u64 {
    (marks << 1).wrapping_add(run) & !run
}

/// The `://` of the block at `at` that can start a host without a TLD, from the `:` of
/// those its classes keep (`pairs`, in the order of [`Classes`]: a `://` whose next byte
/// may start a literal host, or is past the block): those with a `p` or `s` (any case)
/// before them, the last letter of `http` or `https`, and an `l`, `L`, digit or `[` after
/// them, as in `localhost`, an IPv4 address, a bracketed IPv6 address. The scanner looks
/// at the few left (`Scanner::literal_host`); the rest (`https://www.…`, `file:///`,
/// `a://b`) never leave the kernel, most of them not even to come here. A byte by byte
/// loop, over rare marks, out of line.
#[inline(never)]
fn scheme_marks(pairs: u64, text: &[u8], at: usize) -> u64 {
    let mut rest = pairs;
    let mut keep = 0;
    while rest != 0 {
        let i = rest.leading_zeros() as usize;
        rest &= !bit(i);
        let colon = at + i;
        let live = colon > 0
            && matches!(text[colon - 1], b'p' | b'P' | b's' | b'S')
            && matches!(text.get(colon + 3), Some(b'l' | b'L' | b'0'..=b'9' | b'['));
        keep |= if live { bit(i) } else { 0 };
    }
    keep
}

/// The first stage: whether the 64 bytes at `p` have a `.`, and whether they have an
/// `E3` byte (the start of `。`, and of much else in CJK text) or a `:` before a `/`. A
/// dot compare and one "rare" compare per vector, and a mask of each for the block.
///
/// # Safety
/// The CPU has the instruction set of `V`, and the 65 bytes at `p` are readable.
#[inline(always)]
pub(crate) unsafe fn busy<V: Vector>(p: *const u8) -> (bool, bool) {
    // SAFETY: the caller's promises; every load is of bytes `p..p + 65`.
    unsafe {
        let (mut dot, mut rare) = (V::splat(0), V::splat(0));
        let mut k = 0;
        while k < BLOCK {
            let v = V::load(p.add(k));
            let after = V::load(p.add(k + 1));
            let pair = v.eq(V::splat(b':')).and(after.eq(V::splat(b'/')));
            dot = dot.or(v.eq(V::splat(b'.')));
            rare = rare.or(v.eq(V::splat(0xE3))).or(pair);
            k += V::BYTES;
        }
        (dot.movemask() != 0, rare.movemask() != 0)
    }
}

/// Adds the classes of the vector `v`, loaded in reverse order ([`Vector::load_reversed`]:
/// its lanes are bits `shift..shift + BYTES`), that need only its own bytes: `.`, ASCII
/// HostCharNoDot, digits, non-ASCII, `@`. Returns its digits, which [`classes`] needs
/// too.
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
unsafe fn add_own_classes<V: Vector>(c: &mut Classes, v: V, shift: usize) -> V {
    // SAFETY: the caller's CPU has the instruction set of `V`.
    unsafe {
        let (alnum, digit) = alphanumeric_digit(v);
        c.dot |= v.eq(V::splat(b'.')).movemask() << shift;
        c.host |= alnum.or(v.eq(V::splat(b'-'))).movemask() << shift;
        c.non_ascii |= v.movemask() << shift;
        c.at_sign |= v.eq(V::splat(b'@')).movemask() << shift;
        c.digit |= digit.movemask() << shift;
        digit
    }
}

/// The classes of a block with neither `E3` nor `:/` ([`busy`]): its dots and host
/// classes, the rest empty.
///
/// # Safety
/// The CPU has the instruction set of `V`, and the 64 bytes at `p` are readable.
#[inline(always)]
pub(crate) unsafe fn dot_classes<V: Vector>(p: *const u8) -> Classes {
    let mut c = Classes::default();
    let mut k = 0;
    while k < BLOCK {
        // SAFETY: k + BYTES <= 64 bytes from `p` are readable; the CPU has `V`'s set.
        unsafe { add_own_classes(&mut c, V::load_reversed(p.add(k)), BLOCK - V::BYTES - k) };
        k += V::BYTES;
    }
    c
}

/// The second stage's classes of the 64 bytes at `p`, a vector at a time: the three
/// bytes of `。` and of `://` on loads one and two bytes further on, the rest on the
/// block's own bytes.
///
/// # Safety
/// The CPU has the instruction set of `V`, and the 66 bytes at `p` are readable.
#[inline(always)]
pub(crate) unsafe fn classes<V: Vector>(p: *const u8) -> Classes {
    let mut c = Classes::default();
    let mut k = 0;
    while k < BLOCK {
        // SAFETY: k + 2 + BYTES <= 66 bytes from `p` are readable; the CPU has `V`'s set.
        unsafe {
            // Loaded in reverse order, so that each mask has the bytes in reverse order;
            // lane `j` of `v1` and `v2` is the byte one and two after lane `j` of `v`.
            let v = V::load_reversed(p.add(k));
            let v1 = V::load_reversed(p.add(k + 1));
            let v2 = V::load_reversed(p.add(k + 2));
            // The vector's lanes are bits `shift..shift + BYTES`.
            let shift = BLOCK - V::BYTES - k;
            let digit = add_own_classes(&mut c, v, shift);
            c.ideographic |= v
                .eq(V::splat(0xE3))
                .and(v1.eq(V::splat(0x80)))
                .and(v2.eq(V::splat(0x82)))
                .movemask()
                << shift;
            c.scheme |= v
                .eq(V::splat(b':'))
                .and(v1.eq(V::splat(b'/')))
                .and(v2.eq(V::splat(b'/')))
                .movemask()
                << shift;
            c.literal |= digit
                .or(v.or(V::splat(0x20)).eq(V::splat(b'l')))
                .or(v.eq(V::splat(b'[')))
                .movemask()
                << shift;
        }
        k += V::BYTES;
    }
    c
}

/// [`super::Ops::fill`] a vector at a time: the next group of blocks with candidates from
/// `pos` on, into `out`; returns where the next call goes on (the end of the text, or
/// past it, once there is nothing more). Whole groups of [`GROUP`] blocks while a group's
/// bytes and the two after them are readable; then single blocks, the last ones (which a
/// vector load would overrun) from a copy padded with zero bytes.
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn fill<V: Vector>(
    text: &[u8],
    mut pos: usize,
    tlds: TldShape<'_>,
    out: &mut Batch,
) -> usize {
    let candidates = |c: Classes, at: usize| c.candidates(text, at, tlds);
    // A group's bytes and the two after them.
    let group_end = GROUP * BLOCK + READ_AHEAD - BLOCK;
    while pos + group_end <= text.len() {
        let (mut dots, mut rare) = (0u32, 0u32);
        for b in 0..GROUP {
            // SAFETY: the group's bytes and the two after them are inside `text`.
            let (dot, r) = unsafe { busy::<V>(text.as_ptr().add(pos + b * BLOCK)) };
            dots |= (dot as u32) << b;
            rare |= (r as u32) << b;
        }
        // The blocks with `E3` or `:/`, then those with dots only, each in a loop of its
        // own (a branch between the two kinds would be mispredicted in CJK text, where
        // they alternate).
        let mut live = 0u32;
        let mut rest = rare;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let at = pos + b * BLOCK;
            // SAFETY: the block's READ_AHEAD bytes are inside `text`.
            let mask = candidates(unsafe { classes::<V>(text.as_ptr().add(at)) }, at);
            out.masks[b] = mask;
            live |= ((mask != 0) as u32) << b;
        }
        let mut rest = dots & !rare;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let at = pos + b * BLOCK;
            // SAFETY: the block's bytes are inside `text`.
            let mask = candidates(unsafe { dot_classes::<V>(text.as_ptr().add(at)) }, at);
            out.masks[b] = mask;
            live |= ((mask != 0) as u32) << b;
        }
        out.start = pos;
        out.live = live;
        pos += GROUP * BLOCK;
        if live != 0 {
            return pos;
        }
    }
    // The last groups: single blocks, then the last bytes (fewer than READ_AHEAD: one
    // block or two) from a copy padded with zero bytes, which are in no class, so that
    // the copy's classes are the text's. (Byte by byte, the last block of every text, as
    // short as a line or a mail part, cost about a thousand instructions.) The rest of a
    // text may be a group and a byte, so the last byte may take a group of its own.
    loop {
        out.start = pos;
        let mut live = 0u32;
        let mut b = 0;
        while pos + READ_AHEAD <= text.len() && b < GROUP {
            // SAFETY: the block's READ_AHEAD bytes are inside `text`.
            let (dot, rare) = unsafe { busy::<V>(text.as_ptr().add(pos)) };
            if dot | rare {
                // SAFETY: as above.
                let c = unsafe {
                    if rare {
                        classes::<V>(text.as_ptr().add(pos))
                    } else {
                        dot_classes::<V>(text.as_ptr().add(pos))
                    }
                };
                let mask = candidates(c, pos);
                out.masks[b] = mask;
                live |= ((mask != 0) as u32) << b;
            }
            pos += BLOCK;
            b += 1;
        }
        if b < GROUP && pos < text.len() {
            let rest = &text[pos..];
            debug_assert!(rest.len() < READ_AHEAD);
            let mut padded = [0u8; BLOCK + READ_AHEAD];
            padded[..rest.len()].copy_from_slice(rest);
            let mut k = 0;
            while k < rest.len() && b < GROUP {
                // SAFETY: `k < READ_AHEAD`, so the READ_AHEAD bytes at `k` are inside
                // `padded`.
                let c = unsafe { classes::<V>(padded.as_ptr().add(k)) };
                let mask = candidates(c, pos + k);
                out.masks[b] = mask;
                live |= ((mask != 0) as u32) << b;
                k += BLOCK;
                b += 1;
            }
            pos += k;
        }
        out.live = live;
        if live != 0 || pos >= text.len() {
            return pos;
        }
    }
}

/// [`fill`] byte by byte: the portable kernel's.
#[inline(never)]
pub(crate) fn fill_scalar(
    text: &[u8],
    mut pos: usize,
    tlds: TldShape<'_>,
    out: &mut Batch,
) -> usize {
    loop {
        out.start = pos;
        let mut live = 0u32;
        let mut b = 0;
        while pos < text.len() && b < GROUP {
            let mask = classes_scalar(text, pos).candidates(text, pos, tlds);
            out.masks[b] = mask;
            live |= ((mask != 0) as u32) << b;
            pos += BLOCK;
            b += 1;
        }
        out.live = live;
        if live != 0 || pos >= text.len() {
            return pos;
        }
    }
}

/// The classes of the bytes `at..at + 64` (fewer at the end of the text) byte by byte, in
/// the order of [`Classes`]:
/// the definition the vector kernels are tested against.
pub(crate) fn classes_scalar(text: &[u8], at: usize) -> Classes {
    let end = text.len().min(at + BLOCK);
    let mut c = Classes::default();
    for (i, &b) in text[at..end].iter().enumerate() {
        let next_two = text.get(at + i + 1..at + i + 3);
        let bit = |set: bool| if set { bit(i) } else { 0 };
        c.dot |= bit(b == b'.');
        c.ideographic |= bit(b == 0xE3 && next_two == Some(&[0x80, 0x82]));
        c.scheme |= bit(b == b':' && next_two == Some(b"//"));
        c.host |= bit(is_host_no_dot(b));
        c.digit |= bit(b.is_ascii_digit());
        c.non_ascii |= bit(b >= 0x80);
        c.at_sign |= bit(b == b'@');
        c.literal |= bit(matches!(b, b'l' | b'L' | b'0'..=b'9' | b'['));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`nearest_outside_above`] bit by bit.
    fn naive(marks: u64, run: u64) -> u64 {
        let mut found = 0;
        for e in (0..64).filter(|e| marks >> e & 1 == 1) {
            if let Some(d) = (e + 1..64).find(|d| run >> d & 1 == 0) {
                found |= 1 << d;
            }
        }
        found
    }

    /// [`nearest_outside_above`] gives the bit-by-bit answer, for every number of marks
    /// from 0 to 64.
    #[test]
    fn nearest_outside_above_agrees_with_the_definition() {
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
                    nearest_outside_above(marks, run),
                    naive(marks, run),
                    "marks {marks:#x} run {run:#x}"
                );
            }
        }
    }
}
