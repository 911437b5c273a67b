//! The general path of [`MailScanner::scan`](super::MailScanner::scan): the MIME parse of
//! any message the flat path ([`super::flat`]) does not take (nested messages, digests,
//! bodies that do not decode, multiparts left open), with the header blocks read by
//! [`headers::parse_headers`], which keeps no record of the fields the scan ignores.
//!
//! Written against `mail-parser` 0.11.9 (the exact version `Cargo.toml` pins): its
//! `MessageParser::parse` loop and `MessageStream` methods are followed step for step,
//! so a new version of the parser is read against this module before it is taken.
//!
//! # Algorithm
//!
//! `MessageParser::parse` keeps a record of every header field of every part, read or
//! ignored (some 50 times the bytes of a short field such as `X:a`), so a nested message
//! of megabytes of short fields took tens of times its size. This is the parser's own loop
//! (`MessageParser::parse`, a stack of multipart and message states over one
//! `MessageStream`), step for step, with two changes:
//!
//! 1. each header block is read by [`headers::parse_headers`], which keeps only the fields
//!    the scan reads, and at most [`headers::MAX_KEPT_FIELDS`] of them per block;
//! 2. what the walk never reads is not built: the lists of the message's text, HTML and
//!    attached parts, and the inline flag of binary parts (every binary part is
//!    [`PartType::Binary`]).
//!
//! The transfer decoders, the boundary searches and the charset decoders are the
//! parser's, called as it calls them; a message part encoded in base64 or
//! quoted-printable is parsed again from its decoded bytes, to the parser's depth of
//! [`MAX_NESTED_ENCODED`].
//!
//! # Invariants
//!
//! For every input, [`parse`] returns what `MessageParser::parse` with
//! [`Fields::parser`] returns, as far as the walk reads it (the parts, their kept headers,
//! bodies, encodings, encoding problem flags and offsets, and the nested messages' raw
//! bytes), except for the fields [`headers::parse_headers`] does not keep. A block whose
//! fields are all ignored ones still makes a message without a body, as the parser's
//! does. `tests/pipeline.rs` checks the scan results of this path against the parser's on
//! both corpora and on generated messages; `tests/mail_memory.rs` checks the memory of a
//! nested message of megabytes of short fields.
//!
//! The parser's arithmetic on the end of a nested message wraps (in a release build)
//! where a boundary sits in the first two bytes of the input; here it wraps alike.

use std::borrow::Cow;

use mail_parser::decoders::charsets::map::charset_decoder;
use mail_parser::parsers::MessageStream;
use mail_parser::{
    ContentType, Encoding, GetHeader, HeaderName, HeaderValue, Message, MessagePart, PartType,
};

use super::headers::{self, Fields};

/// How many levels of base64 or quoted-printable message parts are parsed (the parser's
/// `MAX_NESTED_ENCODED`); a deeper one is kept as bytes, with its encoding problem flag.
pub(crate) const MAX_NESTED_ENCODED: usize = 3;

/// The parser's classes of content type, as far as its loop tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum MimeType {
    MultipartAlternative,
    MultipartDigest,
    Multipart,
    TextPlain,
    TextHtml,
    TextOther,
    #[default]
    Message,
    Other,
}

/// The parser's `mime_type`: whether the part is a multipart, whether it is text, and its
/// class (a part without a Content-Type is a message in a digest, else text/plain).
fn mime_type(content_type: Option<&ContentType<'_>>, parent: MimeType) -> (bool, bool, MimeType) {
    let Some(content_type) = content_type else {
        return if parent == MimeType::MultipartDigest {
            (false, false, MimeType::Message)
        } else {
            (false, true, MimeType::TextPlain)
        };
    };
    match content_type.ctype() {
        "multipart" => (
            true,
            false,
            match content_type.subtype() {
                Some("alternative") => MimeType::MultipartAlternative,
                Some("digest") => MimeType::MultipartDigest,
                _ => MimeType::Multipart,
            },
        ),
        "text" => match content_type.subtype() {
            Some("plain") => (false, true, MimeType::TextPlain),
            Some("html") => (false, true, MimeType::TextHtml),
            _ => (false, true, MimeType::TextOther),
        },
        "message" if matches!(content_type.subtype(), Some("rfc822" | "global")) => {
            (false, false, MimeType::Message)
        }
        _ => (false, false, MimeType::Other),
    }
}

/// The state of one multipart or message being read (the parser's `MessageParserState`,
/// less what only its lists of text and HTML parts need).
#[derive(Default)]
struct State {
    mime_type: MimeType,
    boundary: Option<Vec<u8>>,
    part_id: u32,
    sub_part_ids: Vec<u32>,
    offset_header: usize,
    offset_body: usize,
    offset_end: usize,
}

/// The parse of `raw`, as `MessageParser::parse` with [`Fields::parser`] makes it (see the
/// [module](self) documentation); `None` where the parser finds no header field.
pub(crate) fn parse<'x>(fields: Fields, raw: &'x [u8]) -> Option<Message<'x>> {
    parse_at_depth(fields, raw, MAX_NESTED_ENCODED)
}

