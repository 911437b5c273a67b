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
//! for the next name. [`text_bytes`] decodes a string value: borrowed when it has no
//! `\`, otherwise its escapes decoded into a new buffer ([`text`] as a `str`). [`values`]
//! gives the spans of all the top-level values of a line, from which
//! [`shape`](super::shape) learns a layout, and [`value_at`] checks one value as the walk
//! does; the shape's reading uses [`quick_value_at`], which finds a plain string's end
//! with the engine's vector kernel and reads an integer in place, and gives
//! [`value_at`]'s result for every value.
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

use linkscan::__private::Kernel;

/// Skipped objects and arrays nested deeper than this are left to `serde_json`.
const MAX_DEPTH: u32 = 64;

/// A value found at a path: its span in the line, its raw bytes (UTF-8), and, for a
/// string, whether it holds an escape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found<'a> {
    pub(crate) span: Range<usize>,
    pub(crate) raw: &'a [u8],
    pub(crate) escaped: bool,
}

/// The raw value at the dotted path `names` in the JSON object `line`, when `serde_json`
/// would find the same; `None` when not sure. `utf8` says that the whole line is known
/// to be UTF-8 (checked with its neighbours at once), so that no part of it is checked
/// again.
pub(crate) fn find<'a>(line: &'a [u8], names: &[String], utf8: bool) -> Option<Found<'a>> {
    let (first, rest) = names.split_first()?;
    let (mut span, mut escaped) = member(line, 0..line.len(), first, true, utf8, None)?;
    // The top-level value must be UTF-8; objects within it are slices of it.
    if !utf8 {
        simdutf8::basic::from_utf8(&line[span.clone()]).ok()?;
    }
    for name in rest {
        (span, escaped) = member(line, span, name, false, true, None)?;
    }
    Some(Found {
        raw: &line[span.clone()],
        span,
        escaped,
    })
}

/// [`find`] with the raw value as text.
pub(crate) fn field<'a>(line: &'a [u8], names: &[String]) -> Option<(Range<usize>, &'a str)> {
    let found = find(line, names, false)?;
    Some((found.span, std::str::from_utf8(found.raw).ok()?))
}

