//! The messages of a Maildir.
//!
//! A Maildir holds one message per file in its `new/` and `cur/` subfolders (`tmp/` holds
//! deliveries in progress and is not read). The archive order is: `cur/` then `new/`, each
//! sorted by file name, which for names made by the usual `time.unique.host` scheme is
//! delivery order. Hidden files (a leading `.`) are skipped. Maildir++ subfolders (`.Sent`,
//! …) are Maildirs of their own: name them separately.
//!
//! # Symbolic links and unreadable entries
//!
//! A symbolic link in `cur/` or `new/` is followed (as by `stat`) to a file inside the
//! Maildir: a link to a regular file there is a message like any other (archiving tools
//! link messages between folders instead of copying them). A link that leads out of the
//! Maildir (`cur/1 -> /proc/self/environ`, or a `cur/` that is itself a link elsewhere) is
//! listed but never read: [`open_message`] refuses it, so a reader reports it by name and
//! no file outside the folder that was named reaches the output. Every entry is judged by
//! what it points to:
//!
//! * a regular file is a message;
//! * an entry whose target cannot be examined (a dangling or looping link, a file that
//!   vanished, no permission) is still listed, so that reading it fails and the reader
//!   reports it by name instead of skipping it silently;
//! * a folder, FIFO, socket or device (directly or through a link) is not a message: it is
//!   left out of the list (a FIFO would block a reader forever) and named in
//!   [`Maildir::skipped`].
//!
//! A subfolder (`cur/` or `new/`) that exists but cannot be listed does not stop the other:
//! its error is kept in [`Maildir::unreadable`], and [`maildir_messages`] lists the
//! subfolder itself among the messages so that a reader that reads each entry reports it.
//!
//! # Invariants
//!
//! Every entry of `cur/` and `new/` except hidden ones is in exactly one of
//! [`Maildir::messages`] (regular files and entries that could not be examined) and
//! [`Maildir::skipped`]; every subfolder that exists is either listed or in
//! [`Maildir::unreadable`].

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// Opens the message `path` of the Maildir `root` for reading, following symbolic links
/// only to files inside `root`: the entry's real path (all links resolved) must lie under
/// the real path of `root` and be a regular file, and the file opened must be that file
/// (same device and inode as the real path before the open, and the real path the same
/// after it), so a link swapped in while it is opened is not followed either. A link that
/// leads outside is refused with [`io::ErrorKind::PermissionDenied`] and a message that
/// says so.
pub fn open_message(root: &Path, path: &Path) -> io::Result<File> {
    let real_root = std::fs::canonicalize(root)?;
    let real = std::fs::canonicalize(path)?;
    let outside = || {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "a symbolic link to {}, outside the Maildir, is not followed",
                real.display()
            ),
        )
    };
    if !real.starts_with(&real_root) {
        return Err(outside());
    }
    let before = std::fs::symlink_metadata(&real)?;
    if !before.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let file = File::open(&real)?;
    let after = file.metadata()?;
    if !same_file(&before, &after) || std::fs::canonicalize(path)? != real {
        return Err(outside());
    }
    Ok(file)
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.len() == b.len() && b.is_file()
}

/// What [`read_maildir`] found.
#[derive(Debug, Default)]
pub struct Maildir {
    /// The message files in archive order (with the entries that could not be examined).
    pub messages: Vec<PathBuf>,
    /// Entries that are not messages (folders, FIFOs, sockets, devices), with what they are.
    pub skipped: Vec<(PathBuf, &'static str)>,
    /// `cur/` or `new/` folders that exist but could not be listed, with the error.
    pub unreadable: Vec<(PathBuf, io::Error)>,
}

/// Lists the Maildir `dir`; see the [module](self) documentation. An error only when `dir`
/// has neither `cur/` nor `new/`; a subfolder that cannot be listed is reported in
/// [`Maildir::unreadable`] and the other is still read.
pub fn read_maildir(dir: &Path) -> io::Result<Maildir> {
    let mut found_any = false;
    let mut maildir = Maildir::default();
    for sub in ["cur", "new"] {
        let sub = dir.join(sub);
        if !sub.is_dir() {
            continue;
        }
        found_any = true;
        match list_folder(&sub, &mut maildir.skipped) {
            Ok(mut files) => {
                files.sort();
                maildir.messages.extend(files);
            }
            Err(e) => maildir.unreadable.push((sub, e)),
        }
    }
    if !found_any {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "not a Maildir (no cur/ or new/ folder)",
        ));
    }
    Ok(maildir)
}

