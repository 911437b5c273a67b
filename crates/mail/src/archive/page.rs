//! How the text of a message is drawn on the archive's pages: with its links, each drawn safely
//! (the part as a whole, flowed or fixed, is written by `text`, which calls in here).
//!
//! Every part is written with its links: the decoded text of plain parts, the visible
//! text of HTML parts (whose own `<a href>` links are kept on their anchor text where no
//! detected link overlaps; an anchor whose text reads as a link to another host than its
//! target, as a reader reads it, shows that text plainly followed by the real target as
//! the link).
//!
//! # Invariants
//!
//! * Every text from a message is HTML-escaped; only link targets made by the detector (or
//!   an HTML part's own `href`, in its ASCII form) become `href`s, and only those the
//!   linkifier allows ([`Linkifier::allows_href`]: web schemes and what it adds).
//! * Links are written as [`linkscan::html`] writes them: their display form, isolated left
//!   to right with their fields in order, with no Bidi_Control character left raw.
//! * With [`Addresses::Obfuscate`] no `mailto:` is written: an email address is text, as
//!   `name at example dot com` ([`obfuscated`]); and no text has an address-shaped string
//!   left ([`scrub`]: `local@host.tld` of ASCII characters, whether the finder saw an
//!   address there or not: `a@localhost.lan`, a Message-ID, one inside a URL). A URL that
//!   holds one is written as that text, not as a link, since its `href` would publish it.
//! * Choosing the links of a part is O(n log n) in its links ([`choose_links`]).

use std::borrow::Borrow;
use std::io::{self, Write};

use crate::{LinkSource, MailLink};
use linkscan::display::{ascii_form, display_link, escape_bidi_controls, DisplayOptions};
use linkscan::html::{write_escaped, write_link, write_unlinked, Linkifier};
use linkscan::LinkKind;

use super::Addresses;

/// How the links of a page are drawn.
#[derive(Clone, Copy)]
pub(crate) struct Style<'a> {
    pub(crate) linkifier: &'a Linkifier,
    /// Links that fail a security check of UTS #58 section 8 are written as text.
    pub(crate) checks: bool,
    pub(crate) addresses: Addresses,
}

impl Style<'_> {
    /// Whether a text link of `kind` is written as obfuscated text.
    fn hides(&self, kind: LinkKind) -> bool {
        self.addresses == Addresses::Obfuscate && kind == LinkKind::Email
    }

    /// `text`, something a message says, as a page writes it: with its addresses
    /// obfuscated when they are hidden.
    pub(crate) fn said(&self, text: &str) -> String {
        if self.addresses == Addresses::Obfuscate {
            obfuscated_text(text)
        } else {
            text.to_string()
        }
    }

    /// Whether an href link to `href` is written as text (a `mailto:` when addresses are
    /// obfuscated).
    fn hides_href(&self, href: &str) -> bool {
        self.addresses == Addresses::Obfuscate
            && href
                .get(..7)
                .is_some_and(|s| s.eq_ignore_ascii_case("mailto:"))
    }
}

/// A size in bytes for people: `512 bytes`, `9.5 KiB`, `12 KiB`, `3.2 MiB` (units of 1024,
/// rounded down; one decimal below 10).
pub(crate) fn human_size(bytes: u64) -> String {
    if bytes < 1024 {
        return if bytes == 1 {
            "1 byte".into()
        } else {
            format!("{bytes} bytes")
        };
    }
    let units = ["KiB", "MiB", "GiB", "TiB"];
    let mut unit = 1024u64;
    let mut i = 0;
    while i + 1 < units.len() && bytes / unit >= 1024 {
        unit *= 1024;
        i += 1;
    }
    let tenths = u128::from(bytes) * 10 / u128::from(unit);
    if tenths < 100 {
        format!("{}.{} {}", tenths / 10, tenths % 10, units[i])
    } else {
        format!("{} {}", tenths / 10, units[i])
    }
}

