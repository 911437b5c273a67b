//! `linkscan`: find, linkify and format links as Unicode UTS #58 specifies.
//!
//! Each subcommand lives in its own module, and the command line's definition (every
//! option and help text) in [`flags`]; this file wires them: it parses the command line,
//! runs the subcommand, and holds the exit status convention (0: all inputs processed; 1:
//! `find` found no link, as grep, or `conformance` found failures; 2: an input could not
//! be read or an argument was wrong, which wins over 1; `find -q` exits 0 once a link is
//! found), and the handling of a closed standard output (a pipe into `head` ends the
//! program quietly).

#![forbid(unsafe_code)]

#[cfg(feature = "mail")]
mod archive;
mod conformance;
mod display;
mod escape;
mod files;
mod find;
mod flags;
mod input;
mod lines;
mod linkify;
#[cfg(feature = "mail")]
mod mail;
mod records;
mod redact;
mod render;
mod shell;
mod terminal;
mod walk;
mod words;

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use flags::Command;
pub(crate) use flags::{
    Cli, CompletionsArgs, ConformanceArgs, DisplayArgs, EscapeArgs, FindArgs, LinkifyArgs,
};

/// The allocator of the tool alone (the library leaves the choice to its user); see the
/// `mimalloc` line of `Cargo.toml` for why.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How a subcommand ended, before it becomes an exit status.
pub(crate) enum Outcome {
    /// Everything was processed.
    Ok,
    /// Some inputs could not be read (already reported on stderr).
    InputErrors,
    /// A check failed (conformance).
    Failed,
    /// `find` read every input and found no link (grep's exit status 1).
    NotFound,
}

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    if let Command::Find(args) = &mut cli.command {
        args.settle();
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let result = match &cli.command {
        Command::Find(args) if args.records.field.is_some() => {
            args.finder().map_err(usage_error).and_then(|finder| {
                args.detect.start_threads()?;
                let field = args.records.field.as_ref().expect("checked by the guard");
                records::find(args, field, &finder, &mut out)
            })
        }
        #[cfg(feature = "mail")]
        Command::Find(args) if args.mail.archives() => args
            .walk
            .refuse("--mbox and --maildir")
            .and_then(|()| args.finder())
            .map_err(usage_error)
            .and_then(|finder| {
                args.detect.start_threads()?;
                mail::find(args, args.mail.scanner(finder, "https://", false), &mut out)
            }),
        Command::Find(args) => args
            .check_plain()
            .and_then(|()| args.finder())
            .map_err(usage_error)
            .and_then(|finder| {
                args.detect.start_threads()?;
                // No input and a terminal on stdin: the current folder, as ripgrep.
                let here = args.files.is_empty() && io::stdin().is_terminal();
                let inputs = if here {
                    vec![PathBuf::from(".")]
                } else {
                    args.files.clone()
                };
                let walk::Walked {
                    mut files,
                    any_directory,
                    named,
                    outcome: walked,
                } = walk::expand(&inputs, &args.walk)?;
                if here {
                    // Named as ripgrep names them: `notes.txt`, not `./notes.txt`.
                    for file in &mut files {
                        if let Ok(rest) = file.strip_prefix(".") {
                            *file = rest.to_path_buf();
                        }
                    }
                }
                if files.is_empty() && !inputs.is_empty() {
                    // Only empty or ignored directories: nothing to read (not stdin).
                    return Ok(match walked {
                        Outcome::Ok => Outcome::NotFound,
                        walked => walked,
                    });
                }
                Ok(
                    match (
                        find::run(args, &files, &named, any_directory, &finder, &mut out)?,
                        walked,
                    ) {
                        // -q: a link found wins over errors, as grep -q.
                        (Outcome::Ok, _) if args.quiet => Outcome::Ok,
                        (_, Outcome::InputErrors) => Outcome::InputErrors,
                        (outcome, _) => outcome,
                    },
                )
            }),
        #[cfg(feature = "mail")]
        Command::Linkify(args) if args.mail.archives() && args.standalone => Err(usage_error(
            "--standalone is for a single page; --mbox and --maildir write a whole archive \
             with --out"
                .into(),
        )),
        #[cfg(feature = "mail")]
        Command::Linkify(args) if args.mail.archives() => args
            .walk
            .refuse("--mbox and --maildir")
            .and_then(|()| args.check_out_folder())
            .and_then(|()| args.finder())
            .and_then(|finder| Ok((args.linkifier(&finder)?, finder)))
            .map_err(usage_error)
            .and_then(|(linkifier, finder)| {
                args.detect.start_threads()?;
                let scanner = args.mail.scanner(finder, &args.default_scheme, true);
                archive::run(args, scanner, linkifier)
            }),
        Command::Linkify(args) if args.out.is_some() => Err(usage_error(
            "--out is for HTML archives of --mbox or --maildir inputs".into(),
        )),
        Command::Linkify(args) => args
            .check_plain()
            .and_then(|()| args.finder())
            .and_then(|finder| Ok((args.linkifier(&finder)?, finder)))
            .map_err(usage_error)
            .and_then(|(linkifier, finder)| {
                args.detect.start_threads()?;
                // Directories are walked as `find` walks them.
                let walk::Walked {
                    files,
                    named,
                    outcome,
                    ..
                } = walk::expand(&args.files, &args.walk)?;
                if files.is_empty() && !args.files.is_empty() {
                    return Ok(outcome);
                }
                Ok(
                    match (
                        linkify::run(args, &files, &named, linkifier, finder, &mut out)?,
                        outcome,
                    ) {
                        (_, Outcome::InputErrors) => Outcome::InputErrors,
                        (linked, _) => linked,
                    },
                )
            }),
        Command::Redact(args) => args.finder().map_err(usage_error).and_then(|finder| {
            args.detect.start_threads()?;
            redact::run(args, &finder, &mut out)
        }),
        Command::Escape(args) => escape::run(args, &mut out),
        Command::Display(args) => display::run(args, &mut out),
        Command::Conformance(args) => conformance::run(args, &mut out),
        Command::Completions(args) => shell::completions(args, &mut out),
        Command::Man(args) => match &args.out_dir {
            Some(dir) => shell::man_pages(dir),
            None => shell::man(&mut out),
        },
    };
    let result = result.and_then(|outcome| out.flush().map(|()| outcome));
    match result {
        Ok(Outcome::Ok) => ExitCode::SUCCESS,
        Ok(Outcome::Failed | Outcome::NotFound) => ExitCode::from(1),
        Ok(Outcome::InputErrors) => ExitCode::from(2),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            crate::warn!("linkscan: {}", input::describe(&e));
            ExitCode::from(2)
        }
    }
}

fn usage_error(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}
