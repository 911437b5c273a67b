//! The URL parts of UTS #58 Table 3-3 ("Link Termination by URL Part"), defined once for
//! detection (the termination automaton) and formatting (minimal escaping).
//!
//! | part | initiator | terminators | ClearStackOpen |
//! | --- | --- | --- | --- |
//! | path | `/` | `?` `#` | `/` |
//! | query | `?` | `#` | `=` `&` |
//! | fragment | `#` | `:~:` | |
//! | fragment directive | `:~:` | | `&` `,` `:~:` |
//!
//! Every element is ASCII, and each starts with a byte that the byte-level predicates
//! here ([`UrlPart::is_terminator_byte`], [`UrlPart::is_clear_byte`]) name, so that the
//! byte tables of [`crate::ascii`] are derived from this table too.
//!
//! Invariant: `terminator_len` and `clear_len` only ever report an element that lies whole
//! inside the text (`:~:` needs its three bytes).

/// A URL part that the minimal escaping algorithm formats (UTS #58 Table 3-3).
///
/// ```
/// use linkscan::format::UrlPart;
/// assert_eq!(UrlPart::Query.initiator(), "?");
/// assert_eq!(UrlPart::FragmentDirective.initiator(), ":~:");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UrlPart {
    /// The path, `/` and the segments joined by `/`.
    Path,
    /// The query, `?` and the `key=value` pairs joined by `&`.
    Query,
    /// The fragment, `#` up to the first fragment directive.
    Fragment,
    /// One fragment directive, `:~:` and e.g. `text=start,end`.
    FragmentDirective,
}

/// The fragment directive delimiter, `:~:`: the directive's initiator, the fragment's
/// terminator and a ClearStackOpen element of a directive.
const DIRECTIVE: &[u8; 3] = b":~:";

#[inline]
fn starts_with_directive(text: &[u8], i: usize) -> bool {
    text.len() >= i + 3 && &text[i..i + 3] == DIRECTIVE
}

impl UrlPart {
    /// The four parts, in the order they may follow one another.
    pub(crate) const ALL: [UrlPart; 4] = [
        UrlPart::Path,
        UrlPart::Query,
        UrlPart::Fragment,
        UrlPart::FragmentDirective,
    ];

    /// The string that starts the part: `/`, `?`, `#` or `:~:`.
    ///
    /// ```
    /// assert_eq!(linkscan::format::UrlPart::Path.initiator(), "/");
    /// ```
    pub fn initiator(self) -> &'static str {
        match self {
            UrlPart::Path => "/",
            UrlPart::Query => "?",
            UrlPart::Fragment => "#",
            UrlPart::FragmentDirective => ":~:",
        }
    }

    /// The part whose initiator starts at byte `i` of `text`, with the initiator's length.
    /// (A fragment directive may only follow a fragment or a directive: the caller checks.)
    #[inline]
    pub(crate) fn initiated_at(text: &[u8], i: usize) -> Option<(UrlPart, usize)> {
        match text[i] {
            b'/' => Some((UrlPart::Path, 1)),
            b'?' => Some((UrlPart::Query, 1)),
            b'#' => Some((UrlPart::Fragment, 1)),
            b':' if starts_with_directive(text, i) => Some((UrlPart::FragmentDirective, 3)),
            _ => None,
        }
    }

    /// Whether `b` is the first byte of one of the part's terminators.
    #[inline]
    pub(crate) const fn is_terminator_byte(self, b: u8) -> bool {
        match self {
            UrlPart::Path => matches!(b, b'?' | b'#'),
            UrlPart::Query => b == b'#',
            UrlPart::Fragment => b == DIRECTIVE[0],
            UrlPart::FragmentDirective => false,
        }
    }

    /// Whether `b` is the first byte of one of the part's ClearStackOpen elements.
    #[inline]
    pub(crate) const fn is_clear_byte(self, b: u8) -> bool {
        match self {
            UrlPart::Path => b == b'/',
            UrlPart::Query => matches!(b, b'=' | b'&'),
            UrlPart::Fragment => false,
            UrlPart::FragmentDirective => matches!(b, b'&' | b',') || b == DIRECTIVE[0],
        }
    }

    /// Whether one of the part's terminators (Table 3-3) starts at byte `i` of `text`.
    #[inline]
    pub(crate) fn terminates_at(self, text: &[u8], i: usize) -> bool {
        let b = text[i];
        self.is_terminator_byte(b) && (b != DIRECTIVE[0] || starts_with_directive(text, i))
    }

    /// The length of the ClearStackOpen element (Table 3-3) that starts at byte `i` of
    /// `text`, or 0 if none does.
    #[inline]
    pub(crate) fn clear_len(self, text: &[u8], i: usize) -> usize {
        let b = text[i];
        if !self.is_clear_byte(b) {
            0
        } else if b != DIRECTIVE[0] {
            1
        } else if starts_with_directive(text, i) {
            DIRECTIVE.len()
        } else {
            0
        }
    }

    /// Whether one of the part's ClearStackOpen elements (Table 3-3) starts at byte `i`.
    #[inline]
    pub(crate) fn clears_stack_at(self, text: &[u8], i: usize) -> bool {
        self.clear_len(text, i) > 0
    }
}

