//! `linkscan`: find, linkify and format links as Unicode UTS #58 specifies.
//!
//! Each subcommand lives in its own module; this file holds the command line (clap), the
//! exit status convention (0: all inputs processed; 1: `find` found no link, as grep, or
//! `conformance` found failures; 2: an input could not be read or an argument was wrong,
//! which wins over 1; `find -q` exits 0 once a link is found), and the handling of a closed
//! standard output (a pipe into `head` ends the program quietly).

#![forbid(unsafe_code)]

#[cfg(feature = "mail")]
mod archive;
mod conformance;
mod display;
mod escape;
mod files;
mod find;
mod input;
mod lines;
mod linkify;
#[cfg(feature = "mail")]
mod mail;
mod render;
mod shell;
mod terminal;
mod walk;
mod words;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use linkscan::{LinkFinder, TldPolicy, TldSet};

/// The allocator of the tool alone (the library leaves the choice to its user); see the
/// `mimalloc` line of `Cargo.toml` for why.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const EXAMPLES: &str = "\
Examples:
  linkscan find notes.txt                      one JSON object per link
  linkscan find --format tsv *.txt             file, start, end, kind, text
  linkscan find --format marked notes.txt      the text with ⸠links⸡ marked
  cat mail.txt | linkscan find --count         how many links
  linkscan find --tld-policy syntactic -       any well-formed TLD, stdin
  linkscan linkify notes.txt > notes.html      HTML with <a href> links
  linkscan find --mbox list.mbox.gz            links of a mail archive, per message
  linkscan linkify --mbox list.mbox --out web  an HTML page per message, and an index
  linkscan escape 'https://example.com/%CE%B1%CE%B2(x))'
  linkscan find --checks notes.txt             with the security checks of section 8
  linkscan conformance ../shared/unicode/17.0.0";

/// Find URLs and email addresses in plain text exactly as Unicode UTS #58 specifies.
#[derive(Parser, Debug)]
#[command(name = "linkscan", version = version_text(), about, after_long_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the links found in files (or standard input).
    #[command(after_long_help = "\
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
  linkscan find --maildir --count ~/Maildir")]
    Find(FindArgs),
    /// Write the text as HTML with every link wrapped in `<a href="…">`.
    #[command(after_long_help = "\
Directories are walked as `linkscan find` walks them (see its --help).

The output is an HTML fragment, for embedding in a page: the escaped text and its links,
without <html>, <head> or a charset. With --standalone it is a complete page (doctype,
<meta charset=\"utf-8\">, each input in a <pre dir=\"auto\"> block that keeps its line
breaks) to open in a browser as it is.

With --mbox or --maildir, writes an HTML archive to --out DIR: one page per message
(From, Date, Subject, its text parts with links) and index.html listing them.
With --checks, links that fail a security check of UTS #58 section 8 (see
`linkscan find --help`) are left as plain text.

