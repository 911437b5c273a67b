//! Regular files, read by the workers that scan them: nothing serial in front of the
//! workers but the planning of the windows, which reads a few KiB per window.
//!
//! # Algorithm
//!
//! The calling thread plans each input's windows. For a window that starts at `s` it reads
//! the [`BLOCK`] bytes before `s + WINDOW` with a positioned read and ends the window just
//! after the last line break among them, else the last ASCII space or control character
//! (the rule of [`input`]: no link crosses such a byte, so the windows scan
//! independently to exactly the links of the whole file). A block without one is followed
//! by the blocks before it, down to `s`, each twice as long as the one after it up to
//! [`LARGE_BLOCK`] (a run without white space is read in a few hundred reads, not
//! thousands); a window without one grows as in `input`, up to [`MAX_RUN`] bytes, where
//! it is cut at a character boundary with a warning.
//!
//! Each window is a task on the pool: the worker reads it with `read_at` into a buffer of
//! its own (reused from task to task, and small enough to stay in its core's cache while
//! it is scanned), scans it and renders its output. The calling thread writes the outputs
//! in order. Windows of several files are in flight at once, so a walk of many small files
//! keeps every worker busy.
//!
//! # Bounds
//!
//! At most [`IN_FLIGHT_PER_THREAD`] windows per worker are planned and not yet written:
//! memory holds that many outputs (each at most `find`'s budget, see [`crate::find`])
//! and one window buffer per worker (see [`Buffer`]: [`WINDOW`] bytes, and [`MAX_RUN`]
//! once the worker has met a longer window), whatever the size of the input and the
//! number of its links. A window is at most [`MAX_RUN`] bytes; the calling thread may
//! read one again ([`Window::read_again`]) into a buffer of its own.
//!
//! # Errors
//!
//! As in `input`: an input that cannot be opened is reported in its place (`linkscan:
//! NAME: reason`) and skipped; a file that ends before its planned windows (truncated
//! while read) or fails to read is an error naming it, after the output of what was read.
//! Standard input and other inputs that are not regular files are read by `input`'s
//! reader thread instead (see [`all_regular`]).

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io;
use std::os::fd::AsFd;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};

use linkscan::window::{self, fill_at as read_full};

use crate::input::{self, describe, MAX_RUN, STDIN_NAME};
use crate::render::Name;
use crate::Outcome;

/// The usual size of a window: small enough that a worker's window stays in its core's
/// cache between the read and the scan, large enough that a task costs nothing next to it.
pub(crate) const WINDOW: usize = 512 << 10;

/// The bytes read first to find where a window ends (in text, the last line break is
/// almost always among them).
const BLOCK: usize = 4 << 10;

/// The most bytes read at a time further back: a window without white space is read
/// whole by the planner, and in blocks of [`BLOCK`] bytes its 32 MiB took 8,192 reads.
const LARGE_BLOCK: usize = 256 << 10;

/// Windows planned and not yet written, per worker.
const IN_FLIGHT_PER_THREAD: usize = 4;

/// Whether every input is a regular file (or cannot be looked at, which is reported when
/// it is opened): those go through [`for_each_window`]; standard input from a pipe or a
/// terminal, FIFOs and devices go through `input`'s reader thread.
pub(crate) fn all_regular(paths: &[PathBuf]) -> bool {
    !paths.is_empty()
        && paths.iter().all(|path| {
            if path == Path::new(STDIN_NAME) {
                stdin_file().is_some()
            } else {
                fs::metadata(path).map_or(true, |m| m.is_file())
            }
        })
}

/// Standard input as a file, when it is a regular one (`< file`).
fn stdin_file() -> Option<File> {
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    let file = File::from(fd);
    file.metadata().ok()?.is_file().then_some(file)
}

/// A window as the calling thread writes its result: where it is, and how to read it
/// again (for output a worker left to render, see [`crate::find`]).
pub(crate) struct Window {
    file: Arc<File>,
    /// Where the window starts in its input.
    pub(crate) offset: u64,
    /// The bytes the worker read.
    len: usize,
}

impl Window {
    /// Reads the window again into `buf` (reused); an error if the file no longer holds
    /// the bytes the worker read.
    pub(crate) fn read_again<'b>(&self, buf: &'b mut Vec<u8>) -> io::Result<&'b [u8]> {
        buf.clear();
        buf.resize(self.len, 0);
        let (got, error) = read_full(&self.file, self.offset, buf);
        if let Some(e) = error {
            return Err(e);
        }
        if got < self.len {
            return Err(io::Error::other(format!(
                "the file shrank while it was read: it ended after {} bytes, where {} had been \
                 read before",
                self.offset + got as u64,
                self.offset + self.len as u64
            )));
        }
        Ok(&buf[..])
    }
}

