//! The fast path of [`MailScanner::scan`](super::MailScanner::scan) for the common
//! message, a flat one: one text part, or a tree of multiparts whose leaves are not
//! messages (a signed message, a text with its HTML alternative, a text with
//! attachments, a signed text with attachments).
//!
//! Written against `mail-parser` 0.11.9 (the exact version `Cargo.toml` pins): its
//! `MessageParser::parse` loop and `MessageStream` methods are followed step for step,
//! so a new version of the parser is read against this module before it is taken.
//!
//! # Algorithm
//!
//! For such a flat message the general path pays for work that cannot matter: the linear
//! pre-scan that bounds how deeply the MIME parser would nest messages ([`super::nesting`]),
//! the parser's general loop, and the parser's quoted-printable decoder, which handles one
//! byte at a time. Here the message is parsed with the parser's own pieces
//! (`MessageStream`), in the order its `parse` runs them:
//!
//! 1. the header block, with the scanner's parser configuration;
//! 2. a Content-Type that is absent or `text/*` (the parser's own test: `ctype()` equal to
//!    `text`) makes one part whose body is the rest of the message; a `multipart/*` with a
//!    `boundary` (not `multipart/digest`, whose parts default to messages) is followed to
//!    its first delimiter, and then each part's header block and body are read in turn,
//!    up to the closing delimiter; a part that is itself such a multipart is read the
//!    same way (up to [`MAX_MULTIPART_DEPTH`] levels), and then the next delimiter of its
//!    parent is sought, as the parser seeks it; anything else goes the general way;
//! 3. a body is decoded as the parser decodes it: base64 by the parser's own decoder, an
//!    unencoded body by [`plain`] (the parser's `mime_part`, with the delimiter found by
//!    one `memmem` search instead of a test at every `-`), quoted-printable by
//!    [`quoted_printable`] (the parser's state machine, rewritten to copy runs of plain
//!    bytes at once, with the delimiter found the same way);
//! 4. text parts become text exactly as the parser makes them (its charset decoder when it
//!    has one for the label, else UTF-8 with U+FFFD for what is not); other parts are
//!    kept as bytes, which the walk does not read.
//!
//! The result is the parser's `Message` value, which the general walk then reads: the
//! subject, the part paths and every warning come from the same code as on the general
//! path.
//!
//! `None` sends the message the general way, nesting bound included: a part that is a
//! message (`message/rfc822` or `message/global`, encoded or not), a digest, a multipart
//! without a boundary or its delimiters, a header block that never ends, a body the
//! decoder reports as broken, a multipart without its closing delimiter, more than
//! [`MAX_PARTS`](super::MAX_PARTS) parts. No nesting bound is needed here: nothing is
//! parsed as a nested message, and the parts are counted.
//!
//! # Invariants
//!
//! When [`parse`] returns a message, it is the message `MessageParser::parse` returns for
//! the same bytes, as far as the walk reads it (headers, bodies, encoding problem flags,
//! the multipart's children, the offsets of the root, and where each leaf part's body
//! ends, before the line break ahead of its delimiter, which gives the size of a part not
//! shown). The one place the two paths part is a flat message that the nesting bound
//! refuses: its bound counts what could nest
//! (the word `rfc822` after a `/` in a body, a thousand times; twenty thousand dashes), so
//! it refuses some messages that nest nothing and would scan them as raw text; such a
//! message is parsed here, as it needs no bound. `tests/pipeline.rs` checks the scan
//! results of both paths on every message of both corpora and on generated messages; the
//! tests below check [`quoted_printable`] and [`plain`] against the parser's functions.

use std::borrow::Cow;

use mail_parser::decoders::charsets::map::charset_decoder;
use mail_parser::parsers::MessageStream;
use mail_parser::{
    ContentType, Encoding, GetHeader, HeaderName, HeaderValue, Message, MessagePart, PartType,
};

use super::headers::{self, Fields};

