//! The options shared by `find` and `linkify` that choose what counts as a link (kinds,
//! TLDs, the policy, the length limit) and how many threads scan, and the
//! [`LinkFinder`] they build.
//!
//! Invariant: a TLD list is read only here, in [`DetectArgs::finder`], before any input is
//! read; `--tld-list` wins over `$LINKSCAN_TLD_LIST`, which is read only for the `iana` and
//! `list` TLD policies, and an error names the file as the user gave it (the option's
//! value, or `LINKSCAN_TLD_LIST=FILE`).

use std::io;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use linkscan::{LinkFinder, TldPolicy, TldSet};

use crate::input;

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
pub(crate) struct DetectArgs {
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
    // The comment is the option's --help text, where a bare address reads best.
    #[allow(rustdoc::bare_urls)]
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
pub(super) enum PolicyChoice {
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
    pub(super) fn finder(&self, default_policy: PolicyChoice) -> Result<LinkFinder, String> {
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
    pub(crate) fn start_threads(&self) -> io::Result<()> {
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
