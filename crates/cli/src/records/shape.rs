//! The shape of JSON Lines records: the bytes between the values of one record, learned
//! from it, so that the next records of the same shape are read by comparing those bytes
//! and checking their values alone, without cutting the lines first.
//!
//! # Algorithm
//!
//! The records of a file nearly always share their layout: `{"id": 7, "text": "…"}` and
//! the next, the same names in the same order with the same white space. A line that the
//! scanner of [`scan`] reads ([`Shape::learn`]) is cut into its top-level values and the
//! literal bytes around them: before the first value, between each two, and after the
//! last up to the line feed. A later record is read by [`Shape::try_read`] from the
//! start of the rest of the chunk: each literal is compared (as words, [`Literal`]),
//! each value checked by the scanner's own quick reading (strings and integers in the
//! loop, [`scan::quick_string_at`] and [`scan::quick_integer_at`], any other value out of
//! it; each gives [`scan::value_at`]'s result), and the last literal ends with the line
//! feed, so the record's length is known without a search for its end. The values before
//! the field, the field and the values after it are read by three loops, and the id is
//! noted only by the reading of a shape that has one, so that the usual record is read
//! with little more than its comparisons.
//!
//! # Invariants
//!
//! - A record that [`Shape::try_read`] accepts is one the scanner's walk accepts, with
//!   the same field: the walk's every decision outside a value depends on the bytes of
//!   the literals alone (white space, the braces, commas, colons, names), which are
//!   those of a line the walk accepted, and each value is checked by the same code at the
//!   same place. Only lines known to be UTF-8 are read this way (the walk checks names
//!   and fields for UTF-8 otherwise).
//! - The line ends at the literal's line feed and holds no other: literals are cut from
//!   one line, a string stops at a control character, a number or a literal holds no
//!   white space, an object or an array is read within its line (which it cannot end),
//!   and a value is not read from white space (`None`). So no value is read past its
//!   line but a string, up to the next quote or backslash at most.
//! - `None` is "not this shape", never "malformed": the caller cuts the line and reads it
//!   as before.

use std::ops::Range;

use linkscan::__private::Kernel;

use super::scan;

/// A record's layout: its literals, and which value is the field.
#[derive(Debug)]
pub(crate) struct Shape {
    /// The literals, one after the other.
    bytes: Vec<u8>,
    /// The literals: one before each value, and the last after them (ending with the line
    /// feed).
    literals: Vec<Literal>,
    /// Which value is the field.
    field: usize,
    /// Which value is the id, if asked and the line has one.
    id: Option<usize>,
    /// The vector kernel that finds the ends of strings.
    kernel: Kernel,
}

/// A literal of a shape: where it lies in [`Shape::bytes`], and its first eight bytes and
/// its last eight as words (the first with the mask of the bytes that are its, when it is
/// shorter), so that a literal of up to 16 bytes (`{"id": `, `, "text": `) is compared
/// in two loads and two tests.
#[derive(Debug)]
struct Literal {
    range: Range<usize>,
    head: u64,
    mask: u64,
    last: u64,
}

impl Literal {
    fn new(bytes: &[u8], range: Range<usize>) -> Literal {
        let literal = &bytes[range.clone()];
        let mut head = [0; 8];
        let n = literal.len().min(8);
        head[..n].copy_from_slice(&literal[..n]);
        let mask = if n == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * n)) - 1
        };
        let last = literal
            .len()
            .checked_sub(8)
            .map_or(0, |at| word(&literal[at..]));
        Literal {
            range,
            head: u64::from_le_bytes(head),
            mask,
            last,
        }
    }
}

/// The eight bytes of `bytes` as a word.
#[inline(always)]
fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[..8].try_into().expect("eight bytes"))
}

/// A record read by [`Shape::try_read`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Read {
    /// The record's length, its line feed included.
    pub(crate) len: usize,
    /// The field's raw value (a JSON string, or any value) in the record.
    pub(crate) span: Range<usize>,
    /// Whether the field is a string with an escape.
    pub(crate) escaped: bool,
    /// The id's raw value in the record, when the shape has one.
    pub(crate) id: Option<Range<usize>>,
}

