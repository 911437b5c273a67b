//! An mbox input (a plain file, a gzip archive or standard input) split into messages
//! on the reader thread.
//!
//! # Algorithm
//!
//! A plain file is read on the pool in buffers of about 1 MiB (`sources`); a gzip
//! archive, one whose lines end in CR alone, or standard input is read as a stream on
//! this thread. [`MboxSplitter`] cuts each buffer into messages, each a range of the
//! shared buffer (not a copy), or into pieces of about 1 MiB for a message over the size
//! limit; the bytes after the last whole message are carried into the next buffer.
//! Buffers go round in a small pool: one whose messages are all done is filled again.
//!
//! # Invariants
//!
//! * Every byte of the input is in exactly one message or piece, in order, as the line
//!   reader ([`MboxReader`](crate::MboxReader)) would give them.
//! * A read error ends the input after the messages read before it: the last of them
//!   carries the error as a warning, and the input's end carries the error itself.

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use linkscan::window::fill_at as read_full;

use crate::splitter::{MboxSplitter, Split};
use crate::MboxWarning;

use super::batches::{Batcher, Bytes, Depth, RawMessage, Step};
use super::sources::{open_stream, Carry, Source, HEADROOM, READ_BYTES};
use super::warning::Corrupt;
use super::Warning;

/// Reads one mbox archive (plain or gzip) in large buffers, split into messages by
/// [`MboxSplitter`] (`path` `None`: standard input). `None` when the receiver is gone; else the event that ends the input.
pub(super) fn read_mbox<T>(
    input: usize,
    path: Option<&Path>,
    limit: u64,
    depth: Depth,
    count: &Arc<AtomicU64>,
    global: &mut usize,
    batcher: &mut Batcher<'_, T>,
) -> Option<Step<T>> {
    let opened = if let Some(path) = path {
        File::open(path).and_then(|file| {
            let size = file
                .metadata()
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len());
            match size {
                // A gzip archive, or one whose lines end in CR alone, is read as a stream
                // (decompressed, or with its line ends made LF, by `open_mbox`).
                Some(size) if !is_gzip(&file) && !has_cr_line_ends(&file) => {
                    Ok((Source::file(file, size, depth.reads_ahead), Some(size)))
                }
                _ => open_stream(Box::new(file), size, count),
            }
        })
    } else {
        open_stream(Box::new(io::stdin()), None, count)
    };
    let (mut source, size) = match opened {
        Ok(opened) => opened,
        Err(e) => {
            return Some(Step::Failed { input, error: e });
        }
    };
    if !batcher.send(Step::Start { input, size }) {
        return None;
    }
    let mut splitter = MboxSplitter::new(limit);
    let mut error = None;
    let mut out = Vec::new();
    // Buffers go round: one whose messages are all done is filled again, so its pages
    // are not faulted in afresh for every 8 MiB of the archive.
    let mut pool: Vec<Arc<Vec<u8>>> = Vec::new();
    // The bytes not consumed last time.
    let mut carry: Option<Carry> = None;
    loop {
        let filled = source.fill(&mut pool, carry.take(), count);
        let (buf, data, at_end) = (filled.buf, filled.data, filled.at_end);
        if filled.error.is_some() {
            error = filled.error;
        }
        out.clear();
        let found = filled.found.as_deref();
        let consumed = splitter.split_found(&buf[data.clone()], found, at_end, &mut out);
        let shared = Arc::new(buf);
        if data.start + consumed < data.end {
            carry = Some(Carry {
                buf: Arc::clone(&shared),
                range: data.start + consumed..data.end,
                found: filled.found.map(|found| {
                    let rest = found.partition_point(|&p| p < consumed);
                    found[rest..].iter().map(|&p| p - consumed).collect()
                }),
            });
        }
        // A buffer joined for a long message is not kept: it is as large as the message,
        // and the pool would hold several of them after the message is done.
        if shared.len() <= HEADROOM + READ_BYTES {
            pool.push(Arc::clone(&shared));
        }
        // Enough buffers go round for the messages in flight (the batches in the channel
        // and those the workers hold), so that a new one is seldom faulted in and zeroed
        // afresh; past that many, the oldest is let go (freed by the last worker using it).
        if pool.len() > depth.pool {
            pool.remove(0);
        }
        let last = out.len();
        for (i, split) in out.drain(..).enumerate() {
            *global += 1;
            let (message, size) = match split {
                Split::Message(m) => {
                    let size = m.range.len();
                    let mut warnings = warnings(m.warnings);
                    if i + 1 == last {
                        if let Some(e) = &error {
                            warnings.push(Warning::Mbox(MboxWarning::read_error(e)));
                        }
                    }
                    let range = data.start + m.range.start..data.start + m.range.end;
                    let message = RawMessage {
                        input,
                        index: m.index,
                        global: *global,
                        path: None,
                        bytes: Bytes::Mbox(Arc::clone(&shared), range, m.escaped),
                        warnings,
                    };
                    (message, size)
                }
                Split::Chunk(c) => {
                    let size = c.range.len();
                    let range = data.start + c.range.start..data.start + c.range.end;
                    let message = RawMessage {
                        input,
                        index: c.index,
                        global: *global,
                        path: None,
                        bytes: Bytes::Chunk(
                            Arc::clone(&shared),
                            range,
                            c.start_in_message,
                            c.first,
                        ),
                        warnings: warnings(c.warnings),
                    };
                    (message, size)
                }
            };
            if !batcher.push(message, size) {
                return None;
            }
        }
        if at_end {
            break;
        }
    }
    Some(Step::End {
        error: error.map(Corrupt::read_error),
        read_errors: 0,
        unreadable: Vec::new(),
    })
}

/// Whether a file is gzip-compressed, by its first bytes.
pub(super) fn is_gzip(file: &File) -> bool {
    let mut head = [0u8; 2];
    matches!(read_full(file, 0, &mut head), (2, None)) && crate::is_gzip(&head)
}

/// Whether a file's lines end in CR alone, by its first line
/// ([`has_cr_line_ends`](crate::has_cr_line_ends)).
pub(super) fn has_cr_line_ends(file: &File) -> bool {
    let mut head = vec![0u8; 64 << 10];
    let (len, _) = read_full(file, 0, &mut head);
    crate::has_cr_line_ends(&head[..len])
}

/// The splitter's warnings of a message, as the run gives them.
fn warnings(split: Vec<MboxWarning>) -> Vec<Warning> {
    split.into_iter().map(Warning::Mbox).collect()
}
