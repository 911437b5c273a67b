//! `linkscan completions SHELL` and `linkscan man`: the shell completion script and the
//! man page, both generated from the clap definition of the command line.
//!
//! Invariant: nothing here is written by hand. Both outputs are rendered from
//! [`crate::Cli::command`], so a flag added to the command line appears in the completions
//! and the man page of the next build without further change.
//!
//! `linkscan man` prints one page that `man -l -` reads as a whole: clap_mangen's page of
//! the top command (which lists the subcommands by name only), followed by a section per
//! subcommand (`LINKSCAN FIND`, …) holding its synopsis, description, options and
//! examples, clap_mangen's own sections of that subcommand demoted to subsections.
//!
//! Every page's title line (`.TH`) names the program and its plain version
//! (`linkscan 0.1.0`) as its source, on one line: clap_mangen would put the whole of
//! `--version` there (three lines, with the Unicode and TLD list versions), and a
//! subcommand's name where a subcommand page's version belongs ([`page`]).

use std::io::{self, Write};

use clap::CommandFactory;

use crate::{Cli, CompletionsArgs, Outcome};

/// Writes the completion script of `args.shell` for `linkscan`.
pub(crate) fn completions(args: &CompletionsArgs, out: &mut impl Write) -> io::Result<Outcome> {
    let mut command = Cli::command();
    clap_complete::generate(args.shell, &mut command, "linkscan", out);
    Ok(Outcome::Ok)
}

/// Writes the man page `linkscan(1)` in roff: the synopsis, every subcommand with its
/// options, and the examples of `--help` (see the module documentation).
pub(crate) fn man(out: &mut impl Write) -> io::Result<Outcome> {
    let mut command = Cli::command().disable_help_subcommand(true);
    // Sets each subcommand's name in usage lines (`linkscan find`).
    command.build();
    let top = page(command.clone());
    let mut page = Vec::new();
    top.render_title(&mut page)?;
    top.render_name_section(&mut page)?;
    top.render_synopsis_section(&mut page)?;
    top.render_description_section(&mut page)?;
    top.render_options_section(&mut page)?;
    top.render_subcommands_section(&mut page)?;
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let name = sub.get_bin_name().unwrap_or(sub.get_name()).to_uppercase();
        writeln!(page, ".SH \"{name}\"")?;
        let man = clap_mangen::Man::new(sub.clone());
        let mut section = Vec::new();
        man.render_synopsis_section(&mut section)?;
        man.render_description_section(&mut section)?;
        man.render_options_section(&mut section)?;
        if sub.get_after_long_help().is_some() {
            man.render_extra_section(&mut section)?;
        }
        page.extend_from_slice(&demote(&section));
    }
    top.render_extra_section(&mut page)?;
    top.render_version_section(&mut page)?;
    out.write_all(&page)?;
    Ok(Outcome::Ok)
}

/// `roff` with its section headings (`.SH`) made subsection headings (`.SS`), and without
/// the string definitions that every clap_mangen rendering starts with (the page's title
/// rendering has made them once).
fn demote(roff: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(roff.len());
    for line in roff.split_inclusive(|&b| b == b'\n') {
        if line.starts_with(b".ie \\n(.g .ds Aq") || line.starts_with(b".el .ds Aq") {
            continue;
        }
        match line.strip_prefix(b".SH ") {
            Some(heading) => {
                out.extend_from_slice(b".SS ");
                out.extend_from_slice(heading);
            }
            None => out.extend_from_slice(line),
        }
    }
    out
}

/// The page of `command` (the top command or a subcommand), its title line's source the
/// program's name and plain version (see the module documentation).
fn page(command: clap::Command) -> clap_mangen::Man {
    clap_mangen::Man::new(command).source(format!("linkscan {}", env!("CARGO_PKG_VERSION")))
}

/// Writes `linkscan.1` and a page per subcommand (`linkscan-find.1`, …) into `dir`, as
/// `clap_mangen::generate_to` does, with the title line of [`page`].
pub(crate) fn man_pages(dir: &std::path::Path) -> io::Result<Outcome> {
    fn generate(command: &clap::Command, dir: &std::path::Path) -> io::Result<()> {
        for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
            generate(sub, dir)?;
        }
        page(command.clone()).generate_to(dir)?;
        Ok(())
    }
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    generate(&command, dir).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("{}: {}", dir.display(), crate::input::describe(&e)),
        )
    })?;
    Ok(Outcome::Ok)
}
