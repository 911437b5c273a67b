//! The header blocks of the flat path ([`super::flat`]) and of the general one
//! ([`super::general`]): `mail-parser`'s own loop over the fields of a block
//! (`MessageStream::parse_headers`), with the fields the scan reads parsed by the parser's
//! own field parsers, and every other field skipped a line at a time.
//!
//! # Algorithm
//!
//! For each field, the name is compared as bytes before any parser runs: the bytes up to
//! the first colon, when no white space (line breaks included) comes before it, are the
//! name as the parser would read it (its `parse_header_name` drops white space, lowers
//! the case, and looks the result up in its table), so they are compared, ignoring case,
//! with the dozen names the scan reads ([`Fields::name`]).
//! A name that is none of them is a field the scan ignores: no [`HeaderName`] is made for
//! it. A name with white space in it or before its colon, or a line without a colon, is
//! read by the parser's `parse_header_name` (rare: malformed mail). The common forms of
//! the values of content types, ids and unstructured fields are read without the parser
//! ([`header_values`]), other forms by its field parsers.
//!
//! The parser skips an ignored field (`Received:`, `DKIM-Signature:`, …: most of a
//! message's header) one byte at a time until a line break that no space or tab follows.
//! Here such a field is one vector scan for that line break, continuation lines included
//! ([`Kernel::field_end`]), and a name's end is one vector scan too ([`Kernel::name_end`]).
//! The fields the scan reads go to the parser function that [`Fields::parser`] maps them
//! to, or to [`header_values`] for their common forms.
//!
//! # Invariants
//!
//! For a [`Fields`] value, [`parse_headers`] leaves the stream where
//! `MessageStream::parse_headers` with [`Fields::parser`] leaves it, returns the same, and
//! pushes the same headers (names, values, offsets) except those of the fields it ignores,
//! of which it keeps no record (so a block of millions of short fields costs nothing per
//! field), and of those past the first [`MAX_KEPT_FIELDS`] of a block (a block with more
//! read fields than that, never seen in real mail, can have another Subject than the
//! parser's, which takes the last). A test below checks this on a block
//! holding every field name the parser knows, in several layouts, with both values of
//! [`Fields::index`]; `tests/pipeline.rs` checks whole messages of both corpora.

use mail_parser::parsers::MessageStream;
use mail_parser::{Header, HeaderName, HeaderValue, MessageParser};

use super::header_values;
use linkscan::__private::Kernel;

/// The most fields of one header block kept ([`parse_headers`]); the rest are read past.
pub(crate) const MAX_KEPT_FIELDS: usize = 1000;

/// The most bytes of a `From`, `To` or `Cc` field parsed into addresses, for the index
/// ([`Fields::index`]). A longer field (millions of addresses in megabytes, which the
/// parser would hold as an entry each) keeps the addresses of its first bytes, up to the
/// last comma, and ends with an entry of its own: a name `… and N more`, no address,
/// where N counts the commas after the cut (one per address of a plain list).
pub(crate) const MAX_ADDRESS_FIELD: usize = 16 * 1024;

/// Which header fields the scan reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fields {
    /// Also the fields only an index of the messages shows: From, To, Cc, Date,
    /// List-Id, In-Reply-To and References.
    pub(crate) index: bool,
}

impl Fields {
    /// The parser configured for these fields: each parsed as the default configuration
    /// parses it, every other field skipped.
    pub(crate) fn parser(self) -> MessageParser {
        let parser = MessageParser::new()
            .with_mime_headers()
            .header_text(HeaderName::Subject)
            .header_id(HeaderName::MessageId);
        let parser = if self.index {
            parser
                .header_id(HeaderName::InReplyTo)
                .header_id(HeaderName::References)
                .header_address(HeaderName::From)
                .header_address(HeaderName::To)
                .header_address(HeaderName::Cc)
                .header_address(HeaderName::ListId)
                .header_date(HeaderName::Date)
        } else {
            parser
        };
        parser.default_header_ignore()
    }

    /// Whether the scan reads the field `name` (else [`Fields::parser`] ignores it). A
    /// field added here goes in [`Fields::name`] too, which finds these names as bytes
    /// (the test of the header loop against the parser's fails otherwise).
    fn reads(self, name: &HeaderName<'_>) -> bool {
        match name {
            HeaderName::ContentType
            | HeaderName::ContentDisposition
            | HeaderName::ContentId
            | HeaderName::MessageId
            | HeaderName::ContentDescription
            | HeaderName::ContentLocation
            | HeaderName::ContentTransferEncoding
            | HeaderName::Subject => true,
            HeaderName::InReplyTo
            | HeaderName::References
            | HeaderName::From
            | HeaderName::To
            | HeaderName::Cc
            | HeaderName::ListId
            | HeaderName::Date => self.index,
            _ => false,
        }
    }

