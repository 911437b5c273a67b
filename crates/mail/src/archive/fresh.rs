//! Whether an archive's folder is fresh: it held nothing but the lock file ([`LOCK_FILE`])
//! when the run took the lock, as when a build goes into a new folder.
//!
//! # Algorithm
//!
//! The folder is listed once, after the lock is taken, and only until a first entry other
//! than the lock file: a folder that holds a build stops the listing at once.
//!
//! # Invariants
//!
//! * A fresh folder tells the files' writers (`files`) that a name the run writes for the
//!   first time is free, so that each file is created at once (`O_CREAT | O_EXCL`) with
//!   no lookup of its name before, no read of an old file to keep it, and no removal of
//!   an old one: into an empty folder those lookups are thousands of negative lookups
//!   in a growing directory, each costing the file system a search of it.
//! * Only a hint: a name taken all the same (something else put a file or a link there
//!   while the run went on) makes the exclusive create fail, and the file is then written
//!   as over any taken name, beside it and renamed over it, never through a link.
//! * Whatever cannot be listed is not fresh: every name is then looked up as before.

use std::fs;
use std::path::Path;

use super::files::LOCK_FILE;

/// Whether the folder `dir`, whose lock this run holds, holds nothing but the lock file.
pub(crate) fn is_fresh(dir: &Path) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    for entry in entries {
        match entry {
            Ok(entry) if entry.file_name() == LOCK_FILE => {}
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the lock file, or nothing: fresh; anything else, a hidden file or a folder too:
    /// not; a missing folder: not.
    #[test]
    fn a_folder_with_only_the_lock_is_fresh() {
        let dir = std::env::temp_dir().join(format!("linkscan-fresh-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        assert!(!is_fresh(&dir));
        fs::create_dir_all(&dir).unwrap();
        assert!(is_fresh(&dir));
        fs::write(dir.join(LOCK_FILE), "").unwrap();
        assert!(is_fresh(&dir));
        fs::write(dir.join(".hidden"), "").unwrap();
        assert!(!is_fresh(&dir));
        fs::remove_file(dir.join(".hidden")).unwrap();
        fs::create_dir(dir.join("a")).unwrap();
        assert!(!is_fresh(&dir));
        fs::remove_dir_all(&dir).unwrap();
    }
}