linkify uses --policy readable by default (HTML is for people; UTS #58 section 8): file
and code names such as NEWS.md or Proc.new are not linked. --policy conformant links
everything UTS #58 detects.
Only http, https and mailto links get an href (and the schemes --href-schemes adds); a
link of another scheme (smb://, file://, ms-msdt:…), in the text or in an HTML part of a
mail, is written as <span class=\"link\"> without a target.
Syntax look-alikes in a link (⁄ ∕ ／ ․ Ɂ …, characters that read as / ? # . :) are
shown percent-escaped.

Examples:
  linkscan linkify notes.txt > notes.html.part
  linkscan linkify --standalone notes.txt > notes.html
  linkscan linkify --checks untrusted.txt > untrusted.html
  linkscan linkify --default-scheme http:// - < notes.txt
  linkscan linkify --href-schemes ftp,sftp notes.txt
  linkscan linkify --mbox list.mbox.gz --out archive/")]
    Linkify(LinkifyArgs),
    /// Print URLs minimally escaped (UTS #58 section 4.1), one per line.
    #[command(after_long_help = "\
Reads one URL per line from standard input when no URL is given.
With --checks, Bidi_Control characters (U+202E…) are percent-escaped too, as UTS #58
section 8 asks; the conformant algorithm of section 4.1 leaves them as they are.

Examples:
  linkscan escape 'https://example.com/%CE%B1%CE%B2%CE%B3/%CE%B4.%CE%B5%CE%B6.'
  linkscan escape https://xn--bcher-kva.de/b%C3%BCcher
  linkscan escape --checks 'https://example.com/%E2%80%AEfdp.exe'
  linkscan find --format tsv notes.txt | cut -f5 | linkscan escape")]
    Escape(EscapeArgs),
    /// Print links as people should see them: minimally escaped, hosts in Unicode unless
    /// spoofable, Bidi_Control characters escaped; with --bidi, fields left to right.
    #[command(after_long_help = "\
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
  linkscan find --format tsv notes.txt | cut -f5 | linkscan display")]
    Display(DisplayArgs),
    /// Print the completion script of a shell (bash, zsh, fish, elvish, powershell).
    #[command(after_long_help = "\
Examples:
  linkscan completions bash > ~/.local/share/bash-completion/completions/linkscan
  linkscan completions zsh > ~/.zfunc/_linkscan
  linkscan completions fish > ~/.config/fish/completions/linkscan.fish")]
    Completions(CompletionsArgs),
    /// Print the man page linkscan(1) in roff, or write a page per subcommand to a folder.
    #[command(after_long_help = "\
Examples:
  linkscan man | man -l -
  linkscan man > /usr/local/share/man/man1/linkscan.1
  linkscan man --out-dir /usr/local/share/man/man1     linkscan.1, linkscan-find.1, …")]
    Man(ManArgs),
    /// Run the official conformance files of a Unicode data folder and print the counts.
    #[command(after_long_help = "\
DIR holds LinkDetectionTest.txt and LinkFormattingTest.txt, the files Unicode publishes
for UTS #58 in https://www.unicode.org/Public/17.0.0/linkification/.
Default: $LINKSCAN_SHARED/unicode/17.0.0, else ../shared/unicode/17.0.0.
Exit status 1 when a case fails (known errata of the 17.0.0 formatting file excepted).

Example:
  linkscan conformance ../shared/unicode/17.0.0")]
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

/// The environment variable naming a TLD list file, read when `--tld-list` is not given
/// and `--tld-policy` is `iana` (the default): an index pipeline sets it once.
const TLD_LIST_VAR: &str = "LINKSCAN_TLD_LIST";

/// The most threads `-j` accepts. Scanning is bound by memory bandwidth, so threads past
/// the number of cores only add start-up time (each is a stack and a rayon worker that
/// wakes to steal work); 256 covers the largest common machines and starts in
/// milliseconds. Past it, `-j` is refused with clap's out-of-range error (exit 2).
const MAX_JOBS: i64 = 256;

/// Options that choose what counts as a link.
#[derive(Args, Debug, Clone)]
struct DetectArgs {
    /// Which kinds of links to report.
    #[arg(long, value_enum, default_value_t = Kind::All)]
    kind: Kind,
    /// How top-level domains are recognised.
    #[arg(long, value_enum, default_value_t = TldChoice::Iana)]
    tld_policy: TldChoice,
    /// A TLD list in the IANA format (one per line, # comments); implies --tld-policy list.
    /// Default: the file named by $LINKSCAN_TLD_LIST when set, else the built-in list (see
    /// --version for its date; a fresh one is
    /// https://data.iana.org/TLD/tlds-alpha-by-domain.txt).
    #[arg(long, value_name = "FILE")]
    tld_list: Option<PathBuf>,
    /// Report links of any length (default: links over 64 KiB are left out).
    #[arg(long)]
    no_length_limit: bool,
    /// Also report URLs whose host is itself a public suffix (`co.uk`, `https://gov.uk/`),
    /// which spec section 1.4 says must not be linked (not conformant). Emails are not
    /// affected; `--policy readable` still leaves out the private section's (`github.io`).
    #[arg(long)]
    public_suffix_hosts: bool,
    /// Threads scanning in parallel, 1 to 256 (default: the number of CPUs). The output is
    /// the same for every value.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_JOBS))]
    jobs: Option<u16>,
    /// Which detected links to report: `conformant` (all that UTS #58 detects; the default
    /// of `find`) or `readable` (without code and file names such as `NEWS.md` or
    /// `Proc.new`, and with hosts kept out of the ideographic text before them; the
    /// default of `linkify`, whose HTML is for people).
    #[arg(long, value_enum)]
    policy: Option<PolicyChoice>,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum PolicyChoice {
    /// Every link UTS #58 detects.
    Conformant,
    /// Leave out what a reader would not link (spec section 8).
    Readable,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// URLs and email addresses.
    All,
    /// URLs only.
    Url,
    /// Email addresses only.
    Email,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum TldChoice {
    /// The IANA root zone list built into this program.
    Iana,
    /// Any syntactically valid TLD (UTS #58 section 8).
    Syntactic,
    /// The list given with --tld-list.
    List,
}

impl DetectArgs {
    /// The finder these options ask for; `default_policy` when `--policy` is not given.
    fn finder(&self, default_policy: PolicyChoice) -> Result<LinkFinder, String> {
        let from_env = || {
            std::env::var_os(TLD_LIST_VAR)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let tld_list = match (&self.tld_list, self.tld_policy) {
            (Some(path), _) => Some(path.clone()),
            (None, TldChoice::Iana | TldChoice::List) => from_env(),
            (None, TldChoice::Syntactic) => None,
        };
        let tld_list = &tld_list;
        let named = |path: &PathBuf| match &self.tld_list {
            Some(_) => path.display().to_string(),
            None => format!("{TLD_LIST_VAR}={}", path.display()),
        };
        let policy = match (self.tld_policy, tld_list) {
            (TldChoice::Iana, None) => TldPolicy::Iana,
            (TldChoice::Syntactic, None) => TldPolicy::Syntactic,
            (TldChoice::List | TldChoice::Iana, Some(path)) => {
                let set = TldSet::from_file(path).map_err(|e| {
                    let e = match e.io_error() {
                        // The reason, in the style of the other read errors.
                        Some(io) => format!("{e}: {}", input::describe(io)),
                        None => e.to_string(),
                    };
                    if self.tld_list.is_none() {
                        format!("{}: {e}", named(path))
                    } else {
                        e
                    }
                })?;
                TldPolicy::List(set.into())
            }
            (TldChoice::List, None) => return Err("--tld-policy list needs --tld-list FILE".into()),
            (TldChoice::Syntactic, Some(_)) => {
                return Err("--tld-list cannot be used with --tld-policy syntactic".into())
            }
        };
        let max_len = (!self.no_length_limit).then_some(linkscan::DEFAULT_MAX_LINK_LEN);
        Ok(LinkFinder::builder()
            .urls(self.kind != Kind::Email)
            .emails(self.kind != Kind::Url)
            .tld_policy(policy)
            .max_link_len(max_len)
            .public_suffix_hosts(self.public_suffix_hosts)
            .policy(match self.policy.unwrap_or(default_policy) {
                PolicyChoice::Conformant => linkscan::Policy::Conformant,
                PolicyChoice::Readable => linkscan::Policy::Readable,
            })
            .build())
    }

    /// Sizes the global thread pool that parallel scans run on (once, at start-up).
    fn start_threads(&self) -> io::Result<()> {
        let threads = self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        );
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .map_err(|e| io::Error::other(format!("cannot start {threads} threads: {e}")))
    }
}

#[derive(Args, Debug)]
struct FindArgs {
    /// Files to scan; `-` or none: standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = find::Format::Jsonl)]
    format: find::Format,
    /// Print only the number of links (per file when there are several, as `FILE:N`).
    #[arg(short, long)]
    count: bool,
    /// With --count and several inputs: also print the inputs without a link (`FILE:0`).
    #[arg(long, requires = "count")]
    include_zero: bool,
    /// Print only the names of the inputs that have a link, one per line (grep -l).
    #[arg(
        short = 'l',
        long,
        conflicts_with_all = ["count", "quiet", "only_matching", "format", "checks", "line_number", "column"]
    )]
    files_with_matches: bool,
    /// Print only the names of the inputs without a link, one per line (grep -L); exit 0
    /// when one is printed.
    #[arg(
        long,
        conflicts_with_all = ["files_with_matches", "count", "quiet", "only_matching", "format", "checks", "line_number", "column"]
    )]
    files_without_match: bool,
    /// Print nothing; exit 0 as soon as a link is found, 1 when there is none (grep -q).
    #[arg(short, long)]
    quiet: bool,
    /// Print only the text of each link, one per line.
    #[arg(short = 'o', long, conflicts_with_all = ["count", "format", "checks"])]
    only_matching: bool,
    /// Add the line number of each link (from 1): a "line" field in jsonl, a column after
    /// end in tsv, `LINE:` before the text with -o. Plain text inputs only.
    #[arg(short = 'n', long)]
    line_number: bool,
    /// Add the column of each link (from 1, in characters): a "column" field in jsonl, a
    /// column after end (and line) in tsv, `COLUMN:` before the text with -o. Plain text
    /// inputs only.
    #[arg(long)]
    column: bool,
    /// Add the security checks of UTS #58 section 8 that each link fails (jsonl, tsv).
    #[arg(long, conflicts_with = "count")]
    checks: bool,
    #[command(flatten)]
    detect: DetectArgs,
    #[command(flatten)]
    walk: walk::WalkArgs,
    #[cfg(feature = "mail")]
    #[command(flatten)]
    mail: mail::MailArgs,
}

#[derive(Args, Debug)]
struct LinkifyArgs {
    /// Files to convert; `-` or none: standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Scheme put in the href of links written without one: https:// or http://.
    #[arg(long, default_value = "https://", value_name = "SCHEME", value_parser = parse_default_scheme)]
    default_scheme: String,
    /// Write a complete HTML page (doctype, charset, text that keeps its line breaks)
    /// instead of a fragment for embedding.
    #[arg(long, conflicts_with = "out")]
    standalone: bool,
    /// Leave as plain text the links that fail a security check of UTS #58 section 8.
    #[arg(long)]
    checks: bool,
    /// More schemes whose links get an href, comma-separated (e.g. ftp,sftp). By default
    /// only http, https and mailto do; a link of another scheme (smb://, file://,
    /// ms-msdt:…) is shown as text marked as a link, without a target. javascript,
    /// vbscript and data are refused.
    #[arg(long, value_name = "SCHEMES", value_delimiter = ',')]
    href_schemes: Vec<String>,
    #[command(flatten)]
    detect: DetectArgs,
    #[command(flatten)]
    walk: walk::WalkArgs,
    /// The folder of the HTML archive (with --mbox/--maildir).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// How the HTML archive shows email addresses: show (linked), or obfuscate (written
    /// "name at example dot com", no mailto: anywhere), as public archives do [default:
    /// show].
    #[cfg(feature = "mail")]
    #[arg(long, value_enum, value_name = "HOW", requires = "out")]
    addresses: Option<AddressesArg>,
    /// With --out: add the messages appended to the one mbox since the last run into the
    /// folder, writing only the pages they change; the folder is then as a full build
    /// makes it. When the folder cannot be updated from the input (no state of a last
    /// run, other options, the input rewritten, several inputs, gzip, Maildir), says why
    /// and builds it whole.
    #[cfg(feature = "mail")]
    #[arg(long, requires = "out")]
    update: bool,
    #[cfg(feature = "mail")]
    #[command(flatten)]
    mail: mail::MailArgs,
}

/// `--addresses`.
#[cfg(feature = "mail")]
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum AddressesArg {
    Show,
    Obfuscate,
}

#[derive(Args, Debug)]
struct EscapeArgs {
    /// URLs to format; none: one per line from standard input.
    #[arg(value_name = "URL")]
    urls: Vec<String>,
    /// Also percent-escape Bidi_Control characters (UTS #58 section 8).
    #[arg(long)]
    checks: bool,
}

#[derive(Args, Debug)]
struct DisplayArgs {
    /// URLs and email addresses to show; none: one per line from standard input.
    #[arg(value_name = "LINK")]
    links: Vec<String>,
    /// Isolate each link (LRI…PDI) and each of its fields (LRM…LRM), so that its fields
    /// read left to right in any paragraph direction.
    #[arg(long)]
    bidi: bool,
}

#[derive(Args, Debug)]
struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_name = "SHELL")]
    shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
