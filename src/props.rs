//! Character properties: Link_Term, Link_Bracket, Link_Email and the host-name classes.
//!
//! Every code point has one property byte in the generated two-level table
//! ([`crate::tables`]): `PROPS_INDEX[cp / BLOCK_LEN]` names a block of `PROPS_BLOCKS`, and
//! the byte at `cp % BLOCK_LEN` in it holds
//!
//! | bits | meaning |
//! |------|---------|
//! | 0–2  | Link_Term: 0 Include, 1 Hard, 2 Soft, 3 Open, 4 Close |
//! | 3    | Link_Email=Yes |
//! | 4    | HostChar (`initiation.md`: outside ASCII, IDNA `valid`/`deviation` without NV8/XV8 and `mapped` to `[a-z0-9.-]` only; ASCII `[-a-zA-Z0-9]`; the three dots) |
//! | 5    | IDNA2008-valid (UTS #46 `valid` without NV8/XV8), used by the syntactic TLD check |
//! | 6    | Identifier_Status=Allowed (UTS #39) |
//! | 7    | Bidi_Control=Yes |
//!
//! Lookups are two array reads and never fail: code points beyond the table (impossible for
//! a `char`) and invalid UTF-8 are treated as Hard by the callers.

use crate::tables::{BLOCK_LEN, IDNA_IGNORED, LINK_BRACKETS, PROPS_BLOCKS, PROPS_INDEX};

/// The Link_Term property value of a character (UTS #58 section 3.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LinkTerm {
    /// Included in the link.
    Include,
    /// Terminates the link.
    Hard,
    /// Terminates the link when only Soft characters follow before a Hard one or the end.
    Soft,
    /// An opening bracket, matched by a later Close.
    Open,
    /// A closing bracket: Include when it matches the last Open of the same part, else Hard.
    Close,
}

pub(crate) const LT_MASK: u8 = 0b0000_0111;
pub(crate) const LT_INCLUDE: u8 = 0;
pub(crate) const LT_HARD: u8 = 1;
pub(crate) const LT_SOFT: u8 = 2;
pub(crate) const LT_OPEN: u8 = 3;
pub(crate) const LT_CLOSE: u8 = 4;
pub(crate) const LINK_EMAIL: u8 = 1 << 3;
pub(crate) const HOST_CHAR: u8 = 1 << 4;
pub(crate) const IDNA2008_VALID: u8 = 1 << 5;
pub(crate) const IDENTIFIER_ALLOWED: u8 = 1 << 6;
pub(crate) const BIDI_CONTROL: u8 = 1 << 7;

/// The property byte of a code point; code points past U+10FFFF read as Hard.
#[inline]
pub(crate) fn props_of(cp: u32) -> u8 {
    let cp = cp as usize;
    match PROPS_INDEX.get(cp / BLOCK_LEN) {
        Some(&block) => PROPS_BLOCKS[block as usize * BLOCK_LEN + cp % BLOCK_LEN],
        None => LT_HARD,
    }
}

impl LinkTerm {
    #[inline]
    pub(crate) fn from_bits(bits: u8) -> LinkTerm {
        match bits & LT_MASK {
            LT_INCLUDE => LinkTerm::Include,
            LT_SOFT => LinkTerm::Soft,
            LT_OPEN => LinkTerm::Open,
            LT_CLOSE => LinkTerm::Close,
            _ => LinkTerm::Hard,
        }
    }
}

/// The Link_Term value of `c`.
///
/// ```
/// use linkscan::{link_term, LinkTerm};
/// assert_eq!(link_term('a'), LinkTerm::Include);
/// assert_eq!(link_term(' '), LinkTerm::Hard);
/// assert_eq!(link_term('.'), LinkTerm::Soft);
/// assert_eq!(link_term('('), LinkTerm::Open);
/// assert_eq!(link_term('）'), LinkTerm::Close);
/// ```
#[inline]
pub fn link_term(c: char) -> LinkTerm {
    LinkTerm::from_bits(props_of(c as u32))
}

/// The Link_Bracket value of `c`: the opening bracket that a closing bracket matches, or
/// `None` when `c` is not Link_Term=Close.
///
/// ```
/// assert_eq!(linkscan::link_bracket(')'), Some('('));
/// assert_eq!(linkscan::link_bracket('」'), Some('「'));
/// assert_eq!(linkscan::link_bracket('>'), Some('<'));
/// assert_eq!(linkscan::link_bracket('('), None);
/// ```
#[inline]
pub fn link_bracket(c: char) -> Option<char> {
    match c {
        ')' => Some('('),
        ']' => Some('['),
        '}' => Some('{'),
        '>' => Some('<'),
        _ if (c as u32) < 0x80 => None,
        _ => LINK_BRACKETS
            .binary_search_by(|&(close, _)| close.cmp(&c))
            .ok()
            .map(|i| LINK_BRACKETS[i].1),
    }
}

