//! Directories given as inputs, walked as ripgrep walks them, with ripgrep's own `ignore`
//! crate: recursively, `.ignore` files and, inside a git repository, `.gitignore` files
//! (and the global and `.git/info/exclude` ones) respected, hidden files and folders
//! skipped, unless `--hidden`, `--no-ignore` or `--no-require-git` (`.gitignore` files in
//! any folder); `-g/--glob` and `-t/--type` choose files as in ripgrep.
//!
//! Invariants: an input that is not a directory (a file, `-`) is kept as given, in its
//! place; a directory is replaced by its files, sorted by path, so the output is the same
//! on every run. A file found by walking whose first 8 KiB hold a NUL byte is binary
//! (ripgrep's test): it is skipped quietly, as ripgrep skips it, unless `--binary`. (A
//! binary input named on the command line is scanned and noted once on stderr, by the
//! readers: see [`crate::input::warn_binary`].) An entry that cannot be read while walking
//! is reported and counted as an input error.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use ignore::overrides::OverrideBuilder;
use ignore::types::TypesBuilder;
use ignore::WalkBuilder;

use crate::flags::WalkArgs;
use crate::input::SNIFF;
use crate::render::Name;
use crate::Outcome;

/// The inputs after walking.
pub(crate) struct Walked {
    /// The files, in order.
    pub(crate) files: Vec<PathBuf>,
    /// Whether a directory was walked (its files are then named in the output, as ripgrep
    /// names them, however many there are).
    pub(crate) any_directory: bool,
    /// Which of `files` were named on the command line (not found by walking): a binary
    /// one of those is noted on stderr when it is read.
    pub(crate) named: Vec<bool>,
    /// `InputErrors` when something could not be read while walking.
    pub(crate) outcome: Outcome,
}

/// `paths` with each directory replaced by its files (see the module documentation).
pub(crate) fn expand(paths: &[PathBuf], args: &WalkArgs) -> io::Result<Walked> {
    let mut files = Vec::with_capacity(paths.len());
    let mut named = Vec::with_capacity(paths.len());
    let mut outcome = Outcome::Ok;
    let mut walked_any = false;
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            named.push(true);
            continue;
        }
        walked_any = true;
        let mut builder = WalkBuilder::new(path);
        builder
            .hidden(!args.hidden)
            .ignore(!args.no_ignore)
            .git_ignore(!args.no_ignore)
            .git_global(!args.no_ignore)
            .git_exclude(!args.no_ignore)
            .parents(!args.no_ignore)
            .require_git(!args.no_require_git)
            .sort_by_file_path(|a, b| a.cmp(b));
        if !args.globs.is_empty() {
            let mut overrides = OverrideBuilder::new(path);
            for glob in &args.globs {
                overrides
                    .add(glob)
                    .map_err(|e| invalid(format!("--glob {glob}: {e}")))?;
            }
            builder.overrides(overrides.build().map_err(|e| invalid(e.to_string()))?);
        }
        if !args.types.is_empty() {
            let mut types = TypesBuilder::new();
            types.add_defaults();
            for name in &args.types {
                types.select(name);
            }
            builder.types(types.build().map_err(|e| invalid(format!("--type: {e}")))?);
        }
        for entry in builder.build() {
            match entry {
                Ok(entry) if entry.file_type().is_some_and(|t| t.is_file()) => {
                    let file = entry.into_path();
                    match if args.binary {
                        Ok(false)
                    } else {
                        is_binary(&file)
                    } {
                        Ok(false) => {
                            files.push(file);
                            named.push(false);
                        }
                        // Skipped quietly, as ripgrep skips it.
                        Ok(true) => {}
                        Err(e) => {
                            crate::warn!(
                                "linkscan: {}: {}",
                                Name::new(file.as_os_str()).text,
                                crate::input::describe(&e)
                            );
                            outcome = Outcome::InputErrors;
                        }
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    crate::warn!("linkscan: {e}");
                    outcome = Outcome::InputErrors;
                }
            }
        }
    }
    if !walked_any && args.given() {
        return Err(invalid(
            "--hidden, --no-ignore, --glob and --type are for directories among the inputs".into(),
        ));
    }
    Ok(Walked {
        files,
        any_directory: walked_any,
        named,
        outcome,
    })
}

/// Whether the first [`SNIFF`] bytes of `path` hold a NUL byte.
fn is_binary(path: &Path) -> io::Result<bool> {
    let mut head = Vec::with_capacity(SNIFF);
    std::fs::File::open(path)?
        .take(SNIFF as u64)
        .read_to_end(&mut head)?;
    Ok(crate::input::starts_binary(&head))
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}
