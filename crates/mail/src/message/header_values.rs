//! The values of the commonest header fields the scan reads, in their commonest forms,
//! parsed without `mail-parser`'s byte loop, whose stream iterator costs some two thousand
//! instructions for a `Message-ID` or a `Content-Type`; any other form goes to the parser.
//!
//! # Algorithm
//!
//! A value ends at the first line break (`\n`) that no space or tab follows (the parser's
//! rule: such a line starts a continuation).
//!
//! * [`id`] (`Message-ID`, `Content-ID`), on one line: spaces and tabs, `<`, an id with no
//!   white space, `<` or `>` in it, `>`, then spaces, tabs and CRs. The parser's value is
//!   the id, as text (`String::from_utf8_lossy`).
//! * [`unstructured`] (`Subject`, `Content-Transfer-Encoding`, …), on one line: no `=?`
//!   (the start of an RFC 2047 encoded word). The parser's value is the line without the
//!   spaces, tabs and CRs at its ends, or empty when nothing else is left.
//! * [`content_type`] (`Content-Type`, `Content-Disposition`): `type`, `/subtype` or not,
//!   then parameters, each `;` then `name=value` or `name="quoted value"`, with spaces and
//!   tabs around the tokens and folded lines after a `;` (the usual `multipart/mixed;` then
//!   `boundary=…` on the next line). Names are tokens without the bytes the parser gives a
//!   meaning (`/ ; = " \ ( ) * '` and white space), lowered in case as the parser lowers
//!   them; values are taken as they stand. Comments, escapes, RFC 2231 continuations and
//!   encodings (`*`), encoded words (`=?`), empty values and folds elsewhere go to the
//!   parser.
//!
//! Anything else (a folded value, several ids, a value without a line break) is `None`,
//! and the caller runs the parser.
//!
//! # Invariants
//!
//! Where a function returns a value, it is the parser's value for the same bytes, and the
//! stream is left where the parser leaves it: just past the line break. The tests below
//! compare both on values built from every byte the parsers treat specially, in every
//! arrangement up to a length (and at random for `Content-Type`); the header loop's tests
//! compare whole header blocks.

use std::borrow::Cow;

use mail_parser::parsers::MessageStream;
use mail_parser::{Attribute, ContentType, HeaderValue};

/// The value at the stream's position, when it is one line: the line (without its `\n`)
/// and the length to skip past its `\n`.
fn line<'x>(stream: &MessageStream<'x>) -> Option<(&'x [u8], usize)> {
    let rest = stream.bytes(stream.offset()..stream.len());
    let end = memchr::memchr(b'\n', rest)?;
    if matches!(rest.get(end + 1), Some(b' ' | b'\t')) {
        return None;
    }
    Some((&rest[..end], end + 1))
}

/// The parser's `parse_id` for a value of one id on one line; `None` for any other.
pub(super) fn id<'x>(stream: &mut MessageStream<'x>) -> Option<HeaderValue<'x>> {
    let (line, skip) = line(stream)?;
    let open = line.iter().position(|&b| !matches!(b, b' ' | b'\t'))?;
    if line[open] != b'<' {
        return None;
    }
    let start = open + 1;
    let len = line[start..]
        .iter()
        .position(|&b| matches!(b, b'<' | b'>' | b' ' | b'\t' | b'\r'))?;
    if len == 0
        || line[start + len] != b'>'
        || !line[start + len + 1..]
            .iter()
            .all(|&b| matches!(b, b' ' | b'\t' | b'\r'))
    {
        return None;
    }
    let id = &line[start..start + len];
    stream.skip_bytes(skip);
    Some(HeaderValue::Text(text(id)))
}

/// The parser's `parse_unstructured` for a value on one line without an encoded word;
/// `None` for any other.
pub(super) fn unstructured<'x>(stream: &mut MessageStream<'x>) -> Option<HeaderValue<'x>> {
    let (line, skip) = line(stream)?;
    if encoded_word(line) {
        return None;
    }
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let value = match line.iter().position(|b| !blank(b)) {
        Some(first) => {
            let last = line.iter().rposition(|b| !blank(b)).unwrap_or(first);
            HeaderValue::Text(text(&line[first..=last]))
        }
        None => HeaderValue::Empty,
    };
    stream.skip_bytes(skip);
    Some(value)
}

