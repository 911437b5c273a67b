//! Downloads of whole threads and months: `tNNNNN.mbox.gz` beside each thread's pages and
//! `YYYY-MM.mbox.gz` (`undated.mbox.gz`) beside each month's, made of the messages'
//! own downloads (`download`, `NNNNN.txt`).
//!
//! # Algorithm
//!
//! Once every message is written, each thread's messages (in thread order) and each
//! month's (in archive order) are read back from their downloads, a line at a time, and
//! written as an mboxrd file through gzip: a `From ` line of fixed text before each
//! message, each line that starts with `>`s and `From ` quoted with one more `>`, and an
//! empty line after each message that does not end with one (its last line ended
//! first), so that the reader splits it back into the downloads. Threads and months are
//! written in parallel (feature `parallel`), each streaming through a buffer, so memory
//! does not grow with a thread or a month.
//!
//! # Invariants
//!
//! * Deterministic: gzip with no file name and a modification time of 0, at a fixed
//!   level ([`LEVEL`]), so a build and an update give the same bytes.
//! * An update writes the mbox of a thread or month only when it holds a message this
//!   run wrote (one at or past `kept`) or the file is missing; the others hold the same
//!   messages, whose downloads did not change.
//! * A message with no download (a piece of a message over the size limit) is not in
//!   them. With addresses obfuscated, there are no downloads and so no mbox; those an
//!   earlier run left, and those of threads and months the archive no longer has, are
//!   removed.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;

use flate2::{Compression, GzBuilder};

use super::download::raw_name;
use super::files::create_replacing;
use super::rows::{Plan, Row};

/// The gzip level: 1, the fastest, which keeps the build fast; level 6 makes the
/// corpus's files some 10 % smaller at three times the time.
pub(crate) const LEVEL: u32 = 1;

/// The `From ` line before each message.
const FROM_LINE: &[u8] = b"From archive@localhost Thu Jan  1 00:00:00 1970\n";

/// The mbox of thread `first` (the number of its first message).
pub(crate) fn thread_name(first: usize) -> String {
    format!("t{first:05}.mbox.gz")
}

/// The mbox of month `month` (`YYYY-MM` or `undated`).
pub(crate) fn month_name(month: &str) -> String {
    format!("{month}.mbox.gz")
}

/// One file to write: its name and the numbers of its messages in order.
struct Mbox {
    name: String,
    messages: Vec<usize>,
    /// Whether an update must write it.
    changed: bool,
}

/// Writes the mboxes of `plan`'s threads and months into `dir` (see the
/// [module](self) documentation), `rows` the archive's, those before `kept` unchanged
/// since the last run; removes those an earlier run left that this one does not have.
/// With `enabled` false (addresses obfuscated) writes none. Returns how many were
/// written and how many removed.
pub(crate) fn write(
    dir: &Path,
    plan: &Plan,
    rows: &[Row],
    kept: usize,
    enabled: bool,
) -> io::Result<(usize, usize)> {
    let mut all = Vec::new();
    if enabled {
        for thread in &plan.tree.threads {
            all.push(Mbox {
                name: thread_name(rows[thread[0]].global),
                messages: thread.iter().map(|&m| rows[m].global).collect(),
                changed: thread.iter().any(|&m| m >= kept),
            });
        }
        for (month, list) in &plan.months {
            let mut messages: Vec<usize> = list.iter().map(|&m| rows[m].global).collect();
            messages.sort_unstable();
            all.push(Mbox {
                name: month_name(month),
                changed: list.iter().any(|&m| m >= kept),
                messages,
            });
        }
    }
    let names: HashSet<String> = all.iter().map(|m| m.name.clone()).collect();
    let todo: Vec<&Mbox> = all
        .iter()
        .filter(|m| {
            m.changed || !fs::symlink_metadata(dir.join(&m.name)).is_ok_and(|f| f.is_file())
        })
        .collect();
    let one = |m: &&Mbox| write_one(dir, m);
    #[cfg(feature = "parallel")]
    let results: Vec<io::Result<()>> = {
        use rayon::prelude::*;
        todo.par_iter().map(one).collect()
    };
    #[cfg(not(feature = "parallel"))]
    let results: Vec<io::Result<()>> = todo.iter().map(one).collect();
    for r in results {
        r?;
    }
    let removed = remove_stale(dir, &names)?;
    Ok((todo.len(), removed))
}