/// The parse of `raw` when it is a flat message whose bodies decode without a problem
/// (see the [module](self) documentation); `None` sends it the general way.
///
/// The base64 bodies of parts that are not text are decoded when `decode_all` (for a scan
/// that keeps attachments); else only their end is found.
pub(crate) fn parse<'x>(fields: Fields, raw: &'x [u8], decode_all: bool) -> Option<Message<'x>> {
    // The parser keeps offsets as `u32`.
    u32::try_from(raw.len()).ok()?;
    let mut stream = MessageStream::new(raw);
    let mut headers = Vec::with_capacity(HEADERS_KEPT);
    if !headers::parse_headers(&mut stream, fields, &mut headers) {
        return None;
    }
    let offset_body = stream.offset();
    let mut root = MessagePart {
        headers,
        is_encoding_problem: false,
        body: PartType::default(),
        encoding: Encoding::None,
        offset_header: 0,
        offset_body: offset_body as u32,
        offset_end: raw.len() as u32,
    };
    let parts = match content_type(&root).map(|ct| ct.ctype()) {
        None | Some("text") => {
            let (encoding, body) = leaf_body(&root, &mut stream, &Boundary::new(Vec::new()))?;
            // The parser's loop would read what a decoder left as another header block.
            if stream.offset() < raw.len() {
                return None;
            }
            root.encoding = encoding;
            root.body = body;
            vec![root]
        }
        Some("multipart") => multipart(fields, &mut stream, root, decode_all)?,
        Some(_) => return None,
    };
    Some(Message {
        parts,
        raw_message: Cow::Borrowed(raw),
        ..Message::default()
    })
}

/// How deeply multiparts may nest on this path (real mail: two or three levels); a
/// deeper message goes the general way.
const MAX_MULTIPART_DEPTH: usize = 8;

/// Room for the header fields a block usually keeps (Content-Type, Content-Transfer-
/// Encoding, Subject, Message-ID, …), so that the list is not grown field by field.
const HEADERS_KEPT: usize = 8;

/// The parts of a message whose root, a multipart, has just had its header block read:
/// the root, then every part below it in document order, as the parser lists them.
fn multipart<'x>(
    fields: Fields,
    stream: &mut MessageStream<'x>,
    root: MessagePart<'x>,
    decode_all: bool,
) -> Option<Vec<MessagePart<'x>>> {
    let boundary = Boundary::new(multipart_boundary(&root)?);
    if !stream.seek_next_part(&boundary.bytes) {
        return None;
    }
    stream.skip_crlf();
    let mut parts = vec![root];
    read_parts(fields, stream, &mut parts, 0, &boundary, 1, decode_all)?;
    Some(parts)
}

/// The boundary of a multipart part, unless it is a digest (whose parts default to
/// messages) or has none (the parser then reads it as text).
fn multipart_boundary(part: &MessagePart<'_>) -> Option<Vec<u8>> {
    let ct = content_type(part)?;
    if ct.subtype() == Some("digest") {
        return None;
    }
    Some(ct.attribute("boundary")?.as_bytes().to_vec())
}

