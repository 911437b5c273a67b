//! JSON Lines input in batches of whole lines: read on a thread of its own, cut into
//! chunks that the rayon pool scans, each chunk knowing the number of its first line.
//!
//! # Algorithm
//!
//! The reader thread ([`read_batches`]) fills a buffer with [`Limits::batch`] bytes in a
//! few large reads (no copy through a `BufReader`, no pass per line), keeps the batch up
//! to its last line feed and carries the bytes after it, the start of the next line, into
//! the next buffer. It then cuts the batch into chunks of about [`Limits::chunk`] bytes,
//! each ending after a line feed, and counts each chunk's lines (a vector count of line
//! feeds), so a worker knows its first record's number without looking at the chunks
//! before it. A consumer that needs the numbers only for what it reports in order (a
//! count, `redact`) reads the batches unnumbered ([`Limits::numbered`]): the reader
//! skips that pass, each chunk starts at 0, and the consumer adds up the lines that the
//! walks of the chunks met. Batches go to the consumer over a channel of two, so that
//! reading (and gzip decompression) overlaps the scan; their buffers come back over
//! another channel and are filled again, so a long run faults in the pages of four or
//! five buffers, not of every batch. A buffer is zeroed once, when it grows; later
//! batches are read over what the last one left ([`Batch::len`] says how much is
//! theirs).
//!
//! # Bounds
//!
//! A line with no line feed in its first [`Limits::record`] bytes is not held whole: those
//! bytes end a batch alone ([`Batch::long`]), and the rest of the line follows in pieces
//! of [`Limits::rest`] bytes ([`Piece::Rest`]), the last ending with its line feed. So the
//! memory of a run is a few batches and at most one record of [`Limits::record`] bytes;
//! a buffer that grew past twice a batch for such a record is dropped, not reused.
//!
//! # Invariants
//!
//! - Every byte of the input is in exactly one batch, or in the pieces of an over-long
//!   line, in order; the last line of the input need not end with a line feed.
//! - Line numbers count every line, blank ones too, from 0.
//! - After a read error, the whole lines read before it are sent, then the error
//!   ([`Piece::Failed`]); the partial line before the error is not.

use std::io::{self, Read};
use std::ops::Range;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;

/// The sizes the reader works with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// The bytes read into a batch (its last line may end past them).
    pub(crate) batch: usize,
    /// The bytes of lines in a chunk (its last line may end past them).
    pub(crate) chunk: usize,
    /// The longest line held whole.
    pub(crate) record: usize,
    /// The pieces of the rest of a longer line.
    pub(crate) rest: usize,
    /// Whether the reader numbers the lines: a chunk's first line ([`Chunk::first`]) and
    /// an over-long line ([`Batch::long`]) have their numbers in the input. Else they are
    /// 0, numbers from the chunk's start, for a consumer that counts the lines itself
    /// (the walk of a chunk meets each of its lines), and the reader does not count
    /// them.
    pub(crate) numbered: bool,
}

impl Limits {
    /// What a run uses: batches small enough that their few buffers are faulted in once
    /// and stay warm, chunks of a few hundred short records per task.
    pub(crate) const RUN: Limits = Limits {
        batch: 1 << 20,
        chunk: 32 << 10,
        record: 256 << 20,
        rest: 1 << 20,
        numbered: true,
    };

    /// These limits, with the lines numbered by the consumer ([`Limits::numbered`]).
    pub(crate) const fn unnumbered(self) -> Limits {
        Limits {
            numbered: false,
            ..self
        }
    }
}

/// What the reader thread sends.
pub(crate) enum Piece {
    /// Whole lines, or the first bytes of an over-long one ([`Batch::long`]).
    Batch(Batch),
    /// More of the over-long line that ended the last batch.
    Rest(Vec<u8>),
    /// The input could not be read further.
    Failed(io::Error),
}

/// Consecutive lines of the input.
pub(crate) struct Batch {
    /// The buffer: its first [`Batch::len`] bytes are the batch's.
    buffer: Vec<u8>,
    len: usize,
    /// The whole lines of `bytes`, in chunks.
    pub(crate) chunks: Vec<Chunk>,
    /// The number of a line with no line feed in its first [`Limits::record`] bytes,
    /// which are all of `bytes` (then `chunks` is empty).
    pub(crate) long: Option<u64>,
}

impl Batch {
    /// The batch's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buffer[..self.len]
    }
}

/// Consecutive whole lines of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Chunk {
    /// The number of the first line.
    pub(crate) first: u64,
    /// Where the lines lie in the batch's bytes.
    pub(crate) span: Range<usize>,
}

