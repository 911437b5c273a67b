//! The scanner: initiation (host, scheme, port, email) around each candidate dot, then
//! termination.
//!
//! This is the algorithm of `initiation.md`, reorganised to run in linear time:
//!
//! 1. **Candidates.** Only a Dot (`.` or `。`) can precede a TLD, so the scanner jumps from
//!    dot to dot with `memchr`/`memmem` ([`DotFinder`]) and never looks at other text
//!    unless a candidate needs it.
//! 2. **TLD.** The maximal run `R` of HostCharNoDot after the dot is looked up in the
//!    [`TldPolicy`]. Runs after different dots are disjoint, so these scans are linear.
//! 3. **Trailing dot, port**: a constant amount of look-ahead.
//! 4. **Host start.** The backward walk over HostChar stops at `floor` (the end of the last
//!    link) and, crucially, at the dot where the previous walk began: everything before it
//!    was already established ([`HostRun`]). So each byte is walked back over at most once
//!    between two links, which keeps hostile lines such as `-x.com．-x.com．…` linear.
//! 5. **Labels.** A label is bad when it is empty or starts or ends with `-`; that is
//!    always visible as a bad *pair* of adjacent characters (Dot Dot, Dot `-`, `-` Dot) or
//!    a bad first character. The walk records the last bad pair it saw, so checking the
//!    labels of `text[start..end]` is O(1).
//! 6. **Email**, when `@` precedes the host: a backward walk over Link_Email characters;
//!    the floor moves past the domain afterwards, so this too is linear.
//! 7. **Scheme** (`http://`, `https://`, any case) and 8. **termination**
//!    ([`crate::terminate`]).
//!
//! Invariants: positions are byte offsets on character boundaries of the valid parts of
//! the input; invalid UTF-8 is never part of a link; no link starts before `floor`, and
//! `floor` only grows; nothing allocates.

use memchr::memmem;

use crate::finder::{Link, LinkKind};
use crate::props::{props_of, HOST_CHAR, LINK_EMAIL};
use crate::tables::PROPS_BLOCKS;
use crate::terminate::{terminate, BracketStack};
use crate::tld::TldPolicy;
use crate::utf8::{self, INVALID};

const IDEOGRAPHIC_FULL_STOP: &[u8] = "\u{3002}".as_bytes();
const FULLWIDTH_FULL_STOP: u32 = 0xFF0E;

/// Finds the next Dot (`.` or `。`) at or after a position, caching the next occurrence of
/// each so that every byte is searched once.
pub(crate) struct DotFinder {
    /// The first `.` at or after the last search position (`None`: there is none).
    ascii: Option<usize>,
    /// The first `。` at or after the last search position.
    ideographic: Option<usize>,
    ideographic_finder: memmem::Finder<'static>,
}

impl DotFinder {
    pub(crate) fn new(text: &[u8]) -> DotFinder {
        let ideographic_finder = memmem::Finder::new(IDEOGRAPHIC_FULL_STOP);
        DotFinder {
            ascii: memchr::memchr(b'.', text),
            ideographic: ideographic_finder.find(text),
            ideographic_finder,
        }
    }

    /// The next dot at or after `from`: `(position, byte length)`.
    #[inline]
    pub(crate) fn next(&mut self, text: &[u8], from: usize) -> Option<(usize, usize)> {
        if self.ascii.is_some_and(|p| p < from) {
            self.ascii = text
                .get(from..)
                .and_then(|t| memchr::memchr(b'.', t))
                .map(|q| q + from);
        }
        if self.ideographic.is_some_and(|p| p < from) {
            self.ideographic = text
                .get(from..)
                .and_then(|t| self.ideographic_finder.find(t))
                .map(|q| q + from);
        }
        match (self.ascii, self.ideographic) {
            (Some(a), Some(i)) if i < a => Some((i, 3)),
            (Some(a), _) => Some((a, 1)),
            (None, Some(i)) => Some((i, 3)),
            (None, None) => None,
        }
    }
}

/// What the last backward host walk established: `text[start..=dot]` is one unbroken run
/// of HostChar (or starts at the floor), and `bad_pair` is the start of the last bad
/// label pair inside it (`None`: no bad pair).
#[derive(Clone, Copy)]
struct HostRun {
    start: usize,
    dot: usize,
    bad_pair: Option<usize>,
}