/// Reads the parts of the multipart `parts[at]`, delimited by `boundary`, from just after
/// its first delimiter line up to its closing delimiter, as the parser does: each part's
/// header block, then its body up to the next delimiter, or, for a multipart, its own
/// parts and then the next delimiter of this one.
fn read_parts<'x>(
    fields: Fields,
    stream: &mut MessageStream<'x>,
    parts: &mut Vec<MessagePart<'x>>,
    at: usize,
    boundary: &Boundary,
    depth: usize,
    decode_all: bool,
) -> Option<()> {
    let mut children = Vec::new();
    loop {
        if parts.len() >= super::MAX_PARTS {
            return None;
        }
        let offset_header = stream.offset();
        let mut headers = Vec::with_capacity(HEADERS_KEPT);
        if !headers::parse_headers(stream, fields, &mut headers) {
            return None;
        }
        let mut part = MessagePart {
            headers,
            is_encoding_problem: false,
            body: PartType::default(),
            encoding: Encoding::None,
            offset_header: offset_header as u32,
            offset_body: stream.offset() as u32,
            offset_end: 0,
        };
        let index = parts.len();
        children.push(index as u32);
        let (encoding, body) = match content_type(&part).map(|ct| (ct.ctype(), ct.subtype())) {
            None | Some(("text", _)) => leaf_body(&part, stream, boundary)?,
            Some(("multipart", _)) => {
                let inner = Boundary::new(multipart_boundary(&part)?);
                if depth >= MAX_MULTIPART_DEPTH || !stream.seek_next_part(&inner.bytes) {
                    return None;
                }
                parts.push(part);
                stream.skip_crlf();
                read_parts(fields, stream, parts, index, &inner, depth + 1, decode_all)?;
                // Past the inner closing delimiter, the parser seeks this multipart's next
                // delimiter, and ends the inner part at the line break before it.
                parts[index].offset_end = stream.seek_next_part_offset(&boundary.bytes)? as u32;
                if stream.is_multipart_end() {
                    break;
                }
                continue;
            }
            Some(("message", Some("rfc822" | "global"))) => return None,
            Some((ctype, subtype)) => {
                let encoding = transfer_encoding(&part);
                // A text-like type (JSON, a delivery report, …) is read with `other_text`.
                let text_like = super::is_text_like(
                    &ctype.to_ascii_lowercase(),
                    &subtype.unwrap_or_default().to_ascii_lowercase(),
                );
                let bytes = match encoding {
                    Encoding::Base64 if text_like || decode_all => {
                        Cow::Owned(base64_body(stream, boundary)?)
                    }
                    // Not text, and no attachment kept: the walk never reads its bytes,
                    // only where it ends and whether it decodes.
                    Encoding::Base64 => {
                        skip_base64(stream, boundary)?;
                        Cow::Borrowed(&[][..])
                    }
                    Encoding::QuotedPrintable => {
                        Cow::Owned(quoted_printable_body(stream, boundary)?)
                    }
                    Encoding::None => Cow::Borrowed(plain_body(stream, boundary)?),
                };
                (encoding, PartType::Binary(bytes))
            }
        };
        part.encoding = encoding;
        part.body = body;
        // The parser ends a leaf part where its body ends, before the delimiter and the
        // line break ahead of it.
        let raw = stream.bytes(0..stream.len());
        let at = stream.offset() - 2 - boundary.bytes.len();
        part.offset_end = body_end(raw, part.offset_body as usize, at) as u32;
        parts.push(part);
        if stream.is_multipart_end() {
            break;
        }
    }
    parts[at].body = PartType::Multipart(children);
    Some(())
}

/// The parser's reading of a text part's body, up to `boundary` (or the end when it is
/// empty): its transfer encoding and its text. The stream is left where the parser leaves
/// it. `None` where the parser reports an encoding problem.
fn leaf_body<'x>(
    part: &MessagePart<'x>,
    stream: &mut MessageStream<'x>,
    boundary: &Boundary,
) -> Option<(Encoding, PartType<'x>)> {
    let ct = content_type(part);
    let html = ct.is_some_and(|ct| ct.subtype() == Some("html"));
    let charset = ct
        .and_then(|ct| ct.attribute("charset"))
        .and_then(|c| charset_decoder(c.as_bytes()));
    let encoding = transfer_encoding(part);
    let bytes: Cow<'x, [u8]> = match encoding {
        Encoding::Base64 => Cow::Owned(base64_body(stream, boundary)?),
        Encoding::QuotedPrintable => Cow::Owned(quoted_printable_body(stream, boundary)?),
        Encoding::None => Cow::Borrowed(plain_body(stream, boundary)?),
    };
    let text: Cow<'x, str> = match (bytes, charset) {
        (bytes, Some(decoder)) => super::charset::decode(decoder, bytes),
        (Cow::Owned(vec), None) => String::from_utf8(vec)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            .into(),
        // `from_utf8_lossy` borrows valid text too, but validates more slowly.
        (Cow::Borrowed(bytes), None) => match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(bytes),
        },
    };
    let body = if html {
        PartType::Html(text)
    } else {
        PartType::Text(text)
    };
    Some((encoding, body))
}

/// [`quoted_printable`] at the stream's position, which it moves past the body.
fn quoted_printable_body(stream: &mut MessageStream<'_>, boundary: &Boundary) -> Option<Vec<u8>> {
    let raw = stream.bytes(0..stream.len());
    let start = stream.offset();
    let (decoded, next) = quoted_printable(raw, start, boundary)?;
    stream.skip_bytes(next - start);
    Some(decoded)
}

/// [`plain`] at the stream's position, which it moves past the body.
fn plain_body<'x>(stream: &mut MessageStream<'x>, boundary: &Boundary) -> Option<&'x [u8]> {
    let raw = stream.bytes(0..stream.len());
    let start = stream.offset();
    let (end, next) = plain(raw, start, boundary)?;
    stream.skip_bytes(next - start);
    Some(&raw[start..end])
}

