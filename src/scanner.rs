//! The scanner: initiation (host, scheme, port, email) around each candidate dot, then
//! termination.
//!
//! This is the algorithm of `initiation.md`, reorganised to run in linear time:
//!
//! 1. **Candidates.** Only a Dot (`.` or `。`) can precede a TLD, so the scanner jumps from
//!    dot to dot with the vector prefilter ([`crate::vector`]) and never looks at other
//!    text unless a candidate needs it.
//! 2. **TLD.** The maximal run `R` of HostCharNoDot after the dot is looked up in the
//!    [`TldPolicy`]. Ignored code points between two of its characters belong to `R` and
//!    are left out of the lookup (`example.co` U+00AD `m` is `example.com`, not
//!    `example.co`: the host walk passes over them, and so does the TLD run). Runs after different dots are disjoint, so these scans are linear.
//!    The common case — a `.`, then a run of at most 7 ASCII bytes that an ASCII byte
//!    other than a dot ends — is settled on one 8-byte word: the run's length by a few
//!    integer operations on all its bytes at once, the lookup by one packed compare with
//!    the TLD found last, or by the packed table. The same word rejects an empty run and
//!    an ASCII inner label (a dot and an ASCII host byte after the run). Before all that,
//!    a TLD found last that is all letters is matched on the word with one OR and one
//!    compare, and the byte after it tested (link-dense text repeats its TLD).
//! 3. **Trailing dot, `@`, port**: a constant amount of look-ahead. A dot followed by
//!    another label rejects R before any lookup, and that dot is the next candidate: unless
//!    both labels are ASCII and both dots `.` (which the vector filter judges faster), the
//!    scanner goes on along such chains of labels (`a.α.中.ا.…`, `a。b.a。b.…`) itself. An `@` right after the host (or
//!    its trailing dot) rejects the candidate: that host is an email's local part
//!    (`xiao.li@example.com`), found from the domain's candidate, never a URL.
//! 4. **Host start.** The backward walk over HostChar (and Ignored code points: UTS #46
//!    `ignored`, such as U+00AD and U+200B, which it passes over as if they were not there
//!    — the labels are judged without them — and which a host never starts with: the
//!    start steps forward over any it ended on) stops at `floor` (the end of the last
//!    link) and, crucially, at the dot of the last host rejected for its labels
//!    ([`HostRun`]): a walk that reaches it gets the same start and is rejected too. A
//!    walk that ends in a link moves the floor past itself; one that ends in a rejection
//!    leaves that host behind as the new stop. So each byte is walked back over at most
//!    once between two links, which keeps hostile lines such as `-x.com．-x.com．…`
//!    linear. After two such rejections in a row the scanner skips the rest of the
//!    HostChar run in one forward pass instead of rejecting its candidates one by one.
//!    A walk bounded to a few bytes (the previous link ended just before the host, as in
//!    link-dense text) goes byte by byte, the label right before the dot (most often the
//!    whole host: `x` of `x.com`) in a loop with no pair to test (the same function,
//!    `label_before`, starts the path of link-dense counts); a longer one hands runs
//!    of ASCII to the vector kernel. Ignored code points are all non-ASCII and not HostChar, so only the decoded
//!    path that already ends a walk on such a character asks whether it is Ignored (a
//!    binary search over a few ranges): ASCII walks and the vector kernels are unchanged.
//! 5. **Labels.** A label is bad when it is empty or starts or ends with `-`; that is
//!    always visible as a bad *pair* of adjacent characters (Dot Dot, Dot `-`, `-` Dot) or
//!    a bad first character. The walk records the last bad pair it saw, so checking the
//!    labels of `text[start..end]` is O(1).
//! 6. **Email**, when `@` precedes the host: a backward walk over Link_Email characters;
//!    the floor moves past the domain afterwards, so this too is linear. A local part
//!    after `scheme://` or `scheme://user:` is userinfo, not an email (a second walk over
//!    the user, bounded by the same floor).
//! 7. **Scheme** (`http://`, `https://`, any case; any other RFC 3986 `scheme://` is
//!    taken too, except the script schemes, whose domain is not linked) and 8. **termination**
//!    ([`crate::terminate`]).
//!
//!
//! **Hosts without a TLD** (`http://localhost:8080/`, `http://192.168.0.1/`,
//! `http://[::1]:3000/`) have no dot to be a candidate. Only a `://` can precede one, so
//! the candidate search marks those too, in the same pass over the text as the dots (a
//! `:` before a `/`, one more compare per vector; [`crate::vector::candidates`]), and
//! keeps only the few that may start such a host: after a `p` or `s`, before an `l`, a
//! digit or `[`. They come in text order with the dots ([`SCHEME_MARK`]), and are looked
//! at out of line ([`Scanner::literal_host`]). A mark inside a link is dropped with the
//! dots there. Text without `://` never leaves the dot loop.
//!
//! Invariants: positions are byte offsets on character boundaries of the valid parts of
//! the input; invalid UTF-8 is never part of a link; no link starts before `floor`, and
//! `floor` only grows; nothing allocates.

use crate::link::{Link, LinkKind};
use crate::props::{is_ignored_cp, props_of, HOST_CHAR, LINK_EMAIL};
use crate::registrable::{icann_entries_below, LastHost, Suffix};
use crate::tables::PROPS_BLOCKS;
use crate::terminate::{terminate, terminate_in, BracketStack};
use crate::tld::{pack_short_from, TldPolicy, TldSet};
use crate::utf8;
use crate::vector::{candidates, Candidates, Kernel, Ops, TldShape, WithOps, SCHEME_MARK};

const FULLWIDTH_FULL_STOP: u32 = 0xFF0E;

/// The longest backward walk (host or local part) made byte by byte: a walk that the
/// floor or the last rejected host bounds to this many bytes costs less in a byte loop
/// than in the vector walk (link-dense text, where each host or local part starts right
/// after the previous link). Measured again with the vector walk inlined into the loop:
/// with no byte loop, lines of `x.com` took 38 % more time; a bound of 8 changed nothing.
const SCALAR_HOST_WALK: usize = 16;

/// A host rejected for its labels: `text[start..=dot]` is one unbroken run of HostChar
/// (or starts at the floor) whose labels are bad (a bad pair, a bad first character, or
/// no character at all before the dot). Every later candidate whose walk reaches `dot`
/// gets the same start and is rejected too, without walking the run again.
#[derive(Clone, Copy)]
struct HostRun {
    start: usize,
    dot: usize,
}

/// Classes of ASCII bytes for the backward host walk: not a host character, a host
/// character, a dot, a hyphen; and the marker for bytes >= 0x80, decoded on a slower path.
use crate::ascii::{self, C_DOT, C_HOST, C_HYPHEN, C_NON_ASCII, C_STOP};

const HOST_CLASS: [u8; 256] = {
    let mut table = [C_NON_ASCII; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = match b as u8 {
            b'.' => C_DOT,
            b'-' => C_HYPHEN,
            _ if PROPS_BLOCKS[b] & HOST_CHAR != 0 => C_HOST,
            _ => C_STOP,
        };
        b += 1;
    }
    table
};

// The host walk of link-dense text tells host bytes by an odd class.
const _: () = assert!(C_HOST & 1 == 1 && C_HYPHEN & 1 == 1);
const _: () = assert!(C_STOP & 1 == 0 && C_DOT & 1 == 0 && C_NON_ASCII & 1 == 0);

/// `BAD_PAIR[class << 2 | next_class]`: the adjacent characters show a bad label — an
/// empty one (Dot Dot), or one that starts (Dot `-`) or ends (`-` Dot) with a hyphen.
static BAD_PAIR: [bool; 16] = {
    let mut table = [false; 16];
    table[((C_DOT << 2) | C_DOT) as usize] = true;
    table[((C_DOT << 2) | C_HYPHEN) as usize] = true;
    table[((C_HYPHEN << 2) | C_DOT) as usize] = true;
    table
};

/// [`DENSE_AFTER`]: the byte cannot follow a TLD on the path of link-dense text (a
/// non-ASCII byte, HostCharNoDot or `.`, which continue the run; `@`, after which the host
/// is a local part).
const AFTER_NONE: u8 = 0;
/// Any other ASCII byte: the link ends there (but for a port after a `:`).
const AFTER_END: u8 = 1;
/// `:`: a port may follow.
const AFTER_COLON: u8 = 2;
/// `/`, `?`, `#`: a path, a query or a fragment starts.
const AFTER_PATH: u8 = 3;

/// What the byte after a TLD means to [`Scanner::count_dense`]: one lookup for the tests
/// that [`Scanner::tld`] and [`Scanner::accept`] make on it one after the other.
const DENSE_AFTER: [u8; 256] = {
    let mut table = [AFTER_NONE; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = match b as u8 {
            b'.' | b'@' => AFTER_NONE,
            b':' => AFTER_COLON,
            b'/' | b'?' | b'#' => AFTER_PATH,
            _ if PROPS_BLOCKS[b] & HOST_CHAR != 0 => AFTER_NONE,
            _ => AFTER_END,
        };
        b += 1;
    }
    table
};

