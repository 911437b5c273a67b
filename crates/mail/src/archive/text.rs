//! The text of a part on an archive page: flowed paragraphs, and Message-IDs that lead to
//! the pages of their messages.
//!
//! # Flowed parts
//!
//! A `format=flowed` part (RFC 3676) comes from the scanner unflowed, one paragraph per
//! line, quoted ones as `>` marks and a space ([`paragraphs`] reads them back). It is
//! written as a `<div class="flowed">` of `<p>` elements that the browser wraps at the
//! page's width, each paragraph inside as many `<blockquote>` elements as its quote
//! depth (at most [`MAX_QUOTE_DEPTH`]; deeper quotes keep their extra marks as text). A
//! link never spans a line break, so each paragraph is written with its own links; should
//! one ever cross a paragraph's bounds, the part is written as fixed text instead
//! (nothing is dropped). Fixed parts are a `<pre>` as before.
//!
//! # Message-IDs
//!
//! A `<left@right>` in a text part (RFC 5322 `msg-id`, ASCII `atext` and dots on each
//! side, at most [`MAX_ID`] bytes) may cite a message of the archive. Pages are written
//! in parallel as messages are scanned, before the archive knows all its messages, so
//! each such citation is written as it would be otherwise (its detected link, if any)
//! inside a marker, `<span class="mid" data-mid="ID">…</span><!--/mid-->`, and the
//! page's [`References`] keep its IDs. When the run ends, [`Archive::finish`](super::Archive::finish)
//! rewrites each page, and on those that cite a message of the archive each marker of such an ID
//! becomes `<a class="mid" href="PAGE">&lt;ID&gt;</a>`, a link to the page of the
//! first message with that Message-ID. A citation of a message the archive does not have
//! stays as it was written: no link leaves the archive for it. Text from a message
//! never contains a raw `<`, so a message cannot forge a marker.
//!
//! With [`Addresses::Obfuscate`](super::Addresses::Obfuscate) a Message-ID, which has the
//! shape of an address, is never written: the marker's `data-mid` is its [`id_hash`] in
//! 16 hex digits, its text the ID as `&lt;left at right dot com&gt;` (no link inside),
//! and a link to its page keeps that text.
//!
//! # Invariants
//!
//! * The links written are those of the part, each once, in the order of the text; a
//!   Message-ID marker is placed only where no link crosses its bounds.
//! * Memory: a page keeps at most [`MAX_KEPT_REFERENCES`] cited IDs in the index's row,
//!   as 64-bit hashes ([`id_hash`]); past that it is only marked as citing more, and its
//!   markers are all looked at when the run ends.

use std::io::{self, Write};
use std::ops::Range;

use crate::flowed::paragraphs;
use crate::{MailLink, ScannedMessage, TextPart};
use linkscan::html::write_escaped;

use super::page::{write_linkified, Style};

/// How many levels of quoting a flowed paragraph is shown at.
pub(crate) const MAX_QUOTE_DEPTH: usize = 16;

/// The longest Message-ID that is linked (RFC 5322's line length).
pub(crate) const MAX_ID: usize = 998;

/// How many cited Message-IDs an index row keeps for its page.
pub(crate) const MAX_KEPT_REFERENCES: usize = 64;

/// A Message-ID as the archive keeps it: its XXH64, so that a row holds 8 bytes for it
/// whatever its length, and the state file names no address.
pub(crate) fn id_hash(id: &str) -> u64 {
    super::hash::hash(id.as_bytes())
}

/// A page's own Message-ID and the Message-IDs its text parts cite ([`id_hash`]es).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct References {
    pub(crate) own: Option<u64>,
    pub(crate) cited: Vec<u64>,
    /// The page cites more than [`MAX_KEPT_REFERENCES`] IDs.
    pub(crate) more: bool,
}

impl References {
    /// `m`'s own Message-ID (when it could be linked), nothing cited yet.
    pub(crate) fn of(m: &ScannedMessage) -> References {
        References {
            own: m
                .message_id()
                .filter(|id| message_id_len(&format!("<{id}>")) == Some(id.len() + 2))
                .map(id_hash),
            ..References::default()
        }
    }

