//! A Maildir input: its messages listed on the reader thread and read by the workers.
//!
//! # Algorithm
//!
//! [`read_maildir`](crate::maildir::read_maildir) lists `cur/` and `new/`; each file
//! within the size limit becomes a message that a worker reads itself. A file over the
//! limit is read here, in pieces of about [`CHUNK`] bytes cut just after an ASCII space
//! or control character ([`read_in_chunks`]), each scanned as raw text, as the mbox
//! reader cuts an over-limit message: a run without such a byte is kept whole unless it
//! spans a whole block of [`CHUNK`] bytes read, and then it is cut at a character
//! boundary, with a warning.
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
                    max_run: CHUNK as u64,
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
        let result =
            crate::maildir::open_message(path, &file).and_then(|f| read_in_chunks(f, &mut each));
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
/// short; stops early when `each` says `false`.
///
/// The bytes are read a block of [`CHUNK`] at a time, after those carried from the last
/// cut, and cut as the mbox splitter cuts an over-limit message
/// ([`MboxSplitter`](crate::splitter::MboxSplitter)): after the last such byte of what is
/// held, so that a run without one is kept whole (and the links in it) unless it spans a
/// whole block; then it is cut at a character boundary, and the piece says so (a link
/// across the cut is reported in two). At most three blocks are held, whatever the run.
pub(super) fn read_in_chunks(
    mut reader: impl Read,
    each: &mut impl FnMut(Vec<u8>, u64, bool) -> bool,
) -> io::Result<()> {
    let mut carry: Vec<u8> = Vec::new();
    let mut offset = 0u64;
    loop {
        let mut buf = Vec::with_capacity(carry.len() + CHUNK);
        buf.append(&mut carry);
        let want = buf.len() + CHUNK;
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
            // A run over the whole block: before the last character, unless it is ASCII
            // (the byte after the buffer is not known yet, so the last character may go
            // on there).
            None => (
                linkscan::window::char_boundary_before(&buf, buf.len()),
                true,
            ),
        };
        carry.extend_from_slice(&buf[cut..]);
        buf.truncate(cut);
        offset += cut as u64;
        if !each(buf, offset - cut as u64, short) {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run with no space or control byte over a whole block read is cut at a character
    /// boundary, each piece saying so; a run of nearly a block, wherever the blocks fall,
    /// is not cut, and the pieces cover the text.
    #[test]
    fn pieces_cut_at_character_boundaries() {
        let run = "\u{e9}".repeat(3 * CHUNK / 2);
        let text = format!("a b\n{run}\nend");
        let mut pieces = Vec::new();
        read_in_chunks(text.as_bytes(), &mut |bytes, offset, short| {
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
        for before in [0, 1, CHUNK / 2, CHUNK - 100, CHUNK + 7, 2 * CHUNK - 3] {
            let text = format!(
                "{}\n{}\nend",
                "x ".repeat(before / 2),
                ",".repeat(CHUNK - 8)
            );
            let mut pieces = Vec::new();
            read_in_chunks(text.as_bytes(), &mut |bytes, offset, short| {
                pieces.push((bytes, offset, short));
                true
            })
            .unwrap();
            assert!(pieces.iter().all(|p| !p.2), "before {before}");
            assert!(
                pieces.iter().all(|p| p.0.last().is_none_or(|&b| b <= b' ')
                    || p.1 + p.0.len() as u64 == text.len() as u64),
                "before {before}"
            );
            assert_eq!(pieces.iter().map(|p| p.0.len()).sum::<usize>(), text.len());
        }
    }
}