/// Writes one mbox.
fn write_one(dir: &Path, mbox: &Mbox) -> io::Result<()> {
    let path = dir.join(&mbox.name);
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let file = create_replacing(&path)?;
    // The lines go to the compressor in blocks: each write to it is a call of deflate,
    // which on a line at a time cost more than the compression itself.
    let mut gz = io::BufWriter::with_capacity(
        1 << 16,
        GzBuilder::new().mtime(0).write(
            io::BufWriter::with_capacity(1 << 16, file),
            Compression::new(LEVEL),
        ),
    );
    let mut line = Vec::new();
    for &global in &mbox.messages {
        let source = dir.join(raw_name(global));
        let Ok(file) = open_plain(&source) else {
            continue;
        };
        gz.write_all(FROM_LINE).map_err(named)?;
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let mut ended = true;
        let mut ended_blank = false;
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line).map_err(named)?;
            if n == 0 {
                break;
            }
            if needs_quote(&line) {
                gz.write_all(b">").map_err(named)?;
            }
            gz.write_all(&line).map_err(named)?;
            ended_blank = line == b"\n" || line == b"\r\n";
            ended = line.ends_with(b"\n");
        }
        // The empty line before the next `From `: the last line ended first, and none
        // added when the message ends with one already (the reader keeps the empty line
        // before a `From ` line in the message, so a message split from an mbox has one).
        if !ended {
            gz.write_all(b"\n").map_err(named)?;
        }
        if !ended_blank {
            gz.write_all(b"\n").map_err(named)?;
        }
    }
    let gz = gz.into_inner().map_err(|e| named(e.into_error()))?;
    let writer = gz.finish().map_err(named)?;
    let file = writer.into_inner().map_err(|e| named(e.into_error()))?;
    file.finish()
}

/// Opens a download this run or an earlier one wrote, without following a link.
fn open_plain(path: &Path) -> io::Result<File> {
    let mut options = File::options();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a plain file"));
    }
    Ok(file)
}

/// Whether an mboxrd writer quotes `line`: `>`s (any number, none too) then `From `.
fn needs_quote(line: &[u8]) -> bool {
    let start = line.iter().take_while(|&&b| b == b'>').count();
    line[start..].starts_with(b"From ")
}

/// Whether `name` is an mbox this module writes.
fn is_mbox_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".mbox.gz") else {
        return false;
    };
    let b = stem.as_bytes();
    let thread = stem
        .strip_prefix('t')
        .is_some_and(|n| n.len() >= 5 && n.bytes().all(|c| c.is_ascii_digit()));
    let month = b.len() == 7
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..].iter().all(u8::is_ascii_digit);
    thread || month || stem == "undated"
}

/// Removes the mboxes in `dir` not in `keep`; returns how many.
fn remove_stale(dir: &Path, keep: &HashSet<String>) -> io::Result<usize> {
    let mut removed = 0;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if is_mbox_name(name) && !keep.contains(name) {
            fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_lines_are_quoted_as_mboxrd_says() {
        assert!(needs_quote(b"From me\n"));
        assert!(needs_quote(b">From me\n"));
        assert!(needs_quote(b">>>From me"));
        assert!(!needs_quote(b"From:me\n"));
        assert!(!needs_quote(b" From me\n"));
        assert!(!needs_quote(b"> From me\n"));
    }

    #[test]
    fn the_names_of_mboxes() {
        for yes in [
            "t00001.mbox.gz",
            "2024-01.mbox.gz",
            "undated.mbox.gz",
            "t123456.mbox.gz",
        ] {
            assert!(is_mbox_name(yes), "{yes}");
        }
        for no in [
            "t1.mbox.gz",
            "index.mbox.gz",
            "2024-1.mbox.gz",
            "00001.mbox.gz",
            "t00001.mbox",
        ] {
            assert!(!is_mbox_name(no), "{no}");
        }
    }
}
