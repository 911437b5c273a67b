//! The heads of the pages: the HTML head every page opens with, and what a message page
//! shows around its text: the table of its headers and its warnings, and the links to
//! the other pages; and the search page, Pagefind's search box under that head.
//!
//! # Algorithm
//!
//! A message page is written whole by the worker that scanned it, but for its links to
//! the others (the previous and next message, its thread and month, the message it
//! answers, its replies), which need the whole archive: [`Archive::finish`] appends them
//! to each page ([`Archive::link_pages`]), and the style sheet draws them at the top. A
//! page whose text cites a Message-ID of the archive is rewritten instead, each such
//! citation made a link to its page (`text`). Each row records the length of its page
//! before those links and their hash, so that an update rewrites a page only when its
//! links change or it cites a message the update added.
//!
//! # Invariants
//!
//! * Every page is valid HTML with the same style sheet; every text from a message is
//!   escaped, and with [`Addresses::Obfuscate`] written without an address.
//! * A message page lists [`MAX_REPLIES_SHOWN`] replies at most; its thread page has
//!   them all.

use std::collections::HashMap;
use std::io::{self, Write};

use crate::ScannedMessage;
use linkscan::html::write_escaped;

use super::files::{self, file_name, page_name, write_replacing};
use super::hash::hash;
use super::page::{self, write_address_field, write_linkified, Style};
use super::rows::Plan;
use super::search::{ignored, nav_link};
use super::{date, text, Addresses, Archive, MAX_REPLIES_SHOWN};

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:62em;margin:1em auto;\
padding:0 1em;line-height:1.4;overflow-wrap:anywhere}pre{white-space:pre-wrap;overflow-wrap:anywhere;\
unicode-bidi:plaintext;\
font-family:ui-monospace,monospace;background:#f6f6f6;padding:.5em}\
table.headers th{text-align:left;padding-right:1em;vertical-align:top;white-space:nowrap}\
table.headers td{overflow-wrap:anywhere}\
table.months td,table.months th{text-align:left;padding:.1em 1.2em .1em 0}\
table.months td.n{text-align:right}\
ul.threads,ul.threads ul{list-style:none;margin:0;padding:0}\
ul.threads ul{padding-left:1.6em;border-left:1px solid #ccd}\
ul.threads>li{border-top:1px solid #ddd;padding:.3em 0}\
ul.threads li li{padding-top:.15em}table.headers ul{margin:0;padding-left:1.2em}\
table.headers nav{margin:0}\
.from,.date,.count{color:#555;margin-left:.6em}.date{white-space:nowrap}\
.warnings{color:#8a4b00}h2{font-size:1em;color:#555}\
nav{margin:.4em 0}body.message{display:flex;flex-direction:column}\
body.message>nav.archive{order:-2}body.message>table.headers{order:-1}nav a,nav span{margin-right:1em}nav span.none{color:#999}\
.flowed{background:#f6f6f6;padding:.5em}.flowed p{margin:0;min-height:1.4em;white-space:pre-wrap;\
overflow-wrap:anywhere;unicode-bidi:plaintext}\
.flowed blockquote{margin:0 0 0 .2em;padding-left:.8em;border-left:2px solid #99b;color:#335}\
.plain{font-family:ui-monospace,monospace}.flowed summary{color:#555;cursor:pointer}\
article.post{border-top:1px solid #ddd;margin-top:.6em;padding-top:.2em;min-width:0}\
p.post{margin:.2em 0}p.post .subject{font-weight:bold}.own,.depth{color:#555;margin-left:.6em}\
article.d1,article.d2,article.d3,article.d4,article.d5,article.d6{border-left:2px solid #ccd;\
padding-left:.6em}article.d2{margin-left:.8em}article.d3{margin-left:1.6em}\
article.d4{margin-left:2.4em}article.d5{margin-left:3.2em}article.d6{margin-left:4em}\
@media (max-width:40em){body{padding:0 .5em}ul.threads ul{padding-left:.4em}.date{white-space:normal}\
article.d2,article.d3,article.d4,article.d5,article.d6{margin-left:.8em}}";

/// The title of a page named `page` in the archive of the list named `list` (none:
/// the page's name alone).
pub(super) fn titled(page: &str, list: Option<&str>) -> String {
    match list {
        Some(list) if !list.is_empty() => format!("{page} · {list}"),
        _ => page.to_string(),
    }
}

/// Writes `<!DOCTYPE html>…<body>` with `title`.
pub(super) fn write_head(out: &mut impl Write, title: &str) -> io::Result<()> {
    write_head_of(out, title, "<body>")
}

/// [`write_head`] with the opening `body` tag given.
pub(super) fn write_head_of(out: &mut impl Write, title: &str, body: &str) -> io::Result<()> {
    write_head_with(out, title, body, "")
}

/// [`write_head_of`] with `more` (HTML: a feed's `<link>`, `feeds`) at the end of the head.
pub(super) fn write_head_with(
    out: &mut impl Write,
    title: &str,
    body: &str,
    more: &str,
) -> io::Result<()> {
    out.write_all(
        b"<!DOCTYPE html>\n<html lang=\"und\"><head><meta charset=\"utf-8\">\
          <meta name=\"viewport\" content=\"width=device-width\"><title>",
    )?;
    write_escaped(title, out)?;
    write!(
        out,
        "</title><style>{STYLE}{}</style>{more}</head>\n{body}\n",
        super::attach::STYLE
    )
}

/// The most bytes of a message page after its text: its links to the others, with
/// [`MAX_REPLIES_SHOWN`] replies of a few KiB at most each.
const MAX_PAGE_END: u64 = 4 << 20;

/// The end of a message page, written by [`Archive::finish`] after the links that need
/// the whole archive.
pub(super) const PAGE_END: &str = "</body></html>\n";

/// Writes the head of message `m`'s page, the `index`th of the input named `file`: the
/// HTML head titled with its subject and `list` (the archive's `--title`, else the name
/// of the message's own list), the table of its headers (From, To, Cc, Date,
/// Subject, Message-ID, and its place in the archive) and its warnings. With `search`,
/// what Pagefind indexes (`search`): the page, its title and its filters.
pub(super) fn write_message_head(
    m: &ScannedMessage,
    file: &str,
    index: usize,
    list: Option<&str>,
    style: Style<'_>,
    search: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    let subject = style.said(m.subject().unwrap_or("(no subject)"));
    let list = list.map(|l| style.said(l));
    write_head_of(
        out,
        &titled(&subject, list.as_deref()),
        if search {
            "<body class=\"message\" data-pagefind-body>"
        } else {
            "<body class=\"message\">"
        },
    )?;
    if search {
        super::search::write_filters(m, style, out)?;
    }
    out.write_all(b"<table class=\"headers\">\n")?;
    let from: Vec<String> = m.from().map(str::to_string).into_iter().collect();
    write_addresses("From", &from, style, out)?;
    write_addresses("To", m.to(), style, out)?;
    write_addresses("Cc", m.cc(), style, out)?;
    out.write_all(b"<tr><th>Date</th><td class=\"date\">")?;
    write_escaped(&date::shown(m.date().unwrap_or("")), out)?;
    out.write_all(b"</td></tr>\n<tr><th>Subject</th><td class=\"subject\" dir=\"auto\"")?;
    if search {
        out.write_all(b" data-pagefind-meta=\"title\"")?;
    }
    out.write_all(b">")?;
    match m.parts().iter().find(|p| p.path() == "subject") {
        Some(part) => write_linkified(part.text(), part.links(), 0, style, out)?,
        None => write_escaped(&subject, out)?,
    }
    out.write_all(b"</td></tr>\n<tr><th>Message-ID</th><td>")?;
    match (m.message_id(), style.addresses) {
        (Some(id), Addresses::Obfuscate) => {
            write_escaped(&page::scrub(&page::obfuscated(id)), out)?
        }
        (Some(id), Addresses::Show) => write_escaped(id, out)?,
        (None, _) => {}
    }
    out.write_all(b"</td></tr>\n<tr><th>Archive</th><td dir=\"auto\">")?;
    write_escaped(
        &style.said(&format!("{}, message {index}", file_name(file))),
        out,
    )?;
    out.write_all(b"</td></tr>\n</table>\n")?;
    if !m.warnings().is_empty() {
        out.write_all(b"<ul class=\"warnings\">\n")?;
        for w in m.warnings() {
            out.write_all(b"<li dir=\"auto\">")?;
            write_escaped(&style.said(&w.to_string()), out)?;
            out.write_all(b"</li>\n")?;
        }
        out.write_all(b"</ul>\n")?;
    }
    Ok(())
}

/// Writes the header row `name` of addresses `values`, if there are any.
fn write_addresses(
    name: &str,
    values: &[String],
    style: Style<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    if values.is_empty() {
        return Ok(());
    }
    // Left to right, each name isolated (`page::write_person`): a right-to-left name
    // keeps its address and brackets on their side.
    write!(out, "<tr><th>{name}</th><td dir=\"ltr\">")?;
    for (k, value) in values.iter().enumerate() {
        if k > 0 {
            out.write_all(b", ")?;
        }
        page::write_person(value, out, |piece, out| {
            write_address_field(piece, style, out)
        })?;
    }
    out.write_all(b"</td></tr>\n")
}

impl Archive {
    /// The navigation of message `m`'s page: the archive's previous and next message, its
    /// month and thread pages.
    fn nav(&self, plan: &Plan, m: usize) -> String {
        let search = self.search.is_some();
        let mut nav = format!("<nav class=\"archive\"{}>", ignored(search));
        match m.checked_sub(1) {
            Some(p) => nav.push_str(&format!(
                "<a rel=\"prev\" href=\"{}\">Previous</a>",
                page_name(self.rows[p].global)
            )),
            None => nav.push_str("<span class=\"none\">Previous</span>"),
        }
        match self.rows.get(m + 1) {
            Some(n) => nav.push_str(&format!(
                "<a rel=\"next\" href=\"{}\">Next</a>",
                page_name(n.global)
            )),
            None => nav.push_str("<span class=\"none\">Next</span>"),
        }
        nav.push_str(&format!(
            "<a href=\"{}\">Thread</a><a href=\"{}\">Month</a><a href=\"index.html\">Index</a>{}</nav>",
            plan.in_thread(&self.rows, m),
            plan.month_page(m),
            nav_link(search)
        ));
        nav
    }

    /// The thread links of message `m`'s page, a table drawn under its headers: the
    /// message it answers, its replies, the previous and next message of its thread.
    pub(super) fn thread_links(&self, plan: &Plan, m: usize) -> io::Result<String> {
        let tree = &plan.tree;
        let mut out = Vec::new();
        writeln!(
            out,
            "<table class=\"headers thread\"{}>",
            ignored(self.search.is_some())
        )?;
        if let Some(p) = tree.parent[m] {
            out.write_all(b"<tr><th>In reply to</th><td>")?;
            self.rows[p].write_entry(None, "", &mut out)?;
            out.write_all(b"</td></tr>\n")?;
        }
        let replies = &tree.replies[m];
        if !replies.is_empty() {
            out.write_all(b"<tr><th>Replies</th><td><ul>")?;
            for &r in replies.iter().take(MAX_REPLIES_SHOWN) {
                out.write_all(b"<li>")?;
                self.rows[r].write_entry(None, "", &mut out)?;
                out.write_all(b"</li>")?;
            }
            if replies.len() > MAX_REPLIES_SHOWN {
                write!(
                    out,
                    "<li><a href=\"{}\">{} more on the thread page</a></li>",
                    plan.thread_page(&self.rows, m),
                    replies.len() - MAX_REPLIES_SHOWN
                )?;
            }
            out.write_all(b"</ul></td></tr>\n")?;
        }
        let thread = &tree.threads[tree.thread[m]];
        let place = tree.place[m];
        out.write_all(b"<tr><th>Thread</th><td><nav class=\"thread\">")?;
        match place.checked_sub(1).map(|p| thread[p]) {
            Some(p) => write!(
                out,
                "<a href=\"{}\">Previous in thread</a>",
                page_name(self.rows[p].global)
            )?,
            None => out.write_all(b"<span class=\"none\">Previous in thread</span>")?,
        }
        match thread.get(place + 1) {
            Some(&n) => write!(
                out,
                "<a href=\"{}\">Next in thread</a>",
                page_name(self.rows[n].global)
            )?,
            None => out.write_all(b"<span class=\"none\">Next in thread</span>")?,
        }
        write!(
            out,
            "<span>message {} of {}</span></nav></td></tr>\n</table>\n",
            place + 1,
            thread.len()
        )?;
        Ok(String::from_utf8(out).expect("escaped UTF-8"))
    }

    /// Ends each message page with its links to the others ([`Archive::nav`],
    /// [`Archive::thread_links`]), appended: the style sheet draws them at the top. A page
    /// that cites Message-IDs the archive has is rewritten whole, its citations made links
    /// to their pages ([`text`]). Records in each row the length of its page before those
    /// links and their hash.
    ///
    /// The first `kept` rows are an update's, whose pages are whole already: such a page
    /// is rewritten only when its links change or it cites a message the update added
    /// (its text up to the recorded length, with those citations made links, and the new
    /// links). Returns how many pages were written.
    pub(super) fn link_pages(&mut self, plan: &Plan, kept: usize) -> io::Result<usize> {
        let mut pages: HashMap<u64, usize> = HashMap::new();
        for row in &self.rows {
            if let Some(id) = row.references.own {
                pages.entry(id).or_insert(row.global);
            }
        }
        let added = |id: &u64| pages.get(id).is_some_and(|&g| g > kept);
        let obfuscated = self.addresses == Addresses::Obfuscate;
        let page_of = |id: u64| pages.get(&id).map(|&g| page_name(g));
        let one = |m: usize| -> io::Result<Option<(u64, u64)>> {
            let row = &self.rows[m];
            let path = self.dir.join(page_name(row.global));
            let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
            let end = format!(
                "{}\n{}{PAGE_END}",
                self.nav(plan, m),
                self.thread_links(plan, m)?
            );
            let end_hash = hash(end.as_bytes());
            let r = &row.references;
            if m < kept {
                let cites_added = r.more || r.cited.iter().any(added);
                if end_hash == row.end_hash && !cites_added {
                    return Ok(None);
                }
                // The page as the last run wrote it, a plain file (never read through a
                // link) that ends with the links it recorded, or an error: the folder then
                // has no state, and the next run rebuilds it.
                let html = files::read_plain(&path, row.body_len.saturating_add(MAX_PAGE_END))
                    .map_err(named)?;
                let body = usize::try_from(row.body_len)
                    .ok()
                    .filter(|&n| n < html.len() && hash(&html[n..]) == row.end_hash)
                    .and_then(|n| std::str::from_utf8(&html[..n]).ok())
                    .ok_or_else(|| {
                        named(io::Error::new(
                            io::ErrorKind::InvalidData,
                            "the page is not as the last run wrote it",
                        ))
                    })?;
                let old = body;
                let body = if cites_added {
                    text::resolve(body, obfuscated, page_of)
                } else {
                    body.to_string()
                };
                // A page citing more IDs than its row keeps is read whenever messages
                // are added, but written only when it changes.
                if body == old && end_hash == row.end_hash {
                    return Ok(None);
                }
                write_replacing(&path, format!("{body}{end}").as_bytes())?;
                return Ok(Some((body.len() as u64, end_hash)));
            }
            if r.more || r.cited.iter().any(|id| pages.contains_key(id)) {
                let html = files::read_plain(&path, row.body_len)
                    .ok()
                    .filter(|html| html.len() as u64 == row.body_len)
                    .and_then(|html| String::from_utf8(html).ok())
                    .ok_or_else(|| {
                        named(io::Error::new(
                            io::ErrorKind::InvalidData,
                            "the page is not as this run wrote it",
                        ))
                    })?;
                let html = text::resolve(&html, obfuscated, page_of);
                write_replacing(&path, format!("{html}{end}").as_bytes())?;
                Ok(Some((html.len() as u64, end_hash)))
            } else {
                files::append(&path, end.as_bytes())?;
                Ok(Some((row.body_len, end_hash)))
            }
        };
        #[cfg(feature = "parallel")]
        let done: Vec<Option<(u64, u64)>> = {
            use rayon::prelude::*;
            (0..self.rows.len())
                .into_par_iter()
                .map(one)
                .collect::<io::Result<_>>()?
        };
        #[cfg(not(feature = "parallel"))]
        let done: Vec<Option<(u64, u64)>> =
            (0..self.rows.len()).map(one).collect::<io::Result<_>>()?;
        let mut written = 0;
        for (row, done) in self.rows.iter_mut().zip(done) {
            if let Some((body_len, end_hash)) = done {
                row.body_len = body_len;
                row.end_hash = end_hash;
                written += 1;
            }
        }
        Ok(written)
    }
}

/// The search page: Pagefind's search box, which loads the index from `pagefind/`.
pub(crate) fn write_search_page(name: &str, out: &mut Vec<u8>) -> io::Result<()> {
    write_head(out, &titled("Search", Some(name)))?;
    out.write_all(
        b"<link href=\"pagefind/pagefind-ui.css\" rel=\"stylesheet\">\n\
          <nav><a href=\"index.html\">Index</a></nav>\n<h1>Search</h1>\n\
          <div id=\"search\"></div>\n\
          <noscript><p>Search runs in the browser, with JavaScript.</p></noscript>\n\
          <script src=\"pagefind/pagefind-ui.js\"></script>\n\
          <script>window.addEventListener('DOMContentLoaded',function(){\
          new PagefindUI({element:'#search',showSubResults:true,showImages:false});});\
          </script>\n</body></html>\n",
    )
}