/// The parser's `parse_content_type` for a value of the forms above; `None` for any other.
pub(super) fn content_type<'x>(stream: &mut MessageStream<'x>) -> Option<HeaderValue<'x>> {
    let rest = stream.bytes(stream.offset()..stream.len());
    let (c_type, mut i) = name(rest, blanks(rest, 0))?;
    let mut c_subtype = None;
    if rest.get(i) == Some(&b'/') {
        let (subtype, end) = name(rest, i + 1)?;
        c_subtype = Some(subtype);
        i = end;
    }
    let mut attributes = Vec::new();
    loop {
        i = blanks(rest, i);
        if rest.get(i) != Some(&b';') {
            break;
        }
        // Blanks and folded lines after the `;`.
        i += 1;
        loop {
            i = blanks(rest, i);
            let lf = i + usize::from(rest.get(i) == Some(&b'\r'));
            if rest.get(lf) == Some(&b'\n') && matches!(rest.get(lf + 1), Some(b' ' | b'\t')) {
                i = lf + 2;
            } else {
                break;
            }
        }
        if line_end(rest, i).is_some() {
            break;
        }
        let (attribute, end) = name(rest, i)?;
        if rest.get(end) != Some(&b'=') {
            return None;
        }
        let (value, end) = if rest.get(end + 1) == Some(&b'"') {
            let from = end + 2;
            let len = rest[from..]
                .iter()
                .position(|&b| matches!(b, b'"' | b'\\' | b'\r' | b'\n'))?;
            if rest[from + len] != b'"' {
                return None;
            }
            (&rest[from..from + len], from + len + 1)
        } else {
            let from = end + 1;
            let len = rest[from..]
                .iter()
                .position(|&b| {
                    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b';' | b'"' | b'\\' | b'(')
                })
                .unwrap_or(rest.len() - from);
            (&rest[from..from + len], from + len)
        };
        if value.is_empty() || encoded_word(value) {
            return None;
        }
        attributes.push(Attribute {
            name: attribute,
            value: text(value),
        });
        i = end;
    }
    let skip = line_end(rest, i)?;
    stream.skip_bytes(skip);
    Some(HeaderValue::ContentType(ContentType {
        c_type,
        c_subtype,
        attributes: (!attributes.is_empty()).then_some(attributes),
    }))
}

/// `bytes` as text, as the parser makes it (`String::from_utf8_lossy`), with the check of
/// valid UTF-8 first: the lossy conversion's own loop costs some two hundred
/// instructions even for a short ASCII name.
fn text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Whether `bytes` holds `=?`, where the parser tries an RFC 2047 encoded word.
fn encoded_word(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'=', bytes).any(|i| bytes.get(i + 1) == Some(&b'?'))
}

