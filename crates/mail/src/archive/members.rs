//! Each message's entry of the thread and month mboxes, compressed once as a gzip member
//! of its own, kept (in memory, past a bound in a scratch file) until the mboxes are made
//! of them (`mboxes`).
//!
//! # Algorithm
//!
//! A gzip file may hold several members one after the other (RFC 1952, 2.2), and every
//! reader (`gzip -d`, `zcat`, Python's `gzip`, mail clients) reads them all as one stream.
//! So a message's entry (the `From ` line, its lines quoted as mboxrd says, the empty
//! line after it: [`write_entry`]) is deflated once, as its page is written
//! ([`Members::add`], on the scan's threads), and kept; its thread's mbox and its month's
//! are then that member copied twice ([`Members::copy`]), not the message deflated twice.
//!
//! Each thread of the scan deflates its members with one compressor of its own, reset
//! between members (`deflateReset`: the state is cleared, not allocated and zeroed again
//! for each message); the gzip header and trailer (CRC-32 and length) around the deflate
//! stream are those [`write_member`] writes.
//!
//! # Invariants
//!
//! * Deterministic: a member is a function of the message's bytes alone (gzip with no file
//!   name, a modification time of 0, level [`LEVEL`], fed the same writes), so an
//!   `--update`, which makes the members of the messages it keeps from their downloads
//!   ([`write_member`] on the `NNNNN.txt`), writes the bytes a full build does; a member
//!   made with a thread's compressor is the one [`write_member`] makes (a test holds them
//!   equal).
//! * Memory: a member is held while it is made (at most about the message's size, which
//!   the size limit bounds); the members of a run are kept in memory up to [`HELD`] bytes
//!   in all, and those past it in the scratch file, copied out through a buffer of
//!   [`COPY_BUFFER`] bytes. The corpus's 6,669 messages (52 MB) make 22 MB of members,
//!   all held: no scratch file is written, and none read back twice.
//! * The scratch file (`.linkscan-members.tmp` in the archive's folder) is created on the
//!   first member past [`HELD`]; on unix its name is removed at once (the open file
//!   stays), elsewhere when the [`Members`] is dropped. A leftover of an earlier run under
//!   that name is replaced.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use flate2::write::DeflateEncoder;
use flate2::{Compression, CrcWriter, GzBuilder};

/// The gzip level: 1, the fastest, which keeps the build fast; level 6 makes the
/// corpus's files some 10 % smaller at three times the time.
pub(crate) const LEVEL: u32 = 1;

/// The `From ` line before each message.
const FROM_LINE: &[u8] = b"From archive@localhost Thu Jan  1 00:00:00 1970\n";

/// The name of the scratch file in the archive's folder.
const SCRATCH: &str = ".linkscan-members.tmp";

/// The buffer members are copied through.
const COPY_BUFFER: usize = 1 << 16;

/// The most bytes of members a run keeps in memory; those past it go to the scratch file.
pub(crate) const HELD: u64 = 32 << 20;

/// The members of one run, in a scratch file of the archive's folder.
#[derive(Debug)]
pub(crate) struct Members {
    dir: PathBuf,
    /// The most bytes of members held in memory ([`HELD`]).
    limit: u64,
    /// The scratch file, created on the first member.
    file: OnceLock<File>,
    inner: Mutex<Scratch>,
}

#[derive(Debug, Default)]
struct Scratch {
    /// The scratch file's name while it has one (on systems where an open file's name stays).
    named: Option<PathBuf>,
    len: u64,
    /// Where the member of each message (by its number) is.
    at: HashMap<usize, Place>,
    /// The bytes of the members held in memory, [`HELD`] at most.
    held: u64,
}

/// Where a member is kept.
#[derive(Debug, Clone)]
enum Place {
    /// In memory (shared, so that it is copied out without the lock held).
    Held(Arc<[u8]>),
    /// In the scratch file: offset and length.
    Scratch(u64, u64),
}

impl Members {
    /// No members yet; the scratch file will be in `dir`.
    pub(crate) fn new(dir: &Path) -> Members {
        Members::holding(dir, HELD)
    }

    /// No members yet, at most `limit` bytes of them to be held in memory.
    fn holding(dir: &Path, limit: u64) -> Members {
        Members {
            dir: dir.to_path_buf(),
            limit,
            file: OnceLock::new(),
            inner: Mutex::new(Scratch::default()),
        }
    }

