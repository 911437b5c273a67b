//! Classes of ASCII bytes, each derived once from the property table (Link_Term,
//! Link_Email, HostChar of U+0000..U+007F) and the URL parts of [`crate::parts`], as
//! `[bool; 256]` lookup tables built by one loop ([`table`]).
//!
//! Invariant: every byte >= 0x80 is outside every set (such bytes are decoded and looked
//! up by code point); the vector kernels test some of these sets with nibble tables or
//! range compares, and the tests of [`crate::vector`] check those against the tables here.

use crate::parts::{is_any_separator_byte, UrlPart};
use crate::props::{HOST_CHAR, LINK_EMAIL, LT_CLOSE, LT_HARD, LT_INCLUDE, LT_MASK, LT_SOFT};
use crate::tables::PROPS_BLOCKS;

/// The sets of ASCII bytes the engine tests with a table lookup.
#[derive(Clone, Copy)]
enum Set {
    Plain,
    Simple(UrlPart),
    SimpleInclude(UrlPart),
    LocalPart,
    HostNoDot,
    EndsEmptyStack,
}

/// Whether the ASCII byte `b` is in `set`.
const fn member(set: Set, b: u8) -> bool {
    let props = PROPS_BLOCKS[b as usize];
    let term = props & LT_MASK;
    match set {
        Set::Plain => term == LT_INCLUDE && !is_any_separator_byte(b),
        Set::Simple(part) => (term == LT_INCLUDE || term == LT_SOFT) && !part.is_terminator_byte(b),
        Set::SimpleInclude(part) => member(Set::Simple(part), b) && term == LT_INCLUDE,
        Set::LocalPart => b == b'.' || props & LINK_EMAIL != 0,
        Set::HostNoDot => b != b'.' && props & HOST_CHAR != 0,
        Set::EndsEmptyStack => term == LT_HARD || term == LT_CLOSE,
    }
}

/// The lookup table of `set`: the ASCII members, and no byte >= 0x80.
const fn table(set: Set) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = member(set, b as u8);
        b += 1;
    }
    table
}

/// ASCII bytes that are Link_Term=Include and no part's terminator or separator
/// (`/ ? # = & , :`): inside any part, a run of them only moves the end of the link to the
/// end of the run.
pub(crate) static PLAIN: [bool; 256] = table(Set::Plain);

/// ASCII bytes that, inside a path, a query or a fragment ([`simple_set`]) with an empty
/// bracket stack, act only by their Link_Term value: Include or Soft, and none of the
/// part's terminators (`?` `#` in a path, `#` in a query, `:` in a fragment, where `:~:`
/// would end it). A part's separators (`/` in a path, `=` `&` in a query) are among them:
/// with nothing on the stack, clearing it is the same as including the byte. Brackets,
/// Hard bytes and bytes >= 0x80 are not. (One set for all parts, without the terminators
/// of any, sent the `:` of each `a:b` in a path and the `?` of each `a?b` in a query
/// through the automaton's byte loop.)
pub(crate) static SIMPLE: [[bool; 256]; 3] = [
    table(Set::Simple(UrlPart::Path)),
    table(Set::Simple(UrlPart::Query)),
    table(Set::Simple(UrlPart::Fragment)),
];

/// The [`SIMPLE`] bytes that are Link_Term=Include: each moves the end of the link past
/// itself; the others (Soft) only do so if an Include byte follows.
pub(crate) static SIMPLE_INCLUDE: [[bool; 256]; 3] = [
    table(Set::SimpleInclude(UrlPart::Path)),
    table(Set::SimpleInclude(UrlPart::Query)),
    table(Set::SimpleInclude(UrlPart::Fragment)),
];

/// The index of the sets of `part` in [`SIMPLE`] and [`SIMPLE_INCLUDE`] (a fragment
/// directive, which takes no simple runs, has the fragment's).
#[inline(always)]
pub(crate) const fn simple_set(part: UrlPart) -> usize {
    match part {
        UrlPart::Path => 0,
        UrlPart::Query => 1,
        UrlPart::Fragment | UrlPart::FragmentDirective => 2,
    }
}

/// ASCII bytes of an email local part: Link_Email=Yes, and `.`.
pub(crate) static LOCAL_PART: [bool; 256] = table(Set::LocalPart);

