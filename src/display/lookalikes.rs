//! Syntax look-alikes: characters that read as `/`, `?`, `#`, `.` or `:` and are not.
//!
//! `example.com∕login.example.org` (U+2215 DIVISION SLASH) reads as a path of
//! `example.com` but is one host; `bank.example⁄login` (U+2044 FRACTION SLASH) and
//! `example.comɁx=1` (U+0241) fake a path or a query. UTS #58 sections 4.1 and 8
//! recommend escaping such characters when a link is shown; the display form
//! percent-escapes every character of [`SYNTAX_LOOKALIKES`] wherever it is in the link.
//!
//! How the set was chosen, from `confusables.txt` of UTS #39 (Unicode 17.0):
//!
//! * every source whose prototype is exactly one of `/ ? # . :` and that the file marks as
//!   not an identifier character (`#*`): punctuation and symbols such as `⁄` U+2044, `∕`
//!   U+2215, `․` U+2024, `∶` U+2236, `꞉` U+A789, `ː`-like modifier colons, `︰` U+FE30;
//! * the two Latin letters confusable with `?`, `ʔ` U+0294 and `Ɂ` U+0241, because Latin is
//!   the script URLs are written in;
//! * the compatibility forms that NFKC folds to one of the five and that
//!   `confusables.txt` therefore leaves out: fullwidth `／ ？ ＃ ． ：` (U+FF0F, U+FF1F,
//!   U+FF03, U+FF0E, U+FF1A), small `﹒ ﹕ ﹖ ﹟` (U+FE52, U+FE55, U+FE56, U+FE5F) and
//!   vertical `︓ ︖` (U+FE13, U+FE16).
//!
//! Letters, digits and marks of other scripts that the file maps to these characters
//! (Katakana `ノ`, CJK `丿`, Arabic-Indic zero `٠`, Devanagari visarga `ः`, Lisu tone
//! letters, Coptic `ⳇ`…) are words of their languages and are not escaped. The host needs
//! nothing more: a displayed host is ASCII (Punycode) or passed the spoof test, and IDNA
//! maps `．` to `.`.
//!
//! Invariant: [`SYNTAX_LOOKALIKES`] is sorted, so a lookup is a binary search; ASCII is
//! never a look-alike.

use std::borrow::Cow;

use crate::format::push_escaped_char;

