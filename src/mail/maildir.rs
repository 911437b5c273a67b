//! The messages of a Maildir.
//!
//! A Maildir holds one message per file in its `new/` and `cur/` subfolders (`tmp/` holds
//! deliveries in progress and is not read). The archive order is: `cur/` then `new/`, each
//! sorted by file name, which for names made by the usual `time.unique.host` scheme is
//! delivery order. Hidden files (a leading `.`) are skipped. Maildir++ subfolders (`.Sent`,
//! …) are Maildirs of their own: name them separately.

use std::io;
use std::path::{Path, PathBuf};

/// The message files of the Maildir `dir`, in archive order. An error when `dir` has
/// neither `cur/` nor `new/`, or one cannot be listed.
pub fn maildir_messages(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found_any = false;
    let mut messages = Vec::new();
    for sub in ["cur", "new"] {
        let sub = dir.join(sub);
        if !sub.is_dir() {
            continue;
        }
        found_any = true;
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&sub)? {
            let entry = entry?;
            let name = entry.file_name();
            if name.to_string_lossy().starts_with('.') || !entry.file_type()?.is_file() {
                continue;
            }
            files.push(entry.path());
        }
        files.sort();
        messages.extend(files);
    }
    if !found_any {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "not a Maildir (no cur/ or new/ folder)",
        ));
    }
    Ok(messages)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["cur/1.a:2,", "cur/3.c:2,S", "new/2.b"]);
        assert!(maildir_messages(&dir.join("cur")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
