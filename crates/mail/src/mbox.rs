//! Splitting an mbox archive into messages, streaming, in bounded memory.
//!
//! # Format
//!
//! An mbox file is a sequence of messages, each introduced by a separator line that starts
//! with `From ` (the "From_ line": `From sender date`). A body line that itself starts with
//! `From ` must be escaped by the writer; linkscan reads the *mboxrd* convention, which is
//! also right for *mboxo* files: a line matching `^>+From ` loses one `>` when read, so
//! `>From ` becomes `From ` and `>>From ` becomes `>From `.
//!
//! # Separators, and unescaped `From ` lines
//!
//! Writers that do not escape leave `From ` lines inside bodies ("From my point of view…").
//! Splitting there would cut one message in two, the second half without a header. So a
//! `From ` line separates messages only when the next line looks like the start of a
//! header (a field name — printable ASCII without `:` or space — then `:`), as every real
//! separator is, or is another `From ` line (the first message is then empty). A `From `
//! line that does not qualify stays in the body of the current message, and that message
//! carries a warning saying so. Bytes before the first separator (a file that is a single
//! message without a From_ line, or garbage) are taken as one more message, with a warning,
//! so nothing is dropped.
//!
//! # Memory
//!
//! [`MboxReader`] reads line by line from any [`BufRead`] (a file, standard input, a gzip
//! decoder) and holds one message at a time plus one line of look-ahead: memory is bounded
//! by the largest message, not by the archive.

mod warning;

pub use warning::MboxWarning;

use std::io::{self, BufRead};

/// One message of an mbox archive, as read (mboxrd escaping undone).
///
/// ```
/// use linkscan_mail::MboxReader;
/// let mbox = b"From a@example.com Mon Jan  1 00:00:00 2024\nSubject: one\n\n>From here\n";
/// let message = MboxReader::new(&mbox[..]).next().unwrap().unwrap();
/// assert_eq!(message.index(), 1);
/// assert_eq!(message.offset(), 0);
/// assert_eq!(message.from_line(), "From a@example.com Mon Jan  1 00:00:00 2024");
/// assert_eq!(message.bytes(), b"Subject: one\n\nFrom here\n");
/// assert!(message.warnings().is_empty());
/// let bytes: Vec<u8> = message.into_bytes(); // no copy
/// assert_eq!(bytes.len(), 24);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MboxMessage {
    pub(crate) index: usize,
    pub(crate) offset: u64,
    pub(crate) from_line: String,
    pub(crate) bytes: Vec<u8>,
    pub(crate) warnings: Vec<MboxWarning>,
}

impl MboxMessage {
    /// Position in the archive, from 1.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Byte offset of the message's From_ line in the (decompressed) archive.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The From_ line without its line ending (empty for text before the first separator).
    pub fn from_line(&self) -> &str {
        &self.from_line
    }

    /// The message: header and body, without the From_ line.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The message's bytes, taken out of it without a copy.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Problems met while splitting (an unescaped `From ` line in the body, text before the
    /// first separator, a read error that cut the message short).
    pub fn warnings(&self) -> &[MboxWarning] {
        &self.warnings
    }
}

/// Reads the messages of an mbox archive one by one; see the [module](self) documentation.
///
/// ```
/// use linkscan_mail::MboxReader;
/// let mbox = b"From a@example.com Mon Jan  1 00:00:00 2024\nSubject: one\n\n>From here\n\n\
///              From b@example.com Mon Jan  1 00:00:01 2024\nSubject: two\n\nbody\n";
/// let messages: Vec<_> = MboxReader::new(&mbox[..]).collect::<Result<_, _>>().unwrap();
/// assert_eq!(messages.len(), 2);
/// assert_eq!(messages[0].bytes(), b"Subject: one\n\nFrom here\n\n");
/// assert_eq!(messages[1].index(), 2);
/// ```
pub struct MboxReader<R> {
    reader: R,
    /// Offset of the next byte to be read from `reader`.
    offset: u64,
    /// The message being assembled.
    current: Option<MboxMessage>,
    /// A `From ` line waiting for the next line to decide whether it separates, with its
    /// offset.
    pending_from: Option<(Vec<u8>, u64)>,
    line: Vec<u8>,
    count: usize,
    error: Option<io::Error>,
    done: bool,
}

