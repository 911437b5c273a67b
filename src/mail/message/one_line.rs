//! The values of the commonest header fields the scan reads, in their commonest form — one
//! line, nothing the parser would decode — parsed without `mail-parser`'s byte loop, whose
//! stream iterator costs some two thousand instructions for a `Message-ID`; any other
//! form goes to the parser.
//!
//! # Algorithm
//!
//! A value ends at the first line break (`\n`) that no space or tab follows (the parser's
//! rule: such a line starts a continuation). When the value is one line:
//!
//! * [`id`] (`Message-ID`, `Content-ID`): spaces and tabs, `<`, an id with no white space,
//!   `<` or `>` in it, `>`, then spaces, tabs and CRs. The parser's value is the id, as
//!   text (`String::from_utf8_lossy`).
//! * [`unstructured`] (`Subject`, `Content-Transfer-Encoding`, …): no `=?` (the start of
//!   an RFC 2047 encoded word). The parser's value is the line without the spaces, tabs
//!   and CRs at its ends, or empty when nothing else is left.
//!
//! Anything else (a folded value, several ids, an encoded word, a value without a line
//! break) is `None`, and the caller runs the parser.
//!
//! # Invariants
//!
//! Where a function returns a value, it is the parser's value for the same bytes, and the
//! stream is left where the parser leaves it: just past the line break. The tests below
//! compare both on values built from every byte the parsers treat specially, in every
//! arrangement up to a length; the header loop's tests compare whole header blocks.

use mail_parser::parsers::MessageStream;
use mail_parser::HeaderValue;

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
    Some(HeaderValue::Text(String::from_utf8_lossy(id)))
}

/// The parser's `parse_unstructured` for a value on one line without an encoded word;
/// `None` for any other.
pub(super) fn unstructured<'x>(stream: &mut MessageStream<'x>) -> Option<HeaderValue<'x>> {
    let (line, skip) = line(stream)?;
    if memchr::memmem::find(line, b"=?").is_some() {
        return None;
    }
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let value = match line.iter().position(|b| !blank(b)) {
        Some(first) => {
            let last = line.iter().rposition(|b| !blank(b)).unwrap_or(first);
            HeaderValue::Text(String::from_utf8_lossy(&line[first..=last]))
        }
        None => HeaderValue::Empty,
    };
    stream.skip_bytes(skip);
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Parse = for<'x> fn(&mut MessageStream<'x>) -> HeaderValue<'x>;
    type Fast = for<'x> fn(&mut MessageStream<'x>) -> Option<HeaderValue<'x>>;

    /// Every value of up to `max` bytes over `alphabet`, each followed by a line break
    /// and a next field (or by the end): the fast function, where it answers, agrees
    /// with the parser on the value and on where the stream stops. Returns how many it
    /// answered.
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
            for tail in [
                &b""[..],
                b"\n",
                b"\r\nX: y\r\n",
                b"\n\tmore\nX: y\n",
                b"\n \n",
            ] {
                let mut input = b": ".to_vec();
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
}
