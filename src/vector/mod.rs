//! The vector layer: the few scans of the engine that run a vector at a time, each
//! written once over a small vector trait and instantiated per instruction set, behind one
//! safe dispatching type, [`Kernel`].
//!
//! | module | what |
//! | --- | --- |
//! | [`simd`] | the [`Vector`](simd::Vector) and [`Lookup`](simd::Lookup) traits, the byte-range tests |
//! | [`candidates`] | stage 1: the Dots that can precede a TLD, in groups of 64-byte blocks (the cursor over them is [`Candidates`], here) |
//! | [`ops`] | one kernel's operations as a trait, for the code compiled once per kernel with them inlined |
//! | [`runs`] | the skips of the termination automaton over plain and simple path bytes |
//! | [`walks`] | the scanner's backward walks over host and local-part bytes |
//! | [`fields`] | the ends of a header field and of its name, for mail mode's header loop |
//! | [`base64`] | base64 decoded 32 characters at a time, for mail mode's decoders |
//! | `x86_64`, `avx512`, `aarch64` | the instantiations: SSE2 and AVX2, AVX-512 (the candidate search; the rest AVX2's), NEON |
//!
//! Kernels: AVX-512, AVX2 and SSE2 on x86_64 (chosen at run time; AVX-512 where the
//! compiler has its intrinsics, Rust 1.89 on), NEON on aarch64, and a portable
//! one everywhere (the scalar definitions, also used for the last bytes of a text, where
//! a vector load would read past the end). All give identical results; the tests force
//! each one and compare, at every offset.
//!
//! The scanner and the termination automaton are generic over a kernel's [`Ops`], and
//! [`Kernel::with_ops`] runs them compiled for its instruction set, with every operation
//! inlined: one dispatch per link (or per text, for a count) instead of one per block and
//! per walk.
//!
//! Invariants: a [`Kernel`] of a kind is only made after checking that the CPU has its
//! instruction set, so the dispatch of its methods to the `unsafe` entry points of that
//! set is sound; every other precondition of an entry point is checked before the
//! call. Nothing here allocates, and nothing here knows the automaton or the scanner that
//! use it (both are generic over [`Ops`]).

// The only module of the crate with `unsafe` code: the vector kernels, each block with a
// SAFETY note.
#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
mod aarch64;
// Only compiled by Rust 1.89 or later (`linkscan_avx512`), whatever the crate's
// `rust-version`.
#[cfg(all(target_arch = "x86_64", linkscan_avx512))]
#[clippy::msrv = "1.89"]
mod avx512;
pub(crate) mod base64;
pub(crate) mod candidates;
pub(crate) mod fields;
pub(crate) mod ops;
pub(crate) mod runs;
pub(crate) mod simd;
pub(crate) mod strings;
pub(crate) mod walks;
#[cfg(target_arch = "x86_64")]
mod x86_64;

pub(crate) use candidates::TldShape;
#[cfg(test)]
use candidates::{classes_scalar, Classes, READ_AHEAD};
use candidates::{Batch, BLOCK};
pub(crate) use ops::{Ops, WithOps};
use runs::ScalarRuns;