struct ManArgs {
    /// Write linkscan.1 and a page per subcommand (linkscan-find.1, …) into this folder
    /// instead of printing linkscan.1.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

/// The schemes `--default-scheme` accepts. The default scheme becomes the start of an
/// `href`, so anything else (`javascript:`, a scheme without `//`, `ftp` without `://`)
/// would make links that do not work or are unsafe to follow.
const DEFAULT_SCHEMES: [&str; 2] = ["https://", "http://"];

/// Accepts `https://` or `http://` (any case, written back in lower case).
fn parse_default_scheme(value: &str) -> Result<String, String> {
    let lower = value.to_ascii_lowercase();
    if DEFAULT_SCHEMES.contains(&lower.as_str()) {
        Ok(lower)
    } else {
        Err(format!(
            "must be one of {} (a scheme followed by ://)",
            DEFAULT_SCHEMES.join(", ")
        ))
    }
}

#[derive(Args, Debug)]
struct ConformanceArgs {
    /// Folder with LinkDetectionTest.txt and LinkFormattingTest.txt.
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print every failing case.
    #[arg(short, long)]
    verbose: bool,
}

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
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let result = match &cli.command {
        #[cfg(feature = "mail")]
        Command::Find(args) if args.mail.archives() => args
            .walk
            .refuse("--mbox and --maildir")
            .and_then(|()| args.detect.finder(PolicyChoice::Conformant))
            .map_err(usage_error)
            .and_then(|finder| {
                args.detect.start_threads()?;
                mail::find(args, args.mail.scanner(finder, "https://", false), &mut out)
            }),
        Command::Find(args) => plain_only(args.mail_args())
            .and_then(|()| args.detect.finder(PolicyChoice::Conformant))
            .map_err(usage_error)
            .and_then(|finder| {
                args.detect.start_threads()?;
                let walk::Walked {
                    files,
                    any_directory,
                    outcome: walked,
                } = walk::expand(&args.files, &args.walk)?;
                if files.is_empty() && !args.files.is_empty() {
                    // Only empty or ignored directories: nothing to read (not stdin).
                    return Ok(match walked {
                        Outcome::Ok => Outcome::NotFound,
                        walked => walked,
                    });
                }
                Ok(
                    match (
                        find::run(args, &files, any_directory, &finder, &mut out)?,
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
            .and_then(|()| out_folder(args.out.as_deref()))
            .and_then(|()| args.detect.finder(PolicyChoice::Readable))
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
        Command::Linkify(args) => plain_only(args.mail_args())
            .and_then(|()| args.detect.finder(PolicyChoice::Readable))
            .and_then(|finder| Ok((args.linkifier(&finder)?, finder)))
            .map_err(usage_error)
            .and_then(|(linkifier, finder)| {
                args.detect.start_threads()?;
                // Directories are walked as `find` walks them.
                let walk::Walked { files, outcome, .. } = walk::expand(&args.files, &args.walk)?;
                if files.is_empty() && !args.files.is_empty() {
                    return Ok(outcome);
                }
                Ok(
                    match (
                        linkify::run(args, &files, linkifier, finder, &mut out)?,
                        outcome,
                    ) {
                        (_, Outcome::InputErrors) => Outcome::InputErrors,
                        (linked, _) => linked,
                    },
                )
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

/// Refuses archive-only options on plain inputs (see `MailArgs::check_plain`).
#[cfg(feature = "mail")]
fn plain_only(mail: &mail::MailArgs) -> Result<(), String> {
    mail.check_plain()
}

#[cfg(not(feature = "mail"))]
fn plain_only(_: &()) -> Result<(), String> {
    Ok(())
}

impl FindArgs {
    #[cfg(feature = "mail")]
    fn mail_args(&self) -> &mail::MailArgs {
        &self.mail
    }
    #[cfg(not(feature = "mail"))]
    fn mail_args(&self) -> &() {
        &()
    }
}

impl LinkifyArgs {
    /// The linkifier of these options, over `finder`.
    fn linkifier(&self, finder: &LinkFinder) -> Result<linkscan::html::Linkifier, String> {
        linkscan::html::Linkifier::new()
            .finder(finder.clone())
            .default_scheme(self.default_scheme.clone())
            .checks(self.checks)
            .href_schemes(&self.href_schemes)
            .map_err(|e| format!("--href-schemes: {e}"))
    }

    #[cfg(feature = "mail")]
    fn mail_args(&self) -> &mail::MailArgs {
        &self.mail
    }
    #[cfg(not(feature = "mail"))]
    fn mail_args(&self) -> &() {
        &()
    }

    /// `--addresses obfuscate`.
    #[cfg(feature = "mail")]
    fn obfuscate_addresses(&self) -> bool {
        self.addresses == Some(AddressesArg::Obfuscate)
    }
}

/// Refuses an `--out` that exists and is not a folder (before anything is read).
#[cfg(feature = "mail")]
fn out_folder(out: Option<&std::path::Path>) -> Result<(), String> {
    match out {
        Some(path) if path.exists() && !path.is_dir() => Err(format!(
            "--out {}: not a folder (the HTML archive is a folder of pages)",
            path.display()
        )),
        _ => Ok(()),
    }
}

fn usage_error(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}
