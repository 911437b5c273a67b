//! The inputs of a subcommand read by a reader thread, in windows that the caller scans in
//! parallel: standard input and other streams, and every input of `linkify` and of `find
//! -n`/`--column` (which count lines from the start). `find` reads regular files otherwise
//! with [`files`](crate::files), where each worker reads the window it scans.
//!
//! # Algorithm
//!
//! A reader thread reads each input with `read(2)` into buffers of [`WINDOW`] bytes (for
//! standard input and other streams, [`STREAM_WINDOW`]) and
//! hands the caller consecutive windows, each cut just after its last line break (else
//! its last ASCII space or control character): a link never crosses such a byte (see the
//! library's `split` module), so the windows scan independently to exactly the links of
//! the whole input. The bytes after the cut start the next window. A window without any
//! such byte grows up to [`MAX_RUN`] bytes; past that it is cut at a character boundary
//! and the input gets a warning (a link across the cut is split). While the caller scans
//! one window, the reader fills the next; buffers go round, so memory stays bounded by a
//! few windows (plus [`MAX_RUN`] for a run without white space) whatever the input size
//! and the number of links.
//!
//! # Why read, not map
//!
//! Files are read, not memory-mapped: a mapped file that another process truncates (log
//! rotation) kills the reader with SIGBUS, losing its buffered output; a read just ends
//! early. An input that ends before the size it had when opened is reported as an error
//! naming the file (exit status 2), after the output of what was read. Reading also keeps
//! the resident memory at a few windows, where a map counts every page of the file.
//!
//! # UTF-16
//!
//! Input is read as UTF-8 (or bytes). An input that starts with a UTF-16 byte-order mark
//! (`FF FE` or `FE FF`) is still scanned as bytes — its offsets stay byte offsets of the
//! file, and any ASCII-compatible text in it is still found — but it gets a warning that
//! its UTF-16 text cannot be, with the command that converts it.
//!
//! # Binary inputs
//!
//! An input named on the command line (or standard input) whose first [`SNIFF`] bytes
//! hold a NUL byte (ripgrep's test) is scanned as any other, with one note on stderr
//! ([`warn_binary`]); the files a walk finds are skipped instead (`crate::walk`).
//!
//! # Errors
//!
//! An input that cannot be read is reported on stderr (`linkscan: NAME: reason`) and
//! skipped; the others are still processed and the outcome says so (exit status 2).

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;

pub(crate) use linkscan::internals::describe;
pub(crate) use linkscan::window::fill;
use linkscan::{window, Link, LinkFinder};

use crate::render::Name;
use crate::Outcome;

/// The display name of standard input.
pub(crate) const STDIN_NAME: &str = "-";

/// Bytes read at a time from a regular file, and the usual size of its windows.
pub(crate) const WINDOW: usize = 4 << 20;

/// The window of standard input and other streams: a writer that sends a whole input
/// before it reads the output (a test harness, a naive script) then gets all of it
/// taken up to this size before the first output is written, as before the reader
/// thread.
pub(crate) const STREAM_WINDOW: usize = 32 << 20;

/// The longest run without an ASCII space or control character kept whole.
pub(crate) const MAX_RUN: usize = 32 << 20;

/// One part of an input, as [`for_each_piece`] gives it: `bytes[range]`, with its links
/// (offsets relative to `bytes`, all in `range`). `bytes` around the range is context (the
/// character next to a link, for the checks); consecutive parts tile the input.
pub(crate) struct Piece<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) range: Range<usize>,
    pub(crate) links: &'a [Link],
}

/// The size of the pieces a window is scanned in on the pool (as `find` cuts them).
const PIECE: usize = 256 << 10;

/// Pieces of a window scanned at once, per thread.
const BATCH_PER_THREAD: usize = 4;

/// The most links held for one piece: 64 Ki links of 24 bytes, 1.5 MiB. A piece of
/// [`PIECE`] bytes has fewer (a link takes at least four bytes); only a longer piece (a
/// run without white space) reaches it, and the rest of such a piece is scanned by the
/// calling thread, a batch at a time.
const LINK_BUDGET: usize = 1 << 16;