/// `n` and the noun, in the singular for 1 and the plural otherwise.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// An address as a public archive shows it to people and not to harvesters:
/// `ann.lee at example dot com` for `ann.lee@example.com` (a `mailto:` prefix dropped).
pub(crate) fn obfuscated(address: &str) -> String {
    let address = address.strip_prefix("mailto:").unwrap_or(address);
    match address.rsplit_once('@') {
        Some((local, domain)) => format!("{local} at {}", domain.replace('.', " dot ")),
        None => address.to_string(),
    }
}

/// Whether `b` may be in the local part of an address-shaped string ([`scrub`]).
fn is_local(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~.-".contains(&b)
}

/// Whether `b` may be in the host of an address-shaped string.
fn is_host(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-'
}

/// `text` with every address-shaped string in it written as `local at host dot tld`:
/// ASCII local-part characters, `@`, and a host of two labels or more. What no finder
/// calls an address is caught too (`a@localhost.lan`, Message-IDs, one inside a URL), so
/// that an obfuscated page holds none; and `mailto:` (in any case) dropped.
///
/// The result holds no address-shaped string and no `mailto:`: scrubbing it again changes
/// nothing. The local part of an `@` is read in the text as written so far, so that in a
/// chain (`ann@example.com@relay.example.org`) the host just written is the local part
/// of the next `@`. Linear: each `@` looks at the runs around it, and a run is looked at
/// by the `@`s on its two sides only.
pub(crate) fn scrub(text: &str) -> std::borrow::Cow<'_, str> {
    let text = drop_mailto(text);
    let b = text.as_bytes();
    let mut out = String::new();
    let mut written = 0;
    let mut changed = false;
    for at in memchr::memchr_iter(b'@', b) {
        if at < written {
            continue;
        }
        out.push_str(&text[written..at]);
        written = at;
        let end = b[at + 1..]
            .iter()
            .position(|&c| !is_host(c))
            .map_or(b.len(), |i| at + 1 + i);
        let host = text[at + 1..end].trim_end_matches(['.', '-']);
        let labels = host.split('.').filter(|l| !l.is_empty()).count();
        let local = out.as_bytes().last().is_some_and(|&c| is_local(c));
        if !local || labels < 2 {
            continue;
        }
        out.push_str(" at ");
        out.push_str(&host.replace('.', " dot "));
        written = at + 1 + host.len();
        changed = true;
    }
    if !changed {
        return text;
    }
    out.push_str(&text[written..]);
    std::borrow::Cow::Owned(out)
}

/// `text` without `mailto:` in any case, nor one that dropping another would make
/// (`mamailto:ilto:`). Linear: at each `:` the text kept so far is looked at once.
fn drop_mailto(text: &str) -> std::borrow::Cow<'_, str> {
    let found = |s: &str| {
        s.as_bytes()
            .windows(7)
            .any(|w| w.eq_ignore_ascii_case(b"mailto:"))
    };
    if !found(text) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for colon in memchr::memchr_iter(b':', text.as_bytes()) {
        out.push_str(&text[from..=colon]);
        from = colon + 1;
        let n = out.len();
        if n >= 7 && out.as_bytes()[n - 7..].eq_ignore_ascii_case(b"mailto:") {
            out.truncate(n - 7);
        }
    }
    out.push_str(&text[from..]);
    std::borrow::Cow::Owned(out)
}

/// Whether the URL `url` holds an address-shaped string ([`scrub`]), as written or as
/// shown (its display form decodes `%40` to `@`).
pub(crate) fn holds_address(url: &str) -> bool {
    let found = |s: &str| matches!(scrub(s), std::borrow::Cow::Owned(_));
    found(url)
        || found(&display_link(
            url,
            LinkKind::Url,
            &DisplayOptions::default(),
        ))
}

/// Writes `text` escaped, each email address in it ([`linkscan::LinkFinder`]) obfuscated,
/// and no address-shaped string left ([`scrub`]).
pub(crate) fn write_obfuscated_text(text: &str, out: &mut impl Write) -> io::Result<()> {
    write_escaped(&obfuscated_text(text), out)
}

/// `text` with each email address in it obfuscated ([`obfuscated`]), and no
/// address-shaped string left ([`scrub`]); not escaped.
pub(crate) fn obfuscated_text(text: &str) -> String {
    let finder = linkscan::LinkFinder::new();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for link in finder.links(text) {
        if link.kind() != LinkKind::Email {
            continue;
        }
        out.push_str(&text[at..link.start()]);
        out.push_str(&obfuscated(link.as_str()));
        at = link.end();
    }
    out.push_str(&text[at..]);
    scrub(&out).into_owned()
}

