//! The display form of a link: how a URL or an email address is shown to people, in any
//! script and in any paragraph direction.
//!
//! UTS #58 section 4 says the minimally escaped form "should be used whenever a URL is
//! visible to end users", section 8 that Bidi_Control characters "will be
//! percent-escaped", and it points to HL4 of UAX #9 for bidirectional URLs. The display
//! form ([`display_url`], [`display_email`], [`display_link`]) is:
//!
//! * the path, query and fragment minimally escaped (section 4.1, the string path of
//!   [`crate::format::escape_url`]);
//! * the host in Unicode (UTS #46 ToUnicode), **unless it is spoofable** ([`host_spoof`]),
//!   then in its ASCII (Punycode) form: a host is spoofable when a character fails
//!   `Identifier_Status` ([`crate::checks`]), when one of its labels mixes scripts beyond
//!   UTS #39's *highly restrictive* level (Latin with Han and Kana, or Hangul, or Bopomofo,
//!   is the most it allows), or when a non-ASCII label's UTS #39 skeleton is all ASCII,
//!   that is when it is confusable with an ASCII label (`аррӏе` and `apple`). The
//!   `unicode-security` crate provides the restriction levels and skeletons;
//! * every Bidi_Control character percent-escaped, everywhere, the host included;
//! * every syntax look-alike (`⁄` U+2044, `∕` U+2215, `／` U+FF0F, `․` U+2024, `Ɂ` U+0241…,
//!   a character that reads as `/ ? # . :` and is not; [`SYNTAX_LOOKALIKES`] says how the
//!   set was chosen) percent-escaped, so that no fake path, query or port shows;
//! * for an email, the local part minimally quoted (section 5.3) and the domain shown as
//!   a URL's host.
//!
//! With [`DisplayOptions::bidi`], the display form also follows the rule for displaying
//! IRIs in right-to-left text: the link is split into **fields** and **separators**
//! ([`fields`]) — the separators are `://`, the dots of the domain (`.`, `。`, `．`, `｡`),
//! `/` in the path, `?`, `=` and `&` in the query, and `#` (plus `@` before an email's
//! domain or after userinfo, and `:` before a port) — and the whole link is put between
//! LRI and PDI, each field between two LRMs. Then the fields read left to right in a
//! left-to-right and in a right-to-left paragraph alike: `http://a.b.C.D.com` (capitals
//! standing for right-to-left letters) is not shown as `com.D.C.http://a.b.`.
//!
//! [`ascii_form`] is the other side: what goes into an `href`, with a Punycode host and
//! every non-ASCII byte (Bidi_Control characters included) percent-encoded.
//!
//! Invariants: the display form never holds a Bidi_Control character except the LRI, PDI
//! and LRMs that [`DisplayOptions::bidi`] adds; it is made in one linear pass over the link
//! (plus IDNA on the host); nothing panics on any input. [`crate::format::escape_url`]
//! keeps its conformant meaning: the display form is for people.

use std::borrow::Cow;
use std::ops::Range;

use unicode_security::{skeleton, RestrictionLevel, RestrictionLevelDetection};

use crate::format::{
    escape_url_showing, format_host, push_escaped_char, quote_local_part, FormatOptions, RawUrl,
};
use crate::{is_bidi_control, is_identifier_allowed, LinkKind};

mod lookalikes;
pub use lookalikes::{escape_syntax_lookalikes, syntax_lookalike, SYNTAX_LOOKALIKES};

/// LEFT-TO-RIGHT ISOLATE, put before a link with [`DisplayOptions::bidi`].
pub const LRI: char = '\u{2066}';
/// POP DIRECTIONAL ISOLATE, put after a link with [`DisplayOptions::bidi`].
pub const PDI: char = '\u{2069}';
/// LEFT-TO-RIGHT MARK, put on both sides of each field with [`DisplayOptions::bidi`].
pub const LRM: char = '\u{200E}';

