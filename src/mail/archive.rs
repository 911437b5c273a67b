//! An HTML archive of mail, as a list publishes it: a page per message, a page per
//! thread, a page per month and a front page, in one folder.
//!
//! [`Archive`] writes the page of each message as it is given one
//! ([`Archive::write_message`] takes `&self` and may run on many threads at once; the
//! `linkscan` command runs it on its parallel scan), keeps a small row per message
//! ([`ArchivedMessage`], never its text), and [`Archive::finish`] writes the rest once
//! every message is known.
//!
//! # The pages
//!
//! * `NNNNN.html`, one per message, numbered over all inputs in order: From, To, Cc, Date,
//!   Subject, Message-ID, the input and the message's place in it; then links to the
//!   previous and the next message of the archive, its month page and its thread page, the
//!   message it answers, its replies, and the previous and next message of its thread;
//!   the warnings of the message if any; every scanned text part with its links (see
//!   `page`); the parts not shown (attachments), with name and type.
//! * `tNNNNN.html` (`tNNNNN-2.html`, … past [`PAGE_ENTRIES`] messages), one per thread,
//!   named after its first message: the messages in thread order (`threads`) as nested
//!   lists, so that the structure shows without the style sheet too.
//! * `YYYY-MM.html` (`YYYY-MM-2.html`, …; `undated.html`), one per month of the messages'
//!   UTC dates: the threads of the month as nested lists, in the order of their first
//!   message that month, each thread's messages of that month in thread order.
//! * `index.html`: the inputs and their totals, the archive's totals, and a table of the
//!   months, each with its number of messages and threads on its own row.
//! * `links.html`, a page per host and `links.json`: every URL the messages cite, by
//!   host, with the messages that cite it and the date it was first cited ([`links`]).
//!
//! Dates are shown one way everywhere: the sender's date as written, and the same
//! instant in UTC (`date`). Nested lists are drawn at most [`MAX_NESTING`] levels deep;
//! a deeper reply is drawn at that depth, its depth written beside it.
//!
//! # Invariants
//!
//! * No page grows with the archive: a thread page and a month page hold at most
//!   [`PAGE_ENTRIES`] messages and go on over numbered pages, a message page lists at most
//!   [`MAX_REPLIES_SHOWN`] replies; only the front page grows, by a row per month.
//! * Memory: a row per message of at most a few KiB ([`MAX_ROW_FIELD`] per field), whatever
//!   the message; the pages are written as they come.
//! * Every text from a message is HTML-escaped; the only `href`s are the pages of this
//!   folder (names made of digits and fixed letters) and the links the detector made, each
//!   of a scheme the linkifier allows. Subjects and names are isolated (`<bdi>`) in their
//!   own direction, so a right-to-left subject reads right to left and moves nothing
//!   around it.
//! * With [`Addresses::Obfuscate`], no page has a `mailto:` or an address: each address is
//!   written `name at example dot com`, in headers, in bodies, and in the lists.
//! * Files are written without following links (`files`): a symbolic link under a page's
//!   name is replaced, its target untouched; pages an earlier run left that this one did
//!   not write are removed ([`Finished::removed`]).
//!
//! ```
//! use linkscan::mail::archive::Archive;
//! use linkscan::mail::{open_mbox, MailScanner, MboxReader};
//! let mbox = b"From a@example.com Mon Jan  1 00:00:00 2024\n\
//!              Message-ID: <1@example.com>\nDate: Mon, 1 Jan 2024 10:00:00 +0100\n\
//!              Subject: plans\n\nsee example.com\n\
//!              From b@example.com Mon Jan  1 00:00:00 2024\n\
//!              Message-ID: <2@example.com>\nIn-Reply-To: <1@example.com>\n\
//!              Date: Mon, 1 Jan 2024 11:00:00 +0100\nSubject: re: plans\n\nyes\n";
//! let dir = std::env::temp_dir().join(format!("linkscan-doc-{}", std::process::id()));
//! let scanner = MailScanner::new();
//! let mut archive = Archive::create(&dir)?;
//! for message in MboxReader::new(open_mbox(&mbox[..])?) {
//!     archive.push("list.mbox", &scanner.scan(message?.bytes()))?;
//! }
//! archive.finish()?;
//! let thread = std::fs::read_to_string(dir.join("t00001.html"))?;
//! assert!(thread.contains("<a href=\"00002.html\"><bdi dir=\"auto\">re: plans</bdi></a>"));
//! let month = std::fs::read_to_string(dir.join("2024-01.html"))?;
//! assert!(month.contains("<ul class=\"thread\">"));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), std::io::Error>(())
//! ```

pub(crate) mod date;
mod files;
pub mod links;
pub(crate) mod page;
mod text;
mod threads;

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::html::{write_escaped, Linkifier};
use crate::mail::ScannedMessage;

use date::Instant;
use files::{create_replacing, write_replacing};
use page::{obfuscated_text, passes_checks, write_address_field, write_linkified, Style};
use text::References;
use threads::{Keys, Tree};

