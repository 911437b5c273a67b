//! Invisible code points: the `Default_Ignorable_Code_Point` property of Unicode
//! (`DerivedCoreProperties.txt`), which renderers draw as nothing.
//!
//! A soft hyphen (U+00AD) or a zero-width space (U+200B) in `pay\u{200B}pal.com` is not
//! seen by the reader, who reads `paypal.com` while detection stops at it and finds
//! `pal.com`. [`crate::checks::Check::Invisible`] flags such links, and the readable policy
//! refuses an email whose local part was cut at one.
//!
//! The property is derived as `Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
//! - White_Space - U+FFF9..U+FFFB - U+13430..U+1343F - Prepended_Concatenation_Mark`. The
//! general category (`Cf`) is not among the data this crate is built from, so the derived
//! ranges are listed here as Unicode 17.0 publishes them; a test checks that they hold
//! every `Other_Default_Ignorable_Code_Point` and `Variation_Selector` of `PropList.txt` and
//! none of its `White_Space` or `Prepended_Concatenation_Mark` code points.
//!
//! Invariant: [`DEFAULT_IGNORABLE`] is sorted and its ranges are disjoint, so a lookup is
//! one binary search over 17 ranges, and ASCII answers at once.

/// The `Default_Ignorable_Code_Point` ranges of Unicode 17.0, inclusive and sorted.
pub const DEFAULT_IGNORABLE: [(u32, u32); 17] = [
    (0x00AD, 0x00AD),   // SOFT HYPHEN
    (0x034F, 0x034F),   // COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),   // ARABIC LETTER MARK
    (0x115F, 0x1160),   // HANGUL CHOSEONG FILLER, JUNGSEONG FILLER
    (0x17B4, 0x17B5),   // KHMER VOWEL INHERENT AQ, AA
    (0x180B, 0x180F),   // MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),   // ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),   // bidi embeddings and overrides
    (0x2060, 0x206F),   // WORD JOINER..NOMINAL DIGIT SHAPES (isolates included)
    (0x3164, 0x3164),   // HANGUL FILLER
    (0xFE00, 0xFE0F),   // VARIATION SELECTOR-1..16
    (0xFEFF, 0xFEFF),   // ZERO WIDTH NO-BREAK SPACE (byte-order mark)
    (0xFFA0, 0xFFA0),   // HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),   // reserved
    (0x1BCA0, 0x1BCA3), // SHORTHAND FORMAT controls
    (0x1D173, 0x1D17A), // MUSICAL SYMBOL BEGIN BEAM..END PHRASE
    (0xE0000, 0xE0FFF), // tags, VARIATION SELECTOR-17..256, reserved
];

/// Whether `c` is `Default_Ignorable_Code_Point`: invisible when rendered.
///
/// ```
/// use linkscan::checks::is_default_ignorable;
/// assert!(is_default_ignorable('\u{00AD}') && is_default_ignorable('\u{200B}'));
/// assert!(!is_default_ignorable('a') && !is_default_ignorable(' '));
/// ```
#[inline]
pub fn is_default_ignorable(c: char) -> bool {
    let cp = c as u32;
    if cp < 0xAD {
        return false;
    }
    crate::props::in_ranges(&DEFAULT_IGNORABLE, cp)
}

/// Whether `c` is invisible in the sense of [`crate::checks::Check::Invisible`]: a
/// `Default_Ignorable_Code_Point` that is not a `Bidi_Control` character (those are the
/// `bidi_control` check's) and not one that only shapes the visible character beside it:
/// ZWNJ and ZWJ (U+200C, U+200D, which Persian and Indic words and emoji sequences need,
/// and IDNA allows in context) and the text and emoji presentation selectors (U+FE0E,
/// U+FE0F).
pub(crate) fn is_invisible(c: char) -> bool {
    is_default_ignorable(c)
        && !crate::props::is_bidi_control(c)
        && !matches!(c, '\u{200C}' | '\u{200D}' | '\u{FE0E}' | '\u{FE0F}')
}

/// The code point that ends `text[..end]`, if any (`end` is a character boundary).
pub(crate) fn char_before(text: &[u8], end: usize) -> Option<char> {
    let mut start = end.checked_sub(1)?;
    while start > 0 && end - start < 4 && text[start] & 0xC0 == 0x80 {
        start -= 1;
    }
    std::str::from_utf8(&text[start..end]).ok()?.chars().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_sorted_and_disjoint() {
        for pair in DEFAULT_IGNORABLE.windows(2) {
            assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:x?}");
        }
    }

    #[test]
    fn edges() {
        for (lo, hi) in DEFAULT_IGNORABLE {
            for cp in [lo, hi] {
                let c = char::from_u32(cp).unwrap();
                assert!(is_default_ignorable(c), "{cp:X}");
            }
            for cp in [lo - 1, hi + 1] {
                let c = char::from_u32(cp).unwrap();
                assert!(!is_default_ignorable(c), "{cp:X}");
            }
        }
    }

    #[test]
    fn char_before_reads_back_one_code_point() {
        let text = "a\u{200B}b\u{E0001}".as_bytes();
        assert_eq!(char_before(text, 0), None);
        assert_eq!(char_before(text, 1), Some('a'));
        assert_eq!(char_before(text, 4), Some('\u{200B}'));
        assert_eq!(char_before(text, text.len()), Some('\u{E0001}'));
        // Not at a boundary of valid UTF-8: nothing.
        assert_eq!(char_before(b"\xFF", 1), None);
    }
}