    fn cite(&mut self, id: &str) {
        let h = id_hash(id);
        if self.cited.contains(&h) {
            return;
        }
        if self.cited.len() < MAX_KEPT_REFERENCES {
            self.cited.push(h);
        } else {
            self.more = true;
        }
    }
}

/// The length of the `<left@right>` Message-ID at the start of `text`, if there is one.
fn message_id_len(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.first() != Some(&b'<') {
        return None;
    }
    let mut at = None;
    for (i, &c) in b.iter().enumerate().skip(1).take(MAX_ID + 1) {
        match c {
            b'>' => {
                let at = at?;
                let atom = |s: &[u8]| {
                    !s.is_empty()
                        && !s.starts_with(b".")
                        && !s.ends_with(b".")
                        && !s.windows(2).any(|w| w == b"..")
                };
                return (atom(&b[1..at]) && atom(&b[at + 1..i])).then_some(i + 1);
            }
            b'@' if at.is_none() => at = Some(i),
            // RFC 5322 atext and dots, less `&` and `'`, which HTML would escape.
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' => {}
            b'!' | b'#' | b'$' | b'%' | b'*' | b'+' | b'-' | b'/' | b'=' | b'?' | b'^' | b'_'
            | b'`' | b'{' | b'|' | b'}' | b'~' => {}
            _ => return None,
        }
    }
    None
}

/// The links of a part in the order of their starts, for finding those of a range and
/// whether a place is inside one in logarithmic time.
pub(crate) struct Links<'a> {
    /// Where the part's text starts in the message: a piece of an over-limit message
    /// carries offsets relative to the whole message, and only its own links are kept.
    base: usize,
    sorted: Vec<&'a MailLink>,
    /// The largest end of `sorted[..=k]`.
    max_end: Vec<usize>,
}