/// The syntax look-alikes, sorted by code point, each with the ASCII character it passes
/// for: from UTS #39's `confusables.txt`, the sources whose prototype is one of
/// `/ ? # . :` and that are not identifier characters, the two Latin letters read as `?`,
/// and the fullwidth, small and vertical forms that NFKC folds to those five.
pub const SYNTAX_LOOKALIKES: [(char, char); 40] = [
    ('\u{0241}', '?'),  // LATIN CAPITAL LETTER GLOTTAL STOP
    ('\u{0294}', '?'),  // LATIN LETTER GLOTTAL STOP
    ('\u{02F8}', ':'),  // MODIFIER LETTER RAISED COLON
    ('\u{0589}', ':'),  // ARMENIAN FULL STOP
    ('\u{05C3}', ':'),  // HEBREW PUNCTUATION SOF PASUQ
    ('\u{0701}', '.'),  // SYRIAC SUPRALINEAR FULL STOP
    ('\u{0702}', '.'),  // SYRIAC SUBLINEAR FULL STOP
    ('\u{0703}', ':'),  // SYRIAC SUPRALINEAR COLON
    ('\u{0704}', ':'),  // SYRIAC SUBLINEAR COLON
    ('\u{16EC}', ':'),  // RUNIC MULTIPLE PUNCTUATION
    ('\u{1735}', '/'),  // PHILIPPINE SINGLE PUNCTUATION
    ('\u{1803}', ':'),  // MONGOLIAN FULL STOP
    ('\u{1809}', ':'),  // MONGOLIAN MANCHU FULL STOP
    ('\u{2024}', '.'),  // ONE DOT LEADER
    ('\u{2041}', '/'),  // CARET INSERTION POINT
    ('\u{2044}', '/'),  // FRACTION SLASH
    ('\u{205A}', ':'),  // TWO DOT PUNCTUATION
    ('\u{2215}', '/'),  // DIVISION SLASH
    ('\u{2236}', ':'),  // RATIO
    ('\u{2571}', '/'),  // BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT
    ('\u{27CB}', '/'),  // MATHEMATICAL RISING DIAGONAL
    ('\u{29F8}', '/'),  // BIG SOLIDUS
    ('\u{2F03}', '/'),  // KANGXI RADICAL SLASH
    ('\u{31D3}', '/'),  // CJK STROKE SP
    ('\u{A60E}', '.'),  // VAI FULL STOP
    ('\u{A789}', ':'),  // MODIFIER LETTER COLON
    ('\u{FE13}', ':'),  // PRESENTATION FORM FOR VERTICAL COLON
    ('\u{FE16}', '?'),  // PRESENTATION FORM FOR VERTICAL QUESTION MARK
    ('\u{FE30}', ':'),  // PRESENTATION FORM FOR VERTICAL TWO DOT LEADER
    ('\u{FE52}', '.'),  // SMALL FULL STOP
    ('\u{FE55}', ':'),  // SMALL COLON
    ('\u{FE56}', '?'),  // SMALL QUESTION MARK
    ('\u{FE5F}', '#'),  // SMALL NUMBER SIGN
    ('\u{FF03}', '#'),  // FULLWIDTH NUMBER SIGN
    ('\u{FF0E}', '.'),  // FULLWIDTH FULL STOP
    ('\u{FF0F}', '/'),  // FULLWIDTH SOLIDUS
    ('\u{FF1A}', ':'),  // FULLWIDTH COLON
    ('\u{FF1F}', '?'),  // FULLWIDTH QUESTION MARK
    ('\u{10A50}', '.'), // KHAROSHTHI PUNCTUATION DOT
    ('\u{1D23A}', '/'), // GREEK INSTRUMENTAL NOTATION SYMBOL-47
];

/// The ASCII syntax character that `c` passes for, when it is a syntax look-alike.
///
/// ```
/// use linkscan::display::syntax_lookalike;
/// assert_eq!(syntax_lookalike('\u{2215}'), Some('/'));
/// assert_eq!(syntax_lookalike('\u{0241}'), Some('?'));
/// assert_eq!(syntax_lookalike('/'), None);
/// assert_eq!(syntax_lookalike('ノ'), None);
/// ```
pub fn syntax_lookalike(c: char) -> Option<char> {
    if c.is_ascii() {
        return None;
    }
    SYNTAX_LOOKALIKES
        .binary_search_by_key(&c, |&(l, _)| l)
        .ok()
        .map(|i| SYNTAX_LOOKALIKES[i].1)
}

/// `shown` with every syntax look-alike percent-escaped (as its UTF-8 bytes).
///
/// ```
/// use linkscan::display::escape_syntax_lookalikes;
/// assert_eq!(escape_syntax_lookalikes("example.com/a\u{2044}b"), "example.com/a%E2%81%84b");
/// assert_eq!(escape_syntax_lookalikes("example.com/ノート"), "example.com/ノート");
/// ```
pub fn escape_syntax_lookalikes(shown: &str) -> Cow<'_, str> {
    if shown.is_ascii() || !shown.chars().any(|c| syntax_lookalike(c).is_some()) {
        return Cow::Borrowed(shown);
    }
    let mut out = String::with_capacity(shown.len() + 16);
    for c in shown.chars() {
        if syntax_lookalike(c).is_some() {
            push_escaped_char(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_and_non_ascii() {
        for pair in SYNTAX_LOOKALIKES.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{pair:?}");
        }
        for (c, ascii) in SYNTAX_LOOKALIKES {
            assert!(!c.is_ascii() && "/?#.:".contains(ascii), "{c:?}");
            assert_eq!(syntax_lookalike(c), Some(ascii));
        }
    }
}