/// ASCII HostCharNoDot: `[A-Za-z0-9-]` (the vector kernels test these ranges directly).
pub(crate) static HOST_NO_DOT: [bool; 256] = table(Set::HostNoDot);

/// ASCII bytes that end a link in any part when the bracket stack is empty and no
/// terminator is involved: Link_Term Hard, and Close (with nothing to match).
pub(crate) static ENDS_EMPTY_STACK: [bool; 256] = table(Set::EndsEmptyStack);

/// Whether `b` is ASCII HostCharNoDot: `[A-Za-z0-9-]`.
#[inline]
pub(crate) fn is_host_no_dot(b: u8) -> bool {
    HOST_NO_DOT[b as usize]
}

/// Classes of the host walk's bytes, shared by the scanner and the vector walks: not a
/// host character, a host character, a dot, a hyphen, a byte >= 0x80.
pub(crate) const C_STOP: u8 = 0;
/// A host character other than `.` and `-`.
pub(crate) const C_HOST: u8 = 1;
/// `.`
pub(crate) const C_DOT: u8 = 2;
/// `-`
pub(crate) const C_HYPHEN: u8 = 3;
/// A byte >= 0x80 (decoded on a slower path).
pub(crate) const C_NON_ASCII: u8 = 4;

#[cfg(test)]
mod tests {
    use super::*;

    fn members(table: &[bool; 256]) -> Vec<u8> {
        (0..=255u8).filter(|&b| table[b as usize]).collect()
    }

    #[test]
    fn host_no_dot_is_ascii_alphanumeric_and_hyphen() {
        let expected: Vec<u8> = (0..=255u8)
            .filter(|&b| b.is_ascii_alphanumeric() || b == b'-')
            .collect();
        assert_eq!(members(&HOST_NO_DOT), expected);
    }

    /// The simple bytes of each part are exactly the Include and Soft ASCII bytes other
    /// than its terminators' first bytes.
    #[test]
    fn simple_bytes_are_include_or_soft() {
        for (set, terminators) in [(0, &b"?#"[..]), (1, b"#"), (2, b":")] {
            let simple = members(&SIMPLE[set]);
            let include = members(&SIMPLE_INCLUDE[set]);
            let soft: Vec<u8> = simple
                .iter()
                .copied()
                .filter(|b| !include.contains(b))
                .collect();
            let expected_soft: Vec<u8> = b"!\"',.:;?"
                .iter()
                .copied()
                .filter(|b| !terminators.contains(b))
                .collect();
            assert_eq!(soft, expected_soft, "set {set}");
            for b in b"/=&$%*+-@\\^_`|~09azAZ" {
                assert!(include.contains(b), "{} in set {set}", *b as char);
            }
            for b in terminators.iter().chain(b"()[]{}<> \t\n\x7F\x80\xFF") {
                assert!(!simple.contains(b), "{b:#04x} in set {set}");
            }
        }
        assert!(SIMPLE[0][b':' as usize] && SIMPLE[1][b':' as usize] && SIMPLE[1][b'?' as usize]);
        assert!(SIMPLE_INCLUDE[2][b'#' as usize] && SIMPLE_INCLUDE[1][b'/' as usize]);
        assert_eq!(
            UrlPart::ALL.map(simple_set),
            [0, 1, 2, 2],
            "the parts' sets, in order"
        );
    }

    /// Plain bytes are the simple Include ones of every part without a part's separator.
    #[test]
    fn plain_bytes_are_include_without_separators() {
        let expected: Vec<u8> = (0..=255u8)
            .filter(|&b| (0..3).all(|set| SIMPLE_INCLUDE[set][b as usize]))
            .filter(|b| !b"/=&".contains(b))
            .collect();
        assert_eq!(members(&PLAIN), expected);
    }

    #[test]
    fn empty_stack_ends_at_hard_and_close() {
        for b in b" \t\n\r\x00\x7F)]}" {
            assert!(ENDS_EMPTY_STACK[*b as usize], "{b:#04x}");
        }
        for b in b"([{a.-/?#" {
            assert!(!ENDS_EMPTY_STACK[*b as usize], "{b:#04x}");
        }
        assert!(LOCAL_PART[b'.' as usize] && LOCAL_PART[b'a' as usize]);
        assert!(!LOCAL_PART[b'@' as usize] && !LOCAL_PART[0x80]);
    }
}