    /// Makes the member of message `global`, whose download holds `raw`, and keeps it.
    /// May run on several threads at once.
    pub(crate) fn add(&self, global: usize, raw: &[u8]) -> io::Result<()> {
        let member = make_member(raw)?;
        let mut scratch = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let len = member.len() as u64;
        if scratch.held + len <= self.limit {
            scratch.held += len;
            scratch.at.insert(global, Place::Held(member.into()));
            return Ok(());
        }
        if self.file.get().is_none() {
            let path = self.dir.join(SCRATCH);
            let create = || {
                File::options()
                    .read(true)
                    .write(true)
                    .create_new(true)
                    .open(&path)
            };
            let file = match create() {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    fs::remove_file(&path).and_then(|()| create())
                }
                other => other,
            }
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            if cfg!(unix) {
                fs::remove_file(&path)?;
            } else {
                scratch.named = Some(path);
            }
            let _ = self.file.set(file);
        }
        let start = scratch.len;
        let mut file = self.file.get().expect("created above");
        file.write_all(&member)?;
        scratch.len += member.len() as u64;
        scratch.at.insert(global, Place::Scratch(start, len));
        Ok(())
    }

    /// Copies the member of message `global` to `out`; `false` when this run made none
    /// (a message it kept, or one without a download).
    pub(crate) fn copy(&self, global: usize, out: &mut impl Write) -> io::Result<bool> {
        let at = self
            .inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .at
            .get(&global)
            .cloned();
        let (mut offset, len) = match at {
            None => return Ok(false),
            Some(Place::Held(member)) => {
                out.write_all(&member)?;
                return Ok(true);
            }
            Some(Place::Scratch(offset, len)) => (offset, len),
        };
        let Some(file) = self.file.get() else {
            return Ok(false);
        };
        let end = offset + len;
        let mut buf = vec![0; COPY_BUFFER.min(len as usize)];
        while offset < end {
            let n = buf.len().min((end - offset) as usize);
            read_exact_at(file, &mut buf[..n], offset)?;
            out.write_all(&buf[..n])?;
            offset += n as u64;
        }
        Ok(true)
    }
}

impl Drop for Members {
    fn drop(&mut self) {
        drop(self.file.take());
        let scratch = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(path) = scratch.named.take() {
            let _ = fs::remove_file(path);
        }
    }
}

/// Reads `buf.len()` bytes of `file` at `offset`, without moving a shared position (the
/// mboxes are written on several threads).
#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Reads `buf.len()` bytes of `file` at `offset`, each read at its own offset (the
/// mboxes are written on several threads; nothing writes the file any more).
#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Writes to `out` the gzip member of the mbox entry of the message whose download
/// `message` reads ([`write_entry`]), and gives `out` back.
pub(crate) fn write_member<W: Write>(message: impl BufRead, out: W) -> io::Result<W> {
    // The lines go to the compressor in blocks: each write to it is a call of deflate,
    // which on a line at a time cost more than the compression itself.
    let mut gz = io::BufWriter::with_capacity(
        COPY_BUFFER,
        GzBuilder::new()
            .mtime(0)
            .write(out, Compression::new(LEVEL)),
    );
    write_entry(message, &mut gz)?;
    let gz = gz.into_inner().map_err(|e| e.into_error())?;
    gz.finish()
}

/// The gzip header [`write_member`] writes: no flags, a modification time of 0, the
/// extra flags of the fastest level (4), and the system unknown (255).
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255];

thread_local! {
    /// This thread's compressor, reset between members.
    static COMPRESSOR: RefCell<Option<DeflateEncoder<Vec<u8>>>> = const { RefCell::new(None) };
}

/// The gzip member of the mbox entry of `raw` ([`write_member`]'s bytes), made with this
/// thread's compressor: the header, the deflate stream of the entry, its CRC-32 and its
/// length. A compressor that failed is dropped, never used again.
fn make_member(raw: &[u8]) -> io::Result<Vec<u8>> {
    COMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        let encoder =
            slot.get_or_insert_with(|| DeflateEncoder::new(Vec::new(), Compression::new(LEVEL)));
        let mut out = Vec::with_capacity(raw.len() / 3 + 64);
        out.extend_from_slice(&GZIP_HEADER);
        *encoder.get_mut() = out;
        let made = (|| {
            let mut crc = CrcWriter::new(&mut *encoder);
            let mut buffered = io::BufWriter::with_capacity(COPY_BUFFER, &mut crc);
            write_entry(raw, &mut buffered)?;
            buffered.into_inner().map_err(|e| e.into_error())?;
            let (sum, amount) = (crc.crc().sum(), crc.crc().amount());
            encoder.try_finish()?;
            // The stream ended: `reset` clears the compressor for the next member and
            // gives this one's bytes back.
            let mut out = encoder.reset(Vec::new())?;
            out.extend_from_slice(&sum.to_le_bytes());
            out.extend_from_slice(&amount.to_le_bytes());
            Ok(out)
        })();
        if made.is_err() {
            *slot = None;
        }
        made
    })
}

/// Writes the empty gzip member: the whole of an mbox with no message, still a gzip file.
pub(crate) fn write_empty<W: Write>(out: W) -> io::Result<W> {
    GzBuilder::new()
        .mtime(0)
        .write(out, Compression::new(LEVEL))
        .finish()
}