/// Options of the display form. The default is the display form without bidi marks.
///
/// ```
/// use linkscan::display::DisplayOptions;
/// assert!(!DisplayOptions::default().bidi);
/// assert!(DisplayOptions::default().with_bidi(true).bidi);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct DisplayOptions {
    /// Put the link between LRI and PDI and each field between LRMs, so that its fields
    /// read left to right in any paragraph (see the [module documentation](self)).
    pub bidi: bool,
}

impl DisplayOptions {
    /// Sets [`DisplayOptions::bidi`].
    pub fn with_bidi(mut self, yes: bool) -> Self {
        self.bidi = yes;
        self
    }
}

/// Why a host is shown in ASCII rather than in Unicode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Spoof {
    /// A character is not `Identifier_Status=Allowed` (UTS #39), as
    /// [`crate::checks::Check::IdentifierStatus`].
    IdentifierStatus,
    /// A label mixes scripts beyond UTS #39's highly restrictive level (`раypal`: Cyrillic
    /// and Latin).
    MixedScripts,
    /// A non-ASCII label whose UTS #39 skeleton is all ASCII: it can pass for an ASCII
    /// label (`аррӏе`, all Cyrillic, for `apple`).
    ConfusableWithAscii,
}

impl Spoof {
    /// `identifier_status`, `mixed_scripts` or `confusable_with_ascii`.
    ///
    /// ```
    /// assert_eq!(linkscan::display::Spoof::MixedScripts.name(), "mixed_scripts");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Spoof::IdentifierStatus => "identifier_status",
            Spoof::MixedScripts => "mixed_scripts",
            Spoof::ConfusableWithAscii => "confusable_with_ascii",
        }
    }
}

/// The label separators of a domain: `.`, `。`, `．` and `｡` (UTS #46 maps the other
/// three to `.`).
fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// Whether every label of `host` passes [`crate::checks::Check::IdentifierStatus`]: its characters
/// are `Identifier_Status=Allowed`, an `xn--` label's decoded ones too.
pub(crate) fn host_identifiers_allowed(host: &str) -> bool {
    // The dots of the TLD search and the fullwidth full stop, which IDNA maps to `.`.
    host.split(['.', '\u{FF0E}', '\u{3002}']).all(label_allowed)
}

/// Whether every character of `label` (dots excluded) is `Identifier_Status=Allowed`;
/// an `xn--` label is checked in its decoded form too.
pub(crate) fn label_allowed(label: &str) -> bool {
    let allowed = if label.is_ascii() {
        // The same answer as the table for ASCII, without decoding UTF-8.
        label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'\'' | b'-' | b'.' | b':' | b'_'))
    } else {
        label.chars().all(is_identifier_allowed)
    };
    if !allowed {
        return false;
    }
    match label.get(..4) {
        Some(prefix) if prefix.eq_ignore_ascii_case("xn--") => {
            let ace = label[4..].to_ascii_lowercase();
            // Undecodable Punycode is no character at all: the label is left to DNS.
            idna::punycode::decode_to_string(&ace)
                .is_none_or(|decoded| decoded.chars().all(is_identifier_allowed))
        }
        _ => true,
    }
}

/// Why `host` (a domain name, Unicode or Punycode) would be a spoofing aid if shown in
/// Unicode, or `None` when it is safe to show.
///
/// ```
/// use linkscan::display::{host_spoof, Spoof};
/// assert_eq!(host_spoof("bücher.de"), None);
/// assert_eq!(host_spoof("xn--bcher-kva.de"), None);
/// assert_eq!(host_spoof("παράδειγμα.ελ"), None);
/// assert_eq!(host_spoof("例え.テスト"), None);
/// assert_eq!(host_spoof("pay✓al.com"), Some(Spoof::IdentifierStatus));
/// assert_eq!(host_spoof("\u{0440}aypal.com"), Some(Spoof::MixedScripts));
/// assert_eq!(host_spoof("\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}.com"), Some(Spoof::ConfusableWithAscii));
/// assert_eq!(host_spoof("xn--80ak6aa92e.com"), Some(Spoof::ConfusableWithAscii));
/// ```
pub fn host_spoof(host: &str) -> Option<Spoof> {
    if !host_identifiers_allowed(host) {
        return Some(Spoof::IdentifierStatus);
    }
    let unicode = match idna::domain_to_unicode(host) {
        (unicode, Ok(())) => Cow::Owned(unicode),
        // Not a valid domain name: it is shown as written, so judge what is written.
        (_, Err(_)) => Cow::Borrowed(host),
    };
    for label in unicode.split(is_label_separator) {
        if label.is_ascii() {
            continue;
        }
        if !label.chars().all(is_identifier_allowed) {
            return Some(Spoof::IdentifierStatus);
        }
        if label.detect_restriction_level() > RestrictionLevel::HighlyRestrictive {
            return Some(Spoof::MixedScripts);
        }
        if skeleton(label).all(|c| c.is_ascii()) {
            return Some(Spoof::ConfusableWithAscii);
        }
    }
    None
}

