//! Files of an archive folder: their names ([`page_name`], [`paged_name`], and an
//! input's as the pages show it, [`file_name`]); each written to a fresh temporary name
//! and renamed over its own, never through a symbolic link; and the pages an earlier run
//! left that this run did not write.
//!
//! # Invariants
//!
//! * A file whose name is free is created there exclusively (`O_CREAT | O_EXCL`, which
//!   never follows a link) and written in place: one inode and one directory entry, no
//!   rename, which is most of what a build into an empty folder costs the file system.
//!   A reader may see it half written while the run writes it; a run that stops before
//!   its end leaves no state file (the state is removed before the first file is
//!   written and written last), so the next `--update` builds the folder whole.
//! * A name is looked up before its file is created, unless the run knows it free: the
//!   folder was fresh (`fresh`: it held nothing but the lock when the run began) and the
//!   run writes the name for the first time ([`create_named`]). An empty folder then costs
//!   one create per file and no lookup; a name taken all the same fails the exclusive
//!   create and is replaced as below.
//! * A file whose name is taken (a page of an earlier run, a symbolic link, anything) is
//!   created exclusively under `.NAME.tmp` beside its name and renamed there once whole:
//!   a symbolic link at the name is replaced, what it points to is never written; a
//!   reader sees the old page or the new one, never half.
//! * A file dropped unfinished (a write failed) removes what it created: the file at its
//!   name, or its temporary file; one that cannot take its name removes its temporary
//!   file.
//! * [`remove_stale`] removes only names this archiver writes ([`is_page_name`]) that the
//!   run did not write; any other file of the folder is left alone.
//! * A run holds the folder's lock ([`lock`], [`LOCK_FILE`]) from
//!   [`Archive::create`](super::Archive::create) to its end, an advisory lock of the
//!   system on a file opened without following a link: a second run on the folder waits
//!   [`LOCK_WAIT`] at most, then refuses.
//! * [`Output::put`] writes a page unless an update knows it as it is (the hash the last
//!   run recorded for it is the new page's, and a plain file of its length is there).
//!   [`Output::put_each`] puts the pages of many jobs (a thread's pages, its feed) on the
//!   rayon pool, each job writing its own files; what it records (the pages' hashes and
//!   how many were written) is what putting them one after the other records.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The lock file of an archive folder, which every run holds locked. Empty;
/// no page names it, and a full build and an update leave it the same.
pub const LOCK_FILE: &str = ".linkscan.lock";

/// How long a run waits for another run on the same folder to end before it refuses.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(3);

/// Opens `path` for reading, and for writing when `write` (creating it then), without
/// following a symbolic link at its name, and without waiting on a FIFO (on unix; elsewhere
/// a link there is refused before it is opened).
fn open_no_follow(path: &Path, write: bool) -> io::Result<File> {
    let mut options = File::options();
    options.read(true);
    if write {
        options.write(true).create(true).truncate(false);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(io::Error::other("a symbolic link"));
    }
    options.open(path)
}

/// Reads the whole of `path`, a plain file of at most `max` bytes, without following a
/// symbolic link at its name and without waiting on a FIFO: a link, a FIFO, a device or
/// a folder there, or a longer file, is an error that says so (the last run left none).
pub(crate) fn read_plain(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let file = open_no_follow(path, false)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a plain file (a link, a FIFO, a device or a folder)",
        ));
    }
    if meta.len() > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("longer than {max} bytes"),
        ));
    }
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("longer than {max} bytes"),
        ));
    }
    Ok(bytes)
}

/// Whether `path` is a plain file (not a link) longer than `len` bytes: a page of a
/// message the last run wrote, `len` the length of its text before its links.
pub(crate) fn is_plain_longer(path: &Path, len: u64) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() > len)
}

