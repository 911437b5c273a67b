//! Search in the browser, static: the pages say what Pagefind indexes, `search.html`
//! holds Pagefind's own search box (written by `heads`), and [`Pagefind`] runs the
//! indexer on the folder once the pages are written
//! ([`Archive::search`](super::Archive::search)).
//!
//! # Algorithm
//!
//! Only message pages are indexed: each has `data-pagefind-body` on its `body` (Pagefind
//! leaves out every page without it, so the thread, month, front and link pages, which
//! repeat the messages, are not), its navigation and thread links `data-pagefind-ignore`,
//! its subject cell `data-pagefind-meta="title"`, and a hidden paragraph that holds its
//! filters, the author (the sender's name, else the address as the page shows it) and
//! the month (`YYYY-MM` of the UTC date, or `undated`, as the month pages are named).
//! Pagefind reads only the message pages (its `--glob`), and writes its index to
//! `pagefind/` in the folder, which is removed first so that no fragment of an earlier
//! index stays; `search.html` loads `pagefind/pagefind-ui.js` and `.css` from there.
//!
//! The program is found before anything is written ([`Pagefind::find`]): the one named
//! (`--pagefind`), else the command of the `PAGEFIND` environment variable, else
//! `pagefind` on the `PATH`, else the module of a Python interpreter (`python3 -m
//! pagefind`, which `pip install 'pagefind[bin]'` installs). Each is asked its
//! `--version`, and must answer `pagefind …`.
//!
//! # Invariants
//!
//! * Without search the pages are as they were: every attribute and link here is written
//!   only with it, and the archive's options key says whether it is on, so that an
//!   update with and without it rebuilds.
//! * With [`Addresses::Obfuscate`](super::Addresses::Obfuscate) the index holds no
//!   address: it is made of the pages' text, which holds none, and the author filter is
//!   the name, or the address obfuscated as the page writes it.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::ScannedMessage;
use linkscan::html::write_escaped;

use super::date::Instant;
use super::page::{self, Style};
use super::rows::capped;

/// The folder of the index in the archive's folder (Pagefind's default).
pub const INDEX_DIR: &str = "pagefind";

/// The search page.
pub(crate) const SEARCH_PAGE: &str = "search.html";

/// What to do when no Pagefind can be found: its install command.
pub const INSTALL_HINT: &str = "install it with `pip install 'pagefind[bin]'` (it then runs as \
`python3 -m pagefind`), or name its program with --pagefind PROGRAM or PAGEFIND=PROGRAM";

/// The message pages' names, five digits or more and `.html` (no other page starts with
/// five digits: months are `YYYY-MM`).
const GLOB: &str = "[0-9][0-9][0-9][0-9][0-9]*.html";

/// The Pagefind indexer, a program and the arguments that run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pagefind {
    command: Vec<OsString>,
}

impl Pagefind {
    /// Finds Pagefind: `program` when given (a path or a name on the `PATH`), else the
    /// command of the `PAGEFIND` environment variable (split at spaces unless it names a
    /// file), else `pagefind` on the `PATH`, else `python -m pagefind` for `python` (or
    /// `python3`). The one named (argument or variable) must answer, or it is an error;
    /// none found is an error that says how to install it ([`INSTALL_HINT`]).
    pub fn find(program: Option<&OsStr>, python: Option<&OsStr>) -> Result<Pagefind, String> {
        if let Some(program) = program {
            let found = Pagefind {
                command: vec![program.to_owned()],
            };
            return found.answers().map(|()| found).map_err(|e| {
                format!(
                    "--pagefind {}: {e}; {INSTALL_HINT}",
                    program.to_string_lossy()
                )
            });
        }
        if let Some(value) = std::env::var_os("PAGEFIND").filter(|v| !v.is_empty()) {
            let command = match value.to_str() {
                Some(s) if !Path::new(s).is_file() => {
                    s.split_whitespace().map(OsString::from).collect()
                }
                _ => vec![value.clone()],
            };
            let found = Pagefind { command };
            return found
                .answers()
                .map(|()| found)
                .map_err(|e| format!("PAGEFIND={}: {e}; {INSTALL_HINT}", value.to_string_lossy()));
        }
        let python = python.unwrap_or(OsStr::new("python3"));
        for command in [
            vec![OsString::from("pagefind")],
            vec![python.to_owned(), "-m".into(), "pagefind".into()],
        ] {
            let found = Pagefind { command };
            if found.answers().is_ok() {
                return Ok(found);
            }
        }
        Err(format!(
            "search needs Pagefind, found neither `pagefind` nor `{} -m pagefind`: {INSTALL_HINT}",
            python.to_string_lossy()
        ))
    }

    /// The command, as said to people.
    pub fn command(&self) -> String {
        let words: Vec<_> = self.command.iter().map(|w| w.to_string_lossy()).collect();
        words.join(" ")
    }

    fn run(&self) -> Command {
        let mut command = Command::new(&self.command[0]);
        command.args(&self.command[1..]);
        command
    }