/// The scanning state over one text.
pub(crate) struct Scanner<'t, 'p> {
    text: &'t [u8],
    policy: &'p TldPolicy,
    /// Where the next candidate search starts.
    pos: usize,
    /// No link starts before this.
    floor: usize,
    dots: DotFinder,
    run: Option<HostRun>,
    stack: BracketStack,
}

#[inline]
fn is_dot_cp(cp: u32) -> bool {
    cp == '.' as u32 || cp == 0x3002
}

/// HostChar test and Dot test on a decoded code point.
#[inline]
fn host_props(cp: u32) -> u8 {
    if cp < 0x80 {
        PROPS_BLOCKS[cp as usize]
    } else {
        props_of(cp)
    }
}

/// Whether the pair of adjacent characters `(a, b)` shows a bad label: an empty label
/// (Dot Dot), or a label that starts (Dot `-`) or ends (`-` Dot) with a hyphen.
#[inline]
fn is_bad_pair(a: u32, b: u32) -> bool {
    (is_dot_cp(a) && (is_dot_cp(b) || b == '-' as u32)) || (a == '-' as u32 && is_dot_cp(b))
}

impl<'t, 'p> Scanner<'t, 'p> {
    pub(crate) fn new(text: &'t [u8], policy: &'p TldPolicy) -> Self {
        Scanner {
            text,
            policy,
            pos: 0,
            floor: 0,
            dots: DotFinder::new(text),
            run: None,
            stack: BracketStack::new(),
        }
    }

    /// The next link (URL or email), or `None` at the end of the text.
    pub(crate) fn next_link(&mut self) -> Option<Link> {
        loop {
            let (dot, dot_len) = self.dots.next(self.text, self.pos.max(self.floor))?;
            match self.candidate(dot, dot_len) {
                Ok(link) => return Some(link),
                Err(resume) => self.pos = resume,
            }
        }
    }

    /// The scan of `initiation.md` for the candidate dot at `dot`. `Ok`: a link was found
    /// (the floor has moved). `Err(p)`: no link here; resume the dot search at `p`.
    fn candidate(&mut self, dot: usize, dot_len: usize) -> Result<Link, usize> {
        let text = self.text;
        let n = text.len();

        // 1. The maximal HostCharNoDot run R after the dot must be a TLD.
        let tld_start = dot + dot_len;
        let mut end = tld_start;
        while end < n {
            let b = text[end];
            if b < 0x80 {
                if PROPS_BLOCKS[b as usize] & HOST_CHAR == 0 || b == b'.' {
                    break;
                }
                end += 1;
            } else {
                let (cp, len) = utf8::decode(text, end);
                if host_props(cp) & HOST_CHAR == 0 || cp == 0x3002 || cp == FULLWIDTH_FULL_STOP {
                    break;
                }
                end += len;
            }
        }
        let tld = &text[tld_start..end];
        if tld.is_empty() || tld[0] == b'-' || tld[tld.len() - 1] == b'-' {
            return Err(end.max(tld_start));
        }
        if !self.policy.is_tld(tld) {
            return Err(end);
        }
        let resume = end;
        let email_end = end;

        // 2. A trailing dot is taken, unless another label follows it.
        let mut trailing_dot = 0;
        if end < n {
            let (cp, len) = utf8::decode(text, end);
            if is_dot_cp(cp) {
                if end + len < n {
                    let (next, _) = utf8::decode(text, end + len);
                    if host_props(next) & HOST_CHAR != 0
                        && !is_dot_cp(next)
                        && next != FULLWIDTH_FULL_STOP
                    {
                        return Err(resume);
                    }
                }
                trailing_dot = len;
                end += len;
            }
        }

        // 3. Port: ':' and 1–5 digits up to 65535.
        let mut has_port = false;
        if end < n && text[end] == b':' {
            let digits = text[end + 1..]
                .iter()
                .take(6)
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits > 0 {
                if digits > 5 {
                    return Err(resume);
                }
                let value = text[end + 1..end + 1 + digits]
                    .iter()
                    .fold(0u32, |v, &d| v * 10 + (d - b'0') as u32);
                if value > 65535 {
                    return Err(resume);
                }
                end += 1 + digits;
                has_port = true;
            }
        }

        // 4. Host start, and 5. the labels.
        let (start, bad_pair) = self.walk_host(dot, dot_len);
        if start == dot {
            return Err(resume);
        }
        let (first, _) = utf8::decode(text, start);
        // The last label (R, or the empty one after a trailing dot) is checked above; the
        // others show up as a bad first character or a bad pair.
        if first == '-' as u32 || is_dot_cp(first) || bad_pair.is_some_and(|p| p >= start) {
            return Err(resume);
        }

        // 6. Email: '@' right before the host.
        if start > self.floor && text[start - 1] == b'@' {
            let at = start - 1;
            let floor = self.floor;
            self.floor = end;
            self.run = None;
            return match self.local_part_start(at, floor) {
                Some((local_start, mailto)) => Ok(Link {
                    start: local_start,
                    end: email_end,
                    kind: LinkKind::Email,
                    has_scheme: mailto,
                }),
                None => Err(end),
            };
        }

        // 7. Scheme.
        let mut link_start = start;
        let mut has_scheme = false;
        for scheme in [&b"https://"[..], &b"http://"[..]] {
            if start >= self.floor + scheme.len()
                && text[start - scheme.len()..start].eq_ignore_ascii_case(scheme)
            {
                link_start = start - scheme.len();
                has_scheme = true;
                break;
            }
        }

        // 8. Path, query, fragment; or drop the trailing dot.
        let link_end = if end < n && matches!(text[end], b'/' | b'?' | b'#') {
            terminate(text, end, &mut self.stack)
        } else if trailing_dot > 0 && !has_port {
            end - trailing_dot
        } else {
            end
        };
        self.floor = link_end;
        self.run = None;
        Ok(Link {
            start: link_start,
            end: link_end,
            kind: LinkKind::Url,
            has_scheme,
        })
    }

