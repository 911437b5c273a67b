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
//! A reader thread opens each input in turn and splits each mbox with the buffer splitter
//! (`MboxSplitter`) into messages: each message is a range of a shared buffer of about 1 MiB, not a copy,
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
//! its [`Scanned::warnings`], as data ([`Warning`], whose `Display` is the sentence);
//! they never stop the run. An input that cannot be opened is an [`Event::Failed`]; one
//! that cannot be read to its end ends with [`Event::End`]'s `error`, after the messages
//! read before the error. Errors are the [`io::Error`]s met, their kinds and OS codes
//! kept: the words are the caller's.
//!
//! # Modules
//!
//! This module holds the API and the run (the reader thread, the calling thread's
//! loop); the reader's work is in four: `sources` (where an mbox's bytes come from:
//! a stream, or a plain file read on the pool), `mbox` (an mbox split into messages),
//! `maildir` (a Maildir listed, its files over the limit read in pieces) and `batches`
//! (messages gathered into batches, scanned and rendered on the pool).

mod batches;
mod maildir;
mod mbox;
mod sources;
mod warning;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{mpsc, Arc};
use std::thread;

use crate::{MailScanner, ScannedMessage, DEFAULT_MAX_MESSAGE_SIZE};

use batches::{scan_batch, Batcher, Depth, RawMessage, Spawn, Step};
use maildir::read_maildir;
use mbox::read_mbox;
pub use warning::Warning;

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
    /// The problems met in reading and scanning it.
    pub warnings: Vec<Warning>,
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
        /// The error.
        error: io::Error,
    },
    /// The current input is finished.
    End {
        /// Index in the run's inputs.
        input: usize,
        /// Why it could not be read to its end (for corrupt compressed data, an error of
        /// kind `InvalidData` or `InvalidInput` that says so).
        error: Option<io::Error>,
        /// Maildir files that could not be read (each also a message with `read_error`).
        read_errors: usize,
        /// The folders of a Maildir that could not be listed, each with the error.
        unreadable: Vec<(PathBuf, io::Error)>,
    },
}

impl<T> Scanned<T> {
    /// The message without what the [`Render`] made of it, and that.
    pub(crate) fn take_output(self) -> (Scanned<()>, T) {
        let Scanned {
            input,
            index,
            global,
            path,
            message_id,
            first,
            read_error,
            parts,
            skipped,
            skipped_text,
            links,
            warnings,
            output,
        } = self;
        let scanned = Scanned {
            input,
            index,
            global,
            path,
            message_id,
            first,
            read_error,
            parts,
            skipped,
            skipped_text,
            links,
            warnings,
            output: (),
        };
        (scanned, output)
    }
}

impl<T> Event<T> {
    /// The event without the output of its message, and that output.
    pub(crate) fn take_output(self) -> (Event<()>, Option<T>) {
        match self {
            Event::Message(scanned) => {
                let (scanned, output) = scanned.take_output();
                (Event::Message(scanned), Some(output))
            }
            Event::Start { input, size } => (Event::Start { input, size }, None),
            Event::Progress { bytes } => (Event::Progress { bytes }, None),
            Event::Failed { input, error } => (Event::Failed { input, error }, None),
            Event::End {
                input,
                error,
                read_errors,
                unreadable,
            } => {
                let end = Event::End {
                    input,
                    error,
                    read_errors,
                    unreadable,
                };
                (end, None)
            }
        }
    }
}

/// The parallel scan of mail archives; see the [module](self) documentation.
#[derive(Clone, Debug)]
pub struct Pipeline {
    scanner: MailScanner,
    maildir: bool,
    limit: u64,
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

    /// The size limit of a message ([`Pipeline::max_message_size`]).
    pub(crate) fn limit(&self) -> u64 {
        self.limit
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
