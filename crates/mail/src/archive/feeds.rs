//! The Atom feeds of the archive: `feed.atom`, the list's newest messages, and one per
//! thread, `tNNNNN.atom`, named like the thread's first page.
//!
//! # Algorithm
//!
//! Each feed holds the newest [`FEED_ENTRIES`] messages of the archive or of its thread,
//! newest first: by the UTC instant of their date (to the second), then by their number
//! in the archive. A message without a usable date (none, or one that does not read as
//! RFC 3339 within years 0000 to 9999) counts as the oldest, as on the front page, and
//! its entry's `updated` is the Unix epoch, `1970-01-01T00:00:00Z`, so that the feed
//! stays valid; a feed's own `updated` is that of its newest entry (the epoch for an
//! empty feed).
//!
//! Each entry has the message's subject as its title, its author's name (the row's From
//! as the lists show it: the name of `NAME <ADDRESS>`, else the From as the message page
//! shows it, obfuscated with [`Addresses::Obfuscate`](super::Addresses::Obfuscate)),
//! `updated`, an `id`, a link to the message's page (a relative IRI, `00042.html`, which
//! readers resolve against the feed's own URL in the same folder) and its text as plain
//! text (`<content type="text">`).
//!
//! The `id` of an entry is `urn:linkscan:message-id:HASH`, `HASH` the XXH64 of the
//! message's Message-ID in 16 hex digits (the hash the state file keeps, so that no
//! address is published); a message without a Message-ID, or whose Message-ID an earlier
//! message of the archive has, is `urn:linkscan:archive:NAME:message:N` instead, `N` its
//! number. A feed's `id` is `urn:linkscan:archive:NAME:feed` or
//! `urn:linkscan:archive:NAME:thread:tNNNNN`. `NAME` is the XXH64 of the archive's name
//! in 16 hex digits. All stay the same over builds and updates of the same input.
//!
//! The text is not rendered again: it is read back from the message's page, where
//! [`Archive::write_message`](super::Archive::write_message) wrote it (`Row::text_start`
//! to `Row::body_len`, as the thread pages copy it, `posts`), its tags dropped and its
//! character references read ([`plain_text`]): so it says what the page says, with the
//! addresses obfuscated or not, and an update, which does not scan its earlier messages
//! again, reads it the same way. Quoted lines get a `> ` per level again.
//!
//! # Invariants
//!
//! * Bounded: at most [`FEED_ENTRIES`] entries, each text at most [`ENTRY_TEXT`] bytes
//!   (cut at a character boundary and marked, [`CUT`]), read from at most
//!   [`MAX_PAGE_READ`] bytes of its page; titles and authors are the row's, at most
//!   [`MAX_ROW_FIELD`](super::MAX_ROW_FIELD) bytes each. A feed is a few hundred KiB at
//!   most, made in one buffer and written once ([`Output::put`]).
//! * Well-formed XML 1.0 whatever the message: every text is escaped (`&`, `<`, `>`,
//!   quotes) and each character XML 1.0 forbids or discourages (the C0 controls but tab,
//!   line feed and carriage return, DEL and the C1 controls, U+FFFE and U+FFFF) is
//!   written as U+FFFD.
//! * The same rows and pages make the same bytes: an update writes a feed exactly as a
//!   whole build would.

use std::collections::HashMap;
use std::io::{self, Write};

use super::date::Instant;
use super::files::{self, page_name, paged_name, Output};
use super::hash::hash;
use super::heads::titled;
use super::page::name_and_address;
use super::rows::{Plan, Row};
use super::Archive;

/// The most entries of a feed.
pub const FEED_ENTRIES: usize = 50;

/// The most bytes of a message's text in its entry; a longer text is cut ([`CUT`]).
pub const ENTRY_TEXT: usize = 4096;

/// What ends a text cut to [`ENTRY_TEXT`] bytes.
pub const CUT: &str = "\n[…] The whole message is on its page.";

/// The most bytes of a message's page read for its entry's text: enough for
/// [`ENTRY_TEXT`] bytes of text with many links; a page with less text in as many bytes
/// has its text cut there.
const MAX_PAGE_READ: u64 = 64 << 10;

/// The feed of the newest messages of the archive.
pub(crate) const FEED: &str = "feed.atom";

