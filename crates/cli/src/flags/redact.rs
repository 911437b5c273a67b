//! The options of `linkscan redact` and its long help.
//!
//! Invariant: `--replace` is parsed into a [`Template`] when the command line is parsed,
//! before any input is read: an unknown `{name}` or a lone brace is a usage error (exit
//! status 2), so writing a replacement cannot fail.

use std::path::PathBuf;

use clap::Args;
use linkscan::LinkFinder;
use linkscan_replace::Template;

use super::common::{DetectArgs, PolicyChoice};
use super::records::{RecordArgs, RedactOut};

/// The long help of `linkscan redact` (`--help`), after its options.
pub(super) const REDACT_HELP: &str = "\
Writes each input (several: one after the other, as cat does) with every link replaced
and every other byte kept as it is. The links are those `linkscan find` reports with the
same options (--kind, --policy, the TLD options).

--replace TEMPLATE writes for each link the template with its placeholders filled in:
  {kind}   URL or EMAIL
  {host}   the URL's host, or the email address's domain
  {hash}   a keyed hash of the link's text: 32 hex digits (SipHash-2-4, 128 bits), the
           same on every run and machine for the same --hash-key, so links can still be
           joined and counted after redaction. Without --hash-key the key is empty, and
           anyone can check a guess: give a secret key for personal data.
  {{ }}    a brace
Default: <{kind}>, that is <URL> and <EMAIL>. Any other {name} is an error.

Records (--field NAME): a JSON Lines file (plain or gzip; standard input too) or a
Parquet file is read as records (see `linkscan find --help`) and only the string NAME of
each record is redacted; the output, --out FILE or standard output, is in the input's
format: JSON Lines keep every other byte of each line (the field's string is written
again, JSON-escaped, only when it held a link), gzip stays gzip, Parquet keeps its schema,
row groups and each column's compression. A record that is not a JSON object, lacks the
field or whose value is not a string gets a warning with its number on stderr and is
written unchanged; the exit status is then 2.

Examples:
  linkscan redact notes.txt > notes.redacted.txt
  linkscan redact --kind email - < mail.txt
  linkscan redact --replace '<{kind} {host}>' notes.txt
  linkscan redact --replace '{hash}' --hash-key \"$SECRET\" corpus.txt
  linkscan redact --field body --out clean.parquet posts.parquet";

#[derive(Args, Debug)]
pub(crate) struct RedactArgs {
    /// Files to redact; `-` or none: standard input.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// What each link is replaced by: text with {kind}, {host}, {hash}; {{ and }} for
    /// braces [default: <{kind}>].
    #[arg(long, value_name = "TEMPLATE", value_parser = |value: &str| Template::parse(value))]
    pub(crate) replace: Option<Template>,
    /// The key of {hash} (any text; default: empty).
    #[arg(long, value_name = "KEY", default_value = "")]
    pub(crate) hash_key: String,
    #[command(flatten)]
    pub(crate) records: RecordArgs,
    #[command(flatten)]
    pub(crate) records_out: RedactOut,
    #[command(flatten)]
    pub(crate) detect: DetectArgs,
}

impl RedactArgs {
    /// The finder of these options: `--policy conformant` unless another is given (every
    /// link UTS #58 detects is taken out).
    pub(crate) fn finder(&self) -> Result<LinkFinder, String> {
        self.detect.finder(PolicyChoice::Conformant)
    }
}