/// The host as shown to people: in Unicode ([`format_host`]) unless it is spoofable
/// ([`host_spoof`]), then in ASCII (UTS #46 ToASCII, Punycode; percent-escaped when it
/// has no Punycode form). IP literals, hosts with percent-escapes and names that are not
/// valid domain names but not spoofable are given back as written, and so is a plain ASCII
/// host (no `xn--` label): ToUnicode would only change its case.
///
/// ```
/// use linkscan::display::display_host;
/// assert_eq!(display_host("xn--bcher-kva.de"), "bücher.de");
/// assert_eq!(display_host("ΠΑΡΆΔΕΙΓΜΑ.ΕΛ"), "παράδειγμα.ελ");
/// assert_eq!(display_host("\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}.com"), "xn--80ak6aa92e.com");
/// assert_eq!(display_host("xn--80ak6aa92e.com"), "xn--80ak6aa92e.com");
/// assert_eq!(display_host("[::1]"), "[::1]");
/// assert_eq!(display_host("Example.COM"), "Example.COM"); // ASCII: as written
/// ```
pub fn display_host(host: &str) -> Cow<'_, str> {
    if !host_spoofable(host) {
        if host.is_empty() || host.starts_with('[') || host.contains('%') || plain_ascii(host) {
            // Shown as written: ToUnicode would only lower-case a plain ASCII host, and a
            // reader's `BuildLinuxMan.pl` or `Example.COM` should not change on the page.
            return Cow::Borrowed(host);
        }
        return format_host(host);
    }
    match idna::domain_to_ascii(host) {
        Ok(ascii) if !ascii.is_empty() => Cow::Owned(ascii),
        // Spoofable and not a valid domain name (a label mixing directions fails the
        // bidi rule of IDNA): no Punycode form, so its non-ASCII bytes are escaped.
        _ => {
            let mut ascii = String::with_capacity(host.len() * 3);
            push_ascii(host, &mut ascii);
            Cow::Owned(ascii)
        }
    }
}

/// Whether `host` is ASCII without a Punycode label. (Any `xn--`, even inside a label,
/// counts: it can only take the slower path.)
fn plain_ascii(host: &str) -> bool {
    host.is_ascii()
        && !host
            .as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b"xn--"))
}

/// Whether [`display_host`] shows `host` in ASCII rather than as written or in Unicode:
/// the one spoof verdict of this crate, which [`crate::checks::Check::Spoof`] reports too.
/// IP literals and hosts with percent-escapes are never spoofable (they are shown as
/// written); an ASCII host without a Punycode label is spoofable only when a character
/// fails `Identifier_Status`; any other host when [`host_spoof`] gives a reason.
///
/// ```
/// use linkscan::display::host_spoofable;
/// assert!(!host_spoofable("bücher.de") && !host_spoofable("Example.COM"));
/// assert!(host_spoofable("\u{0440}aypal.com") && host_spoofable("xn--80ak6aa92e.com"));
/// ```
pub fn host_spoofable(host: &str) -> bool {
    if host.is_empty() || host.starts_with('[') || host.contains('%') {
        return false;
    }
    // An ASCII host without a Punycode label has no label to spoof with: only its
    // characters are checked (the common case, without IDNA).
    if plain_ascii(host) {
        // The `identifier_status` check of an ASCII host without Punycode labels.
        return !host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'\'' | b'-' | b'.' | b':' | b'_'));
    }
    host_spoof(host).is_some()
}