/// The feed of the thread whose first message is `global`.
pub(crate) fn thread_feed(global: usize) -> String {
    format!("t{global:05}.atom")
}

/// Whether `name` is a feed this archiver writes: [`FEED`] or `tNNNNN.atom`.
pub(crate) fn is_feed_name(name: &str) -> bool {
    name == FEED
        || name
            .strip_suffix(".atom")
            .and_then(|s| s.strip_prefix('t'))
            .is_some_and(|n| n.len() >= 5 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The `<link rel="alternate">` of a page's head that announces `feed`, titled `title`.
pub(crate) fn head_link(feed: &str, title: &str) -> String {
    format!(
        "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"{}\" href=\"{feed}\">",
        linkscan::html::escape(title)
    )
}

/// The visible link to `feed`, beside the downloads, for `what` (`list`, `thread`).
pub(crate) fn write_link(feed: &str, what: &str, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "<p class=\"feed\"><a href=\"{feed}\" type=\"application/atom+xml\">Feed</a> of the \
         {what}'s newest messages (Atom).</p>"
    )
}

/// A message's date as an instant to the second, when it is usable.
fn seconds(date: &str) -> Option<(i64, Instant)> {
    let instant = Instant::parse(date)?;
    let (y, ..) = instant.utc();
    if !(0..=9999).contains(&y) {
        return None;
    }
    let b = date.as_bytes();
    let s = match (b.get(16), b.get(17), b.get(18)) {
        (Some(b':'), Some(&t), Some(&u)) if t.is_ascii_digit() && u.is_ascii_digit() => {
            i64::from((t - b'0') * 10 + (u - b'0')).min(60)
        }
        _ => 0,
    };
    Some((instant.minutes() * 60 + s, instant))
}

/// `date` in RFC 3339, in UTC to the second; the epoch when it is not usable.
fn rfc3339(date: &str) -> String {
    match seconds(date) {
        Some((at, instant)) => {
            let (y, mo, d, h, mi) = instant.utc();
            format!(
                "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{:02}Z",
                at.rem_euclid(60)
            )
        }
        None => "1970-01-01T00:00:00Z".to_string(),
    }
}

/// The bytes [`write_xml`] looks at: the ASCII ones it escapes or replaces, and the lead
/// bytes `C2` and `EF`.
const XML_LOOKED_AT: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = !matches!(b, 0x09 | 0x0a | 0x0d);
        b += 1;
    }
    let mut i = 0;
    let others = *b"&<>\"'\x7f\xc2\xef";
    while i < others.len() {
        table[others[i] as usize] = true;
        i += 1;
    }
    table
};