    /// Whether the command runs and says it is Pagefind.
    fn answers(&self) -> Result<(), String> {
        let out = self
            .run()
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {}", self.command(), described(&e)))?;
        let said = String::from_utf8_lossy(&out.stdout);
        if out.status.success() && said.trim_start().starts_with("pagefind") {
            Ok(())
        } else {
            Err(format!(
                "{} --version does not answer as Pagefind ({})",
                self.command(),
                out.status
            ))
        }
    }

    /// Indexes the message pages of the archive in `dir` into `dir/pagefind`, made anew.
    pub fn index(&self, dir: &Path) -> io::Result<()> {
        remove_index(dir)?;
        let out = self
            .run()
            .arg("--site")
            .arg(dir)
            .args(["--glob", GLOB, "--quiet"])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", self.command())))?;
        if out.status.success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&out.stderr);
        let said = said.trim();
        // The end of what it said, which names the error.
        let mut start = said.len().saturating_sub(2000);
        while !said.is_char_boundary(start) {
            start += 1;
        }
        let tail = &said[start..];
        Err(io::Error::other(format!(
            "{} failed ({}): {tail}",
            self.command(),
            out.status
        )))
    }
}

/// An I/O error in words, without the `(os error N)` that the command line cuts off
/// (with what follows it).
fn described(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Removes the index of an earlier run (`dir/pagefind`): a link there is removed, not
/// followed.
pub(crate) fn remove_index(dir: &Path) -> io::Result<()> {
    let path = dir.join(INDEX_DIR);
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    match fs::symlink_metadata(&path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(&path).map_err(named),
        Ok(_) => fs::remove_file(&path).map_err(named),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(named(e)),
    }
}

/// The link to the search page in a page's navigation, when searching.
pub(crate) fn nav_link(search: bool) -> &'static str {
    if search {
        "<a href=\"search.html\">Search</a>"
    } else {
        ""
    }
}

/// The attribute that keeps an element out of the index, when searching.
pub(crate) fn ignored(search: bool) -> &'static str {
    if search {
        " data-pagefind-ignore"
    } else {
        ""
    }
}

/// Writes the hidden filters of message `m`'s page: its author and month.
pub(crate) fn write_filters(
    m: &ScannedMessage,
    style: Style<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    let from = m.from().unwrap_or_default();
    let author = match page::name_and_address(from) {
        Some((name, _)) => style.said(name),
        None => match style.addresses {
            super::Addresses::Obfuscate => page::scrub(&page::obfuscated(from)).into_owned(),
            super::Addresses::Show => from.to_string(),
        },
    };
    let month = Instant::parse(&capped(m.date().unwrap_or_default()))
        .map_or_else(|| "undated".to_string(), |i| i.month());
    out.write_all(b"<p hidden data-pagefind-ignore><span data-pagefind-filter=\"author\">")?;
    write_escaped(&capped(&author), out)?;
    writeln!(
        out,
        "</span><span data-pagefind-filter=\"month\">{month}</span></p>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::Addresses;

    #[test]
    fn a_program_that_is_not_pagefind_is_refused_with_the_install_command() {
        for program in ["/nonexistent/pagefind", "true", "echo"] {
            let e = Pagefind::find(Some(OsStr::new(program)), None).unwrap_err();
            assert!(e.contains("pip install 'pagefind[bin]'"), "{program}: {e}");
            assert!(e.starts_with(&format!("--pagefind {program}: ")), "{e}");
            assert!(!e.contains("os error"), "{e}");
        }
    }

    #[test]
    fn the_filters_hold_no_address_when_addresses_are_obfuscated() {
        let scanner = crate::MailScanner::new();
        let linkifier = linkscan::html::Linkifier::new();
        for (from, shown, author) in [
            ("Ann Lee <ann@example.com>", Addresses::Show, "Ann Lee"),
            ("Ann Lee <ann@example.com>", Addresses::Obfuscate, "Ann Lee"),
            ("ann@example.com", Addresses::Show, "ann@example.com"),
            (
                "ann@example.com",
                Addresses::Obfuscate,
                "ann at example dot com",
            ),
            (
                "\"bo@example.org\" <b@example.org>",
                Addresses::Obfuscate,
                "bo at example dot org",
            ),
        ] {
            let m = scanner.scan(
                format!("From: {from}\nDate: Tue, 2 Jan 2024 01:00:00 +0300\n\nhi\n").as_bytes(),
            );
            let style = Style {
                linkifier: &linkifier,
                checks: false,
                addresses: shown,
            };
            let mut out = Vec::new();
            write_filters(&m, style, &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            assert!(
                out.contains(&format!("\"author\">{author}</span>")),
                "{from}: {out}"
            );
            assert!(out.contains("\"month\">2024-01</span>"), "{out}");
            if shown == Addresses::Obfuscate {
                assert!(!out.contains('@'), "{out}");
            }
        }
    }
}
