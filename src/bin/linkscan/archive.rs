//! `linkscan linkify --mbox/--maildir --out DIR`: an HTML archive, one page per message.
//!
//! Each page (`00001.html`, … numbered over all inputs in order) shows From, Date, Subject
//! and Message-ID, the warnings of the message if any, and every scanned text part with its
//! links: the decoded text of plain parts, the visible text of HTML parts (whose own
//! `<a href>` links are kept on their anchor text where no detected link overlaps). The
//! pages are written in parallel as messages are scanned; `index.html` lists the messages
//! in archive order and is written as they come, so memory stays bounded.
//!
//! Every text that comes from a message (headers, parts, file names) is HTML-escaped, and
//! only link targets made by the detector (`http(s)://`, `mailto:`) become `href`s, so a
//! hostile message cannot inject markup or script into the archive. Pages are UTF-8 and say
//! so.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use linkscan::html::{write_escaped, Linkifier};
use linkscan::mail::{LinkSource, MailLink, MailScanner, ScannedMessage, TextPart};

use crate::mail::{self, Emit, Render, Run, Totals};
use crate::{LinkifyArgs, Outcome};

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:62em;margin:1em auto;\
padding:0 1em;line-height:1.4}pre{white-space:pre-wrap;overflow-wrap:anywhere;\
font-family:ui-monospace,monospace;background:#f6f6f6;padding:.5em}\
table.headers th{text-align:left;padding-right:1em;vertical-align:top}\
table.index{width:100%;table-layout:fixed}\
table.index td,table.index th{text-align:left;padding:.1em .6em;vertical-align:top;\
overflow-wrap:anywhere}\
.warnings{color:#8a4b00}h2{font-size:1em;color:#555}";

/// Writes `<!DOCTYPE html>…<body>` with `title`.
fn write_head(out: &mut impl Write, title: &str) -> io::Result<()> {
    out.write_all(
        b"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\
          <meta name=\"viewport\" content=\"width=device-width\"><title>",
    )?;
    write_escaped(title, out)?;
    write!(out, "</title><style>{STYLE}</style></head>\n<body>\n")
}

/// Writes `text` with its links as `<a>` elements. Text links come first; an href link
/// (from an HTML part) is drawn on its anchor text when that is not empty and overlaps no
/// text link.
pub(crate) fn write_linkified(
    text: &str,
    links: &[MailLink],
    out: &mut impl Write,
) -> io::Result<()> {
    let mut chosen: Vec<&MailLink> = links
        .iter()
        .filter(|l| l.source == LinkSource::Text)
        .collect();
    for link in links.iter().filter(|l| l.source == LinkSource::Href) {
        let overlaps = chosen
            .iter()
            .any(|c| c.start < link.end && link.start < c.end);
        if link.start < link.end && !overlaps {
            chosen.push(link);
        }
    }
    chosen.sort_by_key(|l| (l.start, l.end));
    let mut at = 0;
    for link in chosen {
        if link.start < at || !text.is_char_boundary(link.start) || !text.is_char_boundary(link.end)
        {
            continue;
        }
        write_escaped(&text[at..link.start], out)?;
        out.write_all(b"<a href=\"")?;
        write_escaped(&link.href, out)?;
        out.write_all(b"\" rel=\"nofollow\">")?;
        write_escaped(&text[link.start..link.end], out)?;
        out.write_all(b"</a>")?;
        at = link.end;
    }
    write_escaped(&text[at..], out)
}

fn page_name(global: usize) -> String {
    format!("{global:05}.html")
}

/// One row of the index, made while the page is written.
pub(crate) struct Row {
    page: String,
    date: String,
    from: String,
    subject: String,
    links: usize,
    /// Writing the page failed.
    error: Option<io::Error>,
}

/// Writes the pages (in parallel).
struct Pages {
    dir: PathBuf,
    linkifier: Linkifier,
    /// `--checks`: links that fail a security check are written as text.
    checks: bool,
}

/// `m` without the links that fail a security check of UTS #58 section 8.
fn without_failing_links(m: &ScannedMessage) -> ScannedMessage {
    let mut m = m.clone();
    for part in &mut m.parts {
        part.links
            .retain(|link| linkscan::checks::check(&link.text, link.kind).passed());
    }
    m
}

/// Writes the index (in order).
struct Index {
    dir: PathBuf,
    out: BufWriter<File>,
}

impl Pages {
    fn write_page(
        &self,
        path: &Path,
        file: &str,
        index: usize,
        m: &ScannedMessage,
    ) -> io::Result<()> {
        let mut out = BufWriter::new(File::create(path)?);
        let subject = m.subject.as_deref().unwrap_or("(no subject)");
        write_head(&mut out, subject)?;
        out.write_all(b"<nav><a href=\"index.html\">Index</a></nav>\n<table class=\"headers\">\n")?;
        let mut header = |name: &str, value: &str, linkify: bool| -> io::Result<()> {
            write!(out, "<tr><th>{name}</th><td>")?;
            if linkify {
                self.linkifier.write_html(value.as_bytes(), &mut out)?;
            } else {
                write_escaped(value, &mut out)?;
            }
            out.write_all(b"</td></tr>\n")
        };
        header("From", m.from.as_deref().unwrap_or(""), true)?;
        header("Date", m.date.as_deref().unwrap_or(""), false)?;
        header("Message-ID", m.message_id.as_deref().unwrap_or(""), false)?;
        header("Archive", &format!("{file}, message {index}"), false)?;
        out.write_all(b"<tr><th>Subject</th><td class=\"subject\">")?;
        match m.parts.iter().find(|p| p.path == "subject") {
            Some(part) => write_linkified(&part.text, &part.links, &mut out)?,
            None => write_escaped(subject, &mut out)?,
        }
        out.write_all(b"</td></tr>\n</table>\n")?;
        if !m.warnings.is_empty() {
            out.write_all(b"<ul class=\"warnings\">\n")?;
            for w in &m.warnings {
                out.write_all(b"<li>")?;
                write_escaped(w, &mut out)?;
                out.write_all(b"</li>\n")?;
            }
            out.write_all(b"</ul>\n")?;
        }
        for part in m.parts.iter().filter(|p| p.path != "subject") {
            write_part(part, &mut out)?;
        }
        out.write_all(b"</body></html>\n")?;
        out.flush()
    }
}

fn write_part(part: &TextPart, out: &mut impl Write) -> io::Result<()> {
    out.write_all(b"<section class=\"part\"><h2>Part ")?;
    write_escaped(&part.path, out)?;
    if let Some(ct) = &part.content_type {
        out.write_all(" · ".as_bytes())?;
        write_escaped(ct, out)?;
    }
    out.write_all(b"</h2>\n<pre>")?;
    write_linkified(&part.text, &part.links, out)?;
    out.write_all(b"</pre></section>\n")
}

impl Render for Pages {
    type Rendered = Row;

    fn render(&self, file: &str, index: usize, global: usize, m: &ScannedMessage) -> Row {
        let page = page_name(global);
        let checked;
        let m = if self.checks {
            checked = without_failing_links(m);
            &checked
        } else {
            m
        };
        let error = self.write_page(&self.dir.join(&page), file, index, m).err();
        Row {
            page,
            date: m.date.clone().unwrap_or_default(),
            from: m.from.clone().unwrap_or_default(),
            subject: m.subject.clone().unwrap_or_else(|| "(no subject)".into()),
            links: m.link_count(),
            error,
        }
    }
}

impl Emit<Row> for Index {
    fn start(&mut self, input: &str) -> io::Result<()> {
        self.out.write_all(b"<tr><th colspan=\"5\">")?;
        write_escaped(input, &mut self.out)?;
        self.out.write_all(b"</th></tr>\n")
    }

    fn emit(&mut self, row: Row) -> io::Result<()> {
        if let Some(e) = row.error {
            return Err(io::Error::new(
                e.kind(),
                format!("{}: {e}", self.dir.join(&row.page).display()),
            ));
        }
        let out = &mut self.out;
        write!(
            out,
            "<tr><td><a href=\"{}\">{}</a></td><td>",
            row.page,
            row.page.trim_end_matches(".html")
        )?;
        write_escaped(&row.date, out)?;
        out.write_all(b"</td><td>")?;
        write_escaped(&row.from, out)?;
        write!(out, "</td><td><a href=\"{}\">", row.page)?;
        write_escaped(&row.subject, out)?;
        writeln!(out, "</a></td><td>{}</td></tr>", row.links)
    }

    fn end(&mut self, _input: &str, totals: &Totals) -> io::Result<()> {
        writeln!(
            self.out,
            "<tr><td colspan=\"5\">{} messages, {} links, {} warnings</td></tr>",
            totals.messages, totals.links, totals.warnings
        )
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.write_all(b"</table>\n</body></html>\n")?;
        self.out.flush()
    }
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
    let index_path = dir.join("index.html");
    let file = File::create(&index_path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", index_path.display())))?;
    let mut index = BufWriter::new(file);
    write_head(&mut index, "Mail archive")?;
    index.write_all(
        b"<h1>Mail archive</h1>\n<table class=\"index\">\n\
          <colgroup><col style=\"width:4.5em\"><col style=\"width:13em\"><col style=\"width:16em\">\
          <col><col style=\"width:4.5em\"></colgroup>\n\
          <tr><th>#</th><th>Date</th><th>From</th><th>Subject</th><th>Links</th></tr>\n",
    )?;
    let pages = Pages {
        dir: dir.clone(),
        linkifier,
        checks: args.checks,
    };
    let mut sink = Index {
        dir: dir.clone(),
        out: index,
    };
    mail::run(
        Run {
            inputs: &args.files,
            args: &args.mail,
            scanner,
        },
        &pages,
        &mut sink,
    )
}