/// The parser's reading of an unencoded body at `raw[start..]` (its `mime_part`): where the
/// body ends and where the stream stops. Without a boundary, the rest of the input. With
/// one, the body ends before the first `--boundary`, and before the line break ahead of
/// it when the delimiter starts a line; the stream stops past the boundary. `None` when
/// there is no delimiter.
fn plain(raw: &[u8], start: usize, boundary: &Boundary) -> Option<(usize, usize)> {
    if boundary.bytes.is_empty() {
        return Some((raw.len(), raw.len()));
    }
    let at = start + boundary.find(&raw[start..])?;
    Some((body_end(raw, start, at), at + 2 + boundary.bytes.len()))
}

/// Where the parser ends a body that starts at `start` and whose delimiter (`--` and the
/// boundary) starts at `at`: before the line break ahead of the delimiter when the
/// delimiter starts a line, else at the delimiter. Its decoders (`mime_part`, base64,
/// quoted-printable) all end a body so.
fn body_end(raw: &[u8], start: usize, at: usize) -> usize {
    // The parser starts as if after a line break.
    let before = if at > start { raw[at - 1] } else { b'\n' };
    if before != b'\n' {
        at
    } else if at > start + 1 && raw[at - 2] == b'\r' {
        at - 2
    } else {
        at.saturating_sub(1).max(start)
    }
}

/// A multipart's boundary (empty for a body that runs to the end of the message), with
/// the search for its delimiter, `--` and the boundary, built once for all its parts.
struct Boundary {
    bytes: Vec<u8>,
    delimiter: memchr::memmem::Finder<'static>,
}

impl Boundary {
    fn new(bytes: Vec<u8>) -> Boundary {
        let mut pattern = Vec::with_capacity(bytes.len() + 2);
        pattern.extend_from_slice(b"--");
        pattern.extend_from_slice(&bytes);
        Boundary {
            delimiter: memchr::memmem::Finder::new(&pattern).into_owned(),
            bytes,
        }
    }

    /// Where the first delimiter starts in `body`.
    fn find(&self, body: &[u8]) -> Option<usize> {
        self.delimiter.find(body)
    }
}

fn content_type<'a, 'x>(part: &'a MessagePart<'x>) -> Option<&'a ContentType<'x>> {
    part.headers
        .header_value(&HeaderName::ContentType)
        .and_then(|c| c.as_content_type())
}

/// The parser's choice of decoder for a part.
fn transfer_encoding(part: &MessagePart<'_>) -> Encoding {
    match part
        .headers
        .header_value(&HeaderName::ContentTransferEncoding)
    {
        Some(HeaderValue::Text(e)) if e.eq_ignore_ascii_case("base64") => Encoding::Base64,
        Some(HeaderValue::Text(e)) if e.eq_ignore_ascii_case("quoted-printable") => {
            Encoding::QuotedPrintable
        }
        _ => Encoding::None,
    }
}

/// The parser's quoted-printable decoding of the body at `raw[start..]`, up to the first
/// `--` and `boundary` (to the end when `boundary` is empty): the decoded bytes and the
/// offset where the parser's stream stops (just past the boundary, or the end). `None`
/// where the parser reports the body as broken: `==`, `=` after `=X`, no boundary found,
/// or a cut its own arithmetic would get wrong.
///
/// This is the parser's state machine, byte for byte: `=` and two hex digits make a byte;
/// `=` before white space and a line break is a soft line break; `=` before any other
/// byte keeps both; trailing white space of a line is dropped; a line break becomes CRLF
/// once any CR has been seen, else LF; a CR on its own is dropped. At the delimiter it
/// drops the `-` it has copied and, when that `-` started a line, the line break before
/// it. What differs is only that a run of bytes the machine would copy one by one (no
/// `=`, CR or LF, in the plain state) is copied at once, and that the delimiter is found
/// by one search instead of a test at every `-`.
fn quoted_printable(raw: &[u8], start: usize, boundary: &Boundary) -> Option<(Vec<u8>, usize)> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Plain,
        Eq,
        Hex1(u8),
    }
    // The delimiter: the parser stops at the second `-` of the first `--boundary`.
    let delimiter = if boundary.bytes.is_empty() {
        None
    } else {
        Some(start + boundary.find(&raw[start..])?)
    };
    // Up to and with the first `-` of the delimiter, which the machine copies.
    let body = &raw[start..delimiter.map_or(raw.len(), |at| at + 1)];
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
    let Some(at) = delimiter else {
        return Some((out, raw.len()));
    };
    // The byte before the delimiter's first `-`, as the parser's `before_last_ch` (0 at
    // the start of the body).
    let before = if at > start { raw[at - 1] } else { 0 };
    let cut = if before == b'\n' {
        1 + if crlf { 2 } else { 1 }
    } else {
        1
    };
    // The parser subtracts without a check: where that would wrap, go the general way.
    let kept = out.len().checked_sub(cut)?;
    out.truncate(kept);
    Some((out, at + 2 + boundary.bytes.len()))
}