/// The formatter options of the display form: Bidi_Control characters escaped.
const DISPLAY_FORMAT: FormatOptions = FormatOptions {
    escape_bidi_controls: true,
};

/// The display form of a URL (see the [module documentation](self)): minimally escaped,
/// its host in Unicode unless spoofable, Bidi_Control characters percent-escaped.
///
/// ```
/// use linkscan::display::{display_url, DisplayOptions};
/// let plain = DisplayOptions::default();
/// assert_eq!(
///     display_url("https://xn--bcher-kva.de/b%C3%BCcher?q=%CE%B1#%CE%B2", &plain),
///     "https://bücher.de/bücher?q=α#β"
/// );
/// // A spoofable host stays in Punycode; a U+202E is escaped, wherever it is.
/// assert_eq!(
///     display_url("https://xn--80ak6aa92e.com/\u{202E}fdp.exe", &plain),
///     "https://xn--80ak6aa92e.com/%E2%80%AEfdp.exe"
/// );
/// // With bidi marks: LRI, the fields between LRMs, PDI.
/// assert_eq!(
///     display_url("ar.wikipedia.org/wiki/مصر", &plain.with_bidi(true)),
///     "\u{2066}\u{200E}ar\u{200E}.\u{200E}wikipedia\u{200E}.\u{200E}org\u{200E}/\
///      \u{200E}wiki\u{200E}/\u{200E}مصر\u{200E}\u{2069}"
/// );
/// ```
pub fn display_url(url: &str, options: &DisplayOptions) -> String {
    let shown = escape_url_showing(url, &DISPLAY_FORMAT, display_host);
    finish(shown, LinkKind::Url, options)
}

/// Splits `mailto:` (any case) off the front of `text`.
fn split_mailto(text: &str) -> (&str, &str) {
    match text.get(..7) {
        Some(scheme) if scheme.eq_ignore_ascii_case("mailto:") => text.split_at(7),
        _ => ("", text),
    }
}

/// `text` with every Bidi_Control character percent-escaped (for text shown as a link
/// that is not a link's own text, such as the content of an HTML anchor).
///
/// ```
/// use linkscan::display::escape_bidi_controls;
/// assert_eq!(escape_bidi_controls("abc"), "abc");
/// assert_eq!(escape_bidi_controls("a\u{202E}b"), "a%E2%80%AEb");
/// ```
pub fn escape_bidi_controls(text: &str) -> Cow<'_, str> {
    if text.is_ascii() || !text.chars().any(is_bidi_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_without_bidi_controls(text, &mut out);
    Cow::Owned(out)
}

/// Appends `text` with every Bidi_Control character percent-escaped.
fn push_without_bidi_controls(text: &str, out: &mut String) {
    // Bidi_Control characters are all outside ASCII.
    if text.is_ascii() {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        if is_bidi_control(c) {
            push_escaped_char(c, out);
        } else {
            out.push(c);
        }
    }
}

/// The display form of an email address (`local@domain`, optionally after `mailto:`):
/// the local part minimally quoted (section 5.3; one already in quotes stays as it is),
/// the domain as a URL's host ([`display_host`]), Bidi_Control characters
/// percent-escaped.
///
/// ```
/// use linkscan::display::{display_email, DisplayOptions};
/// let plain = DisplayOptions::default();
/// assert_eq!(display_email("σωκράτης@xn--bcher-kva.de", &plain), "σωκράτης@bücher.de");
/// assert_eq!(display_email("john doe@example.com", &plain), "\"john doe\"@example.com");
/// assert_eq!(display_email("mailto:x@example.com", &plain), "mailto:x@example.com");
/// assert_eq!(
///     display_email("x@\u{0440}aypal.com", &plain.with_bidi(true)),
///     "\u{2066}\u{200E}x\u{200E}@\u{200E}xn--aypal-uye\u{200E}.\u{200E}com\u{200E}\u{2069}"
/// );
/// ```
pub fn display_email(address: &str, options: &DisplayOptions) -> String {
    let (scheme, address) = split_mailto(address);
    let mut shown = String::with_capacity(address.len() + 8);
    shown.push_str(scheme);
    match address.rfind('@') {
        Some(at) => {
            let (local, domain) = (&address[..at], &address[at + 1..]);
            let quoted = local.len() >= 2 && local.starts_with('"') && local.ends_with('"');
            let local = if quoted {
                Cow::Borrowed(local)
            } else {
                quote_local_part(local).unwrap_or(Cow::Borrowed(local))
            };
            push_without_bidi_controls(&local, &mut shown);
            shown.push('@');
            push_without_bidi_controls(&display_host(domain), &mut shown);
        }
        None => push_without_bidi_controls(address, &mut shown),
    }
    finish(shown, LinkKind::Email, options)
}

