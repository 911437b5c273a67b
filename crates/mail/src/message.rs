//! Scanning one email message: MIME tree, decoding, text parts, links, warnings.
//!
//! # Algorithm
//!
//! The message is parsed into `mail-parser`'s tree, with the transfer encodings undone
//! (quoted-printable soft line breaks and `=XX` escapes, base64), each text part converted
//! from its declared charset to UTF-8 (ISO-2022-JP, Shift_JIS, EUC-KR, GB18030, KOI8-R,
//! windows-125x, … through `encoding_rs`), and RFC 2047 encoded words of the Subject
//! decoded. Two paths make that tree, both reading header blocks with one loop that keeps
//! no record of the fields the scan ignores (`message/headers.rs`, which skips them a
//! vector at a time and reads the common forms of the values it keeps without the
//! parser's byte loop, `message/header_values.rs`): a flat message (text parts,
//! multiparts of them, attachments) is read by `message/flat.rs`, with its own
//! quoted-printable and base64 decoders (base64 32 characters at a time with AVX2,
//! `message/base64.rs`); any other (nested messages, digests, bodies that do not decode)
//! by `message/general.rs`, the parser's own loop. Single-byte charsets are decoded by
//! table (`message/charset.rs`). The walk then takes each part's body out of the
//! tree (a decoded text becomes the scanned text without a copy), in order:
//!
//! * the decoded Subject is scanned as part `subject`;
//! * each `text/plain` part (and each part without a Content-Type, which is text/plain by
//!   RFC 2045) is scanned as decoded; a `format=flowed` one is unflowed first (see
//!   [`flowed`](super::flowed)), on the general and the flat path alike, since both
//!   hand their parse to the same walk;
//! * of each `text/html` part, the visible text is scanned (see [`html_text`]); links in
//!   `href` attributes are reported too, with [`LinkSource::Href`] and the range of the
//!   anchor's text;
//! * `multipart/*` parts and nested `message/rfc822` messages are followed; other parts
//!   (attachments, other `text/*` subtypes unless asked for) are not scanned.
//!
//! Part paths follow IMAP (RFC 3501 section 6.4.5): the children of a multipart are
//! numbered from 1 and joined with dots, a message that is not multipart has one part `1`,
//! and the parts of a nested message continue the path of the `message/rfc822` part that
//! holds it (`2.1`, `2.2`, and `2.subject` for its Subject).
//!
//! # Bad input
//!
//! Nothing here fails: whatever the bytes, the result has every text that could be
//! recovered and a warning for each problem seen. A message the parser cannot read at all
//! (or that does not start with a header field) is scanned as raw text; a part whose base64 or quoted-printable is broken is scanned
//! undecoded (the parser's fallback); an unknown charset is read as UTF-8; undecodable
//! bytes become U+FFFD and are counted; a multipart without its closing boundary is
//! reported as truncated. A panic inside the parser (none is known) is caught and the
//! message scanned raw.
//!
//! A base64 body that the parser rejects (it refuses any character outside the base64
//! alphabet, such as a `-- ` signature line or a stray `!`, and a body cut short) is
//! decoded here as RFC 2045 section 6.8 says: characters outside the alphabet are ignored.
//! The lines after the last line made only of base64 characters (a footer added by a list
//! server, say) are not base64 data: they are scanned as text too, after the decoded
//! text. One warning says how many characters were ignored.
//!
//! # Limits
//!
//! * Nesting: before parsing, a linear scan bounds from the raw bytes how deeply the parser
//!   would nest `message/rfc822` parts (the parser frees that tree recursively, and
//!   copies it recursively inside encoded message parts, so a deep one would overflow the
//!   stack) and how many parts it would make. A message whose bound passes [`MAX_NESTED_MESSAGES`]
//!   (or [`MAX_ENCODED_NESTED_MESSAGES`] inside encoded message parts), or whose parts
//!   may be more than [`MAX_PARTS`], is not parsed: its raw bytes are scanned as text,
//!   with a warning. The parser's tree is freed iteratively.
//! * Depth of the walk: parts nested deeper than [`MAX_DEPTH`] levels (multiparts and
//!   messages) are not walked; the raw bytes of the first such part on each branch are
//!   scanned as text, with a warning.
//!
//! # Invariants
//!
//! For every link of a part, `start..end` is a range of character boundaries of the part's
//! `text`; for [`LinkSource::Text`] links `text[start..end]` is the link, for
//! [`LinkSource::Href`] links it is the anchor's content and the link is
//! [`MailLink::text`]. Parts come in tree order, links in text order (href links after the
//! text links of the same part).

mod attachment;
mod base64;
mod charset;
pub(crate) mod flat;
mod general;
mod header_values;
pub(crate) mod headers;
mod nesting;
mod warning;

pub use attachment::{is_text_attachment, MAX_INLINE_ATTACHMENT};
pub use warning::{Base64Problem, BodyProblem, MailWarning};

use std::borrow::Cow;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};

use mail_parser::decoders::charsets::map::charset_decoder;
use mail_parser::{Address, Message, MessageParser, MessagePart, MimeHeaders, PartType};

use super::html_text::{html_text, HtmlText};
use attachment::Kept;
use linkscan::html::Linkifier;
use linkscan::{LinkFinder, LinkKind, Match};

/// How deep multiparts and nested messages are followed; a deeper part's raw bytes are
/// scanned as text, with a warning.
pub const MAX_DEPTH: usize = 64;

/// The most `message/rfc822` (or `message/global`, or digest) part headers a message may
/// have for the MIME parser to read it; past that its raw bytes are scanned as text, with a
/// warning. Their count (of the `rfc822`, `global` and `digest` subtypes in the raw bytes)
/// bounds the depth of the parser's tree of nested messages, which it would free
/// recursively (this module frees it iteratively) and builds at a cost per level. It
/// counts siblings too, so it is set far above real mail (a digest of a few hundred
/// messages, forwards a handful deep).
pub const MAX_NESTED_MESSAGES: usize = 1000;

/// The most message part headers a message may have inside base64 or quoted-printable
/// `message/rfc822` parts (which RFC 2046 forbids, and which the parser decodes and parses
/// anyway). The parser copies such a part's decoded body once for every message nested in
/// it, so this bounds the memory of parsing to a small multiple of the message's size.
pub const MAX_ENCODED_NESTED_MESSAGES: usize = 8;

/// The most MIME parts a message may have for the parser to read it (counted from its
/// boundary delimiters and nested messages); past that its raw bytes are scanned as text,
/// with a warning. A part costs the parser and the scanner a few hundred
/// bytes whatever its size, so this bounds the memory of a message of tiny parts; real
/// mail has tens.
pub const MAX_PARTS: usize = 10_000;

const LIMITS: nesting::Limits = nesting::Limits {
    nesting: MAX_NESTED_MESSAGES,
    encoded: MAX_ENCODED_NESTED_MESSAGES,
    parts: MAX_PARTS,
};

/// Where in a part a link was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LinkSource {
    /// In the (decoded) text.
    Text,
    /// In the `href` attribute of an `<a>` element of an HTML part.
    Href,
}

impl LinkSource {
    /// `"text"` or `"href"`.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkSource::Text => "text",
            LinkSource::Href => "href",
        }
    }
}