/// The parser's `decode_base64_mime` for a part whose bytes are not used: where it ends
/// and whether it decodes, without decoding it (or allocating three quarters of the rest
/// of the message for it, as the parser does). The stream is left past the delimiter, as
/// the parser leaves it; `None` where the parser reports a problem (a byte outside the
/// alphabet, white space and `=`, a `--` not followed by the boundary, no delimiter).
fn skip_base64(stream: &mut MessageStream<'_>, boundary: &Boundary) -> Option<usize> {
    let start = stream.offset();
    let data = stream.bytes(start..stream.len());
    let (mut last, mut before) = (b'\n', 0u8);
    let mut end = start;
    let mut i = 0;
    while let Some(&ch) = data.get(i) {
        i += 1;
        if !BASE64_OR_PAD[ch as usize] {
            match ch {
                b'\n' => end = start + i - if last == b'\r' { 2 } else { 1 },
                b' ' | b'\t' | b'\r' => {}
                b'-' if last == b'-' => {
                    let bytes = &boundary.bytes;
                    if bytes.is_empty() || !data[i..].starts_with(bytes) {
                        return None;
                    }
                    stream.skip_bytes(i + bytes.len());
                    return Some(if before == b'\n' { end } else { start + i - 2 });
                }
                b'-' => {}
                _ => return None,
            }
        }
        before = last;
        last = ch;
    }
    // The end of the message without a delimiter (a part always has a boundary here).
    None
}

/// The parser's `decode_base64_mime` for a body whose bytes are used: the decoded bytes,
/// with the stream left where the parser leaves it; `None` where the parser reports a
/// problem (as [`skip_base64`]). The parser's state machine, with whole groups of four
/// characters of the alphabet (nearly all of a body) decoded at once instead of one
/// character at a time through the stream's iterator: characters of the alphabet make
/// bytes three by four; `=` after one or two characters of a group ends it with one
/// byte, after three with two (after none it does nothing); space, tab, CR and LF are
/// skipped, as is a `-` not after another; `--` ends the body when the boundary follows it;
/// anything else is a problem. Without a boundary the body runs to the end.
fn base64_body(stream: &mut MessageStream<'_>, boundary: &Boundary) -> Option<Vec<u8>> {
    let start = stream.offset();
    let data = stream.bytes(start..stream.len());
    // The body ends at a `--` at the latest: room for what comes before the first `-`.
    let room = memchr::memchr(b'-', data).unwrap_or(data.len());
    let mut out = Vec::with_capacity(room / 4 * 3 + 3);
    let kernel = linkscan::__private::Kernel::detect();
    let mut last = b'\n';
    // The group being read: its characters' bits from the top, and how many it has.
    let (mut group, mut count) = (0u32, 0u32);
    let mut i = 0;
    while i < data.len() {
        if count == 0 {
            let groups = super::base64::decode_groups(kernel, &data[i..], &mut out);
            if groups > 0 {
                i += groups;
                last = data[i - 1];
            }
            if i == data.len() {
                break;
            }
        }
        let ch = data[i];
        i += 1;
        let value = super::base64::VALUES[ch as usize];
        if value < 64 {
            group = if count == 0 { 0 } else { group } | u32::from(value) << (18 - 6 * count);
            count += 1;
            if count == 4 {
                out.extend_from_slice(&[(group >> 16) as u8, (group >> 8) as u8, group as u8]);
                count = 0;
            }
        } else {
            match ch {
                b'=' => {
                    match count {
                        1 | 2 => out.push((group >> 16) as u8),
                        3 => out.extend_from_slice(&[(group >> 16) as u8, (group >> 8) as u8]),
                        _ => {}
                    }
                    count = 0;
                }
                b'\n' | b' ' | b'\t' | b'\r' => {}
                b'-' if last == b'-' => {
                    let bytes = &boundary.bytes;
                    if bytes.is_empty() || !data[i..].starts_with(bytes) {
                        return None;
                    }
                    stream.skip_bytes(i + bytes.len());
                    return Some(out);
                }
                b'-' => {}
                _ => return None,
            }
        }
        last = ch;
    }
    if !boundary.bytes.is_empty() {
        return None;
    }
    stream.skip_bytes(data.len());
    Some(out)
}