impl Shape {
    /// The shape of `line` (one line, UTF-8: its only line feed is its last byte) for the
    /// field `name` and the id `id` (top-level members), when the scanner reads it;
    /// `spans` is a buffer.
    pub(crate) fn learn(
        line: &[u8],
        name: &str,
        id: Option<&str>,
        spans: &mut Vec<Range<usize>>,
    ) -> Option<Shape> {
        (line.last() == Some(&b'\n')).then_some(())?;
        let field = scan::values(line, name, spans)?;
        // Only the literals are kept: a long record's values are not.
        let values: usize = spans.iter().map(ExactSizeIterator::len).sum();
        let mut bytes = Vec::with_capacity(line.len() - values);
        let mut ranges = Vec::with_capacity(spans.len() + 1);
        let mut at = 0;
        for span in spans
            .iter()
            .chain(std::iter::once(&(line.len()..line.len())))
        {
            let start = bytes.len();
            bytes.extend_from_slice(&line[at..span.start]);
            ranges.push(start..bytes.len());
            at = span.end;
        }
        let literals: Vec<Literal> = ranges
            .into_iter()
            .map(|range| Literal::new(&bytes, range))
            .collect();
        // The last member so named is the one read, as for the field.
        let id = id.and_then(|id| {
            let names = literals[..spans.len()]
                .iter()
                .map(|literal| name_of(&bytes[literal.range.clone()]));
            names
                .enumerate()
                .rev()
                .find(|(_, name)| *name == id.as_bytes())
                .map(|(i, _)| i)
        });
        Some(Shape {
            bytes,
            literals,
            field,
            id,
            kernel: Kernel::detect(),
        })
    }

    /// The record at the start of `rest` (UTF-8), when it has this shape.
    #[cfg(test)]
    pub(crate) fn read(&self, rest: &[u8]) -> Option<Read> {
        self.try_read(rest).ok()
    }

    /// The record at the start of `rest` (UTF-8), when it has this shape; else how far
    /// into `rest` it was compared before it turned out not to (the start of the literal
    /// or the value that differs).
    pub(crate) fn try_read(&self, rest: &[u8]) -> Result<Read, usize> {
        if self.id.is_some() {
            self.read_as::<true>(rest)
        } else {
            self.read_as::<false>(rest)
        }
    }

    /// [`Shape::try_read`], with the id noted on the way when `ID`: the values before
    /// the field are stepped over, then the field is read, then the values after it, so
    /// that the loops keep no more than their place.
    #[inline(always)]
    fn read_as<const ID: bool>(&self, rest: &[u8]) -> Result<Read, usize> {
        let Some((tail, before)) = self.literals.split_last() else {
            return Err(0);
        };
        let (ahead, behind) = before.split_at(self.field);
        let Some((field, behind)) = behind.split_first() else {
            return Err(0);
        };
        let mut at = 0;
        let mut id = None;
        for (i, literal) in ahead.iter().enumerate() {
            at = self.step::<ID>(rest, at, i, literal, &mut id)?;
        }
        at = self.literal(rest, at, field).ok_or(at)?;
        let (end, escaped) = self.value(rest, at).ok_or(at)?;
        let span = at..end;
        at = end;
        for (i, literal) in behind.iter().enumerate() {
            at = self.step::<ID>(rest, at, self.field + 1 + i, literal, &mut id)?;
        }
        let len = self.literal(rest, at, tail).ok_or(at)?;
        if ID && Some(self.field) == self.id {
            id = Some(span.clone());
        }
        Ok(Read {
            len,
            span,
            escaped,
            id,
        })
    }

    /// Steps over `literal` and the value `i` after it, from `at` in `rest`; notes the
    /// value in `id` when it is the id and `ID`.
    #[inline(always)]
    fn step<const ID: bool>(
        &self,
        rest: &[u8],
        at: usize,
        i: usize,
        literal: &Literal,
        id: &mut Option<Range<usize>>,
    ) -> Result<usize, usize> {
        let at = self.literal(rest, at, literal).ok_or(at)?;
        let (end, _) = self.value(rest, at).ok_or(at)?;
        if ID && Some(i) == self.id {
            *id = Some(at..end);
        }
        Ok(end)
    }