/// A link found in a message.
///
/// ```
/// use linkscan_mail::{LinkSource, MailScanner};
/// use linkscan::LinkKind;
/// let raw = b"Content-Type: text/html\n\n<p>Write to <a href=\"mailto:x@example.org\">us</a> \
///             or see example.com/a</p>\n";
/// let scanned = MailScanner::new().scan(raw);
/// let part = &scanned.parts()[0];
/// let [text, href] = part.links() else { panic!("{part:?}") };
/// assert_eq!((text.text(), text.href()), ("example.com/a", "https://example.com/a"));
/// assert_eq!((text.kind(), text.source()), (LinkKind::Url, LinkSource::Text));
/// assert_eq!(&part.text()[text.range()], "example.com/a");
/// assert_eq!((text.start(), text.end()), (text.range().start, text.range().end));
/// // An href link: its range is the anchor's text, the link is in the attribute.
/// assert_eq!(href.text(), "mailto:x@example.org");
/// assert_eq!((href.href(), href.source()), ("mailto:x@example.org", LinkSource::Href));
/// assert_eq!(&part.text()[href.range()], "us");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailLink {
    start: usize,
    end: usize,
    kind: LinkKind,
    source: LinkSource,
    /// The text, then the href, in one allocation: a message with a link every few bytes
    /// holds millions of them (two `String`s cost 32 bytes and an allocation more each).
    both: Box<str>,
    /// Where the href starts in `both`.
    split: usize,
}

/// A link made up from its parts, for the crate's tests.
#[cfg(test)]
pub(crate) fn mail_link(
    range: Range<usize>,
    kind: LinkKind,
    source: LinkSource,
    text: String,
    href: String,
) -> MailLink {
    MailLink::new(range.start, range.end, kind, source, &text, &href)
}

impl MailLink {
    /// A link made up by the caller, for the tests of code that consumes scan results
    /// (feature `__internals`; not part of the API).
    #[cfg(feature = "__test")]
    #[doc(hidden)]
    pub fn from_parts(
        range: Range<usize>,
        kind: LinkKind,
        source: LinkSource,
        text: String,
        href: String,
    ) -> MailLink {
        MailLink::new(range.start, range.end, kind, source, &text, &href)
    }

    /// A link at `start..end` of its part, with its text and href.
    pub(crate) fn new(
        start: usize,
        end: usize,
        kind: LinkKind,
        source: LinkSource,
        text: &str,
        href: &str,
    ) -> MailLink {
        let mut both = String::with_capacity(text.len() + href.len());
        both.push_str(text);
        both.push_str(href);
        MailLink {
            start,
            end,
            kind,
            source,
            both: both.into_boxed_str(),
            split: text.len(),
        }
    }

    /// Byte offset in the part's text (for an href link: where the anchor's content starts).
    pub fn start(&self) -> usize {
        self.start
    }

    /// Byte offset just past the link (for an href link: past the anchor's content).
    pub fn end(&self) -> usize {
        self.end
    }

    /// `start()..end()`: a range of the part's [`TextPart::text`].
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// URL or email.
    pub fn kind(&self) -> LinkKind {
        self.kind
    }

    /// Whether it was found in the text or in an `href` attribute.
    pub fn source(&self) -> LinkSource {
        self.source
    }

    /// The link as detected.
    pub fn text(&self) -> &str {
        &self.both[..self.split]
    }

    /// The link as it goes in an `<a href>`: the default scheme before a URL written
    /// without one, `mailto:` before an email.
    pub fn href(&self) -> &str {
        &self.both[self.split..]
    }
}

/// One scanned text of a message: its Subject or a text part.
///
/// ```
/// use linkscan_mail::MailScanner;
/// let raw = b"Subject: see example.org\nContent-Type: text/plain\n\nand x.com/a\n";
/// let scanned = MailScanner::new().scan(raw);
/// let [subject, body] = scanned.parts() else { panic!() };
/// assert_eq!((subject.path(), subject.content_type()), ("subject", None));
/// assert_eq!(subject.text(), "see example.org");
/// assert_eq!((body.path(), body.content_type()), ("1", Some("text/plain")));
/// assert_eq!(body.text(), "and x.com/a\n");
/// assert_eq!(body.links()[0].text(), "x.com/a");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextPart {
    pub(crate) path: String,
    pub(crate) content_type: Option<String>,
    pub(crate) text: String,
    pub(crate) links: Vec<MailLink>,
    /// A `format=flowed` part, whose `text` is unflowed ([`flowed`](super::flowed)).
    pub(crate) flowed: bool,
    /// A text attachment shown as text ([`MailScanner::inline_text_attachments`]): its
    /// file name (empty when it has none).
    pub(crate) attachment: Option<String>,
}

impl TextPart {
    /// `subject`, or the part's path in the MIME tree (`1`, `2.1`, `2.subject`, …).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// `text/plain` or `text/html` (lower case); `None` for a Subject.
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The decoded text (of an HTML part: its visible text).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The links, in order (href links after the text links).
    pub fn links(&self) -> &[MailLink] {
        &self.links
    }

    /// Whether this is a `text/plain; format=flowed` part (RFC 3676). Its
    /// [`text`](Self::text) is then unflowed by [`flowed::unflow`](super::flowed::unflow):
    /// each paragraph on one line, quoted paragraphs as `>` marks, one space and the
    /// paragraph, which [`flowed::paragraphs`](super::flowed::paragraphs) reads back; the
    /// links and their offsets are those of that text.
    ///
    /// ```
    /// use linkscan_mail::MailScanner;
    /// let raw = b"Content-Type: text/plain; format=flowed; delsp=yes\r\n\r\n\
    ///             see https://example.com/very/long/pa \r\nth/to/doc\r\n";
    /// let scanned = MailScanner::new().scan(raw);
    /// let part = &scanned.parts()[0];
    /// assert!(part.is_flowed());
    /// assert_eq!(part.text(), "see https://example.com/very/long/path/to/doc\r\n");
    /// assert_eq!(part.links()[0].text(), "https://example.com/very/long/path/to/doc");
    /// ```
    pub fn is_flowed(&self) -> bool {
        self.flowed
    }

    /// For a text attachment scanned as text ([`MailScanner::inline_text_attachments`]):
    /// its file name (empty when it has none); `None` for a text of the message.
    pub fn attachment_name(&self) -> Option<&str> {
        self.attachment.as_deref()
    }
}

