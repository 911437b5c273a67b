//! The options that choose how directories among the inputs are walked (`--hidden`,
//! `--no-ignore`, `--no-require-git`, `--binary`, `-g/--glob`, `-t/--type`), shared by `find` and `linkify`; the walk
//! itself is `crate::walk`.
//!
//! Invariant: these options only apply to directories; inputs that are not walked (the
//! archives of `--mbox` and `--maildir`) refuse them ([`WalkArgs::refuse`]) rather than
//! ignore them.

use clap::Args;

/// How directories among the inputs are walked.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct WalkArgs {
    /// In directories: also read hidden files and folders (names starting with a dot).
    #[arg(long)]
    pub(crate) hidden: bool,
    /// In directories: do not respect .gitignore, .ignore and the other ignore files.
    #[arg(long)]
    pub(crate) no_ignore: bool,
    /// In directories: respect .gitignore files outside git repositories too (by default
    /// they apply only inside one, as in ripgrep).
    #[arg(long)]
    pub(crate) no_require_git: bool,
    /// In directories: also scan binary files (a NUL byte in the first 8 KiB), as text;
    /// by default they are skipped quietly. A binary file named as an input is always
    /// scanned.
    #[arg(long)]
    pub(crate) binary: bool,
    /// In directories: read only files matching GLOB (gitignore syntax; `!GLOB` excludes);
    /// may be repeated.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub(crate) globs: Vec<String>,
    /// In directories: read only files of TYPE (ripgrep's types: md, html, rust, …); may
    /// be repeated.
    #[arg(short = 't', long = "type", value_name = "TYPE")]
    pub(crate) types: Vec<String>,
}

impl WalkArgs {
    /// Whether any option asks for something that only applies to directories (but
    /// `--binary`, which says nothing new of an input named: that one is scanned anyway).
    pub(crate) fn given(&self) -> bool {
        self.hidden
            || self.no_ignore
            || self.no_require_git
            || !self.globs.is_empty()
            || !self.types.is_empty()
    }

    /// Refuses these options for inputs that are not walked (`what`).
    #[cfg(feature = "mail")]
    pub(crate) fn refuse(&self, what: &str) -> Result<(), String> {
        if self.given() {
            Err(format!(
                "--hidden, --no-ignore, --no-require-git, --glob and --type do not apply to \
                 {what} inputs"
            ))
        } else {
            Ok(())
        }
    }
}