impl Chunk {
    /// The number of the chunk's lines in `bytes` (the batch's).
    pub(crate) fn line_count(&self, bytes: &[u8]) -> u64 {
        count_lines(&bytes[self.span.clone()])
    }

    /// The chunk's lines in `bytes` (the batch's), each with its number and its span
    /// (its line feed included, if it has one), as the tests read them (the records are
    /// read by `jsonl`'s walk).
    #[cfg(test)]
    pub(crate) fn lines<'a>(
        &self,
        bytes: &'a [u8],
    ) -> impl Iterator<Item = (u64, Range<usize>)> + 'a {
        let mut at = self.span.start;
        let end = self.span.end;
        let mut number = self.first;
        std::iter::from_fn(move || {
            if at == end {
                return None;
            }
            let line_end = memchr::memchr(b'\n', &bytes[at..end]).map_or(end, |i| at + i + 1);
            let line = (number, at..line_end);
            number += 1;
            at = line_end;
            Some(line)
        })
    }
}

/// The lines of `bytes`: its line feeds, and one more if it ends without one.
fn count_lines(bytes: &[u8]) -> u64 {
    let n = memchr::memchr_iter(b'\n', bytes).count() as u64;
    n + u64::from(bytes.last().is_some_and(|&b| b != b'\n'))
}

/// `bytes[..end]`, whole lines, cut into chunks of about `size` bytes; the first line is
/// number `first`. Returns the chunks and the number of the line after them; when not
/// `numbered`, every chunk's first line is 0 and the lines are not counted.
fn chunks(
    bytes: &[u8],
    end: usize,
    size: usize,
    mut first: u64,
    numbered: bool,
) -> (Vec<Chunk>, u64) {
    if !numbered {
        first = 0;
    }
    let mut chunks = Vec::with_capacity(end / size + 1);
    let mut at = 0;
    while at < end {
        let nominal = at.saturating_add(size).min(end);
        let cut = match memchr::memchr(b'\n', &bytes[nominal - 1..end]) {
            Some(i) => nominal + i,
            None => end,
        };
        chunks.push(Chunk {
            first,
            span: at..cut,
        });
        if numbered {
            first += count_lines(&bytes[at..cut]);
        }
        at = cut;
    }
    (chunks, first)
}