/// A choice of vector kernels. Every kernel computes the same results.
///
/// A value can only be had from [`Kernel::detect`], [`Kernel::available`] or
/// [`Kernel::portable`], which check the CPU first: holding an AVX2 kernel is the proof
/// that the CPU has AVX2 (and the BMI1, BMI2, LZCNT and POPCNT its code is compiled for),
/// so the kernels do not test it again on every call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Kind);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(any(test, feature = "__internals")), allow(dead_code))] // tests choose kernels
enum Kind {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Sse2,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(all(target_arch = "x86_64", linkscan_avx512))]
    Avx512,
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl Kernel {
    /// The fastest kernel this CPU supports (the feature test is a cached load: nothing
    /// is allocated).
    #[inline]
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            #[cfg(linkscan_avx512)]
            if avx512_detected() {
                return Kernel(Kind::Avx512);
            }
            if avx2_detected() {
                Kernel(Kind::Avx2)
            } else {
                Kernel(Kind::Sse2)
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            Kernel(Kind::Neon)
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            Kernel(Kind::Portable)
        }
    }

    /// The scalar kernel, available everywhere.
    #[cfg_attr(not(any(test, feature = "__internals")), allow(dead_code))] // tests choose kernels
    pub fn portable() -> Kernel {
        Kernel(Kind::Portable)
    }

    /// Every kernel this CPU can run, slowest first (for tests and benchmarks).
    #[cfg_attr(not(any(test, feature = "__internals")), allow(dead_code))] // tests choose kernels
    pub fn available() -> Vec<Kernel> {
        let mut kernels = vec![Kernel(Kind::Portable)];
        #[cfg(target_arch = "x86_64")]
        {
            kernels.push(Kernel(Kind::Sse2));
            if avx2_detected() {
                kernels.push(Kernel(Kind::Avx2));
            }
            #[cfg(linkscan_avx512)]
            if avx512_detected() {
                kernels.push(Kernel(Kind::Avx512));
            }
        }
        #[cfg(target_arch = "aarch64")]
        kernels.push(Kernel(Kind::Neon));
        kernels
    }

    /// `"portable"`, `"sse2"`, `"avx2"`, `"avx512"` or `"neon"`.
    #[cfg_attr(not(any(test, feature = "__internals")), allow(dead_code))] // tests choose kernels
    pub fn name(self) -> &'static str {
        match self.0 {
            Kind::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => "sse2",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => "avx2",
            #[cfg(all(target_arch = "x86_64", linkscan_avx512))]
            Kind::Avx512 => "avx512",
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => "neon",
        }
    }

    /// Runs `work` with this kernel's [`Ops`], compiled for its instruction set (see
    /// [`ops`]): one dispatch for the whole computation.
    #[inline]
    pub(crate) fn with_ops<W: WithOps>(self, work: W) -> W::Output {
        match self.0 {
            Kind::Portable => work.run(ScalarRuns),
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => x86_64::sse2_with_ops(work),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an AVX2 kernel is only made after detecting AVX2, BMI1, BMI2, LZCNT
            // and POPCNT (`avx2_detected`).
            Kind::Avx2 => unsafe { x86_64::avx2_with_ops(work) },
            #[cfg(all(target_arch = "x86_64", linkscan_avx512))]
            // SAFETY: an AVX-512 kernel is only made after `avx512_detected`.
            Kind::Avx512 => unsafe { avx512::avx512_with_ops(work) },
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => aarch64::neon_with_ops(work),
        }
    }

    /// The first colon or ASCII white space at or after `at`, or `text.len()`
    /// (`fields::name_end_scalar`): where a header field's name ends.
    #[inline]
    pub fn name_end(self, text: &[u8], at: usize) -> usize {
        match self.0 {
            Kind::Portable => fields::name_end_scalar(text, at),
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => x86_64::sse2_name_end(text, at),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an AVX2 kernel is only made after detecting AVX2.
            Kind::Avx2 => unsafe { x86_64::avx2_name_end(text, at) },
            #[cfg(all(target_arch = "x86_64", linkscan_avx512))]
            // SAFETY: an AVX-512 kernel is only made where the CPU has AVX2 too.
            Kind::Avx512 => unsafe { x86_64::avx2_name_end(text, at) },
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => aarch64::neon_name_end(text, at),
        }
    }

    /// The end of the folded header field that holds `text[at]`
    /// (`fields::field_end_scalar`): just past the first line break at or after `at` that
    /// no space or tab follows, or `text.len()`.
    #[inline]
    pub fn field_end(self, text: &[u8], at: usize) -> usize {
        match self.0 {
            Kind::Portable => fields::field_end_scalar(text, at),
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => x86_64::sse2_field_end(text, at),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an AVX2 kernel is only made after detecting AVX2.
            Kind::Avx2 => unsafe { x86_64::avx2_field_end(text, at) },
            #[cfg(all(target_arch = "x86_64", linkscan_avx512))]
            // SAFETY: an AVX-512 kernel is only made where the CPU has AVX2 too.
            Kind::Avx512 => unsafe { x86_64::avx2_field_end(text, at) },
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => aarch64::neon_field_end(text, at),
        }
    }

    /// The first `"`, `\` or byte below 0x20 at or after `at`, or `text.len()`
    /// (`strings::run_end_scalar`): where a run of a JSON string's plain text ends.
    #[inline]
    pub fn string_run_end(self, text: &[u8], at: usize) -> usize {
        match self.0 {
            Kind::Portable => strings::run_end_scalar(text, at),
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => x86_64::sse2_string_run_end(text, at),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an AVX2 kernel is only made after detecting AVX2.
            Kind::Avx2 => unsafe { x86_64::avx2_string_run_end(text, at) },
            #[cfg(all(target_arch = "x86_64", linkscan_avx512))]
            // SAFETY: an AVX-512 kernel is only made where the CPU has AVX2 too.
            Kind::Avx512 => unsafe { x86_64::avx2_string_run_end(text, at) },
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => aarch64::neon_string_run_end(text, at),
        }
    }

    /// Decodes the blocks of 32 base64 alphabet characters at the start of `input` onto
    /// `out` and returns how many characters they were (`base64::blocks`); 0 for a
    /// kernel without a vector decoder, whose caller decodes all with its scalar loop.
    #[inline]
    // Only x86_64 has a decoder yet: elsewhere the arguments go unused.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables, clippy::ptr_arg))]
    pub fn base64_blocks(self, input: &[u8], out: &mut Vec<u8>) -> usize {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an AVX2 kernel is only made after detecting AVX2.
            Kind::Avx2 => unsafe { base64::blocks(input, out) },
            #[cfg(all(target_arch = "x86_64", linkscan_avx512))]
            // SAFETY: an AVX-512 kernel is only made where the CPU has AVX2 too.
            Kind::Avx512 => unsafe { base64::blocks(input, out) },
            _ => 0,
        }
    }

    /// The byte classes of the block of `text` starting at `at` (`at < text.len()`). (For
    /// the tests, which compare every kernel's classes with the scalar ones.)
    #[cfg(test)]
    pub(crate) fn classes(self, text: &[u8], at: usize) -> Classes {
        if text.len().saturating_sub(at) < READ_AHEAD {
            return classes_scalar(text, at);
        }
        // SAFETY (every arm): `at + READ_AHEAD <= text.len()` (checked above), and a
        // kernel of a kind is only made once the CPU is known to have its instructions.
        match self.0 {
            Kind::Portable => classes_scalar(text, at),
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => unsafe { x86_64::sse2_classes(text, at) },
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => unsafe { x86_64::avx2_classes(text, at) },
            #[cfg(all(target_arch = "x86_64", linkscan_avx512))]
            Kind::Avx512 => unsafe { avx512::avx512_classes(text, at) },
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => unsafe { aarch64::neon_classes(text, at) },
        }
    }
}

