//! The options of `linkscan linkify` and its long help, and the [`Linkifier`] they build.
//!
//! Invariant: `--default-scheme` is `https://` or `http://` once parsed (lower case), since
//! it becomes the start of an `href`; the schemes `--href-schemes` adds are checked by the
//! engine when the linkifier is built, before any input is read.

use std::path::PathBuf;

use clap::Args;
use linkscan::html::Linkifier;
use linkscan::LinkFinder;

use super::common::{DetectArgs, PolicyChoice};
#[cfg(feature = "mail")]
use super::mail::{AddressesArg, AttachmentsArg};
use super::walk::WalkArgs;

/// The long help of `linkscan linkify` (`--help`), after its options.
pub(super) const LINKIFY_HELP: &str = "\
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
  linkscan linkify --mbox list.mbox.gz --out archive/
  linkscan linkify --mbox list.mbox --out archive/ --search";

#[derive(Args, Debug)]
pub(crate) struct LinkifyArgs {
    /// Files to convert; `-` or none: standard input.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Scheme put in the href of links written without one: https:// or http://.
    #[arg(long, default_value = "https://", value_name = "SCHEME", value_parser = parse_default_scheme)]
    pub(crate) default_scheme: String,
    /// Write a complete HTML page (doctype, charset, text that keeps its line breaks)
    /// instead of a fragment for embedding.
    #[arg(long, conflicts_with = "out")]
    pub(crate) standalone: bool,
    /// Leave as plain text the links that fail a security check of UTS #58 section 8.
    #[arg(long)]
    pub(crate) checks: bool,
    /// More schemes whose links get an href, comma-separated (e.g. ftp,sftp). By default
    /// only http, https and mailto do; a link of another scheme (smb://, file://,
    /// ms-msdt:…) is shown as text marked as a link, without a target. javascript,
    /// vbscript and data are refused.
    #[arg(long, value_name = "SCHEMES", value_delimiter = ',')]
    href_schemes: Vec<String>,
    #[command(flatten)]
    pub(crate) detect: DetectArgs,
    #[command(flatten)]
    pub(crate) walk: WalkArgs,
    /// The folder of the HTML archive (with --mbox/--maildir).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// How the HTML archive shows email addresses: show (linked), or obfuscate (written
    /// "name at example dot com", no mailto: anywhere), as public archives do [default:
    /// show].
    #[cfg(feature = "mail")]
    #[arg(long, value_enum, value_name = "HOW", requires = "out")]
    pub(super) addresses: Option<AddressesArg>,
    /// The HTML archive's title, on every page (the front page's heading, each page's
    /// title) [default: the name of the list, from the List-Id of most messages, else
    /// "Mail archive"].
    #[cfg(feature = "mail")]
    #[arg(long, value_name = "TEXT", requires = "out")]
    pub(crate) title: Option<String>,
    /// How the HTML archive shows attachments: inline (text attachments such as patches
    /// and source files drawn on the page with their links, the others written beside
    /// the pages under a/ and linked), link (every attachment written and linked), or
    /// none (each listed by name, type and size) [default: inline].
    #[cfg(feature = "mail")]
    #[arg(long, value_enum, value_name = "HOW", requires = "out")]
    pub(super) attachments: Option<AttachmentsArg>,
    /// The most bytes of attachments the HTML archive shows and writes per message (K, M
    /// or G suffix); past it an attachment is listed, not written, and its page says so
    /// [default: 10M].
    #[cfg(feature = "mail")]
    #[arg(long, value_name = "SIZE", requires = "out", value_parser = crate::mail::parse_size)]
    pub(super) attachment_limit: Option<u64>,
    /// With --out: add the messages appended to the one mbox since the last run into the
    /// folder, writing only the pages they change; the folder is then as a full build
    /// makes it. When the folder cannot be updated from the input (no state of a last
    /// run, other options, the input rewritten, several inputs, gzip, Maildir), says why
    /// and builds it whole.
    #[cfg(feature = "mail")]
    #[arg(long, requires = "out")]
    pub(crate) update: bool,
    /// With --out: make the archive searchable in the browser (search.html, linked from
    /// every page): subjects, authors and message text, indexed by Pagefind at the end of
    /// the build. Needs Pagefind (`pip install 'pagefind[bin]'`); see --pagefind.
    #[cfg(feature = "mail")]
    #[arg(long, requires = "out")]
    pub(crate) search: bool,
    /// The Pagefind program --search runs [default: the command of the PAGEFIND
    /// environment variable, else pagefind on the PATH, else python3 -m pagefind].
    #[cfg(feature = "mail")]
    #[arg(long, value_name = "PROGRAM", requires = "search")]
    pub(crate) pagefind: Option<PathBuf>,
    #[cfg(feature = "mail")]
    #[command(flatten)]
    pub(crate) mail: crate::mail::MailArgs,
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

impl LinkifyArgs {
    /// The finder of these options: `--policy readable` unless another is given.
    pub(crate) fn finder(&self) -> Result<LinkFinder, String> {
        self.detect.finder(PolicyChoice::Readable)
    }

    /// The linkifier of these options, over `finder`.
    pub(crate) fn linkifier(&self, finder: &LinkFinder) -> Result<Linkifier, String> {
        Linkifier::new()
            .finder(finder.clone())
            .default_scheme(self.default_scheme.clone())
            .checks(self.checks)
            .href_schemes(&self.href_schemes)
            .map_err(|e| format!("--href-schemes: {e}"))
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