/// Reads from `reader` into `buffer` after its first `len` bytes until they are `target`
/// or the input ends (then `eof` is set); the bytes read before an error are kept. The
/// buffer is read into directly (a large read goes past a `BufReader`'s own buffer) and
/// zeroed only where it grows.
fn fill(
    reader: &mut impl Read,
    buffer: &mut Vec<u8>,
    len: &mut usize,
    target: usize,
    eof: &mut bool,
) -> io::Result<()> {
    if buffer.len() < target {
        buffer.resize(target, 0);
    }
    while !*eof && *len < target {
        match reader.read(&mut buffer[*len..target]) {
            Ok(0) => *eof = true,
            Ok(n) => *len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The reader thread: sends `reader`'s lines in batches until its end, an error, or the
/// receiver is gone; fills the buffers that come back on `spare`, when there are any.
pub(crate) fn read_batches(
    mut reader: impl Read,
    limits: Limits,
    tx: SyncSender<Piece>,
    spare: Receiver<Vec<u8>>,
) {
    let mut next = 0u64;
    // The start of a line, read after the last batch's last line feed.
    let mut carry: Vec<u8> = Vec::new();
    let mut eof = false;
    loop {
        let mut buffer = spare.try_recv().unwrap_or_default();
        if buffer.len() < carry.len() {
            buffer.resize(carry.len(), 0);
        }
        buffer[..carry.len()].copy_from_slice(&carry);
        let mut len = carry.len();
        carry.clear();
        let mut failed = fill(&mut reader, &mut buffer, &mut len, limits.batch, &mut eof).err();
        let mut end = memchr::memrchr(b'\n', &buffer[..len]).map(|i| i + 1);
        // A line longer than a batch: read on to its line feed, up to the limit, into
        // room for the limit made at once (its pages are touched only as they are read
        // into), not grown by doubling, which left the freed halves to the allocator.
        if end.is_none() && !eof && failed.is_none() && len < limits.record {
            buffer.reserve_exact(limits.record - buffer.len());
        }
        while end.is_none() && !eof && failed.is_none() && len < limits.record {
            let from = len;
            let target = from.saturating_add(limits.batch).min(limits.record);
            failed = fill(&mut reader, &mut buffer, &mut len, target, &mut eof).err();
            end = memchr::memrchr(b'\n', &buffer[from..len]).map(|i| from + i + 1);
        }
        let mut long = None;
        let whole = match end {
            Some(end) => {
                carry.extend_from_slice(&buffer[end..len]);
                len = end;
                end
            }
            None if len >= limits.record => {
                long = Some(next);
                0
            }
            // The last line, without a line feed.
            None if eof && failed.is_none() => len,
            // Before an error: no whole line.
            None => {
                len = 0;
                0
            }
        };
        let (chunks, after) = chunks(&buffer[..len], whole, limits.chunk, next, limits.numbered);
        if limits.numbered {
            next = after + u64::from(long.is_some());
        }
        let batch = Batch {
            buffer,
            len,
            chunks,
            long,
        };
        if len > 0 && tx.send(Piece::Batch(batch)).is_err() {
            return;
        }
        if let Some(e) = failed {
            let _ = tx.send(Piece::Failed(e));
            return;
        }
        if long.is_some() && !rest(&mut reader, limits, &tx, &mut carry, &mut eof) {
            return;
        }
        if eof && carry.is_empty() {
            return;
        }
    }
}

/// Sends the rest of an over-long line, in pieces, through its line feed; what follows
/// it in the last piece goes to `carry`. Whether to go on.
fn rest(
    reader: &mut impl Read,
    limits: Limits,
    tx: &SyncSender<Piece>,
    carry: &mut Vec<u8>,
    eof: &mut bool,
) -> bool {
    loop {
        let mut piece = Vec::new();
        let mut len = 0;
        let failed = fill(reader, &mut piece, &mut len, limits.rest, eof).err();
        piece.truncate(len);
        let done = match memchr::memchr(b'\n', &piece) {
            Some(i) => {
                carry.extend_from_slice(&piece[i + 1..]);
                piece.truncate(i + 1);
                true
            }
            None => *eof,
        };
        if !piece.is_empty() && tx.send(Piece::Rest(piece)).is_err() {
            return false;
        }
        if let Some(e) = failed {
            let _ = tx.send(Piece::Failed(e));
            return false;
        }
        if done {
            return true;
        }
    }
}

/// Runs [`read_batches`] on `reader` in a thread, and `each` on what it sends, in order,
/// until `each` says to stop (`Ok(false)`) or fails, or the reader fails.
pub(crate) fn for_each_piece(
    reader: impl Read + Send,
    limits: Limits,
    mut each: impl FnMut(&Piece) -> io::Result<bool>,
) -> io::Result<()> {
    thread::scope(|scope| {
        let (tx, rx) = sync_channel(2);
        // A batch's buffer, done with, goes back to the reader for the next batch.
        let (back, spare) = sync_channel(4);
        scope.spawn(move || read_batches(reader, limits, tx, spare));
        // Leaving the loop drops `rx`, which ends the reader at its next send.
        for piece in rx {
            if let Piece::Failed(e) = piece {
                return Err(e);
            }
            if !each(&piece)? {
                break;
            }
            if let Piece::Batch(batch) = piece {
                if batch.buffer.len() <= 2 * limits.batch {
                    let _ = back.try_send(batch.buffer);
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives at most `step` bytes a read, then fails at `fail_at` bytes.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
        fail_at: Option<usize>,
        at: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.fail_at == Some(self.at) {
                return Err(io::Error::other("broken"));
            }
            let limit = self.fail_at.unwrap_or(self.bytes.len());
            let n = buf.len().min(self.step).min(limit - self.at);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    /// A line as read: its number, its bytes, whether it came whole.
    type Got = (u64, Vec<u8>, bool);

    /// What the reader sends for `input`: each line as (number, bytes) and whether it was
    /// whole, the pieces of over-long lines joined to their start, and the error if any.
    fn read_all(
        input: &[u8],
        limits: Limits,
        step: usize,
        fail_at: Option<usize>,
    ) -> (Vec<Got>, Option<String>) {
        let reader = Trickle {
            bytes: input,
            step,
            fail_at,
            at: 0,
        };
        let mut lines: Vec<Got> = Vec::new();
        // Unnumbered, the lines are numbered here as a consumer numbers them.
        let mut base = 0;
        let result = for_each_piece(reader, limits, |piece| {
            match piece {
                Piece::Batch(batch) => {
                    let mut seen = 0;
                    for chunk in &batch.chunks {
                        assert_eq!(chunk.span.start, seen, "chunks follow each other");
                        seen = chunk.span.end;
                        if !limits.numbered {
                            assert_eq!(chunk.first, 0);
                        }
                        for (number, span) in chunk.lines(batch.bytes()) {
                            lines.push((base + number, batch.bytes()[span].to_vec(), true));
                        }
                        if !limits.numbered {
                            base += chunk.line_count(batch.bytes());
                        }
                    }
                    if let Some(number) = batch.long {
                        assert!(batch.chunks.is_empty());
                        assert_eq!(batch.bytes().len(), limits.record);
                        lines.push((base + number, batch.bytes().to_vec(), false));
                        if !limits.numbered {
                            assert_eq!(number, 0);
                            base += 1;
                        }
                    } else {
                        assert_eq!(seen, batch.bytes().len(), "the chunks cover the batch");
                    }
                }
                Piece::Rest(bytes) => lines.last_mut().unwrap().1.extend_from_slice(bytes),
                Piece::Failed(_) => unreachable!("given back as the error"),
            }
            Ok(true)
        });
        (lines, result.err().map(|e| e.to_string()))
    }

    fn split(input: &[u8]) -> Vec<Vec<u8>> {
        input
            .split_inclusive(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect()
    }

    /// Numbered by the reader or by the consumer, the same numbers.
    #[test]
    fn every_line_comes_once_in_order_with_its_number() {
        let mut input = Vec::new();
        for i in 0..500 {
            let len = (i * 37) % 23;
            input.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, len));
            input.push(b'\n');
        }
        input.extend_from_slice(b"last without a line feed");
        let limits = Limits {
            batch: 64,
            chunk: 16,
            record: 1 << 20,
            rest: 8,
            numbered: true,
        };
        for (step, limits) in [1, 7, 64, 1000]
            .into_iter()
            .flat_map(|step| [(step, limits), (step, limits.unnumbered())])
        {
            let (lines, error) = read_all(&input, limits, step, None);
            assert_eq!(error, None);
            let want = split(&input);
            assert_eq!(lines.len(), want.len(), "step {step}");
            for (i, (number, line, whole)) in lines.iter().enumerate() {
                assert_eq!(*number, i as u64);
                assert_eq!(line, &want[i]);
                assert!(whole);
            }
        }
    }

    #[test]
    fn an_over_long_line_comes_in_pieces_and_the_next_lines_follow() {
        let long = vec![b'x'; 100];
        let mut input = b"a\n".to_vec();
        input.extend_from_slice(&long);
        input.extend_from_slice(b"\nb\nc\n");
        // Exactly the limit with its line feed is whole; one more byte is not.
        input.extend_from_slice(&[b'y'; 39]);
        input.extend_from_slice(b"\n");
        input.extend_from_slice(&[b'z'; 40]);
        input.extend_from_slice(b"\nend");
        let limits = Limits {
            batch: 16,
            chunk: 4,
            record: 40,
            rest: 7,
            numbered: true,
        };
        for (step, limits) in [1, 5, 16, 1000]
            .into_iter()
            .flat_map(|step| [(step, limits), (step, limits.unnumbered())])
        {
            let (lines, error) = read_all(&input, limits, step, None);
            assert_eq!(error, None);
            let got: Vec<_> = lines.iter().map(|(n, l, w)| (*n, l.clone(), *w)).collect();
            let want = split(&input);
            assert_eq!(got.len(), want.len(), "step {step}");
            for (i, (number, line, whole)) in got.iter().enumerate() {
                assert_eq!(*number, i as u64, "step {step}");
                assert_eq!(line, &want[i], "step {step}");
                assert_eq!(*whole, want[i].len() <= 40, "line {i}, step {step}");
            }
        }
    }

    #[test]
    fn a_read_error_ends_after_the_whole_lines_before_it() {
        let input = b"one\ntwo\nthree\nfour\n";
        let limits = Limits {
            batch: 6,
            chunk: 2,
            record: 1 << 20,
            rest: 4,
            numbered: true,
        };
        // The error comes in the middle of "three".
        let (lines, error) = read_all(input, limits, 3, Some(10));
        assert_eq!(error.as_deref(), Some("broken"));
        let got: Vec<_> = lines.iter().map(|(_, l, _)| l.as_slice()).collect();
        assert_eq!(got, [&b"one\n"[..], b"two\n"]);
    }

    #[test]
    fn lines_are_counted_with_a_last_line_without_a_line_feed() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"\n"), 1);
        assert_eq!(count_lines(b"a\nb"), 2);
        assert_eq!(count_lines(b"a\nb\n"), 2);
    }
}