/// Writes a header field that holds addresses (From, To, Cc): with its links, or with
/// its addresses obfuscated.
/// `value` as `(name, address)` when it is `NAME <ADDRESS>`, the form the scan gives a
/// named address; else `None`.
pub(crate) fn name_and_address(value: &str) -> Option<(&str, &str)> {
    let (name, rest) = value.strip_suffix('>')?.rsplit_once(" <")?;
    (!name.is_empty() && !rest.contains(['<', '>'])).then_some((name, rest))
}

/// Writes a person (`NAME <ADDRESS>`, an address alone, or a name alone) left to right,
/// with the name isolated in its own direction: an Arabic or Hebrew name must not take the
/// brackets and the address into its right-to-left run (where `<` and `>` are mirrored and
/// the address lands on the wrong side). `field` writes each piece.
pub(crate) fn write_person<W: Write>(
    value: &str,
    out: &mut W,
    mut field: impl FnMut(&str, &mut W) -> io::Result<()>,
) -> io::Result<()> {
    match name_and_address(value) {
        Some((name, address)) => {
            out.write_all(b"<bdi>")?;
            field(name, out)?;
            out.write_all(b"</bdi> &lt;")?;
            field(address, out)?;
            out.write_all(b"&gt;")
        }
        None => {
            out.write_all(b"<bdi>")?;
            field(value, out)?;
            out.write_all(b"</bdi>")
        }
    }
}

pub(crate) fn write_address_field(
    value: &str,
    style: Style<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    match style.addresses {
        Addresses::Show => style.linkifier.write_html(value.as_bytes(), out),
        Addresses::Obfuscate => write_obfuscated_text(&escape_bidi_controls(value), out),
    }
}