/// Takes the lock of the archive folder `dir` for as long as the file returned is open:
/// an exclusive advisory lock of the system on [`LOCK_FILE`], created if missing. When
/// another run holds it, waits for it [`LOCK_WAIT`] at most, then refuses with an error
/// that names the folder.
pub(crate) fn lock(dir: &Path) -> io::Result<File> {
    let path = dir.join(LOCK_FILE);
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let file = open_no_follow(&path, true).map_err(named)?;
    if !file.metadata().map_err(named)?.is_file() {
        return Err(named(io::Error::other("not a plain file")));
    }
    let start = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(fs::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!(
                        "{}: in use by another run (it holds {LOCK_FILE}): try again once it \
                         is done",
                        dir.display()
                    ),
                ))
            }
            Err(fs::TryLockError::Error(e)) => return Err(named(e)),
        }
    }
}

/// A file being written at `path`, created there when the name was free, else to a fresh
/// temporary name beside it ([`create_named`]); [`Replacing::finish`] renames the latter to `path`.
///
/// Dropped without [`Replacing::finish`] (a write failed, the run stopped), it removes
/// what it created, so a failed run leaves no file of its own half written.
pub(crate) struct Replacing {
    /// `None` once finished.
    file: Option<File>,
    /// The temporary name, `None` when the file was created at `path` itself.
    temporary: Option<PathBuf>,
    path: PathBuf,
}

/// Starts writing `path` without following a symbolic link there. A free name is created
/// exclusively (`O_CREAT | O_EXCL`) and written in place. A taken one (a file, a link,
/// a folder) is left as it is while the data goes to `.NAME.tmp` in the same folder,
/// created exclusively (a leftover of an earlier run is removed first, a link itself and
/// not its target), and [`Replacing::finish`] renames it over `path`. A rename replaces
/// a link at `path`, never what it points to.
///
/// The name is looked up first unless the caller knows it `free`: the run's folder was
/// fresh (`fresh`) and the run has not written this name yet. A name known free is
/// created at once; were it taken all the same, the exclusive create fails and the file
/// is written beside it and renamed over it, as over any taken name.
pub(crate) fn create_named(path: &Path, free: bool) -> io::Result<Replacing> {
    let create_new = |at: &Path| File::options().write(true).create_new(true).open(at);
    // Looked up first unless known free: a lookup shares the folder, while a create that
    // fails on a taken name still holds the folder's lock alone (the threads writing pages
    // wait on it).
    if free || fs::symlink_metadata(path).is_err_and(|e| e.kind() == io::ErrorKind::NotFound) {
        match create_new(path) {
            Ok(file) => {
                return Ok(Replacing {
                    file: Some(file),
                    temporary: None,
                    path: path.to_path_buf(),
                })
            }
            // Taken since: replaced as any taken name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        }
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{name}.tmp"));
    let file = match create_new(&temporary) {
        // A leftover of an earlier run (or a link): removed, itself, and created afresh.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            fs::remove_file(&temporary).and_then(|()| create_new(&temporary))
        }
        other => other,
    }
    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", temporary.display())))?;
    Ok(Replacing {
        file: Some(file),
        temporary: Some(temporary),
        path: path.to_path_buf(),
    })
}

/// Writes `bytes` as the whole of `path` ([`create_named`], the name looked up first).
pub(crate) fn write_replacing(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_named(path, bytes, false)
}

/// Writes `bytes` as the whole of `path`, whose name is known `free` or not
/// ([`create_named`]): in one write when the name is free.
pub(crate) fn write_named(path: &Path, bytes: &[u8], free: bool) -> io::Result<()> {
    let mut out = create_named(path, free)?;
    out.write_all(bytes)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    out.finish()
}

/// Writes `bytes` as the whole of `path` ([`write_replacing`]) unless a plain file there
/// holds them already (read without following a link, as [`read_plain`] does); returns
/// whether it wrote. A build into a folder that holds one already replaces only the
/// files that change: a file replaced costs the file system a new inode and the old
/// one's removal, a file read costs a copy. A name known `free` ([`create_named`]) is
/// neither read nor looked up: the file is created at once, in one write.
pub(crate) fn write_if_changed(path: &Path, bytes: &[u8], free: bool) -> io::Result<bool> {
    if !free && read_plain(path, bytes.len() as u64).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_named(path, bytes, free)?;
    Ok(true)
}

/// Appends `bytes` to the page at `path`, which this run wrote as a plain file; a
/// symbolic link found there instead (put since) is an error, never written through.
pub(crate) fn append(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let link = || {
        named(io::Error::other(
            "a symbolic link replaced the page being written",
        ))
    };
    let mut options = File::options();
    options.append(true);
    // On unix the open itself refuses a link (`O_NOFOLLOW`: `ELOOP`), with no lookup
    // before it; elsewhere the name is looked up first.
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    #[cfg(not(unix))]
    if fs::symlink_metadata(path)
        .map_err(named)?
        .file_type()
        .is_symlink()
    {
        return Err(link());
    }
    let mut file = match options.open(path) {
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(link()),
        other => other.map_err(named)?,
    };
    file.write_all(bytes).map_err(named)
}

/// The pages of a run other than the messages': each is put whole, and its hash kept for
/// the state file.
pub(crate) struct Output<'a> {
    dir: &'a Path,
    /// The hashes the last run recorded, when updating it.
    before: Option<&'a BTreeMap<String, u64>>,
    /// The pages of this run and their hashes.
    pub(crate) pages: BTreeMap<String, u64>,
    /// How many were written (the others were as they are already).
    pub(crate) written: usize,
    /// The folder was fresh (`fresh`): each page's name is free.
    pub(crate) fresh: bool,
}

