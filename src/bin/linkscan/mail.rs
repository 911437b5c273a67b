//! Mail archives (`--mbox`, `--maildir`) for `find` and `linkify`: the parallel pipeline.
//!
//! # Pipeline
//!
//! A reader thread opens each input in turn and splits each mbox with [`MboxSplitter`]
//! into messages: each message is a range of a shared buffer of [`READ_BYTES`], not a
//! copy, and buffers are reused once their messages are done. The buffers of a plain
//! archive file are read on the pool with positioned reads, a few ahead of the one being
//! split, so the copy from the page cache runs on the workers and the reader thread only
//! splits (see [`Source`]); a gzip archive and standard input are read and decompressed
//! on the reader thread, the only serial work they need. A
//! message over `--max-message-size` comes as pieces of about 1 MiB, scanned as raw text.
//! A Maildir is listed, and its files are read by the workers (those over the limit are
//! read here in pieces). Messages go in batches of about 1 MiB: the reader starts the scan
//! of each batch on the global rayon pool of `-j` threads, which parses, decodes, scans
//! and renders each message (mboxrd escapes are undone there, only in the messages that
//! hold one), and sends the batch down a bounded channel to the main thread, which waits
//! for each batch in turn and writes the rendered outputs in archive order. So no worker
//! waits for the main thread, and the channel bounds the batches started and not yet
//! written. How many reads, batches and buffers are in flight grows with the threads (see
//! [`Depth`]). Memory is
//! therefore bounded by a few buffers and batches per thread plus, per worker, the
//! message it scans (at most the limit), whatever the size of the archive.
//!
//! # Reporting
//!
//! Every message read is counted, whatever happens to it. Problems in a message are warnings
//! on stderr that name the input, the message and the reason; they never stop the run. An
//! input that cannot be opened or read to its end is an error (exit status 2), after the
//! messages read before the error have been processed. At the end a summary line per input
//! counts messages, scanned parts, links and warnings (`--quiet` leaves it out). A progress
//! bar (bytes, messages, throughput, ETA) is drawn on stderr when it is a terminal and the
//! run lasts more than a second.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use linkscan::checks;
use linkscan::mail::splitter::{find_from, unescape, MboxSplitter, Split, CHUNK};
use linkscan::mail::{open_mbox, LinkSource, MailScanner, MboxWarning, ScannedMessage};
use rayon::prelude::*;

use crate::files;
use crate::find::{Format, PerInput};
use crate::input::{self, describe, STDIN_NAME};
use crate::render::{decimal, json_str, tsv_field, tsv_unescape, Name};
use crate::words;
use crate::{FindArgs, Outcome};

/// Options of `find` and `linkify` for mail archives.
#[derive(Args, Debug, Clone)]
pub(crate) struct MailArgs {
    /// Read the inputs as mbox archives (gzip-compressed ones are detected by content).
    #[arg(long, conflicts_with = "maildir")]
    pub(crate) mbox: bool,
    /// Read the inputs as Maildir folders (messages in cur/ and new/).
    #[arg(long)]
    pub(crate) maildir: bool,
    /// With --mbox/--maildir: also scan text/* parts other than plain and HTML (patches, …).
    #[arg(long)]
    pub(crate) all_text: bool,
    /// With --mbox/--maildir: no progress bar and no summary on stderr (warnings remain).
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// With --mbox/--maildir: a message larger than this (bytes; K, M or G suffix) is not
    /// parsed but scanned as raw text in pieces, with a warning.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) max_message_size: Option<u64>,
}

/// The default of `--max-message-size`: 32 MiB.
const DEFAULT_MAX_MESSAGE_SIZE: u64 = 32 << 20;

/// `123`, `64K`, `32M`, `1G` (powers of 1024).
fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("unknown unit {unit:?} (use K, M or G)")),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{s:?} is not a size such as 32M"))?;
    match n.checked_mul(1 << shift) {
        Some(0) | None => Err(format!("{s:?}: the size must be between 1 byte and 16 EiB")),
        Some(size) => Ok(size),
    }
}

impl MailArgs {
    /// Whether the inputs are archives.
    pub(crate) fn archives(&self) -> bool {
        self.mbox || self.maildir
    }

