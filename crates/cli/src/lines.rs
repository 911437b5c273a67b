//! Line and column numbers for `find -n/--line-number` and `--column`: where a link is,
//! for people, next to the byte offsets for programs.
//!
//! A [`Position`] is advanced over the bytes of an input in order: the line is 1 plus the
//! line feeds passed, the column 1 plus the characters since the last line feed. A
//! character is a byte that is not a UTF-8 continuation byte (`10xxxxxx`), so a valid
//! UTF-8 text counts code points, and each byte of invalid UTF-8 that is not a
//! continuation byte counts as one character (as its U+FFFD would). Advancing is linear in
//! the bytes passed, so positions of all links of an input cost one pass over it.

/// A line and column (both from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) line: u64,
    pub(crate) column: u64,
}

impl Position {
    /// The start of an input.
    pub(crate) const START: Position = Position { line: 1, column: 1 };

    /// The position just past `bytes`, read from this position.
    pub(crate) fn advance(&mut self, bytes: &[u8]) {
        match memchr::memrchr(b'\n', bytes) {
            Some(last) => {
                self.line += memchr::memchr_iter(b'\n', bytes).count() as u64;
                self.column = 1 + chars(&bytes[last + 1..]);
            }
            None => self.column += chars(bytes),
        }
    }
}

/// The characters of `bytes` (see the module documentation).
fn chars(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64
}

#[cfg(test)]
mod tests {
    use super::Position;

    fn at(text: &str) -> (u64, u64) {
        let mut p = Position::START;
        p.advance(text.as_bytes());
        (p.line, p.column)
    }

    #[test]
    fn lines_and_columns_count_line_feeds_and_characters() {
        assert_eq!(at(""), (1, 1));
        assert_eq!(at("abc"), (1, 4));
        assert_eq!(at("a\nbc"), (2, 3));
        assert_eq!(at("a\n\n"), (3, 1));
        assert_eq!(at("αβ\nγδ"), (2, 3), "characters, not bytes");
        // In pieces, the same as at once.
        let mut p = Position::START;
        for piece in ["αβ", "\nγ", "δ\n", "", "x"] {
            p.advance(piece.as_bytes());
        }
        assert_eq!((p.line, p.column), at("αβ\nγδ\nx"));
    }
}
