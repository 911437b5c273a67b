//! The command line's definition: every argument, option, subcommand and help text of
//! `linkscan`, as clap derive types, and the checks and builders that turn options into
//! the engine's values (a [`LinkFinder`](linkscan::LinkFinder), a
//! [`Linkifier`](linkscan::html::Linkifier)).
//!
//! - [`cli`]: the top command, its subcommands, the examples and the version text;
//! - [`common`]: what counts as a link (kinds, TLDs, policy, length) and the threads,
//!   shared by `find` and `linkify`;
//! - [`walk`]: how directories among the inputs are walked, shared likewise;
//! - [`find`], [`linkify`], [`redact`]: the options of those subcommands and their long
//!   help;
//! - [`records`]: `--field` and its options, for records of JSON Lines and Parquet;
//! - [`mail`]: the HTML archive's options of `linkify`, with the `mail` feature only (the
//!   archive readers' own options, `--mbox` and the like, are `crate::mail::MailArgs`);
//! - [`commands`]: the options of the other subcommands.
//!
//! Invariant: what the user sees of the command line (`--help`, the completions, the man
//! pages) is rendered by clap from these types alone, so a doc comment or attribute here
//! is the text of the help; the subcommands' modules read the parsed values and define
//! none of them (but the archive readers' options, which live with the archive code).

mod cli;
mod commands;
mod common;
mod find;
mod linkify;
#[cfg(feature = "mail")]
mod mail;
mod records;
mod redact;
mod walk;

pub(crate) use self::cli::{Cli, Command};
pub(crate) use self::commands::{CompletionsArgs, ConformanceArgs, DisplayArgs, EscapeArgs};
pub(crate) use self::find::{FindArgs, Format};
pub(crate) use self::linkify::LinkifyArgs;
pub(crate) use self::records::FieldPath;
pub(crate) use self::redact::RedactArgs;
pub(crate) use self::walk::WalkArgs;
