//! A Maildir input: its messages listed on the reader thread and read by the workers.
//!
//! # Algorithm
//!
//! [`read_maildir`](crate::maildir::read_maildir) lists `cur/` and `new/`; each file
//! within the size limit becomes a message that a worker reads itself. A file over the
//! limit is read here, in pieces of about [`CHUNK`] bytes cut just after an ASCII space
//! or control character ([`read_in_chunks`]), each scanned as raw text; a run longer
//! than the limit without such a byte is cut at a character boundary, with a warning.
//!
//! # Invariants
//!
//! * Files are opened through [`open_message`](crate::maildir::open_message): a link out
//!   of the Maildir is refused, never read.
//! * Every file listed is a message, read or not: one that cannot be read is a message
//!   with a warning and counts as a read error; a folder that cannot be listed is named
//!   at the input's end.

use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::splitter::CHUNK;
use crate::MboxWarning;

use super::batches::{Batcher, Bytes, RawMessage, Step};
use super::Warning;

/// Reads one Maildir: the files are listed here and read by the workers, except those
/// over the size limit, which are read here in pieces. `None` when the receiver is gone;
/// else the event that ends the input.
pub(super) fn read_maildir<T>(
    input: usize,
    path: &Path,
    limit: u64,
    global: &mut usize,
    batcher: &mut Batcher<'_, T>,
) -> Option<Step<T>> {
    let (files, unreadable) = match crate::maildir::read_maildir(path) {
        // A folder that cannot be listed is a read error of its own, not a message.
        Ok(maildir) => (maildir.messages, maildir.unreadable),
        Err(error) => return Some(Step::Failed { input, error }),
    };
    let sizes: Vec<Option<u64>> = files
        .iter()
        .map(|f| f.metadata().ok().map(|m| m.len()))
        .collect();
    let size = sizes.iter().flatten().sum();
    if !batcher.send(Step::Start {
        input,
        size: Some(size),
    }) {
        return None;
    }
    let mut read_errors = 0;
    let root: Arc<Path> = Arc::from(path);
    for (i, (file, size)) in files.into_iter().zip(sizes).enumerate() {
        *global += 1;
        let size = size.unwrap_or(0);
        batcher.count.fetch_add(size, Ordering::Relaxed);
        if size <= limit {
            let message = RawMessage {
                input,
                index: i + 1,
                global: *global,
                path: Some(file),
                bytes: Bytes::File(Arc::clone(&root), limit),
                warnings: Vec::new(),
            };
            if !batcher.push(message, size as usize) {
                return None;
            }
            continue;
        }
        // Over the limit: read here in pieces, scanned as raw text.
        let index = i + 1;
        let mut first = true;
        let mut gone = false;
        let mut each = |bytes: Vec<u8>, offset: u64, short: bool| {
            let len = bytes.len();
            let range = 0..len;
            if !first {
                *global += 1;
            }
            let mut warnings = Vec::new();
            if first {
                warnings.push(Warning::Mbox(MboxWarning::TooLarge { limit }));
            }
            if short {
                warnings.push(Warning::RunCut {
                    max_run: limit.max(CHUNK as u64),
                    at: offset + len as u64,
                });
            }
            let message = RawMessage {
                input,
                index,
                global: *global,
                path: Some(file.clone()),
                bytes: Bytes::Chunk(Arc::new(bytes), range, offset, first),
                warnings,
            };
            first = false;
            gone = !batcher.push(message, len);
            !gone
        };
        let result = crate::maildir::open_message(path, &file).and_then(|f| {
            read_in_chunks(f, usize::try_from(limit).unwrap_or(usize::MAX), &mut each)
        });
        if gone {
            return None;
        }
        if let Err(e) = result {
            read_errors += 1;
            let message = RawMessage {
                input,
                index,
                global: *global,
                path: Some(file.clone()),
                bytes: Bytes::Chunk(Arc::new(Vec::new()), 0..0, 0, first),
                warnings: vec![Warning::Unreadable(e)],
            };
            if !batcher.push(message, 0) {
                return None;
            }
        }
    }
    Some(Step::End {
        error: None,
        read_errors,
        unreadable,
    })
}

/// Reads `reader` in pieces of about [`CHUNK`] bytes, each cut just after an ASCII space or
/// control character, and hands each to `each` with its offset and whether it was cut
/// short; stops early when `each` says `false`. A piece with no such byte grows until it
/// has one, as the pieces of an mbox message do, up to `max_run` bytes; a longer run is
/// cut at a character boundary, and the piece says so (a link across the cut is reported
/// in two).
pub(super) fn read_in_chunks(
    mut reader: impl Read,
    max_run: usize,
    each: &mut impl FnMut(Vec<u8>, u64, bool) -> bool,
) -> io::Result<()> {
    let mut carry: Vec<u8> = Vec::new();
    let mut offset = 0u64;
    let mut buf: Vec<u8> = Vec::new();
    let mut want = CHUNK;
    loop {
        if buf.is_empty() {
            buf = Vec::with_capacity(want + carry.len());
            buf.append(&mut carry);
        }
        let mut eof = false;
        while buf.len() < want {
            let have = buf.len();
            buf.resize(want, 0);
            match reader.read(&mut buf[have..]) {
                Ok(0) => {
                    buf.truncate(have);
                    eof = true;
                    break;
                }
                Ok(n) => buf.truncate(have + n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => buf.truncate(have),
                Err(e) => {
                    buf.truncate(have);
                    if !buf.is_empty() {
                        each(buf, offset, false);
                    }
                    return Err(e);
                }
            }
        }
        if eof {
            if !buf.is_empty() {
                each(buf, offset, false);
            }
            return Ok(());
        }
        let (cut, short) = match linkscan::window::last_cut_byte(&buf) {
            Some(i) => (linkscan::piece_end(&buf, 0, i).min(buf.len()), false),
            None if buf.len() < max_run.max(CHUNK) => {
                // No place to cut yet: read on, as far as the run goes.
                want = buf.len() + CHUNK;
                continue;
            }
            None => {
                // Before the last character, unless it is ASCII (the byte after the
                // buffer is not known yet, so the last character may go on there).
                let cut = linkscan::window::char_boundary_before(&buf, buf.len());
                (cut, true)
            }
        };
        carry.extend_from_slice(&buf[cut..]);
        buf.truncate(cut);
        want = CHUNK;
        offset += cut as u64;
        if !each(std::mem::take(&mut buf), offset - cut as u64, short) {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run with no space or control byte longer than `max_run` is cut at a character
    /// boundary, each piece saying so; a shorter one is not cut.
    #[test]
    fn pieces_cut_at_character_boundaries() {
        let run = "\u{e9}".repeat(3 * CHUNK / 2);
        let text = format!("a b\n{run}\nend");
        let mut pieces = Vec::new();
        read_in_chunks(text.as_bytes(), CHUNK, &mut |bytes, offset, short| {
            pieces.push((
                String::from_utf8(bytes).expect("UTF-8 pieces"),
                offset,
                short,
            ));
            true
        })
        .unwrap();
        assert_eq!(
            pieces.iter().map(|p| p.0.as_str()).collect::<String>(),
            text
        );
        assert!(pieces.iter().any(|p| p.2), "a forced cut");
        let mut pieces = Vec::new();
        read_in_chunks(text.as_bytes(), 4 * CHUNK, &mut |bytes, offset, short| {
            pieces.push((bytes, offset, short));
            true
        })
        .unwrap();
        assert!(pieces.iter().all(|p| !p.2));
        assert!(pieces
            .iter()
            .all(|p| p.0.last().is_none_or(|&b| b <= b' ') || p.1 > 0));
    }
}