impl<'a> Output<'a> {
    pub(crate) fn new(dir: &'a Path, before: Option<&'a BTreeMap<String, u64>>) -> Output<'a> {
        Output {
            dir,
            before,
            pages: BTreeMap::new(),
            written: 0,
            fresh: false,
        }
    }

    /// Writes page `name` ([`write_named`]), unless the last run wrote it as it is.
    pub(crate) fn put(&mut self, name: String, bytes: &[u8]) -> io::Result<()> {
        let done = self.write_bytes(&name, bytes)?;
        self.record(name, done);
        Ok(())
    }

    /// Runs `job` on each of `jobs`, on the rayon pool with the `parallel` feature (one
    /// after the other without it), each putting its pages through the [`Puts`] it is
    /// given; the pages are recorded as if put one after the other. Each page's file is
    /// written by the job that makes it, so what a job holds is its own pages at most.
    pub(crate) fn put_each<J: Sync>(
        &mut self,
        jobs: &[J],
        job: impl Fn(&J, &mut Puts<'_, '_>) -> io::Result<()> + Sync,
    ) -> io::Result<()> {
        let one = |j: &J| -> io::Result<Vec<(String, (u64, bool))>> {
            let mut puts = Puts {
                output: self,
                done: Vec::new(),
            };
            job(j, &mut puts)?;
            Ok(puts.done)
        };
        #[cfg(feature = "parallel")]
        let done: Vec<Vec<(String, (u64, bool))>> = {
            use rayon::prelude::*;
            jobs.par_iter().map(one).collect::<io::Result<_>>()?
        };
        #[cfg(not(feature = "parallel"))]
        let done: Vec<Vec<(String, (u64, bool))>> =
            jobs.iter().map(one).collect::<io::Result<_>>()?;
        for (name, page) in done.into_iter().flatten() {
            self.record(name, page);
        }
        Ok(())
    }

    /// Records page `name`, its hash and whether it was written.
    fn record(&mut self, name: String, (hash, written): (u64, bool)) {
        self.written += usize::from(written);
        self.pages.insert(name, hash);
    }

    /// [`Output::put`] without the record, from any thread: the page's hash and whether
    /// it was written.
    fn write_bytes(&self, name: &str, bytes: &[u8]) -> io::Result<(u64, bool)> {
        let hash = super::hash::hash(bytes);
        let path = self.dir.join(name);
        let same = self.before.and_then(|b| b.get(name)) == Some(&hash)
            && fs::symlink_metadata(&path)
                .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64);
        if !same {
            write_named(&path, bytes, self.fresh)?;
        }
        Ok((hash, !same))
    }

    /// Writes page `name` as `write` makes it, streamed through a buffer (never whole in
    /// memory), unless the last run wrote it as it is, from any thread: its hash and
    /// whether it was written. With an earlier run's hashes, `write` runs once to hash the
    /// page, and once more to write it only if it differs. The hash is that of the bytes,
    /// as [`Output::put`] records it.
    fn write_with(
        &self,
        name: &str,
        mut write: impl FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<(u64, bool)> {
        let path = self.dir.join(name);
        if let Some(&old) = self.before.and_then(|b| b.get(name)) {
            let mut sink = Hashing::new(io::sink());
            write(&mut sink)?;
            if sink.hash.finish() == old
                && fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() == sink.len)
            {
                return Ok((old, false));
            }
        }
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut out = Hashing::new(io::BufWriter::with_capacity(
            1 << 16,
            create_named(&path, self.fresh)?,
        ));
        write(&mut out).map_err(named)?;
        let hash = out.hash.finish();
        let replacing = out.inner.into_inner().map_err(|e| named(e.into_error()))?;
        replacing.finish()?;
        Ok((hash, true))
    }
}

