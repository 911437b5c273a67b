//! `linkscan linkify --mbox/--maildir --out DIR`: an HTML archive, one page per message.
//!
//! Each page (`00001.html`, … numbered over all inputs in order) shows From, Date, Subject
//! and Message-ID, the warnings of the message if any, and every scanned text part with its
//! links: the decoded text of plain parts, the visible text of HTML parts (whose own
//! `<a href>` links are kept on their anchor text where no detected link overlaps; an
//! anchor whose text reads as a link to another host than its target, as a reader reads
//! it, shows that text plainly followed by the real target as the link). The
//! pages are written in parallel as messages are scanned, each with links to the previous
//! and the next page in archive order (the last page's "Next" is removed once the run knows
//! it is the last).
//!
//! `index.html` groups the messages by month (of their Date, in RFC 3339 form; messages
//! without one under "Undated"), months in order, with a table of contents; within a month
//! by thread, in the order of each thread's first message there, a thread's messages in
//! archive order with replies indented. A message's thread is the first Message-ID of its
//! References, else its In-Reply-To, else its own Message-ID (else its page): the root
//! that every reply names, so a thread whose root is missing from the archive still holds
//! together. The index keeps one small row per message (its page, date, sender, subject,
//! thread and link count, never its text) until the run ends, and is written then.
//! Dates are shown as `YYYY-MM-DD HH:MM` and never wrap. Published pages name an archive by
//! its file name, never by the path it was read from.
//!
//! Text in any script reads in its own direction: each text part is a `<pre dir="auto">`
//! whose lines each take the direction of their first strong character (CSS
//! `unicode-bidi: plaintext`, so an English quote in an Arabic message stays left to
//! right), and each header or index cell from a message has `dir="auto"`, so an Arabic or
//! Hebrew message reads right to left. Links are written as `linkscan::html` writes them: their
//! display form, isolated left to right with their fields in order, pointing to their
//! ASCII form, with no Bidi_Control character left raw.
//!
//! A `format=flowed` part (RFC 3676) is shown as paragraphs that the browser wraps, quoted
//! ones at their quote depth; a Message-ID cited in a text part (`<id@host>`) becomes a
//! link to the page of that message when the archive has it, once the run knows every
//! message (see [`text`]).
//!
//! Files are written without following links: each page and the index is written to a
//! new file (created exclusively, so never through a symbolic link) and then renamed
//! over its name ([`create_replacing`]). A symbolic link already in the folder under a
//! page's name is replaced by the page; what it pointed to is left untouched.
//!
//! Every text that comes from a message (headers, parts, file names) is HTML-escaped, and
//! only link targets made by the detector become `href`s, and only those of web schemes
//! (`http`, `https`, `mailto`, and what `--href-schemes` adds; see
//! [`Linkifier::allows_href`]), so a hostile message cannot inject markup or script into
//! the archive, nor make a link to `file://`, `smb://` or `ms-msdt:` (a link of another
//! scheme, in the text or in an HTML part's `href`, is shown without a target). Pages are
//! UTF-8 and say so.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use linkscan::display::{ascii_form, display_link, escape_bidi_controls, DisplayOptions};
use linkscan::html::{write_escaped, write_link, write_unlinked, Linkifier};
use linkscan::mail::{LinkSource, MailLink, MailScanner, ScannedMessage, TextPart};
use linkscan::LinkKind;

use crate::mail::{self, Emit, Render, Run, Totals};