/// One planned window.
struct Plan {
    file: Arc<File>,
    offset: u64,
    len: usize,
    /// The size of the file when the window was planned.
    size: u64,
}

/// What the calling thread writes, in order.
enum Entry<T> {
    /// A window: its result once a worker has made it.
    Window {
        input: usize,
        first: bool,
        done: Option<Done<T>>,
    },
    /// The end of an input: its forced cuts, and the error that ended it.
    End {
        input: usize,
        forced: u64,
        error: Option<io::Error>,
    },
}

/// A worker's result for one window.
struct Done<T> {
    result: T,
    /// The window, as read.
    window: Window,
    /// Starts with a UTF-16 byte-order mark.
    utf16: bool,
    /// The first window, holding the first bytes of a binary file.
    binary: bool,
    /// Fewer bytes than planned: the file shrank, or this read error.
    short: Option<io::Error>,
}

/// Calls `work(name, offset, window, result)` on the pool for every window of every input
/// (all regular files, see [`all_regular`]), and `emit(input, name, window, result)` on
/// the calling thread for each, in order; `input` is the index of the input on the command
/// line, `offset` where the window starts in it. Every input that can be opened gives at
/// least one window (an empty one for an empty file). A binary input is noted if `named`
/// says it was named on the command line (an input past its end was). Results are reused (made by `new`
/// the first time). Errors from `emit` (writing the output) stop the run; errors reading
/// an input are reported and skipped.
pub(crate) fn for_each_window<T: Send>(
    paths: &[PathBuf],
    named: &[bool],
    new: impl Fn() -> T + Sync,
    work: impl Fn(&Name, u64, &[u8], &mut T) + Sync,
    mut emit: impl FnMut(usize, &Name, &Window, &mut T) -> io::Result<()>,
) -> io::Result<Outcome> {
    let names: Vec<Name> = paths.iter().map(|p| Name::new(p.as_os_str())).collect();
    let in_flight = IN_FLIGHT_PER_THREAD * rayon::current_num_threads();
    let buffers: Mutex<Vec<Buffer>> = Mutex::new(Vec::new());
    let spare: Mutex<Vec<T>> = Mutex::new(Vec::new());
    let (tx, rx) = mpsc::channel::<(u64, Option<Done<T>>)>();
    let mut outcome = Outcome::Ok;
    let (names, buffers, spare, new, work) = (&names, &buffers, &spare, &new, &work);
    rayon::in_place_scope(|scope| -> io::Result<()> {
        // Entries from sequence number `front` on; `windows` of them are windows.
        let mut queue: VecDeque<Entry<T>> = VecDeque::new();
        let mut front = 0u64;
        let mut windows = 0;
        let mut inputs = paths.iter().enumerate();
        let mut planner: Option<(usize, Planner)> = None;
        // The input whose error has been reported (a short read is reported once).
        let mut failed: Option<usize> = None;
        let result = loop {
            // Plan windows until enough are in flight.
            while windows < in_flight {
                let Some((input, plan)) = planner.as_mut() else {
                    match inputs.next() {
                        Some((input, path)) => match Planner::open(path) {
                            Ok(p) => planner = Some((input, p)),
                            Err(error) => queue.push_back(Entry::End {
                                input,
                                forced: 0,
                                error: Some(error),
                            }),
                        },
                        None => break,
                    }
                    continue;
                };
                let input = *input;
                match plan.next() {
                    Some(Ok(window)) => {
                        let seq = front + queue.len() as u64;
                        queue.push_back(Entry::Window {
                            input,
                            first: window.offset == 0,
                            done: None,
                        });
                        windows += 1;
                        let tx = tx.clone();
                        let name = &names[input];
                        scope.spawn(move |_| {
                            // A panic still sends (nothing), so the writer does not wait
                            // for ever; the scope then carries the panic on.
                            let done = panic::catch_unwind(AssertUnwindSafe(|| {
                                read_and_work(window, name, buffers, spare, new, work)
                            }));
                            match done {
                                Ok(done) => {
                                    let _ = tx.send((seq, Some(done)));
                                }
                                Err(payload) => {
                                    let _ = tx.send((seq, None));
                                    panic::resume_unwind(payload);
                                }
                            }
                        });
                    }
                    Some(Err(error)) => {
                        queue.push_back(Entry::End {
                            input,
                            forced: plan.forced,
                            error: Some(error),
                        });
                        planner = None;
                    }
                    None => {
                        queue.push_back(Entry::End {
                            input,
                            forced: plan.forced,
                            error: None,
                        });
                        planner = None;
                    }
                }
            }
            // Write what is ready, in order.
            let mut stop = None;
            while let Some(entry) = queue.front_mut() {
                match entry {
                    Entry::Window { done: None, .. } => break,
                    Entry::Window {
                        input,
                        first,
                        done: Some(done),
                    } => {
                        let input = *input;
                        let name = &names[input];
                        if *first && done.utf16 {
                            input::warn_utf16(&name.text);
                        } else if *first && done.binary && named.get(input) != Some(&false) {
                            input::warn_binary(&name.text);
                        }
                        if let Err(e) = emit(input, name, &done.window, &mut done.result) {
                            stop = Some(e);
                            break;
                        }
                        if let Some(e) = done.short.take() {
                            // The input's later windows read nothing more: its first
                            // error is the one reported.
                            if failed != Some(input) {
                                crate::warn!("linkscan: {}: {}", name.text, describe(&e));
                                failed = Some(input);
                            }
                            outcome = Outcome::InputErrors;
                        }
                        windows -= 1;
                    }
                    Entry::End {
                        input,
                        forced,
                        error,
                    } => {
                        let name = &names[*input].text;
                        input::warn_forced(name, *forced);
                        if let Some(e) = error {
                            if failed != Some(*input) {
                                crate::warn!("linkscan: {name}: {}", describe(e));
                            }
                            outcome = Outcome::InputErrors;
                        }
                    }
                }
                if let Some(Entry::Window {
                    done: Some(done), ..
                }) = queue.pop_front()
                {
                    spare.lock().expect("no worker panics").push(done.result);
                }
                front += 1;
            }
            if let Some(e) = stop {
                break Err(e);
            }
            if queue.is_empty() && planner.is_none() && windows == 0 {
                // Nothing planned, nothing in flight: every input is done.
                if inputs.len() == 0 {
                    break Ok(());
                }
                continue;
            }
            if windows == 0 {
                continue; // ends of inputs only: plan on
            }
            // Wait for the next result.
            let (seq, done) = rx.recv().expect("the calling thread holds a sender");
            let Some(done) = done else {
                break Err(io::Error::other("a worker panicked"));
            };
            if let Some(Entry::Window { done: slot, .. }) = queue.get_mut((seq - front) as usize) {
                *slot = Some(done);
            }
        };
        result
    })?;
    Ok(outcome)
}

