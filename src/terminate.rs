//! Termination: where a link ends once its host is known (UTS #58 section 3.5.1).
//!
//! The automaton walks the Path, Query, Fragment and Fragment Directive parts from the
//! initiator after the host. Each part has terminators (which end it and hand over to the
//! next part's initiator) and ClearStackOpen separators (which empty the bracket stack and
//! are always included). Other characters act by their Link_Term value: Include extends
//! the link, Soft extends it only if something included follows, Hard stops, Open pushes
//! onto a stack of at most [`BRACKET_LIMIT`] brackets, and Close must match the top of
//! the stack. `last_safe` is the end of the link so far.
//!
//! Two kinds of runs go through the vector kernels of [`crate::prefilter`] instead of
//! the byte loop. With an empty stack, a run of *simple* bytes (ASCII Include or Soft and
//! no terminator of the part: most of a path such as `/blog/2024/notes.html`) moves
//! `last_safe` past its last Include byte, in one call. With brackets open, a run of
//! *plain* bytes (ASCII Include, no part's separator) moves `last_safe` to its end.
//!
//! Invariants: the scan only moves forward and every byte is looked at once, so the cost
//! is linear in the bytes scanned; the stack lives in a fixed array (no allocation);
//! invalid UTF-8 acts as Hard.

use crate::prefilter::{Kernel, PLAIN, SIMPLE};
use crate::props::{props_of, LT_CLOSE, LT_HARD, LT_INCLUDE, LT_MASK, LT_OPEN, LT_SOFT};
use crate::tables::PROPS_BLOCKS;
use crate::utf8;

/// ASCII bytes that end a link in any part when the bracket stack is empty and no
/// terminator is involved: Link_Term Hard, and Close (with nothing to match).
static ENDS_EMPTY_STACK: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let term = PROPS_BLOCKS[b] & LT_MASK;
        table[b] = term == LT_HARD || term == LT_CLOSE;
        b += 1;
    }
    table
};

/// The bracket stack limit of section 3.5.1.
pub const BRACKET_LIMIT: usize = 125;

/// A URL part in the termination automaton.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Part {
    None,
    Path,
    Query,
    Fragment,
    Directive,
}

/// The stack of open brackets, fixed at [`BRACKET_LIMIT`] entries.
pub(crate) struct BracketStack {
    open: [u32; BRACKET_LIMIT],
    len: usize,
}