/// Whether the CPU has AVX2 and the bit-manipulation instructions that come with it on
/// every CPU that has it (BMI1, BMI2, LZCNT, POPCNT), all of which the AVX2 kernel's code
/// is compiled for (the feature tests are cached loads).
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2_detected() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

/// Whether the CPU has what the AVX-512 kernel's code is compiled for: the AVX2 kernel's
/// set and AVX-512 F, BW and VBMI (the feature tests are cached loads).
#[cfg(all(target_arch = "x86_64", linkscan_avx512))]
#[inline]
fn avx512_detected() -> bool {
    avx2_detected()
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
}

/// The length [`Candidates::next`] gives for the `:` of a `://` (a Dot has 1 or 3).
pub(crate) const SCHEME_MARK: usize = 0;

/// The Dots of a text, and the `://` marks, in order, from a position that only moves
/// forward: the blocks with candidates come from the kernel a group at a time
/// ([`Ops::fill`]), and this walks their masks.
pub(crate) struct Candidates<'p> {
    /// Start of the current block.
    base: usize,
    /// Candidates of the current block not yet returned (bit `63 - i`: `base + i`, the
    /// order of [`candidates::Classes`]).
    mask: u64,
    /// The group of blocks from the kernel's last call: those after the current one are
    /// the bits left in its `live`.
    batch: Batch,
    /// Where the kernel goes on after the group: blocks are at `0, 64, 128, …` from where
    /// the text starts, whatever the kernel.
    resume: usize,
    /// The checks that depend on the TLDs.
    tlds: TldShape<'p>,
}

