//! [`Warning`]: a problem met in reading or scanning one message of a run, as data; and
//! the error of a compressed archive that turned out corrupt.
//!
//! A message's warnings come from three places: the splitting of its archive
//! ([`MboxWarning`]), its parse and scan ([`MailWarning`]), and the reading of a Maildir
//! file (the two variants of this module's own). Each keeps the facts, an I/O error
//! whole (its kind, its OS code), and its `Display` is the sentence shown to people.
//!
//! # Invariants
//!
//! * A warning never stops a run, and never means bytes were dropped: each says where the
//!   bytes went, or that a file could not be read at all.
//! * The sentences are those the command line has always printed: an I/O error is said
//!   without the `(os error N)` the standard library appends to its text.

use std::error::Error;
use std::fmt;
use std::io;

use crate::{MailWarning, MboxWarning};

/// A problem met in reading or scanning one message ([`Scanned::warnings`](super::Scanned::warnings));
/// the message is still given back.
#[derive(Debug)]
#[non_exhaustive]
pub enum Warning {
    /// From the splitting of the archive (an unescaped `From ` line, a read error that
    /// cut the message short, a message over the size limit, …).
    Mbox(MboxWarning),
    /// From the message's parse and scan.
    Mail(MailWarning),
    /// A run without an ASCII space or control character in a Maildir file over the size
    /// limit was cut at a character boundary: a link across the cut is split.
    RunCut {
        /// The longest run kept whole, in bytes.
        max_run: u64,
        /// Where the cut is, in bytes from the start of the file.
        at: u64,
    },
    /// A Maildir file could not be read: the message was not scanned.
    Unreadable(io::Error),
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Mbox(w) => w.fmt(f),
            Warning::Mail(w) => w.fmt(f),
            Warning::RunCut { max_run, at } => write!(
                f,
                "a run of more than {max_run} bytes without white space was cut at a \
                 character boundary at byte {at}; a link across the cut is split"
            ),
            Warning::Unreadable(e) => write!(f, "could not be read: {}", Bare(e)),
        }
    }
}

impl From<MboxWarning> for Warning {
    fn from(w: MboxWarning) -> Warning {
        Warning::Mbox(w)
    }
}

impl From<MailWarning> for Warning {
    fn from(w: MailWarning) -> Warning {
        Warning::Mail(w)
    }
}

/// The error of an archive whose compressed data is corrupt (the only source of
/// `InvalidData` and `InvalidInput` in reading one), carried by an [`io::Error`] of the
/// same kind. The data may have been decompressed to garbage before the damage was
/// found, since gzip verifies its checksum only at the end of each member, so it says
/// that what was read before is not verified, as `zcat` does by failing after its
/// output. (Holding back every message until its member is verified would hold a whole
/// member in memory.)
#[derive(Debug)]
pub(crate) struct Corrupt(io::Error);

impl Corrupt {
    /// The error of a read of an archive: `e` itself, or for corrupt data, `e` in a
    /// [`Corrupt`] of its kind.
    pub(crate) fn read_error(e: io::Error) -> io::Error {
        match e.kind() {
            io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => {
                io::Error::new(e.kind(), Corrupt(e))
            }
            _ => e,
        }
    }
}

impl fmt::Display for Corrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the compressed data is corrupt ({}); the output of this archive before this \
             point was not verified by its checksum and may hold links from damaged data",
            Bare(&self.0)
        )
    }
}

impl Error for Corrupt {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.0)
    }
}

/// An I/O error as a sentence says it: its text without the ` (os error N)` that the
/// standard library appends to the text of an OS error.
struct Bare<'a>(&'a io::Error);

impl fmt::Display for Bare<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        f.write_str(text.find(" (os error").map_or(&text, |i| &text[..i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences are those the command line has always printed.
    #[test]
    fn display_is_the_sentence_printed() {
        let missing = io::Error::from_raw_os_error(2);
        assert!(missing.to_string().ends_with("(os error 2)"));
        assert_eq!(
            Warning::Unreadable(missing).to_string(),
            "could not be read: No such file or directory"
        );
        assert_eq!(
            Warning::RunCut {
                max_run: 1024,
                at: 99
            }
            .to_string(),
            "a run of more than 1024 bytes without white space was cut at a character \
             boundary at byte 99; a link across the cut is split"
        );
        assert_eq!(
            Warning::from(MboxWarning::TooLarge { limit: 7 }).to_string(),
            MboxWarning::TooLarge { limit: 7 }.to_string()
        );
        let corrupt = Corrupt::read_error(io::Error::new(io::ErrorKind::InvalidData, "bad"));
        assert_eq!(corrupt.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            corrupt.to_string(),
            "the compressed data is corrupt (bad); the output of this archive before this \
             point was not verified by its checksum and may hold links from damaged data"
        );
        let other = Corrupt::read_error(io::Error::from_raw_os_error(5));
        assert_eq!(other.raw_os_error(), Some(5));
    }
}