impl BracketStack {
    pub(crate) fn new() -> BracketStack {
        BracketStack {
            open: [0; BRACKET_LIMIT],
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Pushes `cp`; false when the stack is full.
    #[inline]
    pub(crate) fn push(&mut self, cp: u32) -> bool {
        if self.len == BRACKET_LIMIT {
            return false;
        }
        self.open[self.len] = cp;
        self.len += 1;
        true
    }

    /// Pops the top, or `None` when empty.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.open[self.len])
    }
}

/// The opening bracket that closing bracket `cp` matches, if any.
#[inline]
fn bracket_of(cp: u32) -> Option<u32> {
    char::from_u32(cp)
        .and_then(crate::props::link_bracket)
        .map(|c| c as u32)
}

#[inline]
fn starts_with_directive(text: &[u8], i: usize) -> bool {
    text.len() >= i + 3 && &text[i..i + 3] == b":~:"
}

/// Returns where a link ends, given the offset `at` of the initiator (`/`, `?` or `#`) that
/// follows its host (and port). If no initiator stands at `at`, the link ends at `at`.
///
/// This is the termination algorithm of UTS #58 section 3.5.1 with `start = at`; it is
/// also what the migration path of section 10 calls after an existing detector found the
/// host.
///
/// ```
/// let text = "See example.com/wiki/Ракь_(планета)). And…";
/// let at = text.find('/').unwrap();
/// let end = linkscan::link_end(text, at);
/// assert_eq!(&text[..end], "See example.com/wiki/Ракь_(планета)");
/// ```
pub fn link_end(text: &str, at: usize) -> usize {
    link_end_bytes(text.as_bytes(), at)
}

/// [`link_end`] over bytes; invalid UTF-8 ends the link.
pub fn link_end_bytes(text: &[u8], at: usize) -> usize {
    if at >= text.len() {
        return at.min(text.len());
    }
    terminate(text, at, &mut BracketStack::new(), Kernel::detect())
}

/// The termination automaton from `start` (an initiator position), with `last_safe`
/// starting at `start`. Returns the end of the link.
pub(crate) fn terminate(
    text: &[u8],
    start: usize,
    stack: &mut BracketStack,
    kernel: Kernel,
) -> usize {
    // The AVX2 kernel compiles the whole automaton with AVX2 enabled, so that its skip
    // over plain bytes is inlined (a call per run of a few bytes would cost more than
    // the run).
    if let Some(end) = kernel.terminate(text, start, stack) {
        return end;
    }
    terminate_with(
        text,
        start,
        stack,
        |text, i| kernel.skip_plain(text, i),
        |text, i| kernel.skip_simple(text, i),
    )
}

/// The automaton, with `skip(text, i)` giving the first non-[`PLAIN`] position at or
/// after `i`, and `skip_simple` as [`Kernel::skip_simple`]. Inlined into each kernel's
/// instantiation.
#[inline(always)]
pub(crate) fn terminate_with(
    text: &[u8],
    start: usize,
    stack: &mut BracketStack,
    skip: impl Fn(&[u8], usize) -> usize,
    skip_simple: impl Fn(&[u8], usize) -> (usize, usize),
) -> usize {
    let n = text.len();
    let mut last_safe = start;
    let mut part = Part::None;
    let mut previous = Part::None;
    stack.clear();
    let mut i = start;
    while i < n {
        let b = text[i];
        if part != Part::None {
            if SIMPLE[b as usize] && stack.is_empty() && part != Part::Directive {
                // With nothing on the stack, a run of simple bytes (which holds no
                // terminator of this part) moves `last_safe` past its last Include byte.
                let (next, included) = skip_simple(text, i);
                last_safe = last_safe.max(included);
                // Most links end right there: at a space, a line break or a closing
                // bracket (`[text](url)`), which nothing on the stack can match.
                if text
                    .get(next)
                    .is_some_and(|&b| ENDS_EMPTY_STACK[b as usize])
                {
                    return last_safe;
                }
                i = next;
                continue;
            }
            if PLAIN[b as usize] {
                // A run of plain ASCII Include bytes only moves `last_safe` to its end.
                i = skip(text, i + 1);
                last_safe = i;
                continue;
            }
        }
        if part != Part::None {
            let terminated = match part {
                Part::Path => b == b'?' || b == b'#',
                Part::Query => b == b'#',
                Part::Fragment => b == b':' && starts_with_directive(text, i),
                _ => false,
            };
            if terminated {
                previous = part;
                part = Part::None;
            }
        }
        if part == Part::None {
            let (next, len) = match b {
                b'/' => (Part::Path, 1),
                b'?' => (Part::Query, 1),
                b'#' => (Part::Fragment, 1),
                b':' if starts_with_directive(text, i) => (Part::Directive, 3),
                _ => return last_safe,
            };
            if next == Part::Directive && previous != Part::Fragment && previous != Part::Directive
            {
                return last_safe;
            }
            part = next;
            i += len;
            last_safe = i;
            stack.clear();
            continue;
        }
        let clear_len = match part {
            Part::Path if b == b'/' => 1,
            Part::Query if b == b'=' || b == b'&' => 1,
            Part::Directive if b == b'&' || b == b',' => 1,
            Part::Directive if b == b':' && starts_with_directive(text, i) => 3,
            _ => 0,
        };
        if clear_len > 0 {
            i += clear_len;
            last_safe = i;
            stack.clear();
            continue;
        }
        let (cp, len, props) = if b < 0x80 {
            (b as u32, 1, PROPS_BLOCKS[b as usize])
        } else {
            let (cp, len) = utf8::decode(text, i);
            (cp, len, props_of(cp))
        };
        match props & LT_MASK {
            LT_INCLUDE => {
                i += len;
                last_safe = i;
            }
            LT_SOFT => i += len,
            LT_OPEN => {
                if !stack.push(cp) {
                    return last_safe;
                }
                i += len;
                last_safe = i;
            }
            LT_CLOSE => match stack.pop() {
                Some(open) if bracket_of(cp) == Some(open) => {
                    i += len;
                    last_safe = i;
                }
                _ => return last_safe,
            },
            LT_HARD => return last_safe,
            _ => return last_safe,
        }
    }
    last_safe
}