/// What the reader thread sends.
enum Event {
    /// A window of input `input`: `buf[..len]`, at `offset` in the input.
    Window {
        input: usize,
        buf: Vec<u8>,
        len: usize,
        offset: u64,
    },
    /// Input `input` is done: the number of forced cuts, and the error that stopped it.
    End {
        input: usize,
        forced: u64,
        error: Option<io::Error>,
    },
}

/// Calls `each(input, name, offset, window)` for every window of every input, in order;
/// `input` is the index of the input on the command line, `offset` where the window
/// starts in it. A binary input is noted ([`warn_binary`]) if `named` says it was named
/// on the command line (an input past its end was). Every input that can be read gives at least one window (an empty one for
/// an empty input). Errors from `each` (writing the output, or `find -q`'s first link)
/// stop the run at once, even while the reader waits for input that does not come; errors
/// reading an input are reported and skipped.
///
/// `eager`: a window is handed over as soon as a read gives bytes that hold a place to
/// cut, instead of once [`WINDOW`] (or [`STREAM_WINDOW`]) bytes are read; for `find -q`,
/// which writes nothing, so that a link on a stream that then stalls ends the run.
pub(crate) fn for_each_window(
    paths: &[PathBuf],
    named: &[bool],
    eager: bool,
    mut each: impl FnMut(usize, &Name, u64, &[u8]) -> io::Result<()>,
) -> io::Result<Outcome> {
    let stdin = [PathBuf::from(STDIN_NAME)];
    let paths: Vec<PathBuf> = if paths.is_empty() {
        stdin.to_vec()
    } else {
        paths.to_vec()
    };
    let names: Vec<Name> = paths.iter().map(|p| Name::new(p.as_os_str())).collect();
    // A rendezvous: the reader fills one buffer while the caller scans the other.
    let (tx, rx) = mpsc::sync_channel::<Event>(0);
    let (give_back, recycled) = mpsc::channel::<Vec<u8>>();
    let reader = thread::spawn(move || read_all(&paths, eager, &tx, &recycled));
    let mut outcome = Outcome::Ok;
    let result = (|| {
        for event in &rx {
            match event {
                Event::Window {
                    input,
                    buf,
                    len,
                    offset,
                } => {
                    if offset == 0 {
                        warn_start(
                            &names[input].text,
                            &buf[..len],
                            named.get(input) != Some(&false),
                        );
                    }
                    each(input, &names[input], offset, &buf[..len])?;
                    let _ = give_back.send(buf);
                }
                Event::End {
                    input,
                    forced,
                    error,
                } => {
                    let name = &names[input].text;
                    warn_forced(name, forced);
                    if let Some(e) = error {
                        crate::warn!("linkscan: {name}: {}", describe(&e));
                        outcome = Outcome::InputErrors;
                    }
                }
            }
        }
        Ok(())
    })();
    // Dropping the receiver stops the reader at its next send. After an error the reader
    // is not waited for: it may be blocked reading a stream that sends nothing more, and
    // the process ends without it.
    drop(rx);
    if result.is_ok() {
        let _ = reader.join();
    }
    result.map(|()| outcome)
}