/// Writes the mboxrd entry of the message `message` reads: a `From ` line of fixed text,
/// each line that starts with `>`s and `From ` quoted with one more `>`, and an empty line
/// after it unless it ends with one (its last line ended first), so that a reader splits
/// the mbox back into the messages.
fn write_entry(mut message: impl BufRead, out: &mut impl Write) -> io::Result<()> {
    out.write_all(FROM_LINE)?;
    let mut line = Vec::new();
    let mut ended = true;
    let mut ended_blank = false;
    loop {
        line.clear();
        if message.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if needs_quote(&line) {
            out.write_all(b">")?;
        }
        out.write_all(&line)?;
        ended_blank = line == b"\n" || line == b"\r\n";
        ended = line.ends_with(b"\n");
    }
    // The empty line before the next `From `: the last line ended first, and none added
    // when the message ends with one already (the reader keeps the empty line before a
    // `From ` line in the message, so a message split from an mbox has one).
    if !ended {
        out.write_all(b"\n")?;
    }
    if !ended_blank {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Whether an mboxrd writer quotes `line`: `>`s (any number, none too) then `From `.
fn needs_quote(line: &[u8]) -> bool {
    let start = line.iter().take_while(|&&b| b == b'>').count();
    line[start..].starts_with(b"From ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn from_lines_are_quoted_as_mboxrd_says() {
        assert!(needs_quote(b"From me\n"));
        assert!(needs_quote(b">From me\n"));
        assert!(needs_quote(b">>>From me"));
        assert!(!needs_quote(b"From:me\n"));
        assert!(!needs_quote(b" From me\n"));
        assert!(!needs_quote(b"> From me\n"));
    }

    fn gunzip_all(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    /// Members copied one after the other read as one mbox, each message once, in the
    /// order copied, whatever thread made them; the same bytes as a member made again
    /// from the message (what an update does with a download it keeps); whether they are
    /// held in memory, in the scratch file, or some in each.
    #[test]
    fn members_concatenated_read_as_one_mbox() {
        let one = b"Subject: a\n\nFrom here\n>From there\nend".as_slice();
        let two = b"Subject: b\n\nbody\n\n".as_slice();
        let big: Vec<u8> = (0..200_000u32)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        for limit in [0, 200, HELD] {
            let dir = std::env::temp_dir()
                .join(format!("linkscan-members-{}-{limit}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            let members = Members::holding(&dir, limit);
            std::thread::scope(|s| {
                s.spawn(|| members.add(1, one).unwrap());
                s.spawn(|| members.add(2, two).unwrap());
                s.spawn(|| members.add(3, &big).unwrap());
            });
            if cfg!(unix) {
                assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "no name left");
            }
            let held = members.inner.lock().unwrap().held;
            assert!(held <= limit, "{held} held, {limit} at most");
            assert_eq!(members.file.get().is_some(), limit < HELD, "{limit}");
            let mut mbox = Vec::new();
            for global in [2, 1, 3] {
                assert!(members.copy(global, &mut mbox).unwrap());
            }
            assert!(!members.copy(4, &mut mbox).unwrap());
            let text = gunzip_all(&mbox);
            let mut want = Vec::new();
            want.extend_from_slice(FROM_LINE);
            want.extend_from_slice(b"Subject: b\n\nbody\n\n");
            want.extend_from_slice(FROM_LINE);
            want.extend_from_slice(b"Subject: a\n\n>From here\n>>From there\nend\n\n");
            want.extend_from_slice(FROM_LINE);
            want.extend_from_slice(&big);
            want.extend_from_slice(b"\n");
            assert_eq!(text, want);
            for (global, raw) in [(1, one), (2, two), (3, big.as_slice())] {
                let mut again = Vec::new();
                members.copy(global, &mut again).unwrap();
                assert_eq!(again, write_member(raw, Vec::new()).unwrap(), "{global}");
            }
            assert!(gunzip_all(&write_empty(Vec::new()).unwrap()).is_empty());
            drop(members);
            assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
            fs::remove_dir_all(&dir).unwrap();
        }
    }

    /// One thread's compressor, reset between members, makes each member as a new one
    /// does, whatever came before it: an empty message, a long one, one of random bytes.
    #[test]
    fn a_reused_compressor_makes_the_same_members() {
        let mut random = Vec::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..300_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            random.push(x as u8);
        }
        let long: Vec<u8> = (0..100_000u32)
            .flat_map(|i| format!("From line {}\n", i % 977).into_bytes())
            .collect();
        let messages: [&[u8]; 6] = [b"", &long, b"Subject: x\n\ny", &random, b"\n", &long];
        for raw in messages {
            assert_eq!(
                make_member(raw).unwrap(),
                write_member(raw, Vec::new()).unwrap()
            );
        }
    }
}