/// What scanning one message found.
///
/// ```
/// use linkscan_mail::{MailScanner, MailWarning};
/// let raw = b"Message-ID: <b@example.org>\nIn-Reply-To: <a@example.org>\n\
///             References: <root@example.org> <a@example.org>\n\
///             From: Ann <ann@example.org>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\n\
///             Subject: re: plans\nContent-Type: text/plain; charset=x-unknown\n\n\
///             see example.com and example.org\n";
/// let m = MailScanner::new().scan(raw);
/// assert_eq!(m.message_id(), Some("b@example.org"));
/// assert_eq!(m.in_reply_to(), Some("a@example.org"));
/// assert_eq!(m.references(), ["root@example.org", "a@example.org"]);
/// assert_eq!(m.from(), Some("Ann <ann@example.org>"));
/// assert_eq!(m.date(), Some("2024-01-01T10:00:00Z"));
/// assert_eq!(m.subject(), Some("re: plans"));
/// assert_eq!(m.parts().len(), 2); // the Subject, then part 1
/// assert_eq!(m.link_count(), 2);
/// assert!(matches!(m.warnings(), [MailWarning::UnknownCharset { .. }]));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScannedMessage {
    pub(crate) message_id: Option<String>,
    pub(crate) in_reply_to: Option<String>,
    pub(crate) references: Vec<String>,
    pub(crate) from: Option<String>,
    pub(crate) to: Vec<String>,
    pub(crate) cc: Vec<String>,
    pub(crate) date: Option<String>,
    pub(crate) subject: Option<String>,
    pub(crate) list: Option<String>,
    pub(crate) parts: Vec<TextPart>,
    pub(crate) warnings: Vec<MailWarning>,
    /// Where the text of a piece scanned raw starts in its message.
    pub(crate) piece_offset: usize,
    /// Text links counted and not kept ([`MailScanner::count_only`]).
    pub(crate) counted: usize,
    /// Text links left out, to be found again ([`MailScanner::defer_text_links`]).
    pub(crate) deferred: bool,
    /// The leaf parts that were not scanned: path and content type.
    pub(crate) skipped: Vec<SkippedPart>,
    /// Attachments were kept ([`MailScanner::keep_attachments`]), and how many of their
    /// bytes so far.
    pub(crate) kept: Option<u64>,
    /// The message's bytes as scanned ([`MailScanner::keep_raw`]).
    pub(crate) raw: Option<Vec<u8>>,
    /// A piece of a message over the size limit, scanned raw.
    pub(crate) piece: bool,
}

/// A leaf part that was not scanned ([`ScannedMessage::skipped`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedPart {
    /// The part's path in the MIME tree.
    pub path: String,
    /// Its content type (lower case, `type/subtype`).
    pub content_type: String,
    /// Whether it reads as text (`text/*` other than plain and HTML, JSON, XML, scripts,
    /// delivery reports, message fragments, …), so that `other_text` (`--all-text`)
    /// would scan it; else an attachment such as an image or `application/octet-stream`.
    pub text_like: bool,
    /// Its file name (Content-Disposition's `filename`, else Content-Type's `name`).
    pub name: Option<String>,
    /// The size of its body as written in the message, still encoded (base64 or
    /// quoted-printable as sent) and with its line ends as written: the bytes from the end
    /// of its header block to the line break before the next boundary delimiter, or to
    /// the end of the message when no delimiter follows (a truncated message). Inside a
    /// nested message that was itself sent encoded, the bytes of its decoded text.
    pub size: u64,
    /// Its decoded bytes (a text as UTF-8), when the scanner keeps attachments
    /// ([`MailScanner::keep_attachments`]) and they fit in its limit; else `None`.
    pub data: Option<Vec<u8>>,
}

impl ScannedMessage {
    /// For a piece of a message over the size limit scanned as raw text
    /// ([`MailScanner::scan_raw`]): where the piece starts in the raw message. Its links'
    /// offsets count from the start of the message, so the link at `start` is at
    /// `start - piece_offset()` in the piece's text (when the piece is valid UTF-8). `0`
    /// for a parsed message.
    pub fn piece_offset(&self) -> usize {
        self.piece_offset
    }

    /// The Message-ID, without angle brackets.
    pub fn message_id(&self) -> Option<&str> {
        self.message_id.as_deref()
    }

    /// The first Message-ID of In-Reply-To, without angle brackets: the message this one
    /// answers.
    pub fn in_reply_to(&self) -> Option<&str> {
        self.in_reply_to.as_deref()
    }

    /// The Message-IDs of References, without angle brackets, oldest (the thread's root)
    /// first.
    pub fn references(&self) -> &[String] {
        &self.references
    }

    /// The first From address, as `Name <address>`.
    pub fn from(&self) -> Option<&str> {
        self.from.as_deref()
    }

    /// The To addresses, each as `Name <address>` (read with the index fields,
    /// [`MailScanner::index_fields`]).
    pub fn to(&self) -> &[String] {
        &self.to
    }

    /// The Cc addresses, each as `Name <address>` (read with the index fields).
    pub fn cc(&self) -> &[String] {
        &self.cc
    }

    /// The Date, in RFC 3339 form.
    pub fn date(&self) -> Option<&str> {
        self.date.as_deref()
    }

    /// The decoded Subject.
    pub fn subject(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    /// The name of the list it came through: the phrase of its `List-Id` header
    /// (`Atlas translators` of `List-Id: Atlas translators <atlas.lists.example.org>`),
    /// else the list's id itself (`atlas.lists.example.org`).
    pub fn list_name(&self) -> Option<&str> {
        self.list.as_deref()
    }

    /// The scanned texts, in tree order (the top-level Subject first).
    pub fn parts(&self) -> &[TextPart] {
        &self.parts
    }

    /// Problems met (their `Display` is the sentence for people); the message was still
    /// scanned as well as it could be.
    pub fn warnings(&self) -> &[MailWarning] {
        &self.warnings
    }

    /// The leaf parts that were not scanned (attachments, and text-like parts when
    /// [`MailScanner::other_text`] is off), in document order.
    pub fn skipped(&self) -> &[SkippedPart] {
        &self.skipped
    }

    /// The message's bytes as the scan was given them (header and body, without the
    /// mbox `From ` line, `>From` lines of an mboxrd unquoted), when the scanner keeps
    /// them ([`MailScanner::keep_raw`]). For a piece of a message over the size limit
    /// ([`ScannedMessage::is_piece`]), the piece's bytes as its input holds them (an
    /// mbox's `>From` lines still quoted: a piece is never unquoted).
    pub fn raw(&self) -> Option<&[u8]> {
        self.raw.as_deref()
    }

    /// Whether this is a piece of a message over the size limit, scanned as raw text
    /// ([`MailScanner::scan_raw`]).
    pub fn is_piece(&self) -> bool {
        self.piece
    }

    /// Whether the scanner kept the attachments' bytes ([`MailScanner::keep_attachments`]):
    /// then a [`SkippedPart::data`] that is `None` is one past the limit.
    pub fn attachments_kept(&self) -> bool {
        self.kept.is_some()
    }

    /// Whether the links of the texts were left out of the parts' [`TextPart::links`], to
    /// be found with [`MailScanner::text_links`] ([`MailScanner::defer_text_links`]).
    pub fn text_links_deferred(&self) -> bool {
        self.deferred
    }

    /// The number of links in all parts (with [`MailScanner::defer_text_links`], only the
    /// links kept).
    pub fn link_count(&self) -> usize {
        self.parts.iter().map(|p| p.links.len()).sum::<usize>() + self.counted
    }
}

/// Scans email messages for links; see the [module](self) documentation.
///
/// ```
/// use linkscan_mail::{LinkSource, MailScanner};
/// let raw = b"Subject: =?utf-8?q?see_example.com?=\r\nContent-Type: text/plain\r\n\
///             Content-Transfer-Encoding: quoted-printable\r\n\r\n\
///             https://en.wikipedia.org/wiki/Hamb=\r\nurg =3D x@example.org\r\n";
/// let scanned = MailScanner::new().scan(raw);
/// let links: Vec<(&str, &str, &str)> = scanned.parts().iter()
///     .flat_map(|p| p.links().iter().map(move |l| (p.path(), l.text(), l.href())))
///     .collect();
/// assert_eq!(links, [
///     ("subject", "example.com", "https://example.com"),
///     ("1", "https://en.wikipedia.org/wiki/Hamburg", "https://en.wikipedia.org/wiki/Hamburg"),
///     ("1", "x@example.org", "mailto:x@example.org"),
/// ]);
/// assert!(scanned.warnings().is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct MailScanner {
    pub(crate) linkifier: Linkifier,
    pub(crate) finder: LinkFinder,
    pub(crate) parser: MessageParser,
    /// The header fields `parser` reads, for the flat path's own header loop.
    pub(crate) fields: headers::Fields,
    /// Whether every message takes the general path (the reference of the tests).
    pub(crate) general_path_only: bool,
    other_text: bool,
    /// Text links are counted, not kept ([`MailScanner::count_only`]).
    pub(crate) count_only: bool,
    /// Text links are left out, to be found again ([`MailScanner::defer_text_links`]).
    pub(crate) defer: bool,
    /// The most bytes of attachments kept per message ([`MailScanner::keep_attachments`]).
    pub(crate) keep_attachments: Option<u64>,
    /// Text attachments are scanned as text ([`MailScanner::inline_text_attachments`]).
    pub(crate) inline_text_attachments: bool,
    /// The message's bytes are kept ([`MailScanner::keep_raw`]).
    pub(crate) keep_raw: bool,
}

