//! The parallel scan of mail archives: mbox (plain, gzip or standard input) and Maildir
//! inputs scanned on the rayon thread pool, each message's result given back in archive
//! order, in bounded memory (features `mail` and `parallel`).
//!
//! [`Pipeline::run`] calls a [`Render`] on the pool for each scanned message and hands
//! what it made, with the message's counts and warnings, to the caller's function in
//! archive order, on the calling thread; [`Pipeline::spawn`] gives the same [`Event`]s as
//! an iterator that owns the run (the Python API uses it). `linkscan find --mbox` renders
//! JSON lines there, and `linkscan linkify --mbox --out` writes each message's page.
//!
//! ```
//! use linkscan_mail::pipeline::{Event, Input, MessageInfo, Pipeline};
//! use linkscan_mail::{MailScanner, ScannedMessage};
//! # let dir = std::env::temp_dir().join(format!("linkscan-pipeline-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("list.mbox");
//! std::fs::write(&path, "From a@example.com Mon Jan  1 00:00:00 2024\n\
//!                        Subject: see example.com\n\nand x.org/a\n\n\
//!                        From b@example.com Mon Jan  1 00:00:01 2024\n\
//!                        Subject: hello\n\nno link\n").unwrap();
//! let pipeline = Pipeline::new(MailScanner::new());
//! // The render runs on the pool: here, each message's link texts.
//! let render = |_: &MessageInfo<'_>, scanned: ScannedMessage| -> Vec<String> {
//!     let links = scanned.parts().iter().flat_map(|p| p.links());
//!     links.map(|l| l.text().to_owned()).collect()
//! };
//! let mut found = Vec::new();
//! pipeline.run(&[Input::Path(path)], &render, |event| {
//!     if let Event::Message(message) = event {
//!         found.push((message.index, message.output));
//!     }
//!     Ok(true) // go on
//! }).unwrap();
//! assert_eq!(found, [(1, vec!["example.com".to_owned(), "x.org/a".to_owned()]), (2, vec![])]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! # Algorithm
//!
//! A reader thread opens each input in turn and splits each mbox with [`MboxSplitter`]
//! into messages: each message is a range of a shared buffer of about 1 MiB, not a copy,
//! and buffers are reused once their messages are done. The buffers of a plain archive
//! file are read on the pool with positioned reads, a few ahead of the one being split, so
//! the copy from the page cache runs on the workers and the reader thread only splits; a
//! gzip archive and standard input are read and decompressed on the reader thread, the
//! only serial work they need. A message over the size limit
//! ([`Pipeline::max_message_size`]) comes as pieces of about 1 MiB, scanned as raw text
//! ([`MailScanner::scan_raw`]). A Maildir is listed, and its files are read by the
//! workers (those over the limit are read on the reader thread in pieces; links are
//! followed only to files inside the Maildir). Messages go in batches of about 1 MiB:
//! the reader starts the scan of each batch on the global rayon pool, which parses,
//! decodes, scans and renders each message (mboxrd escapes are undone there, only in the
//! messages that hold one), and sends the batch down a bounded channel to the calling
//! thread, which waits for each batch in turn and hands its messages on in archive order.
//! So no worker waits for the calling thread, and the channel bounds the batches started
//! and not yet handed on. How many reads, batches and buffers are in flight grows with
//! the pool's threads.
//!
//! # Bounds
//!
//! Memory is bounded by a few buffers and batches per thread plus, per worker, the
//! message it scans (at most the size limit), whatever the size of the archive; and by
//! what the [`Render`] makes of the messages in flight, which is the caller's to bound
//! (`linkscan find` renders at most a fixed budget of output per message on the pool
//! and the rest on the calling thread, from the part texts and
//! [`MailScanner::text_links`]).
//!
//! # Reporting
//!
//! Every message read is given back, whatever happens to it. Problems in a message are
//! its [`Scanned::warnings`], as sentences; they never stop the run. An input that cannot
//! be opened is an [`Event::Failed`]; one that cannot be read to its end ends with
//! [`Event::End`]'s `error`, after the messages read before the error.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;

use rayon::prelude::*;

use linkscan::window::{fill, fill_at as read_full};

