//! Scanning a piece of a message as raw text: the fallback for messages over the size
//! limit, which are never held whole (see [`splitter`](super::splitter)).
//!
//! # Algorithm
//!
//! The bytes are scanned as they are, with [`LinkFinder::links_bytes`](linkscan::LinkFinder::links_bytes): no MIME parsing,
//! no transfer or charset decoding, no mboxrd unescaping (an invalid UTF-8 sequence is never
//! part of a link). The pieces of one message are cut just after an ASCII space or control
//! character, so scanning them one by one finds exactly the links of a scan of the whole
//! message.
//!
//! # Invariants
//!
//! The result has one part, path `1`, content type `text/plain`, whose `text` is the piece
//! (invalid UTF-8 replaced by U+FFFD); link offsets are byte offsets in the raw message
//! (header and body, From_ line excluded), so the links of consecutive pieces read as those
//! of one part; [`ScannedMessage::piece_offset`] says where the piece starts, for drawing
//! its links on its own text. With [`MailScanner::defer_text_links`], a piece that is valid
//! UTF-8 keeps no links (they are found again in its text, which is the piece); one that is
//! not keeps them, since its text's U+FFFD would move their offsets.

use super::message::{LinkSource, MailLink, MailScanner, ScannedMessage, TextPart};

impl MailScanner {
    /// Scans `bytes`, the piece of a message that starts `offset` bytes into it, as raw
    /// text: no MIME parsing or decoding, no mboxrd unescaping. The result has one part,
    /// path `1`, content type `text/plain`, whose `text` is the piece (invalid UTF-8
    /// replaced by U+FFFD); link offsets are byte offsets in the raw message, so the
    /// links of consecutive pieces cut after white space read as those of one part. This
    /// is how a message over the size limit is scanned, in bounded memory.
    ///
    /// ```
    /// let scanned = linkscan_mail::MailScanner::new().scan_raw(b"see example.com\n", 100);
    /// let link = &scanned.parts()[0].links()[0];
    /// assert_eq!((link.start(), link.end(), link.href()), (104, 115, "https://example.com"));
    /// ```
    pub fn scan_raw(&self, bytes: &[u8], offset: usize) -> ScannedMessage {
        if self.count_only {
            return ScannedMessage {
                parts: vec![TextPart {
                    flowed: false,
                    attachment: None,
                    path: "1".into(),
                    content_type: Some("text/plain".into()),
                    text: String::from_utf8_lossy(bytes).into_owned(),
                    links: Vec::new(),
                }],
                piece_offset: offset,
                counted: self.finder.links_bytes(bytes).count(),
                piece: true,
                ..ScannedMessage::default()
            };
        }
        if self.defer {
            // The text is the bytes when they are UTF-8, so the caller finds the same
            // links in it; else (U+FFFD for invalid bytes moves the offsets) they are kept.
            if let Ok(text) = std::str::from_utf8(bytes) {
                return ScannedMessage {
                    parts: vec![TextPart {
                        flowed: false,
                        attachment: None,
                        path: "1".into(),
                        content_type: Some("text/plain".into()),
                        text: text.to_owned(),
                        links: Vec::new(),
                    }],
                    piece_offset: offset,
                    deferred: true,
                    piece: true,
                    raw: self.keep_raw.then(|| bytes.to_vec()),
                    ..ScannedMessage::default()
                };
            }
        }
        let links = self
            .finder
            .links_bytes(bytes)
            .map(|link| {
                let text = std::str::from_utf8(&bytes[link.range()]).unwrap_or_default();
                let href = self.linkifier.href(&link, text);
                MailLink::new(
                    offset + link.start(),
                    offset + link.end(),
                    link.kind(),
                    LinkSource::Text,
                    text,
                    &href,
                )
            })
            .collect();
        ScannedMessage {
            parts: vec![TextPart {
                path: "1".into(),
                content_type: Some("text/plain".into()),
                text: String::from_utf8_lossy(bytes).into_owned(),
                links,
                flowed: false,
                attachment: None,
            }],
            piece_offset: offset,
            piece: true,
            raw: self.keep_raw.then(|| bytes.to_vec()),
            ..ScannedMessage::default()
        }
    }
}
