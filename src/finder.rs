//! The public detection API: [`LinkFinder`], its builder, and the [`Links`] iterator.
//!
//! A finder is immutable configuration (which kinds to report, the TLD policy); each call
//! to [`LinkFinder::links`] or [`LinkFinder::links_bytes`] starts an independent scan, so
//! one finder can serve many threads. [`LinkFinder::links`] is the bytes scan with each
//! [`Link`] paired with its `&str` ([`Matches`]): the same scan, the same links. Turning a kind off only filters the output: the
//! scan, and so every reported link, is the same as with both kinds on.
//!
//! What the scanner finds goes through two filters, in this order, each once per link:
//! spec section 1.4's rule that a host which is a public suffix is not linked
//! ([`crate::registrable`]; URLs only, the list's ICANN section), then the reporting
//! [`Policy`], which is told the list's verdict on the host (its private section too). Neither changes
//! where the scan goes on: a dropped link's text is consumed as if it had been reported.
//! Counting without them, a link at a time, is the scanner's own loop
//! ([`Links::count`]), taken only when no filter applies.

use std::sync::Arc;

use crate::link::{Link, LinkKind};
use crate::matches::Matches;
use crate::policy::{self, Policy};
use crate::registrable::Suffix;
use crate::scanner::{Scanner, SuffixRule};
use crate::tld::{TldPolicy, TldSet};
use crate::vector::Kernel;

/// Finds URLs and email addresses as UTS #58 specifies.
///
/// ```
/// use linkscan::{LinkFinder, LinkKind};
///
/// let text = "Docs at https://ja.wikipedia.org/wiki/アルベルト・アインシュタイン, \
///             mail x.abcd@example.com. (See example.com/wiki/Ракь_(планета).)";
/// let finder = LinkFinder::new();
/// let found: Vec<(&str, LinkKind)> =
///     finder.links(text).map(|l| (l.as_str(), l.kind())).collect();
/// assert_eq!(found, [
///     ("https://ja.wikipedia.org/wiki/アルベルト・アインシュタイン", LinkKind::Url),
///     ("x.abcd@example.com", LinkKind::Email),
///     ("example.com/wiki/Ракь_(планета)", LinkKind::Url),
/// ]);
/// ```
#[derive(Clone, Debug)]
pub struct LinkFinder {
    urls: bool,
    emails: bool,
    policy: TldPolicy,
    kernel: Kernel,
    max_link_len: usize,
    report: Policy,
    public_suffix_hosts: bool,
}

/// The default of [`LinkFinderBuilder::max_link_len`]: 64 KiB.
///
/// Far above any real link (RFC 9110 asks software to handle at least 8,000 octets;
/// common servers stop at 8–16 KB), and low enough that a hostile or broken input — a
/// megabyte of text after `x.com/` without a space — does not reach an HTML page or a
/// search index as one "link".
pub const DEFAULT_MAX_LINK_LEN: usize = 64 * 1024;

impl Default for LinkFinder {
    fn default() -> Self {
        LinkFinder::new()
    }
}

impl LinkFinder {
    /// What decides the links this finder finds, as text: two finders with the same key
    /// find the same links (the kernel, which only makes it faster, is left out). An HTML
    /// archive keeps it to tell whether a later update reads as the build did.
    ///
    /// The TLD list is named by what decides it: the built-in list by its version, a list
    /// of the user's by a digest of its entries (two lists of one length differ); the
    /// Unicode version of the built-in properties is part of every key.
    pub(crate) fn options_key(&self) -> String {
        let tlds = match &self.policy {
            TldPolicy::Iana => format!("iana {}", crate::tables::TLD_LIST_VERSION),
            TldPolicy::List(set) => format!("list {} {:016x}", set.len(), set.digest()),
            TldPolicy::Syntactic => "syntactic".to_string(),
        };
        format!(
            "unicode {} urls {} emails {} tlds {tlds} max-link-len {} policy {:?} \
             public-suffix-hosts {}",
            crate::tables::UNICODE_VERSION,
            self.urls,
            self.emails,
            self.max_link_len,
            self.report,
            self.public_suffix_hosts
        )
    }

    /// A finder for URLs and emails with the embedded IANA TLD list.
    pub fn new() -> LinkFinder {
        LinkFinder::builder().build()
    }

    /// A builder to choose the kinds and the TLD policy.
    ///
    /// ```
    /// use linkscan::{LinkFinder, TldPolicy};
    /// let finder = LinkFinder::builder()
    ///     .emails(false)
    ///     .tld_policy(TldPolicy::Syntactic)
    ///     .build();
    /// let text = "see example.invalid or x@example.com";
    /// let urls: Vec<&str> = finder.links(text).map(|l| l.as_str()).collect();
    /// assert_eq!(urls, ["example.invalid"]);
    /// ```
    pub fn builder() -> LinkFinderBuilder {
        LinkFinderBuilder {
            finder: LinkFinder {
                urls: true,
                emails: true,
                policy: TldPolicy::Iana,
                kernel: Kernel::detect(),
                max_link_len: DEFAULT_MAX_LINK_LEN,
                report: Policy::Conformant,
                public_suffix_hosts: false,
            },
        }
    }

