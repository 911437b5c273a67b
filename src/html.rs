//! HTML linkification: escape plain text for HTML and wrap each detected link in
//! `<a href="…">…</a>`.
//!
//! Text and attribute values are escaped (`&`, `<`, `>`, `"`, `'`), so the output is safe
//! to embed in an HTML body whatever the input. The `href` of a link that did not spell a
//! scheme gets the configured default (`https://`), and an email gets `mailto:`. Input
//! bytes that are not valid UTF-8 are written as U+FFFD; links never contain them.
//!
//! Each link is written for people and for browsers ([`write_link`]):
//!
//! * its text is its display form ([`crate::display`]): minimally escaped, the host in
//!   Unicode unless spoofable, Bidi_Control characters percent-escaped;
//! * its `href` is the ASCII form ([`crate::display::ascii_form`]): Punycode host,
//!   percent-encoded path, so no Bidi_Control character reaches the page in a link,
//!   whatever the options;
//! * it is isolated left to right (`<bdi dir="ltr">`), and when it holds non-ASCII text
//!   each of its fields is isolated too (`<bdi>`), so that its fields read left to right
//!   in a right-to-left paragraph: the bidi IRI display rule of
//!   [`crate::display::isolate`], written with elements instead of LRM characters. An
//!   ASCII link needs no field isolation: none of its characters is strong right to left,
//!   so inside a left-to-right isolate nothing of it is reordered.
//!
//! With [`Linkifier::checks`], a link that fails a security check of section 8
//! ([`crate::checks`]) is written as plain text, not linked, its Bidi_Control characters
//! percent-escaped all the same.
//!
//! Only web schemes become `href`s: `http`, `https` and `mailto` ([`WEB_SCHEMES`]), and
//! those added with [`Linkifier::href_schemes`]. A link of another scheme (`smb://`,
//! `file://`, `ms-msdt://`, `search-ms://`…) would open a local program or a network
//! share from the page, so it is shown as a link without a target
//! ([`write_unlinked`]: `<span class="link">`, in its display form), never as `<a href>`.

use std::io::{self, Write};

use crate::display::{ascii_form, display_link, escape_bidi_controls, fields, DisplayOptions};
use crate::finder::LinkFinder;
use crate::link::{Link, LinkKind};

/// Turns plain text into HTML with links.
///
/// ```
/// use linkscan::html::Linkifier;
/// let html = Linkifier::new().linkify("See example.com/a?b=1&c=2 or mail <x@example.com>.");
/// assert_eq!(
///     html,
///     "See <bdi dir=\"ltr\"><a href=\"https://example.com/a?b=1&amp;c=2\">example.com/a?b=1&amp;c=2</a></bdi> \
///      or mail &lt;<bdi dir=\"ltr\"><a href=\"mailto:x@example.com\">x@example.com</a></bdi>&gt;."
/// );
/// // Display form and ASCII href; each field of a non-ASCII link isolated.
/// let html = Linkifier::new().linkify("راجع ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1");
/// assert_eq!(
///     html,
///     "راجع <bdi dir=\"ltr\"><a href=\"https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1\">\
///      <bdi>ar</bdi>.<bdi>wikipedia</bdi>.<bdi>org</bdi>/<bdi>wiki</bdi>/<bdi>مصر</bdi></a></bdi>"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Linkifier {
    finder: LinkFinder,
    default_scheme: String,
    checks: bool,
    /// Schemes allowed in an `href` beyond [`WEB_SCHEMES`], in lower case.
    href_schemes: Vec<String>,
}

/// The schemes whose links become `href`s unless more are allowed
/// ([`Linkifier::href_schemes`]).
pub const WEB_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// Schemes that [`Linkifier::href_schemes`] refuses: they run script in the page.
pub const SCRIPT_SCHEMES: [&str; 3] = ["javascript", "vbscript", "data"];