    /// Refuses the options that only mean something for archives when the inputs are not
    /// archives, rather than ignore them.
    pub(crate) fn check_plain(&self) -> Result<(), String> {
        let given = [
            (self.all_text, "--all-text"),
            (self.no_progress, "--no-progress"),
            (self.max_message_size.is_some(), "--max-message-size"),
        ];
        match given.iter().find(|(on, _)| *on) {
            Some((_, flag)) => Err(format!("{flag} is for --mbox or --maildir inputs")),
            None => Ok(()),
        }
    }

    /// The message scanner for these options.
    /// `index_fields`: whether the messages' From, Date and thread fields are read (only the
    /// HTML archive shows them).
    pub(crate) fn scanner(
        &self,
        finder: linkscan::LinkFinder,
        default_scheme: &str,
        index_fields: bool,
    ) -> MailScanner {
        MailScanner::new()
            .finder(finder)
            .default_scheme(default_scheme)
            .other_text(self.all_text)
            .index_fields(index_fields)
    }
}

/// One message on its way from the reader to the scanners.
struct RawMessage {
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

enum Event<T> {
    /// An input starts; its size when known.
    Start { input: usize, size: Option<u64> },
    /// A batch of messages of the current input, being scanned on the pool: where its
    /// results come, and the bytes of all inputs read so far.
    Batch {
        results: mpsc::Receiver<Vec<Done<T>>>,
        done: u64,
    },
    /// An input could not be opened.
    Failed { input: usize, error: String },
    /// The current input is finished; an error if it could not be read to its end, and
    /// the folders of a Maildir that could not be listed (`folder: error`).
    End {
        error: Option<String>,
        read_errors: usize,
        unreadable: Vec<String>,
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
type Spawn<'a, T> = dyn Fn(Vec<RawMessage>, &str) -> mpsc::Receiver<Vec<Done<T>>> + 'a;

/// Gathers messages into batches, starts the scan of each, and sends it down the channel.
struct Batcher<'a, T> {
    tx: &'a mpsc::SyncSender<Event<T>>,
    spawn: &'a Spawn<'a, T>,
    /// The display name of the input being read.
    input_name: String,
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
        let results = (self.spawn)(messages, &self.input_name);
        self.tx.send(Event::Batch { results, done }).is_ok()
    }

