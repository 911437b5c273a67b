//! The options of `linkscan find`, its output formats and its long help.
//!
//! Invariant: a combination of options that can be judged from the flags alone is refused
//! by clap (`requires`, `conflicts_with_all`) before anything runs; those that depend on a
//! value (`--checks` or `-n` with `--format marked`) are refused by `crate::find::run`,
//! and archive-only options on plain inputs by [`FindArgs::check_plain`], before any input
//! is read.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use linkscan::LinkFinder;

use super::common::{DetectArgs, PolicyChoice};
use super::walk::WalkArgs;

/// The long help of `linkscan find` (`--help`), after its options.
pub(super) const FIND_HELP: &str = "\
Output formats:
  jsonl   {\"file\",\"start\",\"end\",\"kind\",\"text\"} per link; offsets are bytes from the
          start of that input, kind is \"url\" or \"email\"
  tsv     file, start, end, kind, text separated by tabs
  marked  the input with ⸠ and ⸡ around each link (the official test file's format)

With --checks, each link also gets the security checks of UTS #58 section 8 that it
fails: a \"checks\" array in jsonl (empty when it passes all), a last column in tsv
(names joined by commas, empty when it passes all). The checks are
  tld_syntax         the TLD is not syntactically valid (digits, hyphens, one letter…)
  identifier_status  a host character is not Identifier_Status=Allowed (UTS #39)
  bidi_control       the link holds a Bidi_Control character (U+202E…)
  spoof              the host is spoofable: display and linkify show it in Punycode
                     (a character not Allowed, mixed scripts, or confusable with ASCII)
  invisible          an invisible character (Default_Ignorable_Code_Point: soft hyphen,
                     zero-width space…) is in the link or right before it
Detection itself is not changed: every link is still reported.
find reports what UTS #58 detects (--policy conformant) unless --policy readable is given.

Control characters (C0, DEL, C1) and Bidi_Control characters (U+202E…) never reach the
terminal raw: jsonl writes them \\uXXXX, tsv and -o as \\xHH (C0, DEL) or \\uXXXX (the
others), as tsv writes a tab \\t; warnings on stderr are escaped the same way.
Invalid UTF-8 is scanned as bytes (it never belongs to a link), not rejected.
Exit status (as grep's): 0 when a link was found, 1 when none was, 2 when an input could
not be read (the others are still processed) or an argument was wrong; 2 wins over 1.
With -q, nothing is printed and the run stops at the first link (exit 0, whatever else).
-o prints the text of each link alone, one per line.
-c prints the number of links; with several inputs one FILE:N line per input that has a
link (--include-zero: every input). -l prints the names of the inputs with a link,
--files-without-match those without one (exit 0 when it prints one).

Directories are walked as ripgrep walks them: recursively, .gitignore respected, hidden
files skipped (--hidden), binary files skipped with a note; --no-ignore, -g/--glob and
-t/--type as in ripgrep.

Mail archives (--mbox FILE..., plain or gzip; --maildir DIR...): each message is parsed,
its transfer encodings and charsets decoded, and its Subject, text/plain parts and the
text of its text/html parts scanned (links in href attributes too, with \"source\":\"href\").
  jsonl   {\"file\",\"message\",\"message_id\",\"part\",\"content_type\",\"source\",\"start\",
          \"end\",\"kind\",\"text\",\"href\"} per link; message counts from 1 in its archive,
          part is \"subject\" or the MIME path (1, 2.1, …), offsets are bytes of the decoded
          part text, href is the link as put in <a href>
  tsv     the same fields, in that order, separated by tabs
Warnings (broken MIME, unknown charsets, …) and a summary go to stderr; a progress bar
too when stderr is a terminal (not with --no-progress, which drops the summary as well).

Examples:
  linkscan find notes.txt
  linkscan find --format tsv --kind url *.txt
  linkscan find --checks --format tsv notes.txt
  linkscan find -o -n .                        every link of a project, with its line
  linkscan find -l -t md .                     the Markdown files that have a link
  if linkscan find -q notes.txt; then echo has links; fi
  zcat archive.gz | linkscan find --count
  linkscan find --mbox -j 2 list.mbox.gz > links.jsonl
  linkscan find --maildir --count ~/Maildir";

/// The output formats of `find`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// One JSON object per link.
    Jsonl,
    /// Tab-separated: file, start, end, kind, text (and with --checks, the failed checks).
    Tsv,
    /// The input with ⸠ and ⸡ around each link.
    Marked,
}

#[derive(Args, Debug)]
pub(crate) struct FindArgs {
    /// Files to scan; `-` or none: standard input.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub(crate) format: Format,
    /// Print only the number of links (per file when there are several, as `FILE:N`).
    #[arg(short, long)]
    pub(crate) count: bool,
    /// With --count and several inputs: also print the inputs without a link (`FILE:0`).
    #[arg(long, requires = "count")]
    pub(crate) include_zero: bool,
    /// Print only the names of the inputs that have a link, one per line (grep -l).
    #[arg(
        short = 'l',
        long,
        conflicts_with_all = ["count", "quiet", "only_matching", "format", "checks", "line_number", "column"]
    )]
    pub(crate) files_with_matches: bool,
    /// Print only the names of the inputs without a link, one per line (grep -L); exit 0
    /// when one is printed.
    #[arg(
        long,
        conflicts_with_all = ["files_with_matches", "count", "quiet", "only_matching", "format", "checks", "line_number", "column"]
    )]
    pub(crate) files_without_match: bool,
    /// Print nothing; exit 0 as soon as a link is found, 1 when there is none (grep -q).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Print only the text of each link, one per line.
    #[arg(short = 'o', long, conflicts_with_all = ["count", "format", "checks"])]
    pub(crate) only_matching: bool,
    /// Add the line number of each link (from 1): a "line" field in jsonl, a column after
    /// end in tsv, `LINE:` before the text with -o. Plain text inputs only.
    #[arg(short = 'n', long)]
    pub(crate) line_number: bool,
    /// Add the column of each link (from 1, in characters): a "column" field in jsonl, a
    /// column after end (and line) in tsv, `COLUMN:` before the text with -o. Plain text
    /// inputs only.
    #[arg(long)]
    pub(crate) column: bool,
    /// Add the security checks of UTS #58 section 8 that each link fails (jsonl, tsv).
    #[arg(long, conflicts_with = "count")]
    pub(crate) checks: bool,
    #[command(flatten)]
    pub(crate) detect: DetectArgs,
    #[command(flatten)]
    pub(crate) walk: WalkArgs,
    #[cfg(feature = "mail")]
    #[command(flatten)]
    pub(crate) mail: crate::mail::MailArgs,
}

impl FindArgs {
    /// The finder of these options: `--policy conformant` unless another is given.
    pub(crate) fn finder(&self) -> Result<LinkFinder, String> {
        self.detect.finder(PolicyChoice::Conformant)
    }

    /// Refuses archive-only options on plain inputs (see `MailArgs::check_plain`).
    #[cfg(feature = "mail")]
    pub(crate) fn check_plain(&self) -> Result<(), String> {
        self.mail.check_plain()
    }

    /// Without archives, every option is one of plain inputs.
    #[cfg(not(feature = "mail"))]
    pub(crate) fn check_plain(&self) -> Result<(), String> {
        Ok(())
    }
}