/// ASCII bytes of a local part other than `.` (Link_Email=Yes); bytes >= 0x80 are decoded.
static EMAIL_ASCII: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = b != b'.' as usize && PROPS_BLOCKS[b] & LINK_EMAIL != 0;
        b += 1;
    }
    table
};

/// A `scheme://` other than `http://` and `https://` right before a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OtherScheme {
    /// The link starts at this offset, with its scheme.
    Scheme(usize),
    /// `javascript://`, `vbscript://` or `data://`: a link there would run script or
    /// inline content when followed, so the domain is not linked at all.
    Script,
}

/// Schemes whose links are never reported (see [`OtherScheme::Script`]).
const SCRIPT_SCHEMES: [&[u8]; 3] = [b"javascript", b"vbscript", b"data"];

/// Whether a `scheme://` (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`) stands
/// right before the host at `start`, not before `floor`. The scheme is the longest run of
/// scheme characters before `://` from its first letter on (so `8ftp://` gives `ftp://`).
/// The walk is bounded by `floor`, which moves past the host afterwards: linear.
fn other_scheme_start(text: &[u8], start: usize, floor: usize) -> Option<OtherScheme> {
    if start < floor + 4 || &text[start - 3..start] != b"://" {
        return None;
    }
    let colon = start - 3;
    let mut i = colon;
    while i > floor
        && matches!(text[i - 1], b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'+' | b'-' | b'.')
    {
        i -= 1;
    }
    let at = i + text[i..colon].iter().position(u8::is_ascii_alphabetic)?;
    let scheme = &text[at..colon];
    if SCRIPT_SCHEMES
        .iter()
        .any(|s| scheme.eq_ignore_ascii_case(s))
    {
        return Some(OtherScheme::Script);
    }
    Some(OtherScheme::Scheme(at))
}

/// The length of the dotted-decimal IPv4 address at the start of `text`: four numbers
/// 0–255 without leading zeros, separated by `.`.
fn ipv4_len(text: &[u8]) -> Option<usize> {
    let mut at = 0;
    for i in 0..4 {
        if i > 0 {
            if text.get(at) != Some(&b'.') {
                return None;
            }
            at += 1;
        }
        let digits = text[at.min(text.len())..]
            .iter()
            .take(4)
            .take_while(|d| d.is_ascii_digit())
            .count();
        if digits == 0 || digits > 3 || (digits > 1 && text[at] == b'0') {
            return None;
        }
        let value = text[at..at + digits]
            .iter()
            .fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
        if value > 255 {
            return None;
        }
        at += digits;
    }
    Some(at)
}

/// The length of the bracketed IPv6 address (RFC 4291 text form, no zone) at the start
/// of `text`, brackets included. No such address is longer than 45 characters.
fn ipv6_literal_len(text: &[u8]) -> Option<usize> {
    const LONGEST: usize = 45;
    let close = text.iter().take(LONGEST + 2).position(|&b| b == b']')?;
    let inner = std::str::from_utf8(&text[1..close]).ok()?;
    inner.parse::<std::net::Ipv6Addr>().ok()?;
    Some(close + 1)
}

/// The 8 bytes of `text` at `at`, little-endian, if there are 8.
#[inline(always)]
fn word_at(text: &[u8], at: usize) -> Option<u64> {
    let bytes = text.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(bytes.try_into().ok()?))
}

/// The number of leading bytes (from the lowest) of `word` that are ASCII HostCharNoDot,
/// `[A-Za-z0-9-]`: 0 to 8. Each byte's bit 7 answers a range test at once: for a byte
/// `v < 0x80` and `k <= 0x80`, `v + (0x80 - k)` has bit 7 set exactly when `v >= k`, and
/// no sum carries into the next byte.
#[inline(always)]
fn ascii_host_run(word: u64) -> usize {
    const fn bytes(b: u8) -> u64 {
        u64::from_le_bytes([b; 8])
    }
    let low = word & bytes(0x7F);
    let lower = low | bytes(0x20);
    // v >= k: low + (0x80 - k), for k = '0', ':' ; 'a', '{' (on lower case) ; '-', '.'.
    let digit = low.wrapping_add(bytes(0x50)) & !low.wrapping_add(bytes(0x46));
    let letter = lower.wrapping_add(bytes(0x1F)) & !lower.wrapping_add(bytes(0x05));
    let hyphen = low.wrapping_add(bytes(0x53)) & !low.wrapping_add(bytes(0x52));
    let host = (digit | letter | hyphen) & !word & bytes(0x80);
    (!host & bytes(0x80)).trailing_zeros() as usize / 8
}

/// The last label before the Dot at `dot`, walked back while above `floor` over ASCII
/// HostCharNoDot bytes (odd classes of [`HOST_CLASS`]): the bytes of most hosts of
/// link-dense text, where the last link ended just before the host. Returns where the
/// walk stopped (the label is `text[i..dot]`), the class of the byte before that
/// (the last class looked up; `C_DOT` when none was), and the class of the label's first
/// byte (`C_DOT` when the label is empty). One table load and one test a byte: such a
/// label holds no dot, so there is no pair to test but those at its ends, which the
/// caller judges from these classes. (The host walk of [`Scanner::walk_host`] and the
/// path of link-dense text, [`Scanner::count_dense`], both start with it.)
#[inline(always)]
fn label_before(text: &[u8], floor: usize, dot: usize) -> (usize, u8, u8) {
    let (mut i, mut class, mut first) = (dot, C_DOT, C_DOT);
    while i > floor {
        class = HOST_CLASS[text[i - 1] as usize];
        if class & 1 == 0 {
            break;
        }
        first = class;
        i -= 1;
    }
    (i, class, first)
}

/// The code point that the UTF-8 sequence at the start of `word` (little-endian) encodes,
/// when its first byte is a lead byte (`0xC0` or more), computed from the bits its form
/// gives without checking the continuation bytes: for the TLD set's filter of first
/// characters, on the fast path of [`Scanner::tld`].
#[inline(always)]
fn lead_code_point(word: u64) -> u32 {
    let b = |k: u32| (word >> (8 * k)) as u32 & 0xFF;
    let (b0, b1, b2, b3) = (b(0), b(1) & 0x3F, b(2) & 0x3F, b(3) & 0x3F);
    match b0 {
        0xC0..=0xDF => ((b0 & 0x1F) << 6) | b1,
        0xE0..=0xEF => ((b0 & 0x0F) << 12) | (b1 << 6) | b2,
        _ => ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3,
    }
}

/// The chain loop of [`Scanner::tld`] over ASCII labels, from the Dot at `dot` (of
/// `dot_len` bytes), which an ASCII HostCharNoDot follows. While the run after the Dot is
/// ASCII HostCharNoDot bytes, then a Dot (`.` or `。`) and an ASCII HostCharNoDot, that
/// run is an inner label, rejected by step 2 whatever its length, and the Dot after it is
/// the next candidate: the loop moves on to it. `Ok` with the Dot before the first run
/// that is not such a label, which the loop of [`Scanner::tld`] then judges; `Err(end)`
/// where that loop returns it, at a label between two `.` (left to the candidate search,
/// whose vector filter drops such dots wholesale). (That loop cuts a run longer than any
/// TLD short and returns to the search, which finds the same next Dot: the labels of a
/// chain are all rejected but its last, whichever way the chain is walked.) Out of line,
/// with its few values in registers: inlined into the scanner's loop, a label of
/// `a。b.a。b.…` took about 44 instructions, a third of them spills.
#[inline(never)]
fn chain_of_ascii_labels(
    text: &[u8],
    mut dot: usize,
    mut dot_len: usize,
) -> Result<(usize, usize), usize> {
    debug_assert!(text
        .get(dot + dot_len)
        .is_some_and(|&b| ascii::HOST_NO_DOT[b as usize]));
    // The byte after the first of the label, which is HostCharNoDot.
    let mut i = dot + dot_len + 1;
    loop {
        let end = loop {
            match text.get(i) {
                Some(&b) if ascii::HOST_NO_DOT[b as usize] => i += 1,
                end => break end,
            }
        };
        let next_len = match end {
            Some(b'.') => 1,
            Some(0xE3) if text.get(i + 1..i + 3) == Some(&[0x80, 0x82]) => 3,
            _ => return Ok((dot, dot_len)),
        };
        if !text
            .get(i + next_len)
            .is_some_and(|&b| ascii::HOST_NO_DOT[b as usize])
        {
            return Ok((dot, dot_len));
        }
        if dot_len == 1 && next_len == 1 {
            return Err(i);
        }
        (dot, dot_len) = (i, next_len);
        i += next_len + 1;
    }
}

