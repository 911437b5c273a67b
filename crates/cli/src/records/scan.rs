//! The fast path of a JSON Lines record: the raw value at a dotted path of one line, found
//! by a hand-written scanner that says yes only to lines `serde_json` accepts, and the
//! text of a string value, borrowed from the line when it has no escape.
//!
//! # Algorithm
//!
//! [`field`] reads the line's top-level object member by member. A member's name is a
//! string without escapes (found with `memchr2` of `"` and `\`); its value is skipped by
//! [`Cursor::value`]: strings jump from one `"` or `\` to the next with `memchr2` (the
//! bytes between are checked for control characters a vector at a time), objects and
//! arrays are walked with a stack of open brackets (one bit each), numbers and literals
//! are read byte by byte. The value of the last member with the wanted name is kept (its
//! raw span); when the path has more names, that value, an object, is read the same way
//! for the next name. [`text`] decodes a string value: borrowed when it has no `\`,
//! otherwise its escapes decoded into a new string.
//!
//! # Invariants
//!
//! - `None` means "not sure", never "malformed": the caller then asks the `serde_json`
//!   path (`super::jsonl`), which gives the same answer for every line this scanner
//!   accepts and its own message for the others (malformed, missing, not a string). So a
//!   line's result never depends on which path read it.
//! - What is checked here, exactly as `serde_json`'s `from_slice` does with the visitor
//!   that skips unwanted members (`ignore_value`): the structure of the top-level object
//!   and of each object on the path (white space is space, tab, line feed, carriage
//!   return; commas, colons, no trailing comma, nothing but white space after the
//!   object); in every string, the escapes (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
//!   `\u` and four hex digits, a lone surrogate allowed as `serde_json` allows it in a
//!   skipped string) and no control character below U+0020; numbers (`-`, no leading
//!   zero but a lone `0`, digits after `.`, digits after `e`/`E` and its sign) and the
//!   literals `true`, `false`, `null`; the nesting of skipped objects and arrays; UTF-8
//!   of each top-level value with the wanted name (as `serde_json`'s raw value checks it)
//!   and of each member name on the path. Bytes of skipped values are not checked for
//!   UTF-8, as `serde_json` does not check them.
//! - Left to `serde_json` (`None`): a member name with an escape, a byte order mark,
//!   nesting deeper than [`MAX_DEPTH`], a missing member, a value on the path that is not
//!   an object, a field that is not a string, a string whose escapes do not decode (a lone
//!   surrogate), and anything malformed.
//! - Duplicate names: the last member wins, at every level of the path, as in the
//!   `serde_json` visitor; every top-level value with the wanted name is still checked.

use std::borrow::Cow;
use std::ops::Range;

/// Skipped objects and arrays nested deeper than this are left to `serde_json`.
const MAX_DEPTH: u32 = 64;

/// The raw value at the dotted path `names` in the JSON object `line`, and its span in
/// `line`, when `serde_json` would find the same; `None` when not sure.
pub(crate) fn field<'a>(line: &'a [u8], names: &[String]) -> Option<(Range<usize>, &'a str)> {
    let (first, rest) = names.split_first()?;
    let span = member(line, 0..line.len(), first, true)?;
    // The top-level value must be UTF-8; objects within it are slices of it.
    let value = simdutf8::basic::from_utf8(&line[span.clone()]).ok()?;
    let base = span.start;
    let mut span = span;
    for name in rest {
        span = member(line, span, name, false)?;
    }
    Some((span.clone(), &value[span.start - base..span.end - base]))
}

/// The span of the value of the last member named `name` of the object that fills
/// `within` of `line` (white space around it allowed only for the whole line: `top`).
fn member(line: &[u8], within: Range<usize>, name: &str, top: bool) -> Option<Range<usize>> {
    let mut c = Cursor {
        bytes: &line[..within.end],
        at: within.start,
    };
    c.space();
    c.eat(b'{')?;
    c.space();
    let mut found = None;
    if c.peek()? == b'}' {
        c.at += 1;
    } else {
        loop {
            c.eat(b'"')?;
            let key = c.name()?;
            c.space();
            c.eat(b':')?;
            c.space();
            let start = c.at;
            c.value()?;
            if key == name.as_bytes() {
                // `serde_json` takes each such value raw, as UTF-8: the one before this
                // is checked now, the last by `field`.
                if let (true, Some(before)) = (top, found) {
                    simdutf8::basic::from_utf8(&line[before]).ok()?;
                }
                found = Some(start..c.at);
            }
            c.space();
            match c.next()? {
                b',' => c.space(),
                b'}' => break,
                _ => return None,
            }
        }
    }
    if top {
        c.space();
    }
    (c.at == within.end).then_some(())?;
    found
}

