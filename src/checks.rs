//! The security checks of UTS #58 section 8, as an optional layer over detection.
//!
//! The finder reports every syntactically valid link, as the specification requires
//! (UTS58-C1, UTS58-C3); section 8 lets a higher level — a linkifier — then reject links
//! or flag them. This module is that higher level. It never changes what the finder
//! reports: it looks at the text of each link and says which checks it fails.
//!
//! | check | fails when | why |
//! |---|---|---|
//! | [`Check::TldSyntax`] (`tld_syntax`) | the TLD is not syntactically valid ([`is_syntactic_tld`]: digits, hyphens, CONTEXTJ/CONTEXTO characters, a one-letter ASCII label, bad Punycode) | "a syntactically valid TLD is required for any domain name"; only a TLD list of the user's own (or a stale one) lets such a link through |
//! | [`Check::IdentifierStatus`] (`identifier_status`) | a character of the host, other than the dots, is not `Identifier_Status=Allowed` (UTS #39), looking inside `xn--` labels too | symbols, compatibility and obsolete characters in a domain name are a spoofing aid (`ｇoogle.com`, `payƿal.com`) |
//! | [`Check::BidiControl`] (`bidi_control`) | the link holds a `Bidi_Control=Yes` character (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) | they reorder the display of the link, so that what is shown is not where it leads |
//! | [`Check::Spoof`] (`spoof`) | the host passes `identifier_status` but is spoofable: [`crate::display::host_spoofable`], the very test by which the display form ([`crate::display`], `linkscan display`, `linkify`) shows a host in Punycode (a label mixing scripts beyond UTS #39's highly restrictive level, or one whose skeleton is all ASCII). So a host fails `identifier_status` or `spoof` exactly when it is displayed in ASCII | Cyrillic letters for `p` and `a` in `paypal.com`, or an all-Cyrillic look-alike of `apple.com` |
//! | [`Check::Invisible`] (`invisible`) | the link holds a `Default_Ignorable_Code_Point` other than a Bidi_Control character, ZWNJ, ZWJ or an emoji or text presentation selector (a soft hyphen, U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER…), or one stands right before or right after it ([`check_link`] sees the text; [`check`] only the link) | the reader sees `paypal.com` in `pay\u{200B}pal.com` (one host to UTS #46, but invisible to a reader who copies it), or `paypal@example.com` in `pay\u{200B}pal@example.com`, whose email is `pal@example.com` |
//!
//! Section 8 names `Identifier_Status=Recommended`, a value UTS #39 no longer has; its
//! successor `Allowed` (from `IdentifierStatus.txt`) is used. The dots (`.`, `．`, `。`)
//! are label separators, not characters of a label, and are not checked.
//!
//! The formatting half of section 8 — percent-escaping Bidi_Control characters, which
//! the conformant algorithm of section 4.1 leaves as they are — is
//! [`FormatOptions::escape_bidi_controls`](crate::FormatOptions::escape_bidi_controls);
//! [`SECURE_FORMAT`] is the options with it on.
//!
//! ```
//! use linkscan::checks::{self, Check};
//! use linkscan::LinkFinder;
//!
//! let text = "pay at ｅxample.com or example.com/\u{202E}fdp.exe, not example.c0m";
//! let finder = LinkFinder::new();
//! let found: Vec<(&str, Vec<&str>)> = checks::checked_links(&finder, text.as_bytes())
//!     .map(|(link, check)| (link.as_str(text), check.names().collect()))
//!     .collect();
//! assert_eq!(found, [
//!     ("ｅxample.com", vec!["identifier_status"]),
//!     ("example.com/\u{202E}fdp.exe", vec!["bidi_control"]),
//! ]);
//!
//! // A linkifier that rejects what fails a check keeps only the links that pass.
//! let safe: Vec<&str> = checks::checked_links(&finder, text.as_bytes())
//!     .filter(|(_, check)| check.passed())
//!     .map(|(link, _)| link.as_str(text))
//!     .collect();
//! assert!(safe.is_empty());
//! ```

use std::fmt;

use crate::display::{host_identifiers_allowed, host_spoofable};
use crate::finder::{LinkFinder, Links};
use crate::format::FormatOptions;
pub use crate::invisible::is_default_ignorable;
use crate::invisible::{char_before, is_invisible};
use crate::link::{Link, LinkKind};
use crate::props::{is_bidi_control, is_host_char};
use crate::tld::is_syntactic_tld;