/// The scheme of `href` (what comes before its first `:`, when that is an RFC 3986
/// scheme name: a letter, then letters, digits, `+`, `-` and `.`), if any.
///
/// ```
/// use linkscan::html::href_scheme;
/// assert_eq!(href_scheme("HTTPS://example.com"), Some("HTTPS"));
/// assert_eq!(href_scheme("ms-msdt:/id"), Some("ms-msdt"));
/// assert_eq!(href_scheme("example.com/a:b"), None);
/// ```
pub fn href_scheme(href: &str) -> Option<&str> {
    let colon = href.find(':')?;
    let scheme = &href[..colon];
    let mut bytes = scheme.bytes();
    let valid = bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    valid.then_some(scheme)
}

impl Default for Linkifier {
    fn default() -> Self {
        Linkifier::new()
    }
}

impl Linkifier {
    /// What decides the HTML this linkifier writes, as text ([`LinkFinder`]'s key and its
    /// own settings).
    pub(crate) fn options_key(&self) -> String {
        format!(
            "{}; default-scheme {:?} checks {} href-schemes {:?}",
            self.finder.options_key(),
            self.default_scheme,
            self.checks,
            self.href_schemes
        )
    }

    /// A linkifier with the default [`LinkFinder`] and `https://` for scheme-less URLs.
    pub fn new() -> Linkifier {
        Linkifier {
            finder: LinkFinder::new(),
            default_scheme: "https://".to_string(),
            checks: false,
            href_schemes: Vec::new(),
        }
    }

