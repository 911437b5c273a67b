//! The scanner: initiation (host, scheme, port, email) around each candidate dot, then
//! termination.
//!
//! This is the algorithm of `initiation.md`, reorganised to run in linear time:
//!
//! 1. **Candidates.** Only a Dot (`.` or `。`) can precede a TLD, so the scanner jumps from
//!    dot to dot with the vector prefilter ([`crate::prefilter`]) and never looks at other
//!    text unless a candidate needs it.
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

use crate::finder::{Link, LinkKind};
use crate::prefilter::{Candidates, Kernel};
use crate::props::{props_of, HOST_CHAR, LINK_EMAIL};
use crate::tables::PROPS_BLOCKS;
use crate::terminate::{terminate, BracketStack};
use crate::tld::TldPolicy;
use crate::utf8;

const FULLWIDTH_FULL_STOP: u32 = 0xFF0E;

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
    /// `policy.max_len()`: no longer run after a dot can be a TLD.
    max_tld_len: usize,
    /// Where the next candidate search starts.
    pos: usize,
    /// No link starts before this.
    floor: usize,
    dots: Candidates,
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

impl<'t, 'p> Scanner<'t, 'p> {
    pub(crate) fn new(text: &'t [u8], policy: &'p TldPolicy, kernel: Kernel) -> Self {
        Scanner {
            text,
            policy,
            max_tld_len: policy.max_len(),
            pos: 0,
            floor: 0,
            dots: Candidates::new(kernel),
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

        // 1. The maximal HostCharNoDot run R after the dot must be a TLD. A run longer
        //    than any TLD is rejected as soon as it is: R holds no dot, so the next search
        //    may resume where this scan stopped, and each byte is scanned once.
        let tld_start = dot + dot_len;
        let limit = n.min(tld_start + self.max_tld_len + 1);
        let mut end = tld_start;
        while end < limit {
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
        if tld.is_empty()
            || tld.len() > self.max_tld_len
            || tld[0] == b'-'
            || tld[tld.len() - 1] == b'-'
            || !self.policy.is_tld(tld)
        {
            return Err(end.max(tld_start));
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
        // The pair (dot, first character of R).
        let mut bad_pair = (text.get(dot + dot_len) == Some(&b'-')).then_some(dot);
        // What the character after the one being looked at is: the dot itself at first.
        let (mut next_dot, mut next_hyphen) = (true, false);
        let known = self.run.filter(|r| r.dot < dot && r.dot >= floor);
        let stop = known.map_or(floor, |r| r.dot);
        let mut i = dot;
        while i > stop {
            let b = text[i - 1];
            let (is_dot, is_hyphen, len) = if b < 0x80 {
                if PROPS_BLOCKS[b as usize] & HOST_CHAR == 0 {
                    break;
                }
                (b == b'.', b == b'-', 1)
            } else {
                // Invalid UTF-8 reads as a code point without HOST_CHAR.
                let (cp, len) = utf8::decode_before(text, i);
                if host_props(cp) & HOST_CHAR == 0 {
                    break;
                }
                (cp == 0x3002, false, len)
            };
            if bad_pair.is_none()
                && ((is_dot && (next_dot || next_hyphen)) || (is_hyphen && next_dot))
            {
                bad_pair = Some(i - len);
            }
            (next_dot, next_hyphen) = (is_dot, is_hyphen);
            i -= len;
        }
        let start = match known {
            // Everything from run.start to run.dot was established before.
            Some(run) if i == run.dot => {
                bad_pair = bad_pair.or(run.bad_pair);
                run.start.max(floor)
            }
            _ => i,
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
            let len = if b == b'.' {
                if previous_dot || i == at {
                    return None; // ".." or a dot right before '@'
                }
                previous_dot = true;
                1
            } else if b < 0x80 {
                if PROPS_BLOCKS[b as usize] & LINK_EMAIL == 0 {
                    break;
                }
                previous_dot = false;
                1
            } else {
                // Invalid UTF-8 reads as a code point without LINK_EMAIL.
                let (cp, len) = utf8::decode_before(text, i);
                if host_props(cp) & LINK_EMAIL == 0 {
                    break;
                }
                previous_dot = false;
                len
            };
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
