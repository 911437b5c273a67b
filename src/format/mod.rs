//! Formatting: URL minimal escaping (UTS #58 section 4) and email minimal quoting
//! (section 5.3).
//!
//! A URL is shown with as few percent-escapes as possible while staying *completely
//! link-detected when isolated*: formatting is the mirror of detection. Each part after the
//! host is written in two steps:
//!
//! 1. **Interior escaping** (the precondition of section 4.1): data characters that would
//!    read as the part's syntax are percent-escaped — `/ ? #` (and `\`) inside a path
//!    segment, `+ # = &` inside a query key or value, the first `:` of a `:~:` inside a
//!    fragment or a fragment directive, and in every part a `%` followed by two hex digits.
//!    The part's own separators stay literal: `/` between segments, `=` and `&` between keys
//!    and values, and a directive's `&` and `,` (a fragment directive is given in its own
//!    syntax, such as `text=start,end`, so those are structure, not data).
//! 2. **Minimal escaping** ([`minimal_escape`], section 4.1): one pass over the part's code
//!    points. Include characters are copied; Hard characters (and the part's terminators)
//!    are percent-escaped; a Close is copied when it matches the top of the bracket stack and
//!    escaped otherwise; an Open is pushed (escaped when 125 are already open); Soft
//!    characters wait and are copied with whatever follows them, except that the last
//!    character of the *last* part, if it is still waiting, is escaped — so
//!    `example.com/path1./path2.` becomes `example.com/path1./path2%2E`.
//!    ClearStackOpen separators (`/`, `=`, `&`, a directive's `&` and `,`) empty the stack.
//!
//! The scheme and port are written as given; the host is shown in Unicode (UTS #46
//! ToUnicode, [`format_host`]) when it is a valid domain name, and as given otherwise.
//!
//! Entry points:
//!
//! * [`escape_url_parts`]: from decoded parts ([`UrlParts`]), as the conformance file
//!   describes its cases.
//! * [`escape_url`]: from a URL string (escaped or not): it is split at its literal syntax
//!   characters, percent-escapes are decoded where that is safe, and the result is
//!   formatted as above.
//! * [`minimal_escape`]: section 4.1 alone, for one part whose interior escaping is done.
//! * [`quote_local_part`] and [`format_email`]: section 5.3.
//! * The `_with` variants take [`FormatOptions`]; the default options are conformant.
//!
//! Invariants: output is only ever appended to one `String` (plus one scratch buffer per
//! call for a part's interior-escaped text); every pass is linear; no input panics.
//!
//! ## Where following section 4.1 literally has visible consequences
//!
//! The conformant formatter reproduces section 4.1 exactly (UTS58-C2). Three of its
//! results are worth knowing:
//!
//! * A Close that does not match pops the bracket stack before it is escaped. Detection
//!   never sees the escaped Close as a bracket, so in `(<])` (formatted `(<%5D)`) the
//!   final `)` matches `(` when formatting but meets `<` when detecting, and the detected
//!   link stops before it. Likewise, with 125 brackets open, the popped entry lets
//!   formatting write one more Open literally, which detection's full stack then rejects
//!   (`{` × 125, `>`, `{`: the link is detected without its last `{`). Only text mixing
//!   two kinds of brackets this way is affected; `tests/it/common/properties.rs`
//!   (`hits_bracket_gap`) describes the exact condition.
//! * In a fragment directive, `,` is a separator but its Link_Term is Soft, so a final
//!   `,` is escaped (`text=a,` becomes `text=a%2C`), though detection would include it.
//! * Bidi_Control characters are Include in `LinkTerm.txt`, so section 4.1 leaves them,
//!   although section 8 says they "will be percent-escaped";
//!   [`FormatOptions::escape_bidi_controls`] escapes them.
//!
//! The ten pairs of the 17.0.0 `LinkFormattingTest.txt` that leave a final Soft character
//! unescaped contradict section 4.1 and are not reproduced (the 18.0 draft file corrects
//! them); see `conformance::FORMATTING_ERRATA_17` (with the `__internals` feature).

mod email;
mod escape;
mod interior;
mod url;

use std::borrow::Cow;
use std::fmt::Write as _;

pub use email::{format_email, quote_local_part, QuoteError};
pub(crate) use escape::push_escaped_char;
pub use escape::{minimal_escape, UrlPart};
pub use url::{escape_url, escape_url_with};
pub(crate) use url::{escape_url_showing, RawUrl};

use escape::push_checked;
use interior::Interior;