/// Past the spaces and tabs at `i`.
fn blanks(rest: &[u8], mut i: usize) -> usize {
    while matches!(rest.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// Where the value ends when it ends at `i` (a CR or not, then a line break that no space
/// or tab follows): just past the line break.
fn line_end(rest: &[u8], i: usize) -> Option<usize> {
    let lf = i + usize::from(rest.get(i) == Some(&b'\r'));
    (rest.get(lf) == Some(&b'\n') && !matches!(rest.get(lf + 1), Some(b' ' | b'\t')))
        .then_some(lf + 1)
}

/// A type, subtype or parameter name at `i`, lowered in case as the parser lowers it, and
/// where it ends; `None` when it is empty.
fn name(rest: &[u8], i: usize) -> Option<(Cow<'_, str>, usize)> {
    let len = rest[i.min(rest.len())..]
        .iter()
        .position(|&b| {
            matches!(
                b,
                b' ' | b'\t'
                    | b'\r'
                    | b'\n'
                    | b'/'
                    | b';'
                    | b'='
                    | b'"'
                    | b'\\'
                    | b'('
                    | b')'
                    | b'*'
                    | b'\''
            )
        })
        .unwrap_or(rest.len().saturating_sub(i));
    if len == 0 {
        return None;
    }
    let token = &rest[i..i + len];
    let mut name = text(token);
    if token.iter().any(u8::is_ascii_uppercase) {
        name.to_mut().make_ascii_lowercase();
    }
    Some((name, i + len))
}

#[cfg(test)]
mod tests {
    use super::*;

    type Parse = for<'x> fn(&mut MessageStream<'x>) -> HeaderValue<'x>;
    type Fast = for<'x> fn(&mut MessageStream<'x>) -> Option<HeaderValue<'x>>;

    /// The endings put after a value: a line break and a next field, folded lines, or
    /// nothing.
    const TAILS: [&[u8]; 5] = [b"", b"\n", b"\r\nX: y\r\n", b"\n\tmore\nX: y\n", b"\n \n"];

    /// `value` after a field's colon, followed by each of `tails`: where the fast function
    /// answers, it agrees with the parser on the value and on where the stream stops, and
    /// where it refuses, it leaves the stream where it was. Returns how many of the
    /// endings it answered.
    fn compare(value: &[u8], tails: &[&[u8]], fast: Fast, parse: Parse) -> usize {
        let mut answered = 0;
        for tail in tails {
            let mut input = b":".to_vec();
            input.extend_from_slice(value);
            input.extend_from_slice(tail);
            let mut theirs = MessageStream::new(&input);
            theirs.skip_bytes(1);
            let want = parse(&mut theirs);
            let mut ours = MessageStream::new(&input);
            ours.skip_bytes(1);
            if let Some(got) = fast(&mut ours) {
                let what = String::from_utf8_lossy(&input);
                assert_eq!(got, want, "{what:?}");
                assert_eq!(ours.offset(), theirs.offset(), "{what:?}");
                answered += 1;
            } else {
                assert_eq!(ours.offset(), 1, "a refusal leaves the stream where it was");
            }
        }
        answered
    }

    /// Every value of up to `max` pieces of `alphabet`, after a space, [`compare`]d with
    /// the parser. Returns how many the fast function answered.
    fn agree(alphabet: &[&[u8]], max: usize, fast: Fast, parse: Parse) -> usize {
        let mut answered = 0;
        let mut values: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..max {
            let longer: Vec<Vec<u8>> = values
                .iter()
                .flat_map(|v| {
                    alphabet.iter().map(move |piece| {
                        let mut v = v.clone();
                        v.extend_from_slice(piece);
                        v
                    })
                })
                .collect();
            values.extend(longer.iter().cloned());
            values.sort();
            values.dedup();
        }
        for value in &values {
            let mut spaced = b" ".to_vec();
            spaced.extend_from_slice(value);
            answered += compare(&spaced, &TAILS, fast, parse);
        }
        answered
    }

    #[test]
    fn ids_agree_with_the_parser() {
        let alphabet: &[&[u8]] = &[
            b"<",
            b">",
            b" ",
            b"\t",
            b"\r",
            b"a@b",
            b"=?",
            b"\xC3\xA9",
            b"\xFF",
            b"\n",
        ];
        let answered = agree(alphabet, 5, id, |s| s.parse_id());
        assert!(answered > 500, "{answered}");
        // The common form, answered.
        let mut s = MessageStream::new(b" <20210524.1@example.org>\r\nSubject: x\r\n");
        assert_eq!(
            id(&mut s),
            Some(HeaderValue::Text("20210524.1@example.org".into()))
        );
        assert_eq!(s.offset(), 27);
    }

    #[test]
    fn unstructured_values_agree_with_the_parser() {
        let alphabet: &[&[u8]] = &[
            b" ",
            b"\t",
            b"\r",
            b"a",
            b"b c",
            b"=",
            b"?",
            b"=?utf-8?q?x?=",
            b"\xE2\x82\xAC",
            b"\xC3",
            b"\n",
        ];
        let answered = agree(alphabet, 4, unstructured, |s| s.parse_unstructured());
        assert!(answered > 1000, "{answered}");
        let mut s = MessageStream::new(b"  Re: see example.com \r\nX: y\r\n");
        assert_eq!(
            unstructured(&mut s),
            Some(HeaderValue::Text("Re: see example.com".into()))
        );
        assert_eq!(s.offset(), 24);
    }

    /// Random values of up to ten pieces: names and values, every byte the parser gives a
    /// meaning, folds, case, bytes that are not UTF-8.
    #[test]
    fn content_types_agree_with_the_parser() {
        let pieces: &[&[u8]] = &[
            b"text",
            b"TeXt",
            b"/",
            b"plain",
            b"HTML",
            b";",
            b" ",
            b"\t",
            b"charset",
            b"=",
            b"UTF-8",
            b"\"",
            b"a b",
            b"\r",
            b"\n",
            b"\r\n\t",
            b"\n ",
            b"(c)",
            b"(",
            b")",
            b"\\",
            b"*",
            b"'",
            b"=?",
            b"=_Part",
            b"\xC3\xA9",
            b"\xFF",
            b"boundary",
            b"--",
        ];
        let mut state = 0x853C_49E6_748F_EA9Bu64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 33) as usize % n
        };
        let check =
            |value: &[u8]| compare(value, &TAILS[..4], content_type, |s| s.parse_content_type());
        let mut answered = 0;
        for value in [
            &b" text/plain; charset=\"utf-8\""[..],
            b" multipart/alternative;\r\n\tboundary=\"----=_Part_1_2.3\"",
            b" Multipart/Mixed; Boundary=----=_NextPart_000 ; x=\"a b;c\" ;",
            b" text/plain; format=flowed; delsp=yes",
            b" attachment; filename=\"r\xC3\xA9sum\xC3\xA9.pdf\"",
            b" text/html",
        ] {
            answered += check(value);
        }
        assert_eq!(
            answered,
            6 * 2,
            "the usual forms are answered (with a line break after)"
        );
        for _ in 0..100_000 {
            let value: Vec<u8> = (0..1 + next(10))
                .flat_map(|_| pieces[next(pieces.len())].iter().copied())
                .collect();
            answered += check(&value);
            // And a well-formed start, so that parameters are reached.
            let mut value2 = b" text/plain;".to_vec();
            value2.extend_from_slice(&value);
            answered += check(&value2);
        }
        assert!(answered > 5_000, "{answered}");
    }
}