/// The formatter options that section 8 asks for: Bidi_Control characters percent-escaped
/// along with the Hard ones.
///
/// ```
/// use linkscan::{checks::SECURE_FORMAT, escape_url_with};
/// assert_eq!(
///     escape_url_with("example.com/\u{202E}fdp.exe", &SECURE_FORMAT),
///     "example.com/%E2%80%AEfdp.exe"
/// );
/// ```
pub const SECURE_FORMAT: FormatOptions = FormatOptions {
    escape_bidi_controls: true,
};

/// One security check of section 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Check {
    /// The TLD is not syntactically valid.
    TldSyntax,
    /// A host character is not `Identifier_Status=Allowed`.
    IdentifierStatus,
    /// The link holds a `Bidi_Control` character.
    BidiControl,
    /// The host is spoofable: it is displayed in Punycode
    /// ([`crate::display::host_spoofable`]).
    Spoof,
    /// The link holds a `Default_Ignorable_Code_Point`, or one is right before it.
    Invisible,
}

impl Check {
    /// Every check, in the order of [`LinkCheck::iter`].
    pub const ALL: [Check; 5] = [
        Check::TldSyntax,
        Check::IdentifierStatus,
        Check::BidiControl,
        Check::Spoof,
        Check::Invisible,
    ];

    /// The check's name as the command line prints it: `tld_syntax`, `identifier_status`,
    /// `bidi_control`, `spoof`, `invisible`.
    ///
    /// ```
    /// assert_eq!(linkscan::checks::Check::BidiControl.name(), "bidi_control");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Check::TldSyntax => "tld_syntax",
            Check::IdentifierStatus => "identifier_status",
            Check::BidiControl => "bidi_control",
            Check::Spoof => "spoof",
            Check::Invisible => "invisible",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of the checks on one link: the set of checks it fails (empty: it passed).
///
/// ```
/// use linkscan::checks::{check, Check};
/// use linkscan::LinkKind;
/// let result = check("ｅxample.com/\u{200F}", LinkKind::Url);
/// assert!(!result.passed());
/// assert!(result.fails(Check::IdentifierStatus) && result.fails(Check::BidiControl));
/// assert_eq!(result.to_string(), "identifier_status,bidi_control");
/// assert!(check("bücher.de", LinkKind::Url).passed());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinkCheck {
    failed: u8,
}

impl LinkCheck {
    /// Whether the link passed every check.
    #[inline]
    pub fn passed(self) -> bool {
        self.failed == 0
    }

    /// Whether the link fails `check`.
    #[inline]
    pub fn fails(self, check: Check) -> bool {
        self.failed & check.bit() != 0
    }

    /// The checks the link fails, in the order of [`Check::ALL`].
    pub fn iter(self) -> impl Iterator<Item = Check> {
        Check::ALL.into_iter().filter(move |&c| self.fails(c))
    }

    /// The names of the checks the link fails ([`Check::name`]).
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        self.iter().map(Check::name)
    }

    fn fail(&mut self, check: Check) {
        self.failed |= check.bit();
    }
}

/// The names of the failed checks joined by `,` (empty when the link passed).
impl fmt::Display for LinkCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, name) in self.names().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// The host of a link, given the link's own text and kind: what follows the last `@` of
/// an email; for a URL, the run of host characters after an `http://` or `https://`
/// (ASCII case ignored), which includes a trailing dot when the link kept one.
///
/// ```
/// use linkscan::{checks::host, LinkKind};
/// assert_eq!(host("HTTPS://bücher.de:8080/x", LinkKind::Url), "bücher.de");
/// assert_eq!(host("example.com./αβγ", LinkKind::Url), "example.com.");
/// assert_eq!(host("mailto:σωκράτης@example.om", LinkKind::Email), "example.om");
/// ```
pub fn host(link_text: &str, kind: LinkKind) -> &str {
    match kind {
        LinkKind::Email => link_text
            .rfind('@')
            .map_or(link_text, |at| &link_text[at + 1..]),
        LinkKind::Url => {
            // A detected URL starts with its scheme when it has one: `http://`, `https://`
            // or another `scheme://` (RFC 3986: a letter, then letters, digits, `+-.`).
            let rest = match link_text.find("://") {
                Some(i) if is_scheme(&link_text[..i]) => &link_text[i + 3..],
                _ => link_text,
            };
            // The host walk passes over IDNA-ignored code points (soft hyphen, ZWSP…), so
            // the host does too; the checks read it without them.
            let end = rest
                .char_indices()
                .find(|&(_, c)| !is_host_char(c) && !crate::props::is_host_ignored(c))
                .map_or(rest.len(), |(i, _)| i);
            &rest[..end]
        }
    }
}