/// How addresses are shown (`--addresses`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Addresses {
    /// As written, email addresses linked with `mailto:`.
    #[default]
    Show,
    /// As `name at example dot com`, with no `mailto:` anywhere, as public archives do
    /// against address harvesting.
    Obfuscate,
}

/// The most messages on one thread page or month page; more go on numbered pages.
pub const PAGE_ENTRIES: usize = 500;

/// The deepest nesting drawn; deeper replies are drawn at this depth.
pub const MAX_NESTING: usize = 24;

/// The most replies a message page lists; its thread page has them all.
pub const MAX_REPLIES_SHOWN: usize = 50;

/// The most bytes of a field a row keeps: the lists show no more of a From or a Subject,
/// and a longer Message-ID (it has no limit of its own) is kept as its start and a hash
/// of the whole. So a row holds at most a few KiB whatever the message.
pub const MAX_ROW_FIELD: usize = 512;

/// The most Message-IDs of its References a row keeps to find its parent (the nearest).
const MAX_PARENT_KEYS: usize = 4;

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:62em;margin:1em auto;\
padding:0 1em;line-height:1.4}pre{white-space:pre-wrap;overflow-wrap:anywhere;\
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
.flowed blockquote{margin:0 0 0 .2em;padding-left:.8em;border-left:2px solid #99b;color:#335}";

/// Writes `<!DOCTYPE html>…<body>` with `title`.
fn write_head(out: &mut impl Write, title: &str) -> io::Result<()> {
    write_head_of(out, title, "<body>")
}

/// [`write_head`] with the opening `body` tag given.
fn write_head_of(out: &mut impl Write, title: &str, body: &str) -> io::Result<()> {
    out.write_all(
        b"<!DOCTYPE html>\n<html lang=\"und\"><head><meta charset=\"utf-8\">\
          <meta name=\"viewport\" content=\"width=device-width\"><title>",
    )?;
    write_escaped(title, out)?;
    write!(out, "</title><style>{STYLE}</style></head>\n{body}\n")
}

/// The end of a message page, written by [`Archive::finish`] after the links that need
/// the whole archive.
const PAGE_END: &str = "</body></html>\n";

/// The page of message `global`.
fn page_name(global: usize) -> String {
    format!("{global:05}.html")
}

/// Page `k` (from 0) of a paged list named `base`.
fn paged_name(base: &str, k: usize) -> String {
    if k == 0 {
        format!("{base}.html")
    } else {
        format!("{base}-{}.html", k + 1)
    }
}

/// The name of `path` without its folders: how published pages name an archive.
fn file_name(path: &str) -> String {
    Path::new(path).file_name().map_or_else(
        || path.to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// `n` and the noun, in the singular for 1 and the plural otherwise.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

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

/// A Message-ID as a row keeps it: as it is when short, else its start and a hash of the
/// whole (two IDs are told apart unless they share both).
fn id_key(id: &str) -> String {
    use std::hash::{Hash, Hasher};
    if id.len() <= MAX_ROW_FIELD {
        return id.to_string();
    }
    let mut end = MAX_ROW_FIELD - 17;
    while !id.is_char_boundary(end) {
        end -= 1;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut hasher);
    format!("{}#{:016x}", &id[..end], hasher.finish())
}

/// What the archive keeps of a message whose page is written ([`Archive::write_message`]),
/// until [`Archive::finish`]: a few KiB at most, never its text.
#[derive(Debug)]
pub struct ArchivedMessage {
    row: Row,
}

impl ArchivedMessage {
    /// The page of the message, in the archive's folder.
    pub fn page(&self) -> String {
        page_name(self.row.global)
    }

    /// The bytes its fields hold.
    #[doc(hidden)]
    pub fn held(&self) -> usize {
        let r = &self.row;
        r.thread.len()
            + r.own.as_ref().map_or(0, String::len)
            + r.parents.iter().map(String::len).sum::<usize>()
            + r.date.len()
            + r.from.len()
            + r.subject.len()
            + r.references.cited.iter().map(String::len).sum::<usize>()
            + r.references.own.as_ref().map_or(0, String::len)
            + r.cited.held()
    }
}

/// One message's row.
#[derive(Debug)]
struct Row {
    global: usize,
    /// The thread root's key (`threads`).
    thread: String,
    own: Option<String>,
    /// In-Reply-To, then the last References, nearest first (keys).
    parents: Vec<String>,
    date: String,
    from: String,
    subject: String,
    links: usize,
    /// The message's own Message-ID, and the Message-IDs its text parts cite.
    references: References,
    /// The URLs it cites, for the links pages.
    cited: links::Cited,
}

impl Row {
    fn new(m: &ScannedMessage, global: usize, links: usize, references: References) -> Row {
        let page = page_name(global);
        let root = m
            .references()
            .first()
            .map(String::as_str)
            .or(m.in_reply_to())
            .or(m.message_id())
            .unwrap_or(&page);
        let mut parents: Vec<String> = m.in_reply_to().map(id_key).into_iter().collect();
        for id in m.references().iter().rev().take(MAX_PARENT_KEYS) {
            let key = id_key(id);
            if !parents.contains(&key) {
                parents.push(key);
            }
        }
        Row {
            global,
            thread: id_key(root),
            own: m.message_id().map(id_key),
            parents,
            date: capped(m.date().unwrap_or_default()),
            from: capped(m.from().unwrap_or_default()),
            subject: capped(m.subject().unwrap_or("(no subject)")),
            links,
            references,
            cited: links::Cited::default(),
        }
    }
}

/// Counts of one input, for the front page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputTotals {
    /// Messages read.
    pub messages: usize,
    /// Links found.
    pub links: usize,
    /// Warnings given.
    pub warnings: usize,
}

/// What [`Archive::finish`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Finished {
    /// Pages written: messages, threads, months, the front page.
    pub pages: usize,
    /// Pages an earlier run left in the folder that this archive does not have, removed.
    pub removed: usize,
}

/// An HTML archive being built in a folder; see the [module](self) documentation.
#[derive(Debug)]
pub struct Archive {
    dir: PathBuf,
    linkifier: Linkifier,
    checks: bool,
    addresses: Addresses,
    rows: Vec<Row>,
    inputs: Vec<(String, InputTotals)>,
    /// The input of [`Archive::push`], and its totals so far.
    pushed: Option<(String, InputTotals)>,
}

impl Archive {
    /// An archive written to `dir`, created if missing. Pages already there are replaced
    /// as the new ones are written, and those the new archive does not have are removed by
    /// [`Archive::finish`].
    pub fn create(dir: impl Into<PathBuf>) -> io::Result<Archive> {
        let dir = dir.into();
        fs::create_dir_all(&dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        Ok(Archive {
            dir,
            linkifier: Linkifier::new(),
            checks: false,
            addresses: Addresses::Show,
            rows: Vec::new(),
            inputs: Vec::new(),
            pushed: None,
        })
    }

    /// The linkifier that writes the links (its allowed schemes, its checks).
    pub fn linkifier(mut self, linkifier: Linkifier) -> Self {
        self.linkifier = linkifier;
        self
    }

    /// Whether links that fail a security check of UTS #58 section 8 are written as text
    /// (default: no).
    pub fn checks(mut self, yes: bool) -> Self {
        self.checks = yes;
        self
    }

    /// How addresses are shown (default: [`Addresses::Show`]).
    pub fn addresses(mut self, addresses: Addresses) -> Self {
        self.addresses = addresses;
        self
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn style(&self) -> Style<'_> {
        Style {
            linkifier: &self.linkifier,
            checks: self.checks,
            addresses: self.addresses,
        }
    }

    /// Writes the page of message `m`, number `global` of the archive (from 1, in
    /// archive order, over all inputs), the `index`th of the input named `file`; gives
    /// the row to [`Archive::add`] in archive order. May run on several threads at once.
    pub fn write_message(
        &self,
        file: &str,
        index: usize,
        global: usize,
        m: &ScannedMessage,
    ) -> io::Result<ArchivedMessage> {
        let mut references = References::of(m);
        let path = self.dir.join(page_name(global));
        self.write_page(&path, file, index, m, &mut references)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let links = if self.checks {
            m.parts()
                .iter()
                .flat_map(|p| p.links().iter().map(move |link| (p.text(), link)))
                .filter(|(text, link)| passes_checks(text, m.piece_offset(), link))
                .count()
        } else {
            m.link_count()
        };
        let mut row = Row::new(m, global, links, references);
        for part in m.parts() {
            for link in part.links() {
                if link.kind() == crate::LinkKind::Url
                    && (!self.checks || passes_checks(part.text(), m.piece_offset(), link))
                {
                    row.cited.add(link.href());
                }
            }
        }
        Ok(ArchivedMessage { row })
    }

    /// Adds a message whose page is written, in archive order.
    pub fn add(&mut self, message: ArchivedMessage) {
        self.rows.push(message.row);
    }

    /// Counts an input for the front page, once its messages are added.
    pub fn end_input(&mut self, name: &str, totals: InputTotals) {
        self.inputs.push((file_name(name), totals));
    }

    /// Writes the page of `m`, the next message of the input named `file`, and adds it:
    /// [`Archive::write_message`] and [`Archive::add`] for one message at a time.
    pub fn push(&mut self, file: &str, m: &ScannedMessage) -> io::Result<()> {
        let name = file_name(file);
        if self.pushed.as_ref().is_some_and(|(n, _)| *n != name) {
            let (n, t) = self.pushed.take().expect("an input");
            self.inputs.push((n, t));
        }
        let (_, totals) = self.pushed.get_or_insert((name, InputTotals::default()));
        totals.messages += 1;
        let index = totals.messages;
        let global = self.rows.len() + 1;
        let message = self.write_message(file, index, global, m)?;
        let (_, totals) = self.pushed.as_mut().expect("an input");
        totals.links += message.row.links;
        totals.warnings += m.warnings().len();
        self.add(message);
        Ok(())
    }

    /// Counts `n` warnings of reading the current input of [`Archive::push`] (those of
    /// [`MboxMessage::warnings`](crate::mail::MboxMessage::warnings)) on the front page.
    pub fn count_read_warnings(&mut self, n: usize) {
        if let Some((_, totals)) = &mut self.pushed {
            totals.warnings += n;
        }
    }

    fn write_page(
        &self,
        path: &Path,
        file: &str,
        index: usize,
        m: &ScannedMessage,
        references: &mut References,
    ) -> io::Result<()> {
        let style = self.style();
        let mut out = BufWriter::new(create_replacing(path)?);
        let subject = m.subject().unwrap_or("(no subject)");
        write_head_of(&mut out, subject, "<body class=\"message\">")?;
        out.write_all(b"<table class=\"headers\">\n")?;
        let from: Vec<String> = m.from().map(str::to_string).into_iter().collect();
        write_addresses("From", &from, style, &mut out)?;
        write_addresses("To", m.to(), style, &mut out)?;
        write_addresses("Cc", m.cc(), style, &mut out)?;
        out.write_all(b"<tr><th>Date</th><td class=\"date\">")?;
        write_escaped(&date::shown(m.date().unwrap_or("")), &mut out)?;
        out.write_all(b"</td></tr>\n<tr><th>Subject</th><td class=\"subject\" dir=\"auto\">")?;
        match m.parts().iter().find(|p| p.path() == "subject") {
            Some(part) => write_linkified(part.text(), part.links(), 0, style, &mut out)?,
            None => write_escaped(subject, &mut out)?,
        }
        out.write_all(b"</td></tr>\n<tr><th>Message-ID</th><td>")?;
        match (m.message_id(), self.addresses) {
            (Some(id), Addresses::Obfuscate) => write_escaped(&page::obfuscated(id), &mut out)?,
            (Some(id), Addresses::Show) => write_escaped(id, &mut out)?,
            (None, _) => {}
        }
        out.write_all(b"</td></tr>\n<tr><th>Archive</th><td dir=\"auto\">")?;
        write_escaped(&format!("{}, message {index}", file_name(file)), &mut out)?;
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
            text::write_part(part, m.piece_offset(), style, references, &mut out)?;
        }
        if !m.skipped().is_empty() {
            out.write_all(b"<section class=\"attachments\"><h2>Not shown</h2>\n<ul>\n")?;
            for part in m.skipped() {
                out.write_all(b"<li>Part ")?;
                write_escaped(&part.path, &mut out)?;
                out.write_all(b": <bdi dir=\"auto\">")?;
                write_escaped(part.name.as_deref().unwrap_or("(no name)"), &mut out)?;
                out.write_all(b"</bdi>, ")?;
                write_escaped(&part.content_type, &mut out)?;
                out.write_all(b"</li>\n")?;
            }
            out.write_all(b"</ul></section>\n")?;
        }
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.finish()
    }

    /// Writes the pages that need every message (threads, months, the front page), the
    /// links of each message page to the others, and removes the pages of an earlier run
    /// that this archive does not have.
    pub fn finish(&mut self) -> io::Result<Finished> {
        if let Some(pushed) = self.pushed.take() {
            self.inputs.push(pushed);
        }
        self.rows.sort_by_key(|r| r.global);
        let plan = Plan::new(&self.rows);
        let mut written: HashSet<String> = HashSet::new();
        self.write_threads(&plan, &mut written)?;
        self.write_months(&plan, &mut written)?;
        self.write_front(&plan)?;
        let citing: Vec<links::Citing> = self
            .rows
            .iter()
            .map(|r| links::Citing {
                global: r.global,
                date: &r.date,
                urls: &r.cited.urls,
            })
            .collect();
        written.extend(links::write(&self.dir, &citing, &self.linkifier)?);
        self.link_pages(&plan)?;
        written.extend(self.rows.iter().map(|r| page_name(r.global)));
        let removed = files::remove_stale(&self.dir, &written)?;
        Ok(Finished {
            pages: written.len() + 1,
            removed,
        })
    }
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
    write!(out, "<tr><th>{name}</th><td dir=\"auto\">")?;
    for (k, value) in values.iter().enumerate() {
        if k > 0 {
            out.write_all(b", ")?;
        }
        out.write_all(b"<bdi>")?;
        write_address_field(value, style, out)?;
        out.write_all(b"</bdi>")?;
    }
    out.write_all(b"</td></tr>\n")
}

/// Where each message is shown: its thread and month pages.
struct Plan {
    tree: Tree,
    /// The months in order (`YYYY-MM`, then `undated`), each with its messages in the
    /// order shown (threads in order of their first message that month).
    months: Vec<(String, Vec<usize>)>,
    /// Each message's month (an index of `months`) and place in that list.
    month_of: Vec<(usize, usize)>,
}

impl Plan {
    fn new(rows: &[Row]) -> Plan {
        let keys: Vec<Keys> = rows
            .iter()
            .map(|r| Keys {
                thread: &r.thread,
                own: r.own.as_deref(),
                parents: &r.parents,
            })
            .collect();
        let tree = Tree::new(&keys);
        let month_key: Vec<String> = rows
            .iter()
            .map(|r| Instant::parse(&r.date).map_or_else(|| "undated".to_string(), |i| i.month()))
            .collect();
        let mut names: Vec<&str> = month_key.iter().map(String::as_str).collect();
        names.sort_unstable_by_key(|m| (*m == "undated", *m));
        names.dedup();
        let at: HashMap<&str, usize> = names.iter().enumerate().map(|(k, m)| (*m, k)).collect();
        // Each month's threads, in the order of their first message there.
        let mut lists: Vec<Vec<(usize, Vec<usize>)>> = vec![Vec::new(); names.len()];
        for thread in &tree.threads {
            let mut by_month: Vec<(usize, Vec<usize>)> = Vec::new();
            for &m in thread {
                let k = at[month_key[m].as_str()];
                match by_month.iter_mut().find(|(mk, _)| *mk == k) {
                    Some((_, list)) => list.push(m),
                    None => by_month.push((k, vec![m])),
                }
            }
            for (k, list) in by_month {
                lists[k].push((list.iter().copied().min().unwrap_or(0), list));
            }
        }
        let mut month_of = vec![(0, 0); rows.len()];
        let months = names
            .iter()
            .zip(lists)
            .enumerate()
            .map(|(k, (name, mut threads))| {
                threads.sort_by_key(|(first, _)| *first);
                let list: Vec<usize> = threads.into_iter().flat_map(|(_, l)| l).collect();
                for (place, &m) in list.iter().enumerate() {
                    month_of[m] = (k, place);
                }
                (name.to_string(), list)
            })
            .collect();
        Plan {
            tree,
            months,
            month_of,
        }
    }

    /// The thread page of message `m`.
    fn thread_page(&self, rows: &[Row], m: usize) -> String {
        let t = self.tree.thread[m];
        let first = rows[self.tree.threads[t][0]].global;
        paged_name(&format!("t{first:05}"), self.tree.place[m] / PAGE_ENTRIES)
    }

    /// The month page of message `m`.
    fn month_page(&self, m: usize) -> String {
        let (k, place) = self.month_of[m];
        paged_name(&self.months[k].0, place / PAGE_ENTRIES)
    }
}

impl Archive {
    /// The From of a row as the lists show it.
    fn shown_from(&self, row: &Row) -> String {
        match self.addresses {
            Addresses::Show => row.from.clone(),
            Addresses::Obfuscate => obfuscated_text(&row.from),
        }
    }

    /// Writes one message's entry of a list: its subject (a link to its page), sender and
    /// date, and `extra` after them.
    fn write_entry(&self, row: &Row, extra: &str, out: &mut impl Write) -> io::Result<()> {
        write!(
            out,
            "<a href=\"{}\"><bdi dir=\"auto\">",
            page_name(row.global)
        )?;
        write_escaped(&row.subject, out)?;
        out.write_all(b"</bdi></a> <bdi class=\"from\" dir=\"auto\">")?;
        write_escaped(&self.shown_from(row), out)?;
        out.write_all(b"</bdi> <span class=\"date\">")?;
        write_escaped(&date::shown(&row.date), out)?;
        out.write_all(b"</span>")?;
        out.write_all(extra.as_bytes())
    }

    /// Writes `entries` (messages and their depths) as nested lists: each entry one level
    /// at most deeper than the one before ([`MAX_NESTING`] at most), the first at the top;
    /// `thread_start` says where a new thread begins (a new top-level item).
    fn write_nested(
        &self,
        entries: &[(usize, usize, bool)],
        extra: impl Fn(usize, bool) -> String,
        out: &mut impl Write,
    ) -> io::Result<()> {
        out.write_all(b"<ul class=\"threads\">\n")?;
        // Open lists below the top one.
        let mut open: usize = 0;
        let mut first = true;
        // The depth drawn at the top: that of the first entry of the thread here.
        let mut base = 0;
        for &(m, depth, thread_start) in entries {
            let start = first || thread_start;
            if start {
                base = depth;
            }
            let want = if start {
                0
            } else {
                depth.saturating_sub(base).min(open + 1).min(MAX_NESTING)
            };
            if first {
                out.write_all(b"<li>")?;
            } else if want > open {
                // One level deeper: a list inside the item still open.
                out.write_all(b"\n<ul class=\"thread\"><li>")?;
                open += 1;
            } else {
                while open > want {
                    out.write_all(b"</li></ul>")?;
                    open -= 1;
                }
                out.write_all(b"</li>\n<li>")?;
            }
            first = false;
            let row = &self.rows[m];
            let mut more = extra(m, start);
            if depth - base.min(depth) > MAX_NESTING {
                more.push_str(&format!(" <span class=\"count\">(depth {depth})</span>"));
            }
            self.write_entry(row, &more, out)?;
        }
        if !first {
            while open > 0 {
                out.write_all(b"</li></ul>")?;
                open -= 1;
            }
            out.write_all(b"</li>")?;
        }
        out.write_all(b"\n</ul>\n")
    }

    /// Writes `<nav>` with the previous and next page of a paged list.
    pub(crate) fn write_pager(
        base: &str,
        page: usize,
        pages: usize,
        out: &mut impl Write,
    ) -> io::Result<()> {
        if pages <= 1 {
            return Ok(());
        }
        out.write_all(b"<nav class=\"pages\">")?;
        if page > 0 {
            write!(
                out,
                "<a rel=\"prev\" href=\"{}\">Previous page</a>",
                paged_name(base, page - 1)
            )?;
        }
        write!(out, "<span>Page {} of {pages}</span>", page + 1)?;
        if page + 1 < pages {
            write!(
                out,
                "<a rel=\"next\" href=\"{}\">Next page</a>",
                paged_name(base, page + 1)
            )?;
        }
        out.write_all(b"</nav>\n")
    }

    fn write_threads(&self, plan: &Plan, written: &mut HashSet<String>) -> io::Result<()> {
        for thread in &plan.tree.threads {
            let first = &self.rows[thread[0]];
            let base = format!("t{:05}", first.global);
            let pages = thread.len().div_ceil(PAGE_ENTRIES);
            for (k, chunk) in thread.chunks(PAGE_ENTRIES).enumerate() {
                let name = paged_name(&base, k);
                let mut out = BufWriter::new(create_replacing(&self.dir.join(&name))?);
                write_head(&mut out, &first.subject)?;
                write!(
                    out,
                    "<nav><a href=\"index.html\">Index</a><a href=\"{}\">Month</a></nav>\n\
                     <h1><bdi dir=\"auto\">",
                    plan.month_page(thread[0])
                )?;
                write_escaped(&first.subject, &mut out)?;
                writeln!(
                    out,
                    "</bdi></h1>\n<p>Thread of {}.</p>",
                    count(thread.len(), "message")
                )?;
                Self::write_pager(&base, k, pages, &mut out)?;
                let entries: Vec<(usize, usize, bool)> = chunk
                    .iter()
                    .map(|&m| (m, plan.tree.depth[m], false))
                    .collect();
                self.write_nested(
                    &entries,
                    |m, _| {
                        let links = self.rows[m].links;
                        if links > 0 {
                            format!(" <span class=\"count\">{}</span>", count(links, "link"))
                        } else {
                            String::new()
                        }
                    },
                    &mut out,
                )?;
                Self::write_pager(&base, k, pages, &mut out)?;
                out.write_all(b"</body></html>\n")?;
                out.flush()?;
                out.into_inner().map_err(|e| e.into_error())?.finish()?;
                written.insert(name);
            }
        }
        Ok(())
    }

    fn write_months(&self, plan: &Plan, written: &mut HashSet<String>) -> io::Result<()> {
        for (k, (month, list)) in plan.months.iter().enumerate() {
            let pages = list.len().div_ceil(PAGE_ENTRIES);
            let label = if month == "undated" { "Undated" } else { month };
            for (p, chunk) in list.chunks(PAGE_ENTRIES).enumerate() {
                let name = paged_name(month, p);
                let mut out = BufWriter::new(create_replacing(&self.dir.join(&name))?);
                write_head(&mut out, label)?;
                out.write_all(b"<nav><a href=\"index.html\">Index</a>")?;
                match k.checked_sub(1).map(|j| &plan.months[j].0) {
                    Some(prev) => write!(
                        out,
                        "<a rel=\"prev\" href=\"{prev}.html\">Previous month</a>"
                    )?,
                    None => out.write_all(b"<span class=\"none\">Previous month</span>")?,
                }
                match plan.months.get(k + 1) {
                    Some((next, _)) => {
                        write!(out, "<a rel=\"next\" href=\"{next}.html\">Next month</a>")?
                    }
                    None => out.write_all(b"<span class=\"none\">Next month</span>")?,
                }
                out.write_all(b"</nav>\n")?;
                let threads = list
                    .iter()
                    .map(|&m| plan.tree.thread[m])
                    .collect::<HashSet<usize>>()
                    .len();
                writeln!(
                    out,
                    "<h1>{label}</h1>\n<p>{} in {}.</p>",
                    count(list.len(), "message"),
                    count(threads, "thread")
                )?;
                Self::write_pager(month, p, pages, &mut out)?;
                // Depths relative to the thread's first message shown here.
                let mut entries = Vec::with_capacity(chunk.len());
                let mut last_thread = None;
                for &m in chunk {
                    let t = plan.tree.thread[m];
                    entries.push((m, plan.tree.depth[m], last_thread != Some(t)));
                    last_thread = Some(t);
                }
                self.write_nested(
                    &entries,
                    |m, start| {
                        let t = plan.tree.thread[m];
                        let thread = &plan.tree.threads[t];
                        if start {
                            format!(
                                " <a class=\"count\" href=\"{}\">thread of {}</a>",
                                plan.thread_page(&self.rows, thread[0]),
                                count(thread.len(), "message")
                            )
                        } else {
                            String::new()
                        }
                    },
                    &mut out,
                )?;
                Self::write_pager(month, p, pages, &mut out)?;
                out.write_all(b"</body></html>\n")?;
                out.flush()?;
                out.into_inner().map_err(|e| e.into_error())?.finish()?;
                written.insert(name);
            }
        }
        Ok(())
    }

    fn write_front(&self, plan: &Plan) -> io::Result<()> {
        let mut out = BufWriter::new(create_replacing(&self.dir.join("index.html"))?);
        write_head(&mut out, "Mail archive")?;
        out.write_all(b"<h1>Mail archive</h1>\n<ul class=\"archives\">\n")?;
        for (name, totals) in &self.inputs {
            out.write_all(b"<li>")?;
            write_escaped(name, &mut out)?;
            writeln!(
                out,
                ": {}, {}, {}</li>",
                count(totals.messages, "message"),
                count(totals.links, "link"),
                count(totals.warnings, "warning")
            )?;
        }
        out.write_all(b"</ul>\n")?;
        writeln!(
            out,
            "<p class=\"totals\">{} in {}, {} cited.</p>",
            count(self.rows.len(), "message"),
            count(plan.tree.threads.len(), "thread"),
            count(self.rows.iter().map(|r| r.links).sum(), "link")
        )?;
        out.write_all(
            b"<p><a href=\"links.html\">Every link the list has cited</a>, by host \
              (<a href=\"links.json\">JSON</a>).</p>\n",
        )?;
        out.write_all(
            b"<table class=\"months\">\n<thead><tr><th>Month</th><th>Messages</th>\
              <th>Threads</th></tr></thead>\n<tbody>\n",
        )?;
        for (k, (month, list)) in plan.months.iter().enumerate() {
            let label = if month == "undated" { "Undated" } else { month };
            let threads: HashSet<usize> = list.iter().map(|&m| plan.tree.thread[m]).collect();
            let _ = k;
            writeln!(
                out,
                "<tr><td><a href=\"{month}.html\">{label}</a></td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td></tr>",
                list.len(),
                threads.len()
            )?;
        }
        out.write_all(b"</tbody></table>\n</body></html>\n")?;
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.finish()
    }

    /// The navigation of message `m`'s page: the archive's previous and next message, its
    /// month and thread pages.
    fn nav(&self, plan: &Plan, m: usize) -> String {
        let mut nav = String::from("<nav class=\"archive\">");
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
            "<a href=\"{}\">Thread</a><a href=\"{}\">Month</a><a href=\"index.html\">Index</a></nav>",
            plan.thread_page(&self.rows, m),
            plan.month_page(m)
        ));
        nav
    }

    /// The thread links of message `m`'s page, a table drawn under its headers: the
    /// message it answers, its replies, the previous and next message of its thread.
    fn thread_links(&self, plan: &Plan, m: usize) -> io::Result<String> {
        let tree = &plan.tree;
        let mut out = Vec::new();
        out.write_all(b"<table class=\"headers thread\">\n")?;
        if let Some(p) = tree.parent[m] {
            out.write_all(b"<tr><th>In reply to</th><td>")?;
            self.write_entry(&self.rows[p], "", &mut out)?;
            out.write_all(b"</td></tr>\n")?;
        }
        let replies = &tree.replies[m];
        if !replies.is_empty() {
            out.write_all(b"<tr><th>Replies</th><td><ul>")?;
            for &r in replies.iter().take(MAX_REPLIES_SHOWN) {
                out.write_all(b"<li>")?;
                self.write_entry(&self.rows[r], "", &mut out)?;
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
    /// to their pages ([`text`]).
    fn link_pages(&self, plan: &Plan) -> io::Result<()> {
        let mut pages: HashMap<&str, usize> = HashMap::new();
        for row in &self.rows {
            if let Some(id) = &row.references.own {
                pages.entry(id).or_insert(row.global);
            }
        }
        let one = |m: usize| -> io::Result<()> {
            let row = &self.rows[m];
            let path = self.dir.join(page_name(row.global));
            let end = format!(
                "{}\n{}{PAGE_END}",
                self.nav(plan, m),
                self.thread_links(plan, m)?
            );
            let r = &row.references;
            if r.more || r.cited.iter().any(|id| pages.contains_key(id.as_str())) {
                let html = fs::read_to_string(&path)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
                let html = text::resolve(&html, |id| pages.get(id).map(|&g| page_name(g)));
                write_replacing(&path, format!("{html}{end}").as_bytes())
            } else {
                files::append(&path, end.as_bytes())
            }
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            (0..self.rows.len()).into_par_iter().try_for_each(one)
        }
        #[cfg(not(feature = "parallel"))]
        {
            (0..self.rows.len()).try_for_each(one)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::MailScanner;

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
        let row = Row::new(&m, 1, 0, References::default());
        let held = ArchivedMessage { row }.held();
        assert!(held <= 8 * MAX_ROW_FIELD, "{held} bytes");
        let row = Row::new(&m, 1, 0, References::default());
        // Two roots that differ only past the kept start are still two threads.
        let other = raw.replace(&format!("{id}@"), &format!("{id}y@"));
        let row2 = Row::new(&scanner.scan(other.as_bytes()), 2, 0, References::default());
        assert_ne!(row.thread, row2.thread);
        let same = Row::new(&m, 3, 0, References::default());
        assert_eq!(row.thread, same.thread);
    }

    /// An archive of `n` synthetic rows in `dir`: message `i` in thread `thread(i)`,
    /// answering `parent(i)`, dated in January 2024.
    fn synthetic(
        dir: &Path,
        n: usize,
        thread: impl Fn(usize) -> usize,
        parent: impl Fn(usize) -> Option<usize>,
    ) -> Archive {
        let mut archive = Archive::create(dir).unwrap();
        for i in 0..n {
            archive.rows.push(Row {
                global: i + 1,
                thread: format!("t{}", thread(i)),
                own: Some(format!("m{i}")),
                parents: parent(i).map(|p| format!("m{p}")).into_iter().collect(),
                date: format!("2024-01-{:02}T10:00:00Z", 1 + i % 28),
                from: "A <a@example.com>".into(),
                subject: format!("s{i}"),
                links: 0,
                references: References::default(),
                cited: links::Cited::default(),
            });
        }
        archive
    }

    /// The sizes of the files of `dir` whose names start with `prefix`.
    fn sizes(dir: &Path, prefix: &str) -> Vec<u64> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
            .map(|e| e.metadata().unwrap().len())
            .collect()
    }

    /// 100,000 messages in one thread (each answering the one at half its number: a
    /// binary tree 17 deep) go on over 200 thread pages of at most [`PAGE_ENTRIES`]
    /// messages, each listed once; a message with 50,000 replies lists
    /// [`MAX_REPLIES_SHOWN`] of them on its page.
    #[test]
    fn a_thread_of_100000_messages_is_paged() {
        let dir = std::env::temp_dir().join(format!("linkscan-wide-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let n = 100_000;
        let archive = synthetic(&dir, n, |_| 0, |i| (i > 0).then_some(i / 2));
        let plan = Plan::new(&archive.rows);
        assert_eq!(plan.tree.threads.len(), 1);
        assert_eq!(plan.tree.depth[n - 1], 17);
        let mut written = HashSet::new();
        archive.write_threads(&plan, &mut written).unwrap();
        assert_eq!(written.len(), n.div_ceil(PAGE_ENTRIES));
        let sizes = sizes(&dir, "t");
        assert_eq!(sizes.len(), written.len());
        assert!(
            sizes.iter().all(|&s| s < 256 << 10),
            "{:?}",
            sizes.iter().max()
        );
        let listed: usize = written
            .iter()
            .map(|name| {
                fs::read_to_string(dir.join(name))
                    .unwrap()
                    .matches("<li><a href=")
                    .count()
            })
            .sum();
        assert_eq!(listed, n);
        let flat = synthetic(&dir, 50_001, |_| 0, |i| (i > 0).then_some(0));
        let plan = Plan::new(&flat.rows);
        let links = flat.thread_links(&plan, 0).unwrap();
        assert_eq!(links.matches("<li>").count(), MAX_REPLIES_SHOWN + 1);
        assert!(links.contains("49950 more on the thread page"), "{links}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A month of 200,000 messages (threads of 100) goes on over 400 month pages of at
    /// most [`PAGE_ENTRIES`] messages; the front page has one row for it.
    #[test]
    fn a_month_of_200000_messages_is_paged() {
        let dir = std::env::temp_dir().join(format!("linkscan-month-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let n = 200_000;
        let archive = synthetic(&dir, n, |i| i / 100, |i| (i % 100 > 0).then(|| i - 1));
        let plan = Plan::new(&archive.rows);
        assert_eq!(plan.months.len(), 1);
        let mut written = HashSet::new();
        archive.write_months(&plan, &mut written).unwrap();
        assert_eq!(written.len(), n.div_ceil(PAGE_ENTRIES));
        assert!(written.contains("2024-01-400.html"));
        let sizes = sizes(&dir, "2024-01");
        assert!(
            sizes.iter().all(|&s| s < 256 << 10),
            "{:?}",
            sizes.iter().max()
        );
        let second = fs::read_to_string(dir.join("2024-01-2.html")).unwrap();
        assert!(second.contains("<span>Page 2 of 400</span>"), "{second}");
        archive.write_front(&plan).unwrap();
        let front = fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(front.contains("<td class=\"n\">200000</td><td class=\"n\">2000</td>"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