/// Options of the formatter. The default is the conformant formatter of section 4.1.
///
/// ```
/// use linkscan::format::{escape_url_parts_with, FormatOptions, UrlParts};
/// let url = UrlParts::new("example.com").with_segment("a\u{202E}b");
/// let options = FormatOptions::default().with_escape_bidi_controls(true);
/// assert_eq!(escape_url_parts_with(&url, &options), "example.com/a%E2%80%AEb");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FormatOptions {
    /// Also percent-escape every Bidi_Control character (U+061C, U+200E, U+200F,
    /// U+202A..U+202E, U+2066..U+2069), which can reorder the display of a URL (UTS #58
    /// section 8). Section 4.1 leaves them as they are (their Link_Term is Include) and
    /// allows higher-level implementations to escape more; this is that higher level.
    /// It applies to every component, the host included. Off by default.
    pub escape_bidi_controls: bool,
}

impl FormatOptions {
    /// Sets [`FormatOptions::escape_bidi_controls`] (the options are `#[non_exhaustive]`,
    /// so they are built from `default()` and these setters).
    pub fn with_escape_bidi_controls(mut self, yes: bool) -> Self {
        self.escape_bidi_controls = yes;
        self
    }
}

/// A URL given by its parts, each holding *decoded* text (a path segment `β/γ` is one
/// segment whose `/` is data, written `%2F`).
///
/// The fields are public; the `with_` methods build one in a chain.
///
/// ```
/// use linkscan::format::{escape_url_parts, UrlParts};
/// let url = UrlParts::new("example.com")
///     .with_scheme("https")
///     .with_segment("α(β)")
///     .with_query("γ(δ)", None)
///     .with_fragment("ε(ζ))");
/// assert_eq!(escape_url_parts(&url), "https://example.com/α(β)?γ(δ)#ε(ζ)%29");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct UrlParts {
    /// The scheme without `://`, such as `https`; `None` for a scheme-less URL.
    pub scheme: Option<String>,
    /// The host, in Unicode or Punycode (shown in Unicode when valid).
    pub host: String,
    /// The port.
    pub port: Option<u16>,
    /// The path segments; empty for no path, `[""]` for the path `/`.
    pub path: Vec<String>,
    /// The query as `key` or `key=value` pairs; empty for no query.
    pub query: Vec<(String, Option<String>)>,
    /// The fragment (before any fragment directive); `None` for no fragment.
    pub fragment: Option<String>,
    /// The fragment directives, each in its own syntax such as `text=start,end`; they
    /// follow the fragment (an empty one if [`fragment`](Self::fragment) is `None`).
    pub fragment_directives: Vec<String>,
}

impl UrlParts {
    /// A URL with only a host.
    ///
    /// ```
    /// let url = linkscan::format::UrlParts::new("example.com");
    /// assert_eq!(linkscan::format::escape_url_parts(&url), "example.com");
    /// ```
    pub fn new(host: impl Into<String>) -> UrlParts {
        UrlParts {
            host: host.into(),
            ..UrlParts::default()
        }
    }

    /// Sets the scheme (without `://`).
    ///
    /// ```
    /// let url = linkscan::format::UrlParts::new("example.com").with_scheme("https");
    /// assert_eq!(linkscan::format::escape_url_parts(&url), "https://example.com");
    /// ```
    pub fn with_scheme(mut self, scheme: impl Into<String>) -> UrlParts {
        self.scheme = Some(scheme.into());
        self
    }

    /// Sets the port.
    ///
    /// ```
    /// let url = linkscan::format::UrlParts::new("example.com").with_port(8080);
    /// assert_eq!(linkscan::format::escape_url_parts(&url), "example.com:8080");
    /// ```
    pub fn with_port(mut self, port: u16) -> UrlParts {
        self.port = Some(port);
        self
    }

    /// Appends a path segment.
    ///
    /// ```
    /// let url = linkscan::format::UrlParts::new("example.com").with_segment("α").with_segment("β/γ");
    /// assert_eq!(linkscan::format::escape_url_parts(&url), "example.com/α/β%2Fγ");
    /// ```
    pub fn with_segment(mut self, segment: impl Into<String>) -> UrlParts {
        self.path.push(segment.into());
        self
    }

    /// Appends a query pair: `key=value`, or `key` alone when `value` is `None`.
    ///
    /// ```
    /// let url = linkscan::format::UrlParts::new("example.com")
    ///     .with_query("α&", Some("β"))
    ///     .with_query("flag", None);
    /// assert_eq!(linkscan::format::escape_url_parts(&url), "example.com?α%26=β&flag");
    /// ```
    pub fn with_query(mut self, key: impl Into<String>, value: Option<&str>) -> UrlParts {
        self.query.push((key.into(), value.map(str::to_string)));
        self
    }