    /// Also let links of these schemes (names without `:`, any case) become `href`s, beyond
    /// [`WEB_SCHEMES`]. A name that is not an RFC 3986 scheme, or is one of
    /// [`SCRIPT_SCHEMES`], is refused with a message.
    ///
    /// ```
    /// use linkscan::html::Linkifier;
    /// let text = "see ftp://example.org/pub";
    /// assert_eq!(
    ///     Linkifier::new().linkify(text),
    ///     "see <bdi dir=\"ltr\"><span class=\"link\">ftp://example.org/pub</span></bdi>"
    /// );
    /// let ftp = Linkifier::new().href_schemes(["FTP"]).unwrap();
    /// assert!(ftp.linkify(text).ends_with("<a href=\"ftp://example.org/pub\">ftp://example.org/pub</a></bdi>"));
    /// assert!(Linkifier::new().href_schemes(["javascript"]).is_err());
    /// ```
    pub fn href_schemes<I, S>(mut self, schemes: I) -> Result<Self, String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for scheme in schemes {
            let scheme = scheme.as_ref().to_ascii_lowercase();
            if href_scheme(&format!("{scheme}:")) != Some(scheme.as_str()) {
                return Err(format!("{scheme:?} is not a scheme name"));
            }
            if SCRIPT_SCHEMES.contains(&scheme.as_str()) {
                return Err(format!("{scheme}: links run script in the page"));
            }
            if !self.href_schemes.contains(&scheme) {
                self.href_schemes.push(scheme);
            }
        }
        Ok(self)
    }

    /// Whether `href` may be written as an `href`: its scheme is one of [`WEB_SCHEMES`] or
    /// of those added by [`Linkifier::href_schemes`] (ASCII case ignored). One without a
    /// scheme may not.
    ///
    /// ```
    /// use linkscan::html::Linkifier;
    /// let l = Linkifier::new();
    /// assert!(l.allows_href("https://example.com") && l.allows_href("MAILTO:a@b.org"));
    /// assert!(!l.allows_href("file:///etc/passwd") && !l.allows_href("smb://host/x"));
    /// ```
    pub fn allows_href(&self, href: &str) -> bool {
        href_scheme(href).is_some_and(|scheme| {
            WEB_SCHEMES.iter().any(|w| w.eq_ignore_ascii_case(scheme))
                || self
                    .href_schemes
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case(scheme))
        })
    }

    /// Whether links that fail a security check are left as text ([`Linkifier::checks`]).
    pub fn uses_checks(&self) -> bool {
        self.checks
    }

    /// Uses `finder` to detect links.
    pub fn finder(mut self, finder: LinkFinder) -> Self {
        self.finder = finder;
        self
    }

    /// The scheme put before URLs written without one (default `https://`).
    ///
    /// ```
    /// use linkscan::html::Linkifier;
    /// let html = Linkifier::new().default_scheme("http://").linkify("example.com");
    /// assert_eq!(html, "<bdi dir=\"ltr\"><a href=\"http://example.com\">example.com</a></bdi>");
    /// ```
    pub fn default_scheme(mut self, scheme: impl Into<String>) -> Self {
        self.default_scheme = scheme.into();
        self
    }

    /// Leave as plain text every link that fails a security check of UTS #58 section 8
    /// (see [`crate::checks`]: a TLD that is not syntactically valid, a host character
    /// that is not `Identifier_Status=Allowed`, a Bidi_Control character). Default: off.
    ///
    /// ```
    /// use linkscan::html::Linkifier;
    /// let text = "ｅxample.com and example.com";
    /// assert_eq!(
    ///     Linkifier::new().checks(true).linkify(text),
    ///     "ｅxample.com and <bdi dir=\"ltr\"><a href=\"https://example.com\">example.com</a></bdi>"
    /// );
    /// ```
    pub fn checks(mut self, yes: bool) -> Self {
        self.checks = yes;
        self
    }

    /// The target of a link whose text is `text`: the text itself when it spelled a scheme,
    /// else the default scheme (URLs) or `mailto:` (emails) before it. Not HTML-escaped.
    pub fn href(&self, link: &Link, text: &str) -> String {
        let prefix = match (link.has_scheme(), link.kind()) {
            (true, _) => "",
            (false, LinkKind::Url) => self.default_scheme.as_str(),
            (false, LinkKind::Email) => "mailto:",
        };
        let mut href = String::with_capacity(prefix.len() + text.len());
        href.push_str(prefix);
        href.push_str(text);
        // The target's host without the invisible code points a host may hold.
        match crate::format::without_ignored_in_host(&href) {
            std::borrow::Cow::Owned(target) => target,
            std::borrow::Cow::Borrowed(_) => href,
        }
    }

    /// `text` as HTML with its links.
    pub fn linkify(&self, text: &str) -> String {
        let mut out = Vec::with_capacity(text.len() + text.len() / 8);
        self.write_html(text.as_bytes(), &mut out)
            .expect("writing to a Vec cannot fail");
        String::from_utf8(out).expect("escaped output of UTF-8 input is UTF-8")
    }

    /// Writes `text` (bytes, possibly invalid UTF-8) as HTML with its links to `out`.
    pub fn write_html<W: Write + ?Sized>(&self, text: &[u8], out: &mut W) -> io::Result<()> {
        self.write_html_with_links(text, self.finder.links_bytes(text), out)
    }

    /// Like [`Linkifier::write_html`], with the links already found (in order, for
    /// example by a parallel or streaming scan of `text`).
    pub fn write_html_with_links<W: Write + ?Sized>(
        &self,
        text: &[u8],
        links: impl IntoIterator<Item = Link>,
        out: &mut W,
    ) -> io::Result<()> {
        self.write_html_part(text, 0..text.len(), links, out)
    }

    /// Like [`Linkifier::write_html_with_links`], for the part `range` of `text` only:
    /// `links` are those of `text` that lie in `range`, in order, and the text around
    /// the part is context for the checks (an invisible character next to a link). The
    /// parts of consecutive ranges that cover `text`, each cut at a link's end or
    /// between links, write the same HTML as the whole, so a caller can write a text of
    /// many links in batches without holding all of them.
    ///
    /// ```
    /// use linkscan::html::Linkifier;
    /// let linkifier = Linkifier::new();
    /// let text = b"a.co, b.co";
    /// let links: Vec<_> = linkscan::LinkFinder::new().links_bytes(text).collect();
    /// let mut parts = Vec::new();
    /// linkifier.write_html_part(text, 0..4, links[..1].iter().copied(), &mut parts).unwrap();
    /// linkifier.write_html_part(text, 4..text.len(), links[1..].iter().copied(), &mut parts).unwrap();
    /// let mut whole = Vec::new();
    /// linkifier.write_html(text, &mut whole).unwrap();
    /// assert_eq!(parts, whole);
    /// ```
    pub fn write_html_part<W: Write + ?Sized>(
        &self,
        text: &[u8],
        range: std::ops::Range<usize>,
        links: impl IntoIterator<Item = Link>,
        out: &mut W,
    ) -> io::Result<()> {
        let mut at = range.start;
        for link in links {
            write_escaped_bytes(&text[at..link.start()], out)?;
            // A link never contains invalid UTF-8, so this is lossless.
            let link_text = String::from_utf8_lossy(&text[link.range()]);
            at = link.end();
            if self.checks && !crate::checks::check_link(text, &link).passed() {
                // Not linked, and no raw Bidi_Control character of it reorders the line.
                write_escaped(&escape_bidi_controls(&link_text), out)?;
                continue;
            }
            let shown = display_link(&link_text, link.kind(), &DisplayOptions::default());
            let href = self.href(&link, &link_text);
            if self.allows_href(&href) {
                write_link(&shown, link.kind(), &href, None, out)?;
            } else {
                write_unlinked(&shown, link.kind(), out)?;
            }
        }
        write_escaped_bytes(&text[at..range.end], out)
    }
}

