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
//! and — for the HTML archive's index, unless [`MailScanner::index_fields`](crate::MailScanner::index_fields) turns them off
//! — `From`, `Date`, `In-Reply-To` and `References`. [`Fields::parser`] configures
//! the parser so: those fields get the same parser as the default configuration gives
//! them, and every other field is skipped (`parse_and_ignore`, which stops where every
//! field parser stops: at a line break not followed by white space).
//!
//! # Invariants
//!
//! With the index fields, the parse tree of every message is the same as with the default configuration, apart
//! from the values of the skipped fields, which the scan never reads: the same parts, the
//! same offsets, the same decoded bodies and fields. The unit tests (`tests/paths.rs`)
//! check the scan results of every message of both corpora against the default
//! configuration, and a property test does so on generated messages.

use super::message::headers::Fields;

impl super::MailScanner {
    /// This scanner with `mail-parser`'s default configuration, which parses every header
    /// field, and with every message parsed by `mail-parser`'s general parse (no fast path
    /// for flat messages): the reference the fast paths are tested against (same
    /// results, slower).
    #[cfg(test)]
    pub(crate) fn parse_all_headers(mut self) -> Self {
        self.parser = mail_parser::MessageParser::default();
        self.general_path_only = true;
        self
    }

    /// Whether `raw` is a flat message (one text part, or one multipart of parts that are
    /// neither multiparts nor messages) that [`scan`](Self::scan) reads without the
    /// general MIME parse (for tests that both paths are exercised).
    #[cfg(test)]
    pub(crate) fn takes_flat_path(&self, raw: &[u8]) -> bool {
        !self.general_path_only && super::message::flat::parse(self.fields, raw, false).is_some()
    }

    /// Whether to read the fields only an index of the messages shows: From, Date,
    /// In-Reply-To and References (default: yes). Without them the parse skips those
    /// fields like any other the scan does not read, and
    /// [`ScannedMessage`](super::ScannedMessage)'s `from()`, `date()`, `in_reply_to()` and
    /// `references()` are empty; the links and warnings are the same.
    ///
    /// ```
    /// use linkscan_mail::MailScanner;
    /// let raw = b"From: A <a@example.com>\r\nSubject: hi\r\n\r\nsee example.com\r\n";
    /// let full = MailScanner::new().scan(raw);
    /// let lean = MailScanner::new().index_fields(false).scan(raw);
    /// assert_eq!(full.from(), Some("A <a@example.com>"));
    /// assert_eq!(lean.from(), None);
    /// assert_eq!(lean.parts(), full.parts());
    /// ```
    pub fn index_fields(mut self, yes: bool) -> Self {
        if !self.general_path_only {
            self.fields = Fields { index: yes };
            self.parser = self.fields.parser();
        }
        self
    }
}
