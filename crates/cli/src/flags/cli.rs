//! The top of the command line: [`Cli`], the subcommands ([`Command`]), the examples of
//! `linkscan --help` and the text of `--version`.
//!
//! Invariant: each subcommand's long help (`after_long_help`) is a constant of the module
//! that holds its options, so the text of a subcommand's help lives beside its flags; the
//! order of the variants here is the order of the subcommands in `--help`, the
//! completions and the man pages.

use clap::{Parser, Subcommand};
use linkscan::TldSet;

use super::commands::{self, CompletionsArgs, ConformanceArgs, DisplayArgs, EscapeArgs, ManArgs};
use super::find::{self, FindArgs};
use super::linkify::{self, LinkifyArgs};
use super::redact::{self, RedactArgs};

const EXAMPLES: &str = "\
Examples:
  linkscan find notes.txt                      LINE:COLUMN: LINK per link
  linkscan find                                the links of the current folder
  linkscan find --json notes.txt               one JSON object per link
  linkscan find --format tsv *.txt             file, start, end, kind, text
  linkscan find --format marked notes.txt      the text with ⸠links⸡ marked
  cat mail.txt | linkscan find --count         how many links
  linkscan find --tld-policy syntactic -       any well-formed TLD, stdin
  linkscan linkify notes.txt > notes.html      HTML with <a href> links
  linkscan redact notes.txt                    the text with <URL> and <EMAIL>
  linkscan find --mbox list.mbox.gz            links of a mail archive, per message
  linkscan linkify --mbox list.mbox --out web  an HTML page per message, and an index
  linkscan escape 'https://example.com/%CE%B1%CE%B2(x))'
  linkscan find --checks notes.txt             with the security checks of section 8
  linkscan conformance ../shared/unicode/17.0.0";

/// Find URLs and email addresses in plain text exactly as Unicode UTS #58 specifies.
#[derive(Parser, Debug)]
#[command(name = "linkscan", version = version_text(), about, after_long_help = EXAMPLES)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Print the links found in files (or standard input).
    #[command(after_long_help = find::FIND_HELP)]
    Find(FindArgs),
    /// Write the text as HTML with every link wrapped in `<a href="…">`.
    #[command(after_long_help = linkify::LINKIFY_HELP)]
    Linkify(LinkifyArgs),
    /// Write the text with every link replaced (`<URL>`, `<EMAIL>` or a template) and
    /// every other byte kept.
    #[command(after_long_help = redact::REDACT_HELP)]
    Redact(RedactArgs),
    /// Print URLs minimally escaped (UTS #58 section 4.1), one per line.
    #[command(after_long_help = commands::ESCAPE_HELP)]
    Escape(EscapeArgs),
    /// Print links as people should see them: minimally escaped, hosts in Unicode unless
    /// spoofable, Bidi_Control characters escaped; with --bidi, fields left to right.
    #[command(after_long_help = commands::DISPLAY_HELP)]
    Display(DisplayArgs),
    /// Print the completion script of a shell (bash, zsh, fish, elvish, powershell).
    #[command(after_long_help = commands::COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Print the man page linkscan(1) in roff, or write a page per subcommand to a folder.
    #[command(after_long_help = commands::MAN_HELP)]
    Man(ManArgs),
    /// Run the official conformance files of a Unicode data folder and print the counts.
    #[command(after_long_help = commands::CONFORMANCE_HELP)]
    Conformance(ConformanceArgs),
}

/// What `--version` prints after the name: the crate's version and the data built in (the
/// Unicode version, the IANA TLD list's version and date), and how to use a fresher list.
fn version_text() -> &'static str {
    static TEXT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "{}\nUnicode {}\nIANA TLD list: {} ({} TLDs; a newer one with --tld-list FILE or \
             LINKSCAN_TLD_LIST=FILE)",
            env!("CARGO_PKG_VERSION"),
            linkscan::UNICODE_VERSION,
            linkscan::TLD_LIST_VERSION,
            TldSet::iana().len(),
        )
    });
    TEXT.as_str()
}