/// Writes one link: `<bdi dir="ltr"><a href="…" rel="…">…</a></bdi>`, the `href` the
/// ASCII form of `target` ([`ascii_form`]), `rel` when given, and the text `shown` (a
/// display form of `kind`, see [`crate::display`]) with each field in its own `<bdi>`
/// when it is not all ASCII. Everything is HTML-escaped.
///
/// ```
/// let mut out = Vec::new();
/// let shown = "https://bücher.de/α";
/// linkscan::html::write_link(shown, linkscan::LinkKind::Url, shown, Some("nofollow"), &mut out).unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "<bdi dir=\"ltr\"><a href=\"https://xn--bcher-kva.de/%CE%B1\" rel=\"nofollow\">\
///      <bdi>https</bdi>://<bdi>bücher</bdi>.<bdi>de</bdi>/<bdi>α</bdi></a></bdi>"
/// );
/// ```
pub fn write_link<W: Write + ?Sized>(
    shown: &str,
    kind: LinkKind,
    target: &str,
    rel: Option<&str>,
    out: &mut W,
) -> io::Result<()> {
    out.write_all(b"<bdi dir=\"ltr\"><a href=\"")?;
    if target.bytes().all(|b| b.is_ascii_graphic()) {
        // Its own ASCII form (see ascii_form), written without a copy.
        write_escaped(target, out)?;
    } else {
        write_escaped(&ascii_form(target), out)?;
    }
    if let Some(rel) = rel {
        out.write_all(b"\" rel=\"")?;
        write_escaped(rel, out)?;
    }
    out.write_all(b"\">")?;
    write_shown(shown, kind, out)?;
    out.write_all(b"</a></bdi>")
}

/// Writes a link that gets no target (its scheme is not allowed in an `href`, see
/// [`Linkifier::allows_href`]): `<bdi dir="ltr"><span class="link">…</span></bdi>`, its
/// text `shown` (a display form of `kind`) written as [`write_link`] writes it.
///
/// ```
/// let mut out = Vec::new();
/// linkscan::html::write_unlinked("smb://server/x", linkscan::LinkKind::Url, &mut out).unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "<bdi dir=\"ltr\"><span class=\"link\">smb://server/x</span></bdi>"
/// );
/// ```
pub fn write_unlinked<W: Write + ?Sized>(
    shown: &str,
    kind: LinkKind,
    out: &mut W,
) -> io::Result<()> {
    out.write_all(b"<bdi dir=\"ltr\"><span class=\"link\">")?;
    write_shown(shown, kind, out)?;
    out.write_all(b"</span></bdi>")
}

/// The text of a link: escaped, each field in its own `<bdi>` when it is not all ASCII.
fn write_shown<W: Write + ?Sized>(shown: &str, kind: LinkKind, out: &mut W) -> io::Result<()> {
    if shown.is_ascii() {
        write_escaped(shown, out)?;
    } else {
        for field in fields(shown, kind) {
            let text = &shown[field.range];
            if field.separator {
                write_escaped(text, out)?;
            } else {
                out.write_all(b"<bdi>")?;
                write_escaped(text, out)?;
                out.write_all(b"</bdi>")?;
            }
        }
    }
    Ok(())
}