    /// Sets the fragment.
    ///
    /// ```
    /// let url = linkscan::format::UrlParts::new("example.com").with_fragment("π.ρς.");
    /// assert_eq!(linkscan::format::escape_url_parts(&url), "example.com#π.ρς%2E");
    /// ```
    pub fn with_fragment(mut self, fragment: impl Into<String>) -> UrlParts {
        self.fragment = Some(fragment.into());
        self
    }

    /// Appends a fragment directive, such as `text=start,end`.
    ///
    /// ```
    /// let url = linkscan::format::UrlParts::new("example.com")
    ///     .with_fragment("top")
    ///     .with_directive("text=(open),closed");
    /// assert_eq!(
    ///     linkscan::format::escape_url_parts(&url),
    ///     "example.com#top:~:text=(open),closed"
    /// );
    /// ```
    pub fn with_directive(mut self, directive: impl Into<String>) -> UrlParts {
        self.fragment_directives.push(directive.into());
        self
    }
}

/// Formats `parts` with the minimal escaping of UTS #58 section 4: interior escaping of
/// each part's data, then the algorithm of section 4.1; the host via [`format_host`].
///
/// ```
/// use linkscan::format::{escape_url_parts, UrlParts};
/// let url = UrlParts::new("xn--bcher-kva.de")
///     .with_segment("bücher.")
///     .with_segment("a b");
/// assert_eq!(escape_url_parts(&url), "bücher.de/bücher./a%20b");
/// ```
pub fn escape_url_parts(parts: &UrlParts) -> String {
    escape_url_parts_with(parts, &FormatOptions::default())
}

/// [`escape_url_parts`] with options.
///
/// ```
/// use linkscan::format::{escape_url_parts_with, FormatOptions, UrlParts};
/// let url = UrlParts::new("example.com").with_segment("\u{202E}abc");
/// let options = FormatOptions::default().with_escape_bidi_controls(true);
/// assert_eq!(escape_url_parts_with(&url, &options), "example.com/%E2%80%AEabc");
/// ```
pub fn escape_url_parts_with(parts: &UrlParts, options: &FormatOptions) -> String {
    let mut out = String::with_capacity(parts.host.len() + 32);
    if let Some(scheme) = &parts.scheme {
        push_checked(scheme, options, &mut out);
        out.push_str("://");
    }
    push_checked(&format_host(&parts.host), options, &mut out);
    if let Some(port) = parts.port {
        let _ = write!(out, ":{port}");
    }
    let layout = Layout {
        path: !parts.path.is_empty(),
        query: !parts.query.is_empty(),
        fragment: parts.fragment.is_some() || !parts.fragment_directives.is_empty(),
        directives: parts.fragment_directives.len(),
    };
    let mut writer = PartWriter::new(&mut out, options, layout);
    if layout.path {
        writer.part(UrlPart::Path, |w| {
            for (k, segment) in parts.path.iter().enumerate() {
                if k > 0 {
                    w.literal('/');
                }
                w.data_str(segment);
            }
        });
    }
    if layout.query {
        writer.part(UrlPart::Query, |w| {
            for (k, (key, value)) in parts.query.iter().enumerate() {
                if k > 0 {
                    w.literal('&');
                }
                w.data_str(key);
                if let Some(value) = value {
                    w.literal('=');
                    w.data_str(value);
                }
            }
        });
    }
    if layout.fragment {
        let fragment = parts.fragment.as_deref().unwrap_or("");
        writer.part(UrlPart::Fragment, |w| w.data_str(fragment));
    }
    for directive in &parts.fragment_directives {
        writer.part(UrlPart::FragmentDirective, |w| w.data_str(directive));
    }
    out
}

/// Which parts follow the host, in order; the last one present gets its final Soft
/// character escaped.
#[derive(Clone, Copy)]
struct Layout {
    path: bool,
    query: bool,
    fragment: bool,
    directives: usize,
}

impl Layout {
    fn count(&self) -> usize {
        self.path as usize + self.query as usize + self.fragment as usize + self.directives
    }
}

/// Writes the parts of one URL in order: interior escaping into a scratch buffer, then
/// section 4.1 into the output.
struct PartWriter<'o> {
    out: &'o mut String,
    options: &'o FormatOptions,
    scratch: String,
    remaining: usize,
}