impl Default for MailScanner {
    fn default() -> Self {
        MailScanner::new()
    }
}

impl MailScanner {
    /// What decides the results of this scanner, as text: its finder, its linkifier's
    /// default scheme, the parts it reads and the header fields it keeps.
    pub(crate) fn options_key(&self) -> String {
        format!(
            "{}; linkifier {}; fields {:?} general {} other-text {} count-only {}{}",
            linkscan::__private::finder_key(&self.finder),
            linkscan::__private::linkifier_key(&self.linkifier),
            self.fields,
            self.general_path_only,
            self.other_text,
            self.count_only,
            // Only when set: the key of a scanner without it stays as it was.
            match self.keep_attachments {
                Some(limit) => format!(
                    " attachments {limit} inline-text {}",
                    self.inline_text_attachments
                ),
                None => String::new(),
            } + if self.keep_raw { " raw" } else { "" }
        )
    }

    /// A scanner with the default [`LinkFinder`] and `https://` for scheme-less URLs.
    pub fn new() -> MailScanner {
        MailScanner {
            linkifier: Linkifier::new(),
            finder: LinkFinder::new(),
            parser: headers::Fields { index: true }.parser(),
            fields: headers::Fields { index: true },
            general_path_only: false,
            other_text: false,
            count_only: false,
            defer: false,
            keep_attachments: None,
            inline_text_attachments: false,
            keep_raw: false,
        }
    }

    /// Keep each message's bytes in the result ([`ScannedMessage::raw`]; default: no):
    /// what an archive offers to download. A copy of the message, freed with the result.
    pub fn keep_raw(mut self, yes: bool) -> Self {
        self.keep_raw = yes;
        self
    }

    /// Keep the decoded bytes of the attachments (the parts not scanned), up to `limit`
    /// bytes per message in all (default: none kept): each [`SkippedPart::data`] that fits
    /// in what is left of the limit, in document order, holds its bytes; one that does
    /// not, `None`. What an archive needs to write them beside its pages; memory stays
    /// bounded by the limit per message.
    pub fn keep_attachments(mut self, limit: Option<u64>) -> Self {
        self.keep_attachments = limit;
        self
    }

    /// With [`MailScanner::keep_attachments`], scan a text attachment as a text part
    /// (default: no): a part of a text-like type (patches, diffs, `text/x-*`, scripts,
    /// JSON, …) or whose file name is that of a source file or a patch
    /// ([`is_text_attachment`]), whose bytes are UTF-8 and fit in the limit and in
    /// [`MAX_INLINE_ATTACHMENT`]. It comes with its links, in tree order among the
    /// parts, and names itself ([`TextPart::attachment_name`]).
    pub fn inline_text_attachments(mut self, yes: bool) -> Self {
        self.inline_text_attachments = yes;
        self
    }

    /// Count the links of text instead of keeping them (default: no): each part's
    /// [`TextPart::links`] then holds only its `href` links, and
    /// [`ScannedMessage::link_count`] counts all. A message with a link every few bytes
    /// then costs no record per link (a record is some 100 bytes: 17 times a 6-byte link).
    pub fn count_only(mut self, yes: bool) -> Self {
        self.count_only = yes;
        self
    }

    /// Leave the links of the texts out of the result (default: no): each part's
    /// [`TextPart::links`] then holds only its `href` links, and the caller finds the others
    /// with [`MailScanner::text_links`] when it needs them, a few at a time. So a message
    /// with a link every few bytes costs no record per link (some 100 bytes each, 17 times a
    /// 6-byte link) while it waits to be written. [`MailScanner::count_only`] wins over this.
    ///
    /// ```
    /// use linkscan_mail::MailScanner;
    /// let scanner = MailScanner::new().defer_text_links(true);
    /// let m = scanner.scan(b"Subject: see example.com\n\nand x.org and y.org\n");
    /// assert!(m.text_links_deferred());
    /// assert!(m.parts().iter().all(|p| p.links().is_empty()));
    /// let body: Vec<_> = scanner.text_links(&m, 1, 0).map(|l| l.text().to_owned()).collect();
    /// assert_eq!(body, ["x.org", "y.org"]);
    /// // From the end of a link on: the links after it.
    /// let first = scanner.text_links(&m, 1, 0).next().unwrap();
    /// let rest: Vec<_> = scanner.text_links(&m, 1, first.end()).map(|l| l.start()).collect();
    /// assert_eq!(rest, [14]);
    /// ```
    pub fn defer_text_links(mut self, yes: bool) -> Self {
        self.defer = yes;
        self
    }