/// A task: reads `window` into a buffer of the pool and runs `work` on it.
fn read_and_work<T>(
    window: Plan,
    name: &Name,
    buffers: &Mutex<Vec<Buffer>>,
    spare: &Mutex<Vec<T>>,
    new: &(impl Fn() -> T + Sync),
    work: &(impl Fn(&Name, u64, &[u8], &mut T) + Sync),
) -> Done<T> {
    let mut buf = buffers
        .lock()
        .expect("no worker panics")
        .pop()
        .unwrap_or_default();
    let into = buf.get(window.len);
    let (got, short) = read_full(&window.file, window.offset, into);
    let short = short
        .or_else(|| (got < window.len).then(|| shrank(window.offset + got as u64, window.size)));
    let bytes = &into[..got];
    let utf16 = window.offset == 0 && input::starts_utf16(bytes);
    let binary = window.offset == 0 && input::starts_binary(bytes);
    let mut result = spare
        .lock()
        .expect("no worker panics")
        .pop()
        .unwrap_or_else(new);
    work(name, window.offset, bytes, &mut result);
    buffers.lock().expect("no worker panics").push(buf);
    Done {
        result,
        window: Window {
            file: window.file,
            offset: window.offset,
            len: got,
        },
        utf16,
        binary,
        short,
    }
}

/// A worker's window buffer, reused from window to window.
///
/// Nearly every window is at most [`WINDOW`] bytes and goes in a heap buffer. A longer one
/// (a run without white space, up to [`MAX_RUN`] bytes) goes in an anonymous map advised
/// to transparent huge pages, kept for the worker's next long window: a heap buffer of
/// that size was zeroed and then faulted in a 4 KiB page at a time, which took a tenth
/// of the CPU time of `find --count` on 64 MB without white space. A map needs no zeroing
/// (its pages are the kernel's zero pages until written) and, on Linux, faults 2 MiB at a
/// time where the kernel allows; where it cannot be made, the heap buffer is used.
#[derive(Default)]
struct Buffer {
    heap: Vec<u8>,
    large: Option<memmap2::MmapMut>,
}

impl Buffer {
    /// `len` bytes to read into (their contents are whatever was read before).
    fn get(&mut self, len: usize) -> &mut [u8] {
        if len > WINDOW {
            if self.large.as_ref().is_none_or(|m| m.len() < len) {
                // Sized for the longest window, so that it is made once per worker.
                self.large = memmap2::MmapMut::map_anon(MAX_RUN.max(len)).ok();
                // Only advice (Linux's): without huge pages the map still works.
                #[cfg(target_os = "linux")]
                if let Some(map) = &self.large {
                    let _ = map.advise(memmap2::Advice::HugePage);
                }
            }
            if let Some(map) = &mut self.large {
                return &mut map[..len];
            }
        }
        if self.heap.len() < len {
            self.heap.resize(len, 0);
        }
        &mut self.heap[..len]
    }
}

