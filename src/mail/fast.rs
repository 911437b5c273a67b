//! The fast path of [`MailScanner::scan`](super::MailScanner::scan): parse only the header
//! fields the scan reads.
//!
//! # Algorithm
//!
//! `mail-parser` by default runs a structured parser over every header field it knows:
//! the tokenizer of `Received:` fields alone is a large share of a message's parse time,
//! and archives carry a dozen such fields per message. The scan reads only the MIME
//! fields (`Content-Type`, `Content-Transfer-Encoding`, `Content-Disposition`, and the
//! other `Content-*` fields the parser needs to split bodies), `Subject`, `Message-ID`,
//! and — for the HTML archive's index — `From` and `Date`. [`header_parser`] configures
//! the parser so: those fields get the same parser as the default configuration gives
//! them, and every other field is skipped (`parse_and_ignore`, which stops where every
//! field parser stops: at a line break not followed by white space).
//!
//! # Invariants
//!
//! The parse tree of every message is the same as with the default configuration, apart
//! from the values of the skipped fields, which the scan never reads: the same parts, the
//! same offsets, the same decoded bodies and fields. `tests/pipeline.rs` checks the scan
//! results of every message of both corpora against the default configuration, and a
//! property test does so on generated messages.

use mail_parser::{HeaderName, MessageParser};

/// The parser of [`MailScanner`](super::MailScanner): the fields the scan reads, parsed as
/// the default configuration parses them; every other field skipped.
pub(crate) fn header_parser() -> MessageParser {
    MessageParser::new()
        .with_mime_headers()
        .header_text(HeaderName::Subject)
        .header_id(HeaderName::MessageId)
        .header_id(HeaderName::InReplyTo)
        .header_id(HeaderName::References)
        .header_address(HeaderName::From)
        .header_date(HeaderName::Date)
        .default_header_ignore()
}

impl super::MailScanner {
    /// This scanner with `mail-parser`'s default configuration, which parses every header
    /// field: the reference the fast path is tested against (same results, slower).
    #[doc(hidden)]
    pub fn parse_all_headers(mut self) -> Self {
        self.parser = MessageParser::default();
        self
    }
}