/// The message files of the Maildir `dir`, in archive order. An error when `dir` has
/// neither `cur/` nor `new/`.
///
/// For a reader that reads each listed path and reports the paths it cannot read: a
/// subfolder that cannot be listed is itself in the list (at its place in the archive
/// order), so reading it fails with the subfolder's name and error, and the messages of the
/// other subfolder are still listed. Entries that are not messages are left out (see
/// [`read_maildir`] to get them).
pub fn maildir_messages(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let maildir = read_maildir(dir)?;
    let mut messages = maildir.messages;
    for (folder, _) in maildir.unreadable {
        // cur/ comes before new/ in archive order.
        let at = if folder.ends_with("cur") {
            0
        } else {
            messages.len()
        };
        messages.insert(at, folder);
    }
    Ok(messages)
}

/// The entries of `folder` that are (or may be) messages; folders and special files go to
/// `skipped`.
fn list_folder(
    folder: &Path,
    skipped: &mut Vec<(PathBuf, &'static str)>,
) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        // `metadata` follows symbolic links; an entry it cannot examine is kept so that
        // reading it reports the error.
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => files.push(path),
            Ok(meta) => skipped.push((path, kind_of(&meta))),
            Err(_) => files.push(path),
        }
    }
    Ok(files)
}

/// What a non-regular file is, in words.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path, found: &[PathBuf]) -> Vec<String> {
        found
            .iter()
            .map(|p| p.strip_prefix(dir).unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn lists_cur_then_new_sorted() {
        let dir = std::env::temp_dir().join(format!("linkscan-maildir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (sub, name) in [
            ("new", "2.b"),
            ("cur", "3.c:2,S"),
            ("cur", "1.a:2,"),
            ("tmp", "0"),
            ("cur", ".hidden"),
        ] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
            std::fs::write(dir.join(sub).join(name), b"Subject: x\n\n").unwrap();
        }
        let found = maildir_messages(&dir).unwrap();
        assert_eq!(
            names(&dir, &found),
            ["cur/1.a:2,", "cur/3.c:2,S", "new/2.b"]
        );
        assert!(maildir_messages(&dir.join("cur")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed_and_odd_entries_accounted_for() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("linkscan-maildir-ln-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("cur/sub")).unwrap();
        std::fs::create_dir_all(dir.join("new")).unwrap();
        std::fs::write(dir.join("elsewhere"), b"Subject: linked\n\nx").unwrap();
        symlink(dir.join("elsewhere"), dir.join("cur/1.linked")).unwrap();
        symlink(dir.join("nowhere"), dir.join("cur/2.dangling")).unwrap();
        symlink(dir.join("cur/sub"), dir.join("new/3.to-folder")).unwrap();
        std::fs::write(dir.join("new/4.plain"), b"Subject: x\n\n").unwrap();
        let maildir = read_maildir(&dir).unwrap();
        assert_eq!(
            names(&dir, &maildir.messages),
            ["cur/1.linked", "cur/2.dangling", "new/4.plain"]
        );
        let skipped: Vec<_> = maildir
            .skipped
            .iter()
            .map(|(p, why)| {
                (
                    p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned(),
                    *why,
                )
            })
            .collect();
        assert_eq!(
            skipped,
            [
                ("cur/sub".to_string(), "a folder"),
                ("new/3.to-folder".to_string(), "a folder")
            ]
        );
        assert!(maildir.unreadable.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Links are followed to files inside the Maildir only.
    #[cfg(unix)]
    #[test]
    fn open_message_stays_inside() {
        use std::io::Read;
        use std::os::unix::fs::symlink;
        let base = std::env::temp_dir().join(format!("linkscan-maildir-in-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let dir = base.join("Maildir");
        std::fs::create_dir_all(dir.join("cur")).unwrap();
        std::fs::create_dir_all(dir.join("store")).unwrap();
        std::fs::write(base.join("secret"), b"SECRET=1").unwrap();
        std::fs::write(dir.join("store/m"), b"Subject: in\n\n").unwrap();
        symlink(base.join("secret"), dir.join("cur/1.out")).unwrap();
        symlink("../store/m", dir.join("cur/2.in")).unwrap();
        symlink("/proc/self/environ", dir.join("cur/3.proc")).unwrap();
        let mut text = String::new();
        open_message(&dir, &dir.join("cur/2.in"))
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "Subject: in\n\n");
        for name in ["cur/1.out", "cur/3.proc"] {
            let e = open_message(&dir, &dir.join(name)).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::PermissionDenied, "{name}: {e}");
            assert!(e.to_string().contains("outside the Maildir"), "{e}");
        }
        std::fs::remove_dir_all(&base).unwrap();
    }
}