impl<'p> Candidates<'p> {
    /// The candidates for a scanner whose TLDs have the shape `tlds`.
    pub(crate) fn new(tlds: TldShape<'p>) -> Candidates<'p> {
        Candidates {
            base: 0,
            mask: 0,
            batch: Batch::EMPTY,
            resume: 0,
            tlds,
        }
    }

    /// The first Dot or `://` mark at or after `from` (never less than an earlier `from`,
    /// and always past the one returned before): `(position, byte length)`, the length
    /// [`SCHEME_MARK`] for the `:` of a `://` that may start a host without a TLD.
    ///
    /// The Dot returned is taken out of the mask at once, so the next one follows from
    /// the mask alone; `from` (in a scanner, the end of the last link) is only compared
    /// with it, in branches the CPU predicts. Masking with `from` instead made each
    /// candidate wait for the whole scan of the one before it, which is what limits
    /// text with a link every few bytes. When `from` is past the blocks searched so far
    /// (a long link), the kernel goes on at the block that holds it.
    #[inline(always)]
    pub(crate) fn next<O: Ops>(
        &mut self,
        ops: O,
        text: &[u8],
        from: usize,
    ) -> Option<(usize, usize)> {
        loop {
            if self.mask == 0 {
                if self.batch.live == 0 {
                    if self.resume >= text.len() {
                        return None;
                    }
                    let at = if from > self.resume {
                        self.resume + (from - self.resume) / BLOCK * BLOCK
                    } else {
                        self.resume
                    };
                    self.resume = ops.fill(text, at, self.tlds, &mut self.batch);
                    if self.batch.live == 0 {
                        return None;
                    }
                }
                let b = self.batch.live.trailing_zeros() as usize;
                self.batch.live &= self.batch.live - 1;
                self.base = self.batch.start + b * BLOCK;
                self.mask = self.batch.masks[b];
            }
            let i = self.mask.leading_zeros() as usize;
            let at = self.base + i;
            if at >= from {
                self.mask &= !candidates::bit(i);
                let len = match text[at] {
                    b'.' => 1,
                    b':' => SCHEME_MARK,
                    _ => {
                        if !self.tlds.may_follow_ideographic(text, at + 3) {
                            continue;
                        }
                        3
                    }
                };
                return Some((at, len));
            }
            // Dots before `from` (inside the last link, or passed by the scanner): drop
            // them all.
            self.mask = match from - self.base {
                skip if skip < BLOCK => self.mask & (u64::MAX >> skip),
                _ => 0,
            };
        }
    }

    /// `mask`, of the block at `base`, without its candidates before `from` (`from >=
    /// base`).
    #[inline(always)]
    pub(crate) fn mask_from(&self, base: usize, mask: u64, from: usize) -> u64 {
        match from - base {
            skip if skip < BLOCK => mask & (u64::MAX >> skip),
            _ => 0,
        }
    }

    /// Whether the next candidate of the current block is at `from` or at most `bytes`
    /// after it (false when the block has none left, or none there).
    #[inline(always)]
    pub(crate) fn next_within(&self, from: usize, bytes: usize) -> bool {
        let at = self.base + self.mask.leading_zeros() as usize;
        self.mask != 0 && at.wrapping_sub(from) <= bytes
    }

    /// The block the cursor is in: where it starts, and its candidates not yet returned,
    /// as bits in the order of [`candidates::Classes`] (bit `63 - i`: `base + i`), for a
    /// caller that takes some of them itself ([`Candidates::set_mask`] gives the rest
    /// back).
    #[inline(always)]
    pub(crate) fn block(&self) -> (usize, u64) {
        (self.base, self.mask)
    }

    /// The candidates of the current block not yet returned are `mask`: those of
    /// [`Candidates::block`] less the ones the caller took.
    #[inline(always)]
    pub(crate) fn set_mask(&mut self, mask: u64) {
        self.mask = mask;
    }

    /// When the current block has no candidate left: moves on to the next block with
    /// candidates of the kernel's last group, as [`Candidates::next`] does, and returns
    /// true; false when the group has none left (the next call of [`Candidates::next`]
    /// calls the kernel for more).
    #[inline(always)]
    pub(crate) fn next_block(&mut self) -> bool {
        debug_assert_eq!(self.mask, 0);
        if self.batch.live == 0 {
            return false;
        }
        let b = self.batch.live.trailing_zeros() as usize;
        self.batch.live &= self.batch.live - 1;
        self.base = self.batch.start + b * BLOCK;
        self.mask = self.batch.masks[b];
        true
    }
}

#[cfg(test)]
#[path = "../../tests/it/common/rng.rs"]
mod rng;

#[cfg(test)]
mod tests {
    use super::candidates::BLOCK;
    use super::rng::Rng;
    use super::runs::skip_plain_scalar;
    use super::walks::scalar;
    use super::Ops;
    use super::*;
    use crate::ascii::{is_host_no_dot, C_DOT, C_HOST, C_HYPHEN, PLAIN, SIMPLE, SIMPLE_INCLUDE};
    use crate::tld::TldSet;