/// Calls `each(input, name, piece)` for every part of every input, in order, with its
/// links.
///
/// Each window is cut into pieces where no link can cross ([`linkscan::piece_end`]),
/// scanned on the command's pool [`BATCH_PER_THREAD`] pieces per thread at a time, each
/// keeping at most [`LINK_BUDGET`] links. A piece that has more (a run without white
/// space, full of links) is given in parts: up to the end of its last link kept, then the
/// rest, scanned again by the calling thread from the last ASCII space or control
/// character before that end (no link crosses one, so the links from there are those of
/// the whole piece; the ones already given are skipped) and given [`LINK_BUDGET`] links
/// at a time. So the links held are bounded by the batch, not by the window.
pub(crate) fn for_each_piece(
    paths: &[PathBuf],
    named: &[bool],
    finder: &LinkFinder,
    mut each: impl FnMut(usize, &str, Piece<'_>) -> io::Result<()>,
) -> io::Result<Outcome> {
    use rayon::prelude::*;
    let batch = BATCH_PER_THREAD * rayon::current_num_threads().max(1);
    // Reused from window to window.
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut found: Vec<(Vec<Link>, bool)> = Vec::new();
    let mut rest: Vec<Link> = Vec::new();
    for_each_window(paths, named, false, |input, name, _offset, window| {
        if window.is_empty() {
            return each(
                input,
                &name.text,
                Piece {
                    bytes: window,
                    range: 0..0,
                    links: &[],
                },
            );
        }
        ranges.clear();
        let mut start = 0;
        while start < window.len() {
            let end = linkscan::piece_end(window, start, PIECE);
            ranges.push(start..end);
            start = end;
        }
        for ranges in ranges.chunks(batch) {
            if found.len() < ranges.len() {
                found.resize_with(ranges.len(), Default::default);
            }
            ranges
                .par_iter()
                .zip(found.par_iter_mut())
                .for_each(|(range, (links, full))| {
                    links.clear();
                    *full = false;
                    for link in finder.links_bytes(&window[range.clone()]) {
                        if links.len() == LINK_BUDGET {
                            *full = true;
                            break;
                        }
                        links.push(link);
                    }
                });
            for (range, (links, full)) in ranges.iter().zip(&found) {
                let bytes = &window[range.clone()];
                let kept = match links.last() {
                    Some(last) if *full => last.end(),
                    _ => bytes.len(),
                };
                each(
                    input,
                    &name.text,
                    Piece {
                        bytes,
                        range: 0..kept,
                        links,
                    },
                )?;
                if kept < bytes.len() {
                    rest_of_piece(finder, bytes, kept, &mut rest, |piece| {
                        each(input, &name.text, piece)
                    })?;
                }
            }
        }
        Ok(())
    })
}

/// Gives the part of `bytes` from `after` (the end of a link) to its end, with its links,
/// in parts of at most [`LINK_BUDGET`] links, each cut at the end of its last link.
fn rest_of_piece(
    finder: &LinkFinder,
    bytes: &[u8],
    after: usize,
    batch: &mut Vec<Link>,
    mut each: impl FnMut(Piece<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let from = window::restart(bytes, after);
    // Offsets are relative to `from`. The checks look at the character before a link:
    // before `from` it is an ASCII space or control character, or the piece's start (as
    // for every piece), never an invisible one, so leaving it out changes nothing.
    let text = &bytes[from..];
    let mut at = after - from;
    batch.clear();
    for link in finder.links_bytes(text) {
        if link.start() < at {
            continue; // given before
        }
        let end = link.end();
        batch.push(link);
        if batch.len() == LINK_BUDGET {
            each(Piece {
                bytes: text,
                range: at..end,
                links: batch,
            })?;
            at = end;
            batch.clear();
        }
    }
    each(Piece {
        bytes: text,
        range: at..text.len(),
        links: batch,
    })
}

/// The reader thread: every input in turn, as windows.
fn read_all(
    paths: &[PathBuf],
    eager: bool,
    tx: &mpsc::SyncSender<Event>,
    recycled: &mpsc::Receiver<Vec<u8>>,
) {
    for (input, path) in paths.iter().enumerate() {
        let (forced, error) = if path == Path::new(STDIN_NAME) {
            read_one(
                input,
                io::stdin().lock(),
                None,
                STREAM_WINDOW,
                eager,
                tx,
                recycled,
            )
        } else {
            match File::open(path) {
                Ok(file) => {
                    let size = file
                        .metadata()
                        .ok()
                        .filter(|m| m.is_file())
                        .map(|m| m.len());
                    let window = if size.is_some() {
                        WINDOW
                    } else {
                        STREAM_WINDOW
                    };
                    read_one(input, file, size, window, eager, tx, recycled)
                }
                Err(e) => (Some(0), Some(e)),
            }
        };
        let Some(forced) = forced else {
            return; // the receiver is gone
        };
        if tx
            .send(Event::End {
                input,
                forced,
                error,
            })
            .is_err()
        {
            return;
        }
    }
}

/// Reads one input into windows (`eager`: see [`for_each_window`]). Returns the forced
/// cuts (`None` when the receiver is gone) and the error that ended it, if any.
fn read_one(
    input: usize,
    mut reader: impl Read,
    size: Option<u64>,
    window: usize,
    eager: bool,
    tx: &mpsc::SyncSender<Event>,
    recycled: &mpsc::Receiver<Vec<u8>>,
) -> (Option<u64>, Option<io::Error>) {
    let mut offset = 0u64;
    let mut forced = 0;
    let mut carry: Vec<u8> = Vec::new();
    let mut sent_any = false;
    loop {
        let mut buf = recycled.try_recv().unwrap_or_default();
        let mut filled = carry.len();
        let mut want = filled + window;
        if buf.len() < want {
            buf.resize(want, 0);
        }
        buf[..filled].copy_from_slice(&carry);
        carry.clear();
        // The bytes known to hold no place to cut: the carried ones (they followed the last
        // cut, or a forced one), then each read's once searched. Searching the whole window
        // after every read took time quadratic in a run without white space (`find -q` on
        // 64 MB of one from a pipe: 0.78 s of user time, 0.14 s searched once).
        let mut searched = filled;
        let mut eof = false;
        let mut error = None;
        let end = loop {
            if eager {
                let (got, failed) = read_some(&mut reader, &mut buf[filled..want]);
                filled += got;
                if got == 0 {
                    (eof, error) = (true, failed);
                }
            } else {
                let (got, failed) = fill(&mut reader, &mut buf[filled..want]);
                filled += got;
                if filled < want {
                    (eof, error) = (true, failed);
                }
            }
            if eof {
                break filled;
            }
            if let Some(cut) = window::last_cut(&buf[searched..filled]) {
                break searched + cut;
            }
            searched = filled;
            if filled >= MAX_RUN.max(window) {
                forced += 1;
                break window::char_boundary_before(&buf[..filled], filled);
            }
            if filled < want {
                continue; // eager: read on into the room left
            }
            // No place to cut yet: read on, up to MAX_RUN.
            want = (want * 2).min(MAX_RUN.max(window));
            if buf.len() < want {
                buf.resize(want, 0);
            }
        };
        carry.extend_from_slice(&buf[end..filled]);
        // An input that fails before giving a byte (a directory) gives no window, so
        // no count line; an empty input gives one empty window.
        let failed_at_once = error.is_some() && !sent_any && end == 0;
        if (end > 0 || !sent_any) && !failed_at_once {
            let window = Event::Window {
                input,
                buf,
                len: end,
                offset,
            };
            if tx.send(window).is_err() {
                return (None, None);
            }
            sent_any = true;
        }
        offset += end as u64;
        if eof {
            if error.is_none() {
                if let Some(size) = size {
                    if offset < size {
                        error = Some(io::Error::other(format!(
                            "the file shrank while it was read: it ended after {offset} of its \
                             {size} bytes; the links of the bytes read were printed"
                        )));
                    }
                }
            }
            return (Some(forced), error);
        }
    }
}

/// Whether an input starts with a UTF-16 byte-order mark.
pub(crate) fn starts_utf16(start: &[u8]) -> bool {
    start.starts_with(&[0xFF, 0xFE]) || start.starts_with(&[0xFE, 0xFF])
}

/// The bytes read to tell a binary file (as ripgrep).
pub(crate) const SNIFF: usize = 8 << 10;

/// Whether the start of an input (its first window) says it is binary: a NUL byte in its
/// first [`SNIFF`] bytes.
pub(crate) fn starts_binary(start: &[u8]) -> bool {
    memchr::memchr(0, &start[..start.len().min(SNIFF)]).is_some()
}

/// The notes on the start of the input `name`: UTF-16, or else binary when `named` (a
/// binary file a walk found was skipped, or scanned as `--binary` asked).
pub(crate) fn warn_start(name: &str, start: &[u8], named: bool) {
    if starts_utf16(start) {
        warn_utf16(name);
    } else if named && starts_binary(start) {
        warn_binary(name);
    }
}

/// The note on a binary input named on the command line, once per input.
pub(crate) fn warn_binary(name: &str) {
    crate::warn!(
        "linkscan: {name}: binary file (a NUL byte in its first {} KiB): scanned as text",
        SNIFF >> 10
    );
}

/// The warning for an input that starts with a UTF-16 byte-order mark.
pub(crate) fn warn_utf16(name: &str) {
    crate::warn!(
        "linkscan: {name}: warning: the input starts with a UTF-16 byte-order mark; it is \
         scanned as bytes, so the links of UTF-16 text are not found (convert it first: \
         iconv -f UTF-16 -t UTF-8)"
    );
}

/// The warning for `forced` cuts at a character boundary in the input `name`, if any.
pub(crate) fn warn_forced(name: &str, forced: u64) {
    if forced > 0 {
        crate::warn!(
            "linkscan: {name}: warning: {forced} run(s) of more than {} MiB without white \
             space were cut at a character boundary; a link across such a cut is split",
            MAX_RUN >> 20
        );
    }
}

/// One read into `buf` (non-empty): the bytes read (0 at the end of the input) and the
/// error that stopped it.
fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> (usize, Option<io::Error>) {
    loop {
        match reader.read(buf) {
            Ok(n) => return (n, None),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (0, Some(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{read_one, Event, STREAM_WINDOW};
    use std::io::{self, Read};
    use std::sync::mpsc;

    /// A stream that gives at most `step` bytes a read, as a slow pipe does.
    struct Trickle<'a> {
        text: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.step).min(self.text.len());
            buf[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            Ok(n)
        }
    }

    /// The windows of `text` read `step` bytes at a time (eager, as `find -q` reads).
    fn windows(text: &[u8], step: usize) -> Vec<Vec<u8>> {
        let (tx, rx) = mpsc::sync_channel(1 << 16);
        let (_give_back, recycled) = mpsc::channel();
        let reader = Trickle { text, step };
        let (forced, error) = read_one(0, reader, None, STREAM_WINDOW, true, &tx, &recycled);
        assert_eq!((forced, error.map(|e| e.to_string())), (Some(0), None));
        drop(tx);
        rx.iter()
            .filter_map(|event| match event {
                Event::Window { buf, len, .. } => Some(buf[..len].to_vec()),
                Event::End { .. } => None,
            })
            .collect()
    }

    #[test]
    fn a_run_without_white_space_trickling_in_is_searched_once() {
        // 16 MiB without a place to cut, 64 bytes a read: searching the whole window
        // after each read (as before) is some 10^12 byte tests, a test that never ends;
        // searching each read's bytes once is 16 MiB of them.
        let mut text = b"x.com/".to_vec();
        text.resize(16 << 20, b'a');
        text.extend_from_slice(b" y.org\nz.net");
        let got = windows(&text, 64);
        // The last read brings the space, the line break and the rest: the window ends
        // after the line break, and the rest ends the stream.
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].len(), (16 << 20) + 7);
        assert!(got[0].ends_with(b"a y.org\n"));
        assert_eq!(got[1], b"z.net");
        // One byte a read: each window ends at the cut its read brought, the first byte
        // searched in its window's buffer (after the bytes carried, which hold none).
        let small = b"a.com b\nccc ddd".repeat(3);
        let got = windows(&small, 1);
        assert_eq!(got.concat(), small);
        assert_eq!(got.len(), 10);
        for window in &got[..9] {
            assert!(matches!(window.last(), Some(b' ' | b'\n')), "{window:?}");
        }
        assert_eq!(got[9], b"ddd");
    }
}
