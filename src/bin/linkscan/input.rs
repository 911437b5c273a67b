//! The inputs of a subcommand: named files, or standard input for `-` or no name.
//!
//! Each input is read whole and handed to the caller with its display name. An input that
//! cannot be read is reported on stderr (`linkscan: NAME: reason`) and skipped; the others
//! are still processed and the outcome says so, which becomes exit status 2.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::Outcome;

/// The display name of standard input.
pub(crate) const STDIN_NAME: &str = "-";

fn read(path: &Path) -> io::Result<Vec<u8>> {
    if path == Path::new(STDIN_NAME) {
        let mut bytes = Vec::new();
        io::stdin().lock().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}

/// Calls `each(name, bytes)` for every input in order. Errors from `each` (writing the
/// output) stop the run; errors reading an input are reported and skipped.
pub(crate) fn for_each(
    paths: &[PathBuf],
    mut each: impl FnMut(&str, &[u8]) -> io::Result<()>,
) -> io::Result<Outcome> {
    let stdin = [PathBuf::from(STDIN_NAME)];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let mut outcome = Outcome::Ok;
    for path in paths {
        let name = path.to_string_lossy();
        match read(path) {
            Ok(bytes) => each(&name, &bytes)?,
            Err(e) => {
                eprintln!("linkscan: {name}: {}", describe(&e));
                outcome = Outcome::InputErrors;
            }
        }
    }
    Ok(outcome)
}

/// An I/O error in words, without the `(os error N)` suffix.
pub(crate) fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