    /// The longest link reported, in bytes (`usize::MAX`: no limit).
    pub fn max_link_len(&self) -> usize {
        self.max_link_len
    }

    /// The TLD policy in use.
    pub fn tld_policy(&self) -> &TldPolicy {
        &self.policy
    }

    /// The reporting policy in use ([`Policy::Conformant`] unless chosen).
    pub fn policy(&self) -> Policy {
        self.report
    }

    /// The links of `text`, in order, without overlap, each bound to `text`: a
    /// [`Match`](crate::Match) whose [`as_str`](crate::Match::as_str) is the link's text.
    /// The links are those of [`links_bytes`](Self::links_bytes) on `text.as_bytes()`;
    /// [`Match::link`](crate::Match::link) gives each one's offset-only [`Link`].
    ///
    /// ```
    /// use linkscan::{LinkFinder, LinkKind};
    /// let text = "mail x@example.org or see https://example.com";
    /// let found: Vec<(&str, LinkKind)> =
    ///     LinkFinder::new().links(text).map(|m| (m.as_str(), m.kind())).collect();
    /// assert_eq!(found, [("x@example.org", LinkKind::Email), ("https://example.com", LinkKind::Url)]);
    /// ```
    #[inline]
    pub fn links<'f, 't>(&'f self, text: &'t str) -> Matches<'f, 't> {
        Matches::new(self.links_bytes(text.as_bytes()), text)
    }

    /// The links of `text`, which need not be valid UTF-8: every invalid sequence counts as
    /// a Hard character. Offsets are into `text`.
    ///
    /// ```
    /// let text = b"old \xFFexample.com\xFE/path";
    /// let links: Vec<_> = linkscan::LinkFinder::new().links_bytes(text).map(|l| l.range()).collect();
    /// assert_eq!(links, [5..16]);
    /// ```
    #[inline]
    pub fn links_bytes<'f, 't>(&'f self, text: &'t [u8]) -> Links<'f, 't> {
        Links {
            scanner: Scanner::new(text, &self.policy, self.kernel, self.suffix_rule()),
            text,
            urls: self.urls,
            emails: self.emails,
            max_link_len: self.max_link_len,
            report: self.report,
        }
    }

    /// What the scanner does with spec section 1.4: drop the URLs whose host is an ICANN
    /// suffix unless they are asked for, and look hosts up at all only when someone reads
    /// the verdict (the drop, or the readable policy's rule).
    fn suffix_rule(&self) -> SuffixRule {
        match (self.public_suffix_hosts, self.report) {
            (false, Policy::Conformant) => SuffixRule::DropIcann,
            (false, _) => SuffixRule::ReportAndDropIcann,
            (true, Policy::Conformant) => SuffixRule::Off,
            (true, _) => SuffixRule::Report,
        }
    }
}

/// Configures a [`LinkFinder`].
#[derive(Clone, Debug)]
pub struct LinkFinderBuilder {
    finder: LinkFinder,
}

impl LinkFinderBuilder {
    /// Report URLs (default: yes).
    pub fn urls(mut self, yes: bool) -> Self {
        self.finder.urls = yes;
        self
    }

    /// Report email addresses (default: yes).
    pub fn emails(mut self, yes: bool) -> Self {
        self.finder.emails = yes;
        self
    }

    /// How TLDs are recognised (default: [`TldPolicy::Iana`]).
    pub fn tld_policy(mut self, policy: TldPolicy) -> Self {
        self.finder.policy = policy;
        self
    }

    /// Shorthand for `tld_policy(TldPolicy::List(..))`.
    pub fn tld_set(self, set: TldSet) -> Self {
        self.tld_policy(TldPolicy::List(Arc::new(set)))
    }

    /// Links longer than this many bytes are not reported (default
    /// [`DEFAULT_MAX_LINK_LEN`]; `None`: no limit, exactly as the standard). UTS #58 section 8
    /// allows such limits. The scan is the same either way: text inside an overlong link
    /// is not searched for other links, and the scan goes on after it.
    ///
    /// ```
    /// use linkscan::LinkFinder;
    /// let text = format!("x.com/{} y.com", "a".repeat(100));
    /// let short = LinkFinder::builder().max_link_len(Some(50)).build();
    /// let found: Vec<&str> = short.links(&text).map(|l| l.as_str()).collect();
    /// assert_eq!(found, ["y.com"]);
    /// assert_eq!(LinkFinder::builder().max_link_len(None).build().links(&text).count(), 2);
    /// ```
    pub fn max_link_len(mut self, max: Option<usize>) -> Self {
        self.finder.max_link_len = max.unwrap_or(usize::MAX);
        self
    }