/// Whether `s` is an RFC 3986 scheme name: a letter, then letters, digits, `+`, `-`, `.`.
fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// The TLD of a host: its last label after a Dot (`.` or `。`), a trailing dot ignored.
///
/// ```
/// assert_eq!(linkscan::checks::tld("www.example.com."), "com");
/// assert_eq!(linkscan::checks::tld("例え。テスト"), "テスト");
/// ```
pub fn tld(host: &str) -> &str {
    let host = host.strip_suffix(['.', '\u{3002}']).unwrap_or(host);
    host.rfind(['.', '\u{3002}']).map_or(host, |dot| {
        &host[dot + host[dot..].chars().next().map_or(1, char::len_utf8)..]
    })
}

/// Runs the checks on one link, given the link's own text and kind. (Only
/// [`check_link`], which sees the text around the link, can tell that an invisible code
/// point stands right before it.)
///
/// ```
/// use linkscan::{checks::check, LinkKind};
/// assert_eq!(check("example.c0m", LinkKind::Url).to_string(), "tld_syntax");
/// assert_eq!(check("xn--80ak6aa92e.com", LinkKind::Url).to_string(), "spoof");
/// assert_eq!(check("payƿal.com", LinkKind::Url).to_string(), "identifier_status");
/// assert_eq!(check("\u{0440}aypal.com", LinkKind::Url).to_string(), "spoof");
/// assert_eq!(check("x\u{200E}y@example.com", LinkKind::Email).to_string(), "bidi_control");
/// assert_eq!(check("example.com/a\u{00AD}b", LinkKind::Url).to_string(), "invisible");
/// ```
pub fn check(link_text: &str, kind: LinkKind) -> LinkCheck {
    let mut result = LinkCheck::default();
    // The host as UTS #46 reads it: without its Ignored code points (the `invisible` check
    // below reports those).
    let host = host(link_text, kind);
    let cleaned: String;
    let host = if host.is_ascii() {
        host
    } else {
        cleaned = host
            .chars()
            .filter(|&c| !crate::props::is_host_ignored(c))
            .collect();
        &cleaned
    };
    if !is_syntactic_tld(tld(host).as_bytes()) {
        result.fail(Check::TldSyntax);
    }
    if !host_identifiers_allowed(host) {
        result.fail(Check::IdentifierStatus);
    }
    // A host that fails `identifier_status` is spoofable for that reason alone: one
    // reason, one check.
    if !result.fails(Check::IdentifierStatus) && host_spoofable(host) {
        result.fail(Check::Spoof);
    }
    // Bidi_Control and invisible characters are all outside ASCII; most links are ASCII.
    if !link_text.is_ascii() {
        if link_text.chars().any(is_bidi_control) {
            result.fail(Check::BidiControl);
        }
        if link_text.chars().any(is_invisible) {
            result.fail(Check::Invisible);
        }
    }
    result
}

/// Runs the checks on `link`, found in `text` (bytes, as given to
/// [`LinkFinder::links_bytes`]): those of [`check`], and [`Check::Invisible`] also when a
/// `Default_Ignorable_Code_Point` is right before the link (`pay\u{200B}pal@example.com` gives
/// the email `pal@example.com`) or right after it (`example.co\u{00AD}m` gives
/// `example.co`).
///
/// ```
/// use linkscan::checks::{check_link, Check};
/// use linkscan::LinkFinder;
/// let text = "pay\u{200B}pal@example.com";
/// let link = LinkFinder::new().links(text).next().unwrap();
/// assert_eq!(link.as_str(), "pal@example.com");
/// assert!(check_link(text.as_bytes(), &link.into()).fails(Check::Invisible));
/// ```
///
/// # Panics
/// If `link` is not a link of `text` (its range is out of bounds).
pub fn check_link(text: &[u8], link: &Link) -> LinkCheck {
    // A link never contains invalid UTF-8; if a foreign range does, its lossy text is
    // checked (U+FFFD is not Allowed, so such a host fails `identifier_status`).
    let link_text = String::from_utf8_lossy(&text[link.range()]);
    let mut result = check(&link_text, link.kind());
    let after = std::str::from_utf8(&text[link.end()..text.len().min(link.end() + 4)]);
    let after = match after {
        Ok(after) => after.chars().next(),
        Err(e) => std::str::from_utf8(&text[link.end()..link.end() + e.valid_up_to()])
            .ok()
            .and_then(|s| s.chars().next()),
    };
    if char_before(text, link.start()).is_some_and(is_invisible) || after.is_some_and(is_invisible)
    {
        result.fail(Check::Invisible);
    }
    result
}