/// Writes `text` with its links as `<a>` elements ([`choose_links`] picks them): a text
/// link in its display form, isolated left to right with their fields in order
/// ([`write_link`]); an href link on its anchor text, isolated in its own direction. Every
/// `href` is the link's ASCII form, and no Bidi_Control character reaches a link.
///
/// `base` is where `text` starts in the offsets of the links (the start of a piece of a
/// message scanned raw, else 0). A text link is drawn only over its own text: where the
/// text at its offsets differs (a piece whose invalid UTF-8 became U+FFFD, 3 bytes for
/// each 1 to 3), it is looked for after them and after the link before; never found, it
/// is left as text.
///
/// With `checks`, a link that fails a security check of UTS #58 section 8 is written as
/// text, its Bidi_Control characters percent-escaped all the same (a U+202E in it must not
/// reverse the rest of the line). A link whose `href` the linkifier does not allow (not a
/// web scheme) is drawn without a target.
pub(crate) fn write_linkified<L: Borrow<MailLink>>(
    text: &str,
    links: &[L],
    base: usize,
    style: Style<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    let (checks, linkifier) = (style.checks, style.linkifier);
    let finder = linkscan::LinkFinder::new();
    let anchor_text =
        |link: &MailLink| text.get(link.start().checked_sub(base)?..link.end().checked_sub(base)?);
    let claims = |link: &MailLink| {
        link.source() == LinkSource::Href
            && link.start() < link.end()
            && anchor_text(link)
                .is_some_and(|shown| claims_another_host(&finder, shown, link.href()))
    };
    // The anchors whose text claims another host: the text links inside them give way,
    // so that their real target is drawn.
    let mut claiming: Vec<(usize, usize)> = links
        .iter()
        .map(Borrow::borrow)
        .filter(|l| claims(l))
        .map(|l| (l.start(), l.end()))
        .collect();
    claiming.sort_unstable();
    let inside_claim = |link: &MailLink| {
        link.source() == LinkSource::Text
            && claiming[..claiming.partition_point(|&(start, _)| start < link.end())]
                .last()
                .is_some_and(|&(_, end)| end > link.start())
    };
    let hide = style.addresses == Addresses::Obfuscate;
    // Text as it is written: escaped, and with no address left when they are hidden. Then
    // the text between two elements (a run: plain text and obfuscated addresses) is kept
    // and scrubbed whole as the next element starts, so that no address is made of the
    // pieces of a run (`ann@example.` and `com@relay.example.org`).
    let mut run = String::new();
    let plain = |run: &mut String, s: &str, out: &mut dyn Write| -> io::Result<()> {
        if hide {
            run.push_str(s);
            Ok(())
        } else {
            write_escaped(s, out)
        }
    };
    let flush = |run: &mut String, out: &mut dyn Write| -> io::Result<()> {
        if !run.is_empty() {
            write_escaped(&scrub(run), out)?;
            run.clear();
        }
        Ok(())
    };
    // With addresses hidden, a link that an `@` touches (`ann@` before `example.com`) is
    // text of its run: drawn apart, the two would read as an address.
    let touches_at = |start: usize, end: usize, link_text: &str| {
        hide && (text[..start].ends_with('@')
            || text[end..].starts_with('@')
            || link_text.starts_with('@')
            || link_text.ends_with('@'))
    };
    let mut at = 0;
    for link in choose_links(links, &inside_claim, &mut 0) {
        let (Some(mut start), Some(mut end)) =
            (link.start().checked_sub(base), link.end().checked_sub(base))
        else {
            continue;
        };
        if link.source() == LinkSource::Text && text.get(start..end) != Some(link.text()) {
            let from = start.max(at);
            match text.get(from..).and_then(|rest| rest.find(link.text())) {
                Some(found) => {
                    start = from + found;
                    end = start + link.text().len();
                }
                None => continue,
            }
        }
        if start < at || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            continue;
        }
        plain(&mut run, &text[at..start], out)?;
        let link_text = &text[start..end];
        if checks && !passes_checks(text, base, link) {
            plain(&mut run, &escape_bidi_controls(link_text), out)?;
            at = end;
            continue;
        }
        if style.hides(link.kind()) && link.source() == LinkSource::Text {
            plain(&mut run, &obfuscated(&escape_bidi_controls(link_text)), out)?;
            at = end;
            continue;
        }
        if touches_at(start, end, link_text) {
            plain(&mut run, &escape_bidi_controls(link_text), out)?;
            at = end;
            continue;
        }
        flush(&mut run, out)?;
        // A link whose text or target holds an address is that text when addresses are
        // hidden: its `href` would publish the address.
        if hide
            && link.kind() != LinkKind::Email
            && (holds_address(link_text) || holds_address(link.href()))
        {
            out.write_all(b"<bdi>")?;
            write_escaped(&scrub(&escape_bidi_controls(link_text)), out)?;
            out.write_all(b"</bdi>")?;
            at = end;
            continue;
        }
        match link.source() {
            _ if style.hides_href(link.href()) => {
                out.write_all(b"<bdi>")?;
                write_obfuscated_text(&escape_bidi_controls(link_text), out)?;
                out.write_all(b"</bdi>")?;
            }
            LinkSource::Text => {
                let shown = display_link(link_text, link.kind(), &DisplayOptions::default());
                if linkifier.allows_href(link.href()) {
                    write_link(&shown, link.kind(), link.href(), Some("nofollow"), out)?;
                } else {
                    write_unlinked(&shown, link.kind(), out)?;
                }
            }
            _ if !linkifier.allows_href(link.href()) => {
                out.write_all(b"<bdi><span class=\"link\">")?;
                write_escaped(&escape_bidi_controls(link_text), out)?;
                out.write_all(b"</span></bdi>")?;
            }
            // Anchor text that reads as a link to another host (`https://www.paypal.com/`
            // with a zero-width space in it, over an href to evil.com): the claim is
            // shown as text, and the link is drawn with its real target as its text.
            _ if claims(link) => {
                out.write_all(b"<bdi>")?;
                write_escaped(&escape_bidi_controls(link_text), out)?;
                out.write_all(b"</bdi> ")?;
                let target = link.href();
                let bare = match link.kind() {
                    LinkKind::Email => target.strip_prefix("mailto:").unwrap_or(target),
                    _ => target,
                };
                let shown = display_link(bare, link.kind(), &DisplayOptions::default());
                write_link(&shown, link.kind(), target, Some("nofollow"), out)?;
            }
            // The anchor text of an HTML part is prose, not a link's text: isolated in
            // its own direction, with no Bidi_Control character left raw.
            _ => {
                out.write_all(b"<bdi><a href=\"")?;
                write_escaped(&ascii_form(link.href()), out)?;
                out.write_all(b"\" rel=\"nofollow\">")?;
                write_escaped(&escape_bidi_controls(link_text), out)?;
                out.write_all(b"</a></bdi>")?;
            }
        }
        at = end;
    }
    plain(&mut run, &text[at..], out)?;
    flush(&mut run, out)
}