/// Shows where the reader is (offset, messages read, state), not the reader or its
/// buffers, so that any `R` can be shown.
impl<R> std::fmt::Debug for MboxReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MboxReader")
            .field("offset", &self.offset)
            .field("count", &self.count)
            .field("error", &self.error)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> MboxReader<R> {
    /// A reader over the archive `reader` (already decompressed).
    pub fn new(reader: R) -> MboxReader<R> {
        MboxReader {
            reader,
            offset: 0,
            current: None,
            pending_from: None,
            line: Vec::with_capacity(256),
            count: 0,
            error: None,
            done: false,
        }
    }

    /// Bytes read from the underlying reader so far.
    pub fn bytes_read(&self) -> u64 {
        self.offset
    }

    /// Reads the next line into `self.line`; `Ok(false)` at the end of the input.
    fn read_line(&mut self) -> io::Result<bool> {
        self.line.clear();
        let n = self.reader.read_until(b'\n', &mut self.line)?;
        self.offset += n as u64;
        Ok(n > 0)
    }

    fn start_message(&mut self, from_line: &[u8], offset: u64) -> Option<MboxMessage> {
        self.count += 1;
        let from_line = trim_line_end(from_line);
        let next = MboxMessage {
            index: self.count,
            offset,
            from_line: String::from_utf8_lossy(from_line).into_owned(),
            bytes: Vec::new(),
            warnings: Vec::new(),
        };
        self.current.replace(next)
    }

    /// Appends `line` (one line with its ending) to the current message, undoing mboxrd
    /// escaping. Text before the first separator starts a message of its own.
    fn push_body_line(&mut self, line_start: u64, escaped: bool) {
        if self.current.is_none() {
            if self.line.iter().all(u8::is_ascii_whitespace) {
                return;
            }
            self.start_message(b"", line_start);
            if let Some(message) = self.current.as_mut() {
                message.warnings.push(MboxWarning::TextBeforeFirstSeparator);
            }
        }
        let message = self.current.as_mut().expect("a message is open");
        let line = if escaped {
            &self.line[1..]
        } else {
            &self.line[..]
        };
        message.bytes.extend_from_slice(line);
    }

    /// Decides the pending `From ` line now that the line after it (in `self.line`, or the
    /// end of the input) is known. Returns a finished message when it was a separator.
    fn settle_pending(&mut self, at_end: bool) -> Option<MboxMessage> {
        let (from, offset) = self.pending_from.take()?;
        if !at_end && looks_like_header_start(&self.line) {
            return self.start_message(&from, offset);
        }
        // Not a separator: an unescaped `From ` line in a body (or at the very end).
        if self.current.is_none() {
            // Nothing before it: take it as a separator after all, so that the following
            // text is still a message; the parse will report the missing header.
            return self.start_message(&from, offset);
        }
        let message = self.current.as_mut().expect("a message is open");
        message
            .warnings
            .push(MboxWarning::UnescapedFromLine { offset });
        message.bytes.extend_from_slice(&from);
        None
    }

    fn advance(&mut self) -> Option<io::Result<MboxMessage>> {
        if let Some(e) = self.error.take() {
            // The message cut short by the error comes first, then the error.
            if let Some(mut message) = self.current.take() {
                message.warnings.push(MboxWarning::read_error(&e));
                self.error = Some(e);
                return Some(Ok(message));
            }
            self.done = true;
            return Some(Err(e));
        }
        if self.done {
            return None;
        }
        loop {
            let line_start = self.offset;
            match self.read_line() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    // At the end a pending `From ` line never separates: nothing follows.
                    let finished = self.settle_pending(true);
                    debug_assert!(finished.is_none());
                    return self.current.take().map(Ok);
                }
                Err(e) => {
                    // The bytes read before the error are in `self.line`.
                    let mut finished = None;
                    if !self.line.is_empty() {
                        finished = self.settle_pending(false);
                        self.handle_line(line_start);
                    }
                    let _ = self.settle_pending(true);
                    self.error = Some(e);
                    return match finished {
                        Some(finished) => Some(Ok(finished)),
                        None => self.advance(),
                    };
                }
            }
            if self.pending_from.is_some() {
                if let Some(finished) = self.settle_pending(false) {
                    // The current line belongs to the new message (settled above).
                    self.handle_line(line_start);
                    return Some(Ok(finished));
                }
            }
            self.handle_line(line_start);
        }
    }

    /// Routes the line just read: a `From ` line waits for the next line; any other line is
    /// body (or header) text of the current message.
    fn handle_line(&mut self, line_start: u64) {
        if self.line.starts_with(b"From ") {
            self.pending_from = Some((std::mem::take(&mut self.line), line_start));
            return;
        }
        let escaped = is_escaped_from(&self.line);
        self.push_body_line(line_start, escaped);
    }
}

