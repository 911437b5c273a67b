//! Downloads of whole threads and months: `tNNNNN.mbox.gz` beside each thread's pages and
//! `YYYY-MM.mbox.gz` (`undated.mbox.gz`) beside each month's, made of the messages'
//! own downloads (`download`, `NNNNN.txt`).
//!
//! # Algorithm
//!
//! Each message's mboxrd entry is deflated once, as a gzip member of its own, when its
//! page is written (`members`). Once every message is written, each thread's file (its
//! messages in thread order) and each month's (in archive order) is those members
//! copied one after the other: a gzip file of several members, which readers read as
//! one stream. A message this run did not write (an update keeps it) has its member made
//! again from its download, the same bytes. Threads and months are written in parallel
//! (feature `parallel`), each through a buffer, so memory does not grow with a thread or
//! a month.
//!
//! # Invariants
//!
//! * Deterministic: a member is a function of its message's bytes (`members`), so a
//!   build and an update give the same bytes. An mbox with no message is one empty
//!   member, still a gzip file.
//! * An update writes the mbox of a thread or month only when it holds a message this
//!   run wrote (one at or past `kept`) or the file is missing; the others hold the same
//!   messages, whose downloads did not change.
//! * Every message with a download is in them, the pieces of a message over the size
//!   limit too, each as its own entry as its download holds it (`download`). With
//!   addresses obfuscated, there are no downloads and so no mbox; those an earlier run
//!   left, and those of threads and months the archive no longer has, are removed (by
//!   the archive's one listing of its folder for stale files: [`write()`] gives the names
//!   it keeps).

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use super::download::raw_name;
use super::files::create_named;
use super::members::{self, Members};
use super::rows::{Plan, Row};

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
/// since the last run, `made` the members this run made, `fresh` whether the folder
/// was fresh (`fresh`). With `enabled` false (addresses obfuscated) writes none. Returns
/// how many were written, and the names of the mboxes the archive has (those an earlier
/// run left that are not among them are stale: [`is_mbox_name`]).
pub(crate) fn write(
    dir: &Path,
    plan: &Plan,
    rows: &[Row],
    kept: usize,
    made: &Members,
    enabled: bool,
    fresh: bool,
) -> io::Result<(usize, HashSet<String>)> {
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
    let one = |m: &&Mbox| write_one(dir, m, made, fresh);
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
    Ok((todo.len(), names))
}

/// Writes one mbox: the members of its messages, one after the other; in a `fresh`
/// folder its name is free (`files::create_named`).
fn write_one(dir: &Path, mbox: &Mbox, made: &Members, fresh: bool) -> io::Result<()> {
    let path = dir.join(&mbox.name);
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let mut out = io::BufWriter::with_capacity(1 << 16, create_named(&path, fresh)?);
    let mut any = false;
    for &global in &mbox.messages {
        if made.copy(global, &mut out).map_err(named)? {
            any = true;
            continue;
        }
        // A message an update keeps: its member made again from its download.
        let source = dir.join(raw_name(global));
        let Ok(mut file) = open_plain(&source) else {
            continue;
        };
        // Read whole, as the scan held the message (or the piece) it made the member of.
        let with_path =
            |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", source.display()));
        let mut raw = Vec::new();
        file.read_to_end(&mut raw).map_err(with_path)?;
        out = members::write_member(&raw, out).map_err(with_path)?;
        any = true;
    }
    if !any {
        out = members::write_empty(out).map_err(named)?;
    }
    out.into_inner()
        .map_err(|e| named(e.into_error()))?
        .finish()
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

/// Whether `name` is an mbox this module writes.
pub(crate) fn is_mbox_name(name: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An update's kept message is read back from its download and made the member the
    /// scan would have made of it.
    #[test]
    fn a_kept_download_is_read_back_as_its_member() {
        let dir = std::env::temp_dir().join(format!("linkscan-kept-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let raw = b"Subject: kept\n\nFrom here on\n";
        fs::write(dir.join(raw_name(1)), raw).unwrap();
        let mbox = Mbox {
            name: "t00001.mbox.gz".to_string(),
            messages: vec![1],
            changed: true,
        };
        write_one(&dir, &mbox, &Members::new(&dir), true).unwrap();
        assert_eq!(
            fs::read(dir.join(&mbox.name)).unwrap(),
            members::write_member(raw, Vec::new()).unwrap()
        );
        fs::remove_dir_all(&dir).unwrap();
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