    /// Both skips of a kernel, through its [`Ops`] (the simple one with the set `self.2`).
    struct Skips<'t>(&'t [u8], usize, usize);
    impl WithOps for Skips<'_> {
        type Output = (usize, (usize, usize));
        fn run<O: Ops>(self, ops: O) -> Self::Output {
            (
                ops.skip_plain(self.0, self.1),
                ops.skip_simple(self.0, self.1, self.2),
            )
        }
    }

    /// [`Ops::walk_host`] of a kernel.
    struct WalkHost<'t>(&'t [u8], usize, usize, u8);
    impl WithOps for WalkHost<'_> {
        type Output = (usize, bool, u8);
        fn run<O: Ops>(self, ops: O) -> Self::Output {
            ops.walk_host(self.0, self.1, self.2, self.3)
        }
    }

    /// [`Ops::walk_local_part`] of a kernel.
    struct WalkLocalPart<'t>(&'t [u8], usize, usize, bool);
    impl WithOps for WalkLocalPart<'_> {
        type Output = (usize, bool, bool);
        fn run<O: Ops>(self, ops: O) -> Self::Output {
            ops.walk_local_part(self.0, self.1, self.2, self.3)
        }
    }

    /// [`Ops::fill`] of a kernel: the blocks with candidates, and where it goes on.
    struct Fill<'t>(&'t [u8], usize, TldShape<'static>);
    impl WithOps for Fill<'_> {
        type Output = (Vec<(usize, u64)>, usize);
        fn run<O: Ops>(self, ops: O) -> Self::Output {
            let mut batch = Batch::EMPTY;
            let resume = ops.fill(self.0, self.1, self.2, &mut batch);
            let blocks = (0..candidates::GROUP)
                .filter(|b| batch.live >> b & 1 == 1)
                .map(|b| (batch.start + b * BLOCK, batch.masks[b]))
                .collect();
            (blocks, resume)
        }
    }

    /// [`Candidates::next`] with a kernel's [`Ops`].
    struct Next<'c, 't>(&'c mut Candidates<'static>, &'t [u8], usize);
    impl WithOps for Next<'_, '_> {
        type Output = Option<(usize, usize)>;
        fn run<O: Ops>(self, ops: O) -> Self::Output {
            self.0.next(ops, self.1, self.2)
        }
    }

    fn next(
        kernel: Kernel,
        c: &mut Candidates<'static>,
        text: &[u8],
        from: usize,
    ) -> Option<(usize, usize)> {
        kernel.with_ops(Next(c, text, from))
    }

    /// The shape of the IANA list, but for its shortest entry, of `min_tld_len` bytes.
    fn shape(min_tld_len: usize) -> TldShape<'static> {
        TldShape {
            drop_one_byte_runs: min_tld_len > 1,
            drop_digit_runs: true,
            first_non_ascii: TldSet::iana().first_non_ascii(),
        }
    }

    /// Every Dot, and which of them could start a link by the checks of the filter
    /// applied with no block boundaries (for `。`, only the character after it), for
    /// [`shape`]`(min_tld_len)`: `(all, live)`.
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
                    Some(&b) if b < 0x80 && !is_host_no_dot(b) => return false,
                    _ => {}
                }
                if dot_len == 3 {
                    // A character of three bytes that no IANA TLD starts with.
                    // (Three bytes that are no character: the run after the dot is empty,
                    // so the scanner rejects the dot, and the filter may drop it too.)
                    if text.get(d + 3).is_some_and(|&b| b & 0xF0 == 0xE0) {
                        let next = text[d + 3..].utf8_chunks().next();
                        return match next.and_then(|chunk| chunk.valid().chars().next()) {
                            Some(c) => TldSet::iana().may_start_with(c as u32),
                            None => false,
                        };
                    }
                    return true;
                }
                if text[d + 1].is_ascii_digit() {
                    // No IANA TLD starts with a digit.
                    return false;
                }
                let mut e = d + 1;
                while e < text.len() && is_host_no_dot(text[e]) {
                    e += 1;
                }
                if text.get(e) == Some(&b'@') {
                    // A local part.
                    return false;
                }
                let one_byte_run = e == d + 2 && text.get(e).is_none_or(|&b| b < 0x80);
                if one_byte_run && min_tld_len > 1 {
                    return false;
                }
                !(text.get(e) == Some(&b'.') && text.get(e + 1).is_some_and(|&b| is_host_no_dot(b)))
            })
            .collect();
        (all, live)
    }

    /// The `://` that may start a host without a TLD: after `p` or `s` (any case), before
    /// `l`, `L`, a digit or `[`: the positions of their `:`.
    fn naive_schemes(text: &[u8]) -> Vec<usize> {
        (1..text.len())
            .filter(|&c| {
                text[c..].starts_with(b"://")
                    && matches!(text[c - 1], b'p' | b'P' | b's' | b'S')
                    && matches!(text.get(c + 3), Some(b'l' | b'L' | b'0'..=b'9' | b'['))
            })
            .collect()
    }

    fn all(kernel: Kernel, text: &[u8], min_tld_len: usize) -> Vec<usize> {
        all_of(kernel, text, shape(min_tld_len))
    }

    /// The candidates of `text` for TLDs of the shape `tlds`, in order.
    fn all_of(kernel: Kernel, text: &[u8], tlds: TldShape<'static>) -> Vec<usize> {
        let mut c = Candidates::new(tlds);
        let mut out = Vec::new();
        let mut from = 0;
        while let Some((at, len)) = next(kernel, &mut c, text, from) {
            out.push(at);
            from = at + len;
        }
        out
    }

    /// Every kernel equals the naive definition at every alignment and length, with dots,
    /// ideographic full stops and `://` across block boundaries.
    #[test]
    fn kernels_agree_with_the_naive_search() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let pieces: [&[u8]; 18] = [
            b".",
            "。".as_bytes(),
            b"a",
            b"\xE3",
            b"\x80\x82",
            b" ",
            "中".as_bytes(),
            b"://",
            b":",
            b"/",
            b"p",
            b"S",
            b"l",
            b"[1",
            b"7",
            // No TLD starts with these; the first does not end a host either.
            "（".as_bytes(),
            "这".as_bytes(),
            b"@",
        ];
        let mut marks_seen = 0;
        let mut ideographic_dropped = 0;
        for round in 0..400 {
            // Some texts long enough for whole groups of blocks, and for batches to fill.
            let len = if round % 4 == 0 {
                rng.below(4000)
            } else {
                rng.below(300)
            };
            let mut text = Vec::new();
            while text.len() < len {
                let piece = pieces[rng.below(pieces.len())];
                text.extend_from_slice(piece);
            }
            let schemes = naive_schemes(&text);
            marks_seen += schemes.len();
            for min_tld_len in [1, 2] {
                let (dots, live) = naive(&text, min_tld_len);
                let expected = all(Kernel::portable(), &text, min_tld_len);
                // Exactly the `://` marks of the naive definition.
                let marks: Vec<usize> = expected
                    .iter()
                    .copied()
                    .filter(|&i| text[i] == b':')
                    .collect();
                assert_eq!(marks, schemes, "round {round}: the `://` marks");
                // Never a live dot dropped; never anything but a dot kept.
                assert!(
                    live.iter().all(|d| expected.contains(d)),
                    "round {round}, min_tld_len {min_tld_len}: a live dot was dropped"
                );
                assert!(
                    expected
                        .iter()
                        .all(|d| dots.contains(d) || schemes.contains(d)),
                    "round {round}: a non-dot was kept"
                );
                // Never a `。` before a character of three bytes that starts no TLD.
                assert!(
                    expected.iter().all(|&d| live.contains(&d)
                        || text[d] != 0xE3
                        || !text[d + 3..].starts_with("（".as_bytes())
                            && !text[d + 3..].starts_with("这".as_bytes())
                            && !text[d + 3..].starts_with("。".as_bytes())),
                    "round {round}: a `。` before a character that starts no TLD was kept"
                );
                // Never a `.` before a digit, even across the end of a block.
                assert!(
                    expected
                        .iter()
                        .all(|&d| text[d] != b'.'
                            || !text.get(d + 1).is_some_and(u8::is_ascii_digit)),
                    "round {round}: a `.` before a digit was kept"
                );
                ideographic_dropped += dots
                    .iter()
                    .filter(|&&d| text[d] == 0xE3 && !live.contains(&d) && !expected.contains(&d))
                    .count();
                for kernel in Kernel::available() {
                    assert_eq!(
                        all(kernel, &text, min_tld_len),
                        expected,
                        "round {round}, min_tld_len {min_tld_len}, kernel {kernel:?}"
                    );
                }
            }
            for kernel in Kernel::available().into_iter().filter(|_| text.len() < 400) {
                // The classes at every start offset, too.
                for at in 0..text.len() {
                    assert_eq!(
                        kernel.classes(&text, at),
                        classes_scalar(&text, at),
                        "kernel {kernel:?} at {at}"
                    );
                }
            }
        }
        assert!(marks_seen > 20, "only {marks_seen} `://` marks were tested");
        assert!(
            ideographic_dropped > 20,
            "only {ideographic_dropped} `。` before no TLD were dropped"
        );
    }

    /// 300 texts of up to 200 bytes from `alphabet`, with one byte in 24 anything.
    fn texts_mostly_of(alphabet: &[u8], seed: u64) -> Vec<Vec<u8>> {
        let mut rng = Rng::new(seed);
        (0..300)
            .map(|_| {
                let len = rng.below(200);
                (0..len)
                    .map(|_| {
                        if rng.below(24) == 0 {
                            rng.next_u64() as u8
                        } else {
                            *rng.pick(alphabet)
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
                assert_eq!(skip_plain_scalar(text, i), expected);
                for kernel in Kernel::available() {
                    assert_eq!(
                        kernel.with_ops(Skips(text, i, 0)).0,
                        expected,
                        "round {round} at {i} {kernel:?}"
                    );
                }
            }
        }
    }

    /// Every kernel's simple-run skip equals the scalar definition from every offset,
    /// with each part's set.
    #[test]
    fn skip_simple_agrees_across_kernels() {
        // Mostly simple bytes (Include and Soft, and the bytes only some parts take),
        // sometimes anything.
        let texts = texts_mostly_of(b"abcXYZ019-_~%/=&.,;!'\":?#", 0x9E37_79B9_7F4A_7C15);
        for (round, text) in texts.iter().enumerate() {
            for set in 0..3 {
                for i in 0..=text.len() {
                    let end = (i..text.len())
                        .find(|&j| !SIMPLE[set][text[j] as usize])
                        .unwrap_or(text.len());
                    let included = (i..end)
                        .rev()
                        .find(|&j| SIMPLE_INCLUDE[set][text[j] as usize])
                        .map_or(0, |j| j + 1);
                    for kernel in Kernel::available() {
                        assert_eq!(
                            kernel.with_ops(Skips(text, i, set)).1,
                            (end, included),
                            "round {round} set {set} at {i} {kernel:?}"
                        );
                    }
                }
            }
        }
    }

    /// Every kernel's backward host walk, finished byte by byte, equals the byte-by-byte
    /// walk, from every end offset and floor, with every class after the walk.
    #[test]
    fn host_walks_agree_across_kernels() {
        let texts = texts_mostly_of(b"abcXYZ019-.-..-", 0xD1B5_4A32_D192_ED03);
        for (round, text) in texts.iter().enumerate() {
            for i in 0..=text.len() {
                for stop in [0, i / 2, i.saturating_sub(33), i.saturating_sub(1)] {
                    for next in [C_DOT, C_HYPHEN, C_HOST] {
                        let expected = scalar::walk_host(text, i, stop, next);
                        for kernel in Kernel::available() {
                            let (at, bad, class) = kernel.with_ops(WalkHost(text, i, stop, next));
                            let (end, rest_bad, end_class) =
                                scalar::walk_host(text, at, stop, class);
                            assert_eq!(
                                (end, bad || rest_bad, end_class),
                                expected,
                                "round {round} at {i} stop {stop} next {next} {kernel:?}"
                            );
                            assert!(at >= stop && at <= i, "{kernel:?} walked out of range");
                        }
                    }
                }
            }
        }
    }

    /// Every kernel's backward local-part walk, finished byte by byte, equals the
    /// byte-by-byte walk, from every end offset and floor.
    #[test]
    fn local_part_walks_agree_across_kernels() {
        let texts = texts_mostly_of(b"abcXYZ019-._+%!..", 0x94D0_49BB_1331_11EB);
        for (round, text) in texts.iter().enumerate() {
            for i in 0..=text.len() {
                for floor in [0, i / 2, i.saturating_sub(33), i.saturating_sub(1)] {
                    for dot_after in [false, true] {
                        let expected = scalar::walk_local_part(text, i, floor, dot_after);
                        for kernel in Kernel::available() {
                            let (at, doubled, dot) =
                                kernel.with_ops(WalkLocalPart(text, i, floor, dot_after));
                            let (end, rest_doubled, end_dot) =
                                scalar::walk_local_part(text, at, floor, dot);
                            assert_eq!(
                                (end, doubled || rest_doubled, end_dot),
                                expected,
                                "round {round} at {i} floor {floor} {kernel:?}"
                            );
                            assert!(at >= floor && at <= i, "{kernel:?} walked out of range");
                        }
                    }
                }
            }
        }
    }

    /// The candidates from a position that jumps forward (the end of a long link) are
    /// those of the whole text from there on, with every kernel: the blocks stay where
    /// they were, whether the jump lands inside the batch or past it.
    #[test]
    fn jumps_forward_keep_the_same_candidates() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        let mixed: [&[u8]; 8] = [
            b".ab",
            b"-x.c-d.ef",
            b"x.c",
            "。x".as_bytes(),
            b"    ",
            b"a",
            b"http://l",
            b"a.b.c",
        ];
        // Blocks with dots and no `E3` or `:/`, which the kernels classify apart.
        let dots_only: [&[u8]; 6] = [b".ab", b"x.c", b"    ", b"a", b"a.b.c", b"-x.c-d.ef"];
        for round in 0..60 {
            let pieces: &[&[u8]] = if round % 2 == 0 { &mixed } else { &dots_only };
            let len = 2000 + rng.below(8000);
            let mut text = Vec::new();
            while text.len() < len {
                text.extend_from_slice(pieces[rng.below(pieces.len())]);
            }
            let whole = all(Kernel::portable(), &text, 2);
            let (_, live) = naive(&text, 2);
            assert!(
                live.iter().all(|d| whole.contains(d)),
                "round {round}: a live dot was dropped"
            );
            assert!(
                whole.len() > 50,
                "round {round}: {} candidates",
                whole.len()
            );
            for kernel in Kernel::available() {
                let mut rng = Rng::new(round as u64);
                let mut c = Candidates::new(shape(2));
                let mut from = 0;
                loop {
                    let expected = whole.iter().copied().find(|&d| d >= from);
                    let got = next(kernel, &mut c, &text, from).map(|(at, _)| at);
                    assert_eq!(got, expected, "round {round}, {kernel:?}, from {from}");
                    let Some(at) = got else { break };
                    // Mostly small steps, some within a batch, some past several.
                    from = at + 1 + [0, 3, 70, 900, 3000][rng.below(5)];
                }
            }
        }
    }

    /// The starts of the blocks that hold `dots`, in order, once each.
    fn blocks_of(dots: &[usize]) -> Vec<usize> {
        let starts: std::collections::BTreeSet<usize> =
            dots.iter().map(|&d| d / BLOCK * BLOCK).collect();
        starts.into_iter().collect()
    }

    /// The blocks with candidates of every call of [`Ops::fill`] from the start of `text`
    /// to its end, checking that a call finds none only at the end.
    fn fill_all(kernel: Kernel, text: &[u8]) -> Vec<usize> {
        let (mut found, mut at) = (Vec::new(), 0);
        loop {
            let (blocks, resume) = kernel.with_ops(Fill(text, at, shape(2)));
            if blocks.is_empty() {
                assert!(
                    resume >= text.len(),
                    "{kernel:?}: none from {at}, resume {resume}"
                );
                return found;
            }
            found.extend(blocks.iter().map(|&(start, _)| start));
            at = resume;
        }
    }

    /// One call of [`Ops::fill`] passes over the groups without a candidate and returns
    /// the first group that has one, whole groups and the last, short one alike: the
    /// blocks it returns are exactly those of that group with candidates, and the next
    /// call goes on right after the group. Call after call, every block with candidates
    /// comes once.
    #[test]
    fn fill_returns_the_first_group_with_a_candidate() {
        let group = candidates::GROUP * BLOCK;
        // (`2 * group + 1`: the rest after the first group is a group and a byte.)
        let lengths = [
            100,
            group + 10,
            2 * group + 1,
            2 * group + 2,
            3 * group + 500,
            5 * group,
        ];
        for len in lengths {
            for first in [0, 63, group - 2, group + 64, 2 * group + 7, len - 4] {
                if first + 4 > len {
                    continue;
                }
                let mut text = vec![b' '; len];
                text[first..first + 4].copy_from_slice(b".ab ");
                // A second candidate in the same group, and one in the group after.
                let group_start = first / group * group;
                let same = group_start + (first - group_start + 700) % group;
                let later = group_start + group + 100;
                for at in [same, later] {
                    if at + 4 <= len && at.abs_diff(first) >= 4 {
                        text[at..at + 4].copy_from_slice(b".ab ");
                    }
                }
                let (_, live) = naive(&text, 2);
                let in_group: Vec<usize> = live
                    .iter()
                    .copied()
                    .filter(|&d| d / group == first / group)
                    .collect();
                for kernel in Kernel::available() {
                    let (blocks, resume) = kernel.with_ops(Fill(&text, 0, shape(2)));
                    let starts: Vec<usize> = blocks.iter().map(|&(at, _)| at).collect();
                    let what = format!("{kernel:?}, length {len}, dot at {first}");
                    assert_eq!(starts, blocks_of(&in_group), "{what}");
                    assert!(blocks.iter().all(|&(_, mask)| mask != 0), "{what}");
                    let group_end = (group_start + group).min(len.next_multiple_of(BLOCK));
                    assert_eq!(resume, group_end, "{what}");
                    assert_eq!(fill_all(kernel, &text), blocks_of(&live), "{what}");
                }
            }
        }
    }

    /// A text whose rest after a group is a group and a byte, with no candidate there:
    /// the call that reaches it goes on to the end rather than stopping a byte short with
    /// none.
    #[test]
    fn fill_takes_the_last_byte_of_a_group_and_a_byte() {
        let group = candidates::GROUP * BLOCK;
        let mut text = vec![b' '; 2 * group + 1];
        text[..4].copy_from_slice(b".ab ");
        for kernel in Kernel::available() {
            assert_eq!(fill_all(kernel, &text), [0], "{kernel:?}");
        }
    }

    /// A block start past the end of the text is classified as empty, not read.
    #[test]
    fn classes_past_the_end_are_empty() {
        let text = [b'.'; 100];
        for kernel in Kernel::available() {
            assert_eq!(kernel.classes(&text, 100), Classes::default());
            assert_eq!(
                kernel.with_ops(Fill(&text, 128, TldShape::ANY)),
                (vec![], 128)
            );
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
            let mut c = Candidates::new(shape(2));
            assert_eq!(next(kernel, &mut c, &text, 0), Some((0, 1)));
            assert_eq!(next(kernel, &mut c, &text, 1), Some((61, 1)));
            assert_eq!(next(kernel, &mut c, &text, 62), Some((64, 1)));
            assert_eq!(next(kernel, &mut c, &text, 66), Some((130, 1)));
            assert_eq!(next(kernel, &mut c, &text, 131), Some((500, 1)));
            assert_eq!(next(kernel, &mut c, &text, 996), Some((996, 1)));
            assert_eq!(next(kernel, &mut c, &text, 997), None);
            assert_eq!(next(kernel, &mut Candidates::new(shape(2)), b"", 0), None);
        }
    }

    /// A `.` before a digit is dropped when no TLD starts with one (whatever follows the
    /// digit: `1.5%`, `v2.0.1`, `1.5GB`), and kept otherwise, in every kernel.
    #[test]
    fn digit_runs_are_dropped_when_no_tld_starts_with_a_digit() {
        let text = b"1.5% v2.0.1 is 1.5GB x.ab";
        for kernel in Kernel::available() {
            let found = |shape: TldShape<'static>| all_of(kernel, text, shape);
            let mut digits = shape(1);
            // (`.0` in `v2.0.1` is an inner label either way.)
            assert_eq!(found(digits), [22], "{kernel:?}");
            digits.drop_digit_runs = false;
            assert_eq!(found(digits), [1, 9, 16, 22], "{kernel:?}");
        }
    }

    /// A dot whose ASCII run ends at `@` is dropped (a local part), whether or not the
    /// run is a TLD; one whose run goes on past the block is kept.
    #[test]
    fn local_parts_are_dropped() {
        let mut text = b"john.smith@example.com and x.com@y".to_vec();
        text.resize(60, b' ');
        // `.ab` at 60 runs past the block's end, to the `@` at 66.
        text.extend_from_slice(b".abcde@x.org");
        for kernel in Kernel::available() {
            assert_eq!(all(kernel, &text, 2), [18, 60, 68], "{kernel:?}");
        }
    }

    /// A dot before a one-byte run (`e.g`, `a.b%`) is dropped when no TLD is that short,
    /// and kept otherwise, in blocks with one dot and in dense ones, and at the end of
    /// the text.
    #[test]
    fn one_byte_runs_are_dropped_when_no_tld_is_that_short() {
        // One dot per block: `.g` and `.b` have one-byte runs, `.ab` a two-byte one,
        // `.α` and `.qé` are not known to be short (non-ASCII), `.x` ends the text.
        let mut sparse = Vec::new();
        for piece in [
            "see e.g this",
            "a.b% of",
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