/// The display form of a link of `kind`: [`display_url`] or [`display_email`].
///
/// ```
/// use linkscan::display::{display_link, DisplayOptions};
/// use linkscan::LinkKind;
/// let text = "راجع https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1 أو ali@مثال.مصر";
/// let shown: Vec<String> = linkscan::LinkFinder::new()
///     .links(text)
///     .map(|l| display_link(l.as_str(), l.kind(), &DisplayOptions::default()))
///     .collect();
/// assert_eq!(shown, ["https://ar.wikipedia.org/wiki/مصر", "ali@مثال.مصر"]);
/// ```
pub fn display_link(text: &str, kind: LinkKind, options: &DisplayOptions) -> String {
    match kind {
        LinkKind::Url => display_url(text, options),
        LinkKind::Email => display_email(text, options),
    }
}

/// How a link written on its own (a command-line argument, a line of input, a string
/// passed from another language) is read: as the finder reads it when the finder sees it
/// as one whole link; otherwise as an email when it starts with `mailto:`, or when it has
/// no `://` and an `@` with no `/`, `?` or `#` before it; as a URL else.
///
/// ```
/// use linkscan::{display::kind_of, LinkKind};
/// assert_eq!(kind_of("a@example.com"), LinkKind::Email);
/// assert_eq!(kind_of("\"a b\"@x.de"), LinkKind::Email);
/// assert_eq!(kind_of("https://user@example.com/"), LinkKind::Url);
/// assert_eq!(kind_of("example.com?to=a@b"), LinkKind::Url);
/// ```
pub fn kind_of(link: &str) -> LinkKind {
    let finder = crate::LinkFinder::new();
    let mut found = finder.links(link);
    if let (Some(only), None) = (found.next(), found.next()) {
        if only.range() == (0..link.len()) {
            return only.kind();
        }
    }
    let mailto = link
        .get(..7)
        .is_some_and(|s| s.eq_ignore_ascii_case("mailto:"));
    let bare_address = !link.contains("://")
        && link
            .rfind('@')
            .is_some_and(|at| !link[..at].contains(['/', '?', '#']));
    if mailto || bare_address {
        LinkKind::Email
    } else {
        LinkKind::Url
    }
}

/// Escapes the syntax look-alikes of a display form ([`escape_syntax_lookalikes`]), then
/// applies [`DisplayOptions::bidi`].
fn finish(shown: String, kind: LinkKind, options: &DisplayOptions) -> String {
    let shown = match escape_syntax_lookalikes(&shown) {
        Cow::Borrowed(_) => shown,
        Cow::Owned(escaped) => escaped,
    };
    if options.bidi {
        isolate(&shown, kind)
    } else {
        shown
    }
}

/// `shown` (a display form of `kind`) between LRI and PDI, each field between LRMs.
///
/// ```
/// use linkscan::display::isolate;
/// use linkscan::LinkKind;
/// assert_eq!(
///     isolate("http://a.b/c", LinkKind::Url).replace(['\u{2066}', '\u{2069}', '\u{200E}'], "|"),
///     "||http|://|a|.|b|/|c||"
/// );
/// ```
pub fn isolate(shown: &str, kind: LinkKind) -> String {
    let pieces = fields(shown, kind);
    let mut out = String::with_capacity(shown.len() + 6 * pieces.len() + 6);
    out.push(LRI);
    for piece in pieces {
        let text = &shown[piece.range.clone()];
        if piece.separator {
            out.push_str(text);
        } else {
            out.push(LRM);
            out.push_str(text);
            out.push(LRM);
        }
    }
    out.push(PDI);
    out
}