    /// Parses the value of the field `name` as [`Fields::parser`] does; `None` for a field
    /// it ignores (skipped here).
    fn value<'x>(
        self,
        name: &HeaderName<'x>,
        stream: &mut MessageStream<'x>,
    ) -> Option<HeaderValue<'x>> {
        let value = self.read_value(name, stream);
        self.reads(name).then_some(value)
    }

    fn read_value<'x>(
        self,
        name: &HeaderName<'x>,
        stream: &mut MessageStream<'x>,
    ) -> HeaderValue<'x> {
        match name {
            // `with_mime_headers`.
            // The common forms without the parser's byte loop ([`header_values`]).
            HeaderName::ContentType | HeaderName::ContentDisposition => {
                header_values::content_type(stream).unwrap_or_else(|| stream.parse_content_type())
            }
            HeaderName::ContentId | HeaderName::MessageId => {
                header_values::id(stream).unwrap_or_else(|| stream.parse_id())
            }
            HeaderName::ContentDescription
            | HeaderName::ContentLocation
            | HeaderName::ContentTransferEncoding
            | HeaderName::Subject => {
                header_values::unstructured(stream).unwrap_or_else(|| stream.parse_unstructured())
            }
            HeaderName::InReplyTo | HeaderName::References if self.index => stream.parse_id(),
            HeaderName::From | HeaderName::To | HeaderName::Cc | HeaderName::ListId
                if self.index =>
            {
                parse_address_capped(stream)
            }
            HeaderName::Date if self.index => stream.parse_date(),
            _ => {
                skip_field(Kernel::detect(), stream);
                HeaderValue::Empty
            }
        }
    }
}

/// `MessageStream::parse_headers` with [`Fields::parser`]: reads a header block up to
/// and including the empty line that ends it (`true`), or to the end of the input
/// (`false`).
pub(crate) fn parse_headers<'x>(
    stream: &mut MessageStream<'x>,
    fields: Fields,
    headers: &mut Vec<Header<'x>>,
) -> bool {
    read_block(stream, fields, headers).ended
}

/// What [`read_block`] read of a header block.
pub(crate) struct Block {
    /// The block ended with its empty line ([`parse_headers`]'s result).
    pub(crate) ended: bool,
    /// How many fields it had, kept or not: the parser's count of the records it would
    /// have made.
    pub(crate) fields: usize,
}

/// [`parse_headers`], with the count of the block's fields.
pub(crate) fn read_block<'x>(
    stream: &mut MessageStream<'x>,
    fields: Fields,
    headers: &mut Vec<Header<'x>>,
) -> Block {
    // The vector kernel, chosen once for the block (two scans a field use it).
    let kernel = Kernel::detect();
    let mut count = 0;
    loop {
        loop {
            match stream.peek() {
                Some(b'\n') => {
                    stream.next();
                    return Block {
                        ended: true,
                        fields: count,
                    };
                }
                None => {
                    return Block {
                        ended: false,
                        fields: count,
                    }
                }
                Some(ch) if !ch.is_ascii_whitespace() => break,
                _ => {
                    stream.next();
                }
            }
        }
        let offset_field = stream.offset();
        let name = match fields.name(kernel, stream) {
            Name::Read(name) => Some(name),
            Name::Ignored => {
                count += 1;
                skip_field(kernel, stream);
                continue;
            }
            Name::Other => stream.parse_header_name(),
        };
        if let Some(name) = name {
            count += 1;
            let offset_start = stream.offset();
            // A field the scan ignores is skipped and not kept: a record per field costs
            // some 50 times the bytes of a short one (`X:a`), and a header block may hold
            // millions.
            // Past MAX_KEPT_FIELDS, read fields are skipped too (no real block has that
            // many; a hostile one of 600,000 Subject fields took 22 times its size).
            let value = fields.value(&name, stream);
            if let Some(value) = value.filter(|_| headers.len() < MAX_KEPT_FIELDS) {
                headers.push(Header {
                    name,
                    value,
                    offset_field: offset_field as u32,
                    offset_start: offset_start as u32,
                    offset_end: stream.offset() as u32,
                });
            }
        } else if stream.is_eof() {
            return Block {
                ended: false,
                fields: count,
            };
        }
    }
}

