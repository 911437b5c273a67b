//! The fast path of [`MailScanner::scan`](super::MailScanner::scan) for the common message:
//! one text part, no MIME tree.
//!
//! # Algorithm
//!
//! Most mail is a single `text/plain` part (more than half of a typical list archive). For
//! such a message the general path pays for work that cannot matter: the linear pre-scan
//! that bounds how deeply the MIME parser would nest messages ([`super::nesting`]), and the
//! parser's general loop. Here the message is parsed with the parser's own pieces, in the
//! order its `parse` runs them for a top-level part:
//!
//! 1. the header block, with the scanner's parser configuration
//!    (`MessageStream::parse_headers`);
//! 2. if the Content-Type is absent or `text/*` (the parser's own test: `ctype()` equal
//!    to `text`), the body is decoded as that part's body: base64 by the parser's decoder,
//!    quoted-printable by [`quoted_printable`] (the parser's decoding, rewritten to copy
//!    runs of plain bytes at once instead of one byte at a time), anything else taken as
//!    it is;
//! 3. the bytes become text exactly as the parser makes them (its charset decoder when it
//!    has one for the label, else UTF-8 with U+FFFD for what is not).
//!
//! The result is the parser's `Message` value, which the general walk then reads: the
//! subject, the part paths and every warning come from the same code as on the general
//! path.
//!
//! Anything else — a multipart, a `message/*`, an `image/*` or `application/*` body, a
//! header block that never ends, a body the decoder reports as broken — returns `None`,
//! and the message takes the general path, nesting bound included. No nesting bound is
//! needed here: a leaf part is never parsed as a nested message.
//!
//! # Invariants
//!
//! When [`parse`] returns a message, it is the message `MessageParser::parse` returns for
//! the same bytes, as far as the walk reads it (headers, body, encoding problem flag,
//! offsets). `tests/pipeline.rs` checks the scan results of both paths on every message of
//! both corpora and on generated messages; the tests below check [`quoted_printable`]
//! against the parser's decoder.

use std::borrow::Cow;

use mail_parser::decoders::charsets::map::charset_decoder;
use mail_parser::parsers::MessageStream;
use mail_parser::{
    Encoding, GetHeader, HeaderName, HeaderValue, Message, MessageParser, MessagePart, MimeHeaders,
    PartType,
};

/// The parse of `raw` when it is one text part whose body decodes without a problem (see
/// the [module](self) documentation); `None` sends it the general way.
pub(crate) fn parse<'x>(parser: &MessageParser, raw: &'x [u8]) -> Option<Message<'x>> {
    // The parser keeps offsets as `u32`.
    u32::try_from(raw.len()).ok()?;
    let mut stream = MessageStream::new(raw);
    let mut headers = Vec::new();
    if !stream.parse_headers(parser, &mut headers) {
        return None;
    }
    let offset_body = stream.offset();
    let mut part = MessagePart {
        headers,
        is_encoding_problem: false,
        body: PartType::default(),
        encoding: Encoding::None,
        offset_header: 0,
        offset_body: offset_body as u32,
        offset_end: raw.len() as u32,
    };
    let (html, charset) = match part.content_type() {
        None => (false, None),
        Some(ct) if ct.ctype() == "text" => (
            ct.subtype() == Some("html"),
            ct.attribute("charset")
                .and_then(|c| charset_decoder(c.as_bytes())),
        ),
        Some(_) => return None,
    };
    let encoding = match part
        .headers
        .header_value(&HeaderName::ContentTransferEncoding)
    {
        Some(HeaderValue::Text(e)) if e.eq_ignore_ascii_case("base64") => Encoding::Base64,
        Some(HeaderValue::Text(e)) if e.eq_ignore_ascii_case("quoted-printable") => {
            Encoding::QuotedPrintable
        }
        _ => Encoding::None,
    };
    let body = &raw[offset_body..];
    let bytes: Cow<'x, [u8]> = match encoding {
        Encoding::Base64 => {
            let (end, bytes) = stream.decode_base64_mime(b"");
            if end == usize::MAX || stream.offset() < raw.len() {
                return None;
            }
            bytes
        }
        Encoding::QuotedPrintable => Cow::Owned(quoted_printable(body)?),
        Encoding::None => Cow::Borrowed(body),
    };
    let text: Cow<'x, str> = match (bytes, charset) {
        (Cow::Owned(vec), Some(decode)) => decode(&vec).into(),
        (Cow::Owned(vec), None) => String::from_utf8(vec)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            .into(),
        (Cow::Borrowed(bytes), Some(decode)) => decode(bytes).into(),
        (Cow::Borrowed(bytes), None) => String::from_utf8_lossy(bytes),
    };
    part.encoding = encoding;
    part.body = if html {
        PartType::Html(text)
    } else {
        PartType::Text(text)
    };
    Some(Message {
        parts: vec![part],
        raw_message: Cow::Borrowed(raw),
        ..Message::default()
    })
}