    /// Which detected links are reported, and with which bounds (default
    /// [`Policy::Conformant`]: all of them, as UTS #58 detects them). [`Policy::Readable`]
    /// applies the higher-level rules of spec section 8 that leave out code and file
    /// names; every entry point that scans through this finder (`links`, `par_links`,
    /// streaming, HTML, mail) gets the same links.
    ///
    /// ```
    /// use linkscan::{LinkFinder, Policy};
    /// let text = "Proc.new, tm.tm_year and bit.ly";
    /// let readable = LinkFinder::builder().policy(Policy::Readable).build();
    /// let found: Vec<&str> = readable.links(text).map(|l| l.as_str()).collect();
    /// assert_eq!(found, ["bit.ly"]);
    /// assert_eq!(LinkFinder::new().links(text).count(), 3);
    /// ```
    pub fn policy(mut self, policy: Policy) -> Self {
        self.finder.report = policy;
        self
    }

    /// Report URLs whose host is itself a public suffix of the list's ICANN section
    /// (`co.uk`, `https://gov.uk/`) too (default: no). Spec section 1.4 says that a domain
    /// that is not a registrable domain must not be linked, and a finder does not report
    /// them ([`is_public_suffix`](crate::is_public_suffix)); this is the way back to every
    /// link the scan detects, for an index that wants those hosts anyway. A finder with it
    /// is not conformant. Emails are never affected: an email's domain is not a URL host.
    /// The readable policy's own rule (the private section too) still applies.
    ///
    /// ```
    /// use linkscan::LinkFinder;
    /// let text = "see co.uk, bbc.co.uk and https://gov.uk/";
    /// let found: Vec<&str> = LinkFinder::new().links(text).map(|l| l.as_str()).collect();
    /// assert_eq!(found, ["bbc.co.uk"]);
    /// let every = LinkFinder::builder().public_suffix_hosts(true).build();
    /// assert_eq!(every.links(text).count(), 3);
    /// ```
    pub fn public_suffix_hosts(mut self, yes: bool) -> Self {
        self.finder.public_suffix_hosts = yes;
        self
    }

    /// The prefilter kernel (default: the fastest this CPU supports, [`Kernel::detect`]).
    /// Every kernel gives the same links; this is for tests and benchmarks.
    ///
    #[cfg(feature = "__internals")]
    #[doc(hidden)]
    pub fn prefilter_kernel(mut self, kernel: Kernel) -> Self {
        self.finder.kernel = kernel;
        self
    }

    /// The finder.
    pub fn build(self) -> LinkFinder {
        self.finder
    }
}

/// An iterator over the offset-only links of one text; see [`LinkFinder::links_bytes`].
pub struct Links<'f, 't> {
    scanner: Scanner<'t, 'f>,
    text: &'t [u8],
    urls: bool,
    emails: bool,
    max_link_len: usize,
    report: Policy,
}

/// Shows the options and where the scan is, not the text.
impl std::fmt::Debug for Links<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Links")
            .field("urls", &self.urls)
            .field("emails", &self.emails)
            .field("max_link_len", &self.max_link_len)
            .finish_non_exhaustive()
    }
}

impl Iterator for Links<'_, '_> {
    type Item = Link;

    #[inline]
    fn next(&mut self) -> Option<Link> {
        loop {
            let mut link = self.scanner.next_link()?;
            // Spec section 1.4 was applied by the scanner, which found the host; the
            // readable policy's rule takes its verdict (one lookup for both).
            if self.report != Policy::Conformant {
                // Out of line: the conformant scan pays one predictable branch.
                let suffix = self.scanner.found_suffix(&link);
                match policy::readable(self.text, link, suffix != Suffix::No) {
                    Some(refined) => link = refined,
                    None => continue,
                }
            }
            let wanted = match link.kind {
                LinkKind::Url => self.urls,
                LinkKind::Email => self.emails,
            } && link.end - link.start <= self.max_link_len;
            if wanted {
                return Some(link);
            }
        }
    }

    /// Counts without handing each link out, when no link is refined or left out but by
    /// its length and the public-suffix rule (`linkscan find --count`); otherwise one
    /// link at a time, through the filters.
    fn count(mut self) -> usize {
        if self.unfiltered() {
            return self.scanner.count_links(self.max_link_len);
        }
        self.fold(0, |n, _| n + 1)
    }
}

impl Links<'_, '_> {
    /// Whether every link the scanner finds is reported as it is (but for its length and
    /// spec section 1.4, which the scanner's count applies too).
    fn unfiltered(&self) -> bool {
        self.report == Policy::Conformant && self.urls && self.emails
    }
}

impl std::iter::FusedIterator for Links<'_, '_> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(list: &[&str]) -> String {
        let set = TldSet::from_list(list.iter().copied()).expect("valid list");
        LinkFinder::builder()
            .tld_policy(TldPolicy::List(Arc::new(set)))
            .build()
            .options_key()
    }

    #[test]
    fn the_key_names_a_tld_list_by_its_entries_not_its_length() {
        assert_ne!(key_of(&["com", "org"]), key_of(&["com", "net"]));
        assert_eq!(key_of(&["com", "org"]), key_of(&["org", "com"]));
        assert_eq!(key_of(&["com", "org"]), key_of(&["COM", "org"]));
        let iana = LinkFinder::new().options_key();
        assert!(iana.contains(crate::tables::TLD_LIST_VERSION), "{iana}");
        assert!(iana.contains(crate::tables::UNICODE_VERSION), "{iana}");
        assert_ne!(iana, key_of(&["com", "org"]));
    }
}