/// A field's name as [`Fields::name`] reads it.
enum Name<'x> {
    /// A field the scan reads; the stream is past its colon.
    Read(HeaderName<'x>),
    /// A field the scan ignores; the stream is past its colon.
    Ignored,
    /// Not a plain `name:` (white space or a line break before the colon, a colon first,
    /// no colon): the stream has not moved, and the parser's `parse_header_name` reads it.
    Other,
}

impl Fields {
    /// The name of the field at the stream's position, compared as bytes: the bytes before
    /// the first colon, when none is white space or a line break, are the parser's name
    /// token as they stand (its `parse_header_name` lowers their case and looks them up;
    /// a name of more than 34 bytes, or one it does not know, is `Other`), so a name equal
    /// to one the scan reads, ignoring case, is that field, and any other name is a field
    /// the scan ignores, for which no [`HeaderName`] is made.
    fn name<'x>(self, kernel: Kernel, stream: &mut MessageStream<'x>) -> Name<'x> {
        let rest = stream.bytes(stream.offset()..stream.len());
        // The first colon or white space (a line break is white space).
        let colon = kernel.name_end(rest, 0);
        if colon == 0 || rest.get(colon) != Some(&b':') {
            return Name::Other;
        }
        let token = &rest[..colon];
        let is = |name: &str| token.eq_ignore_ascii_case(name.as_bytes());
        let name = match token.len() {
            2 if self.index && is("to") => HeaderName::To,
            2 if self.index && is("cc") => HeaderName::Cc,
            4 if self.index && is("from") => HeaderName::From,
            4 if self.index && is("date") => HeaderName::Date,
            7 if is("subject") => HeaderName::Subject,
            7 if self.index && is("list-id") => HeaderName::ListId,
            10 if is("message-id") => HeaderName::MessageId,
            10 if is("content-id") => HeaderName::ContentId,
            10 if self.index && is("references") => HeaderName::References,
            11 if self.index && is("in-reply-to") => HeaderName::InReplyTo,
            12 if is("content-type") => HeaderName::ContentType,
            16 if is("content-location") => HeaderName::ContentLocation,
            19 if is("content-description") => HeaderName::ContentDescription,
            19 if is("content-disposition") => HeaderName::ContentDisposition,
            25 if is("content-transfer-encoding") => HeaderName::ContentTransferEncoding,
            _ => {
                stream.skip_bytes(colon + 1);
                return Name::Ignored;
            }
        };
        debug_assert!(self.reads(&name));
        stream.skip_bytes(colon + 1);
        Name::Read(name)
    }
}

/// The parser's `parse_and_ignore`: past the line break that ends the field (one not
/// followed by a space or a tab, which is consumed), else to the end of the input. The
/// parser reads such a field a byte at a time; here it is one vector scan over its lines
/// ([`Kernel::field_end`]), which is the same position: the parser stops at the first line
/// break after which it reads neither a space nor a tab.
/// The parser's `parse_address` on a field of at most [`MAX_ADDRESS_FIELD`] bytes; a
/// longer one parsed up to its last comma in that many bytes, then `… and N more`.
fn parse_address_capped<'x>(stream: &mut MessageStream<'x>) -> HeaderValue<'x> {
    let rest = stream.bytes(stream.offset()..stream.len());
    let end = Kernel::detect().field_end(rest, 0);
    if end <= MAX_ADDRESS_FIELD {
        return stream.parse_address();
    }
    let cut = memchr::memrchr(b',', &rest[..MAX_ADDRESS_FIELD]).unwrap_or(MAX_ADDRESS_FIELD);
    let more = memchr::memchr_iter(b',', &rest[cut..end]).count();
    // The comma kept: the parser drops an address that the end of its input cuts off.
    let mut head = MessageStream::new(&rest[..(cut + 1).min(end)]);
    let mut list = match head.parse_address() {
        HeaderValue::Address(mail_parser::Address::List(list)) => list,
        HeaderValue::Address(mail_parser::Address::Group(groups)) => {
            groups.into_iter().flat_map(|g| g.addresses).collect()
        }
        _ => Vec::new(),
    };
    list.push(mail_parser::Addr {
        name: Some(format!("… and {more} more").into()),
        address: None,
    });
    stream.skip_bytes(end);
    HeaderValue::Address(mail_parser::Address::List(list))
}