/// Whether the anchor text `shown` reads as a URL, host or email address whose host is
/// not that of `href` (nor a domain above or below it). The text is read as a reader
/// reads it: default-ignorable characters (zero-width spaces and joiners, soft hyphens,
/// Bidi_Control characters, variation selectors, …) removed, and characters that look
/// like a full stop (`․` U+2024, `。`, `．`, `｡`, `﹒`) read as `.`; the links the finder
/// sees in that text are its claims.
fn claims_another_host(finder: &linkscan::LinkFinder, shown: &str, href: &str) -> bool {
    let read: String = shown
        .chars()
        .filter(|&c| !is_default_ignorable(c))
        .map(|c| match c {
            '\u{2024}' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}' | '\u{FE52}' | '\u{2E33}' => '.',
            c => c,
        })
        .collect();
    let Some(target) = host_of(href) else {
        return false;
    };
    finder.links(&read).any(|claim| {
        host_of(claim.as_str()).is_some_and(|claimed| {
            claimed != target
                && !claimed.ends_with(&format!(".{target}"))
                && !target.ends_with(&format!(".{claimed}"))
        })
    })
}

/// The host of a URL or email (with or without a scheme), in lower-case ASCII (IDNA).
pub(crate) fn host_of(link: &str) -> Option<String> {
    let rest = link.strip_prefix("mailto:").unwrap_or(link);
    let rest = rest.split_once("://").map_or(rest, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host.rsplit_once(':').map_or(host, |(h, port)| {
        if port.bytes().all(|b| b.is_ascii_digit()) {
            h
        } else {
            host
        }
    });
    let host = host.trim_end_matches('.');
    if host.is_empty() {
        return None;
    }
    Some(idna::domain_to_ascii(host).unwrap_or_else(|_| host.to_lowercase()))
}

/// Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties): characters with no
/// visible glyph of their own.
fn is_default_ignorable(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}'..='\u{1160}' | '\u{17B4}'..='\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

/// The links to draw, in text order: every text link except those `dropped`, and each
/// href link (from an HTML part) whose anchor text is not empty and overlaps no text link
/// and no href link drawn before it (the leftmost wins).
///
/// Linear after sorting: text links (disjoint, as the finder reports them) and href links
/// are each sorted by start, then one sweep moves a cursor over the text links while it
/// walks the href links, so each href link is compared with one text link and with the
/// last href link taken. `work` counts the comparisons made (sorting included), for the
/// tests that hold the whole to O(n log n).
fn choose_links<'a, L: Borrow<MailLink>>(
    links: &'a [L],
    dropped: &dyn Fn(&MailLink) -> bool,
    work: &mut usize,
) -> Vec<&'a MailLink> {
    let mut by_start = |a: &&MailLink, b: &&MailLink| {
        *work += 1;
        (a.start(), a.end()).cmp(&(b.start(), b.end()))
    };
    let mut text: Vec<&MailLink> = links
        .iter()
        .map(Borrow::borrow)
        .filter(|l| l.source() == LinkSource::Text && !dropped(l))
        .collect();
    text.sort_by(&mut by_start);
    let mut hrefs: Vec<&MailLink> = links
        .iter()
        .map(Borrow::borrow)
        .filter(|l| l.source() == LinkSource::Href && l.start() < l.end())
        .collect();
    hrefs.sort_by(&mut by_start);
    let mut chosen = Vec::with_capacity(text.len() + hrefs.len());
    let mut next_text = 0;
    let mut last_href_end = 0;
    for href in hrefs {
        while next_text < text.len() && text[next_text].end() <= href.start() {
            chosen.push(text[next_text]);
            next_text += 1;
            *work += 1;
        }
        *work += 1;
        let meets_text = text.get(next_text).is_some_and(|t| t.start() < href.end());
        if !meets_text && href.start() >= last_href_end {
            chosen.push(href);
            last_href_end = href.end();
        }
    }
    chosen.extend_from_slice(&text[next_text..]);
    chosen
}

