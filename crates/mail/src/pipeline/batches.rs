//! Batches: the messages the reader splits, gathered into batches of about [`BATCH_BYTES`]
//! (at most [`BATCH_MESSAGES`]), each scanned and rendered on the pool ([`scan_batch`])
//! and handed to the calling thread as a [`Step`].
//!
//! # Algorithm
//!
//! The reader thread pushes each message to the [`Batcher`]; a full batch is started on
//! the pool at once, and its receiver sent down the run's bounded channel with the bytes
//! read so far. The calling thread takes the steps in order and waits for each batch's
//! results. On a worker, [`scan`] reads a Maildir file ([`read_message_file`]), undoes
//! the mboxrd escaping of an mbox message only when the splitter saw an escape, or
//! scans a piece of an over-limit message as raw text.
//!
//! # Invariants
//!
//! * Order: a batch's results are in the order of its messages, and batches go down the
//!   channel in the order they were started, so the caller sees archive order.
//! * Bounds: [`Depth`] sizes the channel (the batches started and not handed on) and the
//!   reads ahead by the pool's threads; a worker never waits for the calling thread.
//! * Every message pushed comes back as one [`Scanned`], whatever happens to it: a file
//!   that cannot be read is an empty scan with a warning.

use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};

use rayon::prelude::*;

use crate::splitter::unescape;
use crate::{MailScanner, ScannedMessage};

use super::sources::READ_BYTES;
use super::{MessageInfo, Render, Scanned, Warning};

pub(super) struct RawMessage {
    /// The input it is of (index in the run's inputs).
    pub(super) input: usize,
    /// Index in its archive, from 1.
    pub(super) index: usize,
    /// Index over all inputs of the run, from 1. Each piece of an over-limit message has
    /// its own (the HTML archive makes a page of each, so no piece overwrites another).
    pub(super) global: usize,
    /// The message file of a Maildir.
    pub(super) path: Option<PathBuf>,
    pub(super) bytes: Bytes,
    /// Warnings from reading (mbox splitting, an unreadable Maildir file).
    pub(super) warnings: Vec<Warning>,
}

/// Where the bytes of a message are.
pub(super) enum Bytes {
    /// A message of an mbox: a range of a buffer of the archive, mboxrd escaping not yet
    /// undone, and whether the splitter saw an escaped `From ` line in it.
    Mbox(Arc<Vec<u8>>, Range<usize>, bool),
    /// A piece of an mbox message over the size limit, scanned as raw text: the piece, its
    /// offset in the message, and whether it is the message's first.
    Chunk(Arc<Vec<u8>>, Range<usize>, u64, bool),
    /// A Maildir message file (its path is the message's), read by the worker: the
    /// Maildir (links are followed only to files inside it) and the size limit (counted
    /// on the bytes read, whatever the file's size said).
    File(Arc<Path>, u64),
}

pub(super) enum Step<T> {
    /// An input starts; its size when known.
    Start { input: usize, size: Option<u64> },
    /// A batch of messages of the current input, being scanned on the pool: where its
    /// results come, and the bytes of all inputs read so far.
    Batch {
        results: mpsc::Receiver<Vec<Scanned<T>>>,
        done: u64,
    },
    /// An input could not be opened.
    Failed { input: usize, error: io::Error },
    /// The current input is finished; an error if it could not be read to its end, and
    /// the folders of a Maildir that could not be listed, each with the error.
    End {
        error: Option<io::Error>,
        read_errors: usize,
        unreadable: Vec<(PathBuf, io::Error)>,
    },
}

pub(super) const BATCH_BYTES: usize = 1 << 20;

pub(super) const BATCH_MESSAGES: usize = 1024;

/// How deep the pipeline is: how much is read, split and scanned ahead of the batch being
/// written. The reader starts the scan of every batch on the pool as it splits it, so the
/// workers go on with later batches while the main thread waits for the slowest message
/// of the oldest one; each worker needs two batches or so queued for it, or it idles.
/// At 2 threads that is 6 batches started and not yet written and 2 reads ahead; at 16,
/// 34 and 4.
#[derive(Clone, Copy, Debug)]
pub(super) struct Depth {
    /// Batches started on the pool and not yet written (the bound of the channel).
    pub(super) batches: usize,
    /// Reads of a plain archive file asked for ahead of the buffer being split.
    pub(super) reads_ahead: usize,
    /// The most read buffers kept for reuse: as many as the batches hold, plus the reads
    /// ahead, plus two being split and filled, so that a buffer seldom has to be faulted
    /// in afresh.
    pub(super) pool: usize,
}

impl Depth {
    pub(super) fn new(threads: usize) -> Depth {
        let batches = 2 * threads + 2;
        let reads_ahead = (threads / 4).max(2);
        // The batches in flight are a stretch of the archive of about their bytes, which
        // spans as many buffers and two more.
        let held = (batches + 1) * BATCH_BYTES / READ_BYTES + 2;
        Depth {
            batches,
            reads_ahead,
            pool: (held + reads_ahead + 2).max(8),
        }
    }
}

/// Starts the scan of a batch of messages of the named input on the pool; its results
/// come on the receiver.
pub(super) type Spawn<'a, T> = dyn Fn(Vec<RawMessage>) -> mpsc::Receiver<Vec<Scanned<T>>> + 'a;

