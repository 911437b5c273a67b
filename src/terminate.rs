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
//! Two kinds of runs go through the vector kernels of [`crate::vector`] instead of the
//! byte loop; the automaton is generic over them ([`Runs`]) and compiled once per kernel
//! ([`Kernel::with_ops`]), so that each kernel's skips are inlined into it. With an empty
//! stack, a run of *simple* bytes (ASCII Include or Soft and no terminator of the part:
//! most of a path such as `/blog/2024/notes.html`) moves `last_safe` past its last Include
//! byte, in one call. With brackets open, a run of *plain* bytes (ASCII Include, no part's
//! separator) moves `last_safe` to its end.
//!
//! The other ASCII bytes that neither end the part nor may start a `:~:` act by their
//! class alone (an Open bracket is pushed, a Close one popped and matched, a ClearStackOpen
//! byte empties the stack, a Soft one moves nothing), and a run of them goes through a
//! loop of its own, out of line ([`ascii_run`]), rather than through the automaton's
//! tests for a part, a simple run and a terminator byte after byte (paths full of
//! brackets, `x.com/(((((x.com/(((((…`).
//!
//! The scanner calls the automaton out of line ([`terminate_in`]), after the automaton's
//! first two steps made inline for the common path: a `/`, a simple run, and a byte that
//! ends every link when the stack is empty (a space, a line break, `)`), or the end of the
//! text. A path that goes on otherwise continues in the automaton from that state.
//!
//! The parts, their terminators and ClearStackOpen sets are those of [`crate::parts`];
//! the byte sets, those of [`crate::ascii`].
//!
//! Invariants: the scan only moves forward and every byte is looked at once, so the cost
//! is linear in the bytes scanned; the stack lives in a fixed array (no allocation);
//! invalid UTF-8 acts as Hard.

use crate::ascii::{simple_set, ENDS_EMPTY_STACK, PLAIN, SIMPLE};
use crate::parts::{is_any_separator_byte, is_any_terminator_byte, UrlPart};
use crate::props::{props_of, LT_CLOSE, LT_HARD, LT_INCLUDE, LT_MASK, LT_OPEN, LT_SOFT};
use crate::tables::PROPS_BLOCKS;
use crate::utf8;
use crate::vector::runs::Runs;
use crate::vector::{Kernel, Ops, WithOps};

// The fast path of ASCII Open brackets skips the part's terminators and separators:
// none of them may be an Open bracket.
const _: () = {
    let mut b = 0;
    while b < 128 {
        let open = PROPS_BLOCKS[b] & LT_MASK == LT_OPEN;
        assert!(!(open && (is_any_terminator_byte(b as u8) || is_any_separator_byte(b as u8))));
        b += 1;
    }
};

/// [`ACTION`]: a byte the fast cases of the automaton do not take (non-ASCII, Hard,
/// Close, a terminator or separator of some part).
const OTHER_BYTE: u8 = 0;
/// [`PLAIN`].
const PLAIN_BYTE: u8 = 1;
/// ASCII Link_Term=Soft, and no part's terminator or separator.
const SOFT_BYTE: u8 = 2;
/// ASCII Link_Term=Open.
const OPEN_BYTE: u8 = 3;

/// What the automaton does with an ASCII byte inside a part, whatever the part and the
/// stack: one lookup for the cases that need nothing else ([`OTHER_BYTE`] for the rest).
static ACTION: [u8; 256] = {
    let mut table = [OTHER_BYTE; 256];
    let mut b = 0;
    while b < 128 {
        let term = PROPS_BLOCKS[b] & LT_MASK;
        let separator = is_any_separator_byte(b as u8);
        table[b] = if PLAIN[b] {
            PLAIN_BYTE
        } else if term == LT_SOFT && !separator {
            SOFT_BYTE
        } else if term == LT_OPEN {
            OPEN_BYTE
        } else {
            OTHER_BYTE
        };
        b += 1;
    }
    table
};

/// The longest run of plain bytes [`ascii_run`] takes: a longer one goes back to the
/// automaton, whose vector skip takes it.
const SHORT_RUN: usize = 8;

/// Whether [`ascii_run`] takes the byte `b` in the part `part`: an ASCII byte that is
/// none of the part's terminators and cannot start a `:~:` that matters to the part (in a
/// fragment, a terminator; in a directive, a ClearStackOpen element).
#[inline(always)]
fn takes_ascii(part: UrlPart, b: u8) -> bool {
    b < 0x80 && !part.is_terminator_byte(b) && !(b == b':' && part.is_clear_byte(b))
}

/// The Open bracket that the ASCII Close bracket `b` matches.
#[inline(always)]
fn ascii_open_of(b: u8) -> u32 {
    match b {
        b')' => '(' as u32,
        b']' => '[' as u32,
        b'}' => '{' as u32,
        b'>' => '<' as u32,
        _ => u32::MAX,
    }
}