/// The scanning state over one text.
pub(crate) struct Scanner<'t, 'p> {
    text: &'t [u8],
    policy: &'p TldPolicy,
    /// The policy's set, resolved once (`None`: the syntactic rule).
    tlds: Option<&'p TldSet>,
    /// `policy.max_len()`: no longer run after a dot can be a TLD.
    max_tld_len: usize,
    /// No shorter run is a TLD (with the IANA list: a single byte is not).
    min_tld_len: usize,
    /// Where the next candidate search starts.
    pos: usize,
    /// No link starts before this.
    floor: usize,
    dots: Candidates<'p>,
    kernel: Kernel,
    run: Option<HostRun>,
    stack: BracketStack,
    /// The kind of the link [`Scanner::next_range`] found last.
    found_kind: LinkKind,
    /// Whether that link has its scheme.
    found_scheme: bool,
    /// The packed short TLD ([`TldSet::contains_packed`]) the fast path of
    /// [`Scanner::candidate`] found last (`u64::MAX`, which is no key: none): link-dense
    /// text repeats its TLDs.
    last_tld: u64,
    /// [`icann_entries_below`] of `last_tld`.
    last_tld_icann: bool,
    /// When `last_tld` is all letters: the mask of its bytes (else 0), and the shift of
    /// the byte after it. A run that starts with those letters in any case, before an
    /// ASCII byte that is no HostChar, is that TLD: one compare, no word analysis.
    last_letters_mask: u64,
    last_letters_shift: u32,
    /// The same for the last all-letters run that the fast path looked up and did not
    /// find (`coa` of `a..b@x.coa..b@x.co…`): the packed key (`u64::MAX`: none), the mask
    /// of its bytes and the shift of the byte after it. Hostile text repeats its runs that
    /// are no TLD as link-dense text repeats its TLDs.
    last_miss: u64,
    last_miss_mask: u64,
    last_miss_shift: u32,
    /// The Public Suffix List's verdict on the host of the URL found last
    /// ([`Suffix::No`] for a host without a TLD, and when `suffixes` asks for none; not
    /// kept with [`SuffixRule::DropIcann`], whose finder reads no verdict).
    found_suffix: Suffix,
    suffixes: SuffixRule,
    last_host: LastHost,
}

/// What the scanner does with spec section 1.4 ([`crate::registrable`]) on each URL it
/// finds with a TLD, once its host is known: the host is `text[start..end]` of the walk and
/// the TLD run, so nothing is scanned again to find it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SuffixRule {
    /// No lookup: nobody asks (a conformant finder that reports public-suffix hosts).
    Off,
    /// Look the host up and leave the verdict in `found_suffix` (the readable policy).
    Report,
    /// The same, and a URL whose host is an entry of the list's ICANN section is no link:
    /// the floor moves past it all the same, as past a link, so nothing inside it is
    /// reported instead.
    ReportAndDropIcann,
    /// Only the drop (a conformant finder, which reads no verdict): a host under a TLD
    /// with no ICANN entry below it ([`crate::registrable::icann_entries_below`]: `.com`,
    /// `.org`, `.net`, most hosts of real text) is not looked up, and `found_suffix` is
    /// not kept.
    DropIcann,
}

/// The length of the `https://` or `http://` (in any case) that ends at `start`, after
/// `floor`; 0 if there is none. One load of the 8 bytes before `start`, each letter's
/// byte OR `0x20`, and a compare (the letters' only; `:` and `/` stay as they are).
#[inline(always)]
fn web_scheme_len(text: &[u8], start: usize, floor: usize) -> usize {
    const HTTPS: u64 = u64::from_le_bytes(*b"https://");
    const HTTPS_LETTERS: u64 = u64::from_le_bytes([0x20, 0x20, 0x20, 0x20, 0x20, 0, 0, 0]);
    const HTTP: u64 = u64::from_le_bytes(*b"http://\0");
    const HTTP_LETTERS: u64 = u64::from_le_bytes([0x20, 0x20, 0x20, 0x20, 0, 0, 0, 0]);
    let word = |at: usize| {
        text.get(at..at + 8)
            .map_or(0, |w| u64::from_le_bytes(w.try_into().unwrap_or([0; 8])))
    };
    if start >= floor + 8 {
        let before = word(start - 8);
        if before | HTTPS_LETTERS == HTTPS {
            return 8;
        }
        if (before >> 8) | HTTP_LETTERS == HTTP {
            return 7;
        }
        0
    } else if start >= floor + 7 && text[start - 7..start].eq_ignore_ascii_case(b"http://") {
        7
    } else {
        0
    }
}

/// [`FoundTld::after`] when the byte after the TLD was not looked at.
const NOT_SEEN: u16 = 0x100;

/// [`FoundTld::after`]-like: the byte at `i`, or [`NOT_SEEN`] past the end of the text.
#[inline(always)]
fn byte_at(text: &[u8], i: usize) -> u16 {
    text.get(i).map_or(NOT_SEEN, |&b| u16::from(b))
}

/// A TLD found by [`Scanner::tld`].
#[derive(Clone, Copy)]
struct FoundTld {
    /// The dot before it (the last of a chain of labels), and its length.
    dot: usize,
    dot_len: usize,
    /// Where it ends.
    end: usize,
    /// The byte at `end` when it was seen (an ASCII byte other than a dot: no trailing
    /// dot), else [`NOT_SEEN`]. The checks after the TLD compare it with no load of their
    /// own: in link-dense text each link's checks wait for the one before, and a load
    /// is the longest step of that chain.
    after: u16,
    /// The dot and the TLD are ASCII.
    ascii: bool,
    /// The list's ICANN section may have entries under the TLD
    /// ([`icann_entries_below`]; true when the TLD is not a packed one).
    icann: bool,
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

/// [`Scanner::next_range_with`], waiting for the kernel's operations.
struct NextRange<'s, 't, 'p>(&'s mut Scanner<'t, 'p>);

impl WithOps for NextRange<'_, '_, '_> {
    type Output = (usize, usize);
    #[inline(always)]
    fn run<O: Ops>(self, ops: O) -> (usize, usize) {
        self.0.next_range_with(ops)
    }
}

/// [`Scanner::count_dense`], waiting for the kernel's operations.
struct CountDense<'s, 't, 'p>(&'s mut Scanner<'t, 'p>, usize);

impl WithOps for CountDense<'_, '_, '_> {
    type Output = usize;
    #[inline(always)]
    fn run<O: Ops>(self, ops: O) -> usize {
        self.0.count_dense(ops, self.1)
    }
}

/// What [`dense_local_part`] makes of a local part.
enum LocalPartEnd {
    /// It starts at this offset.
    Start(usize),
    /// There is none: empty, or a dot at either end or twice in a row.
    Invalid,
}

/// The local part of an email whose `@` ends `before` (the text from the floor to the
/// `@`), for a short run of ASCII: [`Scanner::local_part_start`]'s walk and checks, where
/// they need nothing but these bytes. `None` where they would (a `:` before the local
/// part, as in `mailto:` or `user:password@`; a local part that starts with `//`; a
/// non-ASCII byte; more than [`SCALAR_HOST_WALK`] bytes), and the scanner's function
/// decides.
#[inline(always)]
fn dense_local_part(before: &[u8]) -> Option<LocalPartEnd> {
    if before.len() > SCALAR_HOST_WALK {
        return None;
    }
    if before.last().is_none_or(|&b| b == b'.') {
        return Some(LocalPartEnd::Invalid);
    }
    let (mut j, mut previous_dot, mut double_dot) = (before.len(), false, false);
    while j > 0 {
        let b = before[j - 1];
        if EMAIL_ASCII[b as usize] {
            previous_dot = false;
        } else if b == b'.' {
            double_dot |= previous_dot;
            previous_dot = true;
        } else if b >= 0x80 || b == b':' {
            return None;
        } else {
            break;
        }
        j -= 1;
    }
    if before[j..].starts_with(b"//") {
        return None;
    }
    Some(if j == before.len() || double_dot || previous_dot {
        LocalPartEnd::Invalid
    } else {
        LocalPartEnd::Start(j)
    })
}

/// [`Scanner::local_part_start`], waiting for the kernel's operations.
struct LocalPart<'s, 't, 'p>(&'s Scanner<'t, 'p>, usize, usize);

impl WithOps for LocalPart<'_, '_, '_> {
    type Output = Option<(usize, bool)>;
    #[inline(always)]
    fn run<O: Ops>(self, ops: O) -> Option<(usize, bool)> {
        self.0.local_part_start(ops, self.1, self.2)
    }
}

/// [`terminate_in`], waiting for the kernel's operations.
struct PathEnd<'a>(&'a [u8], usize, &'a mut BracketStack);

impl WithOps for PathEnd<'_> {
    type Output = usize;
    #[inline(always)]
    fn run<O: Ops>(self, ops: O) -> usize {
        terminate_in(ops, self.0, self.1, self.2)
    }
}

/// [`Scanner::count_links_with`], waiting for the kernel's operations.
struct CountLinks<'s, 't, 'p>(&'s mut Scanner<'t, 'p>, usize);

