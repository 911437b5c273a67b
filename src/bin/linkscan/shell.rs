//! `linkscan completions SHELL` and `linkscan man`: the shell completion script and the
//! man page, both generated from the clap definition of the command line.
//!
//! Invariant: nothing here is written by hand. Both outputs are rendered from
//! [`crate::Cli::command`], so a flag added to the command line appears in the completions
//! and the man page of the next build without further change.

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
/// options, and the examples of `--help`.
pub(crate) fn man(out: &mut impl Write) -> io::Result<Outcome> {
    let command = Cli::command();
    clap_mangen::Man::new(command).render(out)?;
    Ok(Outcome::Ok)
}

/// Writes `linkscan.1` and a page per subcommand (`linkscan-find.1`, …) into `dir`.
pub(crate) fn man_pages(dir: &std::path::Path) -> io::Result<Outcome> {
    clap_mangen::generate_to(Cli::command(), dir).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("{}: {}", dir.display(), crate::input::describe(&e)),
        )
    })?;
    Ok(Outcome::Ok)
}