/// Writes `s` with `&`, `<`, `>`, `"` and `'` replaced by character references, safe in
/// element content and in quoted attribute values.
pub fn write_escaped<W: Write + ?Sized>(s: &str, out: &mut W) -> io::Result<()> {
    let bytes = s.as_bytes();
    let mut at = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let entity: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'"' => b"&quot;",
            b'\'' => b"&#39;",
            _ => continue,
        };
        out.write_all(&bytes[at..i])?;
        out.write_all(entity)?;
        at = i + 1;
    }
    out.write_all(&bytes[at..])
}

/// Like [`write_escaped`], for bytes that may be invalid UTF-8 (written as U+FFFD).
pub fn write_escaped_bytes<W: Write + ?Sized>(bytes: &[u8], out: &mut W) -> io::Result<()> {
    for chunk in bytes.utf8_chunks() {
        write_escaped(chunk.valid(), out)?;
        if !chunk.invalid().is_empty() {
            out.write_all("\u{FFFD}".as_bytes())?;
        }
    }
    Ok(())
}

/// `s` escaped for HTML (see [`write_escaped`]).
///
/// ```
/// assert_eq!(linkscan::html::escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = Vec::with_capacity(s.len());
    write_escaped(s, &mut out).expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("escaping keeps UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_show_their_display_form_and_point_to_their_ascii_form() {
        let html = Linkifier::new().linkify(
            "xn--bcher-kva.de/b%C3%BCcher xn--80ak6aa92e.com/\u{202E}x ali@xn--mgbh0fb.xn--wgbh1c",
        );
        assert_eq!(
            html,
            "<bdi dir=\"ltr\"><a href=\"https://xn--bcher-kva.de/b%C3%BCcher\">\
             <bdi>bücher</bdi>.<bdi>de</bdi>/<bdi>bücher</bdi></a></bdi> \
             <bdi dir=\"ltr\"><a href=\"https://xn--80ak6aa92e.com/%E2%80%AEx\">\
             xn--80ak6aa92e.com/%E2%80%AEx</a></bdi> \
             <bdi dir=\"ltr\"><a href=\"mailto:ali@xn--mgbh0fb.xn--wgbh1c\">\
             <bdi>ali</bdi>@<bdi>مثال</bdi>.<bdi>مصر</bdi></a></bdi>"
        );
    }

    /// No Bidi_Control character of the input reaches a link's text or href.
    #[test]
    fn no_bidi_control_reaches_a_link() {
        for c in [
            '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}',
        ] {
            let text = format!("see https://example.com/a{c}b?k{c}=v#f{c} and x{c}y@example.com.");
            for checks in [false, true] {
                let html = Linkifier::new().checks(checks).linkify(&text);
                if !checks {
                    assert_eq!(html.matches("<a ").count(), 2, "{c:?}: {html}");
                } else {
                    // The URL is left as text, but its control is escaped all the same
                    // (the one before the email's `y` is no link's).
                    assert!(
                        html.starts_with("see https://example.com/a%"),
                        "{c:?}: {html}"
                    );
                    assert_eq!(html.chars().filter(|&d| d == c).count(), 1, "{c:?}: {html}");
                }
                let mut rest = html.as_str();
                while let Some(start) = rest.find("<a ") {
                    let end = rest[start..].find("</a>").unwrap() + start;
                    let link = &rest[start..end];
                    assert!(!link.chars().any(crate::is_bidi_control), "{c:?}: {link}");
                    rest = &rest[end..];
                }
            }
        }
    }

    #[test]
    fn schemes_and_escaping() {
        let l = Linkifier::new();
        assert_eq!(
            l.linkify("https://x.com/\"q\" mailto:a@b.com"),
            "<bdi dir=\"ltr\"><a href=\"https://x.com/&quot;q\">https://x.com/&quot;q</a></bdi>&quot; \
             <bdi dir=\"ltr\"><a href=\"mailto:a@b.com\">mailto:a@b.com</a></bdi>"
        );
        assert_eq!(l.linkify("<script>"), "&lt;script&gt;");
        assert_eq!(l.linkify(""), "");
    }

    #[test]
    fn invalid_utf8_becomes_replacement_character() {
        let mut out = Vec::new();
        Linkifier::new()
            .write_html(b"\xFF example.com \xC3", &mut out)
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\u{FFFD} <bdi dir=\"ltr\"><a href=\"https://example.com\">example.com</a></bdi> \u{FFFD}"
        );
    }
}