/// Whether `c` has Link_Email=Yes (may occur in an unquoted email local part).
///
/// ```
/// assert!(linkscan::is_link_email('σ'));
/// assert!(linkscan::is_link_email('+'));
/// assert!(!linkscan::is_link_email('@'));
/// ```
#[inline]
pub fn is_link_email(c: char) -> bool {
    props_of(c as u32) & LINK_EMAIL != 0
}

/// Whether `c` may be part of a host name (HostChar of `initiation.md`, dots included).
#[inline]
pub fn is_host_char(c: char) -> bool {
    props_of(c as u32) & HOST_CHAR != 0
}

/// Whether the code point `cp` is Ignored (`initiation.md`): UTS #46 status `ignored`
/// (soft hyphen, zero width space, word joiner, variation selectors, …). A host walk
/// passes over these, and a host as put in an `href` is written without them. None is
/// ASCII or HostChar, so the ASCII paths never ask; a binary search over
/// [`IDNA_IGNORED`]'s ranges answers the rest.
#[inline]
pub(crate) fn is_ignored_cp(cp: u32) -> bool {
    cp >= IDNA_IGNORED[0].0 && in_ranges(&IDNA_IGNORED, cp)
}

/// Whether `cp` lies in one of `ranges` (sorted, inclusive, not overlapping).
#[inline]
pub(crate) fn in_ranges(ranges: &[(u32, u32)], cp: u32) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whether `c` is Ignored in host names (UTS #46 status `ignored`, such as U+00AD SOFT
/// HYPHEN and U+200B ZERO WIDTH SPACE): a host found in text may hold these, and its
/// target is the host without them.
///
/// ```
/// assert!(linkscan::is_host_ignored('\u{AD}'));
/// assert!(linkscan::is_host_ignored('\u{200B}'));
/// assert!(!linkscan::is_host_ignored('a'));
/// assert!(!linkscan::is_host_ignored('\u{200D}')); // ZWJ is a deviation: a host character
/// ```
#[inline]
pub fn is_host_ignored(c: char) -> bool {
    is_ignored_cp(c as u32)
}

/// Whether `c` has Bidi_Control=Yes.
#[inline]
pub fn is_bidi_control(c: char) -> bool {
    props_of(c as u32) & BIDI_CONTROL != 0
}

/// Whether `c` has Identifier_Status=Allowed (UTS #39).
#[inline]
pub fn is_identifier_allowed(c: char) -> bool {
    props_of(c as u32) & IDENTIFIER_ALLOWED != 0
}

/// Whether `c` is IDNA2008-valid: UTS #46 status `valid` without the NV8/XV8 marker.
#[inline]
pub(crate) fn is_idna2008_valid(c: char) -> bool {
    props_of(c as u32) & IDNA2008_VALID != 0
}

/// Whether `c` is a label separator used to find a TLD: `.` or `。` (U+3002).
#[inline]
pub fn is_dot(c: char) -> bool {
    c == '.' || c == '\u{3002}'
}

/// Raw property lookups by code point, including surrogates, for exhaustive tests.
#[doc(hidden)]
#[cfg(feature = "__internals")]
pub mod raw {
    /// The Link_Term value of any code point (past U+10FFFF: Hard).
    pub fn link_term(cp: u32) -> super::LinkTerm {
        super::LinkTerm::from_bits(super::props_of(cp))
    }
    /// Link_Email of any code point.
    pub fn is_link_email(cp: u32) -> bool {
        super::props_of(cp) & super::LINK_EMAIL != 0
    }
    /// HostChar of any code point.
    pub fn is_host_char(cp: u32) -> bool {
        super::props_of(cp) & super::HOST_CHAR != 0
    }
    /// Ignored (UTS #46 `ignored`) of any code point.
    pub fn is_ignored(cp: u32) -> bool {
        super::is_ignored_cp(cp)
    }
    /// Bidi_Control of any code point.
    pub fn is_bidi_control(cp: u32) -> bool {
        super::props_of(cp) & super::BIDI_CONTROL != 0
    }
    /// Identifier_Status=Allowed of any code point.
    pub fn is_identifier_allowed(cp: u32) -> bool {
        super::props_of(cp) & super::IDENTIFIER_ALLOWED != 0
    }
    /// Link_Bracket of any code point.
    pub fn link_bracket(cp: u32) -> Option<u32> {
        char::from_u32(cp)
            .and_then(super::link_bracket)
            .map(|c| c as u32)
    }
}

// ASCII lookups read `PROPS_BLOCKS[b]` directly: the first block holds U+0000..U+007F.
// No Ignored code point is ASCII (the generator refuses such data): the ASCII fast paths
// never need to ask.
const _: () = assert!(IDNA_IGNORED[0].0 >= 0x80);
const _: () = assert!(crate::tables::PROPS_INDEX[0] == 0 && BLOCK_LEN >= 128);