/// The span of the value of the last member named `name` of the object that fills
/// `within` of `line` (white space around it allowed only for the whole line: `top`),
/// and, for a string, whether it holds an escape.
///
/// The position is a local, and a [`Cursor`] is made only for each call that reads a
/// value: a cursor borrowed across the whole walk kept its position in memory, and the
/// walk of the names was a fifth of a run.
fn member(
    line: &[u8],
    within: Range<usize>,
    name: &str,
    top: bool,
    utf8: bool,
    mut spans: Option<&mut Vec<Range<usize>>>,
) -> Option<(Range<usize>, bool)> {
    let bytes = &line[..within.end];
    let mut at = space(bytes, within.start);
    (*bytes.get(at)? == b'{').then_some(())?;
    at = space(bytes, at + 1);
    let mut found = None;
    if *bytes.get(at)? == b'}' {
        at += 1;
    } else {
        loop {
            (*bytes.get(at)? == b'"').then_some(())?;
            at += 1;
            // The name: no escape, no control character, UTF-8.
            let start = at;
            loop {
                match *bytes.get(at)? {
                    b'"' => break,
                    b'\\' | 0..=0x1f => return None,
                    _ => at += 1,
                }
            }
            let key = &bytes[start..at];
            if !utf8 && !key.is_ascii() && std::str::from_utf8(key).is_err() {
                return None;
            }
            at = space(bytes, at + 1);
            (*bytes.get(at)? == b':').then_some(())?;
            at = space(bytes, at + 1);
            let start = at;
            let escaped;
            (at, escaped) = value_at(bytes, at)?;
            if let Some(spans) = spans.as_deref_mut() {
                spans.push(start..at);
            }
            if key == name.as_bytes() {
                // `serde_json` takes each such value raw, as UTF-8: the one before this
                // is checked now, the last by `find`.
                if let (true, false, Some((before, _))) = (top, utf8, found) {
                    simdutf8::basic::from_utf8(&line[before]).ok()?;
                }
                found = Some((start..at, escaped));
            }
            at = space(bytes, at);
            match *bytes.get(at)? {
                b',' => at = space(bytes, at + 1),
                b'}' => {
                    at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    if top {
        at = space(bytes, at);
    }
    (at == within.end).then_some(())?;
    found
}

/// The first byte of `bytes` from `at` on that is not JSON white space (or their end).
fn space(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(at) {
        at += 1;
    }
    at
}

/// The end of the value that starts at `at` of `bytes` (no white space before it),
/// checked as `serde_json` checks it, and for a string whether it holds an escape.
pub(crate) fn value_at(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut c = Cursor { bytes, at };
    let escaped = match *bytes.get(at)? {
        b'"' => {
            c.at += 1;
            c.string()?
        }
        // The usual number, digits alone, read here; any other by `number`.
        b'1'..=b'9' => {
            let digits = bytes[at..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            match bytes.get(at + digits) {
                Some(b'.' | b'e' | b'E') => c.number()?,
                _ => c.at = at + digits,
            }
            false
        }
        b'-' | b'0' => {
            c.number()?;
            false
        }
        _ => {
            c.value()?;
            false
        }
    };
    Some((c.at, escaped))
}

/// [`value_at`] made quick for the usual values of records, for the shapes' reading of
/// them: a string is read a run of plain text at a time (`kernel`'s
/// [`Kernel::string_run_end`]: the first `"`, `\` or control character) with its escapes
/// checked as `Cursor::string` checks them, an integer is read digit by digit; any other
/// value is left to [`value_at`], so the result is always that of [`value_at`].
#[inline]
pub(crate) fn quick_value_at(kernel: Kernel, bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    match bytes.get(at) {
        Some(b'"') => quick_string_at(kernel, bytes, at),
        Some(b'1'..=b'9') => quick_integer_at(bytes, at),
        _ => value_at(bytes, at),
    }
}

/// [`quick_value_at`] of the string that starts at `at` (its `"`): as `Cursor::string`
/// reads it, a run at a time.
#[inline(always)]
pub(crate) fn quick_string_at(kernel: Kernel, bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let (mut from, mut escaped) = (at + 1, false);
    loop {
        let end = kernel.string_run_end(bytes, from);
        match bytes.get(end)? {
            b'"' => return Some((end + 1, escaped)),
            b'\\' => escaped = true,
            _ => return None,
        }
        from = match bytes.get(end + 1)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => end + 2,
            b'u' => {
                hex4(bytes.get(end + 2..end + 6)?)?;
                end + 6
            }
            _ => return None,
        };
    }
}

/// [`quick_value_at`] of the number that starts at `at` with a digit from 1 to 9: its
/// digits read here, and a number with a fraction or an exponent by [`value_at`].
#[inline(always)]
pub(crate) fn quick_integer_at(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut p = at + 1;
    while let Some(b'0'..=b'9') = bytes.get(p) {
        p += 1;
    }
    match bytes.get(p) {
        Some(b'.' | b'e' | b'E') => value_at(bytes, at),
        _ => Some((p, false)),
    }
}

/// The spans of the top-level values of the JSON object `line` (UTF-8), in order, into
/// `spans`, and which of them is the field `name` (the last so named), when [`find`]
/// would find it.
pub(crate) fn values(line: &[u8], name: &str, spans: &mut Vec<Range<usize>>) -> Option<usize> {
    spans.clear();
    let (found, _) = member(line, 0..line.len(), name, true, true, Some(spans))?;
    spans.iter().position(|span| *span == found)
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

    /// The rest of a string after its `"`, up to its closing `"`; whether it has an
    /// escape.
    fn string(&mut self) -> Option<bool> {
        let mut escaped = false;
        loop {
            let end = special(&self.bytes[self.at..])?;
            let b = self.bytes[self.at + end];
            self.at += end + 1;
            match b {
                b'"' => return Some(escaped),
                b'\\' => escaped = true,
                _ => return None,
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

/// The bytes of a string's head read eight at a time before `memchr2` takes over: most
/// strings of records end within them, where a call costs more than the search.
const HEAD: usize = 64;

/// Where the first byte of `bytes` that ends a run of a string's plain text lies: `"`,
/// `\` or a control character (below U+0020), or a control character at least when one
/// comes before the first `"` or `\`; `None` when there is none.
fn special(bytes: &[u8]) -> Option<usize> {
    let head = &bytes[..bytes.len().min(HEAD)];
    let mut words = head.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let hits = special_bytes(word);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    if let Some(i) = words
        .remainder()
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
    {
        return Some(at + i);
    }
    let rest = &bytes[head.len()..];
    let end = memchr::memchr2(b'"', b'\\', rest);
    let plain = &rest[..end.unwrap_or(rest.len())];
    if has_control(plain) {
        return plain.iter().position(|&b| b < 0x20).map(|i| head.len() + i);
    }
    end.map(|i| head.len() + i)
}

/// The bytes of `word` (little-endian) that are `"`, `\` or below 0x20, as the high bit
/// of each, the lowest set bit exact: each test (`b - 1` of a zero byte, `b - 0x20` of a
/// small one) can mark a byte above one it rightly marked, through its borrow, never one
/// below, so no false mark lies below the first true one.
fn special_bytes(word: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let quote = zero(word ^ (ONES * u64::from(b'"')));
    let backslash = zero(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    (quote | backslash | control) & HIGH
}

/// The text of the string `found`, as bytes (UTF-8): borrowed from the line when it has
/// no escape, else decoded ([`text_bytes`]); `None` when it is not a string or does not
/// decode. The scanner found `found` in UTF-8 (checked with its chunk, or the value
/// alone), so it is not checked again.
pub(crate) fn string_text<'a>(found: &Found<'a>) -> Option<Cow<'a, [u8]>> {
    let inner = found.raw.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if !found.escaped {
        return Some(Cow::Borrowed(inner));
    }
    text_bytes(found.raw)
}

/// The text of the JSON string `raw` (its quotes included, as [`field`] found it):
/// borrowed when it has no escape, else decoded; `None` when an escape does not decode
/// to text (a lone surrogate), as `serde_json` refuses it.
pub(crate) fn text(raw: &str) -> Option<Cow<'_, str>> {
    Some(match text_bytes(raw.as_bytes())? {
        // The bytes between the quotes (cut on char boundaries: the quotes are ASCII).
        Cow::Borrowed(_) => Cow::Borrowed(&raw[1..raw.len() - 1]),
        // Runs of `raw` cut at escapes (ASCII) and the escapes' characters.
        Cow::Owned(bytes) => Cow::Owned(String::from_utf8(bytes).ok()?),
    })
}

/// [`text`] of a string's bytes: the runs between escapes are copied as they are, so the
/// text is UTF-8 when `raw` is.
pub(crate) fn text_bytes(raw: &[u8]) -> Option<Cow<'_, [u8]>> {
    let inner = raw.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if memchr::memchr(b'\\', inner).is_none() {
        return Some(Cow::Borrowed(inner));
    }
    let mut decoded = Vec::with_capacity(inner.len());
    decode_into(raw, &mut decoded).then_some(Cow::Owned(decoded))
}

/// Appends the text of the JSON string `raw` (its quotes included) to `out`, as
/// [`text_bytes`] gives it; whether it decodes (else `out` is as it was).
pub(crate) fn decode_into(raw: &[u8], out: &mut Vec<u8>) -> bool {
    let len = out.len();
    let decoded = decode(raw, out);
    if decoded.is_none() {
        out.truncate(len);
    }
    decoded.is_some()
}

/// [`decode_into`], which takes back what this appended when it fails.
fn decode(raw: &[u8], decoded: &mut Vec<u8>) -> Option<()> {
    let inner = raw.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let Some(first) = memchr::memchr(b'\\', inner) else {
        decoded.extend_from_slice(inner);
        return Some(());
    };
    decoded.extend_from_slice(&inner[..first]);
    let mut rest = &inner[first..];
    // `rest` starts with `\`.
    loop {
        let used = match *rest.get(1)? {
            b @ (b'"' | b'\\' | b'/') => push(decoded, b, 2),
            b'b' => push(decoded, b'\x08', 2),
            b'f' => push(decoded, b'\x0c', 2),
            b'n' => push(decoded, b'\n', 2),
            b'r' => push(decoded, b'\r', 2),
            b't' => push(decoded, b'\t', 2),
            b'u' => {
                let n = u32::from(hex4(rest.get(2..6)?)?);
                let (c, used) = match n {
                    0xD800..=0xDBFF => {
                        // A leading surrogate: a trailing one must follow.
                        if rest.get(6..8)? != b"\\u" {
                            return None;
                        }
                        let m = u32::from(hex4(rest.get(8..12)?)?);
                        if !(0xDC00..=0xDFFF).contains(&m) {
                            return None;
                        }
                        let c = char::from_u32(0x10000 + ((n - 0xD800) << 10) + (m - 0xDC00))?;
                        (c, 12)
                    }
                    0xDC00..=0xDFFF => return None,
                    _ => (char::from_u32(n)?, 6),
                };
                decoded.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                used
            }
            _ => return None,
        };
        rest = &rest[used..];
        match memchr::memchr(b'\\', rest) {
            Some(i) => {
                decoded.extend_from_slice(&rest[..i]);
                rest = &rest[i..];
            }
            None => {
                decoded.extend_from_slice(rest);
                return Some(());
            }
        }
    }
}

/// Pushes `b` to `to`; the escape was `used` bytes.
fn push(to: &mut Vec<u8>, b: u8, used: usize) -> usize {
    to.push(b);
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`special`], a byte at a time.
    fn special_by_bytes(bytes: &[u8]) -> Option<usize> {
        bytes
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
    }

    /// The quick reading of a value is [`value_at`]'s, with every kernel, at every start
    /// of strings whose run ends at every place around the vectors' widths (at a quote,
    /// an escape, a control character, the end of the bytes), after plain or non-ASCII
    /// text, and of numbers of every form.
    #[test]
    fn the_quick_reading_of_a_value_is_the_reading() {
        let mut texts: Vec<Vec<u8>> = Vec::new();
        let ends: [&[u8]; 15] = [
            b"\"",
            b"\\n\"",
            b"\\q\"",
            b"\n\"",
            b"\t",
            b"\x7f\"",
            b"",
            b"\\u00e9x\"",
            b"\\u12\"",
            b"\\u12",
            b"\\\"y\\\\\\/\"",
            b"\\ud800\"",
            b"\\",
            b"\\\"",
            b"\\\n\"",
        ];
        for len in 0..80 {
            for end in ends {
                for fill in ["x", "é"] {
                    let mut text = b"\"".to_vec();
                    text.extend(fill.repeat(len).bytes().take(len));
                    text.extend_from_slice(end);
                    text.extend_from_slice(b", 1}");
                    texts.push(text);
                }
            }
        }
        for number in [
            "0", "7", "12345", "-3", "01", "1.5", "1e3", "1E+3", "2.", "1x", "9 ",
        ] {
            texts.push(number.as_bytes().to_vec());
        }
        for kernel in Kernel::available() {
            for text in &texts {
                for at in 0..=text.len() {
                    assert_eq!(
                        quick_value_at(kernel, text, at),
                        value_at(text, at),
                        "{} at {at} of {:?}",
                        kernel.name(),
                        String::from_utf8_lossy(text)
                    );
                }
            }
        }
    }

    /// A string's text is appended as `serde_json` decodes it, or nothing when it does
    /// not decode; `text_bytes` gives the same. The strings are as the scanner passes them
    /// on: quoted, without a raw control character.
    #[test]
    fn a_string_is_decoded_onto_a_buffer_as_serde_json_decodes_it() {
        let strings: &[&[u8]] = &[
            br#""""#,
            br#""plain x.org""#,
            br#""\"quoted\" a\\b \/ \b\f\n\r\t""#,
            br#""\u00e9t\u00E9 \u6771 \ud83d\ude00 end""#,
            br#""\ud83d""#,
            br#""\ude00 x""#,
            br#""\ud83dx""#,
            br#""\ud83d\u0041""#,
            br#""\u12""#,
            br#""\uzzzz""#,
            br#""\q""#,
            br#""tail \""#,
            "\"été \\n 東京 x.org\"".as_bytes(),
        ];
        for raw in strings {
            let want = serde_json::from_slice::<String>(raw).ok();
            let mut out = b"before\n".to_vec();
            let decoded = decode_into(raw, &mut out);
            let text = String::from_utf8_lossy(raw);
            match &want {
                Some(want) => {
                    assert!(decoded, "{text}");
                    assert_eq!(&out[7..], want.as_bytes(), "{text}");
                }
                None => {
                    assert!(!decoded, "{text}");
                    assert_eq!(out, b"before\n", "{text}");
                }
            }
            let bytes = text_bytes(raw).map(|text| text.into_owned());
            assert_eq!(bytes, want.map(String::into_bytes), "{text}");
        }
    }

    #[test]
    fn the_first_special_byte_is_found_in_every_place() {
        // Each special byte, and the bytes whose tests borrow or sit next to them, at
        // every offset of the eight-byte words, the head and the rest.
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 100, 200] {
            for at in 0..len {
                for special_byte in [b'"', b'\\', 0, 0x1f, b'\n', b'\t'] {
                    for filler in [b'a', 0x20, 0x21, 0x5b, 0x5d, 0x80, 0xa0, 0xe0, 0xff] {
                        let mut bytes = vec![filler; len];
                        bytes[at] = special_byte;
                        // A later special byte must not be taken for the first.
                        if at + 1 < len {
                            bytes[len - 1] = b'"';
                        }
                        assert_eq!(special(&bytes), Some(at), "{bytes:?}");
                    }
                }
            }
            assert_eq!(special(&vec![b'a'; len]), None);
        }
    }

    proptest! {
        #[test]
        fn special_is_the_first_quote_backslash_or_control(
            bytes in proptest::collection::vec(prop_oneof![
                Just(b'"'), Just(b'\\'), 0u8..0x20, 0x20u8..=0xff, 0x20u8..=0xff, 0x20u8..=0xff,
            ], 0..160)
        ) {
            prop_assert_eq!(special(&bytes), special_by_bytes(&bytes));
        }
    }
}
