//! Email archives as input: mbox (plain or gzip-compressed), Maildir, MIME decoding.
//!
//! Links in raw mail bytes hide behind quoted-printable soft line breaks (`=` at a line end
//! splits a URL in two), `=3D` escapes, base64 bodies, RFC 2047 encoded subjects and legacy
//! charsets. This module turns an archive into decoded texts and scans those:
//!
//! 1. [`open_mbox`] opens an archive, decompressing gzip when the content says so, and
//!    [`MboxReader`] splits it into messages in bounded memory ([`mbox`]), line by line
//!    (the [`pipeline`] does the same over large buffers without copying, and hands out
//!    messages over a size limit in pieces); or [`maildir_messages`] lists the messages
//!    of a Maildir ([`maildir`]).
//! 2. [`MailScanner::scan`] parses one message, decodes its Subject and text parts,
//!    extracts the visible text of HTML parts ([`html_text()`]) and finds the links, with a
//!    warning for each problem met ([`message`]). A `format=flowed` text part (RFC 3676)
//!    is unflowed before the scan ([`flowed`]): a URL the sender broke over two lines is
//!    found whole.
//!
//! Messages are independent, so a caller may scan them in parallel and put the results
//! back in archive order: [`pipeline::Pipeline`] does (feature `parallel`), for mbox and
//! Maildir inputs, in bounded memory; the `linkscan` command runs it.
//!
//! 3. [`archive::Archive`] writes them as an HTML archive: a page per message, thread and
//!    month, and a front page ([`archive`]).
//!
//! ```
//! use linkscan_mail::{open_mbox, MailScanner, MboxReader};
//! let archive = b"From a@example.com Mon Jan  1 00:00:00 2024\n\
//!                 Subject: hello\n\
//!                 Content-Type: text/plain; charset=utf-8\n\
//!                 Content-Transfer-Encoding: base64\n\n\
//!                 aHR0cHM6Ly9leGFtcGxlLmNvbS/DpMO2w7wK\n";
//! let scanner = MailScanner::new();
//! for message in MboxReader::new(open_mbox(&archive[..]).unwrap()) {
//!     let message = message.unwrap();
//!     let scanned = scanner.scan(message.bytes());
//!     assert_eq!(scanned.parts()[1].links()[0].text(), "https://example.com/äöü");
//! }
//! ```

pub mod archive;
mod fast;
pub mod flowed;
pub mod html_text;
pub mod maildir;
pub mod mbox;
pub mod message;
#[cfg(feature = "parallel")]
pub mod pipeline;
mod raw;
mod splitter;
#[cfg(test)]
mod tests;

use std::io::{self, BufRead, BufReader, Read};

pub use html_text::{html_text, Anchor, HtmlText};
pub use maildir::maildir_messages;
pub use mbox::{MboxMessage, MboxReader, MboxWarning};
pub use message::{
    is_text_attachment, Base64Problem, BodyProblem, LinkSource, MailLink, MailScanner, MailWarning,
    ScannedMessage, SkippedPart, TextPart, MAX_INLINE_ATTACHMENT,
};

/// Buffer size for reading archives.
const BUFFER: usize = 256 * 1024;

/// The size past which a message is not parsed but scanned as raw text in pieces of about
/// 1 MiB, unless told otherwise ([`Pipeline::max_message_size`](pipeline::Pipeline::max_message_size),
/// [`Archive::max_message_size`](archive::Archive::max_message_size), `--max-message-size`):
/// 32 MiB. The one default of every reader: an update of an archive cuts its input as
/// the build did only under the same limit.
pub const DEFAULT_MAX_MESSAGE_SIZE: u64 = 32 << 20;

/// Whether an archive that starts with `head` is gzip-compressed: its magic bytes `1f 8b`,
/// whatever its name. [`open_mbox`] decompresses such an archive.
///
/// ```
/// assert!(linkscan_mail::is_gzip(&[0x1f, 0x8b, 0x08]));
/// assert!(!linkscan_mail::is_gzip(b"From a@example.com"));
/// ```
pub fn is_gzip(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b])
}