impl<'a> Links<'a> {
    /// The links of a text that starts at `base` in its message (0 but for the pieces of
    /// an over-limit message); offsets below are relative to the text.
    pub(crate) fn new(links: &'a [MailLink], base: usize) -> Links<'a> {
        let mut sorted: Vec<&MailLink> = links.iter().filter(|l| l.start() >= base).collect();
        sorted.sort_by_key(|l| l.start());
        let max_end = sorted
            .iter()
            .scan(0, |max, l| {
                *max = (l.end() - base).max(*max);
                Some(*max)
            })
            .collect();
        Links {
            base,
            sorted,
            max_end,
        }
    }

    /// Where `link` starts and ends in the text.
    fn range(&self, link: &MailLink) -> Range<usize> {
        link.start() - self.base..link.end() - self.base
    }

    /// Whether every link lies inside one of `ranges` (sorted, not overlapping; the first
    /// field of each entry, a quote depth, is not read): what a page drawn a range at a
    /// time needs, since a link across two ranges could not be drawn whole.
    fn within<T>(&self, ranges: &[(T, Range<usize>)]) -> bool {
        self.sorted.iter().all(|l| {
            let l = self.range(l);
            let k = ranges.partition_point(|(_, r)| r.start <= l.start);
            k > 0 && l.end <= ranges[k - 1].1.end
        })
    }

    /// Whether a link starts before `at` and ends after it.
    fn crossed(&self, at: usize) -> bool {
        let k = self.sorted.partition_point(|l| l.start() - self.base < at);
        k > 0 && self.max_end[k - 1] > at
    }

    /// The links that start in `range`.
    fn starting_in(&self, range: &Range<usize>) -> &[&'a MailLink] {
        let from = self
            .sorted
            .partition_point(|l| l.start() - self.base < range.start);
        let to = self
            .sorted
            .partition_point(|l| l.start() - self.base < range.end);
        &self.sorted[from..to]
    }
}

/// Writes `text[range]` with the links that lie wholly inside it: the part's own links,
/// borrowed (a reference each, never a copy of a link's strings).
fn write_range(
    text: &str,
    links: &Links<'_>,
    range: Range<usize>,
    style: Style<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    let inside: Vec<&MailLink> = links
        .starting_in(&range)
        .iter()
        .filter(|l| links.range(l).end <= range.end)
        .copied()
        .collect();
    write_linkified(
        &text[range.clone()],
        &inside,
        links.base + range.start,
        style,
        out,
    )
}

/// Writes `text[range]` with its links, each Message-ID in it inside a marker (see the
/// [module](self) documentation), and notes the IDs in `references`.
pub(crate) fn write_citing(
    text: &str,
    links: &Links<'_>,
    range: Range<usize>,
    style: Style<'_>,
    references: &mut References,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut written = range.start;
    let mut from = range.start;
    while let Some(i) = memchr::memchr(b'<', &text.as_bytes()[from..range.end]) {
        let start = from + i;
        let Some(len) = message_id_len(&text[start..range.end]) else {
            from = start + 1;
            continue;
        };
        let end = start + len;
        if links.crossed(start) || links.crossed(end) {
            from = start + 1;
            continue;
        }
        write_range(text, links, written..start, style, out)?;
        let id = &text[start + 1..end - 1];
        out.write_all(b"<span class=\"mid\" data-mid=\"")?;
        if style.addresses == super::Addresses::Obfuscate {
            write!(out, "{:016x}\">&lt;", id_hash(id))?;
            write_escaped(&super::page::scrub(id), out)?;
            out.write_all(b"&gt;")?;
        } else {
            write_escaped(id, out)?;
            out.write_all(b"\">")?;
            write_range(text, links, start..end, style, out)?;
        }
        out.write_all(b"</span><!--/mid-->")?;
        references.cite(id);
        written = end;
        from = end;
    }
    write_range(text, links, written..range.end, style, out)
}

/// Writes a flowed part's paragraphs (see the [module](self) documentation); `false`,
/// with nothing written, when a link crosses a paragraph's bounds.
pub(crate) fn write_flowed(
    part: &TextPart,
    base: usize,
    style: Style<'_>,
    references: &mut References,
    out: &mut impl Write,
) -> io::Result<bool> {
    let text = part.text();
    let links = Links::new(part.links(), base);
    // Each paragraph as shown: its depth and the range written.
    let shown: Vec<(usize, Range<usize>)> = paragraphs(text)
        .map(|p| {
            if p.depth > MAX_QUOTE_DEPTH {
                // The marks past the shown depth stay as text.
                (
                    MAX_QUOTE_DEPTH,
                    p.line.start + MAX_QUOTE_DEPTH..p.content.end,
                )
            } else {
                (p.depth, p.content)
            }
        })
        .collect();
    if !links.within(&shown) {
        return Ok(false);
    }
    out.write_all(b"<div class=\"flowed\" dir=\"auto\">")?;
    let mut depth = 0;
    for (d, range) in shown {
        for _ in depth..d {
            out.write_all(b"<blockquote>")?;
        }
        for _ in d..depth {
            out.write_all(b"</blockquote>")?;
        }
        depth = d;
        out.write_all(b"<p>")?;
        write_citing(text, &links, range, style, references, out)?;
        out.write_all(b"</p>\n")?;
    }
    for _ in 0..depth {
        out.write_all(b"</blockquote>")?;
    }
    out.write_all(b"</div>")?;
    Ok(true)
}

/// The most lines of a quote shown open; a longer one is folded (`<details>`).
pub(crate) const MAX_OPEN_QUOTE: usize = 12;

/// The quote depth of a plain line (`>`, `> >`, `>>`, capped at [`MAX_QUOTE_DEPTH`]) and
/// where its text starts.
fn plain_depth(line: &str) -> (usize, usize) {
    let bytes = line.as_bytes();
    let (mut depth, mut at) = (0, 0);
    while depth < MAX_QUOTE_DEPTH && bytes.get(at) == Some(&b'>') {
        depth += 1;
        at += 1;
        if bytes.get(at) == Some(&b' ') && bytes.get(at + 1) == Some(&b'>') {
            at += 1;
        }
    }
    if depth > 0 && bytes.get(at) == Some(&b' ') {
        at += 1;
    }
    (depth, at)
}

/// Writes a plain (not flowed) part with `>` lines as nested `<blockquote>`s, a quote of
/// more than [`MAX_OPEN_QUOTE`] lines folded in `<details>`; `false`, with nothing
/// written, when it has no quote or a link crosses a line's bounds (then a `<pre>`).
pub(crate) fn write_quoted(
    part: &TextPart,
    base: usize,
    style: Style<'_>,
    references: &mut References,
    out: &mut impl Write,
) -> io::Result<bool> {
    let text = part.text();
    let mut lines: Vec<(usize, Range<usize>)> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let end = memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |i| at + i);
        let line = &text[at..end];
        let body = line.strip_suffix('\r').unwrap_or(line);
        let (depth, skip) = plain_depth(body);
        lines.push((depth, at + skip..at + body.len()));
        at = end + 1;
    }
    if lines.iter().all(|(d, _)| *d == 0) {
        return Ok(false);
    }
    let links = Links::new(part.links(), base);
    if !links.within(&lines) {
        return Ok(false);
    }
    out.write_all(b"<div class=\"flowed plain\" dir=\"auto\">")?;
    let (mut depth, mut folded) = (0, false);
    for (k, (d, range)) in lines.iter().enumerate() {
        let d = *d;
        for _ in d..depth {
            out.write_all(b"</blockquote>")?;
        }
        if d == 0 && folded {
            out.write_all(b"</details>")?;
            folded = false;
        }
        if depth == 0 && d > 0 {
            let n = lines[k..].iter().take_while(|(d, _)| *d > 0).count();
            if n > MAX_OPEN_QUOTE {
                write!(out, "<details><summary>{n} quoted lines</summary>")?;
                folded = true;
            }
        }
        for _ in depth..d {
            out.write_all(b"<blockquote>")?;
        }
        depth = d;
        out.write_all(b"<p>")?;
        write_citing(text, &links, range.clone(), style, references, out)?;
        out.write_all(b"</p>\n")?;
    }
    for _ in 0..depth {
        out.write_all(b"</blockquote>")?;
    }
    if folded {
        out.write_all(b"</details>")?;
    }
    out.write_all(b"</div>")?;
    Ok(true)
}