    /// The links of the text of part `part` of `message` that the scan left out
    /// ([`MailScanner::defer_text_links`]), in order, from the first that starts at or
    /// after `after` (an offset as [`MailLink::start`] gives it, such as the end of the last
    /// link handled; 0 for all): the links a scan that kept them would have put first in
    /// [`TextPart::links`], before the `href` links. Empty when the scan kept them, or when
    /// `part` is out of range. `message` must come from a scanner with the same finder.
    ///
    /// The search starts again just after the last ASCII space or control character before
    /// `after` (no link crosses one), so resuming costs a line or so of ordinary text.
    pub fn text_links<'a>(
        &'a self,
        message: &'a ScannedMessage,
        part: usize,
        after: usize,
    ) -> impl Iterator<Item = MailLink> + 'a {
        let text = match message.parts.get(part) {
            Some(p) if message.deferred => p.text.as_str(),
            _ => "",
        };
        let base = message.piece_offset;
        let after = after.saturating_sub(base).min(text.len());
        let from = linkscan::window::restart(text.as_bytes(), after);
        let rest = &text[from..];
        self.finder
            .links(rest)
            .filter(move |link| from + link.start() >= after)
            .map(move |link| {
                let (start, end) = (base + from + link.start(), base + from + link.end());
                self.mail_link(link, start, end, LinkSource::Text)
            })
    }

    /// Uses `finder` to detect links.
    pub fn finder(mut self, finder: LinkFinder) -> Self {
        self.linkifier = self.linkifier.finder(finder.clone());
        self.finder = finder;
        self
    }

    /// The scheme put in the `href` of URLs written without one (default `https://`).
    pub fn default_scheme(mut self, scheme: impl Into<String>) -> Self {
        self.linkifier = self.linkifier.default_scheme(scheme);
        self
    }

    /// Also scan `text/*` parts other than plain and HTML (patches, source files, …) as
    /// plain text (default: no).
    pub fn other_text(mut self, yes: bool) -> Self {
        self.other_text = yes;
        self
    }

    /// Scans one message (header and body, no mbox From_ line).
    pub fn scan(&self, raw: &[u8]) -> ScannedMessage {
        let mut out = self.scan_parts(raw);
        out.deferred = self.defer && !self.count_only;
        if out.kept.is_none() {
            out.kept = self.keep_attachments.map(|_| 0);
        }
        if self.keep_raw {
            out.raw = Some(raw.to_vec());
        }
        if self.count_only {
            out.counted = out
                .parts
                .iter()
                .map(|p| self.finder.links(&p.text).count())
                .sum();
        }
        out
    }

    /// [`MailScanner::scan`] before the links of `count_only` are counted.
    fn scan_parts(&self, raw: &[u8]) -> ScannedMessage {
        let mut out = ScannedMessage::default();
        let trimmed = trim_leading_blank_lines(raw);
        if !starts_with_header_field(trimmed) {
            if trimmed.is_empty() {
                out.warnings.push(MailWarning::Empty);
            } else {
                out.warnings.push(MailWarning::NoHeaderStart);
                self.push_raw(raw, &mut out);
            }
            return out;
        }
        let raw = trimmed;
        // A flat message (one text part, or one multipart of leaf parts): parsed without
        // the general parser's loop, and without the nesting bound, which only nested
        // parts need. A panic there sends it the general way.
        let flat = if self.general_path_only {
            None
        } else {
            panic::catch_unwind(AssertUnwindSafe(|| {
                flat::parse(self.fields, raw, self.keep_attachments.is_some())
            }))
            .ok()
            .flatten()
        };
        if flat.is_none() && !nesting::within_limits(raw, LIMITS) {
            out.warnings.push(MailWarning::TooManyParts);
            self.push_raw(raw, &mut out);
            return out;
        }
        let parsed = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut scanned = ScannedMessage {
                kept: self.keep_attachments.map(|_| 0),
                ..ScannedMessage::default()
            };
            // The flat parse ends every multipart at its closing delimiter.
            let closed = flat.is_some();
            let general = || {
                if self.general_path_only {
                    // The reference: the parser's own parse.
                    self.parser.parse(raw)
                } else {
                    general::parse(self.fields, raw)
                }
            };
            match flat.or_else(general) {
                Some(mut message) => {
                    let walk = Walk { closed };
                    self.walk_message(&mut message, "", 0, walk, &mut scanned);
                    free_iteratively(message);
                    Some(scanned)
                }
                None => None,
            }
        }));
        match parsed {
            Ok(Some(scanned)) => {
                out.message_id = scanned.message_id;
                out.in_reply_to = scanned.in_reply_to;
                out.references = scanned.references;
                out.from = scanned.from;
                out.to = scanned.to;
                out.cc = scanned.cc;
                out.date = scanned.date;
                out.subject = scanned.subject;
                out.list = scanned.list;
                out.parts = scanned.parts;
                out.skipped = scanned.skipped;
                out.kept = scanned.kept;
                out.warnings.extend(scanned.warnings);
            }
            Ok(None) => {
                if !raw.is_empty() {
                    out.warnings.push(MailWarning::NoHeader);
                    self.push_raw(raw, &mut out);
                }
            }
            Err(panic) => {
                let reason = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                out.warnings.push(MailWarning::ParserFailed {
                    reason: reason.to_string(),
                });
                self.push_raw(raw, &mut out);
            }
        }
        out
    }

    fn push_raw(&self, raw: &[u8], out: &mut ScannedMessage) {
        let text = String::from_utf8_lossy(raw).into_owned();
        let links = self.text_links_of(&text);
        out.parts.push(TextPart {
            flowed: false,
            attachment: None,
            path: "1".into(),
            content_type: Some("text/plain".into()),
            text,
            links,
        });
    }

    fn text_links_of(&self, text: &str) -> Vec<MailLink> {
        if self.count_only || self.defer {
            // Counted at the end of the scan, part by part; or found again by the caller.
            return Vec::new();
        }
        self.finder
            .links(text)
            .map(|link| self.mail_link(link, link.start(), link.end(), LinkSource::Text))
            .collect()
    }

    fn mail_link(&self, link: Match<'_>, start: usize, end: usize, source: LinkSource) -> MailLink {
        let text = link.as_str();
        let href = self.linkifier.href(&link.link(), text);
        MailLink::new(start, end, link.kind(), source, text, &href)
    }

    fn walk_message(
        &self,
        message: &mut Message<'_>,
        prefix: &str,
        depth: usize,
        walk: Walk,
        out: &mut ScannedMessage,
    ) {
        if prefix.is_empty() {
            out.message_id = message.message_id().map(str::to_string);
            out.in_reply_to = message
                .in_reply_to()
                .as_text_list()
                .and_then(|ids| ids.first())
                .map(|id| id.to_string());
            out.references = message
                .references()
                .as_text_list()
                .map_or_else(Vec::new, |ids| {
                    ids.iter().map(|id| id.to_string()).collect()
                });
            out.from = message.from().and_then(format_address);
            out.to = message.to().map(format_addresses).unwrap_or_default();
            out.cc = message.cc().map(format_addresses).unwrap_or_default();
            out.date = message.date().map(|d| d.to_rfc3339());
            out.subject = message.subject().map(str::to_string);
            out.list = list_name(message.list_id());
        }
        if let Some(subject) = message.subject() {
            let path = format!("{prefix}subject");
            let replaced = replacement_count(subject);
            if replaced > 0 {
                out.warnings.push(MailWarning::UndecodableSubject {
                    path: path.clone(),
                    replaced,
                });
            }
            out.parts.push(TextPart {
                flowed: false,
                attachment: None,
                links: self.text_links_of(subject),
                path,
                content_type: None,
                text: subject.to_string(),
            });
        }
        let Some(root) = message.parts.first_mut() else {
            return;
        };
        // The walk takes each part's body out of the tree as it reads it (a decoded text
        // then becomes the scanned text without a copy); the root multipart's list of
        // children is taken here.
        let children = match &mut root.body {
            PartType::Multipart(children) => Some(std::mem::take(children)),
            _ => None,
        };
        // Each part of this message is walked once: on broken input the parser's lists of
        // children can name a part twice, or an ancestor, and walking such a graph as a
        // tree takes time exponential in its depth.
        let mut seen = vec![false; message.parts.len()];
        match children {
            Some(children) => {
                seen[0] = true;
                self.check_multipart(message, 0, prefix.trim_end_matches('.'), walk, out);
                for (i, &id) in children.iter().enumerate() {
                    let path = format!("{prefix}{}", i + 1);
                    self.walk_part(message, id as usize, &path, depth + 1, walk, &mut seen, out);
                }
            }
            _ => {
                let path = format!("{prefix}1");
                self.walk_part(message, 0, &path, depth + 1, walk, &mut seen, out)
            }
        }
    }

    /// Warns when a multipart's closing delimiter is missing (a truncated message).
    fn check_multipart(
        &self,
        message: &Message<'_>,
        id: usize,
        path: &str,
        walk: Walk,
        out: &mut ScannedMessage,
    ) {
        if walk.closed {
            return;
        }
        let part = &message.parts[id];
        let Some(boundary) = part.content_type().and_then(|ct| ct.attribute("boundary")) else {
            return;
        };
        let raw = message.raw_message.as_ref();
        let from = (part.offset_body as usize).min(raw.len());
        let closing = format!("--{boundary}--");
        if memchr::memmem::find(&raw[from..], closing.as_bytes()).is_none() {
            let subtype = part
                .content_type()
                .and_then(|ct| ct.subtype())
                .unwrap_or_default()
                .to_ascii_lowercase();
            out.warnings.push(MailWarning::MissingClosingBoundary {
                part: path.to_string(),
                subtype,
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_part(
        &self,
        message: &mut Message<'_>,
        id: usize,
        path: &str,
        depth: usize,
        walk: Walk,
        seen: &mut [bool],
        out: &mut ScannedMessage,
    ) {
        let Some(part) = message.parts.get(id) else {
            out.warnings.push(MailWarning::LostPart {
                part: path.to_string(),
            });
            return;
        };
        if std::mem::replace(&mut seen[id], true) {
            out.warnings.push(MailWarning::DuplicatePart {
                part: path.to_string(),
            });
            return;
        }
        if depth > MAX_DEPTH {
            out.warnings.push(MailWarning::TooDeep {
                part: path.to_string(),
                max_depth: MAX_DEPTH,
            });
            let raw = message.raw_message.as_ref();
            let end = (part.offset_end as usize).min(raw.len());
            let start = (part.offset_header as usize).min(end);
            let text = String::from_utf8_lossy(&raw[start..end]).into_owned();
            out.parts.push(TextPart {
                flowed: false,
                attachment: None,
                path: path.to_string(),
                content_type: Some("text/plain".into()),
                links: self.text_links_of(&text),
                text,
            });
            return;
        }
        let body = std::mem::take(&mut message.parts[id].body);
        let part = &message.parts[id];
        // The first Content-Type field (the parser keeps the last), with a warning when
        // there are several; one that is not `type/subtype` means text/plain.
        let fields = part
            .headers
            .iter()
            .filter(|h| h.name == mail_parser::HeaderName::ContentType);
        let count = fields.clone().count();
        if count > 1 {
            out.warnings.push(MailWarning::DuplicateContentType {
                part: path.to_string(),
                count,
            });
        }
        let content_type = fields
            .map(|h| h.value.as_content_type())
            .next()
            .flatten()
            .or_else(|| (count == 0).then(|| part.content_type()).flatten());
        let mut forced_plain = false;
        let (ctype, subtype) = match content_type {
            Some(ct) if is_mime_token(ct.ctype()) && ct.subtype().is_some_and(is_mime_token) => (
                ct.ctype().to_ascii_lowercase(),
                ct.subtype().unwrap_or_default().to_ascii_lowercase(),
            ),
            Some(ct) => {
                forced_plain = true;
                out.warnings.push(MailWarning::InvalidContentType {
                    part: path.to_string(),
                    value: match ct.subtype() {
                        Some(sub) => format!("{}/{sub}", ct.ctype()),
                        None => ct.ctype().to_string(),
                    },
                });
                ("text".to_string(), "plain".to_string())
            }
            None if count > 0 => {
                forced_plain = true;
                out.warnings.push(MailWarning::InvalidContentType {
                    part: path.to_string(),
                    value: String::new(),
                });
                ("text".to_string(), "plain".to_string())
            }
            None => ("text".to_string(), "plain".to_string()),
        };
        let cte = part
            .content_transfer_encoding()
            .map(|e| e.trim().to_ascii_lowercase());
        if let Some(cte) = &cte {
            if !matches!(
                cte.as_str(),
                "7bit" | "8bit" | "binary" | "base64" | "quoted-printable" | ""
            ) {
                out.warnings.push(MailWarning::UnknownTransferEncoding {
                    part: path.to_string(),
                    encoding: cte.clone(),
                });
            }
        }
        // A base64 text part that the parser could not decode: decoded here, leniently.
        let scanned = ctype == "text" && (subtype == "plain" || subtype == "html")
            || self.other_text && is_text_like(&ctype, &subtype);
        let recovered = (part.is_encoding_problem
            && scanned
            && cte.as_deref() == Some("base64")
            && matches!(body, PartType::Text(_) | PartType::Html(_)))
        .then(|| self.recover_base64(message, part, path, &format!("{ctype}/{subtype}"), out));
        // A message that is only a header has no body to decode: no warning for it.
        let no_body = part.offset_end <= part.offset_body;
        if part.is_encoding_problem && recovered.is_none() && !no_body {
            let what = match cte.as_deref() {
                Some("base64") => BodyProblem::Base64,
                Some("quoted-printable") => BodyProblem::QuotedPrintable,
                _ if ctype == "message" => BodyProblem::NestedMessage,
                _ => BodyProblem::Other,
            };
            out.warnings.push(MailWarning::UndecodableBody {
                part: path.to_string(),
                content_type: format!("{ctype}/{subtype}"),
                problem: what,
            });
        }
        match body {
            PartType::Multipart(children) => {
                self.check_multipart(message, id, path, walk, out);
                for (i, &child) in children.iter().enumerate() {
                    let child_path = format!("{path}.{}", i + 1);
                    let id = child as usize;
                    self.walk_part(message, id, &child_path, depth + 1, walk, seen, out);
                }
            }
            PartType::Message(mut nested) => {
                self.walk_message(&mut nested, &format!("{path}."), depth + 1, walk, out);
                free_iteratively(nested);
            }
            PartType::Text(text) | PartType::Html(text) => {
                let was_recovered = recovered.is_some();
                let text = match recovered {
                    Some(recovered) => Cow::Owned(recovered),
                    None => text,
                };
                let html = ctype == "text" && subtype == "html";
                let plain = ctype == "text" && subtype == "plain";
                if ctype == "multipart" {
                    out.warnings.push(MailWarning::NoBoundary {
                        part: path.to_string(),
                        subtype: subtype.to_string(),
                    });
                } else if ctype == "message" {
                    out.warnings.push(MailWarning::UnparsableMessagePart {
                        part: path.to_string(),
                        subtype: subtype.to_string(),
                    });
                } else if !(html || plain || self.other_text && is_text_like(&ctype, &subtype)) {
                    let skipped = SkippedPart {
                        path: path.to_string(),
                        content_type: format!("{ctype}/{subtype}"),
                        text_like: is_text_like(&ctype, &subtype),
                        name: part.attachment_name().map(str::to_string),
                        size: body_size(part),
                        data: None,
                    };
                    self.skip(skipped, Kept::Text(text), out);
                    return;
                }
                let charset = content_type.and_then(|ct| ct.attribute("charset"));
                if let Some(label) = charset {
                    if !is_known_charset(label) {
                        out.warnings.push(MailWarning::UnknownCharset {
                            part: path.to_string(),
                            label: label.to_string(),
                        });
                    }
                }
                // Undeclared 8-bit text that is not UTF-8: read as windows-1252, as
                // browsers (the WHATWG Encoding standard's default) and most archivers
                // read it, rather than as U+FFFD.
                let mut replaced = replacement_count(&text);
                let text = match (replaced > 0 && charset.is_none() && !was_recovered)
                    .then(|| undeclared_8bit(message, part, cte.as_deref(), &text))
                    .flatten()
                {
                    Some(redecoded) => {
                        out.warnings.push(MailWarning::UndeclaredEightBit {
                            part: path.to_string(),
                        });
                        replaced = replacement_count(&redecoded);
                        Cow::Owned(redecoded)
                    }
                    None => text,
                };
                if replaced > 0 {
                    out.warnings.push(MailWarning::UndecodableText {
                        part: path.to_string(),
                        replaced,
                        charset: charset.unwrap_or("UTF-8").to_string(),
                    });
                }
                let content_type = if html {
                    "text/html"
                } else if plain {
                    "text/plain"
                } else {
                    ""
                };
                let content_type = if content_type.is_empty() {
                    format!("{ctype}/{subtype}")
                } else {
                    content_type.to_string()
                };
                if html {
                    out.parts.push(self.html_part(path, content_type, &text));
                } else if let Some(delsp) = plain.then(|| flowed_format(part)).flatten() {
                    let text = super::flowed::unflow(&text, delsp);
                    out.parts.push(TextPart {
                        flowed: true,
                        attachment: None,
                        path: path.to_string(),
                        content_type: Some(content_type),
                        links: self.text_links_of(&text),
                        text,
                    });
                } else {
                    out.parts.push(TextPart {
                        flowed: false,
                        attachment: None,
                        path: path.to_string(),
                        content_type: Some(content_type),
                        links: self.text_links_of(&text),
                        // A decoded text is the part's own: no copy.
                        text: text.into_owned(),
                    });
                }
            }
            PartType::Binary(bytes) | PartType::InlineBinary(bytes) => {
                // The parser keeps a multipart it could not split (no boundary parameter, or
                // a boundary never found) as opaque bytes: read them as text; so is a part
                // whose Content-Type is invalid (text/plain, RFC 2045 section 5.2).
                if ctype == "multipart" || forced_plain {
                    if ctype == "multipart" {
                        out.warnings.push(MailWarning::NoBoundary {
                            part: path.to_string(),
                            subtype: subtype.to_string(),
                        });
                    }
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    out.parts.push(TextPart {
                        flowed: false,
                        attachment: None,
                        path: path.to_string(),
                        content_type: Some("text/plain".into()),
                        links: self.text_links_of(&text),
                        text,
                    });
                } else if !scanned {
                    let skipped = SkippedPart {
                        path: path.to_string(),
                        content_type: format!("{ctype}/{subtype}"),
                        text_like: is_text_like(&ctype, &subtype),
                        name: part.attachment_name().map(str::to_string),
                        size: body_size(part),
                        data: None,
                    };
                    self.skip(skipped, Kept::Bytes(bytes), out);
                } else {
                    // A text part the parser read as bytes (it went by another
                    // Content-Type field than the first, or a text-like type of
                    // `other_text`).
                    let text = String::from_utf8_lossy(&bytes);
                    if subtype == "html" {
                        out.parts
                            .push(self.html_part(path, "text/html".into(), &text));
                    } else {
                        out.parts.push(TextPart {
                            flowed: false,
                            attachment: None,
                            path: path.to_string(),
                            content_type: Some(format!("{ctype}/{subtype}")),
                            links: self.text_links_of(&text),
                            text: text.into_owned(),
                        });
                    }
                }
            }
        }
    }

    /// The text of a base64 part the parser rejected, decoded as RFC 2045 section 6.8
    /// says (see the [module](self) documentation), with one warning.
    fn recover_base64(
        &self,
        message: &Message<'_>,
        part: &MessagePart<'_>,
        path: &str,
        content_type: &str,
        out: &mut ScannedMessage,
    ) -> String {
        let raw = message.raw_message.as_ref();
        let end = (part.offset_end as usize).min(raw.len());
        let body = &raw[(part.offset_body as usize).min(end)..end];
        let (data, trailer) = body.split_at(base64_data_end(body));
        let decoded = base64::decode(data);
        let charset = part
            .content_type()
            .and_then(|ct| ct.attribute("charset"))
            .and_then(|label| charset_decoder(label.trim().to_ascii_lowercase().as_bytes()));
        let to_text = |bytes: &[u8]| match charset {
            Some(decode) => decode(bytes),
            None => String::from_utf8_lossy(bytes).into_owned(),
        };
        let mut text = to_text(&decoded.bytes);
        let trailer_lines = if trailer.iter().all(u8::is_ascii_whitespace) {
            0
        } else {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&to_text(trailer));
            trailer
                .split(|&b| b == b'\n')
                .filter(|l| !l.trim_ascii().is_empty())
                .count()
        };
        let mut what = Vec::new();
        if decoded.bytes.is_empty() && trailer_lines > 0 {
            what.push(Base64Problem::NoData);
        } else {
            if decoded.ignored > 0 {
                what.push(Base64Problem::IgnoredCharacters {
                    count: decoded.ignored,
                });
            }
            if trailer_lines > 0 {
                what.push(Base64Problem::TextAfterData {
                    lines: trailer_lines,
                });
            }
        }
        if what.is_empty() {
            what.push(Base64Problem::Truncated);
        }
        out.warnings.push(MailWarning::InvalidBase64 {
            part: path.to_string(),
            content_type: content_type.to_string(),
            problems: what,
        });
        text
    }

    fn html_part(&self, path: &str, content_type: String, html: &str) -> TextPart {
        let HtmlText { text, anchors } = html_text(html);
        let mut links = self.text_links_of(&text);
        for anchor in &anchors {
            for link in self.finder.links(&anchor.href) {
                links.push(self.mail_link(link, anchor.start, anchor.end, LinkSource::Href));
            }
        }
        TextPart {
            flowed: false,
            attachment: None,
            path: path.to_string(),
            content_type: Some(content_type),
            text,
            links,
        }
    }
}

/// Whether a part of this type reads as text: `text/*`; the `message/*` types that are
/// not a whole message (delivery and disposition reports, fragments of a message,
/// external bodies, header blocks); and the `application/*` types that are text (JSON,
/// XML and `+xml`/`+json`, scripts, patches, calendars, PGP armour, …).
pub fn is_text_like(ctype: &str, subtype: &str) -> bool {
    match ctype {
        "text" => true,
        "message" => matches!(
            subtype,
            "delivery-status"
                | "disposition-notification"
                | "partial"
                | "external-body"
                | "feedback-report"
                | "global-headers"
                | "global-delivery-status"
                | "global-disposition-notification"
                | "news"
        ),
        "application" => {
            subtype.ends_with("+xml")
                || subtype.ends_with("+json")
                || matches!(
                    subtype,
                    "json"
                        | "xml"
                        | "javascript"
                        | "ecmascript"
                        | "x-javascript"
                        | "x-sh"
                        | "x-shellscript"
                        | "x-csh"
                        | "x-perl"
                        | "x-python"
                        | "x-ruby"
                        | "x-php"
                        | "x-tex"
                        | "x-latex"
                        | "x-patch"
                        | "x-diff"
                        | "diff"
                        | "sql"
                        | "x-yaml"
                        | "yaml"
                        | "toml"
                        | "ics"
                        | "pgp-signature"
                        | "pgp-keys"
                        | "pgp-encrypted"
                        | "mbox"
                        | "x-subrip"
                        | "rtf"
                )
        }
        _ => false,
    }
}

/// Whether `s` is a MIME token (RFC 2045 section 5.1): printable ASCII, no space and no
/// `tspecials`.
fn is_mime_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?=".contains(&b))
}

/// Where the base64 data of `body` ends: just past its last data line. A data line holds
/// a base64 character, and either nothing but base64 characters, `=` and white space, or
/// one word (no inner white space) without `.`, `:` or `@` (base64 data with a stray
/// character). A line of words, or one with the characters of a link, is text: no data
/// line follows what is returned, and the rest (a list footer, a signature) is text.
fn base64_data_end(body: &[u8]) -> usize {
    let mut end = 0;
    let mut start = 0;
    while start < body.len() {
        let line_end = memchr::memchr(b'\n', &body[start..]).map_or(body.len(), |i| start + i + 1);
        let line = &body[start..line_end];
        let word = line.trim_ascii();
        let pure = line
            .iter()
            .all(|&b| base64::is_base64_char(b) || b == b'=' || b.is_ascii_whitespace());
        let one_word = !word
            .iter()
            .any(|&b| b.is_ascii_whitespace() || matches!(b, b'.' | b':' | b'@'));
        if (pure || one_word) && word.iter().any(|&b| base64::is_base64_char(b)) {
            end = line_end;
        }
        start = line_end;
    }
    end
}

/// Drops `message` without recursion: the nested messages are taken out of their parts
/// and dropped one by one, so a deep tree does not use the stack as deep.
fn free_iteratively(message: Message<'_>) {
    let mut pending = vec![message];
    while let Some(mut message) = pending.pop() {
        for part in &mut message.parts {
            if let PartType::Message(nested) = std::mem::take(&mut part.body) {
                pending.push(nested);
            }
        }
    }
}

/// What the walk knows of the parse it reads.
#[derive(Clone, Copy)]
struct Walk {
    /// Every multipart was read up to its closing delimiter (the flat parse), so
    /// none can be missing it.
    closed: bool,
}

/// Whether the parser can decode `label` (UTF-8 and US-ASCII are read as UTF-8, which is
/// right for them).
fn is_known_charset(label: &str) -> bool {
    let l = label.trim().to_ascii_lowercase();
    matches!(
        l.as_str(),
        "utf-8" | "utf8" | "us-ascii" | "ascii" | "ansi_x3.4-1968" | "us" | "iso646-us"
    ) || charset_decoder(l.as_bytes()).is_some()
}

/// How many U+FFFD (the replacement character, what undecodable bytes became) `text`
/// holds: its UTF-8 form, `EF BF BD`, searched as bytes (no other character's form
/// contains it), from each `EF` found.
fn replacement_count(text: &str) -> usize {
    let bytes = text.as_bytes();
    memchr::memchr_iter(0xEF, bytes)
        .filter(|&i| bytes[i..].starts_with(&[0xEF, 0xBF, 0xBD]))
        .count()
}

/// `Some(delsp)` for a part whose Content-Type says `format=flowed` (RFC 3676).
fn flowed_format(part: &MessagePart<'_>) -> Option<bool> {
    let attributes = part.content_type()?.attributes()?;
    super::flowed::format(
        attributes
            .iter()
            .map(|a| (a.name.as_ref(), a.value.as_ref())),
    )
}

/// `Name <address>`, `address` or `Name` of the first address.
fn format_address(address: &Address<'_>) -> Option<String> {
    let first = address.first()?;
    match (first.name(), first.address()) {
        (Some(name), Some(addr)) => Some(format!("{name} <{addr}>")),
        (None, Some(addr)) => Some(addr.to_string()),
        (Some(name), None) => Some(name.to_string()),
        (None, None) => None,
    }
}

/// The name a `List-Id` gives its list: the phrase, else the id; `None` when empty.
fn list_name(value: &mail_parser::HeaderValue<'_>) -> Option<String> {
    let name = match value {
        mail_parser::HeaderValue::Address(address) => {
            let first = address.first()?;
            first
                .name()
                .filter(|n| !n.trim().is_empty())
                .or(first.address())?
                .to_string()
        }
        mail_parser::HeaderValue::Text(text) => text.to_string(),
        _ => return None,
    };
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    (!name.is_empty()).then_some(name)
}

/// Every address of a field, each as [`format_address`] writes the first (groups
/// flattened).
fn format_addresses(address: &Address<'_>) -> Vec<String> {
    address
        .iter()
        .filter_map(|a| match (a.name(), a.address()) {
            (Some(name), Some(addr)) => Some(format!("{name} <{addr}>")),
            (None, Some(addr)) => Some(addr.to_string()),
            (Some(name), None) => Some(name.to_string()),
            (None, None) => None,
        })
        .collect()
}

/// The body of `part` decoded from its transfer encoding and read as windows-1252, when
/// those bytes are not UTF-8 (else `None`: the text as decoded stands). `lossy` is the
/// body as the parser decoded it (as UTF-8, U+FFFD for each invalid sequence): the bytes
/// read as windows-1252 are those that give it, so the end of the body is where the
/// parser put it, whichever parse path read the part.
fn undeclared_8bit(
    message: &Message<'_>,
    part: &MessagePart<'_>,
    cte: Option<&str>,
    lossy: &str,
) -> Option<String> {
    let raw = message.raw_message.as_ref();
    let end = (part.offset_end as usize).min(raw.len());
    let body = &raw[(part.offset_body as usize).min(end)..end];
    let bytes: std::borrow::Cow<'_, [u8]> = match cte {
        Some("base64") => base64::decode(&body[..base64_data_end(body)]).bytes.into(),
        Some("quoted-printable") => {
            mail_parser::decoders::quoted_printable::quoted_printable_decode(body)?.into()
        }
        _ => body.into(),
    };
    let bytes = &bytes[..lossy_prefix(&bytes, lossy.len())?];
    if std::str::from_utf8(bytes).is_ok() {
        return None;
    }
    charset_decoder(b"windows-1252").map(|decode| decode(bytes))
}

