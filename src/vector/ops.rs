//! One kernel's operations as a trait, [`Ops`], for the code that is generic over them:
//! the scanner's loop over the candidates (`crate::scanner`) and the termination
//! automaton (`crate::terminate`).
//!
//! [`super::Kernel::with_ops`] dispatches once, to a function of the kernel compiled with
//! its instruction set enabled, which runs a [`WithOps`] computation with the kernel's
//! `Ops`. Every operation is `#[inline(always)]`, so the computation is compiled once per
//! kernel with the operations inlined into it: in the scanner's loop, a walk back over a
//! host or a local part is a few vector instructions, and the candidate search of the
//! next block a direct call to the kernel's code; in the automaton, a skip over a path's
//! bytes is. (The walks and the search were each a call through the dispatch: on the mail
//! corpora, for more than a third of the blocks of 64 bytes and for most links, each
//! entry and exit costing as much as a short walk.) The search itself stays out of line,
//! and so does the automaton, which the scanner runs through [`Ops::outlined`]: a direct
//! call of the automaton compiled for the same kernel. Inlined into the scanner's loop,
//! each took registers from it and made link-dense text 3 to 5 % slower, and paths full
//! of brackets up to a quarter slower; called through the dispatch, the automaton cost
//! two calls and a branch on the kernel's kind per link with a path (2 % of the
//! instructions of a count of `email-intl.txt`).
//!
//! Invariants: a value of a vector kernel's `Ops` type is only made inside that kernel's
//! `with_ops` or `outlined` entry points, which run with the kernel's instruction set
//! enabled (and which only a [`super::Kernel`] of that kind, or a value of that type,
//! calls), so holding one proves the CPU has it.

use super::candidates::{fill_scalar, Batch, TldShape};
use super::runs::{Runs, ScalarRuns};

/// The operations of one kernel (see the module): the two skips of [`Runs`], and the
/// candidate search and the backward walks of the scanner. Every kernel gives the same
/// results as the portable one ([`ScalarRuns`]), but that the walks may stop early (the
/// scanner goes on byte by byte).
pub(crate) trait Ops: Runs {
    /// The first group of blocks with a candidate from `at` on (blocks start at `at`,
    /// `at + 64`, …), into `out`; returns where the next call goes on. No block has one
    /// (`out.live == 0`) only at the end of the text (see [`super::candidates`]). The
    /// checks are those that `tlds` allows.
    fn fill(self, text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize;

    /// Walks back from `i` over ASCII host bytes (`[A-Za-z0-9.-]`) while above `stop`, as
    /// the scanner's host walk does byte by byte: returns the new position, whether a bad
    /// label pair (Dot Dot, Dot `-`, `-` Dot) was seen among the bytes walked and the
    /// character after them (whose class is `next`), and the class of the last byte
    /// walked (or `next`). May stop early: by default (the portable kernel) it walks
    /// nothing.
    #[inline(always)]
    fn walk_host(self, text: &[u8], i: usize, stop: usize, next: u8) -> (usize, bool, u8) {
        let _ = (text, stop);
        (i, false, next)
    }

    /// Walks back from `i` over ASCII local-part bytes (`ascii::LOCAL_PART`) while above
    /// `floor`, as the scanner's local-part walk does byte by byte: returns the new
    /// position, whether two adjacent dots were seen (counting the byte after the walked
    /// ones, a dot when `dot_after`), and whether the last byte walked is a dot (or
    /// `dot_after`). May stop early: by default (the portable and SSE2 kernels) it walks
    /// nothing.
    #[inline(always)]
    fn walk_local_part(
        self,
        text: &[u8],
        i: usize,
        floor: usize,
        dot_after: bool,
    ) -> (usize, bool, bool) {
        let _ = (text, floor);
        (i, false, dot_after)
    }

    /// Runs `work` with this kernel's operations, compiled as a function of its own (out
    /// of line, with the kernel's instruction set): a direct call, with no dispatch on the
    /// kernel's kind. For a computation that the caller's loop should not inline, such as
    /// the termination automaton in the scanner's.
    fn outlined<W: WithOps>(self, work: W) -> W::Output;
}

/// A computation over some [`Ops`], which [`super::Kernel::with_ops`] runs with the
/// kernel's instruction set enabled (a closure cannot be generic, so this is a trait).
/// `run` should be `#[inline(always)]`: what is not inlined into the kernel's entry
/// point is compiled without its instruction set, and calls the operations.
pub(crate) trait WithOps {
    /// What the computation returns.
    type Output;
    /// Runs the computation with `ops`.
    fn run<O: Ops>(self, ops: O) -> Self::Output;
}

/// The portable kernel: the scalar skips and candidate search, and no walk.
impl Ops for ScalarRuns {
    #[inline(always)]
    fn fill(self, text: &[u8], at: usize, tlds: TldShape<'_>, out: &mut Batch) -> usize {
        fill_scalar(text, at, tlds, out)
    }
    #[inline(always)]
    fn outlined<W: WithOps>(self, work: W) -> W::Output {
        scalar_outlined(work)
    }
}

/// [`Ops::outlined`] of the portable kernel.
#[inline(never)]
fn scalar_outlined<W: WithOps>(work: W) -> W::Output {
    work.run(ScalarRuns)
}