fn skip_field(kernel: Kernel, stream: &mut MessageStream<'_>) {
    let rest = stream.bytes(stream.offset()..stream.len());
    let end = kernel.field_end(rest, 0);
    stream.skip_bytes(end);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field name the parser knows, and some it does not.
    const NAMES: &[&str] = &[
        "Subject",
        "From",
        "To",
        "Cc",
        "Date",
        "Bcc",
        "Reply-To",
        "Sender",
        "Comments",
        "In-Reply-To",
        "Keywords",
        "Received",
        "Message-ID",
        "References",
        "Return-Path",
        "MIME-Version",
        "Content-Description",
        "Content-ID",
        "Content-Language",
        "Content-Location",
        "Content-Transfer-Encoding",
        "Content-Type",
        "Content-Disposition",
        "Resent-To",
        "Resent-From",
        "Resent-Bcc",
        "Resent-Cc",
        "Resent-Sender",
        "Resent-Date",
        "Resent-Message-ID",
        "List-Archive",
        "List-Help",
        "List-ID",
        "List-Owner",
        "List-Post",
        "List-Subscribe",
        "List-Unsubscribe",
        "ARC-Authentication-Results",
        "ARC-Message-Signature",
        "ARC-Seal",
        "DKIM-Signature",
        "X-Mailer",
        "x-unknown-field",
        "content-type",
        "SUBJECT",
        // Names compared as bytes only where they stand alone before the colon: white
        // space in or after a name, a name over the parser's 34 bytes, other bytes.
        "Subject ",
        "Sub ject",
        "Content-Type\t",
        "cONTENT-tRANSFER-eNCODING",
        "Content-Transfer-Encoding-And-More-Than-34-Bytes",
        "Subject-",
        "Subjec",
        "Fröm",
        "X-\u{1}",
    ];

    /// Values in several layouts: folded lines (space and tab), CRLF, an empty value,
    /// RFC 2047 words, addresses, ids, dates, parameters.
    const VALUES: &[&str] = &[
        " text/plain; charset=utf-8\r\n",
        " =?utf-8?q?caf=C3=A9?= and more\n",
        " <a@b.example> (comment)\r\n\t<c@d.example>\r\n",
        " Ann <ann@example.org>, bob@example.net\n",
        " Tue, 24 Nov 2026 06:32:40 +0000\n",
        "\n",
        " first line\n  second line\n\tthird line\n",
        " multipart/mixed;\n boundary=\"b1\"\n",
        " quoted-printable\n",
        " from x.y.test\n      by example.net\n      for <m@example.net>; 21 Nov 1997\n",
        ":::\n",
    ];

    fn both(block: &[u8], fields: Fields) {
        let parser = fields.parser();
        let mut theirs = MessageStream::new(block);
        let mut their_headers = Vec::new();
        let their_end = theirs.parse_headers(&parser, &mut their_headers);
        let mut ours = MessageStream::new(block);
        let mut our_headers = Vec::new();
        let our_end = parse_headers(&mut ours, fields, &mut our_headers);
        let what = String::from_utf8_lossy(block);
        assert_eq!(our_end, their_end, "{what}");
        assert_eq!(ours.offset(), theirs.offset(), "{what}");
        // The fields the scan ignores are skipped without a record.
        their_headers.retain(|h| fields.reads(&h.name));
        assert_eq!(our_headers, their_headers, "{what}");
    }

    #[test]
    fn the_header_loop_equals_the_parsers_on_every_field_name_and_layout() {
        for index in [false, true] {
            let fields = Fields { index };
            for (i, name) in NAMES.iter().enumerate() {
                for (j, value) in VALUES.iter().enumerate() {
                    // The field alone, ended by the blank line, by the end of the input,
                    // or by a line break at the very end; then among others.
                    let field = format!("{name}:{value}");
                    both(format!("{field}\nbody").as_bytes(), fields);
                    both(field.as_bytes(), fields);
                    both(field.trim_end_matches(['\r', '\n']).as_bytes(), fields);
                    let next = NAMES[(i + j + 1) % NAMES.len()];
                    let block = format!(
                        "{field}{next}: {}\r\n \r\n\r\nbody",
                        VALUES[(i * 7 + j) % VALUES.len()].trim()
                    );
                    both(block.as_bytes(), fields);
                }
            }
            // Lines that are not fields: no colon, leading white space, a lone CR.
            for odd in [
                "no colon here\nSubject: x\n\nbody",
                "  Subject: indented\n\nbody",
                "Subject: a\r\rX-Y: b\n\nbody",
                "\n\nbody",
                "",
                ":\n\n",
                "Received: a\n\t\n \nSubject: b\n\n",
            ] {
                both(odd.as_bytes(), fields);
            }
        }
    }
}