    /// Walks back from the dot over HostChar, never before the floor, reusing the previous
    /// walk when it reaches that walk's dot. Returns the host start and the start of the
    /// last bad label pair in `text[start..]` up to and including the pair (dot, R[0]).
    fn walk_host(&mut self, dot: usize, dot_len: usize) -> (usize, Option<usize>) {
        let text = self.text;
        let floor = self.floor;
        let (dot_cp, _) = utf8::decode(text, dot);
        let mut bad_pair = None;
        // The pair (dot, first character of R).
        if text.get(dot + dot_len) == Some(&b'-') {
            bad_pair = Some(dot);
        }
        let mut next_cp = dot_cp;
        let mut i = dot;
        let known = self.run.filter(|r| r.dot < dot && r.dot >= floor);
        let start = loop {
            if let Some(run) = known {
                if i == run.dot {
                    // Everything from run.start to run.dot was established before.
                    if bad_pair.is_none() {
                        bad_pair = run.bad_pair;
                    }
                    break run.start.max(floor);
                }
            }
            if i <= floor {
                break floor;
            }
            let (cp, len) = utf8::decode_before(text, i);
            if cp == INVALID || host_props(cp) & HOST_CHAR == 0 {
                break i;
            }
            if bad_pair.is_none() && is_bad_pair(cp, next_cp) {
                bad_pair = Some(i - len);
            }
            next_cp = cp;
            i -= len;
        };
        // `bad_pair` holds the *last* bad pair: pairs nearer the dot are found first.
        self.run = Some(HostRun {
            start,
            dot,
            bad_pair,
        });
        (start, bad_pair)
    }

    /// The email local part before the `@` at `at` (section 5.2 and `initiation.md` step 6):
    /// `Some((start, has_mailto))`, or `None` when it is invalid.
    fn local_part_start(&self, at: usize, floor: usize) -> Option<(usize, bool)> {
        let text = self.text;
        let mut i = at;
        let mut previous_dot = false;
        while i > floor {
            let b = text[i - 1];
            let (cp, len) = if b < 0x80 {
                (b as u32, 1)
            } else {
                utf8::decode_before(text, i)
            };
            if cp == '.' as u32 {
                if previous_dot || i == at {
                    return None; // ".." or a dot right before '@'
                }
                previous_dot = true;
            } else if cp == INVALID || host_props(cp) & LINK_EMAIL == 0 {
                break;
            } else {
                previous_dot = false;
            }
            i -= len;
        }
        if i == at || previous_dot {
            return None; // empty, or starting with '.'
        }
        if text[i..at].starts_with(b"//") && i > 0 && text[i - 1] == b':' {
            return None; // scheme://userinfo@host
        }
        const MAILTO: &[u8] = b"mailto:";
        if i >= floor + MAILTO.len() && text[i - MAILTO.len()..i].eq_ignore_ascii_case(MAILTO) {
            return Some((i - MAILTO.len(), true));
        }
        Some((i, false))
    }
}