/// What a job of [`Output::put_each`] puts its pages through.
pub(crate) struct Puts<'o, 'a> {
    output: &'o Output<'a>,
    /// The pages put, their hashes and whether each was written.
    done: Vec<(String, (u64, bool))>,
}

impl Puts<'_, '_> {
    /// [`Output::put`].
    pub(crate) fn put(&mut self, name: String, bytes: &[u8]) -> io::Result<()> {
        let done = self.output.write_bytes(&name, bytes)?;
        self.done.push((name, done));
        Ok(())
    }

    /// Writes page `name` as `write` makes it ([`Output::write_with`]).
    pub(crate) fn put_with(
        &mut self,
        name: String,
        write: impl FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        let done = self.output.write_with(&name, write)?;
        self.done.push((name, done));
        Ok(())
    }
}

/// A writer that hashes ([`Hash64`](super::hash::Hash64)) and counts what goes through it.
struct Hashing<W> {
    inner: W,
    hash: super::hash::Hash64,
    len: u64,
}

impl<W: Write> Hashing<W> {
    fn new(inner: W) -> Hashing<W> {
        Hashing {
            inner,
            hash: super::hash::Hash64::new(),
            len: 0,
        }
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Copies bytes `start..end` of the page at `path` to `out`: a plain file this run wrote
/// or kept, opened without following a link, at least `end` bytes long; else an error
/// that says the page is not as this run wrote it. An empty range reads nothing.
///
/// On unix the range is read at its offset (`pread`, no `lseek` first) through a buffer on
/// the stack; a file too short gives a short read, which is the error above. A thread page
/// and a feed copy each message's text this way.
pub(crate) fn copy_range(path: &Path, start: u64, end: u64, out: &mut dyn Write) -> io::Result<()> {
    if start == end {
        return Ok(());
    }
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let not_as_written = || {
        named(io::Error::new(
            io::ErrorKind::InvalidData,
            "the page is not as this run wrote it",
        ))
    };
    if start > end {
        return Err(not_as_written());
    }
    let file = open_no_follow(path, false).map_err(named)?;
    // A FIFO (opened without waiting), a folder or a device where the page was.
    if !file.metadata().map_err(named)?.is_file() {
        return Err(not_as_written());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 16 << 10];
        let mut at = start;
        while at < end {
            let want = usize::try_from(end - at)
                .unwrap_or(usize::MAX)
                .min(buf.len());
            match file.read_at(&mut buf[..want], at) {
                Ok(0) => return Err(not_as_written()),
                Ok(n) => {
                    out.write_all(&buf[..n])?;
                    at += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(named(e)),
            }
        }
        Ok(())
    }
    #[cfg(not(unix))]
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = file;
        if file.metadata().map_err(named)?.len() < end {
            return Err(not_as_written());
        }
        file.seek(SeekFrom::Start(start)).map_err(named)?;
        let copied = io::copy(&mut file.take(end - start), out)?;
        if copied != end - start {
            return Err(not_as_written());
        }
        Ok(())
    }
}

impl Replacing {
    /// Gives the written file its name (renames it there, unless it was created there).
    pub(crate) fn finish(mut self) -> io::Result<()> {
        drop(self.file.take());
        let Some(temporary) = self.temporary.take() else {
            return Ok(());
        };
        fs::rename(&temporary, &self.path).map_err(|e| {
            // Not renamed (a folder holds the name): the temporary file goes.
            let _ = fs::remove_file(&temporary);
            io::Error::new(e.kind(), format!("{}: {e}", self.path.display()))
        })
    }

    fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("written before it is finished")
    }
}

impl Drop for Replacing {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(self.temporary.as_deref().unwrap_or(&self.path));
        }
    }
}

impl Write for Replacing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

/// The page of message `global`.
pub(crate) fn page_name(global: usize) -> String {
    format!("{global:05}.html")
}

/// Page `k` (from 0) of a paged list named `base`.
pub(crate) fn paged_name(base: &str, k: usize) -> String {
    if k == 0 {
        format!("{base}.html")
    } else {
        format!("{base}-{}.html", k + 1)
    }
}

/// The name of `path` without its folders: how published pages name an archive.
pub(crate) fn file_name(path: &str) -> String {
    Path::new(path).file_name().map_or_else(
        || path.to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Whether `name` is one this archiver writes: a message page (`NNNNN.html`, digits), a
/// thread page (`tNNNNN.html`, `tNNNNN-K.html`), a host's page of links (`hNNNNN.html`,
/// `hNNNNN-K.html`), a month page (`YYYY-MM.html`,
/// `YYYY-MM-K.html`, `undated.html`, `undated-K.html`), a page of the links
/// (`links.html`, `links-K.html`) or their JSON (`links.json`).
pub(crate) fn is_page_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".html") else {
        return name == "links.json";
    };
    if stem == "search" {
        return true;
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let month = |s: &str| {
        let b = s.as_bytes();
        b.len() == 7
            && b[..4].iter().all(u8::is_ascii_digit)
            && b[4] == b'-'
            && b[5..].iter().all(u8::is_ascii_digit)
    };
    let thread = |s: &str| {
        s.strip_prefix(['t', 'h'])
            .is_some_and(|n| digits(n) && n.len() >= 5)
    };
    let paged = |s: &str| month(s) || thread(s) || s == "undated" || s == "links";
    let base = match stem.rsplit_once('-') {
        Some((base, k)) if digits(k) && paged(base) => base,
        _ => stem,
    };
    (digits(base) && base.len() >= 5) || paged(base)
}

/// What an earlier run left in the folder, by name ([`remove_stale`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stale {
    /// Not a file this run removes.
    Keep,
    /// A page or feed this run did not write: removed and counted.
    Page,
    /// Another file this run did not write (a download, an mbox): removed.
    Other,
}