/// The parser's quoted-printable decoding of a whole body (no boundary to stop at), or
/// `None` where it reports the body as broken (`==`, or `=` after `=X`).
///
/// The parser's state machine, byte for byte: `=` and two hex digits make a byte; `=`
/// before white space and a line break is a soft line break; `=` before any other byte
/// keeps both; trailing white space of a line is dropped; a line break becomes CRLF once
/// any CR has been seen, else LF; a CR on its own is dropped. What differs is only that a
/// run of bytes the machine would copy one by one (no `=`, CR or LF, in the plain state)
/// is copied at once.
fn quoted_printable(body: &[u8]) -> Option<Vec<u8>> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Plain,
        Eq,
        Hex1(u8),
    }
    let mut out = Vec::with_capacity(body.len());
    let mut state = State::Plain;
    let mut last = 0u8;
    // Trailing white space copied since the last non-white-space byte.
    let mut ws = 0usize;
    let mut crlf = false;
    let mut i = 0;
    while i < body.len() {
        let ch = body[i];
        if state == State::Plain && !matches!(ch, b'=' | b'\r' | b'\n') {
            let run_end =
                memchr::memchr3(b'=', b'\r', b'\n', &body[i..]).map_or(body.len(), |n| i + n);
            let run = &body[i..run_end];
            out.extend_from_slice(run);
            let trailing = run
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            ws = if trailing == run.len() {
                ws + trailing
            } else {
                trailing
            };
            last = run[run.len() - 1];
            i = run_end;
            continue;
        }
        match ch {
            b'=' => {
                if state != State::Plain {
                    return None;
                }
                state = State::Eq;
            }
            b'\n' => {
                if state == State::Eq {
                    state = State::Plain;
                } else {
                    out.truncate(out.len() - ws);
                    if crlf {
                        out.push(b'\r');
                    }
                    out.push(b'\n');
                }
                ws = 0;
            }
            b'\r' => crlf = true,
            _ => match state {
                State::Plain => unreachable!("plain bytes are copied as runs"),
                State::Eq => match hex(ch) {
                    Some(h) => state = State::Hex1(h),
                    None if !ch.is_ascii_whitespace() => {
                        state = State::Plain;
                        out.extend_from_slice(&[b'=', ch]);
                        ws = 0;
                    }
                    None => {}
                },
                State::Hex1(h) => {
                    state = State::Plain;
                    match hex(ch) {
                        Some(l) => out.push(h << 4 | l),
                        None => out.extend_from_slice(&[b'=', last, ch]),
                    }
                    ws = 0;
                }
            },
        }
        last = ch;
        i += 1;
    }
    Some(out)
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser's own decoding of a whole body.
    fn parser_decoding(body: &[u8]) -> Option<Vec<u8>> {
        let mut stream = MessageStream::new(body);
        let (end, bytes) = stream.decode_quoted_printable_mime(b"");
        (end != usize::MAX).then(|| bytes.into_owned())
    }

    #[test]
    fn quoted_printable_equals_the_parser_on_chosen_bodies() {
        for body in [
            &b"hello  \r\nbar=\r\n\r\nfoo\t=\r\nbar\r\nfoo\t \t= \r\n=62\r\nfoo = \t\r\nbar\r\n"[..],
            b"foo =\r\n=62\r\nfoo  \r\nbar=\r\n\r\nfoo_bar\r\n\r\n",
            b"=E2=80=94=E2=80=89Antoine de Saint-Exup=C3=A9ry=\n--\n",
            b"first=AZ second\n=\n",
            b"a==b",
            b"a=1=2",
            b"=\x0C\n x \t",
            b"tail =",
            b"tail =4",
            b"x=4z y=zz =\r\r\n\ra\r",
            b"",
            b" \t \n \x0B \n",
            b"caf\xC3\xA9 =C3=\n=A9",
        ] {
            assert_eq!(
                quoted_printable(body),
                parser_decoding(body),
                "{:?}",
                String::from_utf8_lossy(body)
            );
        }
    }

    #[test]
    fn quoted_printable_equals_the_parser_on_every_short_body_of_its_special_bytes() {
        // Every string of up to 6 bytes over the bytes the state machine tells apart.
        let alphabet = b"=\r\n \tA4ga\x0C";
        let mut bodies = vec![Vec::new()];
        let mut checked = 0;
        for _ in 0..6 {
            let mut next = Vec::new();
            for body in &bodies {
                for &b in alphabet {
                    let mut longer = body.clone();
                    longer.push(b);
                    assert_eq!(
                        quoted_printable(&longer),
                        parser_decoding(&longer),
                        "{:?}",
                        String::from_utf8_lossy(&longer)
                    );
                    checked += 1;
                    next.push(longer);
                }
            }
            bodies = next;
        }
        assert_eq!(
            checked,
            (1..=6).map(|n| alphabet.len().pow(n)).sum::<usize>()
        );
    }
}
