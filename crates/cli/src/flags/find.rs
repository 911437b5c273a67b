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
use super::records::{FieldPath, RecordArgs};
use super::walk::WalkArgs;

/// The long help of `linkscan find` (`--help`), after its options.
pub(super) const FIND_HELP: &str = "\
Output formats:
  text    the default, for people: FILE:LINE:COLUMN: LINK per link; the file name is
          shown when several files or a folder are searched, or with -H/--with-filename,
          and hidden with -I/--no-filename (standard input has no name: `-` with -H);
          LINE counts from 1, COLUMN from 1 in characters
  jsonl   {\"file\",\"start\",\"end\",\"kind\",\"text\"} per link; offsets are bytes from the
          start of that input, kind is \"url\" or \"email\" (--json is --format jsonl)
  tsv     file, start, end, kind, text separated by tabs
  marked  the input with ⸠ and ⸡ around each link (the official test file's format)
Programs should ask for --json (or --format tsv): the text format may change.
In the text format the link is coloured by its kind on a terminal (URLs blue, email
addresses yellow; the file name magenta, the line and column green): --color never,
always or auto (the default: on a terminal, unless NO_COLOR is set and not empty).
-n and --column add nothing to it (LINE:COLUMN is always there).

With --checks, each link also gets the security checks of UTS #58 section 8 that it
fails: a \"checks\" array in jsonl (empty when it passes all), a last column in tsv
(names joined by commas, empty when it passes all), `  [fails: NAME,…]` after the link
in text (nothing when it passes all). The checks are
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
terminal raw: jsonl writes them \\uXXXX, text, tsv and -o as \\xHH (C0, DEL) or \\uXXXX
(the others), as tsv writes a tab \\t; warnings on stderr are escaped the same way.
Invalid UTF-8 is scanned as bytes (it never belongs to a link), not rejected.
Exit status (as grep's): 0 when a link was found, 1 when none was, 2 when an input could
not be read (the others are still processed) or an argument was wrong; 2 wins over 1.
With -q, nothing is printed and the run stops at the first link (exit 0, whatever else).
-o prints the text of each link alone, one per line (after FILE: when file names are
shown, as in text; -n and --column add LINE: and COLUMN: before it).
-c prints the number of links; with several inputs one FILE:N line per input that has a
link (--include-zero: every input). -l prints the names of the inputs with a link,
--files-without-match those without one (exit 0 when it prints one).

With no FILE, standard input is read, unless it is a terminal: then the current folder
is searched, as ripgrep does (its files named without ./).
Directories are walked as ripgrep walks them: recursively, hidden files skipped
(--hidden), .gitignore files respected inside a git repository (--no-require-git: in any
folder; --no-ignore: never), binary files (a NUL byte in the first 8 KiB) skipped
quietly (--binary: scanned as text); -g/--glob and -t/--type as in ripgrep. A binary
file named on the command line (or standard input) is scanned, with one note on stderr.

Mail archives (--mbox FILE..., plain or gzip; --maildir DIR...): each message is parsed,
its transfer encodings and charsets decoded, and its Subject, text/plain parts and the
text of its text/html parts scanned (links in href attributes too, with \"source\":\"href\").
  text    [FILE:]MESSAGE/PART: LINK per link, MESSAGE the message's number in its archive
          (from 1), PART \"subject\" or the MIME path (1, 2.1, …); a link of an href
          attribute is followed by \" (href)\"
  jsonl   {\"file\",\"message\",\"message_id\",\"part\",\"content_type\",\"source\",\"start\",
          \"end\",\"kind\",\"text\",\"href\"} per link; message counts from 1 in its archive,
          part is \"subject\" or the MIME path (1, 2.1, …), offsets are bytes of the decoded
          part text, href is the link as put in <a href>
  tsv     the same fields, in that order, separated by tabs
Warnings (broken MIME, unknown charsets, …) and a summary go to stderr; a progress bar
too when stderr is a terminal (not with --no-progress, which drops the summary as well).

Records (--field NAME): JSON Lines files (plain or gzip, detected by content; standard
input too) and Parquet files (by their PAR1 signature) are read as records, and only the
string NAME of each record is scanned; a dotted NAME (meta.body) is a nested field (a
struct column in Parquet). RECORD counts from 0 in each file: the line of JSON Lines
(a blank line is no record but is counted), the row of Parquet. --id-field NAME adds that
field's value (null when missing).
  text    [FILE:]#RECORD:START: LINK per link ([FILE:]#RECORD:ID:START: with --id-field)
  jsonl   {\"file\",\"record\"[,\"id\"],\"start\",\"end\",\"kind\",\"text\"} per link
  tsv     file, record, [id,] start, end, kind, text
START and END are byte offsets in the field's text (its UTF-8 bytes, escapes decoded).
A record that is not a JSON object, lacks the field or whose value is not a string (null
included) gets a warning with its number on stderr and is skipped; the exit status is
then 2. -c counts the links per file. Parquet: snappy, gzip, zstd, lz4 or uncompressed.

Examples:
  linkscan find notes.txt                      notes.txt's links, LINE:COLUMN: LINK
  linkscan find                                every link of the current folder
  linkscan find --json notes.txt               one JSON object per link
  linkscan find --format tsv --kind url *.txt
  linkscan find --checks --format tsv notes.txt
  linkscan find -o -n .                        every link of a project, with its line
  linkscan find -l -t md .                     the Markdown files that have a link
  if linkscan find -q notes.txt; then echo has links; fi
  zcat archive.gz | linkscan find --count
  linkscan find --field text --id-field id --json posts.jsonl.gz
  linkscan find --mbox --json -j 2 list.mbox.gz > links.jsonl
  linkscan find --maildir --count ~/Maildir";

/// The output formats of `find`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// For people: `FILE:LINE:COLUMN: LINK` per link (the default).
    Text,
    /// One JSON object per link.
    Jsonl,
    /// Tab-separated: file, start, end, kind, text (and with --checks, the failed checks).
    Tsv,
    /// The input with ⸠ and ⸡ around each link.
    Marked,
}

#[derive(Args, Debug)]
pub(crate) struct FindArgs {
    /// Files and folders to scan; `-`: standard input; none: standard input, or the
    /// current folder when standard input is a terminal.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Output format (see below); the default, text, is for people.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// JSON lines, one object per link: the same as --format jsonl.
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
    /// Show the file name before each link (text and -o), even for a single input.
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub(crate) with_filename: bool,
    /// Never show the file name before each link (text and -o).
    #[arg(short = 'I', long, overrides_with = "with_filename")]
    pub(crate) no_filename: bool,
    /// When to colour the text format: auto (on a terminal, unless NO_COLOR is set and
    /// not empty), always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
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
        conflicts_with_all = ["count", "quiet", "only_matching", "format", "json", "checks", "line_number", "column"]
    )]
    pub(crate) files_with_matches: bool,
    /// Print only the names of the inputs without a link, one per line (grep -L); exit 0
    /// when one is printed.
    #[arg(
        long,
        conflicts_with_all = ["files_with_matches", "count", "quiet", "only_matching", "format", "json", "checks", "line_number", "column"]
    )]
    pub(crate) files_without_match: bool,
    /// Print nothing; exit 0 as soon as a link is found, 1 when there is none (grep -q).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Print only the text of each link, one per line.
    #[arg(short = 'o', long, conflicts_with_all = ["count", "format", "json", "checks"])]
    pub(crate) only_matching: bool,
    /// Add the line number of each link (from 1): a "line" field in jsonl, a column after
    /// end in tsv, `LINE:` before the text with -o (text always has it). Plain text inputs
    /// only.
    #[arg(short = 'n', long)]
    pub(crate) line_number: bool,
    /// Add the column of each link (from 1, in characters): a "column" field in jsonl, a
    /// column after end (and line) in tsv, `COLUMN:` before the text with -o (text always
    /// has it). Plain text inputs only.
    #[arg(long)]
    pub(crate) column: bool,
    /// Add the security checks of UTS #58 section 8 that each link fails (text, jsonl,
    /// tsv).
    #[arg(long, conflicts_with = "count")]
    pub(crate) checks: bool,
    #[command(flatten)]
    pub(crate) records: RecordArgs,
    /// With --field: also report this field of each record (a dotted path), as "id".
    #[arg(long, value_name = "NAME", requires = "field", value_parser = FieldPath::parse)]
    pub(crate) id_field: Option<FieldPath>,
    #[command(flatten)]
    pub(crate) detect: DetectArgs,
    #[command(flatten)]
    pub(crate) walk: WalkArgs,
    #[cfg(feature = "mail")]
    #[command(flatten)]
    pub(crate) mail: crate::mail::MailArgs,
}

/// When the text format is coloured (`--color`).
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set and not empty.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl FindArgs {
    /// `--json` made `--format jsonl`, once parsed.
    pub(crate) fn settle(&mut self) {
        if self.json {
            self.format = Format::Jsonl;
        }
    }

    /// Whether the text format is coloured: `--color`, and for `auto`, whether standard
    /// output is a terminal and `NO_COLOR` is unset or empty (<https://no-color.org>).
    pub(crate) fn colored(&self) -> bool {
        match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::IsTerminal::is_terminal(&std::io::stdout())
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }

    /// Whether each link's line starts with its file name: `-H`, `-I`, else when
    /// `several` inputs are read (several files, or a folder walked).
    pub(crate) fn with_filename(&self, several: bool) -> bool {
        if self.with_filename {
            true
        } else if self.no_filename {
            false
        } else {
            several
        }
    }

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