/// Runs the checks on a link whose text is `link_text`, between `before` and `after` in
/// its text (as [`check_link`] does with a [`Link`]; each may be empty, or all the text on
/// its side: only the character next to the link is looked at).
///
/// ```
/// use linkscan::{checks::check_between, LinkKind};
/// assert_eq!(check_between("pay\u{200B}", "pal.com", "", LinkKind::Url).to_string(), "invisible");
/// assert_eq!(check_between("", "example.co", "\u{00AD}m", LinkKind::Url).to_string(), "invisible");
/// assert!(check_between("pay ", "pal.com", " now", LinkKind::Url).passed());
/// ```
pub fn check_between(before: &str, link_text: &str, after: &str, kind: LinkKind) -> LinkCheck {
    let mut result = check(link_text, kind);
    if before.chars().next_back().is_some_and(is_invisible)
        || after.chars().next().is_some_and(is_invisible)
    {
        result.fail(Check::Invisible);
    }
    result
}

/// The links of `text` with the result of their checks; see [`checked_links`].
pub struct Checked<'f, 't> {
    links: Links<'f, 't>,
    text: &'t [u8],
}

/// Shows the links iterator and the text's length, not the text.
impl std::fmt::Debug for Checked<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checked")
            .field("links", &self.links)
            .field("text_len", &self.text.len())
            .finish()
    }
}

impl Iterator for Checked<'_, '_> {
    type Item = (Link, LinkCheck);

    fn next(&mut self) -> Option<(Link, LinkCheck)> {
        let link = self.links.next()?;
        Some((link, check_link(self.text, &link)))
    }
}

impl std::iter::FusedIterator for Checked<'_, '_> {}

