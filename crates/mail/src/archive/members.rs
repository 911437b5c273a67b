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
//! for each message), its output written into a buffer the thread keeps (zeroed once,
//! written over). The entry goes to deflate in runs: the message's bytes between the lines
//! mboxrd quotes, found by a vector search for line feeds, each run one call, not a line
//! at a time through a writer's buffer. The gzip header and trailer (CRC-32 and length)
//! are written around the deflate stream.
//!
//! # Invariants
//!
//! * Deterministic: a member is a function of the message's bytes alone (gzip with no file
//!   name, a modification time of 0, level [`LEVEL`], the entry fed in the same runs), so
//!   an `--update`, which makes the members of the messages it keeps from their downloads
//!   ([`write_member`] on the `NNNNN.txt`, read whole, as the scan held the message),
//!   writes the bytes a full build does: both are made by the same code, and a member made
//!   with a thread's reused compressor is the one a new compressor makes (a test holds
//!   them equal). (Deflate's output depends on how its input is cut into calls: a member
//!   is the same bytes for the same runs, not for any cut.)
//! * Memory: a member is held while it is made (at most about the message's size, which
//!   the size limit bounds); the buffer a thread keeps between members is at most
//!   [`KEPT_BUFFER`] (a larger one, grown for a large message, is let go); the members of
//!   a run are kept in memory up to [`HELD`] bytes
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
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use flate2::{Compress, Compression, Crc, FlushCompress, GzBuilder, Status};

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

/// Writes to `out` the gzip member of the mbox entry of `message` ([`write_entry`]), and
/// gives `out` back: the bytes [`Members::add`] keeps for the message, made the same way.
pub(crate) fn write_member<W: Write>(message: &[u8], mut out: W) -> io::Result<W> {
    out.write_all(&make_member(message)?)?;
    Ok(out)
}

/// The gzip header of a member: no flags, a modification time of 0, the extra flags of
/// the fastest level (4), and the system unknown (255).
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255];

/// The most bytes of output buffer a thread keeps between members; a larger one (made for
/// a large message) is let go.
const KEPT_BUFFER: usize = 1 << 20;

thread_local! {
    /// This thread's compressor, reset between members.
    static COMPRESSOR: RefCell<Option<Deflater>> = const { RefCell::new(None) };
}

/// The gzip member of the mbox entry of `raw`, made with this thread's compressor: the
/// header, the deflate stream of the entry, its CRC-32 and its length. A compressor that
/// failed is dropped, never used again.
fn make_member(raw: &[u8]) -> io::Result<Vec<u8>> {
    COMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        let deflater = slot.get_or_insert_with(Deflater::new);
        let made = deflater.member(raw);
        if made.is_err() {
            *slot = None;
        }
        made
    })
}

/// A compressor (`deflateReset` between members: the state is cleared, not allocated
/// again) and the buffer its output goes to, zeroed once and written over: each write of
/// the entry goes to deflate as it is, with no copy into a writer's buffer and no
/// buffer zeroed again for each call.
struct Deflater {
    compress: Compress,
    out: Vec<u8>,
    /// The bytes of `out` the member holds so far.
    len: usize,
    crc: Crc,
}

impl Deflater {
    fn new() -> Deflater {
        Deflater {
            compress: Compress::new(Compression::new(LEVEL), false),
            out: Vec::new(),
            len: 0,
            crc: Crc::new(),
        }
    }

    /// The member of the entry of `raw`.
    fn member(&mut self, raw: &[u8]) -> io::Result<Vec<u8>> {
        self.compress.reset();
        self.crc.reset();
        self.len = 0;
        write_entry(raw, self)?;
        loop {
            let status = self.deflate(&[], FlushCompress::Finish)?.1;
            if status == Status::StreamEnd {
                break;
            }
        }
        let mut member = Vec::with_capacity(GZIP_HEADER.len() + self.len + 8);
        member.extend_from_slice(&GZIP_HEADER);
        member.extend_from_slice(&self.out[..self.len]);
        member.extend_from_slice(&self.crc.sum().to_le_bytes());
        member.extend_from_slice(&self.crc.amount().to_le_bytes());
        if self.out.len() > KEPT_BUFFER {
            self.out = Vec::new();
        }
        Ok(member)
    }