/// Whether `link` (of `text`) passes every security check of UTS #58 section 8; the
/// character before a link of the text counts (an invisible one).
pub(crate) fn passes_checks(text: &str, base: usize, link: &MailLink) -> bool {
    let (before, after) = match link.source() {
        LinkSource::Text => (
            link.start()
                .checked_sub(base)
                .and_then(|start| text.get(..start))
                .unwrap_or(""),
            link.end()
                .checked_sub(base)
                .and_then(|end| text.get(end..))
                .unwrap_or(""),
        ),
        _ => ("", ""),
    };
    linkscan::checks::check_between(before, link.text(), after, link.kind()).passed()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(start: usize, end: usize, source: LinkSource) -> MailLink {
        crate::message::mail_link(
            start..end,
            LinkKind::Url,
            source,
            "a.co".into(),
            "https://a.co".into(),
        )
    }

    /// The text of an HTML part with `n` anchors `<a href=a.co>x</a>`, and its links.
    fn anchors(n: usize) -> (String, Vec<MailLink>) {
        let text = "x ".repeat(n);
        let links = (0..n)
            .map(|k| link(2 * k, 2 * k + 1, LinkSource::Href))
            .collect();
        (text, links)
    }

    /// Choosing the links of a part is O(n log n), not O(n²): the comparisons made for
    /// 160k anchors are about 4 times (not 16 times) those for 40k.
    #[test]
    fn choosing_links_does_not_grow_quadratically() {
        let work = |n| {
            let (_, links) = anchors(n);
            let mut work = 0;
            assert_eq!(choose_links(&links, &|_| false, &mut work).len(), n);
            work
        };
        let (small, large) = (work(40_000), work(160_000));
        let ratio = large as f64 / small as f64;
        assert!(
            (3.5..5.0).contains(&ratio),
            "160k anchors cost {large} comparisons, 40k cost {small}: ratio {ratio:.2}"
        );
        // And the page itself: every anchor is drawn.
        let (text, links) = anchors(40_000);
        let mut page = Vec::new();
        let linkifier = Linkifier::new();
        let style = Style {
            linkifier: &linkifier,
            checks: false,
            addresses: Addresses::Show,
        };
        write_linkified(&text, &links, 0, style, &mut page).unwrap();
        let page = String::from_utf8(page).unwrap();
        assert_eq!(page.matches("<a href=").count(), 40_000);
    }

    /// Text links always win; an href link is drawn where it overlaps no text link and no
    /// href link before it; empty anchors are not drawn.
    #[test]
    fn href_links_give_way_to_text_links() {
        let links = [
            link(20, 30, LinkSource::Text),
            link(0, 5, LinkSource::Href),
            link(3, 8, LinkSource::Href),
            link(25, 35, LinkSource::Href),
            link(40, 40, LinkSource::Href),
            link(5, 10, LinkSource::Text),
            link(12, 18, LinkSource::Href),
            link(36, 39, LinkSource::Href),
        ];
        let chosen: Vec<(usize, usize)> = choose_links(&links, &|_| false, &mut 0)
            .iter()
            .map(|l| (l.start(), l.end()))
            .collect();
        assert_eq!(chosen, [(0, 5), (5, 10), (12, 18), (20, 30), (36, 39)]);
    }

    /// Anchor text that reads as another host, once invisible characters and look-alike
    /// full stops are read as a reader reads them; the same host, a domain above or below
    /// it, and prose are no claim.
    #[test]
    fn claims_of_another_host() {
        let f = linkscan::LinkFinder::new();
        let evil = "https://evil.com/steal";
        for shown in [
            "https://www.pay\u{200B}pal.com/",
            "www\u{2024}paypal\u{2024}com",
            "paypal.com",
            "https://paypal.com.evil.net/",
            "Log in at\u{FEFF} bank.co.uk now",
        ] {
            assert!(claims_another_host(&f, shown, evil), "{shown:?}");
        }
        for (shown, href) in [
            ("Click here", evil),
            ("evil.com", evil),
            ("www.evil.com", evil),
            ("EVIL.COM/steal", evil),
            ("paypal.com", "https://www.paypal.com/x"),
            ("bücher.de", "https://xn--bcher-kva.de/"),
            ("a@evil.com", "mailto:b@evil.com"),
        ] {
            assert!(!claims_another_host(&f, shown, href), "{shown:?} {href}");
        }
    }
}