impl WithOps for CountLinks<'_, '_, '_> {
    type Output = usize;
    #[inline(always)]
    fn run<O: Ops>(self, ops: O) -> usize {
        self.0.count_links_with(ops, self.1)
    }
}

impl<'t, 'p> Scanner<'t, 'p> {
    pub(crate) fn new(
        text: &'t [u8],
        policy: &'p TldPolicy,
        kernel: Kernel,
        suffixes: SuffixRule,
    ) -> Self {
        let tlds = match policy {
            TldPolicy::Iana => Some(TldSet::iana()),
            TldPolicy::List(set) => Some(&**set),
            TldPolicy::Syntactic => None,
        };
        let min_tld_len = tlds.map_or(1, TldSet::min_len);
        Scanner {
            text,
            policy,
            tlds,
            max_tld_len: policy.max_len(),
            min_tld_len,
            pos: 0,
            floor: 0,
            dots: Candidates::new(match tlds {
                Some(set) => TldShape {
                    drop_one_byte_runs: min_tld_len > 1,
                    drop_digit_runs: !set.digit_first(),
                    first_non_ascii: set.first_non_ascii(),
                },
                None => TldShape::ANY,
            }),
            kernel,
            run: None,
            stack: BracketStack::new(),
            found_kind: LinkKind::Url,
            found_scheme: false,
            found_suffix: Suffix::No,
            suffixes,
            last_host: LastHost::new(),
            last_tld: u64::MAX,
            last_tld_icann: true,
            last_letters_mask: 0,
            last_letters_shift: 0,
            last_miss: u64::MAX,
            last_miss_mask: 0,
            last_miss_shift: 0,
        }
    }

    /// The next candidate: a dot, or a `://` mark (length [`SCHEME_MARK`]).
    #[inline(always)]
    fn next_dot<O: Ops>(&mut self, ops: O) -> Option<(usize, usize)> {
        self.dots.next(ops, self.text, self.pos.max(self.floor))
    }

    /// `initiation.md`, "Hosts without a TLD", for the `://` at `colon`: `http://` or
    /// `https://` (any case) starting at or after the floor and not right after an ASCII
    /// letter, digit, `+`, `-` or `.`; then `localhost`, a dotted-decimal IPv4 address or a
    /// bracketed IPv6 address, not followed (but for the brackets) by HostChar or Ignored;
    /// an optional port (a bad one: no link); no link if `@` follows (userinfo, as in
    /// `http://localhost@evil.com`); then the path, query and fragment. Out of line: only
    /// the `://` marks of the candidate search come here.
    #[inline(never)]
    fn literal_host(&mut self, colon: usize) -> Option<Link> {
        let text = self.text;
        let n = text.len();
        let host = colon + 3;
        // The cheapest test first: the character after `://` must start such a host.
        if !matches!(text.get(host), Some(b'l' | b'L' | b'0'..=b'9' | b'[')) {
            return None;
        }
        let start = if colon >= 5 && text[colon - 5..colon].eq_ignore_ascii_case(b"https") {
            colon - 5
        } else if colon >= 4 && text[colon - 4..colon].eq_ignore_ascii_case(b"http") {
            colon - 4
        } else {
            return None;
        };
        if start < self.floor
            || (start > 0
                && matches!(text[start - 1], b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'+' | b'-' | b'.'))
        {
            return None;
        }
        let mut end = if text[host] == b'[' {
            host + ipv6_literal_len(&text[host..])?
        } else {
            let len = if text.len() >= host + 9
                && text[host..host + 9].eq_ignore_ascii_case(b"localhost")
            {
                9
            } else {
                ipv4_len(&text[host..])?
            };
            let end = host + len;
            if end < n {
                let (cp, _) = utf8::decode(text, end);
                if host_props(cp) & HOST_CHAR != 0 || is_ignored_cp(cp) {
                    return None;
                }
            }
            end
        };
        // 3. Port, as for any host.
        if end < n && text[end] == b':' {
            let digits = text[end + 1..]
                .iter()
                .take(6)
                .take_while(|d| d.is_ascii_digit())
                .count();
            if digits > 0 {
                let value = text[end + 1..end + 1 + digits]
                    .iter()
                    .fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
                if digits > 5 || value > 65535 {
                    return None;
                }
                end += 1 + digits;
            }
        }
        // `http://localhost@evil.com`: the literal is userinfo, and the host is after the
        // `@` (as `http://john.smith@example.com` gives no link, neither does this).
        if text.get(end) == Some(&b'@') {
            return None;
        }
        // 8. Path, query, fragment.
        if end < n && matches!(text[end], b'/' | b'?' | b'#') {
            end = terminate(text, end, &mut self.stack, self.kernel);
        }
        self.floor = end;
        self.run = None;
        Some(Link {
            start,
            end,
            kind: LinkKind::Url,
            has_scheme: true,
        })
    }

    /// The next link (URL or email), or `None` at the end of the text.
    #[inline]
    pub(crate) fn next_link(&mut self) -> Option<Link> {
        let (start, end) = self.next_range();
        (start <= end).then_some(Link {
            start,
            end,
            kind: self.found_kind,
            has_scheme: self.found_scheme,
        })
    }

    /// The range of the next link, its kind and scheme left in `found_kind` and
    /// `found_scheme`; `start > end` at the end of the text. Two integers come back in
    /// registers, where an `Option<Link>` went through memory: the caller's wide reload
    /// of the kind and scheme bytes, just written one by one, stalled on store
    /// forwarding (about a sixth of the time on text with a link every few bytes).
    ///
    /// One call of the kernel's dispatch runs the search for the link, compiled for the
    /// kernel's instruction set with its operations inlined ([`Kernel::with_ops`]).
    #[inline(never)]
    fn next_range(&mut self) -> (usize, usize) {
        self.kernel.with_ops(NextRange(self))
    }

    /// [`Scanner::next_range`] with the kernel's operations `ops`.
    #[inline(always)]
    fn next_range_with<O: Ops>(&mut self, ops: O) -> (usize, usize) {
        loop {
            let Some((dot, dot_len)) = self.next_dot(ops) else {
                return (1, 0);
            };
            if dot_len == SCHEME_MARK {
                // A `://` that may start a host without a TLD.
                if let Some(link) = self.literal_host(dot) {
                    self.found_kind = link.kind;
                    self.found_scheme = link.has_scheme;
                    self.found_suffix = Suffix::No;
                    return (link.start, link.end);
                }
                continue;
            }
            match self.candidate(ops, dot, dot_len) {
                Ok(link) => {
                    self.found_kind = link.kind;
                    self.found_scheme = link.has_scheme;
                    return (link.start, link.end);
                }
                Err(resume) => self.pos = resume,
            }
        }
    }

    /// The number of the links from here to the end no longer than `max_len` bytes: the
    /// loop of [`Scanner::next_range`] with no return per link, for counts (on text with
    /// a link every few bytes, the call and return per link are a tenth of the work).
    /// Spec section 1.4 is applied where the links are found ([`SuffixRule`]).
    pub(crate) fn count_links(&mut self, max_len: usize) -> usize {
        self.kernel.with_ops(CountLinks(self, max_len))
    }

    /// [`Scanner::count_links`] with the kernel's operations `ops`.
    #[inline(always)]
    fn count_links_with<O: Ops>(&mut self, ops: O, max_len: usize) -> usize {
        let mut n = 0;
        loop {
            let Some((dot, dot_len)) = self.next_dot(ops) else {
                return n;
            };
            if dot_len == SCHEME_MARK {
                if let Some(link) = self.literal_host(dot) {
                    n += usize::from(link.end - link.start <= max_len);
                }
                continue;
            }
            match self.candidate(ops, dot, dot_len) {
                Ok(link) => {
                    n += usize::from(link.end - link.start <= max_len);
                    // A short link with a candidate right after it: link-dense text,
                    // whose next links may take the path of their own.
                    if link.end - link.start <= 2 * SCALAR_HOST_WALK
                        && self.dots.next_within(self.floor, SCALAR_HOST_WALK)
                    {
                        n += ops.outlined(CountDense(self, max_len));
                    }
                }
                Err(resume) => self.pos = resume,
            }
        }
    }

