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
//! use linkscan_mail::archive::Archive;
//! use linkscan_mail::{open_mbox, MailScanner, MboxReader};
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
mod hash;
pub mod links;
pub(crate) mod page;
mod state;
mod text;
mod threads;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{self, File};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Once;

use crate::splitter::{unescape, MboxSplitter, Split};
use crate::{MailScanner, ScannedMessage};
use linkscan::html::{write_escaped, Linkifier};

use date::Instant;
use files::{write_replacing, Output};
use hash::Hash64;
use page::{
    human_size, obfuscated_text, passes_checks, write_address_field, write_linkified, Style,
};
pub use state::STATE_FILE;
use state::{Input, State};
use text::{id_hash, References};
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

/// The most bytes of a field a row keeps: the lists show no more of a From or a Subject
/// (Message-IDs are kept as 64-bit hashes). So a row holds at most a few KiB whatever the
/// message.
pub const MAX_ROW_FIELD: usize = 512;

/// The size past which a message of an mbox is scanned as raw text in pieces, unless
/// [`Archive::max_message_size`] says otherwise (as `--max-message-size`): 32 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: u64 = 32 << 20;

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
        8 * (2 + r.parents.len() + r.references.cited.len())
            + r.date.len()
            + r.from.len()
            + r.subject.len()
            + r.cited.held()
    }
}

/// One message's row: what the lists and the links between pages need, and what an
/// update needs of the page (the state file keeps the rows).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    global: usize,
    /// The message's place in its input, from 1 (the pieces of an over-limit message
    /// share it).
    index: usize,
    /// The thread root's key (`threads`): Message-IDs are kept as [`id_hash`]es.
    thread: u64,
    own: Option<u64>,
    /// In-Reply-To, then the last References, nearest first.
    parents: Vec<u64>,
    date: String,
    /// As the lists show it: with [`Addresses::Obfuscate`], its addresses obfuscated.
    from: String,
    /// As the lists show it (so too).
    subject: String,
    /// Links counted on the pages (those that pass the checks, with checks on).
    links: usize,
    /// Links of the message and warnings of its scan, as an input's totals count them.
    links_all: usize,
    warnings: usize,
    /// The message's own Message-ID, and the Message-IDs its text parts cite.
    references: References,
    /// The URLs it cites, for the links pages.
    cited: links::Cited,
    /// The bytes of its page before the links to the others, and the hash of those links
    /// (`Archive::link_pages`): what an update rewrites.
    body_len: u64,
    end_hash: u64,
}