mod text;
use crate::{words, LinkifyArgs, Outcome};
use text::References;

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:62em;margin:1em auto;\
padding:0 1em;line-height:1.4}pre{white-space:pre-wrap;overflow-wrap:anywhere;\
unicode-bidi:plaintext;\
font-family:ui-monospace,monospace;background:#f6f6f6;padding:.5em}\
table.headers th{text-align:left;padding-right:1em;vertical-align:top}\
table.index{width:100%;table-layout:fixed}\
table.index td,table.index th{text-align:left;padding:.1em .6em;vertical-align:top;\
overflow-wrap:anywhere}\
.warnings{color:#8a4b00}h2{font-size:1em;color:#555}.date{white-space:nowrap}\
nav a,nav span{margin-right:1em}nav span{color:#999}td.reply{padding-left:2em}tbody.thread{border-top:1px solid #ddd}\
h2.month{font-size:1.2em;color:inherit;margin-top:1.5em}\
.flowed{background:#f6f6f6;padding:.5em}.flowed p{margin:0;min-height:1.4em;white-space:pre-wrap;\
overflow-wrap:anywhere;unicode-bidi:plaintext}\
.flowed blockquote{margin:0 0 0 .2em;padding-left:.8em;border-left:2px solid #99b;color:#335}";

/// Writes `<!DOCTYPE html>…<body>` with `title`.
fn write_head(out: &mut impl Write, title: &str) -> io::Result<()> {
    out.write_all(
        b"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\
          <meta name=\"viewport\" content=\"width=device-width\"><title>",
    )?;
    write_escaped(title, out)?;
    write!(out, "</title><style>{STYLE}</style></head>\n<body>\n")
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
pub(crate) fn write_linkified(
    text: &str,
    links: &[MailLink],
    base: usize,
    checks: bool,
    linkifier: &Linkifier,
    out: &mut impl Write,
) -> io::Result<()> {
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
        write_escaped(&text[at..start], out)?;
        let link_text = &text[start..end];
        if checks && !passes_checks(text, base, link) {
            write_escaped(&escape_bidi_controls(link_text), out)?;
            at = end;
            continue;
        }
        match link.source() {
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
    write_escaped(&text[at..], out)
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
fn host_of(link: &str) -> Option<String> {
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
fn choose_links<'a>(
    links: &'a [MailLink],
    dropped: &dyn Fn(&MailLink) -> bool,
    work: &mut usize,
) -> Vec<&'a MailLink> {
    let mut by_start = |a: &&MailLink, b: &&MailLink| {
        *work += 1;
        (a.start(), a.end()).cmp(&(b.start(), b.end()))
    };
    let mut text: Vec<&MailLink> = links
        .iter()
        .filter(|l| l.source() == LinkSource::Text && !dropped(l))
        .collect();
    text.sort_by(&mut by_start);
    let mut hrefs: Vec<&MailLink> = links
        .iter()
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

fn page_name(global: usize) -> String {
    format!("{global:05}.html")
}

/// The "Next" link of page `global`, as written; the last page's is replaced at the end.
fn next_link(global: usize) -> String {
    format!(
        "<a rel=\"next\" href=\"{}\">Next</a>",
        page_name(global + 1)
    )
}

/// What stands for the "Next" link on the last page.
const NO_NEXT: &str = "<span>Next</span>";

/// The name of `path` without its folders: how published pages name an archive.
fn file_name(path: &str) -> String {
    Path::new(path).file_name().map_or_else(
        || path.to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// `2024-01-05 12:30` from an RFC 3339 date (`2024-01-05T12:30:00+01:00`), the local time
/// of the sender; other text as it is.
fn short_date(date: &str) -> String {
    match (date.get(..10), date.get(11..16)) {
        (Some(day), Some(time)) if date.as_bytes().get(10) == Some(&b'T') => {
            format!("{day} {time}")
        }
        _ => date.to_string(),
    }
}

/// The month of an RFC 3339 date (`2024-01`), `None` when it has none.
fn month_of(date: &str) -> Option<&str> {
    let month = date.get(..7)?;
    let b = month.as_bytes();
    (b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' && b[5..].iter().all(u8::is_ascii_digit))
        .then_some(month)
}

/// The thread of a message: the root its References name first, else its In-Reply-To,
/// else itself.
fn thread_of(m: &ScannedMessage, page: &str) -> String {
    m.references()
        .first()
        .map(String::as_str)
        .or(m.in_reply_to())
        .or(m.message_id())
        .unwrap_or(page)
        .to_string()
}

/// One row of the index, made while the page is written.
pub(crate) struct Row {
    page: String,
    global: usize,
    /// The thread root (see [`thread_of`]).
    thread: String,
    /// The message answers another (it has References or In-Reply-To).
    reply: bool,
    date: String,
    from: String,
    subject: String,
    links: usize,
    /// The message's own Message-ID, and the Message-IDs its text parts cite.
    references: References,
    /// Writing the page failed.
    error: Option<io::Error>,
}

/// The most bytes of a field a [`Row`] keeps: the index shows no more of a From or a
/// Subject, and a longer thread root (a Message-ID has no limit of its own) is kept as its
/// start and a hash of the whole. So a row holds at most a few KiB whatever the message,
/// and the rows of a run, held until the index is written, at most that per message.
const MAX_ROW_FIELD: usize = 512;

/// `s` cut to at most [`MAX_ROW_FIELD`] bytes at a character boundary, `…` marking a cut.
fn capped(s: &str) -> String {
    if s.len() <= MAX_ROW_FIELD {
        return s.to_string();
    }
    let mut end = MAX_ROW_FIELD - '…'.len_utf8();
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// A thread root as a row keeps it: as it is when short, else its start and a hash of the
/// whole (two roots are told apart unless they share both).
fn thread_key(root: &str) -> String {
    use std::hash::{Hash, Hasher};
    if root.len() <= MAX_ROW_FIELD {
        return root.to_string();
    }
    let mut end = MAX_ROW_FIELD - 17;
    while !root.is_char_boundary(end) {
        end -= 1;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    root.hash(&mut hasher);
    format!("{}#{:016x}", &root[..end], hasher.finish())
}

impl Row {
    /// The row of message `m`, its fields capped ([`MAX_ROW_FIELD`]).
    fn new(
        m: &ScannedMessage,
        page: String,
        global: usize,
        links: usize,
        references: References,
        error: Option<io::Error>,
    ) -> Row {
        Row {
            thread: thread_key(&thread_of(m, &page)),
            reply: !m.references().is_empty() || m.in_reply_to().is_some(),
            page,
            global,
            date: capped(m.date().unwrap_or_default()),
            from: capped(m.from().unwrap_or_default()),
            subject: capped(m.subject().unwrap_or("(no subject)")),
            links,
            references,
            error,
        }
    }

    /// The bytes its fields hold.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.page.len() + self.thread.len() + self.date.len() + self.from.len() + self.subject.len()
    }
}

/// Writes the pages (in parallel).
struct Pages {
    dir: PathBuf,
    linkifier: Linkifier,
    /// `--checks`: links that fail a security check are written as text.
    checks: bool,
}

/// Whether `link` (of `text`) passes every security check of UTS #58 section 8; the
/// character before a link of the text counts (an invisible one).
fn passes_checks(text: &str, base: usize, link: &MailLink) -> bool {
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

/// Gathers the index rows (in order); [`Index::write`] writes `index.html` at the end.
struct Index {
    dir: PathBuf,
    rows: Vec<Row>,
    /// Each input's file name and totals, in order.
    archives: Vec<(String, Totals)>,
}

impl Pages {
    fn write_page(
        &self,
        path: &Path,
        file: &str,
        index: usize,
        global: usize,
        m: &ScannedMessage,
        references: &mut References,
    ) -> io::Result<()> {
        let mut out = BufWriter::new(create_replacing(path)?);
        let subject = m.subject().unwrap_or("(no subject)");
        write_head(&mut out, subject)?;
        out.write_all(b"<nav>")?;
        if global > 1 {
            write!(
                out,
                "<a rel=\"prev\" href=\"{}\">Previous</a>",
                page_name(global - 1)
            )?;
        } else {
            out.write_all(b"<span>Previous</span>")?;
        }
        write!(
            out,
            "{}<a href=\"index.html\">Index</a></nav>\n<table class=\"headers\">\n",
            next_link(global)
        )?;
        let mut header = |name: &str, value: &str, linkify: bool| -> io::Result<()> {
            let class = if name == "Date" {
                " class=\"date\""
            } else {
                ""
            };
            write!(out, "<tr><th>{name}</th><td{class} dir=\"auto\">")?;
            if linkify {
                self.linkifier.write_html(value.as_bytes(), &mut out)?;
            } else {
                write_escaped(value, &mut out)?;
            }
            out.write_all(b"</td></tr>\n")
        };
        header("From", m.from().unwrap_or(""), true)?;
        header("Date", m.date().unwrap_or(""), false)?;
        header("Message-ID", m.message_id().unwrap_or(""), false)?;
        header(
            "Archive",
            &format!("{}, message {index}", file_name(file)),
            false,
        )?;
        out.write_all(b"<tr><th>Subject</th><td class=\"subject\" dir=\"auto\">")?;
        match m.parts().iter().find(|p| p.path() == "subject") {
            Some(part) => write_linkified(
                part.text(),
                part.links(),
                0,
                self.checks,
                &self.linkifier,
                &mut out,
            )?,
            None => write_escaped(subject, &mut out)?,
        }
        out.write_all(b"</td></tr>\n</table>\n")?;
        if !m.warnings().is_empty() {
            out.write_all(b"<ul class=\"warnings\">\n")?;
            for w in m.warnings() {
                out.write_all(b"<li dir=\"auto\">")?;
                write_escaped(&w.to_string(), &mut out)?;
                out.write_all(b"</li>\n")?;
            }
            out.write_all(b"</ul>\n")?;
        }
        for part in m.parts().iter().filter(|p| p.path() != "subject") {
            write_part(
                part,
                m.piece_offset(),
                self.checks,
                &self.linkifier,
                references,
                &mut out,
            )?;
        }
        out.write_all(b"</body></html>\n")?;
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.finish()
    }
}

/// A file being written to a fresh temporary name beside `path`; [`Replacing::finish`]
/// renames it to `path`.
///
/// Dropped without [`Replacing::finish`] (a write failed, the run stopped), it removes
/// its temporary file, so a failed run leaves none behind.
pub(crate) struct Replacing {
    /// `None` once finished.
    file: Option<File>,
    temporary: PathBuf,
    path: PathBuf,
}

/// Starts writing `path` without following a symbolic link there: the data goes to
/// `.NAME.tmp` in the same folder, created exclusively (`O_CREAT | O_EXCL`, which fails
/// rather than follow a link; a leftover of an earlier run is removed first, a link
/// itself and not its target), and [`Replacing::finish`] renames it over `path`. A
/// rename replaces a link at `path`, never what it points to.
pub(crate) fn create_replacing(path: &Path) -> io::Result<Replacing> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{name}.tmp"));
    match fs::remove_file(&temporary) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            return Err(io::Error::new(
                e.kind(),
                format!("{}: {e}", temporary.display()),
            ))
        }
        _ => {}
    }
    let file = File::options()
        .write(true)
        .create_new(true)
        .open(&temporary)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", temporary.display())))?;
    Ok(Replacing {
        file: Some(file),
        temporary,
        path: path.to_path_buf(),
    })
}

impl Replacing {
    /// Gives the written file its name.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        drop(self.file.take());
        fs::rename(&self.temporary, &self.path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", self.path.display())))
    }

    fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("written before it is finished")
    }
}

impl Drop for Replacing {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

impl Write for Replacing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

/// Removes the pages numbered past `last` (`NNNNN.html`, all digits) that an earlier,
/// larger run left in `dir`, so that no page of another archive stays reachable by its
/// number; returns how many. Other files are left alone.
fn remove_stale_pages(dir: &Path, last: usize) -> io::Result<usize> {
    let mut removed = 0;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(number) = name
            .to_str()
            .and_then(|n| n.strip_suffix(".html"))
            .filter(|n| n.len() >= 5 && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        if number > last {
            fs::remove_file(entry.path()).map_err(|e| {
                io::Error::new(e.kind(), format!("{}: {e}", entry.path().display()))
            })?;
            removed += 1;
        }
    }
    Ok(removed)
}

fn write_part(
    part: &TextPart,
    base: usize,
    checks: bool,
    linkifier: &Linkifier,
    references: &mut References,
    out: &mut impl Write,
) -> io::Result<()> {
    out.write_all(b"<section class=\"part\"><h2>Part ")?;
    write_escaped(part.path(), out)?;
    if let Some(ct) = &part.content_type() {
        out.write_all(" · ".as_bytes())?;
        write_escaped(ct, out)?;
    }
    out.write_all(b"</h2>\n")?;
    if part.is_flowed() && text::write_flowed(part, base, checks, linkifier, references, out)? {
        return out.write_all(b"</section>\n");
    }
    out.write_all(b"<pre dir=\"auto\">")?;
    let text = part.text();
    let links = text::Links::new(part.links(), base);
    text::write_citing(
        text,
        &links,
        0..text.len(),
        checks,
        linkifier,
        references,
        out,
    )?;
    out.write_all(b"</pre></section>\n")
}

impl Render for Pages {
    type Rendered = Row;

    fn render(&self, file: &str, index: usize, global: usize, m: &ScannedMessage) -> Row {
        let page = page_name(global);
        let mut references = References::of(m);
        let error = self
            .write_page(
                &self.dir.join(&page),
                file,
                index,
                global,
                m,
                &mut references,
            )
            .err();
        let links = if self.checks {
            let links = m
                .parts()
                .iter()
                .flat_map(|p| p.links().iter().map(move |link| (p.text(), link)));
            links
                .filter(|(text, link)| passes_checks(text, m.piece_offset(), link))
                .count()
        } else {
            m.link_count()
        };
        Row::new(m, page, global, links, references, error)
    }
}

impl Emit<Row> for Index {
    fn emit(&mut self, row: Row) -> io::Result<()> {
        if let Some(e) = row.error {
            return Err(io::Error::new(
                e.kind(),
                format!("{}: {e}", self.dir.join(&row.page).display()),
            ));
        }
        self.rows.push(row);
        Ok(())
    }

    fn end(&mut self, input: &str, totals: &Totals) -> io::Result<()> {
        self.archives.push((file_name(input), *totals));
        Ok(())
    }
}

impl Index {
    /// Removes the "Next" link of the last page written, which has no next page.
    fn end_last_page(&self) -> io::Result<()> {
        let Some(last) = self.rows.iter().map(|row| row.global).max() else {
            return Ok(());
        };
        let path = self.dir.join(page_name(last));
        let page = fs::read_to_string(&path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let mut out = create_replacing(&path)?;
        out.write_all(page.replacen(&next_link(last), NO_NEXT, 1).as_bytes())?;
        out.finish()
    }

    /// Writes `index.html`: the archives and their totals, the months, and each month's
    /// threads (see the module documentation).
    fn write(&self) -> io::Result<()> {
        let mut out = BufWriter::new(create_replacing(&self.dir.join("index.html"))?);
        write_head(&mut out, "Mail archive")?;
        out.write_all(b"<h1>Mail archive</h1>\n<ul class=\"archives\">\n")?;
        for (name, totals) in &self.archives {
            out.write_all(b"<li>")?;
            write_escaped(name, &mut out)?;
            writeln!(
                out,
                ": {}, {}, {}</li>",
                words::count(totals.messages, "message"),
                words::count(totals.links, "link"),
                words::count(totals.warnings, "warning")
            )?;
        }
        out.write_all(b"</ul>\n")?;

        // Months in order, undated last; each month's rows in archive order.
        let mut months: Vec<(Option<&str>, Vec<&Row>)> = Vec::new();
        let mut order: Vec<&Row> = self.rows.iter().collect();
        order.sort_by_key(|row| {
            (
                month_of(&row.date).is_none(),
                month_of(&row.date),
                row.global,
            )
        });
        for row in order {
            let month = month_of(&row.date);
            match months.last_mut() {
                Some((m, rows)) if *m == month => rows.push(row),
                _ => months.push((month, vec![row])),
            }
        }
        out.write_all(b"<nav class=\"months\">")?;
        for (month, rows) in &months {
            let (id, name) = month_label(*month);
            write!(out, "<a href=\"#{id}\">{name}</a> ({}) ", rows.len())?;
        }
        out.write_all(b"</nav>\n")?;
        for (month, rows) in &months {
            let (id, name) = month_label(*month);
            writeln!(
                out,
                "<h2 class=\"month\" id=\"{id}\">{name}: {}</h2>",
                words::count(rows.len(), "message")
            )?;
            out.write_all(
                b"<table class=\"index\">\n\
                  <colgroup><col style=\"width:4.5em\"><col style=\"width:9.5em\"><col style=\"width:16em\">\
                  <col><col style=\"width:4.5em\"></colgroup>\n\
                  <thead><tr><th>#</th><th>Date</th><th>From</th><th>Subject</th><th>Links</th></tr></thead>\n",
            )?;
            // Threads in the order of their first message this month.
            let mut threads: Vec<(&str, Vec<&Row>)> = Vec::new();
            let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
            for row in rows {
                match at.get(row.thread.as_str()) {
                    Some(&k) => threads[k].1.push(row),
                    None => {
                        at.insert(&row.thread, threads.len());
                        threads.push((&row.thread, vec![row]));
                    }
                }
            }
            for (_, rows) in &threads {
                out.write_all(b"<tbody class=\"thread\">\n")?;
                for (k, row) in rows.iter().enumerate() {
                    write_row(row, k > 0 && row.reply, &mut out)?;
                }
                out.write_all(b"</tbody>\n")?;
            }
            out.write_all(b"</table>\n")?;
        }
        out.write_all(b"</body></html>\n")?;
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.finish()
    }
}

/// The anchor and the heading of a month.
fn month_label(month: Option<&str>) -> (&str, &str) {
    month.map_or(("undated", "Undated"), |m| (m, m))
}

/// One message's row in the index; `reply` indents its subject.
fn write_row(row: &Row, reply: bool, out: &mut impl Write) -> io::Result<()> {
    write!(
        out,
        "<tr><td><a href=\"{}\">{}</a></td><td class=\"date\">",
        row.page,
        row.page.trim_end_matches(".html")
    )?;
    write_escaped(&short_date(&row.date), out)?;
    out.write_all(b"</td><td dir=\"auto\">")?;
    write_escaped(&row.from, out)?;
    let class = if reply { " class=\"reply\"" } else { "" };
    write!(
        out,
        "</td><td{class} dir=\"auto\"><a href=\"{}\">",
        row.page
    )?;
    write_escaped(&row.subject, out)?;
    writeln!(out, "</a></td><td>{}</td></tr>", row.links)
}

/// `linkscan linkify --mbox/--maildir --out DIR`.
pub(crate) fn run(
    args: &LinkifyArgs,
    scanner: MailScanner,
    linkifier: Linkifier,
) -> io::Result<Outcome> {
    let Some(dir) = &args.out else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "linkify --mbox/--maildir writes an HTML archive: give its folder with --out DIR",
        ));
    };
    fs::create_dir_all(dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    let pages = Pages {
        dir: dir.clone(),
        linkifier,
        checks: args.checks,
    };
    let mut sink = Index {
        dir: dir.clone(),
        rows: Vec::new(),
        archives: Vec::new(),
    };
    let outcome = mail::run(
        Run {
            inputs: &args.files,
            args: &args.mail,
            scanner,
            quiet: false,
        },
        &pages,
        &mut sink,
    );
    // The index is written even when the run stopped early: what was written is kept.
    let written = sink
        .end_last_page()
        .and_then(|()| sink.link_references())
        .and_then(|()| sink.write());
    let outcome = outcome?;
    written?;
    let last = sink.rows.iter().map(|row| row.global).max().unwrap_or(0);
    let removed = remove_stale_pages(dir, last)?;
    if removed > 0 {
        crate::warn!(
            "linkscan: {}: removed {} left by an earlier run past this run's last page",
            dir.display(),
            words::count(removed, "page")
        );
    }
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(start: usize, end: usize, source: LinkSource) -> MailLink {
        MailLink::from_parts(
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
        write_linkified(&text, &links, 0, false, &Linkifier::new(), &mut page).unwrap();
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

    /// `linkify --out` kept each message's full References, Subject and From until the
    /// end (400 messages with a 2 MB References id took 841 MB); a row now holds a few KiB
    /// whatever the message, and threads still group by their whole root.
    #[test]
    fn rows_are_bounded() {
        let id = "x".repeat(2 << 20);
        let subject = "s".repeat(1 << 20);
        let raw = format!(
            "From: {} <a@example.com>\nSubject: {subject}\nReferences: <{id}@example.com>\n\nbody\n",
            "n".repeat(1 << 20)
        );
        let scanner = MailScanner::new().index_fields(true);
        let m = scanner.scan(raw.as_bytes());
        assert_eq!(m.references()[0].len(), id.len() + "@example.com".len());
        let row = Row::new(&m, page_name(1), 1, 0, References::default(), None);
        assert!(row.held() <= 5 * MAX_ROW_FIELD, "{} bytes", row.held());
        // Two roots that differ only past the kept start are still two threads.
        let other = raw.replace(&format!("{id}@"), &format!("{id}y@"));
        let row2 = Row::new(
            &scanner.scan(other.as_bytes()),
            page_name(2),
            2,
            0,
            References::default(),
            None,
        );
        assert_ne!(row.thread, row2.thread);
        let same = Row::new(&m, page_name(3), 3, 0, References::default(), None);
        assert_eq!(row.thread, same.thread);
    }

    /// A file left unfinished (a write failed) leaves no temporary file behind.
    #[test]
    fn an_unfinished_file_is_removed() {
        let dir = std::env::temp_dir().join(format!("linkscan-unfinished-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let page = dir.join("00001.html");
        let mut out = create_replacing(&page).unwrap();
        out.write_all(b"<p>half").unwrap();
        drop(out);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        // Pages past the last of this run go; other files stay.
        for name in [
            "00001.html",
            "00002.html",
            "00003.html",
            "index.html",
            "notes.html",
        ] {
            fs::write(dir.join(name), "x").unwrap();
        }
        assert_eq!(remove_stale_pages(&dir, 1).unwrap(), 2);
        let mut left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["00001.html", "index.html", "notes.html"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A page's name held by a symbolic link: the link is replaced, its target untouched.
    #[test]
    fn replacing_a_symbolic_link_leaves_its_target_alone() {
        let dir = std::env::temp_dir().join(format!("linkscan-replacing-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("precious.txt");
        fs::write(&target, "keep me").unwrap();
        let page = dir.join("00001.html");
        std::os::unix::fs::symlink(&target, &page).unwrap();
        // A leftover temporary file that is a link too.
        std::os::unix::fs::symlink(&target, dir.join(".00001.html.tmp")).unwrap();
        let mut out = create_replacing(&page).unwrap();
        out.write_all(b"<p>page</p>").unwrap();
        out.finish().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
        assert!(!fs::symlink_metadata(&page)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&page).unwrap(), "<p>page</p>");
        assert!(!dir.join(".00001.html.tmp").exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
