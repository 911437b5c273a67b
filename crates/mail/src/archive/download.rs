//! Downloads: each message as it was sent, beside its page, as `NNNNN.txt`.
//!
//! # The message as sent
//!
//! `NNNNN.txt` holds the bytes the scan was given ([`ScannedMessage::raw`]): the
//! original header and body, without the mbox `From ` line and with `>From` lines of an
//! mboxrd unquoted as the reader unquotes them. The name ends in `.txt` because every
//! static server serves that as `text/plain`, which a browser shows and never runs; an
//! `.eml` is served by some as `message/rfc822`, which some browsers draw as a web
//! archive (MHTML: its HTML parts and all), and by others with no type at all.
//!
//! # Invariants
//!
//! * With [`Addresses::Obfuscate`] no download is written (it would publish the
//!   addresses of its header and body), and the page says so.
//! * A piece of a message over the size limit (the archive shows each piece as a message
//!   of its own, never holding the whole) offers the piece: its bytes as the input holds
//!   them (an mbox's `>From` lines still quoted), and its page says it is a piece. So
//!   every message of the archive is in its thread's and its month's mbox (`mboxes`).
//! * A message without its bytes (a scan that kept none) has no download and no link to
//!   one; a file an earlier run left under its name is removed, as are those of messages
//!   past the archive's last.
//! * Written as pages are (`files`): created at a free name, else to a fresh name renamed
//!   over its own, never through a link; and not at all when the file there (a plain
//!   file, not a link) holds the same bytes already, as when a build goes over one.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use crate::ScannedMessage;

use super::files::write_if_changed;
use super::page::human_size;
use super::Addresses;

/// The download of message `global`.
pub(crate) fn raw_name(global: usize) -> String {
    format!("{global:05}.txt")
}

/// Writes the download of message `global` (`m`'s bytes) into `dir` when downloads are
/// `offered`, or removes one left there; returns its length when written. In a `fresh`
/// folder (`fresh`) the name is free: the file is created at once, and there is nothing
/// to keep or remove.
pub(crate) fn write_raw(
    dir: &Path,
    global: usize,
    m: &ScannedMessage,
    offered: bool,
    fresh: bool,
) -> io::Result<Option<u64>> {
    let path = dir.join(raw_name(global));
    match m.raw() {
        Some(raw) if offered => {
            write_if_changed(&path, raw, fresh)?;
            Ok(Some(raw.len() as u64))
        }
        _ => {
            if !fresh && fs::symlink_metadata(&path).is_ok() {
                fs::remove_file(&path)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            }
            Ok(None)
        }
    }
}

/// Writes the line of a message page that offers its download (`written`: its length,
/// from [`write_raw`]; `piece`: whether the message is a piece of one over the size
/// limit), or says why there is none.
pub(crate) fn write_link(
    global: usize,
    written: Option<u64>,
    piece: bool,
    addresses: Addresses,
    out: &mut impl Write,
) -> io::Result<()> {
    match (written, addresses) {
        (Some(len), _) if piece => writeln!(
            out,
            "<p class=\"download\"><a href=\"{}\" type=\"text/plain\" download>This piece of \
             the message</a> ({}, as its input holds it: the message is over the size limit, \
             shown in pieces).</p>",
            raw_name(global),
            human_size(len)
        ),
        (Some(len), _) => writeln!(
            out,
            "<p class=\"download\"><a href=\"{}\" type=\"text/plain\" download>The message as \
             sent</a> ({}, header and body).</p>",
            raw_name(global),
            human_size(len)
        ),
        (None, Addresses::Obfuscate) => out.write_all(
            b"<p class=\"download\">The message as sent is not offered: it would publish \
              the addresses this archive hides.</p>\n",
        ),
        (None, Addresses::Show) => Ok(()),
    }
}

/// Whether `name` is the download of a message past `messages` (an earlier run's).
pub(crate) fn is_stale(name: &str, messages: usize) -> bool {
    name.strip_suffix(".txt")
        .filter(|n| n.len() >= 5 && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<usize>().ok())
        .is_some_and(|n| n > messages)
}

/// Writes the line of a thread or month page (`what`: `thread`, `month`) that offers
/// its mbox `name` ([`mboxes`](super::mboxes)), or says why there is none; nothing when
/// the archive offers no downloads.
pub(crate) fn write_mbox_link(
    name: &str,
    what: &str,
    downloads: bool,
    addresses: Addresses,
    out: &mut impl Write,
) -> io::Result<()> {
    match (downloads, addresses) {
        (false, _) => Ok(()),
        (true, Addresses::Show) => writeln!(
            out,
            "<p class=\"download\"><a href=\"{name}\" type=\"application/gzip\" download>The \
             {what} as an mbox</a> (gzip, every message as sent).</p>"
        ),
        (true, Addresses::Obfuscate) => writeln!(
            out,
            "<p class=\"download\">The {what} as an mbox is not offered: it would publish \
             the addresses this archive hides.</p>"
        ),
    }
}