/// The base64 alphabet and `=`: bytes the parser decodes without looking at them again.
static BASE64_OR_PAD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'+' | b'/' | b'=');
        b += 1;
    }
    table
};

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser's own decoding of `body` up to `boundary`: the bytes and where its
    /// stream stops.
    fn parser_decoding(body: &[u8], boundary: &[u8]) -> Option<(Vec<u8>, usize)> {
        let mut stream = MessageStream::new(body);
        let (end, bytes) = stream.decode_quoted_printable_mime(boundary);
        (end != usize::MAX).then(|| (bytes.into_owned(), stream.offset()))
    }

    fn ours(body: &[u8], boundary: &[u8]) -> Option<(Vec<u8>, usize)> {
        // The parser's arithmetic wraps where ours refuses: compare only where it does not.
        quoted_printable(body, 0, &Boundary::new(boundary.to_vec()))
    }

    /// `plain` against the parser's `mime_part`.
    fn check_plain(body: &[u8], boundary: &[u8]) {
        let mut stream = MessageStream::new(body);
        let (end, bytes) = stream.mime_part(boundary);
        let theirs = (end != usize::MAX).then(|| (bytes.into_owned(), stream.offset()));
        let ours = plain(body, 0, &Boundary::new(boundary.to_vec()))
            .map(|(end, next)| (body[..end].to_vec(), next));
        assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(body));
    }

    fn check(body: &[u8], boundary: &[u8]) -> bool {
        check_plain(body, boundary);
        let ours = ours(body, boundary);
        let theirs = std::panic::catch_unwind(|| parser_decoding(body, boundary));
        match theirs {
            // A panic of the parser (its subtraction overflowing in a debug build): ours
            // must refuse, so that the general path decides.
            Err(_) => assert_eq!(ours, None, "{:?}", String::from_utf8_lossy(body)),
            Ok(theirs) => {
                if ours.is_some() || theirs.is_none() {
                    assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(body));
                }
            }
        }
        ours.is_some()
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
            // `==` and `=1=` are broken: refused, as the parser refuses them.
            let broken =
                body.windows(2).any(|w| w == b"==") || body.windows(3).any(|w| w == b"=1=");
            assert_eq!(
                check(body, b""),
                !broken,
                "{:?}",
                String::from_utf8_lossy(body)
            );
            let mut part = body.to_vec();
            part.extend_from_slice(b"\n--zz\nnext part\n--zz--\n");
            assert_eq!(
                check(&part, b"zz"),
                !broken,
                "{:?}",
                String::from_utf8_lossy(&part)
            );
        }
    }

    /// `skip_base64` against the parser's `decode_base64_mime`: the same end, the same
    /// stream position after it, the same refusals. Returns whether the body decodes.
    fn check_base64(body: &[u8], boundary: &[u8]) -> bool {
        let mut stream = MessageStream::new(body);
        let (end, bytes) = stream.decode_base64_mime(boundary);
        let theirs = (end != usize::MAX).then(|| (end, stream.offset()));
        let their_bytes = theirs.map(|(_, offset)| (bytes.into_owned(), offset));
        let mut stream = MessageStream::new(body);
        let ours = skip_base64(&mut stream, &Boundary::new(boundary.to_vec()))
            .map(|end| (end, stream.offset()));
        // With no boundary the parser decodes to the end; such a part never comes here.
        if !boundary.is_empty() {
            assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(body));
        }
        // The decoder: the same bytes, the stream left at the same place, the same refusals.
        let mut stream = MessageStream::new(body);
        let decoded = base64_body(&mut stream, &Boundary::new(boundary.to_vec()))
            .map(|bytes| (bytes, stream.offset()));
        assert_eq!(decoded, their_bytes, "{:?}", String::from_utf8_lossy(body));
        ours.is_some()
    }

    /// Calls `each` with every string of 1 to `max` bytes over `alphabet`.
    fn every_string(alphabet: &[u8], max: usize, mut each: impl FnMut(&[u8])) {
        let mut strings = vec![Vec::new()];
        for _ in 0..max {
            let mut longer_ones = Vec::with_capacity(strings.len() * alphabet.len());
            for string in &strings {
                for &b in alphabet {
                    let mut longer: Vec<u8> = string.clone();
                    longer.push(b);
                    each(&longer);
                    longer_ones.push(longer);
                }
            }
            strings = longer_ones;
        }
    }

    #[test]
    fn skipping_base64_equals_the_parser_on_every_short_body_of_its_special_bytes() {
        // Every string of up to 6 bytes over the bytes its state machine tells apart, then
        // a delimiter (or a broken one), with the boundary `zz`.
        let (mut checked, mut decoded) = (0, 0);
        every_string(b"Aq9+=\r\n \t-z*", 6, |body| {
            for tail in [&b""[..], b"--zz\nX", b"\r\n--zz--", b"\n--z", b"--zy"] {
                let part = [body, tail].concat();
                decoded += usize::from(check_base64(&part, b"zz"));
                checked += 1;
            }
            // Without a boundary (a body that runs to the end of the message).
            check_base64(body, b"");
        });
        assert_eq!(checked, 5 * (1..=6).map(|n| 12usize.pow(n)).sum::<usize>());
        // Many bodies decode: the comparison is not vacuous.
        assert!(decoded > checked / 20, "{decoded} of {checked}");
    }

    #[test]
    fn decoding_base64_equals_the_parser_on_long_bodies() {
        // Every byte value encoded, in lines of 76 and of other lengths, with padding of
        // every length, CRLF, and a stray `=` or space inside groups.
        let data: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
        let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let encoded: String = data
            .chunks(3)
            .flat_map(|c| {
                let n = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
                (0..4).map(move |k| alphabet[(n >> (18 - 6 * k) & 63) as usize] as char)
            })
            .collect();
        for line in [76, 4, 7, 1] {
            for pad in 0..3 {
                let text: String = encoded[..encoded.len() - 4 * pad].to_string();
                let lines: Vec<&[u8]> = text.as_bytes().chunks(line).collect();
                for eol in [&b"\n"[..], b"\r\n"] {
                    let mut body = lines.join(eol);
                    body.extend_from_slice(b"QQ==");
                    body.extend_from_slice(eol);
                    check_base64(&[&body[..], b"--zz--\n"].concat(), b"zz");
                    check_base64(&body, b"");
                    body.splice(10..10, *b"=");
                    body.splice(21..21, *b" ");
                    check_base64(&[&body[..], b"--zz\n"].concat(), b"zz");
                }
            }
        }
    }

    #[test]
    fn skipping_base64_equals_the_parser_on_every_byte() {
        for b in 0..=255u8 {
            for body in [vec![b], vec![b'Q', b, b'\n'], vec![b'\n', b, b'-', b'-']] {
                let mut part = body.clone();
                part.extend_from_slice(b"\n--zz\n");
                check_base64(&part, b"zz");
            }
        }
    }

    #[test]
    fn quoted_printable_equals_the_parser_on_every_short_body_of_its_special_bytes() {
        // Every string of up to 6 bytes over the bytes the state machine tells apart,
        // with no boundary and with the boundary `b`.
        let alphabet = b"=\r\n \tA4g-b";
        let (mut checked, mut decoded) = (0, 0);
        every_string(alphabet, 6, |body| {
            for boundary in [&b""[..], b"b"] {
                decoded += usize::from(check(body, boundary));
                checked += 1;
            }
        });
        assert_eq!(
            checked,
            2 * (1..=6).map(|n| alphabet.len().pow(n)).sum::<usize>()
        );
        // Many bodies decode (the others have `==` or no delimiter): the comparison is not
        // vacuous.
        assert!(decoded > checked / 3, "{decoded} of {checked}");
    }
}