/// Removes, in one listing of `dir`, each file an earlier run left that `stale` names
/// ([`Stale::Page`], [`Stale::Other`]), so that no page of another archive stays
/// reachable; returns how many pages and feeds it removed. Other files are left alone.
pub(crate) fn remove_stale(dir: &Path, stale: impl Fn(&str) -> Stale) -> io::Result<usize> {
    let mut removed = 0;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let what = stale(name);
        if what != Stale::Keep {
            fs::remove_file(entry.path()).map_err(|e| {
                io::Error::new(e.kind(), format!("{}: {e}", entry.path().display()))
            })?;
            removed += usize::from(what == Stale::Page);
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty folder of this test process under the system's temporary folder, named
    /// for its test; the test removes it.
    fn empty_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("linkscan-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A range is copied whole, across the copy's buffer; a page too short, a folder, a
    /// FIFO or a device where the page was, and a range backwards are each the error that
    /// says the page is not as this run wrote it (never a wait on the FIFO).
    #[test]
    fn a_range_of_a_page_is_copied_or_refused() {
        let dir = empty_dir("copy-range");
        let page = dir.join("00001.html");
        let bytes: Vec<u8> = (0..40_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        fs::write(&page, &bytes).unwrap();
        let mut out = Vec::new();
        copy_range(&page, 7, 39_000, &mut out).unwrap();
        assert_eq!(out, &bytes[7..39_000]);
        out.clear();
        copy_range(&page, 5, 5, &mut out).unwrap();
        assert!(out.is_empty());
        let refused = |path: &Path, start: u64, end: u64| {
            let e = copy_range(path, start, end, &mut Vec::new()).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
            assert!(e.to_string().contains("not as this run wrote it"), "{e}");
        };
        refused(&page, 39_000, 40_001);
        refused(&page, 9, 8);
        let folder = dir.join("00002.html");
        fs::create_dir(&folder).unwrap();
        refused(&folder, 0, 10);
        #[cfg(unix)]
        {
            let fifo = dir.join("00003.html");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                refused(&fifo, 0, 10);
            }
        }
        #[cfg(unix)]
        {
            let device = dir.join("00005.html");
            std::os::unix::fs::symlink("/dev/zero", &device).unwrap();
            // Not followed: a link is refused as it is opened.
            assert!(copy_range(&device, 0, 10, &mut Vec::new()).is_err());
            refused(Path::new("/dev/zero"), 0, 10);
        }
        let missing = copy_range(&dir.join("00004.html"), 0, 10, &mut Vec::new()).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_names_of_pages() {
        for yes in [
            "00001.html",
            "123456.html",
            "t00001.html",
            "t00001-2.html",
            "h00001.html",
            "h00002-3.html",
            "2024-01.html",
            "2024-01-3.html",
            "undated.html",
            "undated-2.html",
            "links.html",
            "links-4.html",
            "links.json",
            "search.html",
        ] {
            assert!(is_page_name(yes), "{yes}");
        }
        for no in [
            "index.html",
            "notes.html",
            "0001.html",
            "t1.html",
            "2024-1.html",
            "style.css",
            "00001.htm",
            ".00001.html.tmp",
            "abcé01.html",
            "202é-01.html",
        ] {
            assert!(!is_page_name(no), "{no}");
        }
    }

    /// A file left unfinished (a write failed) leaves no temporary file behind; pages not
    /// written by the run go, other files stay.
    #[test]
    fn an_unfinished_file_is_removed() {
        let dir = empty_dir("unfinished");
        let page = dir.join("00001.html");
        let mut out = create_named(&page, false).unwrap();
        out.write_all(b"<p>half").unwrap();
        drop(out);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        for name in [
            "00001.html",
            "00002.html",
            "t00002.html",
            "index.html",
            "notes.html",
        ] {
            fs::write(dir.join(name), "x").unwrap();
        }
        let written: std::collections::HashSet<String> = ["00001.html".to_string()].into();
        let stale = |name: &str| match is_page_name(name) && !written.contains(name) {
            true => Stale::Page,
            false => Stale::Keep,
        };
        assert_eq!(remove_stale(&dir, stale).unwrap(), 2);
        let mut left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["00001.html", "index.html", "notes.html"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A free name is written in place (no temporary name, nothing to rename); a taken
    /// one through `.NAME.tmp`, the old page whole until the new one replaces it.
    #[test]
    fn a_free_name_is_written_in_place_a_taken_one_replaced() {
        let dir = empty_dir("in-place");
        let page = dir.join("00001.html");
        let temporary = dir.join(".00001.html.tmp");
        let mut out = create_named(&page, false).unwrap();
        out.write_all(b"<p>one").unwrap();
        out.flush().unwrap();
        assert!(!temporary.exists());
        assert_eq!(fs::read(&page).unwrap(), b"<p>one");
        out.finish().unwrap();
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        let mut out = create_named(&page, false).unwrap();
        out.write_all(b"<p>two").unwrap();
        out.flush().unwrap();
        assert_eq!(fs::read(&temporary).unwrap(), b"<p>two");
        assert_eq!(fs::read(&page).unwrap(), b"<p>one");
        out.finish().unwrap();
        assert_eq!(fs::read(&page).unwrap(), b"<p>two");
        assert!(!temporary.exists());
        // Unfinished over a taken name: the old page stays, the temporary file goes.
        let mut out = create_named(&page, false).unwrap();
        out.write_all(b"<p>th").unwrap();
        drop(out);
        assert_eq!(fs::read(&page).unwrap(), b"<p>two");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A file that holds the bytes already is left alone; one that differs, is longer,
    /// or is a symbolic link is replaced (the link's target untouched).
    #[test]
    fn only_a_changed_file_is_written() {
        let dir = empty_dir("changed");
        let path = dir.join("00001.txt");
        assert!(write_if_changed(&path, b"one", false).unwrap());
        assert!(!write_if_changed(&path, b"one", false).unwrap());
        assert!(write_if_changed(&path, b"on", false).unwrap());
        assert_eq!(fs::read(&path).unwrap(), b"on");
        assert!(write_if_changed(&path, b"no", false).unwrap());
        assert_eq!(fs::read(&path).unwrap(), b"no");
        #[cfg(unix)]
        {
            let target = dir.join("precious.txt");
            fs::write(&target, "no").unwrap();
            fs::remove_file(&path).unwrap();
            std::os::unix::fs::symlink(&target, &path).unwrap();
            assert!(write_if_changed(&path, b"no", false).unwrap());
            assert!(!fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(fs::read(&target).unwrap(), b"no");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A name said to be free but taken all the same (a file, a symbolic link put there
    /// since the folder was found fresh) is replaced as any taken name: the file's bytes
    /// are the new ones, the link's target is untouched, and no temporary file stays.
    #[test]
    fn a_name_said_free_but_taken_is_replaced() {
        let dir = empty_dir("said-free");
        let page = dir.join("00001.html");
        write_named(&page, b"<p>one", true).unwrap();
        write_named(&page, b"<p>two", true).unwrap();
        assert_eq!(fs::read(&page).unwrap(), b"<p>two");
        let raw = dir.join("00001.txt");
        fs::write(&raw, "old").unwrap();
        assert!(
            write_if_changed(&raw, b"old", true).unwrap(),
            "free: not read, written"
        );
        assert_eq!(fs::read(&raw).unwrap(), b"old");
        #[cfg(unix)]
        {
            let target = dir.join("precious.txt");
            fs::write(&target, "keep me").unwrap();
            fs::remove_file(&page).unwrap();
            std::os::unix::fs::symlink(&target, &page).unwrap();
            write_named(&page, b"<p>three", true).unwrap();
            assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
            assert!(!fs::symlink_metadata(&page)
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(fs::read(&page).unwrap(), b"<p>three");
            // Appending refuses a link put in the page's place, and writes nothing there.
            fs::remove_file(&page).unwrap();
            std::os::unix::fs::symlink(&target, &page).unwrap();
            let err = append(&page, b"end").unwrap_err();
            assert!(
                err.to_string().contains("a symbolic link replaced"),
                "{err}"
            );
            assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
            fs::remove_file(&target).unwrap();
            fs::remove_file(&page).unwrap();
            fs::write(&page, "<p>").unwrap();
            append(&page, b"end").unwrap();
            assert_eq!(fs::read(&page).unwrap(), b"<p>end");
        }
        let mut left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["00001.html", "00001.txt"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A page that cannot take its name (a folder holds it) leaves no temporary file.
    #[test]
    fn a_page_that_cannot_be_renamed_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("linkscan-rename-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("index.html").join("inside")).unwrap();
        assert!(write_replacing(&dir.join("index.html"), b"<p>front</p>").is_err());
        assert!(!dir.join(".index.html.tmp").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A page's name held by a symbolic link: the link is replaced, its target untouched.
    #[cfg(unix)]
    #[test]
    fn replacing_a_symbolic_link_leaves_its_target_alone() {
        let dir = empty_dir("replacing");
        let target = dir.join("precious.txt");
        fs::write(&target, "keep me").unwrap();
        let page = dir.join("00001.html");
        std::os::unix::fs::symlink(&target, &page).unwrap();
        // A leftover temporary file that is a link too.
        std::os::unix::fs::symlink(&target, dir.join(".00001.html.tmp")).unwrap();
        write_replacing(&page, b"<p>page</p>").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
        assert!(!fs::symlink_metadata(&page)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&page).unwrap(), "<p>page</p>");
        assert!(!dir.join(".00001.html.tmp").exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
