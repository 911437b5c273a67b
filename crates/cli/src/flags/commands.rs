//! The options and long help of the subcommands that are not `find` or `linkify`:
//! `escape`, `display`, `completions`, `man` and `conformance`.
//!
//! Invariant: none of these reads the shared options of [`super::common`]; each takes its
//! inputs (URLs, a shell, a folder) as given, and `conformance` builds its own finders.

use std::path::PathBuf;

use clap::Args;

/// The long help of `linkscan escape` (`--help`), after its options.
pub(super) const ESCAPE_HELP: &str = "\
Reads one URL per line from standard input when no URL is given.
With --checks, Bidi_Control characters (U+202E…) are percent-escaped too, as UTS #58
section 8 asks; the conformant algorithm of section 4.1 leaves them as they are.

Examples:
  linkscan escape 'https://example.com/%CE%B1%CE%B2%CE%B3/%CE%B4.%CE%B5%CE%B6.'
  linkscan escape https://xn--bcher-kva.de/b%C3%BCcher
  linkscan escape --checks 'https://example.com/%E2%80%AEfdp.exe'
  linkscan find --format tsv notes.txt | cut -f5 | linkscan escape";

#[derive(Args, Debug)]
pub(crate) struct EscapeArgs {
    /// URLs to format; none: one per line from standard input.
    #[arg(value_name = "URL")]
    pub(crate) urls: Vec<String>,
    /// Also percent-escape Bidi_Control characters (UTS #58 section 8).
    #[arg(long)]
    pub(crate) checks: bool,
}

/// The long help of `linkscan display` (`--help`), after its options.
pub(super) const DISPLAY_HELP: &str = "\
Each URL or email address given (or each line of standard input when none is) is printed
in its display form:
  - the path, query and fragment minimally escaped (UTS #58 section 4.1);
  - the host in Unicode, unless it is spoofable: then in Punycode. Spoofable means a
    character is not Identifier_Status=Allowed, a label mixes scripts beyond UTS #39's
    highly restrictive level, or a label's skeleton is confusable with an ASCII label;
  - every Bidi_Control character (U+202E…) percent-escaped (UTS #58 section 8);
  - an email's local part minimally quoted (section 5.3), its domain as a URL's host.
With --bidi, the link is put between LRI and PDI and each field (the text between
://, the dots of the domain, / in the path, ? = & in the query, #) between LRMs, so its
fields read left to right in right-to-left text too.
`linkscan escape` is the conformant formatter; `display` is for people.

Examples:
  linkscan display 'https://xn--bcher-kva.de/b%C3%BCcher'      https://bücher.de/bücher
  linkscan display https://xn--80ak6aa92e.com                  stays in Punycode
  linkscan display --bidi 'https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1'
  linkscan find --format tsv notes.txt | cut -f5 | linkscan display";

#[derive(Args, Debug)]
pub(crate) struct DisplayArgs {
    /// URLs and email addresses to show; none: one per line from standard input.
    #[arg(value_name = "LINK")]
    pub(crate) links: Vec<String>,
    /// Isolate each link (LRI…PDI) and each of its fields (LRM…LRM), so that its fields
    /// read left to right in any paragraph direction.
    #[arg(long)]
    pub(crate) bidi: bool,
}

/// The long help of `linkscan completions` (`--help`), after its options.
pub(super) const COMPLETIONS_HELP: &str = "\
Examples:
  linkscan completions bash > ~/.local/share/bash-completion/completions/linkscan
  linkscan completions zsh > ~/.zfunc/_linkscan
  linkscan completions fish > ~/.config/fish/completions/linkscan.fish";

#[derive(Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_name = "SHELL")]
    pub(crate) shell: clap_complete::Shell,
}

/// The long help of `linkscan man` (`--help`), after its options.
pub(super) const MAN_HELP: &str = "\
Examples:
  linkscan man | man -l -
  linkscan man > /usr/local/share/man/man1/linkscan.1
  linkscan man --out-dir /usr/local/share/man/man1     linkscan.1, linkscan-find.1, …";

#[derive(Args, Debug)]
pub(crate) struct ManArgs {
    /// Write linkscan.1 and a page per subcommand (linkscan-find.1, …) into this folder
    /// instead of printing linkscan.1.
    #[arg(long, value_name = "DIR")]
    pub(crate) out_dir: Option<PathBuf>,
}

/// The long help of `linkscan conformance` (`--help`), after its options.
pub(super) const CONFORMANCE_HELP: &str = "\
DIR holds LinkDetectionTest.txt and LinkFormattingTest.txt, the files Unicode publishes
for UTS #58 in https://www.unicode.org/Public/17.0.0/linkification/.
Default: $LINKSCAN_SHARED/unicode/17.0.0, else ../shared/unicode/17.0.0.
Exit status 1 when a case fails (known errata of the 17.0.0 formatting file excepted).

Example:
  linkscan conformance ../shared/unicode/17.0.0";

#[derive(Args, Debug)]
pub(crate) struct ConformanceArgs {
    /// Folder with LinkDetectionTest.txt and LinkFormattingTest.txt.
    #[arg(value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
    /// Print every failing case.
    #[arg(short, long)]
    pub(crate) verbose: bool,
}