/// The error of a file of `size` bytes that ended at `at`.
fn shrank(at: u64, size: u64) -> io::Error {
    io::Error::other(format!(
        "the file shrank while it was read: it ended after {at} of its {size} bytes; the \
         links of the bytes read were printed"
    ))
}

/// Plans the windows of one file.
struct Planner {
    file: Arc<File>,
    /// The size when opened.
    opened: u64,
    /// The size as last found.
    size: u64,
    /// Where the next window starts.
    at: u64,
    /// Whether the (empty) first window has been given.
    started: bool,
    /// Windows cut at a character boundary for want of white space.
    forced: u64,
    block: Vec<u8>,
}

impl Planner {
    fn open(path: &Path) -> io::Result<Planner> {
        let file = if path == Path::new(STDIN_NAME) {
            stdin_file().ok_or_else(|| io::Error::other("standard input is not a file"))?
        } else {
            File::open(path)?
        };
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::other(
                "it is no longer a regular file (it changed since it was listed)",
            ));
        }
        Ok(Planner {
            file: Arc::new(file),
            opened: meta.len(),
            size: meta.len(),
            at: 0,
            started: false,
            forced: 0,
            block: vec![0; BLOCK],
        })
    }

    /// The next window, `None` at the end of the file.
    fn next(&mut self) -> Option<io::Result<Plan>> {
        if self.at >= self.size {
            // The file may have grown since it was opened, as a read would see.
            match self.file.metadata() {
                Ok(m) if m.len() > self.size => self.size = m.len(),
                Ok(_) => {}
                Err(e) => return Some(Err(e)),
            }
        }
        if self.at >= self.size {
            if self.at < self.opened {
                let error = shrank(self.at, self.opened);
                self.opened = self.at; // reported once
                return Some(Err(error));
            }
            if self.started {
                return None;
            }
            self.started = true;
            return Some(Ok(self.window(0)));
        }
        self.started = true;
        let left = self.size - self.at;
        let len = if left <= WINDOW as u64 {
            left as usize
        } else {
            match self.cut() {
                Ok(len) => len,
                Err(e) => return Some(Err(e)),
            }
        };
        let plan = self.window(len);
        self.at += len as u64;
        Some(Ok(plan))
    }

    fn window(&self, len: usize) -> Plan {
        Plan {
            file: Arc::clone(&self.file),
            offset: self.at,
            len,
            size: self.size,
        }
    }

    /// The length of the window at `self.at`, which is not the last: up to just after the
    /// last line break (else ASCII space or control character) within [`WINDOW`] bytes,
    /// else within twice as many, and so on up to [`MAX_RUN`].
    fn cut(&mut self) -> io::Result<usize> {
        let mut floor = 0usize; // bytes of the window already searched
        let mut want = WINDOW;
        loop {
            let end = want.min((self.size - self.at) as usize);
            if end < want {
                return Ok(end); // the rest of the file
            }
            if let Some(cut) = self.last_cut(floor, end)? {
                return Ok(cut);
            }
            if end >= MAX_RUN.max(WINDOW) {
                self.forced += 1;
                let tail = 8.min(end);
                let read = self.read_block(end - tail, tail)?;
                return Ok(end - tail + window::char_boundary_before(&self.block[..read], read));
            }
            floor = end;
            want = (want * 2).min(MAX_RUN.max(WINDOW));
        }
    }

    /// The end of the last line break in `[floor, end)` of the window, else of its last
    /// ASCII space or control character; read backwards a block at a time.
    fn last_cut(&mut self, floor: usize, end: usize) -> io::Result<Option<usize>> {
        let mut hi = end;
        let mut block = BLOCK;
        while hi > floor {
            let lo = hi.saturating_sub(block).max(floor);
            let read = self.read_block(lo, hi - lo)?;
            if read < hi - lo {
                // Shrank under the planner: end the window where the file now ends.
                self.size = self.at + (lo + read) as u64;
                return Ok(Some(lo + read));
            }
            if let Some(i) = window::last_cut(&self.block[..read]) {
                return Ok(Some(lo + i));
            }
            hi = lo;
            block = (block * 2).min(LARGE_BLOCK);
        }
        Ok(None)
    }

    /// Reads `len` ≤ [`LARGE_BLOCK`] bytes at `at + from` into the block; returns how
    /// many.
    fn read_block(&mut self, from: usize, len: usize) -> io::Result<usize> {
        if self.block.len() < len {
            self.block.resize(len, 0);
        }
        let (got, error) = read_full(&self.file, self.at + from as u64, &mut self.block[..len]);
        match error {
            Some(e) => Err(e),
            None => Ok(got),
        }
    }
}