    /// The end of the value at `at` in `rest`, and whether it is a string with an escape,
    /// as [`scan::value_at`] reads it. The usual values, a string and an integer, are
    /// read here as [`scan::quick_value_at`] reads them; the others by [`other_value`],
    /// out of the loop's way.
    #[inline(always)]
    fn value(&self, rest: &[u8], at: usize) -> Option<(usize, bool)> {
        match rest.get(at) {
            Some(b'"') => scan::quick_string_at(self.kernel, rest, at),
            Some(b'1'..=b'9') => scan::quick_integer_at(rest, at),
            _ => other_value(self.kernel, rest, at),
        }
    }

    /// Where `literal` ends in `rest` when it is there at `at`: by its words when `rest`
    /// has eight bytes there (nearly always: `rest` is the rest of a chunk), the bytes
    /// between them, if any, as [`same`] compares them; else byte by byte.
    #[inline(always)]
    fn literal(&self, rest: &[u8], at: usize, literal: &Literal) -> Option<usize> {
        let len = literal.range.len();
        let Some(window) = rest.get(at..at + len.max(8)) else {
            return self.short_literal(rest, at, literal);
        };
        if (word(window) ^ literal.head) & literal.mask != 0 {
            return None;
        }
        if len > 8 {
            if word(&window[len - 8..]) != literal.last {
                return None;
            }
            let middle = literal.range.start + 8..literal.range.end - 8;
            if len > 16 && !same(&window[8..len - 8], &self.bytes[middle]) {
                return None;
            }
        }
        Some(at + len)
    }

    /// [`Shape::literal`] where `rest` ends within eight bytes of `at`: byte by byte.
    #[cold]
    #[inline(never)]
    fn short_literal(&self, rest: &[u8], at: usize, literal: &Literal) -> Option<usize> {
        let len = literal.range.len();
        let want = &self.bytes[literal.range.clone()];
        same(rest.get(at..at + len)?, want).then_some(at + len)
    }
}

/// A value that is not a string or an integer, as [`Shape::value`] reads it: not from
/// white space (which may hold a line feed, and would be taken into the value's span); an
/// object or an array, which may hold a line feed as white space, within its line (which
/// it cannot end: a value ends with a bracket).
#[inline(never)]
fn other_value(kernel: Kernel, rest: &[u8], at: usize) -> Option<(usize, bool)> {
    match rest.get(at)? {
        b'-' | b'0' | b't' | b'f' | b'n' => scan::quick_value_at(kernel, rest, at),
        b'{' | b'[' => memchr::memchr(b'\n', &rest[at..])
            .and_then(|end| scan::value_at(&rest[..at + end + 1], at)),
        _ => None,
    }
}

/// The member name at the end of `literal` (the bytes before a value: `"name"`, white
/// space, a colon, white space), which holds no escape (the scanner read it).
fn name_of(literal: &[u8]) -> &[u8] {
    let end = literal.iter().rposition(|&b| b == b'"').unwrap_or(0);
    let start = literal[..end]
        .iter()
        .rposition(|&b| b == b'"')
        .map_or(end, |i| i + 1);
    &literal[start..end]
}

