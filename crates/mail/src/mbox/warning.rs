//! [`MboxWarning`]: what went wrong while splitting an mbox archive into messages, as data.
//!
//! Both splitters ([`MboxReader`](super::MboxReader), line by line, and
//! [`MboxSplitter`](crate::splitter::MboxSplitter), over large buffers) report the
//! same problems with the same values. Each variant holds the facts (an offset, a limit, a
//! length) and its `Display` is the sentence shown to people. Invariant: a warning never
//! means bytes were dropped; every variant says where the bytes went.
//!
//! These are not [`MailWarning`](crate::MailWarning)s: those come from parsing one
//! message, these from cutting the archive, before any message is parsed (and from a
//! different component, which a program may use alone).

use std::fmt;
use std::io;

/// A problem met while splitting an mbox archive; the message that carries it still holds
/// every byte that belongs to it.
///
/// ```
/// use linkscan_mail::{MboxReader, MboxWarning};
/// let mbox = b"From a Mon Jan  1 00:00:00 2024\nSubject: x\n\nhello\nFrom my point of view\n";
/// let message = MboxReader::new(&mbox[..]).next().unwrap().unwrap();
/// assert_eq!(message.warnings(), [MboxWarning::UnescapedFromLine { offset: 50 }]);
/// assert_eq!(
///     message.warnings()[0].to_string(),
///     "an unescaped `From ` line in the body (at byte 50 of the archive) was kept in this \
///      message, not taken as a separator"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MboxWarning {
    /// Text (not only white space) before the first `From ` separator line: read as a
    /// message of its own, with an empty From_ line.
    TextBeforeFirstSeparator,
    /// A `From ` line in the body that is not followed by a header field, so it does not
    /// separate messages: kept in this message's body.
    UnescapedFromLine {
        /// Byte offset of the line in the (decompressed) archive.
        offset: u64,
    },
    /// The archive could not be read past this message, which may be truncated. The
    /// reader hands out the error itself after this message.
    ReadError {
        /// The kind of the I/O error.
        kind: io::ErrorKind,
        /// The error, as its `Display` shows it.
        message: String,
    },
    /// The message is larger than the size limit: handed out in pieces, to be scanned as
    /// raw text, undecoded.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// A run of bytes of an over-limit message without an ASCII space or control character
    /// (where a piece can be cut without splitting a link) was cut at a character
    /// boundary; a link across the cut is split.
    CutWithoutWhiteSpace {
        /// The length of the run, in bytes.
        len: usize,
    },
}

impl MboxWarning {
    /// The warning for the read error `error`.
    pub fn read_error(error: &io::Error) -> MboxWarning {
        MboxWarning::ReadError {
            kind: error.kind(),
            message: error.to_string(),
        }
    }
}

impl fmt::Display for MboxWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MboxWarning::TextBeforeFirstSeparator => {
                f.write_str("text before the first `From ` separator line, read as a message")
            }
            MboxWarning::UnescapedFromLine { offset } => write!(
                f,
                "an unescaped `From ` line in the body (at byte {offset} of the archive) was \
                 kept in this message, not taken as a separator"
            ),
            MboxWarning::ReadError { message, .. } => write!(
                f,
                "the archive could not be read past this message ({message}); it may be \
                 truncated"
            ),
            MboxWarning::TooLarge { limit } => write!(
                f,
                "the message is larger than the limit of {limit} bytes (--max-message-size); \
                 it was scanned as raw text, undecoded"
            ),
            MboxWarning::CutWithoutWhiteSpace { len } => write!(
                f,
                "{len} bytes without white space were cut at a character boundary; a link \
                 across the cut is split"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences are those the command line has always printed (its tests check them
    /// too); a change here changes its output.
    #[test]
    fn display_is_the_sentence_printed() {
        let cases = [
            (
                MboxWarning::TextBeforeFirstSeparator,
                "text before the first `From ` separator line, read as a message",
            ),
            (
                MboxWarning::UnescapedFromLine { offset: 7 },
                "an unescaped `From ` line in the body (at byte 7 of the archive) was kept in \
                 this message, not taken as a separator",
            ),
            (
                MboxWarning::read_error(&io::Error::other("boom")),
                "the archive could not be read past this message (boom); it may be truncated",
            ),
            (
                MboxWarning::TooLarge { limit: 1024 },
                "the message is larger than the limit of 1024 bytes (--max-message-size); it \
                 was scanned as raw text, undecoded",
            ),
            (
                MboxWarning::CutWithoutWhiteSpace { len: 99 },
                "99 bytes without white space were cut at a character boundary; a link across \
                 the cut is split",
            ),
        ];
        for (warning, text) in cases {
            assert_eq!(warning.to_string(), text);
        }
        assert_eq!(
            MboxWarning::read_error(&io::Error::other("boom")),
            MboxWarning::ReadError {
                kind: io::ErrorKind::Other,
                message: "boom".into()
            }
        );
    }
}