#[cfg(test)]
mod obfuscation {
    use super::*;

    /// No `mailto:` anywhere once addresses are obfuscated: text links, HTML anchors to
    /// `mailto:` and header fields; URLs stay links.
    #[test]
    fn obfuscated_addresses_are_never_links() {
        assert_eq!(
            obfuscated("ann.lee@mail.example.com"),
            "ann.lee at mail dot example dot com"
        );
        let linkifier = Linkifier::new();
        let style = Style {
            linkifier: &linkifier,
            checks: false,
            addresses: Addresses::Obfuscate,
        };
        let text = "write to ann@example.com or see example.org, or click here";
        let links = crate::MailScanner::new().scan(format!("Subject: x\n\n{text}\n").as_bytes());
        let part = &links.parts()[1];
        let mut anchors = part.links().to_vec();
        anchors.push(crate::message::mail_link(
            text.len() - 10..text.len(),
            LinkKind::Email,
            LinkSource::Href,
            "click here".into(),
            "mailto:bob@example.net".into(),
        ));
        let mut out = Vec::new();
        write_linkified(part.text(), &anchors, 0, style, &mut out).unwrap();
        let html = String::from_utf8(out).unwrap();
        assert!(!html.contains("mailto:"), "{html}");
        assert!(!html.contains('@'), "{html}");
        assert!(html.contains("ann at example dot com"), "{html}");
        assert!(html.contains("href=\"https://example.org\""), "{html}");
        let mut out = Vec::new();
        write_address_field("Ann <ann@example.com>", style, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Ann &lt;ann at example dot com&gt;"
        );
    }
}

#[cfg(test)]
mod scrubbing {
    use super::scrub;

    /// A scrubbed text scrubs to itself: chains of `@`s, doubled ones, and `mailto:`s
    /// that dropping another would make.
    #[test]
    fn scrub_is_idempotent() {
        for text in [
            "ann@example.com@relay.example.org",
            "a@b.com@c.org",
            "a@@b.com",
            "a@b@c.d@e.f@g.h",
            "a@b.c-@d.e",
            "mamailto:ilto:a@b.com",
            "MAmaiLTO:ilto:x",
        ] {
            let once = scrub(text).into_owned();
            assert_eq!(scrub(&once), once, "{text}");
            assert!(!once.to_ascii_lowercase().contains("mailto:"), "{once}");
        }
        assert_eq!(
            scrub("ann@example.com@relay.example.org"),
            "ann at example dot com at relay dot example dot org"
        );
        assert_eq!(scrub("a@@b.com"), "a@@b.com");
    }
}

#[cfg(test)]
mod sizes {
    use super::human_size;

    #[test]
    fn sizes_read_in_units_of_1024_rounded_down() {
        assert_eq!(human_size(0), "0 bytes");
        assert_eq!(human_size(1), "1 byte");
        assert_eq!(human_size(1023), "1023 bytes");
        assert_eq!(human_size(1024), "1.0 KiB");
        assert_eq!(human_size(9 * 1024 + 1023), "9.9 KiB");
        assert_eq!(human_size(10 * 1024), "10 KiB");
        assert_eq!(human_size(1024 * 1024 - 1), "1023 KiB");
        assert_eq!(human_size(3 * 1024 * 1024 + 300 * 1024), "3.2 MiB");
        assert_eq!(human_size(u64::MAX), "16777215 TiB");
    }
}