/// Whether `b` is the first byte of a terminator of any part.
pub(crate) const fn is_any_terminator_byte(b: u8) -> bool {
    let mut k = 0;
    while k < UrlPart::ALL.len() {
        if UrlPart::ALL[k].is_terminator_byte(b) {
            return true;
        }
        k += 1;
    }
    false
}

/// Whether `b` is the first byte of a terminator or ClearStackOpen element of any part.
pub(crate) const fn is_any_separator_byte(b: u8) -> bool {
    let mut k = 0;
    while k < UrlPart::ALL.len() {
        if UrlPart::ALL[k].is_clear_byte(b) {
            return true;
        }
        k += 1;
    }
    is_any_terminator_byte(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of the module documentation, element by element, from every position
    /// of texts that hold each element whole and cut short.
    #[test]
    fn elements_are_those_of_table_3_3() {
        let text = b"/?#=&,:~:x:~";
        let expect = |part: UrlPart, i: usize| -> (bool, usize) {
            let rest = &text[i..];
            let directive = rest.starts_with(b":~:");
            match part {
                UrlPart::Path => (matches!(rest[0], b'?' | b'#'), (rest[0] == b'/') as usize),
                UrlPart::Query => (rest[0] == b'#', matches!(rest[0], b'=' | b'&') as usize),
                UrlPart::Fragment => (directive, 0),
                UrlPart::FragmentDirective => (
                    false,
                    if directive {
                        3
                    } else {
                        matches!(rest[0], b'&' | b',') as usize
                    },
                ),
            }
        };
        for part in UrlPart::ALL {
            for i in 0..text.len() {
                let (terminates, clear) = expect(part, i);
                assert_eq!(part.terminates_at(text, i), terminates, "{part:?} at {i}");
                assert_eq!(part.clear_len(text, i), clear, "{part:?} at {i}");
                assert_eq!(part.clears_stack_at(text, i), clear > 0, "{part:?} at {i}");
            }
        }
        let separators: Vec<u8> = (0..=255u8).filter(|&b| is_any_separator_byte(b)).collect();
        assert_eq!(separators, b"#&,/:=?");
        let terminators: Vec<u8> = (0..=255u8).filter(|&b| is_any_terminator_byte(b)).collect();
        assert_eq!(terminators, b"#:?");
    }

    #[test]
    fn initiators_start_their_parts() {
        for part in UrlPart::ALL {
            let mut text = part.initiator().as_bytes().to_vec();
            text.push(b'x');
            assert_eq!(
                UrlPart::initiated_at(&text, 0),
                Some((part, part.initiator().len()))
            );
        }
        assert_eq!(UrlPart::initiated_at(b":~", 0), None);
        assert_eq!(UrlPart::initiated_at(b"x", 0), None);
    }
}