// `ascii_open_of` is `bracket_of` on the ASCII Close brackets.
const _: () = {
    let mut b = 0;
    while b < 128 {
        assert!(
            PROPS_BLOCKS[b] & LT_MASK != LT_CLOSE || matches!(b as u8, b')' | b']' | b'}' | b'>')
        );
        b += 1;
    }
};

/// The automaton over the bytes from `i` on that [`takes_ascii`] in the part `part`, all
/// of them acting by their class alone: Open brackets pushed, Close ones popped and
/// matched, Soft bytes moving nothing, Include bytes (plain ones in short runs) moving
/// `last_safe`, the part's ClearStackOpen bytes (`/` in a path, `=` `&` in a query, `&`
/// `,` in a directive) emptying the stack. Returns where the first byte it does not take
/// is (or a run of plain bytes longer than [`SHORT_RUN`], for the vector skip, or the end
/// of the text) with `last_safe` there; `Err` with the end of the link where the link
/// ends (a Hard byte, a Close bracket that matches nothing, a full stack). A function of
/// its own, never inlined: merged into the automaton's loop, each of these bytes went
/// through the tests for a part, a simple run and a terminator again (about 26
/// instructions a bracket, against 10 here), and each `/` of a path of brackets through
/// the whole loop.
#[inline(never)]
fn ascii_run(
    text: &[u8],
    mut i: usize,
    stack: &mut BracketStack,
    mut last_safe: usize,
    part: UrlPart,
) -> Result<(usize, usize), usize> {
    // The stack's length in a register, written back once.
    let mut len = stack.len;
    let ends = loop {
        let Some(&b) = text.get(i) else {
            break false;
        };
        match ACTION[b as usize] {
            OPEN_BYTE => {
                let Some(slot) = stack.open.get_mut(len) else {
                    // The stack is full.
                    break true;
                };
                *slot = b as u32;
                len += 1;
                i += 1;
                last_safe = i;
            }
            SOFT_BYTE => i += 1,
            PLAIN_BYTE => {
                let run = i;
                i += 1;
                while i < text.len() && PLAIN[text[i] as usize] && i - run < SHORT_RUN {
                    i += 1;
                }
                last_safe = i;
                if i - run == SHORT_RUN {
                    break false;
                }
            }
            _ if !takes_ascii(part, b) => break false,
            _ if part.is_clear_byte(b) => {
                len = 0;
                i += 1;
                last_safe = i;
            }
            _ => match PROPS_BLOCKS[b as usize] & LT_MASK {
                LT_INCLUDE => {
                    i += 1;
                    last_safe = i;
                }
                LT_SOFT => i += 1,
                LT_CLOSE if len > 0 && stack.open[len - 1] == ascii_open_of(b) => {
                    len -= 1;
                    i += 1;
                    last_safe = i;
                }
                // Hard, or a Close bracket that matches nothing on the stack.
                _ => break true,
            },
        }
    };
    stack.len = len;
    if ends {
        Err(last_safe)
    } else {
        Ok((i, last_safe))
    }
}

/// [`simple_set`] of a path.
const PATH: usize = simple_set(UrlPart::Path);

/// The bracket stack limit of section 3.5.1.
pub const BRACKET_LIMIT: usize = 125;

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
/// starting at `start`, compiled for `kernel`. Returns the end of the link.
pub(crate) fn terminate(
    text: &[u8],
    start: usize,
    stack: &mut BracketStack,
    kernel: Kernel,
) -> usize {
    kernel.with_ops(Terminate {
        text,
        at: start,
        part: None,
        last_safe: start,
        stack,
    })
}

/// [`terminate`] from code that holds a kernel's [`Ops`] (the scanner's loop): a direct
/// call to the automaton compiled for that kernel, with no dispatch on the kernel's kind.
#[inline(always)]
pub(crate) fn terminate_in<O: Ops>(
    ops: O,
    text: &[u8],
    start: usize,
    stack: &mut BracketStack,
) -> usize {
    // Most paths are a `/` and a run of simple bytes that ends where any link ends with
    // an empty stack (`https://example.com/a/b.html `): the automaton's first two steps,
    // here, with no call; it goes on from there when the run ends otherwise.
    if text.get(start) == Some(&b'/') {
        let path = start + 1;
        let (next, included) = match text.get(path) {
            Some(&b) if SIMPLE[PATH][b as usize] => ops.skip_simple(text, path, PATH),
            _ => (path, 0),
        };
        let last_safe = path.max(included);
        if text.get(next).is_none_or(|&b| ENDS_EMPTY_STACK[b as usize]) {
            return last_safe;
        }
        return ops.outlined(Terminate {
            text,
            at: next,
            part: Some(UrlPart::Path),
            last_safe,
            stack,
        });
    }
    ops.outlined(Terminate {
        text,
        at: start,
        part: None,
        last_safe: start,
        stack,
    })
}