impl<'o> PartWriter<'o> {
    fn new(out: &'o mut String, options: &'o FormatOptions, layout: Layout) -> PartWriter<'o> {
        PartWriter {
            out,
            options,
            scratch: String::new(),
            remaining: layout.count(),
        }
    }

    /// Writes the next part; `fill` writes its text into an [`Interior`] writer.
    fn part(&mut self, part: UrlPart, fill: impl FnOnce(&mut Interior<'_>)) {
        self.remaining = self.remaining.saturating_sub(1);
        let is_last = self.remaining == 0;
        // Only directives follow a fragment or a directive, so any later part is one.
        let directive_follows =
            !is_last && matches!(part, UrlPart::Fragment | UrlPart::FragmentDirective);
        self.scratch.clear();
        let mut interior = Interior::new(&mut self.scratch, part);
        fill(&mut interior);
        interior.finish(directive_follows);
        minimal_escape(part, &self.scratch, is_last, self.options, self.out);
    }
}

/// The host as shown to users: its UTS #46 ToUnicode form when `host` is a valid domain
/// name (Punycode labels decoded, letters lower-cased), and `host` as given otherwise
/// (IP literals in brackets, hosts with percent-escapes, invalid names).
///
/// ```
/// use linkscan::format::format_host;
/// assert_eq!(format_host("xn--bcher-kva.de"), "bücher.de");
/// assert_eq!(format_host("EXAMPLE.com"), "example.com");
/// assert_eq!(format_host("xn--zz.de"), "xn--zz.de"); // invalid Punycode: as given
/// assert_eq!(format_host("[::1]"), "[::1]");
/// ```
pub fn format_host(host: &str) -> Cow<'_, str> {
    if host.is_empty() || host.starts_with('[') || host.contains('%') {
        return Cow::Borrowed(host);
    }
    // Lower-case ASCII without a Punycode label is its own ToUnicode form when it is a
    // valid name, and is given back as written when it is not: no IDNA needed.
    let plain_ascii = host
        .bytes()
        .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-' | b'_'));
    if plain_ascii && !host.starts_with("xn--") && !host.contains(".xn--") {
        return Cow::Borrowed(host);
    }
    match idna::domain_to_unicode(host) {
        (unicode, Ok(())) if !unicode.is_empty() && unicode.chars().all(is_shown_host_char) => {
            if unicode == host {
                Cow::Borrowed(host)
            } else {
                Cow::Owned(unicode)
            }
        }
        _ => Cow::Borrowed(host),
    }
}

/// `target` (a link as it goes in an `href`: a URL, with or without its scheme, or an
/// email, with or without `mailto:`) with the Ignored code points (UTS #46 status
/// `ignored`: soft hyphen, zero width space, …) of its host removed. The scanner's host
/// walk passes over them, so the link `www.exam`+U+00AD+`ple.com` goes to
/// `www.example.com`, the host UTS #46 and browsers make of it. Nothing else changes: the
/// path, query and fragment, an email's local part and every ASCII target are given back
/// as they are.
///
/// ```
/// use linkscan::format::without_ignored_in_host;
/// assert_eq!(
///     without_ignored_in_host("https://www.exam\u{AD}ple.com/a\u{AD}b"),
///     "https://www.example.com/a\u{AD}b"
/// );
/// assert_eq!(without_ignored_in_host("mailto:a\u{AD}b@pay\u{200B}pal.com"), "mailto:a\u{AD}b@paypal.com");
/// assert_eq!(without_ignored_in_host("pay\u{200B}pal.com:80"), "paypal.com:80");
/// assert_eq!(without_ignored_in_host("example.com/α"), "example.com/α");
/// ```
pub fn without_ignored_in_host(target: &str) -> Cow<'_, str> {
    if target.is_ascii() {
        return Cow::Borrowed(target);
    }
    let host = match RawUrl::split(target) {
        Some(raw) => raw.host,
        None => {
            // `mailto:` (or another URL without an authority): the domain after the last
            // '@' before a query.
            let address = &target[..target.find('?').unwrap_or(target.len())];
            match address.rfind('@') {
                Some(at) => &address[at + 1..],
                None => return Cow::Borrowed(target),
            }
        }
    };
    if !host.chars().any(crate::props::is_host_ignored) {
        return Cow::Borrowed(target);
    }
    // `host` is a slice of `target`.
    let at = host.as_ptr() as usize - target.as_ptr() as usize;
    let mut out = String::with_capacity(target.len());
    out.push_str(&target[..at]);
    out.extend(host.chars().filter(|&c| !crate::props::is_host_ignored(c)));
    out.push_str(&target[at + host.len()..]);
    Cow::Owned(out)
}

/// Characters that may appear in a host shown in Unicode: nothing that would read as URL
/// structure or end a link.
fn is_shown_host_char(c: char) -> bool {
    !matches!(c, '/' | '?' | '#' | '@' | ':' | '[' | ']' | '\\' | '%')
        && crate::link_term(c) != crate::LinkTerm::Hard
}

#[cfg(test)]
mod tests;