    /// One call of deflate on `input` into the rest of the buffer, grown first when full
    /// (or when the last call could not go on in what was left); how much of `input` it
    /// took, and its status.
    fn deflate(&mut self, input: &[u8], flush: FlushCompress) -> io::Result<(usize, Status)> {
        if self.len == self.out.len() {
            let grown = (self.out.len() * 2).max(64 << 10);
            self.out.resize(grown, 0);
        }
        let (taken, made) = (self.compress.total_in(), self.compress.total_out());
        let status = self
            .compress
            .compress(input, &mut self.out[self.len..], flush)
            .map_err(io::Error::other)?;
        let taken = usize::try_from(self.compress.total_in() - taken).expect("at most the input");
        let made = usize::try_from(self.compress.total_out() - made).expect("at most the buffer");
        self.len += made;
        if taken == 0 && made == 0 && status != Status::StreamEnd {
            // No room to go on in: the next call has more.
            let grown = self.out.len() * 2;
            self.out.resize(grown, 0);
        }
        Ok((taken, status))
    }
}

impl Write for Deflater {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut at = 0;
        while at < buf.len() {
            at += self.deflate(&buf[at..], FlushCompress::None)?.0;
        }
        self.crc.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes the empty gzip member: the whole of an mbox with no message, still a gzip file.
pub(crate) fn write_empty<W: Write>(out: W) -> io::Result<W> {
    GzBuilder::new()
        .mtime(0)
        .write(out, Compression::new(LEVEL))
        .finish()
}

/// Writes the mboxrd entry of `message`: a `From ` line of fixed text, each line that
/// starts with `>`s and `From ` quoted with one more `>`, and an empty line after it
/// unless it ends with one (its last line ended first), so that a reader splits the mbox
/// back into the messages. The runs between quoted lines go out in one write each (a
/// write to the compressor is a call of deflate), the lines found with a vector search
/// for their line feeds.
fn write_entry(message: &[u8], out: &mut impl Write) -> io::Result<()> {
    out.write_all(FROM_LINE)?;
    let mut written = 0;
    let starts = std::iter::once(0).chain(memchr::memchr_iter(b'\n', message).map(|n| n + 1));
    for start in starts {
        if needs_quote(&message[start..]) {
            out.write_all(&message[written..start])?;
            out.write_all(b">")?;
            written = start;
        }
    }
    out.write_all(&message[written..])?;
    // The empty line before the next `From `: the last line ended first, and none added
    // when the message ends with one already (the reader keeps the empty line before a
    // `From ` line in the message, so a message split from an mbox has one).
    let last = message[..message.len().saturating_sub(1)]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    let last = &message[last..];
    if !last.is_empty() && !last.ends_with(b"\n") {
        out.write_all(b"\n")?;
    }
    if !matches!(last, b"\n" | b"\r\n") {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Whether an mboxrd writer quotes `line` (or a line that starts there): `>`s (any
/// number, none too) then `From `.
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

    /// The entry written in runs is the one written a line at a time: each `>`*`From `
    /// line quoted, the message's end made an empty line once; whatever its last line.
    #[test]
    fn an_entry_written_in_runs_is_the_entry_line_by_line() {
        fn by_lines(message: &[u8]) -> Vec<u8> {
            let mut out = FROM_LINE.to_vec();
            let (mut ended, mut blank) = (true, false);
            for line in message.split_inclusive(|&b| b == b'\n') {
                if needs_quote(line) {
                    out.push(b'>');
                }
                out.extend_from_slice(line);
                blank = line == b"\n" || line == b"\r\n";
                ended = line.ends_with(b"\n");
            }
            if !ended {
                out.push(b'\n');
            }
            if !blank {
                out.push(b'\n');
            }
            out
        }
        let cases: [&[u8]; 14] = [
            b"",
            b"\n",
            b"\r\n",
            b"a",
            b"a\n",
            b"a\n\n",
            b"a\r\n",
            b"a\n\r\n",
            b"From x\n>From y\nFrom\nFromage\n>>From z",
            b"x\nFrom ",
            b"x\n>",
            b"\n\nFrom a\n\n",
            b"From ",
            b"a\n>>>From b\n> From c\n",
        ];
        for message in cases {
            let mut out = Vec::new();
            write_entry(message, &mut out).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&by_lines(message)),
                "{:?}",
                String::from_utf8_lossy(message)
            );
        }
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
    /// does, whatever came before it (an empty message, a long one that outgrows the kept
    /// buffer, one of random bytes that deflate cannot shrink), and each is a gzip member
    /// of the message's entry.
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
            let reused = make_member(raw).unwrap();
            assert_eq!(reused, Deflater::new().member(raw).unwrap());
            assert_eq!(reused, write_member(raw, Vec::new()).unwrap());
            // One gzip member, its CRC and length checked by the reader, holding the entry.
            let mut entry = Vec::new();
            write_entry(raw, &mut entry).unwrap();
            let mut read = Vec::new();
            flate2::read::GzDecoder::new(&reused[..])
                .read_to_end(&mut read)
                .unwrap();
            assert_eq!(read, entry);
        }
    }
}