/// Writes `text` escaped for XML 1.0 text and attribute values, each character XML does
/// not take (the controls but tab, line feed and carriage return; DEL and the C1 controls,
/// which it discourages; U+FFFE and U+FFFF) as U+FFFD.
///
/// Runs of bytes that need nothing are copied whole. Only ASCII bytes, and the two lead
/// bytes of the characters XML 1.0 refuses or discourages above ASCII (`C2` of the C1 controls
/// U+0080-U+009F, `EF` of U+FFFE and U+FFFF), are looked at: a continuation byte
/// (`80`-`BF`) is never one of them.
fn write_xml(text: &str, out: &mut Vec<u8>) {
    let bytes = text.as_bytes();
    let (mut at, mut i) = (0, 0);
    loop {
        // The run that needs nothing, a table look-up a byte.
        while i < bytes.len() && !XML_LOOKED_AT[usize::from(bytes[i])] {
            i += 1;
        }
        if i == bytes.len() {
            break;
        }
        let (len, with): (usize, &str) = match bytes[i] {
            b'&' => (1, "&amp;"),
            b'<' => (1, "&lt;"),
            b'>' => (1, "&gt;"),
            b'"' => (1, "&quot;"),
            b'\'' => (1, "&apos;"),
            b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            ..=0x1f | 0x7f => (1, "\u{fffd}"),
            0xc2 if matches!(bytes.get(i + 1), Some(0x80..=0x9f)) => (2, "\u{fffd}"),
            0xef if matches!(bytes.get(i + 1..i + 3), Some([0xbf, 0xbe | 0xbf])) => (3, "\u{fffd}"),
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(&bytes[at..i]);
        out.extend_from_slice(with.as_bytes());
        i += len;
        at = i;
    }
    out.extend_from_slice(&bytes[at..]);
}

/// The character `entity` (what is between `&` and `;`) stands for, as pages write them:
/// the escapes of `linkscan::html` and numeric references.
fn entity(entity: &str) -> Option<char> {
    match entity {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some('\u{a0}'),
        _ => {
            let n = entity.strip_prefix('#')?;
            let code = match n.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => n.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

/// The text of `html` (a page's text as a message page writes it, maybe cut short:
/// `whole` says whether it is all there) as plain text: tags dropped, character
/// references read, a line feed after a heading or a list item, `> ` before each line per
/// level of `<blockquote>`, the label of a folded quote (`<summary>`) and the line that
/// offers the download (the last, `download`) left out. At most
/// [`ENTRY_TEXT`] bytes, cut at a character boundary and marked with [`CUT`] when the text
/// is longer or `html` was not whole.
pub(crate) fn plain_text(html: &str, whole: bool) -> String {
    let mut out = String::new();
    let (mut quote, mut summary, mut line_start) = (0usize, false, true);
    let mut cut = !whole;
    let mut rest = html;
    // Text of one line (no line feed), or a line feed: `> ` per level before a line's
    // first text.
    let mut push = |text: &str, out: &mut String, quote: usize| {
        if text == "\n" {
            out.push('\n');
            line_start = true;
            return;
        }
        if line_start && quote > 0 {
            for _ in 0..quote {
                out.push_str("> ");
            }
        }
        out.push_str(text);
        line_start = false;
    };
    while let Some(&b) = rest.as_bytes().first() {
        if out.len() > ENTRY_TEXT {
            cut = true;
            break;
        }
        match b {
            b'<' => {
                let Some(end) = rest.find('>') else {
                    // A tag cut short: the page was read in part.
                    break;
                };
                let tag = &rest[1..end];
                rest = &rest[end + 1..];
                if tag == "p class=\"download\"" {
                    // The line that offers the download ends the text.
                    break;
                }
                // Pages write their tags in lower case.
                let n = tag
                    .bytes()
                    .take_while(|b| b.is_ascii_alphanumeric() || *b == b'/')
                    .count();
                match &tag[..n] {
                    "blockquote" => quote += 1,
                    "/blockquote" => quote = quote.saturating_sub(1),
                    "summary" => summary = true,
                    "/summary" => summary = false,
                    "/h2" | "/li" | "br" if !out.is_empty() && !out.ends_with('\n') => {
                        push("\n", &mut out, quote)
                    }
                    _ => {}
                }
            }
            b'&' => {
                let decoded = rest.as_bytes()[1..]
                    .iter()
                    .take(11)
                    .position(|&b| b == b';')
                    .and_then(|n| Some((entity(&rest[1..1 + n])?, n + 2)));
                let (c, len) = decoded.unwrap_or(('&', 1));
                if !summary {
                    push(c.encode_utf8(&mut [0; 4]), &mut out, quote);
                }
                rest = &rest[len..];
            }
            b'\n' => {
                if !summary {
                    push("\n", &mut out, quote);
                }
                rest = &rest[1..];
            }
            _ => {
                // A run of text up to the next tag, reference or line feed: whole
                // characters, since those three are ASCII.
                let end = memchr::memchr3(b'<', b'&', b'\n', rest.as_bytes()).unwrap_or(rest.len());
                if !summary {
                    push(&rest[..end], &mut out, quote);
                }
                rest = &rest[end..];
            }
        }
    }
    if out.len() > ENTRY_TEXT {
        let mut end = ENTRY_TEXT;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        cut = true;
    }
    let text = out.trim_start_matches(['\n', '\r']).trim_end();
    let mut text = text.to_string();
    if cut {
        text.push_str(CUT);
    }
    text
}

impl Archive {
    /// Writes [`FEED`] and the feed of every thread.
    pub(super) fn write_feeds(
        &self,
        plan: &Plan,
        name: &str,
        output: &mut Output<'_>,
    ) -> io::Result<()> {
        // Newest first: by instant, then by number; undated last.
        let keys: Vec<(Option<i64>, usize)> = self
            .rows
            .iter()
            .map(|r| (seconds(&r.date).map(|(s, _)| s), r.global))
            .collect();
        let newest = |messages: &mut Vec<usize>| {
            messages.sort_unstable_by(|&a, &b| keys[b].cmp(&keys[a]));
            messages.truncate(FEED_ENTRIES);
        };
        let mut first: HashMap<u64, usize> = HashMap::with_capacity(self.rows.len());
        for r in &self.rows {
            if let Some(id) = r.own {
                first.entry(id).or_insert(r.global);
            }
        }
        let archive = format!("urn:linkscan:archive:{:016x}", hash(name.as_bytes()));
        let mut all: Vec<usize> = (0..self.rows.len()).collect();
        newest(&mut all);
        let feed = Feed {
            title: name.to_string(),
            id: format!("{archive}:feed"),
            page: "index.html".to_string(),
        };
        output.put(FEED.to_string(), &self.feed(&feed, &all, &archive, &first)?)?;
        // Each thread's feed on a thread of the pool: its entries read their pages.
        output.put_each(&plan.tree.threads, |thread, puts| {
            let global = self.rows[thread[0]].global;
            let base = format!("t{global:05}");
            let mut messages = thread.clone();
            newest(&mut messages);
            let feed = Feed {
                title: titled(&self.rows[thread[0]].subject, Some(name)),
                id: format!("{archive}:thread:{base}"),
                page: paged_name(&base, 0),
            };
            let bytes = self.feed(&feed, &messages, &archive, &first)?;
            puts.put(thread_feed(global), &bytes)
        })
    }

    /// The feed `feed` of `messages` (newest first).
    fn feed(
        &self,
        feed: &Feed,
        messages: &[usize],
        archive: &str,
        first: &HashMap<u64, usize>,
    ) -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(8 << 10);
        out.extend_from_slice(
            b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
              <feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>",
        );
        write_xml(&feed.title, &mut out);
        let updated = messages
            .first()
            .map_or_else(|| rfc3339(""), |&m| rfc3339(&self.rows[m].date));
        writeln!(
            out,
            "</title>\n<id>{}</id>\n<updated>{updated}</updated>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n\
             <generator>linkscan</generator>",
            feed.id, feed.page
        )?;
        for &m in messages {
            self.entry(&self.rows[m], archive, first, &mut out)?;
        }
        out.extend_from_slice(b"</feed>\n");
        Ok(out)
    }

    /// Writes the entry of the message of `row`.
    fn entry(
        &self,
        row: &Row,
        archive: &str,
        first: &HashMap<u64, usize>,
        out: &mut Vec<u8>,
    ) -> io::Result<()> {
        let page = page_name(row.global);
        out.extend_from_slice(b"<entry>\n<title>");
        write_xml(&row.subject, out);
        out.extend_from_slice(b"</title>\n<author><name>");
        let author = name_and_address(&row.from).map_or(&*row.from, |(n, _)| n);
        write_xml(if author.is_empty() { "unknown" } else { author }, out);
        let id = match row.own {
            Some(id) if first.get(&id) == Some(&row.global) => {
                format!("urn:linkscan:message-id:{id:016x}")
            }
            _ => format!("{archive}:message:{}", row.global),
        };
        writeln!(
            out,
            "</name></author>\n<updated>{}</updated>\n<id>{id}</id>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"{page}\"/>",
            rfc3339(&row.date)
        )?;
        out.extend_from_slice(b"<content type=\"text\">");
        let end = row
            .body_len
            .min(row.text_start.saturating_add(MAX_PAGE_READ));
        let mut html = Vec::new();
        files::copy_range(&self.dir.join(&page), row.text_start, end, &mut html)?;
        // A read cut short may end inside a character: that character goes.
        let valid = match std::str::from_utf8(&html) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&html[..e.valid_up_to()]).expect("valid up to there"),
        };
        write_xml(&plain_text(valid, end == row.body_len), out);
        out.extend_from_slice(b"</content>\n</entry>\n");
        Ok(())
    }
}

/// What a feed says of itself.
struct Feed {
    title: String,
    id: String,
    /// The page it is the feed of.
    page: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether XML 1.0 takes `c` as it is in text (and the character is not one it
    /// discourages: DEL and the C1 controls): the rule [`write_xml`] applies byte-wise.
    fn xml_char(c: char) -> bool {
        matches!(c, '\t' | '\n' | '\r')
            || (c >= ' '
                && !('\u{7f}'..='\u{9f}').contains(&c)
                && c != '\u{fffe}'
                && c != '\u{ffff}')
    }

    #[test]
    fn every_character_is_escaped_as_xml_char_says() {
        let mut text = String::new();
        let mut expected = Vec::new();
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            text.push(c);
            let with = match c {
                '&' => "&amp;".to_string(),
                '<' => "&lt;".to_string(),
                '>' => "&gt;".to_string(),
                '"' => "&quot;".to_string(),
                '\'' => "&apos;".to_string(),
                c if xml_char(c) => c.to_string(),
                _ => "\u{fffd}".to_string(),
            };
            expected.extend_from_slice(with.as_bytes());
        }
        let mut out = Vec::new();
        write_xml(&text, &mut out);
        assert!(out == expected);
    }

    #[test]
    fn the_text_of_a_page() {
        let html =
            "<section class=\"part\">\n<pre dir=\"auto\">see <a href=\"https://x.example/\">\
                    x.example</a> &amp; &lt;b&gt; &#39;q&#39; &#x41;</pre></section>\n";
        assert_eq!(plain_text(html, true), "see x.example & <b> 'q' A");
        let quoted = "<div class=\"flowed plain\"><p>hi</p>\n<blockquote><p>a</p>\n\
                      <blockquote><p>b</p>\n</blockquote></blockquote><p>c</p>\n</div>";
        assert_eq!(plain_text(quoted, true), "hi\n> a\n> > b\nc");
        let folded = "<details><summary>13 quoted lines</summary><blockquote><p>a</p>\n\
                      </blockquote></details>";
        assert_eq!(plain_text(folded, true), "> a");
        // Cut short: by the bound, or by the read.
        let long = format!("<pre>{}</pre>", "é".repeat(3000));
        let text = plain_text(&long, true);
        assert!(text.ends_with(CUT));
        assert!(text.len() <= ENTRY_TEXT + CUT.len());
        assert!(text.starts_with("éé"));
        assert_eq!(plain_text("<pre>abc</pr", false), format!("abc{CUT}"));
        // A broken reference is text.
        assert_eq!(plain_text("a &bogus b &", true), "a &bogus b &");
        // The download's line is not the message's text.
        let with = "<pre>a</pre>\n<p class=\"download\"><a href=\"00001.txt\">The message as \
                    sent</a></p>\n";
        assert_eq!(plain_text(with, true), "a");
    }

    #[test]
    fn xml_escapes_and_replaces_what_xml_forbids() {
        let mut out = Vec::new();
        write_xml("a\u{1}]]></feed>&\"'\u{202e}\u{ffff}\u{85}\t\n", &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "a\u{fffd}]]&gt;&lt;/feed&gt;&amp;&quot;&apos;\u{202e}\u{fffd}\u{fffd}\t\n"
        );
    }

    #[test]
    fn dates_in_rfc3339() {
        assert_eq!(rfc3339("2024-01-01T10:00:07+01:00"), "2024-01-01T09:00:07Z");
        assert_eq!(rfc3339("2024-01-01T00:30-01:00"), "2024-01-01T01:30:00Z");
        assert_eq!(rfc3339("Monday"), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(""), "1970-01-01T00:00:00Z");
        let at = |d: &str| seconds(d).map(|(s, _)| s);
        assert_eq!(
            at("2024-01-01T10:00:07Z").unwrap() - at("2024-01-01T10:00:06Z").unwrap(),
            1
        );
        assert_eq!(at("10000-01-01T10:00:07Z"), None);
    }

    #[test]
    fn feed_names() {
        for yes in ["feed.atom", "t00001.atom", "t123456.atom"] {
            assert!(is_feed_name(yes), "{yes}");
        }
        for no in [
            "t0001.atom",
            "t00001.html",
            "x.atom",
            "t00001-2.atom",
            "feed.xml",
        ] {
            assert!(!is_feed_name(no), "{no}");
        }
    }
}