use super::splitter::{find_from, unescape, MboxSplitter, Split, CHUNK};
use super::{open_mbox, MailScanner, MboxWarning, ScannedMessage};

/// The default size limit of a message ([`Pipeline::max_message_size`]): 32 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: u64 = 32 << 20;

/// One input of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// An mbox file (plain, gzip or with CR line ends, told by content), or a Maildir
    /// folder with [`Pipeline::maildir`].
    Path(PathBuf),
    /// Standard input, as an mbox (a Maildir run reads the folder named `-`).
    Stdin,
}

impl Input {
    /// The input's path; `-` for standard input.
    pub fn path(&self) -> &Path {
        match self {
            Input::Path(path) => path,
            Input::Stdin => Path::new("-"),
        }
    }
}

/// Where a message is, for [`Render::render`].
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct MessageInfo<'a> {
    /// The input it is of (index in the run's inputs).
    pub input: usize,
    /// Index in its archive, from 1 (the pieces of an over-limit message share it).
    pub index: usize,
    /// Index over all inputs of the run, from 1. Each piece of an over-limit message has
    /// its own.
    pub global: usize,
    /// The message file of a Maildir.
    pub path: Option<&'a Path>,
}

/// What the caller makes of each scanned message, on the pool (in parallel, in no
/// particular order).
///
/// A function or closure `Fn(&MessageInfo, ScannedMessage) -> T` is one.
pub trait Render: Sync {
    /// What one message gives, handed on in archive order as [`Scanned::output`].
    type Output: Send;
    /// Makes the output of one scanned message.
    fn render(&self, message: &MessageInfo<'_>, scanned: ScannedMessage) -> Self::Output;
}

impl<F, T> Render for F
where
    F: Fn(&MessageInfo<'_>, ScannedMessage) -> T + Sync,
    T: Send,
{
    type Output = T;
    fn render(&self, message: &MessageInfo<'_>, scanned: ScannedMessage) -> T {
        self(message, scanned)
    }
}

/// A scanned message, in archive order: its place, its counts, its warnings and what the
/// [`Render`] made of it.
#[derive(Debug)]
#[non_exhaustive]
pub struct Scanned<T> {
    /// The input it is of (index in the run's inputs).
    pub input: usize,
    /// Index in its archive, from 1.
    pub index: usize,
    /// Index over all inputs of the run, from 1 (each piece of an over-limit message has
    /// its own).
    pub global: usize,
    /// The message file of a Maildir.
    pub path: Option<PathBuf>,
    /// The Message-ID, without angle brackets.
    pub message_id: Option<String>,
    /// Whether this is a message, or the first piece of one over the size limit (`false`
    /// for the later pieces: a count of messages counts this).
    pub first: bool,
    /// Whether a Maildir file could not be read (the message was not scanned).
    pub read_error: bool,
    /// Texts scanned (the Subject and text parts; 0 for a later piece).
    pub parts: usize,
    /// Leaf parts not scanned, and how many of them read as text
    /// ([`MailScanner::other_text`] would scan them).
    pub skipped: usize,
    /// See `skipped`.
    pub skipped_text: usize,
    /// [`ScannedMessage::link_count`]: the links kept or counted by the scan.
    pub links: usize,
    /// The problems met in reading and scanning it, as sentences.
    pub warnings: Vec<String>,
    /// What the [`Render`] made of it.
    pub output: T,
}

/// What a run gives, in order.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<T> {
    /// An input starts; its size when known (for a Maildir, the sum of its files').
    Start {
        /// Index in the run's inputs.
        input: usize,
        /// Bytes, when known.
        size: Option<u64>,
    },
    /// A message of the current input.
    Message(Scanned<T>),
    /// The bytes of all inputs read so far (after each batch of messages).
    Progress {
        /// Bytes read (compressed bytes for a gzip archive).
        bytes: u64,
    },
    /// An input could not be opened (or a Maildir listed).
    Failed {
        /// Index in the run's inputs.
        input: usize,
        /// The error, in words.
        error: String,
    },
    /// The current input is finished.
    End {
        /// Index in the run's inputs.
        input: usize,
        /// Why it could not be read to its end.
        error: Option<String>,
        /// Maildir files that could not be read (each also a message with `read_error`).
        read_errors: usize,
        /// The folders of a Maildir that could not be listed, each with the error.
        unreadable: Vec<(PathBuf, String)>,
    },
}

/// The parallel scan of mail archives; see the [module](self) documentation.
#[derive(Clone, Debug)]
pub struct Pipeline {
    scanner: MailScanner,
    maildir: bool,
    limit: u64,
}

struct RawMessage {
    /// The input it is of (index in the run's inputs).
    input: usize,
    /// Index in its archive, from 1.
    index: usize,
    /// Index over all inputs of the run, from 1. Each piece of an over-limit message has
    /// its own (the HTML archive makes a page of each, so no piece overwrites another).
    global: usize,
    /// The message file of a Maildir.
    path: Option<PathBuf>,
    bytes: Bytes,
    /// Warnings from reading (mbox splitting, an unreadable Maildir file).
    warnings: Vec<String>,
}

/// Where the bytes of a message are.
enum Bytes {
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

enum Step<T> {
    /// An input starts; its size when known.
    Start { input: usize, size: Option<u64> },
    /// A batch of messages of the current input, being scanned on the pool: where its
    /// results come, and the bytes of all inputs read so far.
    Batch {
        results: mpsc::Receiver<Vec<Scanned<T>>>,
        done: u64,
    },
    /// An input could not be opened.
    Failed { input: usize, error: String },
    /// The current input is finished; an error if it could not be read to its end, and
    /// the folders of a Maildir that could not be listed, each with the error.
    End {
        error: Option<String>,
        read_errors: usize,
        unreadable: Vec<(PathBuf, String)>,
    },
}

const BATCH_BYTES: usize = 1 << 20;
const BATCH_MESSAGES: usize = 1024;

/// Bytes of an archive read at a time: large enough that the splitting and the hand-over
/// to the workers cost nothing per message, small enough that the buffers in flight (the
/// reads asked for ahead, those the batches hold) stay a small part of the memory. Each
/// pooled buffer is faulted in and zeroed once, at its first use: with 4 MiB reads (and
/// 1 MiB of room) a 52 MB archive at `-j 1` faulted in 25 MB of fresh buffers; with 1 MiB
/// (and 256 KiB) it is 10 MB, for 0.92x the CPU time and half the peak memory
/// (whole-process figures, paired runs, medians of 11).
const READ_BYTES: usize = 1 << 20;

/// How deep the pipeline is: how much is read, split and scanned ahead of the batch being
/// written. The reader starts the scan of every batch on the pool as it splits it, so the
/// workers go on with later batches while the main thread waits for the slowest message
/// of the oldest one; each worker needs two batches or so queued for it, or it idles.
/// At 2 threads that is 6 batches started and not yet written and 2 reads ahead; at 16,
/// 34 and 4.
#[derive(Clone, Copy, Debug)]
struct Depth {
    /// Batches started on the pool and not yet written (the bound of the channel).
    batches: usize,
    /// Reads of a plain archive file asked for ahead of the buffer being split.
    reads_ahead: usize,
    /// The most read buffers kept for reuse: as many as the batches hold, plus the reads
    /// ahead, plus two being split and filled, so that a buffer seldom has to be faulted
    /// in afresh.
    pool: usize,
}

impl Depth {
    fn new(threads: usize) -> Depth {
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

/// Counts the bytes read through it, for the progress bar.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Starts the scan of a batch of messages of the named input on the pool; its results
/// come on the receiver.
type Spawn<'a, T> = dyn Fn(Vec<RawMessage>) -> mpsc::Receiver<Vec<Scanned<T>>> + 'a;

/// Gathers messages into batches, starts the scan of each, and sends it down the channel.
struct Batcher<'a, T> {
    tx: &'a mpsc::SyncSender<Step<T>>,
    spawn: &'a Spawn<'a, T>,
    count: &'a AtomicU64,
    batch: Vec<RawMessage>,
    bytes: usize,
}

impl<T> Batcher<'_, T> {
    /// Adds a message; `false` when the receiver is gone (stop reading).
    fn push(&mut self, message: RawMessage, size: usize) -> bool {
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

    fn send(&mut self, event: Step<T>) -> bool {
        self.flush() && self.tx.send(event).is_ok()
    }
}

/// The reader thread: every input in order, as events.
fn read_inputs<T>(
    inputs: &[Input],
    maildir: bool,
    limit: u64,
    depth: Depth,
    tx: mpsc::SyncSender<Step<T>>,
    spawn: &Spawn<'_, T>,
) {
    let count = Arc::new(AtomicU64::new(0));
    let mut global = 0;
    let mut batcher = Batcher {
        tx: &tx,
        spawn,
        count: &count,
        batch: Vec::new(),
        bytes: 0,
    };
    for (input, source) in inputs.iter().enumerate() {
        let path = source.path();
        let ended = if maildir {
            read_maildir(input, path, limit, &mut global, &mut batcher)
        } else {
            let file = match source {
                Input::Path(path) => Some(path.as_path()),
                Input::Stdin => None,
            };
            read_mbox(input, file, limit, depth, &count, &mut global, &mut batcher)
        };
        match ended {
            Some(end) => {
                if !batcher.send(end) {
                    return;
                }
            }
            None => return,
        }
    }
}

/// Reads one Maildir: the files are listed here and read by the workers, except those
/// over the size limit, which are read here in pieces. `None` when the receiver is gone;
/// else the event that ends the input.
fn read_maildir<T>(
    input: usize,
    path: &Path,
    limit: u64,
    global: &mut usize,
    batcher: &mut Batcher<'_, T>,
) -> Option<Step<T>> {
    let (files, unreadable) = match super::maildir::read_maildir(path) {
        // A folder that cannot be listed is a read error of its own, not a message.
        Ok(maildir) => (
            maildir.messages,
            maildir
                .unreadable
                .iter()
                .map(|(folder, e)| (folder.clone(), describe(e)))
                .collect(),
        ),
        Err(e) => {
            let error = describe(&e);
            return Some(Step::Failed { input, error });
        }
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
            let mut warnings = if first {
                vec![over_limit(limit)]
            } else {
                Vec::new()
            };
            if short {
                warnings.push(format!(
                    "a run of more than {} bytes without white space was cut at a character \
                     boundary at byte {}; a link across the cut is split",
                    limit.max(CHUNK as u64),
                    offset + len as u64
                ));
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
        let result = super::maildir::open_message(path, &file).and_then(|f| {
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
                warnings: vec![format!("could not be read: {}", describe(&e))],
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

/// A read error of an archive in words. Corrupt compressed data (the only source of
/// `InvalidData`/`InvalidInput` here) may have been decompressed to garbage before the
/// damage was detected — gzip verifies its checksum only at the end of each member — so
/// the message says that what was printed before is not verified, as `zcat` does by
/// failing after its output. (Holding back every message until its gzip member is
/// verified would hold a whole member in memory.)
fn read_error(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => format!(
            "the compressed data is corrupt ({}); the output of this archive before this \
             point was not verified by its checksum and may hold links from damaged data",
            describe(e)
        ),
        _ => describe(e),
    }
}

/// The warning for a message over the size limit.
fn over_limit(limit: u64) -> String {
    MboxWarning::TooLarge { limit }.to_string()
}

/// The warnings of the archive's splitter, as printed.
fn strings(warnings: &[MboxWarning]) -> Vec<String> {
    warnings.iter().map(ToString::to_string).collect()
}

/// Reads `reader` in pieces of about [`CHUNK`] bytes, each cut just after an ASCII space or
/// control character, and hands each to `each` with its offset and whether it was cut
/// short; stops early when `each` says `false`. A piece with no such byte grows until it
/// has one, as the pieces of an mbox message do, up to `max_run` bytes; a longer run is
/// cut at a character boundary, and the piece says so (a link across the cut is reported
/// in two).
fn read_in_chunks(
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

/// Reads one mbox archive (plain or gzip) in large buffers, split into messages by
/// [`MboxSplitter`] (`path` `None`: standard input). `None` when the receiver is gone; else the event that ends the input.
fn read_mbox<T>(
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
            let error = describe(&e);
            return Some(Step::Failed { input, error });
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
                    let mut warnings = strings(&m.warnings);
                    if i + 1 == last {
                        if let Some(e) = &error {
                            warnings.push(MboxWarning::read_error(e).to_string());
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
                        warnings: strings(&c.warnings),
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
        error: error.map(|e| read_error(&e)),
        read_errors: 0,
        unreadable: Vec::new(),
    })
}

/// Whether a file is gzip-compressed, by its first bytes.
fn is_gzip(file: &File) -> bool {
    let mut head = [0u8; 2];
    matches!(file.read_at(&mut head, 0), Ok(2)) && super::is_gzip(&head)
}

/// Whether a file's lines end in CR alone, by its first line
/// ([`has_cr_line_ends`](super::has_cr_line_ends)).
fn has_cr_line_ends(file: &File) -> bool {
    let mut head = vec![0u8; 64 << 10];
    let (len, _) = read_full(file, 0, &mut head);
    super::has_cr_line_ends(&head[..len])
}

/// A stream (standard input, or a gzip archive decompressed) read on the reader thread.
fn open_stream(
    reader: Box<dyn Read + Send>,
    size: Option<u64>,
    count: &Arc<AtomicU64>,
) -> io::Result<(Source, Option<u64>)> {
    let counting = Counting {
        inner: reader,
        count: Arc::clone(count),
    };
    Ok((Source::Stream(open_mbox(counting)?), size))
}

/// The room kept in front of the bytes that a worker reads into a buffer of a plain
/// archive file, for the bytes not consumed from the buffer before (the start of a message
/// whose end was not read yet); a larger carry is joined to the new bytes in a buffer of
/// its own.
const HEADROOM: usize = 256 << 10;

/// Where the bytes of an archive come from.
enum Source {
    /// Read on the reader thread.
    Stream(Box<dyn io::BufRead + Send>),
    /// A plain archive file: each buffer is read on the pool with a positioned read,
    /// `reads_ahead` of them asked for ahead of the one the reader thread splits (so
    /// that they come before the work of that buffer in the pool's queue), and the copy
    /// from the page cache is no serial stage.
    File {
        file: Arc<File>,
        /// The size when opened.
        size: u64,
        /// Where the next read to ask for starts.
        asked: u64,
        /// The reads asked for, in order.
        reads: VecDeque<mpsc::Receiver<ReadBuffer>>,
        /// How many reads are asked for ahead of the buffer being split.
        reads_ahead: usize,
    },
}

/// A buffer read on the pool: the bytes at `[HEADROOM, HEADROOM + len)`, and where
/// `From ` starts in them (from `HEADROOM`), found by the same worker while they are in
/// its cache, so that the thread that splits touches only the lines around them.
struct ReadBuffer {
    buf: Vec<u8>,
    len: usize,
    found: Vec<usize>,
    error: Option<io::Error>,
}

/// A buffer for the splitter: the carry, then new bytes, in `buf[data]`; where `From `
/// starts in `data`, when known (else the splitter searches).
struct Filled {
    buf: Vec<u8>,
    data: Range<usize>,
    found: Option<Vec<usize>>,
    at_end: bool,
    error: Option<io::Error>,
}

/// The bytes of a buffer not consumed by the splitter, for the next one; where `From `
/// starts in them (from `range.start`), when known.
struct Carry {
    buf: Arc<Vec<u8>>,
    range: Range<usize>,
    found: Option<Vec<usize>>,
}

/// A buffer of the pool that no message holds any more, else a new one.
fn free_buffer(pool: &mut Vec<Arc<Vec<u8>>>) -> Vec<u8> {
    match pool.iter().position(|b| Arc::strong_count(b) == 1) {
        Some(i) => Arc::try_unwrap(pool.swap_remove(i)).unwrap_or_default(),
        None => Vec::new(),
    }
}

impl Source {
    fn file(file: File, size: u64, reads_ahead: usize) -> Source {
        Source::File {
            file: Arc::new(file),
            size,
            asked: 0,
            reads: VecDeque::new(),
            reads_ahead,
        }
    }

    /// The next buffer: `carry` (the bytes not consumed from the last one) then about
    /// [`READ_BYTES`] new bytes; `at_end` when the input has no more.
    fn fill(
        &mut self,
        pool: &mut Vec<Arc<Vec<u8>>>,
        carry: Option<Carry>,
        count: &AtomicU64,
    ) -> Filled {
        let kept = carry.as_ref().map_or(0, |c| c.range.len());
        match self {
            Source::Stream(reader) => {
                let mut buf = free_buffer(pool);
                // (The carry is at most the size limit: past it, a message goes out in
                // chunks. Reading as many bytes as it carries would cut its copies, but
                // hold buffers of twice the limit: 113 MB against 84 MB for a gzip holding
                // a 1 GB message, at the same CPU time.)
                let want = kept + READ_BYTES;
                if buf.len() < want {
                    buf.resize(want, 0);
                }
                if let Some(carry) = carry {
                    buf[..kept].copy_from_slice(&carry.buf[carry.range]);
                }
                let (got, error) = fill(reader, &mut buf[kept..want]);
                Filled {
                    buf,
                    data: 0..kept + got,
                    found: None,
                    at_end: kept + got < want,
                    error,
                }
            }
            Source::File {
                file,
                size,
                asked,
                reads,
                reads_ahead,
            } => {
                let mut next = |pool: &mut Vec<Arc<Vec<u8>>>| {
                    let ahead = *reads_ahead;
                    next_read(file, (*size, ahead), asked, reads, pool, count)
                };
                let (
                    ReadBuffer {
                        mut buf,
                        len,
                        found: read_found,
                        error,
                    },
                    at_end,
                ) = next(pool);
                let mut data = HEADROOM..HEADROOM + len;
                let mut found = Some(read_found);
                match carry {
                    Some(carry) if kept <= HEADROOM => {
                        data.start = HEADROOM - kept;
                        buf[data.start..HEADROOM].copy_from_slice(&carry.buf[carry.range]);
                        found = carry.found.zip(found).map(|(before, after)| {
                            joined_found(&buf[data.clone()], kept, before, after)
                        });
                    }
                    Some(Carry {
                        buf: from, range, ..
                    }) => {
                        // A carry larger than the room (a long message): one buffer with
                        // it and at least as many new bytes, so that a long message is
                        // copied a bounded number of times (twice at most), not once per
                        // read. (Half as many held 16 MB less on a 1 GB message but took
                        // 1.10-1.15x the CPU time on the 27 MB ones.)
                        let want = 2 * kept.max(READ_BYTES);
                        let mut joined = Vec::with_capacity(want + READ_BYTES);
                        joined.extend_from_slice(&from[range]);
                        joined.extend_from_slice(&buf[data]);
                        pool.push(Arc::new(buf));
                        let (mut at_end, mut error) = (at_end, error);
                        while !at_end && joined.len() < want {
                            let (more, end) = next(pool);
                            joined.extend_from_slice(&more.buf[HEADROOM..HEADROOM + more.len]);
                            pool.push(Arc::new(more.buf));
                            at_end = end;
                            error = error.or(more.error);
                        }
                        let data = 0..joined.len();
                        return Filled {
                            buf: joined,
                            data,
                            found: None,
                            at_end,
                            error,
                        };
                    }
                    None => {}
                }
                Filled {
                    buf,
                    data,
                    found,
                    at_end,
                    error,
                }
            }
        }
    }
}

/// Where `From ` starts in `data`, the carry then the bytes read after it, from where it
/// starts in each: those of the carry, those across the junction (found here), and those
/// of the new bytes.
fn joined_found(data: &[u8], kept: usize, mut before: Vec<usize>, after: Vec<usize>) -> Vec<usize> {
    const LEN: usize = b"From ".len();
    let (lo, hi) = (
        kept.saturating_sub(LEN - 1),
        (kept + LEN - 1).min(data.len()),
    );
    let mut across = Vec::new();
    find_from(&data[lo..hi], lo, &mut across);
    before.extend(across.into_iter().filter(|&p| p < kept && p + LEN > kept));
    before.extend(after.into_iter().map(|p| p + kept));
    before
}

/// The next buffer of a plain archive file read on the pool, and whether it is the last;
/// first asks for up to `ahead` reads, while the file has bytes there (one more
/// read finds its end), and always one.
fn next_read(
    file: &Arc<File>,
    (size, ahead): (u64, usize),
    asked: &mut u64,
    reads: &mut VecDeque<mpsc::Receiver<ReadBuffer>>,
    pool: &mut Vec<Arc<Vec<u8>>>,
    count: &AtomicU64,
) -> (ReadBuffer, bool) {
    while reads.is_empty() || (reads.len() < ahead && *asked <= size) {
        let buf = free_buffer(pool);
        reads.push_back(read_on_pool(Arc::clone(file), *asked, buf));
        *asked += READ_BYTES as u64;
    }
    let reading = reads.pop_front().expect("one read at least was asked for");
    let read = reading.recv().expect("the read task always sends");
    count.fetch_add(read.len as u64, Ordering::Relaxed);
    let at_end = read.len < READ_BYTES || read.error.is_some();
    if at_end {
        // Reads past the end give nothing.
        reads.clear();
    }
    (read, at_end)
}

/// Reads [`READ_BYTES`] bytes of `file` at `offset` into `buf` after its [`HEADROOM`], on
/// the pool.
fn read_on_pool(file: Arc<File>, offset: u64, mut buf: Vec<u8>) -> mpsc::Receiver<ReadBuffer> {
    let (tx, rx) = mpsc::sync_channel(1);
    rayon::spawn(move || {
        if buf.len() < HEADROOM + READ_BYTES {
            buf.resize(HEADROOM + READ_BYTES, 0);
        }
        let read = &mut buf[HEADROOM..HEADROOM + READ_BYTES];
        let (len, error) = read_full(&file, offset, read);
        let mut found = Vec::new();
        find_from(&read[..len], 0, &mut found);
        let _ = tx.send(ReadBuffer {
            buf,
            len,
            found,
            error,
        });
    });
    rx
}

/// Scans one message on a worker: a Maildir file is read here, an mbox message is
/// unescaped (mboxrd) only if it needs it, a piece of an over-limit message is scanned as
/// raw text. Returns the result, whether it counts as a message (not a later piece), and
/// the warning of a file that could not be read: such a message is not scanned (an empty
/// result, so no "the message is empty" after the read error).
fn scan(scanner: &MailScanner, raw: &RawMessage) -> (ScannedMessage, bool, Option<String>) {
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
                    Some(format!("could not be read: {}", describe(&e))),
                ),
            }
        }
    }
}

/// Reads a Maildir message file of at most `limit` bytes (its size was within the limit
/// when listed): through [`open_message`](super::maildir::open_message), so a
/// link out of the Maildir is refused, and no more than `limit` bytes, so a file whose
/// size said less (a `/proc` file says 0) or that grew is an error, not a message held
/// whole.
fn read_message_file(root: &Path, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = super::maildir::open_message(root, path)?;
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
fn scan_batch<R: Render>(
    scanner: &MailScanner,
    render: &R,
    messages: Vec<RawMessage>,
) -> Vec<Scanned<R::Output>> {
    messages
        .into_par_iter()
        .map(|raw| {
            let (scanned, first, read_error) = scan(scanner, &raw);
            let mut warnings = raw.warnings;
            warnings.extend(read_error.iter().cloned());
            // Copied, not moved: the page of an archive shows them too.
            warnings.extend(scanned.warnings().iter().map(|w| w.to_string()));
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
                read_error: read_error.is_some(),
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

impl Pipeline {
    /// A pipeline that scans each message with `scanner`, mbox inputs, messages up to
    /// [`DEFAULT_MAX_MESSAGE_SIZE`].
    pub fn new(scanner: MailScanner) -> Pipeline {
        Pipeline {
            scanner,
            maildir: false,
            limit: DEFAULT_MAX_MESSAGE_SIZE,
        }
    }

    /// Read the inputs as Maildir folders (messages in `cur/` and `new/`), not mbox
    /// archives (default: no).
    pub fn maildir(mut self, yes: bool) -> Self {
        self.maildir = yes;
        self
    }

    /// A message larger than this (bytes, at least 1) is not parsed but scanned as raw
    /// text in pieces of about 1 MiB, each a [`Scanned`] of its own, the first with a
    /// warning (default [`DEFAULT_MAX_MESSAGE_SIZE`]).
    pub fn max_message_size(mut self, bytes: u64) -> Self {
        self.limit = bytes.max(1);
        self
    }

    /// The scanner of the messages.
    pub fn scanner(&self) -> &MailScanner {
        &self.scanner
    }

    /// Scans `inputs` in turn (in parallel within each, on the global rayon pool),
    /// rendering each message with `render` on the pool, and calls `each` with the
    /// events of the run in order on this thread. When `each` returns `Ok(false)` or an
    /// error, the run stops (the messages in flight are finished first) and `run` returns
    /// what it returned. Returns when every task of the run is done.
    pub fn run<R: Render>(
        &self,
        inputs: &[Input],
        render: &R,
        mut each: impl FnMut(Event<R::Output>) -> io::Result<bool>,
    ) -> io::Result<()> {
        let depth = Depth::new(rayon::current_num_threads());
        let (tx, rx) = mpsc::sync_channel(depth.batches);
        let (maildir, limit) = (self.maildir, self.limit);
        let scanner = &self.scanner;
        thread::scope(|threads| -> io::Result<()> {
            // The reader splits the archives and starts the scan of each batch on the pool
            // itself, so the workers never wait for this thread, which waits for each
            // batch in turn. The channel bounds the batches started and not yet handed on.
            threads.spawn(move || {
                rayon::in_place_scope(|scope| {
                    let spawn = |messages: Vec<RawMessage>| {
                        let (tx, results) = mpsc::sync_channel(1);
                        scope.spawn(move |_| {
                            let _ = tx.send(scan_batch(scanner, render, messages));
                        });
                        results
                    };
                    read_inputs(inputs, maildir, limit, depth, tx, &spawn);
                });
            });
            // Moved here, so that it is gone as soon as this thread stops: the reader
            // then stops at its next batch.
            let rx = rx;
            let mut current = 0;
            for step in &rx {
                let go_on = match step {
                    Step::Start { input, size } => {
                        current = input;
                        each(Event::Start { input, size })?
                    }
                    Step::Batch { results, done } => {
                        // Blocks until the pool has scanned the batch (or gave up on it).
                        let results = results
                            .recv()
                            .map_err(|_| io::Error::other("a worker thread failed"))?;
                        let mut go_on = true;
                        for scanned in results {
                            if !each(Event::Message(scanned))? {
                                go_on = false;
                                break;
                            }
                        }
                        go_on && each(Event::Progress { bytes: done })?
                    }
                    Step::Failed { input, error } => each(Event::Failed { input, error })?,
                    Step::End {
                        error,
                        read_errors,
                        unreadable,
                    } => each(Event::End {
                        input: current,
                        error,
                        read_errors,
                        unreadable,
                    })?,
                };
                if !go_on {
                    break;
                }
            }
            Ok(())
        })
    }

    /// [`Pipeline::run`] on a thread of its own, its events as an iterator that owns the
    /// run: dropping it stops the run (and waits for the tasks in flight). A failure of
    /// the pipeline itself (a worker that panicked) is the last item, an error.
    pub fn spawn<R>(self, inputs: Vec<Input>, render: R) -> Events<R::Output>
    where
        R: Render + Send + 'static,
        R::Output: 'static,
    {
        // A few events ahead: the run itself holds the batches in flight.
        let (tx, rx) = mpsc::sync_channel(64);
        let thread = thread::spawn(move || {
            let result = self.run(&inputs, &render, |event| Ok(tx.send(Ok(event)).is_ok()));
            if let Err(e) = result {
                let _ = tx.send(Err(e));
            }
        });
        Events {
            rx: Some(rx),
            thread: Some(thread),
        }
    }
}

/// The events of a run on a thread of its own ([`Pipeline::spawn`]), in order.
#[derive(Debug)]
pub struct Events<T> {
    rx: Option<mpsc::Receiver<io::Result<Event<T>>>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl<T> Iterator for Events<T> {
    type Item = io::Result<Event<T>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.rx.as_ref()?.recv().ok()
    }
}

impl<T> Drop for Events<T> {
    fn drop(&mut self) {
        // The run stops at its next event once the receiver is gone.
        drop(self.rx.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// An I/O error in words, without the `(os error N)` suffix.
fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
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
