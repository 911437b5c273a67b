//! Where the bytes of an mbox come from, buffer by buffer: a stream read on the reader
//! thread, or a plain file read on the pool.
//!
//! # Algorithm
//!
//! A [`Source::Stream`] (standard input, a gzip archive decompressed, an archive with CR
//! line ends made LF) is read on the reader thread, the only serial work it needs. A
//! [`Source::File`] is read with positioned reads on the pool, [`READ_BYTES`] at a time
//! and a few reads ahead, each into a buffer after [`HEADROOM`] bytes of room; the
//! worker that reads a buffer also finds where `From ` starts in it while the bytes are
//! in its cache. The bytes the splitter did not consume are copied into the room of the
//! next buffer (a larger carry, a long message, is joined to the new bytes in a buffer of
//! its own, so that it is copied a bounded number of times).
//!
//! # Invariants
//!
//! * The bytes handed out are the input's, in order, each once; the `From ` positions
//!   given with them are those a search of the joined bytes finds ([`joined_found`]
//!   adds those across the junction).
//! * Memory: buffers go round ([`free_buffer`] takes one no message holds); the bytes
//!   read are counted for the progress of the run.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};

use linkscan::window::{fill, fill_at as read_full};

use crate::open_mbox;
use crate::splitter::find_from;

/// Bytes of an archive read at a time: large enough that the splitting and the hand-over
/// to the workers cost nothing per message, small enough that the buffers in flight (the
/// reads asked for ahead, those the batches hold) stay a small part of the memory. Each
/// pooled buffer is faulted in and zeroed once, at its first use: with 4 MiB reads (and
/// 1 MiB of room) a 52 MB archive at `-j 1` faulted in 25 MB of fresh buffers; with 1 MiB
/// (and 256 KiB) it is 10 MB, for 0.92x the CPU time and half the peak memory
/// (whole-process figures, paired runs, medians of 11).
pub(super) const READ_BYTES: usize = 1 << 20;

/// Counts the bytes read through it, for the progress bar.
pub(super) struct Counting<R> {
    pub(super) inner: R,
    pub(super) count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A stream (standard input, or a gzip archive decompressed) read on the reader thread.
pub(super) fn open_stream(
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
pub(super) const HEADROOM: usize = 256 << 10;

/// Where the bytes of an archive come from.
pub(super) enum Source {
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
pub(super) struct ReadBuffer {
    pub(super) buf: Vec<u8>,
    pub(super) len: usize,
    pub(super) found: Vec<usize>,
    pub(super) error: Option<io::Error>,
}

/// A buffer for the splitter: the carry, then new bytes, in `buf[data]`; where `From `
/// starts in `data`, when known (else the splitter searches).
pub(super) struct Filled {
    pub(super) buf: Vec<u8>,
    pub(super) data: Range<usize>,
    pub(super) found: Option<Vec<usize>>,
    pub(super) at_end: bool,
    pub(super) error: Option<io::Error>,
}

/// The bytes of a buffer not consumed by the splitter, for the next one; where `From `
/// starts in them (from `range.start`), when known.
pub(super) struct Carry {
    pub(super) buf: Arc<Vec<u8>>,
    pub(super) range: Range<usize>,
    pub(super) found: Option<Vec<usize>>,
}

/// A buffer of the pool that no message holds any more, else a new one.
pub(super) fn free_buffer(pool: &mut Vec<Arc<Vec<u8>>>) -> Vec<u8> {
    match pool.iter().position(|b| Arc::strong_count(b) == 1) {
        Some(i) => Arc::try_unwrap(pool.swap_remove(i)).unwrap_or_default(),
        None => Vec::new(),
    }
}

impl Source {
    pub(super) fn file(file: File, size: u64, reads_ahead: usize) -> Source {
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
    pub(super) fn fill(
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
pub(super) fn joined_found(
    data: &[u8],
    kept: usize,
    mut before: Vec<usize>,
    after: Vec<usize>,
) -> Vec<usize> {
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
pub(super) fn next_read(
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
pub(super) fn read_on_pool(
    file: Arc<File>,
    offset: u64,
    mut buf: Vec<u8>,
) -> mpsc::Receiver<ReadBuffer> {
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