/// The bytes of a part's body as written ([`SkippedPart::size`]): both parse paths end a
/// leaf part where the parser ends it, before the line break ahead of the delimiter.
fn body_size(part: &MessagePart<'_>) -> u64 {
    u64::from(part.offset_end.saturating_sub(part.offset_body))
}

/// The length of the start of `bytes` that decodes (as UTF-8, U+FFFD for each invalid
/// sequence) to `len` bytes of text, if one does.
fn lossy_prefix(bytes: &[u8], len: usize) -> Option<usize> {
    let (mut out, mut at) = (0, 0);
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        if out + valid.len() >= len {
            let need = len - out;
            return valid.is_char_boundary(need).then_some(at + need);
        }
        out += valid.len();
        at += valid.len();
        if !chunk.invalid().is_empty() {
            out += '\u{FFFD}'.len_utf8();
            at += chunk.invalid().len();
            if out >= len {
                return (out == len).then_some(at);
            }
        }
    }
    (out == len).then_some(at)
}

/// `raw` without the empty lines at its start.
fn trim_leading_blank_lines(mut raw: &[u8]) -> &[u8] {
    loop {
        let rest = raw
            .strip_prefix(b"\r\n")
            .or_else(|| raw.strip_prefix(b"\n"));
        match rest {
            Some(rest) => raw = rest,
            None => return raw,
        }
    }
}

/// Whether `raw` begins with a header field (`Name:`), as every message must.
fn starts_with_header_field(raw: &[u8]) -> bool {
    let name_len = raw
        .iter()
        .take_while(|&&b| (0x21..=0x7E).contains(&b) && b != b':')
        .count();
    name_len > 0 && raw.get(name_len) == Some(&b':')
}
