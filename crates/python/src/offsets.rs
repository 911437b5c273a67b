//! Byte offsets to code-point offsets, for links handed to Python.
//!
//! Python indexes a `str` by code point; the scanner reports byte offsets into UTF-8. A
//! link list is in increasing, non-overlapping order, so one forward walk converts all of
//! its offsets: [`CodePoints::at`] counts the code points between the previous offset and
//! the next, in O(text length) for the whole list. A code point is counted at each byte
//! that is not a UTF-8 continuation byte (`10xx_xxxx`): exact for valid UTF-8 (a Python
//! `str`, an Arrow string array), and a defined count, without panics, for any bytes.
//!
//! Invariant: offsets passed to [`CodePoints::at`] never decrease (checked: a smaller
//! offset restarts the walk from the beginning, so a wrong order costs time, not a wrong
//! answer).

/// Code points in `bytes`: the bytes that are not UTF-8 continuation bytes.
#[inline]
pub fn count(bytes: &[u8]) -> usize {
    // Written as a plain filter-count so that the compiler vectorises it.
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// A forward cursor converting byte offsets of one text to code-point offsets.
pub struct CodePoints<'t> {
    text: &'t [u8],
    ascii: bool,
    byte: usize,
    chars: usize,
}

impl<'t> CodePoints<'t> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'t [u8]) -> CodePoints<'t> {
        CodePoints {
            text,
            ascii: text.is_ascii(),
            byte: 0,
            chars: 0,
        }
    }

    /// The code-point offset of byte offset `byte` (at most the text's length).
    #[inline]
    pub fn at(&mut self, byte: usize) -> usize {
        if self.ascii {
            return byte;
        }
        if byte < self.byte {
            self.byte = 0;
            self.chars = 0;
        }
        self.chars += count(&self.text[self.byte..byte]);
        self.byte = byte;
        self.chars
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_match_char_indices_in_every_width() {
        let text = "a é € 𝄞 x.com ü";
        let mut cursor = CodePoints::new(text.as_bytes());
        let mut expected = Vec::new();
        let mut got = Vec::new();
        for (chars, (byte, _)) in text.char_indices().enumerate() {
            expected.push(chars);
            got.push(cursor.at(byte));
        }
        assert_eq!(got, expected);
        assert_eq!(cursor.at(text.len()), text.chars().count());
        // Going back restarts the walk and still answers right.
        assert_eq!(cursor.at(2), 2);
    }
}