/// The arguments of [`terminate`], waiting for a kernel's [`Runs`]: the automaton's state
/// at `at` (the part it is in, if any, and the end of the link so far).
struct Terminate<'a> {
    text: &'a [u8],
    at: usize,
    part: Option<UrlPart>,
    last_safe: usize,
    stack: &'a mut BracketStack,
}

impl WithOps for Terminate<'_> {
    type Output = usize;
    #[inline(always)]
    fn run<O: Ops>(self, ops: O) -> usize {
        terminate_with(self, ops)
    }
}

/// The automaton from the state of `state`, with an empty stack, and `runs` skipping
/// [`PLAIN`] and [`SIMPLE`] runs. Inlined into each kernel's instantiation.
#[inline(always)]
fn terminate_with<R: Runs>(state: Terminate<'_>, runs: R) -> usize {
    let Terminate {
        text,
        at: mut i,
        mut part,
        mut last_safe,
        stack,
    } = state;
    let n = text.len();
    let mut previous: Option<UrlPart> = None;
    stack.clear();
    while i < n {
        let b = text[i];
        if let Some(current) = part {
            let set = simple_set(current);
            if SIMPLE[set][b as usize] && stack.is_empty() && current != UrlPart::FragmentDirective
            {
                // With nothing on the stack, a run of simple bytes (which holds no
                // terminator of this part) moves `last_safe` past its last Include byte.
                let (next, included) = runs.skip_simple(text, i, set);
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
                i += 1;
                if text.get(i).is_some_and(|&b| PLAIN[b as usize]) {
                    i = runs.skip_plain(text, i);
                }
                last_safe = i;
                continue;
            }
            if takes_ascii(current, b) {
                // An ASCII byte that neither ends the part nor may start a `:~:`, with the
                // bytes after it that are such too: out of line (paths of brackets,
                // `x.com/(((((x.com/(((((…`, are a push per byte; `x.com/a.,;:!?…` a
                // simple run and a `:` or a `?` each few bytes).
                match ascii_run(text, i, stack, last_safe, current) {
                    Ok((next, safe)) => (i, last_safe) = (next, safe),
                    Err(end) => return end,
                }
                continue;
            }
            if current.terminates_at(text, i) {
                previous = part;
                part = None;
            }
        }
        let Some(current) = part else {
            let Some((next, len)) = UrlPart::initiated_at(text, i) else {
                return last_safe;
            };
            if next == UrlPart::FragmentDirective
                && !matches!(
                    previous,
                    Some(UrlPart::Fragment | UrlPart::FragmentDirective)
                )
            {
                return last_safe;
            }
            part = Some(next);
            i += len;
            last_safe = i;
            stack.clear();
            continue;
        };
        let clear_len = current.clear_len(text, i);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The inline first steps of [`terminate_in`] end every path where the automaton
    /// alone does, whether they end it or hand it over, in every kernel.
    #[test]
    fn the_inline_path_steps_agree_with_the_automaton() {
        struct Inline<'a>(&'a [u8], usize);
        impl WithOps for Inline<'_> {
            type Output = usize;
            fn run<O: Ops>(self, ops: O) -> usize {
                terminate_in(ops, self.0, self.1, &mut BracketStack::new())
            }
        }
        let paths = [
            "/",
            "/a",
            "/a ",
            "/a/b.html ",
            "/a.",
            "/a.)",
            "/a.) x",
            "/a,.;!'\" \n",
            "/a(b) ",
            "/a(b",
            "/a)b",
            "/a]",
            "/a?b=c&d ",
            "/a#f:~:text=x ",
            "/a/b?c#d ",
            "/wiki/Ракь_(планета)). ",
            "/a。b ",
            "/a\u{200B}b ",
            "/a<b ",
            "/a{b}c ",
            "//a// ",
            "/a:b ",
            "/a\u{7F}b",
            "/a%20b\t",
            "/ab\u{FF0C}cd",
        ];
        for kernel in Kernel::available() {
            for path in paths {
                let text = format!("x.com{path}");
                let bytes = text.as_bytes();
                let at = 5;
                let alone = terminate(bytes, at, &mut BracketStack::new(), kernel);
                let inline = kernel.with_ops(Inline(bytes, at));
                assert_eq!(inline, alone, "{} on {text:?}", kernel.name());
                // A long simple run ahead of the rest, so that the vector skips run too.
                let long = format!("x.com/{}{}", "ab/".repeat(40), &path[1..]);
                let bytes = long.as_bytes();
                let alone = terminate(bytes, at, &mut BracketStack::new(), kernel);
                let inline = kernel.with_ops(Inline(bytes, at));
                assert_eq!(inline, alone, "{} on {long:?}", kernel.name());
            }
        }
    }
}