/// A position in the bytes of a line.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    /// Steps over `b`, or `None`.
    fn eat(&mut self, b: u8) -> Option<()> {
        (self.next()? == b).then_some(())
    }

    /// Steps over JSON white space.
    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// A member name after its `"`, up to its closing `"`: no escape, no control
    /// character, UTF-8.
    fn name(&mut self) -> Option<&'a [u8]> {
        let rest = &self.bytes[self.at..];
        let end = memchr::memchr2(b'"', b'\\', rest)?;
        let name = &rest[..end];
        let utf8 = name.is_ascii() || std::str::from_utf8(name).is_ok();
        if rest[end] != b'"' || has_control(name) || !utf8 {
            return None;
        }
        self.at += end + 1;
        Some(name)
    }

    /// The rest of a string after its `"`, up to its closing `"`.
    fn string(&mut self) -> Option<()> {
        loop {
            let rest = &self.bytes[self.at..];
            let end = memchr::memchr2(b'"', b'\\', rest)?;
            if has_control(&rest[..end]) {
                return None;
            }
            self.at += end + 1;
            if rest[end] == b'"' {
                return Some(());
            }
            match self.next()? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                b'u' => {
                    hex4(self.bytes.get(self.at..self.at + 4)?)?;
                    self.at += 4;
                }
                _ => return None,
            }
        }
    }

    /// A number from its first byte (`-` or a digit).
    fn number(&mut self) -> Option<()> {
        if self.peek()? == b'-' {
            self.at += 1;
        }
        match self.next()? {
            b'0' => {
                if let Some(b'0'..=b'9') = self.peek() {
                    return None;
                }
            }
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.one_or_more_digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            self.one_or_more_digits()?;
        }
        Some(())
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }

    fn one_or_more_digits(&mut self) -> Option<()> {
        let start = self.at;
        self.digits();
        (self.at > start).then_some(())
    }

    /// Steps over `word` (a literal).
    fn literal(&mut self, word: &[u8]) -> Option<()> {
        (self.bytes.get(self.at..self.at + word.len())? == word).then_some(())?;
        self.at += word.len();
        Some(())
    }

    /// A member's name and colon in a skipped object, from its `"`.
    fn skipped_name(&mut self) -> Option<()> {
        self.eat(b'"')?;
        self.string()?;
        self.space();
        self.eat(b':')
    }

    /// Steps over one value (at its first byte, white space before it allowed), checked
    /// as `serde_json` checks a value it skips.
    fn value(&mut self) -> Option<()> {
        // Bit i of `objects`: whether the bracket open at depth i + 1 is `{`.
        let mut objects: u64 = 0;
        let mut depth = 0;
        loop {
            // A value is expected.
            self.space();
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    self.string()?;
                }
                open @ (b'{' | b'[') => {
                    self.at += 1;
                    if depth == MAX_DEPTH {
                        return None;
                    }
                    let object = open == b'{';
                    objects = objects & !(1 << depth) | (u64::from(object) << depth);
                    depth += 1;
                    self.space();
                    let close = if object { b'}' } else { b']' };
                    if self.peek()? != close {
                        if object {
                            self.skipped_name()?;
                        }
                        continue;
                    }
                    self.at += 1;
                    depth -= 1;
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return None,
            }
            // After a value: close brackets, or a comma and the next value.
            loop {
                if depth == 0 {
                    return Some(());
                }
                let object = objects >> (depth - 1) & 1 == 1;
                self.space();
                match self.next()? {
                    b',' => {
                        if object {
                            self.space();
                            self.skipped_name()?;
                        }
                        break;
                    }
                    b'}' if object => depth -= 1,
                    b']' if !object => depth -= 1,
                    _ => return None,
                }
            }
        }
    }
}

/// The value of four hex digits.
fn hex4(digits: &[u8]) -> Option<u16> {
    digits.iter().try_fold(0u16, |n, &d| {
        let v = (d as char).to_digit(16)?;
        Some(n << 4 | v as u16)
    })
}

/// Whether `bytes` hold a control character (below U+0020), a block at a time so that
/// the compiler vectorises it.
fn has_control(bytes: &[u8]) -> bool {
    bytes
        .chunks(64)
        .any(|block| block.iter().fold(false, |any, &b| any | (b < 0x20)))
}

/// The text of the JSON string `raw` (its quotes included, as [`field`] found it):
/// borrowed when it has no escape, else decoded; `None` when an escape does not decode
/// to text (a lone surrogate), as `serde_json` refuses it.
pub(crate) fn text(raw: &str) -> Option<Cow<'_, str>> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    let Some(first) = memchr::memchr(b'\\', inner.as_bytes()) else {
        return Some(Cow::Borrowed(inner));
    };
    let mut decoded = String::with_capacity(inner.len());
    let scratch = &mut decoded;
    scratch.push_str(&inner[..first]);
    let mut rest = &inner[first..];
    // `rest` starts with `\` (all escapes are ASCII, so each cut is on a char boundary).
    loop {
        let bytes = rest.as_bytes();
        let used = match *bytes.get(1)? {
            b'"' => push(scratch, '"', 2),
            b'\\' => push(scratch, '\\', 2),
            b'/' => push(scratch, '/', 2),
            b'b' => push(scratch, '\x08', 2),
            b'f' => push(scratch, '\x0c', 2),
            b'n' => push(scratch, '\n', 2),
            b'r' => push(scratch, '\r', 2),
            b't' => push(scratch, '\t', 2),
            b'u' => {
                let n = u32::from(hex4(bytes.get(2..6)?)?);
                match n {
                    0xD800..=0xDBFF => {
                        // A leading surrogate: a trailing one must follow.
                        if bytes.get(6..8)? != b"\\u" {
                            return None;
                        }
                        let m = u32::from(hex4(bytes.get(8..12)?)?);
                        if !(0xDC00..=0xDFFF).contains(&m) {
                            return None;
                        }
                        let c = char::from_u32(0x10000 + ((n - 0xD800) << 10) + (m - 0xDC00))?;
                        push(scratch, c, 12)
                    }
                    0xDC00..=0xDFFF => return None,
                    _ => push(scratch, char::from_u32(n)?, 6),
                }
            }
            _ => return None,
        };
        rest = &rest[used..];
        match memchr::memchr(b'\\', rest.as_bytes()) {
            Some(i) => {
                scratch.push_str(&rest[..i]);
                rest = &rest[i..];
            }
            None => {
                scratch.push_str(rest);
                return Some(Cow::Owned(decoded));
            }
        }
    }
}

/// Pushes `c` to `to`; the escape was `used` bytes.
fn push(to: &mut String, c: char, used: usize) -> usize {
    to.push(c);
    used
}
