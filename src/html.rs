//! HTML linkification: escape plain text for HTML and wrap each detected link in
//! `<a href="…">…</a>`.
//!
//! Text and attribute values are escaped (`&`, `<`, `>`, `"`, `'`), so the output is safe
//! to embed in an HTML body whatever the input. The `href` of a link that did not spell a
//! scheme gets the configured default (`https://`), and an email gets `mailto:`. Input
//! bytes that are not valid UTF-8 are written as U+FFFD; links never contain them.
//!
//! With [`Linkifier::checks`], a link that fails a security check of section 8
//! ([`crate::checks`]) is written as plain text, not linked.

use std::io::{self, Write};

use crate::finder::LinkFinder;
use crate::link::{Link, LinkKind};

/// Turns plain text into HTML with links.
///
/// ```
/// use linkscan::html::Linkifier;
/// let html = Linkifier::new().linkify("See example.com/a?b=1&c=2 or mail <x@example.com>.");
/// assert_eq!(
///     html,
///     "See <a href=\"https://example.com/a?b=1&amp;c=2\">example.com/a?b=1&amp;c=2</a> or mail \
///      &lt;<a href=\"mailto:x@example.com\">x@example.com</a>&gt;."
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Linkifier {
    finder: LinkFinder,
    default_scheme: String,
    checks: bool,
}

impl Default for Linkifier {
    fn default() -> Self {
        Linkifier::new()
    }
}

impl Linkifier {
    /// A linkifier with the default [`LinkFinder`] and `https://` for scheme-less URLs.
    pub fn new() -> Linkifier {
        Linkifier {
            finder: LinkFinder::new(),
            default_scheme: "https://".to_string(),
            checks: false,
        }
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
    /// assert_eq!(html, "<a href=\"http://example.com\">example.com</a>");
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
    ///     "ｅxample.com and <a href=\"https://example.com\">example.com</a>"
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
        href
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
        let mut at = 0;
        for link in links {
            if self.checks && !crate::checks::check_link(text, &link).passed() {
                continue;
            }
            write_escaped_bytes(&text[at..link.start()], out)?;
            // A link never contains invalid UTF-8, so this is lossless.
            let link_text = String::from_utf8_lossy(&text[link.range()]);
            out.write_all(b"<a href=\"")?;
            write_escaped(&self.href(&link, &link_text), out)?;
            out.write_all(b"\">")?;
            write_escaped(&link_text, out)?;
            out.write_all(b"</a>")?;
            at = link.end();
        }
        write_escaped_bytes(&text[at..], out)
    }
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
    fn schemes_and_escaping() {
        let l = Linkifier::new();
        assert_eq!(
            l.linkify("https://x.com/\"q\" mailto:a@b.com"),
            "<a href=\"https://x.com/&quot;q\">https://x.com/&quot;q</a>&quot; \
             <a href=\"mailto:a@b.com\">mailto:a@b.com</a>"
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
            "\u{FFFD} <a href=\"https://example.com\">example.com</a> \u{FFFD}"
        );
    }
}