/// One piece of a link's display form: a field, or a separator between fields.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// Its bytes in the display form.
    pub range: Range<usize>,
    /// Whether it is a separator (`://`, a dot of the domain, `/`, `?`, `=`, `&`, `#`,
    /// `@`, the `:` of a port).
    pub separator: bool,
}

/// Cuts a display form into its fields and separators, in order; together they cover
/// `shown` exactly, empty fields left out.
///
/// A display form writes every data character that would read as a separator escaped
/// (a `/` inside a path segment is `%2F`), so each literal one is structure. The
/// fragment is one field; a URL without a host (`tel:…`) is one field.
///
/// ```
/// use linkscan::display::fields;
/// use linkscan::LinkKind;
/// let shown = "https://例え.テスト/a/b?k=v&x#top";
/// let pieces: Vec<(&str, bool)> = fields(shown, LinkKind::Url)
///     .into_iter()
///     .map(|f| (&shown[f.range], f.separator))
///     .collect();
/// assert_eq!(pieces, [
///     ("https", false), ("://", true), ("例え", false), (".", true), ("テスト", false),
///     ("/", true), ("a", false), ("/", true), ("b", false), ("?", true), ("k", false),
///     ("=", true), ("v", false), ("&", true), ("x", false), ("#", true), ("top", false),
/// ]);
/// ```
pub fn fields(shown: &str, kind: LinkKind) -> Vec<Field> {
    let mut cut = Cutter {
        shown,
        pieces: Vec::new(),
    };
    match kind {
        LinkKind::Email => cut.email(),
        LinkKind::Url => cut.url(),
    }
    cut.pieces
}

/// Builds the pieces of one display form.
struct Cutter<'s> {
    shown: &'s str,
    pieces: Vec<Field>,
}

impl<'s> Cutter<'s> {
    /// The offset of `sub`, a slice of `shown`.
    fn offset(&self, sub: &str) -> usize {
        sub.as_ptr() as usize - self.shown.as_ptr() as usize
    }

    fn push(&mut self, range: Range<usize>, separator: bool) {
        if !range.is_empty() {
            self.pieces.push(Field { range, separator });
        }
    }

    /// `text` (a slice of `shown`) as one field.
    fn field(&mut self, text: &str) {
        let start = self.offset(text);
        self.push(start..start + text.len(), false);
    }

    /// `text` (a slice of `shown`) cut at every character `is_separator` accepts.
    fn split(&mut self, text: &str, is_separator: impl Fn(char) -> bool) {
        let base = self.offset(text);
        let mut field_start = 0;
        for (i, c) in text.char_indices() {
            if is_separator(c) {
                self.push(base + field_start..base + i, false);
                self.push(base + i..base + i + c.len_utf8(), true);
                field_start = i + c.len_utf8();
            }
        }
        self.push(base + field_start..base + text.len(), false);
    }

    /// The separator of one byte just before `text` (a slice of `shown`).
    fn separator_before(&mut self, text: &str) {
        let at = self.offset(text);
        self.push(at - 1..at, true);
    }

    fn host(&mut self, host: &str) {
        if host.starts_with('[') {
            self.field(host);
        } else {
            self.split(host, is_label_separator);
        }
    }

    fn email(&mut self) {
        let shown = self.shown;
        let (scheme, address) = split_mailto(shown);
        if !scheme.is_empty() {
            self.push(0..scheme.len() - 1, false);
            self.push(scheme.len() - 1..scheme.len(), true);
        }
        match address.rfind('@') {
            Some(at) => {
                self.field(&address[..at]);
                self.separator_before(&address[at + 1..]);
                self.host(&address[at + 1..]);
            }
            None => self.field(address),
        }
    }