impl Row {
    fn new(
        m: &ScannedMessage,
        global: usize,
        index: usize,
        links: usize,
        references: References,
        addresses: Addresses,
    ) -> Row {
        let page = page_name(global);
        let root = m
            .references()
            .first()
            .map(String::as_str)
            .or(m.in_reply_to())
            .or(m.message_id())
            .unwrap_or(&page);
        let mut parents: Vec<u64> = m.in_reply_to().map(id_hash).into_iter().collect();
        for id in m.references().iter().rev().take(MAX_PARENT_KEYS) {
            let key = id_hash(id);
            if !parents.contains(&key) {
                parents.push(key);
            }
        }
        let shown = |s: &str| match addresses {
            Addresses::Show => capped(s),
            Addresses::Obfuscate => obfuscated_text(&capped(s)),
        };
        Row {
            global,
            index,
            thread: id_hash(root),
            own: m.message_id().map(id_hash),
            parents,
            date: capped(m.date().unwrap_or_default()),
            from: shown(m.from().unwrap_or_default()),
            subject: shown(m.subject().unwrap_or("(no subject)")),
            links,
            links_all: m.link_count(),
            warnings: m.warnings().len(),
            references,
            cited: links::Cited::default(),
            body_len: 0,
            end_hash: 0,
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
    /// Pages of the archive: messages, threads, months, links, the front page.
    pub pages: usize,
    /// Of those, the pages written by this run: all of them, but for an update
    /// ([`Archive::update`]), which writes only those that change.
    pub written: usize,
    /// Pages an earlier run left in the folder that this archive does not have, removed.
    pub removed: usize,
}

/// What [`Archive::update`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Updated {
    /// The pages are those of the whole input: `added` messages were read (the last
    /// message of the last run is read again, and counted), and `warnings` are those of
    /// their reading and scanning (`message N <ID>: …`).
    Done {
        /// Messages read (over-limit pieces count once).
        added: usize,
        /// What [`Archive::finish`] did.
        finished: Finished,
        /// The warnings of the messages read.
        warnings: Vec<String>,
    },
    /// The folder cannot be updated from this input, for the reason given; nothing was
    /// written: build the archive whole.
    Rebuild(String),
}

/// What an update starts from: the pages the last run wrote.
#[derive(Debug)]
struct Before {
    /// The hashes of its pages other than the messages'.
    pages: BTreeMap<String, u64>,
    /// The rows kept from it (the messages before its last one).
    messages: usize,
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
    /// The mbox file read whole, and the key of the scanner's options
    /// ([`Archive::source`]).
    source: Option<(PathBuf, String)>,
    max_message_size: u64,
    /// An update's start, and the input it read.
    before: Option<Before>,
    updated: Option<Input>,
    /// Removes the state file before the first page is written.
    stale_state: Once,
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
            source: None,
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
            before: None,
            updated: None,
            stale_state: Once::new(),
        })
    }

    /// The one mbox file the archive is built from, and the scanner that reads it:
    /// [`Archive::finish`] then writes the state file ([`STATE_FILE`]) from which
    /// [`Archive::update`] can add what is appended to the file later. Without it (several
    /// inputs, a Maildir, bytes), the state names no input and an update rebuilds.
    pub fn source(mut self, mbox: impl Into<PathBuf>, scanner: &MailScanner) -> Self {
        self.source = Some((mbox.into(), scanner.options_key()));
        self
    }

    /// The size past which a message is scanned as raw text in pieces, as the reader of
    /// the build splits the input (default [`DEFAULT_MAX_MESSAGE_SIZE`]); an update
    /// splits what it reads the same way.
    pub fn max_message_size(mut self, limit: u64) -> Self {
        self.max_message_size = limit;
        self
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
        self.stale_state.call_once(|| {
            // A run that stops before it ends leaves no state that says otherwise.
            let _ = fs::remove_file(self.dir.join(STATE_FILE));
        });
        let mut references = References::of(m);
        let path = self.dir.join(page_name(global));
        let body_len = self
            .write_page(&path, file, index, m, &mut references)
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
        let mut row = Row::new(m, global, index, links, references, self.addresses);
        row.body_len = body_len;
        for part in m.parts() {
            for link in part.links() {
                // With addresses hidden, a URL that holds one is not listed (nor linked).
                if link.kind() == linkscan::LinkKind::Url
                    && (!self.checks || passes_checks(part.text(), m.piece_offset(), link))
                    && !(self.addresses == Addresses::Obfuscate && page::holds_address(link.href()))
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
    /// [`MboxMessage::warnings`](crate::MboxMessage::warnings)) on the front page.
    pub fn count_read_warnings(&mut self, n: usize) {
        if let Some((_, totals)) = &mut self.pushed {
            totals.warnings += n;
        }
    }

    /// Writes the page of `m` but for its links to the others; returns its length.
    fn write_page(
        &self,
        path: &Path,
        file: &str,
        index: usize,
        m: &ScannedMessage,
        references: &mut References,
    ) -> io::Result<u64> {
        let style = self.style();
        let mut out = Vec::new();
        let hide = self.addresses == Addresses::Obfuscate;
        // What a message says, as written on the page: with no address, when they are
        // hidden.
        let said = |s: &str| -> String {
            if hide {
                obfuscated_text(s)
            } else {
                s.to_string()
            }
        };
        let subject = said(m.subject().unwrap_or("(no subject)"));
        write_head_of(&mut out, &subject, "<body class=\"message\">")?;
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
            None => write_escaped(&subject, &mut out)?,
        }
        out.write_all(b"</td></tr>\n<tr><th>Message-ID</th><td>")?;
        match (m.message_id(), self.addresses) {
            (Some(id), Addresses::Obfuscate) => {
                write_escaped(&page::scrub(&page::obfuscated(id)), &mut out)?
            }
            (Some(id), Addresses::Show) => write_escaped(id, &mut out)?,
            (None, _) => {}
        }
        out.write_all(b"</td></tr>\n<tr><th>Archive</th><td dir=\"auto\">")?;
        write_escaped(
            &said(&format!("{}, message {index}", file_name(file))),
            &mut out,
        )?;
        out.write_all(b"</td></tr>\n</table>\n")?;
        if !m.warnings().is_empty() {
            out.write_all(b"<ul class=\"warnings\">\n")?;
            for w in m.warnings() {
                out.write_all(b"<li dir=\"auto\">")?;
                write_escaped(&said(&w.to_string()), &mut out)?;
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
                write_escaped(&said(part.name.as_deref().unwrap_or("(no name)")), &mut out)?;
                out.write_all(b"</bdi>, ")?;
                write_escaped(&part.content_type, &mut out)?;
                write!(
                    out,
                    ", <span title=\"{} bytes as sent\">{} encoded</span>",
                    part.size,
                    human_size(part.size)
                )?;
                out.write_all(b"</li>\n")?;
            }
            out.write_all(b"</ul></section>\n")?;
        }
        write_replacing(path, &out)?;
        Ok(out.len() as u64)
    }

    /// Writes the pages that need every message (threads, months, the front page, the
    /// links), the links of each message page to the others, the state file, and removes
    /// the pages of an earlier run that this archive does not have. After
    /// [`Archive::update`], writes only the pages that change.
    pub fn finish(&mut self) -> io::Result<Finished> {
        if let Some(pushed) = self.pushed.take() {
            self.inputs.push(pushed);
        }
        self.rows.sort_by_key(|r| r.global);
        let plan = Plan::new(&self.rows);
        let before = self.before.take();
        let mut output = Output::new(&self.dir, before.as_ref().map(|b| &b.pages));
        self.write_threads(&plan, &mut output)?;
        self.write_months(&plan, &mut output)?;
        self.write_front(&plan, &mut output)?;
        let citing: Vec<links::Citing> = self
            .rows
            .iter()
            .map(|r| links::Citing {
                global: r.global,
                date: &r.date,
                urls: &r.cited.urls,
            })
            .collect();
        links::write(&mut output, &citing, &self.linkifier)?;
        let (pages, written) = (output.pages, output.written);
        let messages_written = self.link_pages(&plan, before.as_ref().map_or(0, |b| b.messages))?;
        let mut names: HashSet<String> = pages.keys().cloned().collect();
        names.extend(self.rows.iter().map(|r| page_name(r.global)));
        let removed = files::remove_stale(&self.dir, &names)?;
        let input = match self.updated.take() {
            Some(input) => Some(input),
            None => self.read_source()?,
        };
        let state = State {
            options: self.options_key(),
            input,
            inputs: self.inputs.clone(),
            pages,
            rows: std::mem::take(&mut self.rows),
        };
        let text = state.to_text();
        self.rows = state.rows;
        write_replacing(&self.dir.join(STATE_FILE), text.as_bytes())?;
        Ok(Finished {
            pages: names.len(),
            written: written + messages_written,
            removed,
        })
    }

    /// What the pages depend on beyond the messages: the scanner's options
    /// ([`Archive::source`]) and the archive's own.
    fn options_key(&self) -> String {
        let scanner = self.source.as_ref().map_or("", |(_, key)| key.as_str());
        format!(
            "scanner {scanner}; pages {}; checks {} addresses {:?} max-message-size {}",
            linkscan::__private::linkifier_key(&self.linkifier),
            self.checks,
            self.addresses,
            self.max_message_size
        )
    }

    /// The state of the input of a full build ([`Archive::source`]), when it is one plain
    /// mbox file read whole: its length and hash, and where its last message starts. None
    /// otherwise, or when the file no longer holds the messages the archive has (it
    /// changed while being read).
    fn read_source(&self) -> io::Result<Option<Input>> {
        let Some((path, _)) = &self.source else {
            return Ok(None);
        };
        let name = file_name(&path.to_string_lossy());
        if self.inputs.len() != 1 || self.inputs[0].0 != name {
            return Ok(None);
        }
        let Ok(mut file) = File::open(path) else {
            return Ok(None);
        };
        if !is_plain_mbox(&mut file)? {
            return Ok(None);
        }
        let len = file.metadata()?.len();
        let mut hasher = Hash64::new();
        let mut last = None;
        split_file(
            &mut file,
            0,
            len,
            self.max_message_size,
            &mut hasher,
            0,
            |split, _| {
                if let Split::Message(m) = &split {
                    last = Some((m.offset, m.index, m.warnings.len()));
                } else if let Split::Chunk(c) = &split {
                    match &mut last {
                        Some((offset, index, warnings)) if *offset == c.offset => {
                            *warnings += c.warnings.len();
                            let _ = index;
                        }
                        _ => last = Some((c.offset, c.index, c.warnings.len())),
                    }
                }
                Ok(())
            },
        )?;
        let Some((last_offset, last_index, last_split_warnings)) = last else {
            return Ok(None);
        };
        let messages = self.inputs[0].1.messages;
        if last_index != messages || self.rows.last().map(|r| r.index) != Some(last_index) {
            return Ok(None);
        }
        Ok(Some(Input {
            name,
            len,
            hash: hasher.finish(),
            last_offset,
            last_index,
            last_split_warnings,
        }))
    }

    /// Adds to the archive in `dir` the messages appended to `mbox` since the run that
    /// wrote it, and writes the pages they change: theirs, those of the messages whose
    /// links change (the previous message, the parents of replies, …), their threads and
    /// months, the front page and the links pages. The folder is then as a full build of
    /// the whole `mbox` makes it, byte for byte.
    ///
    /// The state file of `dir` ([`STATE_FILE`], written by every [`Archive::finish`])
    /// says what the pages were built from. When there is none, when it is damaged, when
    /// it was built from other options or from other inputs than this one plain mbox
    /// file (gzip, Maildir, several inputs: those are rebuilt), when `mbox` no longer
    /// starts with the bytes it was built from (rewritten, not appended to), or when a
    /// message to read is over the size limit (its pieces are cut where the reads of a
    /// build fall, which an update cannot reproduce), nothing is
    /// written and the answer is [`Updated::Rebuild`] with the reason: build the archive
    /// whole (the same `Archive`, which is still empty, can). The new messages are read
    /// on this thread, the last message of the last run again (bytes appended to a file
    /// may still be part of it).
    ///
    /// ```
    /// use linkscan_mail::archive::{Archive, Updated};
    /// use linkscan_mail::MailScanner;
    /// let dir = std::env::temp_dir().join(format!("linkscan-doc-update-{}", std::process::id()));
    /// let mbox = dir.with_extension("mbox");
    /// let one = "From a@example.com Mon Jan  1 00:00:00 2024\n\
    ///            Message-ID: <1@example.com>\nSubject: plans\n\nsee example.com\n\n";
    /// let two = "From b@example.com Mon Jan  1 00:00:00 2024\n\
    ///            Message-ID: <2@example.com>\nIn-Reply-To: <1@example.com>\n\
    ///            Subject: re: plans\n\nyes\n\n";
    /// std::fs::write(&mbox, one)?;
    /// let scanner = MailScanner::new();
    /// // The first run finds no state, and the archive is built whole.
    /// let mut archive = Archive::create(&dir)?;
    /// assert!(matches!(archive.update(&mbox, &scanner)?, Updated::Rebuild(_)));
    /// let mut archive = Archive::create(&dir)?.source(&mbox, &scanner);
    /// let file = std::io::BufReader::new(std::fs::File::open(&mbox)?);
    /// for m in linkscan_mail::MboxReader::new(file) {
    ///     archive.push(&mbox.to_string_lossy(), &scanner.scan(m?.bytes()))?;
    /// }
    /// archive.finish()?;
    /// // A message is appended: the update reads it (and the last one again).
    /// std::fs::write(&mbox, format!("{one}{two}"))?;
    /// let mut archive = Archive::create(&dir)?;
    /// let Updated::Done { added, .. } = archive.update(&mbox, &scanner)? else {
    ///     panic!("not updated")
    /// };
    /// assert_eq!(added, 2);
    /// assert!(std::fs::read_to_string(dir.join("00001.html"))?.contains("00002.html"));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # std::fs::remove_file(&mbox)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn update(&mut self, mbox: impl AsRef<Path>, scanner: &MailScanner) -> io::Result<Updated> {
        let mbox = mbox.as_ref();
        self.source = Some((mbox.to_path_buf(), scanner.options_key()));
        let rebuild = |why: String| Ok(Updated::Rebuild(why));
        let state = match State::load(&self.dir) {
            Ok(Some(state)) => state,
            Ok(None) => return rebuild(format!("no {STATE_FILE} from an earlier run")),
            Err(e) => return rebuild(format!("{STATE_FILE} cannot be used: {e}")),
        };
        if state.options != self.options_key() {
            return rebuild("it was built with other options".into());
        }
        let name = file_name(&mbox.to_string_lossy());
        let Some(input) = state.input else {
            return rebuild(
                "it was not built from one plain mbox file (an update reads one, appended to)"
                    .into(),
            );
        };
        if input.name != name {
            return rebuild(format!("it was built from {:?}, not {name:?}", input.name));
        }
        let mut file = File::open(mbox)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", mbox.display())))?;
        if !is_plain_mbox(&mut file)? {
            return rebuild(format!(
                "{name} is not a plain mbox file (gzip, or CR line ends)"
            ));
        }
        let len = file.metadata()?.len();
        if len < input.len {
            return rebuild(format!(
                "{name} is shorter than when it was built: it was rewritten"
            ));
        }
        let mut hasher = Hash64::new();
        let mut reader = (&mut file).take(input.len);
        let mut buf = vec![0; 1 << 20];
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            hasher.update(&buf[..n]);
        }
        drop(buf);
        if hasher.finish() != input.hash {
            return rebuild(format!(
                "{name} no longer starts with what was built: it was rewritten, not appended to"
            ));
        }
        let (Some((_, totals)), 1) = (state.inputs.first(), state.inputs.len()) else {
            return rebuild("its totals are not those of one input".into());
        };
        let mut totals = *totals;
        if len == input.len {
            return Ok(Updated::Done {
                added: 0,
                finished: Finished {
                    pages: state.pages.len() + state.rows.len(),
                    written: 0,
                    removed: 0,
                },
                warnings: Vec::new(),
            });
        }
        // A message over the size limit is read in pieces cut where the reads of the
        // build fell, which an update, reading from elsewhere, cannot cut the same way.
        let mut pieces = false;
        split_file(
            &mut file,
            input.last_offset,
            len,
            self.max_message_size,
            &mut Hash64::new(),
            len,
            |split, _| {
                pieces |= matches!(split, Split::Chunk(_));
                Ok(())
            },
        )?;
        if pieces {
            return rebuild(format!(
                "a message to read is over the size limit of {} bytes, read in pieces that \
                 only a whole build cuts as it does",
                self.max_message_size
            ));
        }
        // From here on the folder changes: without a state until it is whole again.
        fs::remove_file(self.dir.join(STATE_FILE))?;
        self.stale_state.call_once(|| {});
        let mut rows = state.rows;
        let keep = rows.partition_point(|r| r.index < input.last_index);
        let dropped = rows.split_off(keep);
        totals.messages -= usize::from(!dropped.is_empty()).min(totals.messages);
        totals.links -= dropped
            .iter()
            .map(|r| r.links_all)
            .sum::<usize>()
            .min(totals.links);
        let warned = input.last_split_warnings + dropped.iter().map(|r| r.warnings).sum::<usize>();
        totals.warnings -= warned.min(totals.warnings);
        self.rows = rows;
        self.before = Some(Before {
            pages: state.pages,
            messages: keep,
        });
        let display = mbox.to_string_lossy().into_owned();
        let mut warnings = Vec::new();
        let mut added = 0;
        let mut last = (input.last_offset, input.last_index, 0);
        let base_index = input.last_index - 1;
        split_file(
            &mut file,
            input.last_offset,
            len,
            self.max_message_size,
            &mut hasher,
            input.len,
            |split, buf| {
                let (scanned, index, offset, first, split_warnings) = match &split {
                    Split::Message(m) => {
                        let bytes = &buf[m.range.clone()];
                        let scanned = if m.escaped {
                            scanner.scan(&unescape(bytes))
                        } else {
                            scanner.scan(bytes)
                        };
                        (scanned, m.index, m.offset, true, &m.warnings)
                    }
                    Split::Chunk(c) => {
                        let at = usize::try_from(c.start_in_message).unwrap_or(usize::MAX);
                        let scanned = scanner.scan_raw(&buf[c.range.clone()], at);
                        (scanned, c.index, c.offset, c.first, &c.warnings)
                    }
                };
                let index = base_index + index;
                let offset = input.last_offset + offset;
                let global = self.rows.len() + 1;
                let message = self.write_message(&display, index, global, &scanned)?;
                added += usize::from(first);
                totals.messages += usize::from(first);
                totals.links += scanned.link_count();
                totals.warnings += split_warnings.len() + scanned.warnings().len();
                let id = scanned
                    .message_id()
                    .map(|id| format!(" <{id}>"))
                    .unwrap_or_default();
                for w in split_warnings
                    .iter()
                    .map(ToString::to_string)
                    .chain(scanned.warnings().iter().map(ToString::to_string))
                {
                    warnings.push(format!("message {index}{id}: {w}"));
                }
                if last.0 == offset && !first {
                    last.2 += split_warnings.len();
                } else {
                    last = (offset, index, split_warnings.len());
                }
                self.add(message);
                Ok(())
            },
        )?;
        self.inputs = vec![(name.clone(), totals)];
        self.updated = Some(Input {
            name,
            len,
            hash: hasher.finish(),
            last_offset: last.0,
            last_index: last.1,
            last_split_warnings: last.2,
        });
        let finished = self.finish()?;
        Ok(Updated::Done {
            added,
            finished,
            warnings,
        })
    }
}