/// Writes a text part as a `<section>`: its heading (path, type) when `headed` (a message
/// of several parts), then its text, flowed
/// paragraphs ([`write_flowed`]) or a `<pre>` of fixed lines, with its links and cited
/// Message-IDs.
pub(crate) fn write_part(
    part: &TextPart,
    base: usize,
    headed: bool,
    style: Style<'_>,
    references: &mut References,
    out: &mut impl Write,
) -> io::Result<()> {
    out.write_all(b"<section class=\"part\">")?;
    if headed {
        out.write_all(b"<h2>Part ")?;
        write_escaped(part.path(), out)?;
        if let Some(ct) = &part.content_type() {
            out.write_all(" · ".as_bytes())?;
            write_escaped(ct, out)?;
        }
        out.write_all(b"</h2>")?;
    }
    out.write_all(b"\n")?;
    if part.is_flowed() && write_flowed(part, base, style, references, out)? {
        return out.write_all(b"</section>\n");
    }
    if !part.is_flowed() && write_quoted(part, base, style, references, out)? {
        return out.write_all(b"</section>\n");
    }
    out.write_all(b"<pre dir=\"auto\">")?;
    let text = part.text();
    let links = Links::new(part.links(), base);
    write_citing(text, &links, 0..text.len(), style, references, out)?;
    out.write_all(b"</pre></section>\n")
}