    fn send(&mut self, event: Event<T>) -> bool {
        self.flush() && self.tx.send(event).is_ok()
    }
}

/// The reader thread: every input in order, as events.
fn read_inputs<T>(
    inputs: &[PathBuf],
    maildir: bool,
    limit: u64,
    depth: Depth,
    tx: mpsc::SyncSender<Event<T>>,
    spawn: &Spawn<'_, T>,
) {
    let count = Arc::new(AtomicU64::new(0));
    let mut global = 0;
    let mut batcher = Batcher {
        tx: &tx,
        spawn,
        input_name: String::new(),
        count: &count,
        batch: Vec::new(),
        bytes: 0,
    };
    for (input, path) in inputs.iter().enumerate() {
        batcher.input_name = display(path);
        let ended = if maildir {
            read_maildir(input, path, limit, &mut global, &mut batcher)
        } else {
            read_mbox(input, path, limit, depth, &count, &mut global, &mut batcher)
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
) -> Option<Event<T>> {
    let (files, unreadable) = match linkscan::mail::maildir::read_maildir(path) {
        // A folder that cannot be listed is a read error of its own, not a message.
        Ok(maildir) => (
            maildir.messages,
            maildir
                .unreadable
                .iter()
                .map(|(folder, e)| format!("{}: {}", display(folder), describe(e)))
                .collect(),
        ),
        Err(e) => {
            let error = describe(&e);
            return Some(Event::Failed { input, error });
        }
    };
    let sizes: Vec<Option<u64>> = files
        .iter()
        .map(|f| f.metadata().ok().map(|m| m.len()))
        .collect();
    let size = sizes.iter().flatten().sum();
    if !batcher.send(Event::Start {
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
        let result = linkscan::mail::maildir::open_message(path, &file).and_then(|f| {
            read_in_chunks(f, usize::try_from(limit).unwrap_or(usize::MAX), &mut each)
        });
        if gone {
            return None;
        }
        if let Err(e) = result {
            read_errors += 1;
            let message = RawMessage {
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
    Some(Event::End {
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
        let (cut, short) = match buf.iter().rposition(|&b| b <= b' ' || b == 0x7F) {
            Some(i) => (linkscan::piece_end(&buf, 0, i + 1).min(buf.len()), false),
            None if buf.len() < max_run.max(CHUNK) => {
                // No place to cut yet: read on, as far as the run goes.
                want = buf.len() + CHUNK;
                continue;
            }
            None => {
                // Before the last byte that starts a character (the byte after the
                // buffer is not known yet).
                let mut cut = buf.len() - 1;
                while cut + 4 > buf.len() && cut > 0 && (buf[cut] & 0xC0) == 0x80 {
                    cut -= 1;
                }
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
/// [`MboxSplitter`]. `None` when the receiver is gone; else the event that ends the input.
fn read_mbox<T>(
    input: usize,
    path: &Path,
    limit: u64,
    depth: Depth,
    count: &Arc<AtomicU64>,
    global: &mut usize,
    batcher: &mut Batcher<'_, T>,
) -> Option<Event<T>> {
    let opened = if path == Path::new(STDIN_NAME) {
        open_stream(Box::new(io::stdin()), None, count)
    } else {
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
    };
    let (mut source, size) = match opened {
        Ok(opened) => opened,
        Err(e) => {
            let error = describe(&e);
            return Some(Event::Failed { input, error });
        }
    };
    if !batcher.send(Event::Start { input, size }) {
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
    Some(Event::End {
        error: error.map(|e| read_error(&e)),
        read_errors: 0,
        unreadable: Vec::new(),
    })
}

/// Whether a file is gzip-compressed, by its first bytes.
fn is_gzip(file: &File) -> bool {
    let mut head = [0u8; 2];
    matches!(file.read_at(&mut head, 0), Ok(2)) && linkscan::mail::is_gzip(&head)
}

/// Whether a file's lines end in CR alone, by its first line
/// ([`linkscan::mail::has_cr_line_ends`]).
fn has_cr_line_ends(file: &File) -> bool {
    let mut head = vec![0u8; 64 << 10];
    let (len, _) = files::read_full(file, 0, &mut head);
    linkscan::mail::has_cr_line_ends(&head[..len])
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
                let (got, error) = input::fill(reader, &mut buf[kept..want]);
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
        let (len, error) = files::read_full(&file, offset, read);
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
/// when listed): through [`open_message`](linkscan::mail::maildir::open_message), so a
/// link out of the Maildir is refused, and no more than `limit` bytes, so a file whose
/// size said less (a `/proc` file says 0) or that grew is an error, not a message held
/// whole.
fn read_message_file(root: &Path, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = linkscan::mail::maildir::open_message(root, path)?;
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
    input_name: &str,
    messages: Vec<RawMessage>,
) -> Vec<Done<R::Rendered>> {
    messages
        .into_par_iter()
        .map(|raw| {
            let file = raw.path.as_deref().map(display);
            let file = file.as_deref().unwrap_or(input_name);
            let (scanned, first, read_error) = scan(scanner, &raw);
            let mut warnings = raw.warnings;
            warnings.extend(read_error.iter().cloned());
            // Copied, not moved: the page of an archive shows them too.
            warnings.extend(scanned.warnings().iter().map(|w| w.to_string()));
            let rendered = render.render(file, raw.index, raw.global, &scanned);
            Done {
                index: raw.index,
                path: raw.path,
                message_id: scanned.message_id().map(str::to_owned),
                first,
                read_error: read_error.is_some(),
                parts: if first { scanned.parts().len() } else { 0 },
                skipped: scanned.skipped().len(),
                skipped_text: scanned.skipped().iter().filter(|p| p.text_like).count(),
                links: scanned.link_count(),
                warnings,
                rendered,
            }
        })
        .collect()
}

/// What a scanned message leaves for the in-order step.
pub(crate) struct Done<R> {
    index: usize,
    path: Option<PathBuf>,
    message_id: Option<String>,
    /// Whether this is a message, or the first piece of one (counted in the summary).
    first: bool,
    /// Whether a Maildir file could not be read.
    read_error: bool,
    parts: usize,
    /// Leaf parts not scanned, and how many of them read as text.
    skipped: usize,
    skipped_text: usize,
    links: usize,
    warnings: Vec<String>,
    rendered: R,
}

/// What `find` and `linkify` make of each message, in parallel.
pub(crate) trait Render: Sync {
    /// The output of one message.
    type Rendered: Send;
    /// Renders one scanned message (runs on the pool). `file` is the display name of the
    /// message's input (its own file in a Maildir).
    fn render(
        &self,
        file: &str,
        index: usize,
        global: usize,
        message: &ScannedMessage,
    ) -> Self::Rendered;
}

/// What `find` and `linkify` do with the rendered messages, in archive order.
pub(crate) trait Emit<T> {
    /// An input starts.
    fn start(&mut self, _input: &str) -> io::Result<()> {
        Ok(())
    }
    /// Writes one rendered message.
    fn emit(&mut self, rendered: T) -> io::Result<()>;
    /// An input ends, with its totals.
    fn end(&mut self, _input: &str, _totals: &Totals) -> io::Result<()> {
        Ok(())
    }
    /// The run ends.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Counts for the summary.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Totals {
    pub(crate) messages: usize,
    pub(crate) parts: usize,
    pub(crate) links: usize,
    pub(crate) warnings: usize,
    /// Leaf parts not scanned (attachments, and text-like parts without --all-text).
    pub(crate) skipped: usize,
    /// Of those, the text-like ones.
    pub(crate) skipped_text: usize,
}

impl Totals {
    fn add(&mut self, other: &Totals) {
        self.messages += other.messages;
        self.parts += other.parts;
        self.links += other.links;
        self.warnings += other.warnings;
        self.skipped += other.skipped;
        self.skipped_text += other.skipped_text;
    }
}

/// How to run the pipeline.
pub(crate) struct Run<'a> {
    pub(crate) inputs: &'a [PathBuf],
    pub(crate) args: &'a MailArgs,
    pub(crate) scanner: MailScanner,
    /// `find -q`: no progress bar and no summary either.
    pub(crate) quiet: bool,
}

/// The name of an input or a Maildir file as printed: escaped as a TSV field (see
/// [`crate::render`]), so a name that is not UTF-8 stays distinct.
fn display(path: &Path) -> String {
    Name::new(path.as_os_str()).text
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{wide_bar}] {bytes}/{total_bytes} {binary_bytes_per_sec} \
             ETA {eta} {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar
}

/// Runs the pipeline over the inputs: `render` each message, `sink` the results.
pub(crate) fn run<R: Render, S: Emit<R::Rendered>>(
    run: Run<'_>,
    render: &R,
    sink: &mut S,
) -> io::Result<Outcome> {
    let stdin = [PathBuf::from(STDIN_NAME)];
    let inputs = if run.inputs.is_empty() {
        &stdin[..]
    } else {
        run.inputs
    };
    let depth = Depth::new(rayon::current_num_threads());
    let (tx, rx) = mpsc::sync_channel(depth.batches);
    let maildir = run.args.maildir;
    let limit = run
        .args
        .max_message_size
        .unwrap_or(DEFAULT_MAX_MESSAGE_SIZE);

    let quiet = run.args.no_progress || run.quiet;
    // `find -q` stops at the first link, as grep -q does.
    let stop_at_first_link = run.quiet;
    let show_progress = !quiet && io::stderr().is_terminal();
    let bar = progress_bar();
    let started = Instant::now();
    let mut bar_visible = false;

    let mut outcome = Outcome::Ok;
    let mut all = Totals::default();
    let mut totals = Totals::default();
    let mut current = String::new();
    let scanner = &run.scanner;
    let result = thread::scope(|threads| -> io::Result<()> {
        // The reader splits the archives and starts the scan of each batch on the pool
        // itself, so the workers never wait for the main thread, which waits for each
        // batch in turn and writes it. The channel bounds the batches started and not yet
        // written.
        threads.spawn(move || {
            rayon::in_place_scope(|scope| {
                let spawn = |messages: Vec<RawMessage>, input_name: &str| {
                    let (tx, results) = mpsc::sync_channel(1);
                    let input_name = input_name.to_owned();
                    scope.spawn(move |_| {
                        let _ = tx.send(scan_batch(scanner, render, &input_name, messages));
                    });
                    results
                };
                read_inputs(inputs, maildir, limit, depth, tx, &spawn);
            });
        });
        // Moved here, so that it is gone as soon as the main thread stops.
        let rx = rx;
        for event in &rx {
            match event {
                Event::Start { input, size } => {
                    current = display(&inputs[input]);
                    totals = Totals::default();
                    if let Some(size) = size {
                        bar.inc_length(size);
                    }
                    sink.start(&current)?;
                }
                Event::Batch { results, done } => {
                    // Blocks until the pool has scanned the batch (or gave up on it).
                    let results: Vec<Done<R::Rendered>> = results
                        .recv()
                        .map_err(|_| io::Error::other("a worker thread failed"))?;
                    for done in results {
                        if done.read_error {
                            outcome = Outcome::InputErrors;
                        }
                        totals.messages += usize::from(done.first);
                        totals.parts += done.parts;
                        totals.skipped += done.skipped;
                        totals.skipped_text += done.skipped_text;
                        totals.links += done.links;
                        totals.warnings += done.warnings.len();
                        if !done.warnings.is_empty() {
                            let file = done.path.as_deref().map(display);
                            let file = file.as_deref().unwrap_or(&current);
                            let id = done
                                .message_id
                                .as_deref()
                                .map(|id| format!(" <{id}>"))
                                .unwrap_or_default();
                            bar.suspend(|| {
                                for w in &done.warnings {
                                    crate::warn!(
                                        "linkscan: {file}: message {}{id}: {w}",
                                        done.index
                                    );
                                }
                            });
                        }
                        sink.emit(done.rendered)?;
                        if stop_at_first_link && all.links + totals.links > 0 {
                            // Dropping the channel stops the reader at its next batch.
                            sink.end(&current, &totals)?;
                            return sink.finish();
                        }
                    }
                    if show_progress {
                        if !bar_visible && started.elapsed() > Duration::from_secs(1) {
                            bar.set_draw_target(ProgressDrawTarget::stderr());
                            bar_visible = true;
                        }
                        bar.set_position(done);
                        bar.set_message(format!("{} messages", all.messages + totals.messages));
                    }
                }
                Event::Failed { input, error } => {
                    let name = display(&inputs[input]);
                    bar.suspend(|| crate::warn!("linkscan: {name}: {error}"));
                    outcome = Outcome::InputErrors;
                }
                Event::End {
                    error,
                    read_errors,
                    unreadable,
                } => {
                    if read_errors > 0 || !unreadable.is_empty() {
                        outcome = Outcome::InputErrors;
                    }
                    for folder in &unreadable {
                        bar.suspend(|| crate::warn!("linkscan: {folder}"));
                    }
                    if let Some(error) = error {
                        bar.suspend(|| {
                            if totals.messages > 0 {
                                crate::warn!(
                                    "linkscan: {current}: {error} (after {} messages)",
                                    totals.messages
                                );
                            } else {
                                crate::warn!("linkscan: {current}: {error}");
                            }
                        });
                        outcome = Outcome::InputErrors;
                    }
                    sink.end(&current, &totals)?;
                    if !quiet {
                        bar.suspend(|| crate::warn!("linkscan: {current}: {}", summary(&totals)));
                    }
                    all.add(&totals);
                }
            }
        }
        // (Once the main thread stops early, on a write error, the channel is gone and the
        // reader stops by itself.)
        sink.finish()
    });
    bar.finish_and_clear();
    result?;
    if !quiet && inputs.len() > 1 {
        crate::warn!("linkscan: total: {}", summary(&all));
    }
    Ok(outcome)
}

fn summary(t: &Totals) -> String {
    let mut line = format!(
        "{}, {} scanned, {}, {}",
        words::count(t.messages, "message"),
        words::count(t.parts, "part"),
        words::count(t.links, "link"),
        words::count(t.warnings, "warning")
    );
    if t.skipped > 0 {
        let other = t.skipped - t.skipped_text;
        line.push_str(&format!(
            "; {} not scanned (",
            words::count(t.skipped, "part")
        ));
        if other > 0 {
            line.push_str(&format!("{other} attachments or other non-text types"));
        }
        if t.skipped_text > 0 {
            if other > 0 {
                line.push_str(", ");
            }
            line.push_str(&format!(
                "{} text-like: --all-text scans them",
                t.skipped_text
            ));
        }
        line.push(')');
    }
    line
}

/// `find` over archives: JSON lines or TSV per message.
struct FindRender {
    format: Format,
    count: bool,
    /// -o: the text of each link, one per line.
    only: bool,
    checks: bool,
}

/// `find` over archives: the output, and the counts.
struct FindSink<'o, W: Write> {
    out: &'o mut W,
    /// -c, -l, --files-without-match: a line per archive.
    per_input: PerInput,
    /// -q: print nothing.
    quiet: bool,
    several: bool,
    /// Links found in all inputs so far.
    found: usize,
    /// Archives named by -l or --files-without-match.
    listed: usize,
}

/// The `file` field of a JSON line: the name as a string, or `{"bytes":…}` when it is not
/// UTF-8 (see [`crate::render`]); `file` is the name as displayed (TSV-escaped).
fn file_json(file: &str) -> Vec<u8> {
    let mut out = Vec::new();
    // `display` escaped the name; without a backslash, the escaped form is the name.
    if !file.contains('\\') {
        json_str(&mut out, file);
        return out;
    }
    let bytes = tsv_unescape(file);
    match std::str::from_utf8(&bytes) {
        Ok(text) => json_str(&mut out, text),
        Err(_) => out.extend_from_slice(Name::from_bytes(&bytes).json.as_bytes()),
    }
    out
}

/// Appends `text` as a JSON string, or `null`.
fn json_opt(out: &mut Vec<u8>, text: Option<&str>) {
    match text {
        Some(text) => json_str(out, text),
        None => out.extend_from_slice(b"null"),
    }
}

impl Render for FindRender {
    type Rendered = Vec<u8>;

    fn render(&self, file: &str, index: usize, _global: usize, m: &ScannedMessage) -> Vec<u8> {
        if self.count {
            return Vec::new();
        }
        // A JSON line is a few hundred bytes: sized once, rather than grown by doubling
        // (each doubling copies what was rendered).
        let mut out = Vec::with_capacity(m.link_count() * 320);
        // What every line of the message starts with, and every line of a part: rendered
        // once, not per link.
        let tsv = self.format == Format::Tsv;
        let mut message = Vec::new();
        if !self.only && m.link_count() > 0 {
            if tsv {
                message.extend_from_slice(file.as_bytes());
                message.push(b'\t');
                decimal(&mut message, index as u64);
                message.push(b'\t');
                tsv_field(&mut message, m.message_id().unwrap_or_default().as_bytes());
            } else {
                message.extend_from_slice(b"{\"file\":");
                message.extend_from_slice(&file_json(file));
                message.extend_from_slice(b",\"message\":");
                decimal(&mut message, index as u64);
                message.extend_from_slice(b",\"message_id\":");
                json_opt(&mut message, m.message_id());
            }
        }
        let mut head = Vec::new();
        for part in m.parts() {
            if part.links().is_empty() {
                continue;
            }
            head.clear();
            head.extend_from_slice(&message);
            if tsv {
                head.push(b'\t');
                tsv_field(&mut head, part.path().as_bytes());
                head.push(b'\t');
                tsv_field(
                    &mut head,
                    part.content_type().unwrap_or_default().as_bytes(),
                );
            } else if !self.only {
                head.extend_from_slice(b",\"part\":");
                json_str(&mut head, part.path());
                head.extend_from_slice(b",\"content_type\":");
                json_opt(&mut head, part.content_type());
            }
            for link in part.links() {
                if self.only {
                    tsv_field(&mut out, link.text().as_bytes());
                    out.push(b'\n');
                    continue;
                }
                let failed = self.checks.then(|| {
                    // What is right before a link of the text counts (an invisible
                    // character); an href's attribute has nothing before it.
                    let (before, after) = match link.source() {
                        LinkSource::Text => (
                            part.text().get(..link.start()).unwrap_or(""),
                            part.text().get(link.end()..).unwrap_or(""),
                        ),
                        _ => ("", ""),
                    };
                    checks::check_between(before, link.text(), after, link.kind())
                });
                if tsv {
                    out.extend_from_slice(&head);
                    out.push(b'\t');
                    out.extend_from_slice(link.source().as_str().as_bytes());
                    out.push(b'\t');
                    decimal(&mut out, link.start() as u64);
                    out.push(b'\t');
                    decimal(&mut out, link.end() as u64);
                    out.push(b'\t');
                    out.extend_from_slice(link.kind().as_str().as_bytes());
                    for field in [link.text(), link.href()] {
                        out.push(b'\t');
                        tsv_field(&mut out, field.as_bytes());
                    }
                    if let Some(failed) = failed {
                        let names: Vec<&str> = failed.names().collect();
                        out.push(b'\t');
                        out.extend_from_slice(names.join(",").as_bytes());
                    }
                    out.push(b'\n');
                    continue;
                }
                out.extend_from_slice(&head);
                out.extend_from_slice(b",\"source\":\"");
                out.extend_from_slice(link.source().as_str().as_bytes());
                out.extend_from_slice(b"\",\"start\":");
                decimal(&mut out, link.start() as u64);
                out.extend_from_slice(b",\"end\":");
                decimal(&mut out, link.end() as u64);
                out.extend_from_slice(b",\"kind\":\"");
                out.extend_from_slice(link.kind().as_str().as_bytes());
                out.extend_from_slice(b"\",\"text\":");
                json_str(&mut out, link.text());
                out.extend_from_slice(b",\"href\":");
                json_str(&mut out, link.href());
                if let Some(failed) = failed {
                    out.extend_from_slice(b",\"checks\":[");
                    for (i, name) in failed.names().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        json_str(&mut out, name);
                    }
                    out.push(b']');
                }
                out.extend_from_slice(b"}\n");
            }
        }
        out
    }
}

impl<W: Write> Emit<Vec<u8>> for FindSink<'_, W> {
    fn emit(&mut self, rendered: Vec<u8>) -> io::Result<()> {
        self.out.write_all(&rendered)
    }

    fn end(&mut self, input: &str, totals: &Totals) -> io::Result<()> {
        self.found += totals.links;
        if !self.quiet {
            let listed = self
                .per_input
                .end(self.out, self.several, input, totals.links)?;
            self.listed += usize::from(listed);
        }
        Ok(())
    }
}

/// `linkscan find --mbox/--maildir`.
pub(crate) fn find<W: Write>(
    args: &FindArgs,
    scanner: MailScanner,
    out: &mut W,
) -> io::Result<Outcome> {
    if args.format == Format::Marked {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--format marked is for plain text; use jsonl or tsv with --mbox/--maildir",
        ));
    }
    if args.line_number || args.column {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "-n/--line-number and --column are for plain text; a link of a message is \
             located by its part and its offsets in the decoded part text",
        ));
    }
    // --count and -q print no link: the links of text are counted, not kept, so a
    // message dense with links costs no record per link.
    let scanner = scanner.count_only(args.count || args.quiet);
    let render = FindRender {
        format: args.format,
        // -q renders nothing, as --count, -l and --files-without-match do.
        count: args.quiet || PerInput::of(args) != PerInput::Links,
        only: args.only_matching,
        checks: args.checks,
    };
    let mut sink = FindSink {
        out,
        per_input: PerInput::of(args),
        quiet: args.quiet,
        several: args.files.len() > 1,
        found: 0,
        listed: 0,
    };
    let outcome = run(
        Run {
            inputs: &args.files,
            args: &args.mail,
            scanner,
            quiet: args.quiet,
        },
        &render,
        &mut sink,
    )?;
    Ok(match outcome {
        // grep -q: a link found wins over an input error.
        _ if args.quiet && sink.found > 0 => Outcome::Ok,
        Outcome::Ok if sink.per_input == PerInput::WithoutMatch && sink.listed == 0 => {
            Outcome::NotFound
        }
        Outcome::Ok if sink.per_input == PerInput::WithoutMatch => Outcome::Ok,
        Outcome::Ok if sink.found == 0 => Outcome::NotFound,
        outcome => outcome,
    })
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