/// Whether `a` and `b` are the same, eight bytes at a time: the literals are short,
/// where a call of `memcmp` costs more than the comparison.
fn same(a: &[u8], b: &[u8]) -> bool {
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
    let mut x = a.chunks_exact(8);
    let mut y = b.chunks_exact(8);
    a.len() == b.len()
        && (&mut x).zip(&mut y).all(|(x, y)| word(x) == word(y))
        && x.remainder().iter().zip(y.remainder()).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn learn(line: &str, name: &str) -> Option<Shape> {
        Shape::learn(line.as_bytes(), name, Some("id"), &mut Vec::new())
    }

    #[test]
    fn records_of_the_shape_are_read_with_their_field() {
        let shape = learn("{\"id\": 7, \"text\": \"a b\"}\n", "text").unwrap();
        let rest = b"{\"id\": 1234, \"text\": \"x.org \\u00e9\"}\n{\"id\": 8}\n";
        let read = shape.read(rest).unwrap();
        assert_eq!(read.len, 37);
        assert_eq!(&rest[read.span.clone()], br#""x.org \u00e9""#);
        assert!(read.escaped);
        assert_eq!(&rest[read.id.clone().unwrap()], b"1234");
        assert_eq!(shape.read(&rest[read.len..]), None);
        // Without an id in the shape, none is read.
        let shape = learn("{\"text\": \"a b\"}\n", "text").unwrap();
        assert_eq!(shape.read(b"{\"text\": \"c\"}\n").unwrap().id, None);
    }

    #[test]
    fn other_shapes_are_not_read() {
        let shape = learn("{\"id\": 7, \"text\": \"a\"}\n", "text").unwrap();
        for other in [
            "{\"id\": 7, \"text\": \"a\"}",
            "{\"id\": 7, \"text\": \"a\"}\r\n",
            "{\"id\":7, \"text\": \"a\"}\n",
            "{\"id\": 7, \"txt\": \"a\"}\n",
            "{\"id\": [7,\n8], \"text\": \"a\"}\n",
            "{\"id\": {\n}, \"text\": \"a\"}\n",
            "{\"id\":  7, \"text\": \"a\"}\n",
            "{\"id\": \n[7], \"text\": \"a\"}\n",
            "{\"id\": 7, \"text\": \"a\n\"}\n",
            "{\"id\": 07, \"text\": \"a\"}\n",
            "{\"id\": 7, \"text\": \"a\\x\"}\n",
            "{\"id\": 7, \"text\": \"a\"} x\n",
        ] {
            assert_eq!(shape.read(other.as_bytes()), None, "{other:?}");
        }
        // An object or an array left open on its line is not read, however the lines
        // after it would close it.
        let mut open = b"{\"id\": [1,\n".to_vec();
        open.extend(b"1,\n".repeat(100));
        open.extend(b"1], \"text\": \"a\"}\n");
        assert_eq!(shape.read(&open), None);
        // Objects and arrays on one line are read.
        for nested in [
            "{\"id\": [7, {}], \"text\": \"a\"}\n",
            "{\"id\": {}, \"text\": \"a\"}\n",
        ] {
            assert_eq!(shape.read(nested.as_bytes()).unwrap().len, nested.len());
        }
        // A line without its line feed, or one the scanner leaves to `serde_json`, has no
        // shape.
        assert!(learn("{\"text\": \"a\"}", "text").is_none());
        assert!(learn("{\"te\\u0078t\": \"a\"}\n", "text").is_none());
        assert!(learn("{\"id\": 1}\n", "text").is_none());
    }

    #[test]
    fn literals_are_compared_whole() {
        for (a, b) in [
            ("", ""),
            ("abcdefgh", "abcdefgh"),
            ("abcdefghij", "abcdefghij"),
        ] {
            assert!(same(a.as_bytes(), b.as_bytes()));
        }
        for (a, b) in [
            ("a", ""),
            ("abcdefgh", "abcdefgx"),
            ("abcdefghij", "abcdefghix"),
        ] {
            assert!(!same(a.as_bytes(), b.as_bytes()), "{a:?} {b:?}");
        }
    }

    /// A literal of every length (one word, two, more) is found where its bytes are, and
    /// not where any one of them differs or the bytes end before it, whether the rest has
    /// eight bytes after it (read as words) or not (read a byte at a time).
    #[test]
    fn a_literal_is_found_where_its_bytes_are() {
        for len in 0..40 {
            let want: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let shape = Shape {
                bytes: want.clone(),
                literals: Vec::new(),
                field: 0,
                id: None,
                kernel: Kernel::detect(),
            };
            let literal = Literal::new(&want, 0..len);
            for pad in [0, 3, 8, 20] {
                for spoil in std::iter::once(None).chain((0..len).map(Some)) {
                    let mut rest = b"xy".to_vec();
                    rest.extend_from_slice(&want);
                    rest.extend(std::iter::repeat_n(b'z', pad));
                    if let Some(i) = spoil {
                        rest[2 + i] ^= 0x20;
                    }
                    let want_end = spoil.is_none().then_some(2 + len);
                    let got = shape.literal(&rest, 2, &literal);
                    assert_eq!(got, want_end, "len {len}, pad {pad}, spoiled at {spoil:?}");
                }
            }
            if len > 0 {
                let mut short = b"xy".to_vec();
                short.extend_from_slice(&want[..len - 1]);
                assert_eq!(shape.literal(&short, 2, &literal), None, "len {len}");
            }
        }
    }

    #[test]
    fn a_repeated_name_is_read_as_its_last_value() {
        let shape = learn("{\"text\": 1, \"text\": \"b\", \"n\": null}\n", "text").unwrap();
        let rest = b"{\"text\": 2.5e3, \"text\": \"c.org\", \"n\": null}\n";
        let read = shape.read(rest).unwrap();
        assert_eq!(&rest[read.span], br#""c.org""#);
        let shape = learn("{\"id\": 1, \"text\": \"b\", \"id\" : \"x\"}\n", "text").unwrap();
        let rest = b"{\"id\": 2, \"text\": \"c\", \"id\" : \"y\"}\n";
        assert_eq!(&rest[shape.read(rest).unwrap().id.unwrap()], br#""y""#);
    }

    /// A line: a few members of the shapes records have, some of them varied.
    fn line() -> impl Strategy<Value = String> {
        let value = prop_oneof![
            "[0-9]{1,5}",
            "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,2})?([eE][+-]?[0-9]{1,2})?",
            "0[0-9]",
            "\"([a-z. @/é]|\\\\[\"nu]|\\\\u00e9|\n)*\"",
            "true|false|null|nul",
            "\\[[0-9, ]{0,4}\\]|\\{\\}",
        ];
        // Names of every length of literal: up to eight bytes, up to 16, and longer.
        let name = prop_oneof!["id", "text", "n", "a_name_of_some_length"];
        let member = (name, " ?", value);
        (prop::collection::vec(member, 0..4), " ?", "\n|\r\n|").prop_map(|(members, space, end)| {
            let members: Vec<String> = members
                .iter()
                .map(|(name, space, value)| format!("\"{name}\":{space}{value}"))
                .collect();
            format!("{{{}}}{space}{end}", members.join(", "))
        })
    }

    proptest! {
        #[test]
        fn a_shape_reads_what_the_scanner_reads(first in line(), next in line(), after in line()) {
            let names = ["text".to_owned()];
            let ids = ["id".to_owned()];
            if let Some(shape) = learn(&first, "text") {
                let rest = format!("{next}{after}");
                if let Some(read) = shape.read(rest.as_bytes()) {
                    // The record is the line, and the scanner finds the same field in it,
                    // and the same id when the shape has one.
                    prop_assert_eq!(read.len, next.len());
                    let found = scan::find(next.as_bytes(), &names, true).unwrap();
                    prop_assert_eq!(&found.span, &read.span);
                    prop_assert_eq!(found.escaped, read.escaped);
                    if shape.id.is_some() {
                        let id = scan::find(next.as_bytes(), &ids, true).map(|id| id.span);
                        prop_assert_eq!(&read.id, &id);
                    } else {
                        prop_assert_eq!(&read.id, &None);
                    }
                    // Without the id, the same record.
                    let bare = Shape::learn(first.as_bytes(), "text", None, &mut Vec::new());
                    let bare = bare.unwrap().read(rest.as_bytes()).unwrap();
                    prop_assert_eq!(bare, Read { id: None, ..read });
                }
            }
            // The shape of a line reads that line.
            if let Some(shape) = learn(&next, "text") {
                prop_assert_eq!(shape.read(next.as_bytes()).unwrap().len, next.len());
            }
        }
    }
}