/// `html` with each marker of a Message-ID that `page_of` knows (by its [`id_hash`]) made
/// a link to its page: `&lt;ID&gt;`, or with `obfuscated`, the marker's own text (the
/// marker names the hash, not the ID).
///
/// `html` is a page read back from the folder, which anyone who can write there may have
/// edited: a marker is linked only when it is whole and names an ID as this module writes
/// it (a Message-ID, or its hash in 16 hex digits); any other text, broken markers
/// included, is kept as it is. Never panics.
pub(crate) fn resolve(
    html: &str,
    obfuscated: bool,
    page_of: impl Fn(u64) -> Option<String>,
) -> String {
    const OPEN: &str = "<span class=\"mid\" data-mid=\"";
    const CLOSE: &str = "<!--/mid-->";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(OPEN) {
        let after = &rest[i + OPEN.len()..];
        let Some(c) = after.find(CLOSE) else {
            break;
        };
        out.push_str(&rest[..i]);
        let whole = &rest[i..i + OPEN.len() + c + CLOSE.len()];
        rest = &after[c + CLOSE.len()..];
        // `ID">TEXT</span>`, the ID as written.
        let Some((id, inner)) = after[..c]
            .split_once("\">")
            .and_then(|(id, inner)| Some((id, inner.strip_suffix("</span>")?)))
        else {
            out.push_str(whole);
            continue;
        };
        let key = if obfuscated {
            (id.len() == 16 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
                .then(|| u64::from_str_radix(id, 16).ok())
                .flatten()
        } else {
            (message_id_len(&format!("<{id}>")) == Some(id.len() + 2)).then(|| id_hash(id))
        };
        match key.and_then(&page_of) {
            Some(page) if obfuscated => {
                out.push_str(&format!("<a class=\"mid\" href=\"{page}\">{inner}</a>"));
            }
            Some(page) => {
                out.push_str(&format!(
                    "<a class=\"mid\" href=\"{page}\">&lt;{id}&gt;</a>"
                ));
            }
            None => out.push_str(whole),
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_ids_are_recognised_by_their_syntax() {
        assert_eq!(message_id_len("<a.b@c.d> x"), Some(9));
        assert_eq!(message_id_len("<CAHk-=w+x/y@mail.gmail.com>"), Some(28));
        for no in [
            "<a@>", "<@b>", "<a b@c>", "<a@b@c>", "<a..b@c>", "<a@b", "a@b>", "<a&b@c>",
        ] {
            assert_eq!(message_id_len(no), None, "{no}");
        }
        let long = format!("<{}@b>", "a".repeat(MAX_ID));
        assert_eq!(message_id_len(&long), None);
    }

    #[test]
    fn markers_of_known_ids_become_links_and_others_stay() {
        let mut references = References::default();
        let mut html = Vec::new();
        let text = "see <one@example.org> and <two@example.org>.";
        let links = Links::new(&[], 0);
        write_citing(
            text,
            &links,
            0..text.len(),
            Style {
                linkifier: &linkscan::html::Linkifier::new(),
                checks: false,
                addresses: super::super::Addresses::Show,
            },
            &mut references,
            &mut html,
        )
        .unwrap();
        let html = String::from_utf8(html).unwrap();
        assert_eq!(
            references.cited,
            [id_hash("one@example.org"), id_hash("two@example.org")]
        );
        let linked = resolve(&html, false, |id| {
            (id == id_hash("one@example.org")).then(|| "00007.html".into())
        });
        assert_eq!(
            linked,
            "see <a class=\"mid\" href=\"00007.html\">&lt;one@example.org&gt;</a> and \
             <span class=\"mid\" data-mid=\"two@example.org\">&lt;two@example.org&gt;</span><!--/mid-->."
        );
    }

    /// A page read back may have been edited: every marker cut short, or with a
    /// character in place of any two of its bytes, is resolved without a panic.
    #[test]
    fn an_edited_marker_never_panics() {
        for addresses in [
            super::super::Addresses::Show,
            super::super::Addresses::Obfuscate,
        ] {
            let mut html = Vec::new();
            let text = "see <one@example.org>.";
            write_citing(
                text,
                &Links::new(&[], 0),
                0..text.len(),
                Style {
                    linkifier: &linkscan::html::Linkifier::new(),
                    checks: false,
                    addresses,
                },
                &mut References::default(),
                &mut html,
            )
            .unwrap();
            let html = String::from_utf8(html).unwrap();
            let obfuscated = addresses == super::super::Addresses::Obfuscate;
            let page = |_| Some("00001.html".to_string());
            assert!(resolve(&html, obfuscated, page).contains("href=\"00001.html\""));
            for at in 0..html.len() - 1 {
                let edited = format!("{}é{}", &html[..at], &html[at + 2..]);
                resolve(&edited, obfuscated, page);
                resolve(&html[..at], obfuscated, page);
                let doubled = format!("{}{}", &html[..at], &html[at - at.min(1)..]);
                resolve(&doubled, obfuscated, page);
            }
        }
    }

    #[test]
    fn a_page_keeps_a_bounded_number_of_cited_ids() {
        let mut references = References::default();
        for i in 0..MAX_KEPT_REFERENCES + 5 {
            references.cite(&format!("{i}@x"));
            references.cite(&format!("{i}@x"));
        }
        assert_eq!(references.cited.len(), MAX_KEPT_REFERENCES);
        assert!(references.more);
    }
}