/// The links that `finder` finds in `text` (bytes that need not be UTF-8), each with the
/// result of its checks. The links are exactly those of
/// [`LinkFinder::links_bytes`]; filter on [`LinkCheck::passed`] to reject what fails.
///
/// ```
/// use linkscan::{checks::checked_links, LinkFinder};
/// let text = b"see example.com/\xE2\x80\xAEx and example.org";
/// let results: Vec<String> = checked_links(&LinkFinder::new(), text)
///     .map(|(_, check)| check.to_string())
///     .collect();
/// assert_eq!(results, ["bidi_control", ""]);
/// ```
pub fn checked_links<'f, 't>(finder: &'f LinkFinder, text: &'t [u8]) -> Checked<'f, 't> {
    Checked {
        links: finder.links_bytes(text),
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str, kind: LinkKind) -> String {
        check(text, kind).to_string()
    }

    #[test]
    fn tld_syntax() {
        for bad in [
            "example.c0m",
            "example.a-b",
            "example.c",
            "x@example.co2",
            "a.xn--zz",
        ] {
            let kind = if bad.contains('@') {
                LinkKind::Email
            } else {
                LinkKind::Url
            };
            assert!(check(bad, kind).fails(Check::TldSyntax), "{bad}");
        }
        for good in [
            "example.com",
            "example.com.",
            "例え。テスト",
            "a.xn--p1ai",
            "a.рф/x",
        ] {
            assert!(
                !check(good, LinkKind::Url).fails(Check::TldSyntax),
                "{good}"
            );
        }
    }

    #[test]
    fn every_iana_tld_is_syntactic() {
        let failing: Vec<&str> = crate::tables::TLDS
            .iter()
            .copied()
            .filter(|t| !is_syntactic_tld(t.as_bytes()))
            .collect();
        assert!(failing.is_empty(), "{failing:?}");
    }

    #[test]
    fn identifier_status() {
        // Fullwidth letter, a symbol, a Restricted (obsolete) letter, an xn-- label that
        // decodes to a symbol (☃ is xn--n3h).
        for bad in [
            "ｅxample.com",
            "payƿal.com",
            "ƿ.com",
            "xn--n3h.com",
            "ⓐ.com",
        ] {
            assert!(
                check(bad, LinkKind::Url).fails(Check::IdentifierStatus),
                "{bad}"
            );
        }
        // Letters of many scripts, digits, hyphens, every dot, Punycode of an allowed name,
        // and characters after the host (a symbol in the path is not in the host).
        for good in [
            "bücher.de",
            "http://xn--bcher-kva.de/✓",
            "ουτοπία.δπθ.gr",
            "a-1.example．com。jp",
            "例え。テスト",
            "x✓@example.com",
        ] {
            let kind = if good.starts_with("x✓") {
                LinkKind::Email
            } else {
                LinkKind::Url
            };
            assert!(!check(good, kind).fails(Check::IdentifierStatus), "{good}");
        }
    }

    #[test]
    fn bidi_control_anywhere_in_the_link() {
        for c in [
            '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}',
        ] {
            let url = format!("example.com/a{c}b");
            assert_eq!(names(&url, LinkKind::Url), "bidi_control", "{c:?}");
        }
        assert_eq!(names("example.com/a\u{200D}b", LinkKind::Url), "");
    }

    #[test]
    fn invisible_in_or_right_before_the_link() {
        for c in [
            '\u{00AD}',
            '\u{200B}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{180E}',
            '\u{E0041}',
        ] {
            let url = format!("example.com/a{c}b");
            assert_eq!(names(&url, LinkKind::Url), "invisible", "{c:?}");
            let email = format!("a{c}b@example.com");
            assert_eq!(names(&email, LinkKind::Email), "invisible", "{c:?}");
            // Right before an email's local part (which never passes over one): only
            // check_link sees it.
            let text = format!("x{c}pal@example.com");
            let finder = LinkFinder::new();
            let link = finder.links_bytes(text.as_bytes()).next().unwrap();
            assert_eq!(&text[link.range()], "pal@example.com", "{c:?}");
            assert!(check_link(text.as_bytes(), &link).fails(Check::Invisible));
            assert!(check(&text[link.range()], LinkKind::Email).passed());
            // In a host, the walk passes over an IDNA-ignored one (`pay<ZWSP>pal.com` is one
            // host); either way the link is flagged.
            let text = format!("x{c}pal.com");
            let link = finder.links_bytes(text.as_bytes()).next().unwrap();
            assert!(
                check_link(text.as_bytes(), &link).fails(Check::Invisible),
                "{c:?}"
            );
        }
        // Joiners, emoji presentation and a plain space before: not flagged.
        for text in [
            "a\u{200C}b@example.com",
            "example.com/\u{2764}\u{FE0F}",
            "x pal.com",
        ] {
            let finder = LinkFinder::new();
            let link = finder.links_bytes(text.as_bytes()).next().unwrap();
            assert!(
                !check_link(text.as_bytes(), &link).fails(Check::Invisible),
                "{text}"
            );
        }
    }

    #[test]
    fn spoof_is_the_display_verdict() {
        for (host, spoof) in [
            ("example.com", false),
            ("bücher.de", false),
            ("例え.テスト", false),
            ("\u{0440}aypal.com", true),
            ("\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}.com", true),
            ("xn--80ak6aa92e.com", true),
            ("ｅxample.com", true),
        ] {
            let url = format!("https://{host}/x");
            let result = check(&url, LinkKind::Url);
            let flagged = result.fails(Check::Spoof) || result.fails(Check::IdentifierStatus);
            assert_eq!(flagged, spoof, "{host}");
            let shown = crate::display::display_host(host);
            assert_eq!(
                shown.is_ascii() && !host.is_ascii() || host.starts_with("xn--") && shown == host,
                spoof,
                "{host}"
            );
            let result = check(&format!("a@{host}"), LinkKind::Email);
            let flagged = result.fails(Check::Spoof) || result.fails(Check::IdentifierStatus);
            assert_eq!(flagged, spoof, "{host}");
        }
    }

    #[test]
    fn ascii_shortcut_agrees_with_the_table() {
        use crate::props::is_identifier_allowed;
        for b in 0..0x80u8 {
            let label = (b as char).to_string();
            assert_eq!(
                crate::display::label_allowed(&label),
                is_identifier_allowed(b as char),
                "{:?}",
                b as char
            );
        }
    }

    #[test]
    fn hosts() {
        assert_eq!(host("http://example.com:80", LinkKind::Url), "example.com");
        assert_eq!(host("example.com?q", LinkKind::Url), "example.com");
        assert_eq!(host("Http://x.com#f", LinkKind::Url), "x.com");
        assert_eq!(host("a@b.com", LinkKind::Email), "b.com");
        assert_eq!(tld("com"), "com");
        assert_eq!(tld("a.b。"), "b");
        assert_eq!(tld(""), "");
    }

    #[test]
    fn checked_links_are_the_finders_links() {
        let text = "ｅxample.com, x@example.com and \u{202E}example.org/\u{202E}";
        let finder = LinkFinder::new();
        let links: Vec<Link> = checked_links(&finder, text.as_bytes())
            .map(|(l, _)| l)
            .collect();
        assert_eq!(
            links,
            finder.links(text).map(Link::from).collect::<Vec<_>>()
        );
        let results: Vec<String> = checked_links(&finder, text.as_bytes())
            .map(|(_, c)| c.to_string())
            .collect();
        assert_eq!(results, ["identifier_status", "", "bidi_control"]);
    }
}