/// The archive read from `reader`, decompressed when it starts with the gzip magic bytes
/// ([`is_gzip`]), whatever its name. Concatenated gzip members are read in turn, and zero
/// bytes after the last one are padding, as for `zcat`. An
/// archive whose lines end in CR alone (classic Mac OS: [`has_cr_line_ends`]) is read with
/// each CR, and each CR LF, as one LF, so that its `From ` lines separate its messages.
pub fn open_mbox<'r, R: Read + Send + 'r>(reader: R) -> io::Result<Box<dyn BufRead + Send + 'r>> {
    let mut buffered = BufReader::with_capacity(BUFFER, reader);
    let head = buffered.fill_buf()?;
    let mut archive: Box<dyn BufRead + Send + 'r> = if is_gzip(head) {
        let members = Members {
            decoder: Some(flate2::bufread::GzDecoder::new(buffered)),
        };
        Box::new(BufReader::with_capacity(BUFFER, members))
    } else {
        Box::new(buffered)
    };
    if has_cr_line_ends(archive.fill_buf()?) {
        let lf = LineFeeds {
            inner: archive,
            after_cr: false,
        };
        archive = Box::new(BufReader::with_capacity(BUFFER, lf));
    }
    Ok(archive)
}

/// Whether an archive that starts with `head` has its lines ended by CR alone: a CR in its
/// first line and no LF before it (an mbox starts with a `From ` line).
///
/// ```
/// assert!(linkscan_mail::has_cr_line_ends(b"From a@example.com Mon Jan  1 00:00:00 2024\rSubject: x\r"));
/// assert!(!linkscan_mail::has_cr_line_ends(b"From a@example.com Mon Jan  1 00:00:00 2024\r\nSubject: x\r\n"));
/// ```
pub fn has_cr_line_ends(head: &[u8]) -> bool {
    match memchr::memchr2(b'\r', b'\n', head) {
        Some(i) => head[i] == b'\r' && head.get(i + 1).is_some_and(|&b| b != b'\n'),
        None => false,
    }
}

/// The members of a gzip file in turn, as `zcat` reads them: zero bytes after the last
/// member (padding, as written to tapes and by some tools) end the data; other bytes there
/// are an error ([`io::ErrorKind::InvalidData`]).
struct Members<R: BufRead> {
    decoder: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(decoder) = &mut self.decoder else {
                return Ok(0);
            };
            let n = decoder.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member ended: another, padding, or the end.
            let mut inner = self.decoder.take().expect("a decoder").into_inner();
            if is_gzip(inner.fill_buf()?) {
                self.decoder = Some(flate2::bufread::GzDecoder::new(inner));
                continue;
            }
            loop {
                let rest = inner.fill_buf()?;
                if rest.is_empty() {
                    return Ok(0);
                }
                if rest.iter().any(|&b| b != 0) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "bytes after the compressed data that are neither another gzip \
                         member nor zero padding",
                    ));
                }
                let len = rest.len();
                inner.consume(len);
            }
        }
    }
}

/// Reads `inner` with each CR, and each CR LF, as one LF.
struct LineFeeds<R> {
    inner: R,
    /// The last byte given out was a CR made LF: an LF right after it is dropped.
    after_cr: bool,
}

impl<R: BufRead> Read for LineFeeds<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let available = self.inner.fill_buf()?;
            if available.is_empty() || buf.is_empty() {
                return Ok(0);
            }
            let mut taken = 0;
            let mut written = 0;
            for &b in available {
                if written == buf.len() {
                    break;
                }
                taken += 1;
                if b == b'\n' && self.after_cr {
                    self.after_cr = false;
                    continue;
                }
                self.after_cr = b == b'\r';
                buf[written] = if b == b'\r' { b'\n' } else { b };
                written += 1;
            }
            self.inner.consume(taken);
            if written > 0 {
                return Ok(written);
            }
        }
    }
}

/// The guide's Rust examples (the engine's and mail's), compiled and run as doctests in
/// this package, which sees both. (`sh no-run` marks a shell block that the README test
/// shows but does not run, not a Rust attribute.)
#[cfg(doctest)]
#[allow(rustdoc::invalid_codeblock_attributes)]
#[doc = include_str!("../../../GUIDE.md")]
struct GuideDoctests;