/// Whether `file` is read as it is by the mbox reader: not gzip, lines not ended by CR
/// alone (those are read through a decoder, which an update cannot resume).
fn is_plain_mbox(file: &mut File) -> io::Result<bool> {
    let mut head = Vec::new();
    file.seek(io::SeekFrom::Start(0))?;
    (&mut *file).take(64 << 10).read_to_end(&mut head)?;
    file.seek(io::SeekFrom::Start(0))?;
    Ok(!crate::is_gzip(&head) && !crate::has_cr_line_ends(&head))
}

/// Splits `file[from..end]` into messages as the mbox reader does ([`MboxSplitter`], with
/// size limit `limit`), handing each to `each` with the buffer its ranges are in; the
/// bytes from `hash_from` on are added to `hasher`.
fn split_file(
    file: &mut File,
    from: u64,
    end: u64,
    limit: u64,
    hasher: &mut Hash64,
    hash_from: u64,
    mut each: impl FnMut(Split, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    const READ: usize = 1 << 20;
    file.seek(io::SeekFrom::Start(from))?;
    let mut reader = (&mut *file).take(end - from);
    let mut splitter = MboxSplitter::new(limit);
    let mut buf: Vec<u8> = Vec::new();
    let mut at = from;
    let mut out = Vec::new();
    loop {
        let have = buf.len();
        buf.resize(have + READ, 0);
        let n = loop {
            match reader.read(&mut buf[have..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        buf.truncate(have + n);
        let read = &buf[have..];
        let skip = usize::try_from(hash_from.saturating_sub(at)).unwrap_or(usize::MAX);
        if skip < read.len() {
            hasher.update(&read[skip..]);
        }
        at += n as u64;
        let at_end = n == 0;
        let consumed = splitter.split(&buf, at_end, &mut out);
        for split in out.drain(..) {
            each(split, &buf)?;
        }
        buf.drain(..consumed);
        if at_end {
            if at != end {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the file shrank while it was read",
                ));
            }
            return Ok(());
        }
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
                thread: r.thread,
                own: r.own,
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
        write_escaped(&row.from, out)?;
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

    fn write_threads(&self, plan: &Plan, output: &mut Output<'_>) -> io::Result<()> {
        for thread in &plan.tree.threads {
            let first = &self.rows[thread[0]];
            let base = format!("t{:05}", first.global);
            let pages = thread.len().div_ceil(PAGE_ENTRIES);
            for (k, chunk) in thread.chunks(PAGE_ENTRIES).enumerate() {
                let name = paged_name(&base, k);
                let mut out = Vec::new();
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
                output.put(name, &out)?;
            }
        }
        Ok(())
    }

    fn write_months(&self, plan: &Plan, output: &mut Output<'_>) -> io::Result<()> {
        for (k, (month, list)) in plan.months.iter().enumerate() {
            let pages = list.len().div_ceil(PAGE_ENTRIES);
            let label = if month == "undated" { "Undated" } else { month };
            for (p, chunk) in list.chunks(PAGE_ENTRIES).enumerate() {
                let name = paged_name(month, p);
                let mut out = Vec::new();
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
                output.put(name, &out)?;
            }
        }
        Ok(())
    }

    fn write_front(&self, plan: &Plan, output: &mut Output<'_>) -> io::Result<()> {
        let mut out = Vec::new();
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
        output.put("index.html".to_string(), &out)
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
    /// to their pages ([`text`]). Records in each row the length of its page before those
    /// links and their hash.
    ///
    /// The first `kept` rows are an update's, whose pages are whole already: such a page
    /// is rewritten only when its links change or it cites a message the update added
    /// (its text up to the recorded length, with those citations made links, and the new
    /// links). Returns how many pages were written.
    fn link_pages(&mut self, plan: &Plan, kept: usize) -> io::Result<usize> {
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
            let end_hash = hash::hash(end.as_bytes());
            let r = &row.references;
            if m < kept {
                let cites_added = r.more || r.cited.iter().any(added);
                if end_hash == row.end_hash && !cites_added {
                    return Ok(None);
                }
                let html = fs::read_to_string(&path).map_err(named)?;
                let body = usize::try_from(row.body_len)
                    .ok()
                    .and_then(|n| html.get(..n))
                    .ok_or_else(|| {
                        named(io::Error::new(
                            io::ErrorKind::InvalidData,
                            "the page is not as the last run wrote it",
                        ))
                    })?;
                let body = if cites_added {
                    text::resolve(body, obfuscated, page_of)
                } else {
                    body.to_string()
                };
                write_replacing(&path, format!("{body}{end}").as_bytes())?;
                return Ok(Some((body.len() as u64, end_hash)));
            }
            if r.more || r.cited.iter().any(|id| pages.contains_key(id)) {
                let html = fs::read_to_string(&path).map_err(named)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MailScanner;

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
        let new = |m: &ScannedMessage, global| {
            Row::new(m, global, 1, 0, References::default(), Addresses::Show)
        };
        let row = new(&m, 1);
        let held = ArchivedMessage { row }.held();
        assert!(held <= 8 * MAX_ROW_FIELD, "{held} bytes");
        let row = new(&m, 1);
        // Two roots that differ only past the kept start are still two threads.
        let other = raw.replace(&format!("{id}@"), &format!("{id}y@"));
        let row2 = new(&scanner.scan(other.as_bytes()), 2);
        assert_ne!(row.thread, row2.thread);
        let same = new(&m, 3);
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
                index: i + 1,
                thread: id_hash(&format!("t{}", thread(i))),
                own: Some(id_hash(&format!("m{i}"))),
                parents: parent(i)
                    .map(|p| id_hash(&format!("m{p}")))
                    .into_iter()
                    .collect(),
                date: format!("2024-01-{:02}T10:00:00Z", 1 + i % 28),
                from: "A <a@example.com>".into(),
                subject: format!("s{i}"),
                links: 0,
                links_all: 0,
                warnings: 0,
                references: References::default(),
                cited: links::Cited::default(),
                body_len: 0,
                end_hash: 0,
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
        let mut output = Output::new(&dir, None);
        archive.write_threads(&plan, &mut output).unwrap();
        let written = output.pages;
        assert_eq!(written.len(), n.div_ceil(PAGE_ENTRIES));
        let sizes = sizes(&dir, "t");
        assert_eq!(sizes.len(), written.len());
        assert!(
            sizes.iter().all(|&s| s < 256 << 10),
            "{:?}",
            sizes.iter().max()
        );
        let listed: usize = written
            .keys()
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
        let mut output = Output::new(&dir, None);
        archive.write_months(&plan, &mut output).unwrap();
        let written = output.pages;
        assert_eq!(written.len(), n.div_ceil(PAGE_ENTRIES));
        assert!(written.contains_key("2024-01-400.html"));
        let sizes = sizes(&dir, "2024-01");
        assert!(
            sizes.iter().all(|&s| s < 256 << 10),
            "{:?}",
            sizes.iter().max()
        );
        let second = fs::read_to_string(dir.join("2024-01-2.html")).unwrap();
        assert!(second.contains("<span>Page 2 of 400</span>"), "{second}");
        archive
            .write_front(&plan, &mut Output::new(&dir, None))
            .unwrap();
        let front = fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(front.contains("<td class=\"n\">200000</td><td class=\"n\">2000</td>"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