    /// The links that follow a link closely, counted on a path of their own while they
    /// are of the simplest kind, the kind of link-dense text (`x.com `, `x.com:1`,
    /// `a@b.com `, `www.x.com/a`): a `.` within [`SCALAR_HOST_WALK`] bytes of the end of
    /// the last link, then the TLD found last (all letters: [`Scanner::tld`]'s first
    /// compare) and an ASCII byte that ends its run and is no `@` ([`DENSE_AFTER`]); an
    /// optional port; a host all ASCII, with no bad label, back to that end or to a byte
    /// that is no HostChar; no scheme but `http://` and `https://`, and no lookup of
    /// spec section 1.4 to make. Such a candidate goes through the steps of
    /// [`Scanner::accept`] that apply to it, the others settled by what it is, with the
    /// cursor's block, the floor and the TLD held in registers: the general loop spent
    /// about 200 instructions on each, most of them to keep its state in memory and to
    /// test for what cannot be there. The first candidate that is anything else is left
    /// to the general loop as it was (and so is every candidate of a group of blocks
    /// not searched yet). Returns the number of links no longer than `max_len`.
    #[inline(always)]
    fn count_dense<O: Ops>(&mut self, ops: O, max_len: usize) -> usize {
        // (A constant, not a static: its address needs no register of its own.)
        const AFTER: [u8; 256] = DENSE_AFTER;
        let text = self.text;
        let (tld, shift) = (self.last_tld, self.last_letters_shift);
        let look_up = match self.suffixes {
            SuffixRule::Off => false,
            SuffixRule::DropIcann => self.last_tld_icann,
            SuffixRule::Report | SuffixRule::ReportAndDropIcann => true,
        };
        if self.last_letters_mask == 0 || look_up {
            return 0;
        }
        // Right after a link: the floor is its end, and no candidate before it counts
        // (`self.pos`, where the search resumes after a rejection, is not past it).
        let mut floor = self.floor;
        debug_assert!(self.pos <= floor);
        let (mut base, mut mask) = self.dots.block();
        let mut n = 0;
        'blocks: loop {
            while mask != 0 {
                let i = mask.leading_zeros() as usize;
                let dot = base + i;
                if dot < floor {
                    mask = self.dots.mask_from(base, mask, floor);
                    continue;
                }
                if dot - floor > SCALAR_HOST_WALK || text[dot] != b'.' {
                    break 'blocks;
                }
                // Step 1: the TLD found last (its letters are the bytes of the word below
                // `shift`, `last_letters_mask`), and a byte after it that ends the run.
                let Some(word) = word_at(text, dot + 1) else {
                    break 'blocks;
                };
                if (word | 0x2020_2020_2020_2020) & ((1 << shift) - 1) != tld {
                    break 'blocks;
                }
                let kind = AFTER[(word >> shift) as u8 as usize];
                if kind == AFTER_NONE {
                    break 'blocks;
                }
                let tld_end = dot + 1 + (shift / 8) as usize;
                let (mut end, mut after) = (tld_end, kind);
                // Step 3: the port.
                if kind == AFTER_COLON {
                    // The six bytes after the `:` (fewer: the general loop), with no
                    // test of the text's end per digit.
                    let Some(&six) = text
                        .get(end + 1..end + 7)
                        .and_then(|b| <&[u8; 6]>::try_from(b).ok())
                    else {
                        break 'blocks;
                    };
                    let (mut digits, mut value) = (0, 0u32);
                    while digits < 6 && six[digits].is_ascii_digit() {
                        value = value * 10 + (six[digits] - b'0') as u32;
                        digits += 1;
                    }
                    if digits > 0 {
                        if digits > 5 || value > 65535 {
                            break 'blocks;
                        }
                        end += 1 + digits;
                        after = AFTER[six[digits] as usize];
                    }
                }
                // Steps 4 and 5: the host, all ASCII, back to the floor or to a byte that
                // is no HostChar, as `walk_host` walks it (no rejected host can be in the
                // way: the last candidate was a link, and bad hosts are left to the general
                // loop). The label before the dot first, its bytes odd classes, with no
                // pair to test but its ends (`first`: the class of `host[j]`).
                let host = &text[floor..dot];
                let (at, mut class, first) = label_before(text, floor, dot);
                let mut j = at - floor;
                if first != C_HOST || host.last() == Some(&b'-') {
                    break 'blocks;
                }
                if j > 0 && class == C_DOT {
                    // More labels (`www.x.com`): each pair tested.
                    let (mut next, mut bad) = (C_HOST, false);
                    while j > 0 {
                        class = HOST_CLASS[host[j - 1] as usize];
                        if class == C_STOP || class == C_NON_ASCII {
                            break;
                        }
                        bad |= BAD_PAIR[((class << 2) | next) as usize];
                        next = class;
                        j -= 1;
                    }
                    if bad || next != C_HOST {
                        break 'blocks;
                    }
                }
                // The byte before the host, after the floor (no HostChar): a non-ASCII one
                // is left to the general loop.
                let before = if j > 0 { host[j - 1] } else { b' ' };
                if before >= 0x80 {
                    break 'blocks;
                }
                let start = floor + j;
                // Step 7: `https://` or `http://`; any other scheme is left to the
                // general loop.
                let mut link_start = start;
                if before == b'/' && j >= 4 && host[j - 3..j] == *b"://" {
                    let web = web_scheme_len(text, start, floor);
                    if web == 0 {
                        break 'blocks;
                    }
                    link_start = start - web;
                }
                mask &= !candidates::bit(i);
                if before == b'@' {
                    // Step 6: an email, its local part walked back to the old floor.
                    let (at, old) = (start - 1, floor);
                    floor = end;
                    let local = match dense_local_part(&text[old..at]) {
                        Some(LocalPartEnd::Start(j)) => Some(old + j),
                        Some(LocalPartEnd::Invalid) => None,
                        // Out of line, as the path below: calls in the loop would take
                        // its registers.
                        None => ops
                            .outlined(LocalPart(self, at, old))
                            .map(|(start, _)| start),
                    };
                    if let Some(local) = local {
                        n += usize::from(tld_end - local <= max_len);
                    }
                    continue;
                }
                // Step 8: the path.
                let link_end = if after == AFTER_PATH {
                    ops.outlined(PathEnd(text, end, &mut self.stack))
                } else {
                    end
                };
                n += usize::from(link_end - link_start <= max_len);
                floor = link_end;
            }
            self.dots.set_mask(0);
            if !self.dots.next_block() {
                break;
            }
            (base, mask) = self.dots.block();
        }
        self.dots.set_mask(mask);
        if floor != self.floor {
            self.floor = floor;
            self.run = None;
        }
        n
    }

    /// The Public Suffix List's verdict on the host of the link returned last (see
    /// [`SuffixRule`]): [`Suffix::No`] for an email and for a host without a TLD.
    #[inline]
    pub(crate) fn found_suffix(&self, link: &Link) -> Suffix {
        match link.kind {
            LinkKind::Url => self.found_suffix,
            LinkKind::Email => Suffix::No,
        }
    }

    /// The scan of `initiation.md` for the candidate dot at `dot`. `Ok`: a link was found
    /// (the floor has moved). `Err(p)`: no link here; resume the dot search at `p`.
    #[inline(always)]
    fn candidate<O: Ops>(&mut self, ops: O, dot: usize, dot_len: usize) -> Result<Link, usize> {
        // One call of `accept` for both paths of `tld`: two inlined copies made every
        // candidate's code larger and slowed the candidates that are no link.
        let found = self.tld(dot, dot_len)?;
        self.accept(ops, found)
    }

    /// Step 1 for the candidate dot at `dot`: `Ok` when the run after the (possibly later,
    /// in a chain of labels) dot is a TLD ([`FoundTld`]); `Err(p)`: no link here, resume
    /// at `p`.
    #[inline(always)]
    fn tld(&mut self, mut dot: usize, mut dot_len: usize) -> Result<FoundTld, usize> {
        let text = self.text;
        let n = text.len();
        // The common case first: a `.` followed by a short ASCII run that an ASCII byte
        // other than a dot ends (`x.com `, `a@b.com\n`, `x.com:1`), looked at in one word.
        // No label follows such a run and no trailing dot, so the run is R, and whether
        // it is a TLD is one packed lookup (or one compare, when it is the TLD found
        // last). A run that a dot and no label end is rejected here too when the lookup
        // fails (`a..b@x.coa..b…` took the general path for every unit). Everything else
        // takes the general path below.
        if let (1, Some(set), Some(word)) = (dot_len, self.tlds, word_at(text, dot + 1)) {
            // The TLD found last, when it is all letters (`.com` in `x.com\n` lines): a
            // byte OR 0x20 is one of its lowercase letters only when it is that letter in
            // either case. (With a mask of 0 there is no match: `last_tld` is never 0.)
            let lower = word | 0x2020_2020_2020_2020;
            if lower & self.last_letters_mask == self.last_tld {
                let after = (word >> self.last_letters_shift) as u8;
                if after < 0x80 && after != b'.' && !ascii::HOST_NO_DOT[after as usize] {
                    return Ok(FoundTld {
                        dot,
                        dot_len: 1,
                        end: dot + 1 + (self.last_letters_shift / 8) as usize,
                        after: u16::from(after),
                        ascii: true,
                        icann: self.last_tld_icann,
                    });
                }
            }
            // The run looked up last and not found, whole (an ASCII byte that is no
            // HostCharNoDot after it, a dot included: before another label the run is no
            // TLD either): no TLD.
            if lower & self.last_miss_mask == self.last_miss {
                let after = (word >> self.last_miss_shift) as u8;
                if after < 0x80 && !ascii::HOST_NO_DOT[after as usize] {
                    return Err(dot + 1 + (self.last_miss_shift / 8) as usize);
                }
            }
            let len = ascii_host_run(word);
            if len == 0 && word as u8 >= 0xC0 && !set.may_start_with(lead_code_point(word)) {
                // A non-ASCII character after the dot that no TLD starts with (`пример.`
                // before the next word): no TLD, whatever the run. (Where its bytes are no
                // UTF-8, the run is empty: no TLD either.)
                return Err(dot + 1);
            }
            if len < 8 {
                let after = (word >> (8 * len)) as u8;
                let end = dot + 1 + len;
                if after == b'.'
                    && (len == 0
                        || text
                            .get(end + 1)
                            .is_some_and(|&b| ascii::HOST_NO_DOT[b as usize]))
                {
                    // An empty run, or an inner label of ASCII (`example` in
                    // `www.example.com`): no TLD. The dot at `end` is the next candidate.
                    return Err(end);
                }
                if after == b'.' && text.get(end + 1).is_none_or(|&b| b < 0x80) {
                    // A dot and no label after the run (`x.coa..b`, `x.com. `): the run is
                    // the last label, whole and ASCII, so it is a TLD only if the lookup
                    // says so; when it is one, the general path below takes the trailing
                    // dot.
                    let present = u64::MAX >> (8 * (8 - len));
                    let key = (word & present) | (0x2020_2020_2020_2020 & present);
                    if len < self.min_tld_len || !set.contains_packed(key) {
                        self.remember_miss(word, present, key, len);
                        return Err(end);
                    }
                }
                if after < 0x80 && after != b'.' {
                    // (A run that starts with a digit, `1.5`, `v2.0`, never comes here
                    // when the set has none: the candidate search drops it.)
                    if len == 0 || len < self.min_tld_len {
                        return Err(end);
                    }
                    let present = u64::MAX >> (8 * (8 - len));
                    let key = (word & present) | (0x2020_2020_2020_2020 & present);
                    if key != self.last_tld {
                        if !set.contains_packed(key) {
                            self.remember_miss(word, present, key, len);
                            return Err(end);
                        }
                        self.last_tld = key;
                        self.last_tld_icann = icann_entries_below(key);
                        let letters = word & present & 0x4040_4040_4040_4040
                            == present & 0x4040_4040_4040_4040;
                        self.last_letters_mask = if letters { present } else { 0 };
                        self.last_letters_shift = 8 * len as u32;
                    }
                    return Ok(FoundTld {
                        dot,
                        dot_len: 1,
                        end,
                        after: u16::from(after),
                        ascii: true,
                        icann: self.last_tld_icann,
                    });
                }
            }
        }
        // The first character after the dot and its length, when `label_follows` decoded
        // it already (a non-ASCII HostChar that is no dot); a length of 0 when it did not.
        let mut first: (u32, usize) = (0, 0);
        loop {
            // 1. The maximal HostCharNoDot run R after the dot must be a TLD. A run longer
            //    than any TLD is rejected as soon as it is: R holds no dot, so the next search
            //    may resume where this scan stopped, and each byte is scanned once.
            let tld_start = dot + dot_len;
            let mut limit = n.min(tld_start + self.max_tld_len + 1);
            let mut end = tld_start;
            let mut ascii = true;
            // Whether R holds Ignored code points, to be left out of the lookup.
            let mut ignored = false;
            // Whether R is known not to be a TLD: within a chain of labels, a first
            // character no TLD starts with does not end the chain (the run is short: R
            // is scanned up to `limit` only).
            let mut miss = false;
            if first.1 != 0 {
                miss = self.tlds.is_some_and(|set| !set.may_start_with(first.0));
                ascii = false;
                end += first.1;
            }
            while end < limit {
                let b = text[end];
                if b < 0x80 {
                    if !ascii::HOST_NO_DOT[b as usize] {
                        break;
                    }
                    end += 1;
                } else {
                    if b == 0xE3 && text.get(end + 1..end + 3) == Some(&[0x80, 0x82]) {
                        // `。` ends the run: seen in its bytes, without the decoder's call
                        // (a chain of labels such as `a。b.a。b.…` meets one per label).
                        break;
                    }
                    let (cp, len) = utf8::decode(text, end);
                    if host_props(cp) & HOST_CHAR == 0 || cp == 0x3002 || cp == FULLWIDTH_FULL_STOP
                    {
                        // Ignored code points inside R are passed over when more of R
                        // follows them (`example.co` SHY `m` is `example.com`); they are
                        // not part of the TLD that is looked up.
                        if end > tld_start && is_ignored_cp(cp) {
                            let after = self.ignored_run_end(end);
                            if self.host_no_dot_at(after) {
                                limit = n.min(limit + (after - end));
                                ignored = true;
                                end = after;
                                continue;
                            }
                        }
                        break;
                    }
                    if end == tld_start && self.tlds.is_some_and(|set| !set.may_start_with(cp)) {
                        // No TLD starts with this character: whatever the run, it is not one
                        // (and holds no dot, so the search may resume after it).
                        return Err(end + len);
                    }
                    ascii = false;
                    end += len;
                }
            }
            let len = end - tld_start;
            // (No TLD is longer than `max_tld_len` or starts or ends with '-', so the lookup
            // rejects those runs itself.)
            if len == 0 {
                return Err(end);
            }
            let (next_dot_len, next_first) = self.label_follows(end);
            if next_dot_len != 0 {
                // Step 2 rejects R when a dot and another label follow it: no need to look it
                // up (inner labels, such as `example` in `www.example.com`). That dot is the
                // next candidate: go on with it here, unless R and the next label are both
                // ASCII and both dots are `.`. Chains of ASCII labels are left to the
                // candidate search, whose vector filter drops the dots before ASCII inner
                // labels wholesale; it cannot drop a dot next to a `。`, so a chain with
                // `。` goes on here (`a。b.a。b.…` was a round trip through the search per
                // label, 8× ordinary text).
                if ascii && next_first.1 == 0 && dot_len == 1 && next_dot_len == 1 {
                    return Err(end);
                }
                (dot, dot_len, first) = (end, next_dot_len, next_first);
                if first.1 == 0 {
                    // The next label starts with an ASCII byte: the rest of a chain of
                    // ASCII labels (`a。b.a。b.…`) goes label after label without this
                    // loop's bookkeeping, to the first label it does not settle.
                    (dot, dot_len) = chain_of_ascii_labels(text, dot, dot_len)?;
                }
                continue;
            }
            if miss || len < self.min_tld_len || self.label_follows_past_ignored(end) {
                return Err(end);
            }
            if ignored {
                if !self.is_tld_without_ignored(&text[tld_start..end]) {
                    return Err(end);
                }
                // (The Ignored code points of the run are not ASCII.)
                return Ok(FoundTld {
                    dot,
                    dot_len,
                    end,
                    after: NOT_SEEN,
                    ascii: false,
                    icann: true,
                });
            }
            let packed = if ascii && len <= 8 {
                pack_short_from(text, tld_start, len)
            } else {
                None
            };
            let is_tld = match (self.tlds, packed) {
                (Some(set), Some(key)) => set.contains_packed(key),
                (Some(set), None) => set.contains_bytes(&text[tld_start..end]),
                (None, _) => self.policy.is_tld(&text[tld_start..end]),
            };
            if !is_tld {
                return Err(end);
            }
            return Ok(FoundTld {
                dot,
                dot_len,
                end,
                after: NOT_SEEN,
                ascii: ascii && dot_len == 1,
                icann: packed.is_none_or(icann_entries_below),
            });
        }
    }

    /// Keeps the run `key` (`len` bytes of `word`, their mask `present`), which the fast
    /// path looked up and did not find, for its first compare, when the run is all letters
    /// (so that a byte OR 0x20 matches one of them only when it is that letter in either
    /// case).
    #[inline(always)]
    fn remember_miss(&mut self, word: u64, present: u64, key: u64, len: usize) {
        if word & present & 0x4040_4040_4040_4040 == present & 0x4040_4040_4040_4040 {
            self.last_miss = key;
            self.last_miss_mask = present;
            self.last_miss_shift = 8 * len as u32;
        }
    }

    /// Steps 2 to 9 for a candidate whose run after the dot is a TLD. Inlined: out of
    /// line, its `Result<Link, usize>` went back through memory, and the profile showed
    /// the caller stalled on reloading it (inlining gained 4 % on the mail corpora).
    #[inline(always)]
    fn accept<O: Ops>(&mut self, ops: O, found: FoundTld) -> Result<Link, usize> {
        let FoundTld {
            dot,
            dot_len,
            mut end,
            mut after,
            ascii,
            icann,
        } = found;
        let text = self.text;
        let n = text.len();
        let resume = end;
        let email_end = end;

        // 2. A trailing dot is taken (`candidate` has ruled out another label after it;
        //    when it has seen the byte after the TLD, that is an ASCII byte other than a
        //    dot).
        let mut trailing_dot = 0;
        if after == NOT_SEEN && end < n {
            let (cp, len) = utf8::decode(text, end);
            if is_dot_cp(cp) {
                trailing_dot = len;
                end += len;
            }
            after = byte_at(text, end);
        }

        // A host right before '@' is the local part of an email, never a URL: the email
        // is found from the candidate after the '@'.
        if after == u16::from(b'@') {
            return Err(resume);
        }

        // 3. Port: ':' and 1–5 digits up to 65535.
        let mut has_port = false;
        if after == u16::from(b':') {
            // The digits (up to six, to tell five from more) and their value, in one pass.
            let (mut digits, mut value) = (0, 0u32);
            for &d in text[end + 1..].iter().take(6) {
                if !d.is_ascii_digit() {
                    break;
                }
                digits += 1;
                value = value * 10 + (d - b'0') as u32;
            }
            if digits > 0 {
                if digits > 5 || value > 65535 {
                    return Err(resume);
                }
                end += 1 + digits;
                has_port = true;
                after = byte_at(text, end);
            }
        }

        // 4. Host start, and 5. the labels.
        let (start, bad, after_doomed, non_ascii) = self.walk_host(ops, dot, dot_len);
        // The last label (R, or the empty one after a trailing dot) is checked above; the
        // others show up as a bad first character or a bad pair, or there is no host.
        if bad {
            // Every later candidate in the same unbroken run of HostChar walks back to
            // this dot and gets the same start (this dot, when there is no host) and the
            // same bad pairs at least: none of them can be a link. The second such
            // candidate in a row (a hostile line, such as `-x.com．-x.com．…`) skips them
            // all; the first does not, so that ordinary text (where HostChar runs are long:
            // any CJK text) is not scanned twice.
            self.run = Some(HostRun { start, dot });
            return Err(if after_doomed {
                self.host_run_end(resume)
            } else {
                resume
            });
        }

        // 6. Email: '@' right before the host.
        if start > self.floor && text[start - 1] == b'@' {
            let at = start - 1;
            let floor = self.floor;
            self.floor = end;
            self.run = None;
            return match self.local_part_start(ops, at, floor) {
                Some((local_start, mailto)) => Ok(Link {
                    start: local_start,
                    end: email_end,
                    kind: LinkKind::Email,
                    has_scheme: mailto,
                }),
                None => Err(end),
            };
        }

        // 7. Scheme: `https://`, `http://`, else any other `scheme://` (a script scheme
        //    skips the whole domain, as an invalid email does). Each ends in `://` after
        //    at least one letter: without that, there is nothing to compare.
        let mut link_start = start;
        let mut has_scheme = false;
        if start >= self.floor + 4 && text[start - 3..start] == *b"://" {
            let web = web_scheme_len(text, start, self.floor);
            if web > 0 {
                link_start = start - web;
                has_scheme = true;
            } else {
                match other_scheme_start(text, start, self.floor) {
                    Some(OtherScheme::Scheme(at)) => {
                        link_start = at;
                        has_scheme = true;
                    }
                    Some(OtherScheme::Script) => {
                        self.floor = end;
                        self.run = None;
                        return Err(end);
                    }
                    None => {}
                }
            }
        }

        // 8. Path, query, fragment; or drop the trailing dot.
        // (`/`, `?`, `#`, compared as the u16 they are.)
        let link_end = if matches!(after, 0x2F | 0x3F | 0x23) {
            terminate_in(ops, text, end, &mut self.stack)
        } else if trailing_dot > 0 && !has_port {
            end - trailing_dot
        } else {
            end
        };
        self.floor = link_end;
        self.run = None;

        // 9. Spec section 1.4 (`crate::registrable`), out of line: the host is
        //    `text[start..resume]`, the walk's start to the TLD's end.
        let look_up = match self.suffixes {
            SuffixRule::Off => false,
            SuffixRule::DropIcann => icann,
            SuffixRule::Report | SuffixRule::ReportAndDropIcann => true,
        };
        if look_up {
            let verdict = self
                .last_host
                .suffix(&text[start..resume], ascii && !non_ascii);
            self.found_suffix = verdict;
            if verdict == Suffix::Icann && self.suffixes != SuffixRule::Report {
                return Err(link_end);
            }
        }
        Ok(Link {
            start: link_start,
            end: link_end,
            kind: LinkKind::Url,
            has_scheme,
        })
    }

    /// Whether a Dot stands at `end` and another label follows it (a HostChar that is no
    /// dot: `.`, `。`, `．`): the length of that dot (0: no dot and label), and the label's
    /// first character with its length when it is non-ASCII (decoded here, so the caller
    /// need not decode it again; length 0 when it is ASCII). Plain integers rather than
    /// nested `Option`s: those went through the stack in the chain loop of `candidate`,
    /// and the profile showed the reload stalling. Inlined into its one caller: as a call,
    /// it was 29 % of the time of a chain of labels such as `a。b.a。b.…` (a call per
    /// label), which now takes 0.79× the time.
    #[inline(always)]
    fn label_follows(&self, end: usize) -> (usize, (u32, usize)) {
        const NONE: (usize, (u32, usize)) = (0, (0, 0));
        let text = self.text;
        let dot_len = match text.get(end) {
            Some(b'.') => 1,
            Some(0xE3) if text.get(end + 1..end + 3) == Some(&[0x80, 0x82]) => 3,
            _ => return NONE,
        };
        let Some(&b) = text.get(end + dot_len) else {
            return NONE;
        };
        if b < 0x80 {
            return if ascii::HOST_NO_DOT[b as usize] {
                (dot_len, (0, 0))
            } else {
                NONE
            };
        }
        let (next, len) = utf8::decode(text, end + dot_len);
        let follows =
            host_props(next) & HOST_CHAR != 0 && next != 0x3002 && next != FULLWIDTH_FULL_STOP;
        if follows {
            (dot_len, (next, len))
        } else {
            NONE
        }
    }

    /// Whether a Dot and another label follow `end` with Ignored code points on either side
    /// of the Dot (`example.co` U+00AD `.uk`), which [`Scanner::label_follows`] does not
    /// pass over: R is then an inner label too. One byte compare when no Ignored code point
    /// can be there (any ASCII byte but a dot, or a dot before ASCII).
    #[inline]
    fn label_follows_past_ignored(&self, end: usize) -> bool {
        let text = self.text;
        let dot = match text.get(end) {
            Some(&b) if b >= 0x80 => self.ignored_run_end(end),
            Some(b'.') if text.get(end + 1).is_some_and(|&b| b >= 0x80) => end,
            _ => return false,
        };
        let dot_len = match text.get(dot) {
            Some(b'.') => 1,
            Some(0xE3) if text.get(dot + 1..dot + 3) == Some(&[0x80, 0x82]) => 3,
            _ => return false,
        };
        self.host_no_dot_at(self.ignored_run_end(dot + dot_len))
    }

    /// The end of the run of Ignored code points at `i`.
    fn ignored_run_end(&self, mut i: usize) -> usize {
        while i < self.text.len() && self.text[i] >= 0x80 {
            let (cp, len) = utf8::decode(self.text, i);
            if !is_ignored_cp(cp) {
                break;
            }
            i += len;
        }
        i
    }

    /// Whether a HostCharNoDot stands at `i`.
    fn host_no_dot_at(&self, i: usize) -> bool {
        match self.text.get(i) {
            None => false,
            Some(&b) if b < 0x80 => ascii::HOST_NO_DOT[b as usize],
            Some(_) => {
                let cp = utf8::decode(self.text, i).0;
                host_props(cp) & HOST_CHAR != 0 && cp != 0x3002 && cp != FULLWIDTH_FULL_STOP
            }
        }
    }

    /// Whether the run `r`, which holds Ignored code points between its characters, is a
    /// TLD without them. Out of line: such runs are rare.
    #[inline(never)]
    fn is_tld_without_ignored(&self, r: &[u8]) -> bool {
        // R is valid UTF-8 (the run stops at anything else) and, without its Ignored code
        // points, at most `max_tld_len + 1` bytes long.
        let mut tld = [0u8; 256];
        let mut len = 0;
        let mut i = 0;
        while i < r.len() {
            let (cp, n) = utf8::decode(r, i);
            if !is_ignored_cp(cp) {
                let Some(to) = tld.get_mut(len..len + n) else {
                    return false;
                };
                to.copy_from_slice(&r[i..i + n]);
                len += n;
            }
            i += n;
        }
        let tld = &tld[..len];
        match self.tlds {
            Some(set) => set.contains_bytes(tld),
            None => self.policy.is_tld(tld),
        }
    }

    /// The end of the run of HostChar (dots included) and Ignored at `i`. Invalid UTF-8
    /// ends it.
    fn host_run_end(&self, mut i: usize) -> usize {
        let text = self.text;
        while i < text.len() {
            let b = text[i];
            if b < 0x80 {
                if HOST_CLASS[b as usize] == C_STOP {
                    break;
                }
                i += 1;
            } else {
                let (cp, len) = utf8::decode(text, i);
                if host_props(cp) & HOST_CHAR == 0 && !is_ignored_cp(cp) {
                    break;
                }
                i += len;
            }
        }
        i
    }

    /// Walks back from the dot over HostChar, never before the floor, stopping at the
    /// last rejected host ([`HostRun`]) when it reaches that host's dot. Returns the host
    /// start; whether the host is bad: no character before the dot, a first character
    /// that is a dot or `-`, or a bad label pair in `text[start..]` up to and including
    /// the pair (dot, `R[0]`); whether the walk reached the rejected host (it is bad
    /// then); and whether it met a non-ASCII byte (for the list lookup of
    /// [`crate::registrable`], which needs no test of its own for an ASCII host then).
    #[inline(always)]
    fn walk_host<O: Ops>(&self, ops: O, dot: usize, dot_len: usize) -> (usize, bool, bool, bool) {
        let text = self.text;
        let floor = self.floor;
        // The pair (dot, first character of R).
        let mut bad = text.get(dot + dot_len) == Some(&b'-');
        // The class of the character after the one being looked at: the dot at first.
        let mut next = C_DOT;
        let mut i = dot;
        if dot - floor <= SCALAR_HOST_WALK {
            // Link-dense text, where the last link ended just before: first the ASCII
            // HostCharNoDot bytes before the dot (odd classes), with no pair to test but
            // the last with the dot (`-.`): they hold no dot, so no rejected host's dot
            // either. When the floor or a byte that ends a host comes next, that is the
            // whole walk (the label is bad when empty or when it starts or ends with `-`;
            // an ASCII start needs no Ignored skipped); else the walk goes on from there.
            // `first`: the class of `text[i]` (the dot's while the label is empty).
            let (at, class, first) = label_before(text, floor, dot);
            i = at;
            if i == floor || class == C_STOP {
                bad |= first != C_HOST || text[dot - 1] == b'-';
                return (i, bad, false, false);
            }
            if i < dot {
                bad |= text[dot - 1] == b'-';
                next = HOST_CLASS[text[i] as usize];
            }
        }
        // The rejected host's dot, when this walk may reach it (`usize::MAX`: none).
        let known = self
            .run
            .filter(|r| r.dot < dot && r.start >= floor)
            .map_or(usize::MAX, |r| r.dot);
        let stop = if known == usize::MAX { floor } else { known };
        // Whether runs of ASCII host bytes go through the vector kernel (if there is one):
        // not when the walk cannot be long, as in link-dense text, where the previous link
        // ended just before this host and a byte loop costs less than the vector walk.
        let vector = i - stop > SCALAR_HOST_WALK;
        let mut non_ascii = false;
        while i > stop {
            if vector {
                let (at, run_bad, run_next) = ops.walk_host(text, i, stop, next);
                (i, next) = (at, run_next);
                bad |= run_bad;
                if i <= stop {
                    break;
                }
            }
            let mut class = HOST_CLASS[text[i - 1] as usize];
            let mut len = 1;
            if class == C_STOP {
                break;
            }
            if class == C_NON_ASCII {
                non_ascii = true;
                // Invalid UTF-8 reads as a code point without HOST_CHAR.
                let (cp, cp_len) = utf8::decode_before(text, i);
                if host_props(cp) & HOST_CHAR == 0 {
                    if !is_ignored_cp(cp) {
                        break;
                    }
                    // Ignored: part of the host as written, invisible to its labels (the
                    // pair around it is the pair of its neighbours).
                    i -= cp_len;
                    continue;
                }
                class = if cp == 0x3002 { C_DOT } else { C_HOST };
                len = cp_len;
            }
            bad |= BAD_PAIR[((class << 2) | next) as usize];
            next = class;
            i -= len;
        }
        if i == known {
            // The rejected host: its start, and bad.
            let start = self.run.map_or(i, |r| r.start);
            return (start, true, true, true);
        }
        // `next` is the class of the first character (a dot when there is none).
        bad |= next == C_DOT || next == C_HYPHEN;
        (self.skip_ignored(i, dot), bad, false, non_ascii)
    }

    /// The first position from `i` on (up to `limit`) that does not hold an Ignored code
    /// point: a host never starts with one. Its bytes are all non-ASCII, so an ASCII byte
    /// settles it at once.
    #[inline(always)]
    fn skip_ignored(&self, mut i: usize, limit: usize) -> usize {
        let text = self.text;
        while i < limit && text[i] >= 0x80 {
            let (cp, len) = utf8::decode(text, i);
            if !is_ignored_cp(cp) {
                break;
            }
            i += len;
        }
        i
    }

    /// The start of the run of EmailChar (Link_Email or `.`) that ends at `end`, never
    /// before `floor`. Scalar: only a `:` right before a local part asks for it.
    fn email_run_start(&self, end: usize, floor: usize) -> usize {
        let text = self.text;
        let mut i = end;
        while i > floor {
            let b = text[i - 1];
            if b < 0x80 {
                if !(EMAIL_ASCII[b as usize] || b == b'.') {
                    break;
                }
                i -= 1;
            } else {
                // Invalid UTF-8 reads as a code point without LINK_EMAIL.
                let (cp, len) = utf8::decode_before(text, i);
                if host_props(cp) & LINK_EMAIL == 0 {
                    break;
                }
                i -= len;
            }
        }
        i
    }

    /// The email local part before the `@` at `at` (section 5.2 and `initiation.md` step 6):
    /// `Some((start, has_mailto))`, or `None` when it is invalid.
    #[inline(always)]
    fn local_part_start<O: Ops>(&self, ops: O, at: usize, floor: usize) -> Option<(usize, bool)> {
        let text = self.text;
        if at == floor || text[at - 1] == b'.' {
            return None; // empty, or a dot right before '@'
        }
        let mut i = at;
        let mut previous_dot = false;
        let mut double_dot = false;
        // As for hosts: a walk the floor bounds to a few bytes is cheaper byte by byte.
        let vector = at - floor > SCALAR_HOST_WALK;
        while i > floor {
            if vector {
                // Runs of ASCII local-part bytes go through the vector kernel, if there is
                // one.
                let (at, doubled, dot) = ops.walk_local_part(text, i, floor, previous_dot);
                (i, previous_dot) = (at, dot);
                double_dot |= doubled;
                if i <= floor {
                    break;
                }
            }
            let b = text[i - 1];
            if EMAIL_ASCII[b as usize] {
                previous_dot = false;
                i -= 1;
            } else if b == b'.' {
                double_dot |= previous_dot;
                previous_dot = true;
                i -= 1;
            } else if b < 0x80 {
                break;
            } else {
                // Invalid UTF-8 reads as a code point without LINK_EMAIL.
                let (cp, len) = utf8::decode_before(text, i);
                if host_props(cp) & LINK_EMAIL == 0 {
                    break;
                }
                previous_dot = false;
                i -= len;
            }
        }
        if double_dot {
            return None; // ".."
        }
        if i == at || previous_dot {
            return None; // empty, or starting with '.'
        }
        if text[i..at].starts_with(b"//") && i > 0 && text[i - 1] == b':' {
            return None; // scheme://userinfo@host
        }
        if i > floor && text[i - 1] == b':' {
            // scheme://user:password@host: the password is no local part.
            let user = self.email_run_start(i - 1, floor);
            if text[user..i - 1].starts_with(b"//") && user > 0 && text[user - 1] == b':' {
                return None;
            }
        }
        const MAILTO: &[u8] = b"mailto:";
        if i >= floor + MAILTO.len() && text[i - MAILTO.len()..i].eq_ignore_ascii_case(MAILTO) {
            return Some((i - MAILTO.len(), true));
        }
        Some((i, false))
    }
}

#[cfg(test)]
mod tests {
    use super::web_scheme_len;

    /// `https://` and `http://` in any case, whole after the floor, and nothing else,
    /// whichever path (a word before the host, or the bytes at the floor) compares them.
    #[test]
    fn web_schemes_in_any_case_after_the_floor() {
        for (text, floor, len) in [
            ("https://x", 0, 8),
            ("HTTPS://x", 0, 8),
            ("hTtPs://x", 0, 8),
            ("http://x", 0, 7),
            ("HTTP://x", 0, 7),
            ("xhttp://x", 0, 7),
            ("xhttp://x", 1, 7),
            ("xhttps://x", 2, 0),
            ("https://x", 1, 0),
            ("xHTTP://x", 0, 7),
            ("ttps://x", 0, 0),
            ("ftp://x", 0, 0),
            ("hxxp://x", 0, 0),
            ("http:\\\\x", 0, 0),
            ("http\u{1}://x", 0, 0),
            ("(ttp://x", 0, 0),
            ("\u{8}ttps://x", 0, 0),
        ] {
            let start = text.len() - 1;
            assert_eq!(
                web_scheme_len(text.as_bytes(), start, floor),
                len,
                "{text:?} floor {floor}"
            );
        }
    }
}