    fn url(&mut self) {
        let shown = self.shown;
        let Some(raw) = RawUrl::split(shown) else {
            self.field(shown);
            return;
        };
        if let Some(scheme) = raw.prefix.strip_suffix("://") {
            self.field(scheme);
            self.push(scheme.len()..raw.prefix.len(), true);
        } else {
            self.push(0..raw.prefix.len(), true);
        }
        if let Some(userinfo) = raw.userinfo {
            self.field(userinfo);
            let at = self.offset(userinfo) + userinfo.len();
            self.push(at..at + 1, true);
        }
        self.host(raw.host);
        if let Some(port) = raw.port.strip_prefix(':') {
            self.separator_before(port);
            self.field(port);
        } else {
            self.field(raw.port);
        }
        if let Some(path) = raw.path {
            self.separator_before(path);
            self.split(path, |c| c == '/');
        }
        if let Some(query) = raw.query {
            self.separator_before(query);
            self.split(query, |c| c == '&' || c == '=');
        }
        if let Some(fragment) = raw.fragment {
            self.separator_before(fragment);
            self.field(fragment);
        }
    }
}

/// Appends `text` with every character that is not printable ASCII (non-ASCII, the
/// controls, space) percent-encoded as its UTF-8 bytes.
fn push_ascii(text: &str, out: &mut String) {
    if text.bytes().all(|b| b.is_ascii_graphic()) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        if c.is_ascii_graphic() {
            out.push(c);
        } else {
            push_escaped_char(c, out);
        }
    }
}

/// Appends a host in ASCII: as it is when it is ASCII, else UTS #46 ToASCII (Punycode),
/// else (not a domain name) percent-encoded.
fn push_ascii_host(host: &str, out: &mut String) {
    if host.is_ascii() {
        push_ascii(host, out);
        return;
    }
    match idna::domain_to_ascii(host) {
        Ok(ascii) if !ascii.is_empty() => out.push_str(&ascii),
        _ => push_ascii(host, out),
    }
}

/// The ASCII form of a link target, as an `href` needs it: the host in Punycode (UTS #46
/// ToASCII) and every other non-ASCII or control character percent-encoded as UTF-8
/// (Bidi_Control characters included); existing escapes and ASCII are kept. A `mailto:`
/// target gets its domain in Punycode and its local part percent-encoded.
///
/// ```
/// use linkscan::display::ascii_form;
/// assert_eq!(
///     ascii_form("https://bücher.de/bücher?q=α#\u{202E}"),
///     "https://xn--bcher-kva.de/b%C3%BCcher?q=%CE%B1#%E2%80%AE"
/// );
/// assert_eq!(ascii_form("mailto:σ@bücher.de"), "mailto:%CF%83@xn--bcher-kva.de");
/// assert_eq!(ascii_form("https://example.com/a%20b"), "https://example.com/a%20b");
/// ```
pub fn ascii_form(target: &str) -> String {
    // Printable ASCII is its own ASCII form (hosts included), the common case.
    if target.bytes().all(|b| b.is_ascii_graphic()) {
        return target.to_string();
    }
    let mut out = String::with_capacity(target.len() + 16);
    let (scheme, address) = split_mailto(target);
    if !scheme.is_empty() {
        out.push_str(scheme);
        let (address, query) = address.split_at(address.find('?').unwrap_or(address.len()));
        match address.rfind('@') {
            Some(at) => {
                push_ascii(&address[..at], &mut out);
                out.push('@');
                push_ascii_host(&address[at + 1..], &mut out);
            }
            None => push_ascii(address, &mut out),
        }
        push_ascii(query, &mut out);
        return out;
    }
    let Some(raw) = RawUrl::split(target) else {
        push_ascii(target, &mut out);
        return out;
    };
    out.push_str(raw.prefix);
    if let Some(userinfo) = raw.userinfo {
        push_ascii(userinfo, &mut out);
        out.push('@');
    }
    push_ascii_host(raw.host, &mut out);
    push_ascii(raw.port, &mut out);
    for (initiator, part) in [('/', raw.path), ('?', raw.query), ('#', raw.fragment)] {
        if let Some(part) = part {
            out.push(initiator);
            push_ascii(part, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests;