/// Gathers messages into batches, starts the scan of each, and sends it down the channel.
pub(super) struct Batcher<'a, T> {
    pub(super) tx: &'a mpsc::SyncSender<Step<T>>,
    pub(super) spawn: &'a Spawn<'a, T>,
    pub(super) count: &'a AtomicU64,
    pub(super) batch: Vec<RawMessage>,
    pub(super) bytes: usize,
}

impl<T> Batcher<'_, T> {
    /// Adds a message; `false` when the receiver is gone (stop reading).
    pub(super) fn push(&mut self, message: RawMessage, size: usize) -> bool {
        self.batch.push(message);
        self.bytes += size;
        if self.bytes >= BATCH_BYTES || self.batch.len() >= BATCH_MESSAGES {
            return self.flush();
        }
        true
    }

    fn flush(&mut self) -> bool {
        if self.batch.is_empty() {
            return true;
        }
        let messages = std::mem::take(&mut self.batch);
        self.bytes = 0;
        let done = self.count.load(Ordering::Relaxed);
        let results = (self.spawn)(messages);
        self.tx.send(Step::Batch { results, done }).is_ok()
    }

    pub(super) fn send(&mut self, event: Step<T>) -> bool {
        self.flush() && self.tx.send(event).is_ok()
    }
}

/// Scans one message on a worker: a Maildir file is read here, an mbox message is
/// unescaped (mboxrd) only if it needs it, a piece of an over-limit message is scanned as
/// raw text. Returns the result, whether it counts as a message (not a later piece), and
/// the warning of a file that could not be read: such a message is not scanned (an empty
/// result, so no "the message is empty" after the read error).
pub(super) fn scan(
    scanner: &MailScanner,
    raw: &RawMessage,
) -> (ScannedMessage, bool, Option<Warning>) {
    match &raw.bytes {
        Bytes::Mbox(buf, range, escaped) => {
            // The splitter's search found the escaped lines: no second search of every
            // message for them.
            let bytes = &buf[range.clone()];
            let result = if *escaped {
                scanner.scan(&unescape(bytes))
            } else {
                scanner.scan(bytes)
            };
            (result, true, None)
        }
        Bytes::Chunk(buf, range, offset, first) => {
            let offset = usize::try_from(*offset).unwrap_or(usize::MAX);
            (scanner.scan_raw(&buf[range.clone()], offset), *first, None)
        }
        Bytes::File(root, limit) => {
            let path = raw.path.as_deref().unwrap_or(Path::new(""));
            match read_message_file(root, path, *limit) {
                Ok(bytes) => (scanner.scan(&bytes), true, None),
                Err(e) => (
                    ScannedMessage::default(),
                    true,
                    Some(Warning::Unreadable(e)),
                ),
            }
        }
    }
}

/// Reads a Maildir message file of at most `limit` bytes (its size was within the limit
/// when listed): through [`open_message`](crate::maildir::open_message), so a
/// link out of the Maildir is refused, and no more than `limit` bytes, so a file whose
/// size said less (a `/proc` file says 0) or that grew is an error, not a message held
/// whole.
pub(super) fn read_message_file(root: &Path, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = crate::maildir::open_message(root, path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "it holds more than the {limit} bytes of --max-message-size, more than its \
                 size said when it was listed (it grew, or is not a plain file)"
            ),
        ));
    }
    Ok(bytes)
}

/// Scans and renders the messages of one batch on the pool, in order.
pub(super) fn scan_batch<R: Render>(
    scanner: &MailScanner,
    render: &R,
    messages: Vec<RawMessage>,
) -> Vec<Scanned<R::Output>> {
    messages
        .into_par_iter()
        .map(|raw| {
            let (scanned, first, unreadable) = scan(scanner, &raw);
            let read_error = unreadable.is_some();
            let mut warnings = raw.warnings;
            warnings.extend(unreadable);
            // Copied, not moved: the page of an archive shows them too.
            warnings.extend(scanned.warnings().iter().cloned().map(Warning::Mail));
            let message_id = scanned.message_id().map(str::to_owned);
            let parts = if first { scanned.parts().len() } else { 0 };
            let skipped = scanned.skipped().len();
            let skipped_text = scanned.skipped().iter().filter(|p| p.text_like).count();
            let links = scanned.link_count();
            let info = MessageInfo {
                input: raw.input,
                index: raw.index,
                global: raw.global,
                path: raw.path.as_deref(),
            };
            let output = render.render(&info, scanned);
            Scanned {
                input: raw.input,
                index: raw.index,
                global: raw.global,
                path: raw.path,
                message_id,
                first,
                read_error,
                parts,
                skipped,
                skipped_text,
                links,
                warnings,
                output,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size limit of a Maildir message counts the bytes read, not the size the file
    /// gave when it was listed (a `/proc` file says 0; a file may grow): a file over it is
    /// an error after `limit + 1` bytes, never read whole.
    #[test]
    fn a_maildir_file_is_read_up_to_the_limit() {
        let dir = std::env::temp_dir().join(format!("linkscan-read-limit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("cur")).unwrap();
        let path = dir.join("cur/1");
        std::fs::write(&path, vec![b'x'; 10_000]).unwrap();
        let e = read_message_file(&dir, &path, 4096).unwrap_err();
        assert!(e.to_string().contains("more than the 4096 bytes"), "{e}");
        assert_eq!(
            read_message_file(&dir, &path, 10_000).unwrap().len(),
            10_000
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
