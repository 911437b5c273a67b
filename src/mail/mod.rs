//! Email archives as input: mbox (plain or gzip-compressed), Maildir, MIME decoding.
//!
//! Links in raw mail bytes hide behind quoted-printable soft line breaks (`=` at a line end
//! splits a URL in two), `=3D` escapes, base64 bodies, RFC 2047 encoded subjects and legacy
//! charsets. This module turns an archive into decoded texts and scans those:
//!
//! 1. [`open_mbox`] opens an archive, decompressing gzip when the content says so, and
//!    [`MboxReader`] splits it into messages in bounded memory ([`mbox`]), line by line;
//!    [`splitter::MboxSplitter`] does the same over large buffers without copying, and
//!    hands out messages over a size limit in pieces; or [`maildir_messages`] lists the
//!    messages of a Maildir ([`maildir`]).
//! 2. [`MailScanner::scan`] parses one message, decodes its Subject and text parts,
//!    extracts the visible text of HTML parts ([`html_text()`]) and finds the links, with a
//!    warning for each problem met ([`message`]). A `format=flowed` text part (RFC 3676)
//!    is unflowed before the scan ([`flowed`]): a URL the sender broke over two lines is
//!    found whole.
//!
//! Messages are independent, so a caller may scan them in parallel (the `linkscan` command
//! does, with rayon) and put the results back in archive order.
//!
//! ```
//! use linkscan::mail::{open_mbox, MailScanner, MboxReader};
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

mod fast;
pub mod flowed;
pub mod html_text;
pub mod maildir;
pub mod mbox;
pub mod message;
mod raw;
pub mod splitter;

use std::io::{self, BufRead, BufReader, Read};

pub use html_text::{html_text, Anchor, HtmlText};
pub use maildir::maildir_messages;
pub use mbox::{MboxMessage, MboxReader, MboxWarning};
pub use message::{
    Base64Problem, BodyProblem, LinkSource, MailLink, MailScanner, MailWarning, ScannedMessage,
    TextPart,
};

/// Buffer size for reading archives.
const BUFFER: usize = 256 * 1024;

/// Whether an archive that starts with `head` is gzip-compressed: its magic bytes `1f 8b`,
/// whatever its name. [`open_mbox`] decompresses such an archive.
///
/// ```
/// assert!(linkscan::mail::is_gzip(&[0x1f, 0x8b, 0x08]));
/// assert!(!linkscan::mail::is_gzip(b"From a@example.com"));
/// ```
pub fn is_gzip(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b])
}

/// The archive read from `reader`, decompressed when it starts with the gzip magic bytes
/// ([`is_gzip`]), whatever its name. Concatenated gzip members are read in turn.
pub fn open_mbox<'r, R: Read + Send + 'r>(reader: R) -> io::Result<Box<dyn BufRead + Send + 'r>> {
    let mut buffered = BufReader::with_capacity(BUFFER, reader);
    let head = buffered.fill_buf()?;
    if is_gzip(head) {
        let decoder = flate2::bufread::MultiGzDecoder::new(buffered);
        Ok(Box::new(BufReader::with_capacity(BUFFER, decoder)))
    } else {
        Ok(Box::new(buffered))
    }
}