fn parse_at_depth<'x>(fields: Fields, raw: &'x [u8], depth: usize) -> Option<Message<'x>> {
    let mut stream = MessageStream::new(raw);
    let mut message = Message::default();
    let mut state = State {
        mime_type: MimeType::Message,
        ..State::default()
    };
    let mut stack: Vec<(State, Option<Message<'x>>)> = Vec::with_capacity(4);
    let mut part_headers = Vec::new();
    // Whether the last header block read had a field, kept or not (the parser's test of
    // its list of fields for a message without a body).
    let mut had_fields;

    'outer: loop {
        state.offset_header = stream.offset();
        let block = headers::read_block(&mut stream, fields, &mut part_headers);
        had_fields = block.fields > 0;
        if !block.ended {
            break;
        }
        state.offset_body = stream.offset();
        state.sub_part_ids.push(message.parts.len() as u32);

        let content_type = part_headers
            .header_value(&HeaderName::ContentType)
            .and_then(|c| c.as_content_type());
        let (is_multipart, mut is_text, mut mime_type) = mime_type(content_type, state.mime_type);

        if is_multipart {
            if let Some(boundary) = content_type.and_then(|c| c.attribute("boundary")) {
                if stream.seek_next_part(boundary.as_bytes()) {
                    let new_state = State {
                        mime_type,
                        boundary: Some(boundary.as_bytes().to_vec()),
                        part_id: message.parts.len() as u32,
                        ..State::default()
                    };
                    message.parts.push(MessagePart {
                        headers: std::mem::take(&mut part_headers),
                        offset_header: state.offset_header as u32,
                        offset_body: state.offset_body as u32,
                        offset_end: 0,
                        is_encoding_problem: false,
                        encoding: Encoding::None,
                        body: PartType::default(),
                    });
                    stack.push((state, None));
                    state = new_state;
                    stream.skip_crlf();
                    continue;
                }
                mime_type = MimeType::TextOther;
                is_text = true;
            }
        }

        let mut encoding = match part_headers.header_value(&HeaderName::ContentTransferEncoding) {
            Some(HeaderValue::Text(e)) if e.eq_ignore_ascii_case("base64") => Encoding::Base64,
            Some(HeaderValue::Text(e)) if e.eq_ignore_ascii_case("quoted-printable") => {
                Encoding::QuotedPrintable
            }
            _ => Encoding::None,
        };

        if mime_type == MimeType::Message && encoding == Encoding::None {
            let new_state = State {
                mime_type: MimeType::Message,
                boundary: state.boundary.take(),
                part_id: message.parts.len() as u32,
                ..State::default()
            };
            message.parts.push(MessagePart {
                headers: std::mem::take(&mut part_headers),
                encoding,
                is_encoding_problem: false,
                offset_header: state.offset_header as u32,
                offset_body: state.offset_body as u32,
                offset_end: 0,
                body: PartType::default(),
            });
            stack.push((state, Some(std::mem::take(&mut message))));
            state = new_state;
            continue;
        }

        let boundary = state.boundary.as_deref().unwrap_or(&b""[..]);
        let (offset_end, mut bytes) = match encoding {
            Encoding::Base64 => stream.decode_base64_mime(boundary),
            Encoding::QuotedPrintable => stream.decode_quoted_printable_mime(boundary),
            Encoding::None => stream.mime_part(boundary),
        };

        // The parser's recovery of a body that does not decode: its bytes as text.
        let mut is_encoding_problem = offset_end == usize::MAX;
        if is_encoding_problem {
            encoding = Encoding::None;
            if mime_type != MimeType::TextPlain {
                mime_type = MimeType::TextOther;
            }
            is_text = true;
            let (offset_end, boundary_found) = stream.seek_part_end(state.boundary.as_deref());
            state.offset_end = offset_end;
            bytes = Cow::Borrowed(stream.bytes(state.offset_body..state.offset_end));
            if !boundary_found {
                state.boundary = None;
            }
        } else {
            state.offset_end = offset_end;
        }

        let body = if mime_type != MimeType::Message {
            if is_text {
                let decoder = content_type
                    .and_then(|ct| ct.attribute("charset"))
                    .and_then(|c| charset_decoder(c.as_bytes()));
                let text: Cow<'x, str> = match (bytes, decoder) {
                    (bytes, Some(decoder)) => super::charset::decode(decoder, bytes),
                    (Cow::Owned(vec), None) => String::from_utf8(vec)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
                        .into(),
                    (Cow::Borrowed(bytes), None) => String::from_utf8_lossy(bytes),
                };
                if mime_type == MimeType::TextHtml {
                    PartType::Html(text)
                } else {
                    PartType::Text(text)
                }
            } else {
                PartType::Binary(bytes)
            }
        } else if depth == 0 {
            is_encoding_problem = true;
            PartType::Binary(bytes)
        } else if let Some(nested) = parse_at_depth(fields, bytes.as_ref(), depth - 1) {
            PartType::Message(Message {
                parts: nested.parts.into_iter().map(|p| p.into_owned()).collect(),
                raw_message: bytes.into_owned().into(),
                ..Message::default()
            })
        } else {
            is_encoding_problem = true;
            PartType::Binary(bytes)
        };

        message.parts.push(MessagePart {
            headers: std::mem::take(&mut part_headers),
            encoding,
            is_encoding_problem,
            body,
            offset_header: state.offset_header as u32,
            offset_body: state.offset_body as u32,
            offset_end: state.offset_end as u32,
        });

        if state.boundary.is_some() {
            // In a multipart: end the messages that ended with this part, then the
            // multiparts whose closing delimiter comes next.
            'inner: loop {
                if state.mime_type == MimeType::Message {
                    let Some((mut prev_state, Some(mut prev_message))) = stack.pop() else {
                        break 'outer;
                    };
                    let offset_end = state
                        .boundary
                        .as_ref()
                        .map(|b| {
                            let pos = stream.offset().saturating_sub(b.len() + 2);
                            match stream.bytes(0..stream.len()).get(pos.wrapping_sub(2)) {
                                Some(b'\r') => pos.wrapping_sub(2),
                                _ => pos.wrapping_sub(1),
                            }
                        })
                        .unwrap_or_else(|| stream.offset());
                    message.raw_message = raw.into();
                    if let Some(part) = prev_message.parts.get_mut(state.part_id as usize) {
                        part.offset_end = offset_end as u32;
                        if message.parts.is_empty() {
                            part.is_encoding_problem = true;
                            part.body = PartType::Text(String::from_utf8_lossy(
                                raw.get(part.offset_body as usize..offset_end)
                                    .unwrap_or_default(),
                            ));
                        } else {
                            part.body = PartType::Message(message);
                        }
                    }
                    message = prev_message;
                    prev_state.boundary = state.boundary;
                    state = prev_state;
                }

                if stream.is_multipart_end() {
                    if let Some(part) = message.parts.get_mut(state.part_id as usize) {
                        if state.sub_part_ids.len() != 1 || state.sub_part_ids[0] != 0 {
                            part.body =
                                PartType::Multipart(std::mem::take(&mut state.sub_part_ids));
                        }
                        if let Some((prev_state, _)) = stack.pop() {
                            state = prev_state;
                            if let Some(boundary) = &state.boundary {
                                // The parent has a boundary: seek its next delimiter.
                                if let Some(offset) = stream.seek_next_part_offset(boundary) {
                                    part.offset_end = offset as u32;
                                    continue 'inner;
                                }
                            }
                        }
                        part.offset_end = stream.offset() as u32;
                    }
                    break 'outer;
                } else {
                    // The next part's header block.
                    break 'inner;
                }
            }
        } else if stream.offset() >= stream.len() {
            break 'outer;
        }
    }

    // A message cut short: what was read of each open multipart and message.
    while let Some((prev_state, prev_message)) = stack.pop() {
        if let Some(mut prev_message) = prev_message {
            message.raw_message = raw.into();
            if let Some(part) = prev_message.parts.get_mut(state.part_id as usize) {
                part.offset_end = stream.offset() as u32;
                if message.parts.is_empty() {
                    part.is_encoding_problem = true;
                    let raw_text = raw.get(part.offset_body as usize..stream.offset());
                    let text = match raw_text
                        .and_then(|bytes| std::str::from_utf8(bytes).ok())
                        .and_then(|text| {
                            state
                                .boundary
                                .as_deref()
                                .and_then(|b| std::str::from_utf8(b).ok())
                                .and_then(|boundary| {
                                    text.rsplit_once(boundary)
                                        .and_then(|(text, _)| text.strip_suffix("--"))
                                })
                                .map(|text| {
                                    let text = text.strip_suffix('\n').unwrap_or(text);
                                    text.strip_suffix('\r').unwrap_or(text)
                                })
                        }) {
                        Some(text) => Cow::Borrowed(text),
                        None => String::from_utf8_lossy(raw_text.unwrap_or_default()),
                    };
                    part.body = PartType::Text(text);
                } else {
                    part.body = PartType::Message(message);
                }
            }
            message = prev_message;
        } else if let Some(part) = message.parts.get_mut(state.part_id as usize) {
            part.offset_end = stream.offset() as u32;
            if state.sub_part_ids.len() != 1 || state.sub_part_ids[0] != 0 {
                part.body = PartType::Multipart(state.sub_part_ids);
            }
        }
        state = prev_state;
    }

    message.raw_message = raw.into();
    if !message.parts.is_empty() {
        message.parts[0].offset_end = raw.len() as u32;
        Some(message)
    } else if had_fields {
        // A header without a body.
        message.parts.push(MessagePart {
            headers: part_headers,
            encoding: Encoding::None,
            is_encoding_problem: true,
            body: PartType::Text("".into()),
            offset_header: 0,
            offset_body: raw.len() as u32,
            offset_end: raw.len() as u32,
        });
        Some(message)
    } else {
        None
    }
}