impl<R: BufRead> Iterator for MboxReader<R> {
    type Item = io::Result<MboxMessage>;

    fn next(&mut self) -> Option<Self::Item> {
        self.advance()
    }
}

/// `>From `, `>>From `, …: an mboxrd-escaped body line.
fn is_escaped_from(line: &[u8]) -> bool {
    let quotes = line.iter().take_while(|&&b| b == b'>').count();
    quotes > 0 && line[quotes..].starts_with(b"From ")
}

/// Whether `line` can be the first line of a message header: a field name (printable
/// ASCII other than `:`), then `:`; or another `From ` line (an empty message, then a
/// separator). A blank line does not count: "From the team" then a blank line is body text.
fn looks_like_header_start(line: &[u8]) -> bool {
    let name_len = line
        .iter()
        .take_while(|&&b| (0x21..=0x7E).contains(&b) && b != b':')
        .count();
    if name_len > 0 && line.get(name_len) == Some(&b':') {
        return true;
    }
    line.starts_with(b"From ")
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(mbox: &[u8]) -> Vec<MboxMessage> {
        MboxReader::new(mbox)
            .collect::<io::Result<Vec<_>>>()
            .expect("in-memory reads cannot fail")
    }

    #[test]
    fn splits_and_unescapes() {
        let m = split(
            b"From a Mon Jan  1 00:00:00 2024\r\nSubject: x\r\n\r\n>From a\r\n>>From b\r\n>Fromage\r\n\r\n\
              From b Mon Jan  1 00:00:00 2024\nX: y\n\nz",
        );
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].from_line, "From a Mon Jan  1 00:00:00 2024");
        assert_eq!(
            m[0].bytes,
            b"Subject: x\r\n\r\nFrom a\r\n>From b\r\n>Fromage\r\n\r\n"
        );
        assert_eq!(m[0].offset, 0);
        assert_eq!(m[1].offset, 78);
        assert_eq!(m[1].bytes, b"X: y\n\nz");
        assert!(m.iter().all(|m| m.warnings.is_empty()));
    }

    #[test]
    fn unescaped_from_line_in_a_body_stays_in_the_body() {
        let m = split(
            b"From a Mon Jan  1 00:00:00 2024\nSubject: x\n\nhello\nFrom my point of view\nbye\n",
        );
        assert_eq!(m.len(), 1);
        assert_eq!(
            m[0].bytes,
            b"Subject: x\n\nhello\nFrom my point of view\nbye\n"
        );
        assert_eq!(
            m[0].warnings,
            [MboxWarning::UnescapedFromLine { offset: 50 }],
            "{:?}",
            m[0].warnings
        );
    }

    #[test]
    fn from_line_at_the_very_end_and_empty_messages() {
        let m = split(b"From a\nA: 1\n\nx\nFrom b\n");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].bytes, b"A: 1\n\nx\nFrom b\n");
        assert_eq!(
            m[0].warnings,
            [MboxWarning::UnescapedFromLine { offset: 15 }]
        );
        // Two separators in a row: the first message is empty, not lost.
        let m = split(b"From a\nFrom b\nA: 1\n\nx\n");
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].bytes, b"");
        assert_eq!(m[1].bytes, b"A: 1\n\nx\n");
    }

    #[test]
    fn text_before_the_first_separator_is_a_message() {
        let m = split(b"Subject: bare\n\nbody\nFrom a\nA: 1\n\n");
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].bytes, b"Subject: bare\n\nbody\n");
        assert_eq!(m[0].from_line, "");
        assert_eq!(m[0].warnings, [MboxWarning::TextBeforeFirstSeparator]);
        assert_eq!(m[1].index, 2);
        assert!(split(b"").is_empty());
        assert!(split(b"\n\n").is_empty());
    }

    #[test]
    fn a_read_error_ends_the_current_message_with_a_warning() {
        struct Failing(&'static [u8]);
        impl io::Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("boom"));
                }
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut reader = MboxReader::new(io::BufReader::new(Failing(b"From a\nA: 1\n\nbo")));
        let first = reader.next().unwrap().unwrap();
        assert_eq!(first.bytes, b"A: 1\n\nbo");
        assert_eq!(
            first.warnings,
            [MboxWarning::ReadError {
                kind: io::ErrorKind::Other,
                message: "boom".into()
            }]
        );
        assert!(first.warnings[0].to_string().contains("(boom)"));
        assert!(reader.next().unwrap().is_err());
        assert!(reader.next().is_none());
    }
}
