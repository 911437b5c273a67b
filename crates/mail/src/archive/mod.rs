//! An HTML archive of mail, as a list publishes it: a page per message, a page per
//! thread, a page per month and a front page, in one folder.
//!
//! [`Archive`] writes the page of each message as it is given one
//! ([`Archive::write_message`] takes `&self` and may run on many threads at once; the
//! `linkscan` command runs it on its parallel scan), keeps a small row per message
//! ([`ArchivedMessage`], never its text), and [`Archive::finish`] writes the rest once
//! every message is known (the thread pages and feeds on the rayon pool too, each thread's
//! on one of its threads, since each copies its messages' texts from their pages).
//!
//! # The pages
//!
//! * `NNNNN.html`, one per message, numbered over all inputs in order: From, To, Cc, Date,
//!   Subject, Message-ID, the input and the message's place in it; then links to the
//!   previous and the next message of the archive, its month page and its thread page, the
//!   message it answers, its replies, and the previous and next message of its thread;
//!   the warnings of the message if any; every scanned text part with its links (see
//!   `page`); its text attachments drawn as text, a patch's lines told apart, and its
//!   other attachments linked or listed (`attach`, [`Attachments`]); the link to its
//!   download (`download`).
//! * `a/NNNNN/K-NAME.EXT`: the attachments of message `NNNNN` that its page links, named
//!   safely, never in a form a browser would run (`attach`).
//! * `NNNNN.txt`, `tNNNNN.mbox.gz`, `YYYY-MM.mbox.gz` ([`Archive::downloads`]): each
//!   message as sent (a piece of one over the size limit: the piece), each thread and
//!   each month as a gzipped mbox of every message it shows, each message's entry
//!   compressed once (`download`, `mboxes`, `members`); none when addresses are
//!   obfuscated.
//! * `tNNNNN.html` (`tNNNNN-2.html`, …), one per thread, named after its first message:
//!   the tree of the messages it holds as nested lists (so that the structure shows
//!   without the style sheet too), then each message in thread order (`threads`) with its
//!   author, date, a link to its page and its text as its page shows it, an anchor `mN`
//!   each, indented by reply depth (`posts`). A page holds at most
//!   [`THREAD_PAGE_MESSAGES`] messages and [`THREAD_PAGE_TEXT`] bytes of text (a longer
//!   message alone, whole); the thread goes on over numbered pages.
//! * `feed.atom` and `tNNNNN.atom`, one per thread (named like its first page): Atom
//!   feeds of the newest [`FEED_ENTRIES`] messages of the archive and of the thread, each
//!   entry with the message's text as plain text, [`ENTRY_TEXT`] bytes at most (`feeds`);
//!   the front page and the thread pages announce them in their head and link them.
//! * `YYYY-MM.html` (`YYYY-MM-2.html`, …; `undated.html`), one per month of the messages'
//!   UTC dates: the threads of the month as nested lists, in the order of their first
//!   message that month, each thread's messages of that month in thread order.
//! * `index.html`: what the archive is and its counts (messages, threads, URLs, email
//!   addresses), the newest threads, the inputs and their totals, and a table of the
//!   months, each with its number of messages and threads on its own row (`front`).
//! * `links.html`, a page per host and `links.json`: every URL the messages cite, by
//!   host, with the messages that cite it and the date it was first cited (`links`).
//! * With search ([`Archive::search`]): `search.html`, Pagefind's search box, linked from
//!   every page's navigation, and its index of the message pages in `pagefind/`
//!   (`search`).
//!
//! Dates are shown one way everywhere: the sender's date as written, and the same
//! instant in UTC (`date`). Nested lists are drawn at most [`MAX_NESTING`] levels deep;
//! a deeper reply is drawn at that depth, its depth written beside it.
//!
//! # Invariants
//!
//! * No page grows with the archive: a month page holds at most [`PAGE_ENTRIES`]
//!   messages, a thread page [`THREAD_PAGE_MESSAGES`] and [`THREAD_PAGE_TEXT`] bytes of
//!   text (or one longer message), and both go on over numbered pages, a message page lists at most
//!   [`MAX_REPLIES_SHOWN`] replies, a feed [`FEED_ENTRIES`] entries of [`ENTRY_TEXT`]
//!   bytes of text at most; only the front page grows, by a row per month.
//! * Memory: a row per message of at most a few KiB ([`MAX_ROW_FIELD`] per field), whatever
//!   the message; the pages are written as they come; the gzip members of the downloads
//!   are held up to 32 MiB in all, the rest in a scratch file (`members`). A thread page copies each text from
//!   its message's page, streamed, never held whole.
//! * Every text from a message is HTML-escaped; the only `href`s are the pages of this
//!   folder (names made of digits and fixed letters) and the links the detector made, each
//!   of a scheme the linkifier allows. Subjects and names are isolated (`<bdi>`) in their
//!   own direction, so a right-to-left subject reads right to left and moves nothing
//!   around it.
//! * With [`Addresses::Obfuscate`], no page or feed has a `mailto:` or an address: each address is
//!   written `name at example dot com`, in headers, in bodies, and in the lists; no
//!   attachment file holds one (text written obfuscated, other bytes that hold one not
//!   written), and no download is written.
//! * Memory of attachments: what the scan keeps of a message's attachments is at most
//!   the limit of [`Archive::attachments`] (10 MiB by default); a text attachment drawn
//!   on its page is at most 1 MiB ([`crate::MAX_INLINE_ATTACHMENT`]).
//! * One run at a time: an archive holds the folder's lock ([`LOCK_FILE`]) from
//!   [`Archive::create`] on; a second waits a few seconds, then refuses.
//! * Files are written without following links (`files`): a symbolic link under a page's
//!   name is replaced, its target untouched; pages an earlier run left that this one did
//!   not write are removed ([`Finished::removed`]).
//!
//! # Modules
//!
//! This module holds the API: [`Archive`] and its options, what it gives back
//! ([`Finished`], [`Updated`], [`InputTotals`]) and the writing of each message's page.
//! Beside it: `rows` (the row model: what is kept of each message, and where it is
//! shown), `lists` (the trees, the month pages), `posts` (the thread pages with their
//! texts), `feeds` (the Atom feeds), `front` (the front page), `heads` (the head of every page,
//! and what a message page shows around its text), `update` (the `--update` path),
//! `build` (an archive built on the parallel [`pipeline`](crate::pipeline), feature
//! `parallel`), and those they use: `body` (a message's body: its parts and
//! attachments), `attach`, `download`, `mboxes` (and the gzip members they are made of,
//! `members`), `text`, `page`, `links`, `threads`,
//! `date`, `state`, `files` (and whether the folder was empty, `fresh`) and `hash`.
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
//! // The reply's subject is its parent's: its link (to its text below) is its author
//! // and date; its text is there, with a link to its own page.
//! assert!(thread.contains("<a class=\"same\" href=\"#m2\">"));
//! assert!(thread.contains("<article class=\"post d1\" id=\"m2\">"));
//! assert!(thread.contains("<a class=\"own\" href=\"00002.html\">message 2</a>"));
//! assert!(thread.contains(">yes\n</pre>"));
//! assert!(!thread.contains("re: plans"));
//! let month = std::fs::read_to_string(dir.join("2024-01.html"))?;
//! assert!(month.contains("<ul class=\"thread\">"));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), std::io::Error>(())
//! ```

mod attach;
mod body;
#[cfg(feature = "parallel")]
mod build;
pub(crate) mod date;
mod download;
mod feeds;
mod files;
mod fresh;
mod front;
mod hash;
mod heads;
mod links;
mod lists;
mod mboxes;
mod members;
pub(crate) mod page;
mod posts;
mod rows;
pub mod search;
mod state;
mod text;
mod threads;
mod update;

use std::collections::HashSet;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Once;

use crate::{MailScanner, ScannedMessage, DEFAULT_MAX_MESSAGE_SIZE};
use linkscan::html::Linkifier;

pub use attach::{Attachments, DEFAULT_ATTACHMENT_LIMIT};
pub use feeds::{CUT, ENTRY_TEXT, FEED_ENTRIES};
pub use files::LOCK_FILE;
use files::{create_named, file_name, page_name, write_replacing, Output};
use page::{passes_checks, Style};
pub use rows::ArchivedMessage;
use rows::{Plan, Row};
use search::Pagefind;
pub use state::STATE_FILE;
use state::{Input, State};
use text::References;
use update::Before;

#[cfg(feature = "parallel")]
pub use build::Built;

/// `scanner` set to keep what an archive needs of each message to show its attachments
/// as `attachments` says, `limit` bytes of them per message at most
/// ([`MailScanner::keep_attachments`]), and, unless addresses are obfuscated, the
/// message's bytes for its download ([`MailScanner::keep_raw`]). Give the archive the
/// same choices ([`Archive::attachments`], [`Archive::addresses`]).
pub fn scanner(
    scanner: MailScanner,
    attachments: Attachments,
    limit: u64,
    addresses: Addresses,
) -> MailScanner {
    let scanner = scanner.keep_raw(addresses == Addresses::Show);
    match attachments {
        Attachments::None => scanner,
        Attachments::Link => scanner.keep_attachments(Some(limit)),
        Attachments::Inline => scanner
            .keep_attachments(Some(limit))
            .inline_text_attachments(true),
    }
}

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

/// The most messages on one month page; more go on numbered pages.
pub const PAGE_ENTRIES: usize = 500;

/// The most messages on one thread page, each with its text; more go on numbered pages.
pub const THREAD_PAGE_MESSAGES: usize = 50;

/// The most bytes of text (as written on the messages' pages) on one thread page, but for
/// a message longer than that, which has a page of its own; more go on numbered pages.
pub const THREAD_PAGE_TEXT: u64 = 1 << 20;

/// The deepest nesting drawn; deeper replies are drawn at this depth.
pub const MAX_NESTING: usize = 24;

/// The most replies a message page lists; its thread page has them all.
pub const MAX_REPLIES_SHOWN: usize = 50;

/// The most bytes of a field a row keeps: the lists show no more of a From or a Subject
/// (Message-IDs are kept as 64-bit hashes). So a row holds at most a few KiB whatever the
/// message.
pub const MAX_ROW_FIELD: usize = 512;

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
    /// Pages of the archive: messages, threads, months, links, the front page, and the
    /// feeds.
    pub pages: usize,
    /// Of those, the pages written by this run: all of them, but for an update
    /// ([`Archive::update`]), which writes only those that change.
    pub written: usize,
    /// Pages (and feeds) an earlier run left in the folder that this archive does not have, removed
    /// (the folders of attachments and the downloads it no longer has are removed too,
    /// and not counted).
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

/// How a warning names a message by its Message-ID: whole when it is short, else its
/// start, `…` and the XXH64 of the whole in 16 hex digits, so that a warning stays short
/// whatever the message.
pub fn short_message_id(id: &str) -> std::borrow::Cow<'_, str> {
    const SHORT: usize = 80;
    if id.len() <= SHORT {
        return id.into();
    }
    let mut end = SHORT - 24;
    while !id.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…{:016x}", &id[..end], hash::hash(id.as_bytes())).into()
}

/// The search page (`search.html`) of the archive named `name` as [`Archive::finish`]
/// writes it with search on: for tests that draw it without running Pagefind.
#[cfg(feature = "__test")]
#[doc(hidden)]
pub fn search_page(name: &str) -> Vec<u8> {
    let mut out = Vec::new();
    heads::write_search_page(name, &mut out).expect("writing to a Vec cannot fail");
    out
}

/// An HTML archive being built in a folder; see the [module](self) documentation.
#[derive(Debug)]
pub struct Archive {
    dir: PathBuf,
    linkifier: Linkifier,
    checks: bool,
    addresses: Addresses,
    /// How attachments are shown, and the most bytes of them written per message.
    attachments: Attachments,
    attachment_limit: u64,
    /// Downloads are written: each message as sent, each thread and month as an mbox.
    downloads: bool,
    rows: Vec<Row>,
    inputs: Vec<(String, InputTotals)>,
    /// The input of [`Archive::push`], and its totals so far.
    pushed: Option<(String, InputTotals)>,
    /// The mbox file read whole, and the key of the scanner's options
    /// ([`Archive::source`]).
    source: Option<(PathBuf, String)>,
    max_message_size: u64,
    /// The archive's title (`--title`), else the name of its list.
    title: Option<String>,
    /// The length and hash of the source ([`Archive::source`]) when the build started,
    /// once noted ([`Archive::note_source`]); `None` inside when it was no plain mbox.
    source_start: Option<Option<(u64, u64)>>,
    /// An update's start, and the input it read.
    before: Option<Before>,
    updated: Option<Input>,
    /// Removes the state file before the first page is written.
    stale_state: Once,
    /// The gzip member of each download this run wrote, for the mboxes.
    members: members::Members,
    /// Pagefind, when the archive is searchable ([`Archive::search`]).
    search: Option<Pagefind>,
    /// The folder held nothing but the lock when the run took it (`fresh`): the names
    /// the run writes the first time are free, created with no lookup before.
    fresh: bool,
    /// The folder's lock ([`LOCK_FILE`]), held as long as the archive is.
    _lock: fs::File,
}

impl Archive {
    /// An archive written to `dir`, created if missing. Pages already there are replaced
    /// as the new ones are written, and those the new archive does not have are removed by
    /// [`Archive::finish`].
    ///
    /// The archive holds the folder's lock ([`LOCK_FILE`]) until it is dropped: while
    /// another holds it (another run on the folder), `create` waits a few seconds for it,
    /// then fails with an error of kind [`io::ErrorKind::WouldBlock`] that names the
    /// folder.
    pub fn create(dir: impl Into<PathBuf>) -> io::Result<Archive> {
        let dir = dir.into();
        fs::create_dir_all(&dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        let lock = files::lock(&dir)?;
        let fresh = fresh::is_fresh(&dir);
        let members = members::Members::new(&dir);
        Ok(Archive {
            dir,
            linkifier: Linkifier::new(),
            checks: false,
            addresses: Addresses::Show,
            attachments: Attachments::Inline,
            attachment_limit: DEFAULT_ATTACHMENT_LIMIT,
            downloads: false,
            rows: Vec::new(),
            inputs: Vec::new(),
            pushed: None,
            source: None,
            source_start: None,
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
            title: None,
            before: None,
            updated: None,
            stale_state: Once::new(),
            members,
            search: None,
            fresh,
            _lock: lock,
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

    /// The archive's title, in place of the name of its list (see [`Archive::name`]); on
    /// every page, a message's page included.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        let title: String = title
            .into()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        self.title = (!title.is_empty()).then(|| rows::capped(&title));
        self
    }

    /// The archive's name, as its pages show it (escaped when written): the title
    /// ([`Archive::title`]), else the name of the list most of its messages came through
    /// ([`ScannedMessage::list_name`], of their `List-Id`; on a tie, the one met first),
    /// else `Mail archive`. With [`Addresses::Obfuscate`], its addresses obfuscated.
    pub fn name(&self) -> String {
        if let Some(title) = &self.title {
            return self.style().said(title);
        }
        let mut counts: std::collections::HashMap<&str, (usize, usize)> =
            std::collections::HashMap::new();
        for (k, row) in self.rows.iter().enumerate() {
            if !row.list.is_empty() {
                counts.entry(&row.list).or_insert((0, k)).0 += 1;
            }
        }
        counts
            .into_iter()
            .max_by_key(|&(_, (n, first))| (n, std::cmp::Reverse(first)))
            .map_or_else(|| "Mail archive".to_string(), |(name, _)| name.to_string())
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

    /// How attachments are shown (default [`Attachments::Inline`]), and the most bytes
    /// of them written per message (default [`DEFAULT_ATTACHMENT_LIMIT`]). The pages show
    /// what the scan kept: give the archive's scanner the same choice
    /// ([`scanner`]); a scan that kept none lists them as `Not shown`.
    pub fn attachments(mut self, attachments: Attachments, limit: u64) -> Self {
        self.attachments = attachments;
        self.attachment_limit = limit;
        self
    }

    /// Whether the archive offers downloads (default: no): each message as sent
    /// (`NNNNN.txt`, from [`ScannedMessage::raw`]: give it a scanner that keeps them,
    /// [`scanner`]) and each thread and month as a gzipped mbox (`tNNNNN.mbox.gz`,
    /// `YYYY-MM.mbox.gz`). With [`Addresses::Obfuscate`] none is written, since they would
    /// publish addresses, and the pages say so.
    pub fn downloads(mut self, yes: bool) -> Self {
        self.downloads = yes;
        self
    }

    /// Whether downloads are written.
    fn offers_downloads(&self) -> bool {
        self.downloads && self.addresses == Addresses::Show
    }

    fn shown(&self) -> body::Shown {
        body::Shown {
            attachments: self.attachments,
            limit: self.attachment_limit,
        }
    }

    /// Makes the archive searchable in the browser with `pagefind` (see [`search`]): the
    /// message pages say what it indexes, every page links to `search.html`, and
    /// [`Archive::finish`] runs it on the folder once the pages are written.
    pub fn search(mut self, pagefind: Pagefind) -> Self {
        self.search = Some(pagefind);
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
        let names = match self.attachments {
            Attachments::None => vec![None; m.skipped().len()],
            _ => attach::file_names(m, self.addresses),
        };
        attach::write_files(&self.dir, global, m, &names, self.addresses, self.fresh)?;
        let raw = download::write_raw(&self.dir, global, m, self.offers_downloads(), self.fresh)?;
        if let (Some(_), Some(bytes)) = (raw, m.raw()) {
            self.members.add(global, bytes)?;
        }
        let (body_len, text_start) = self
            .write_page(&path, file, index, global, m, &names, raw, &mut references)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let counted = || {
            m.parts()
                .iter()
                .flat_map(|p| p.links().iter().map(move |link| (p.text(), link)))
                .filter(|(text, link)| !self.checks || passes_checks(text, m.piece_offset(), link))
        };
        let links = if self.checks {
            counted().count()
        } else {
            m.link_count()
        };
        let mut row = Row::new(m, global, index, links, references, self.addresses);
        row.addresses = counted()
            .filter(|(_, link)| link.kind() == linkscan::LinkKind::Email)
            .count();
        row.body_len = body_len;
        row.text_start = text_start;
        row.text_len = body_len - text_start;
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
        if self.rows.is_empty() && self.pushed.is_none() {
            self.note_source()?;
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

    /// Writes the page of `m` but for its links to the others; returns its length and where
    /// its text starts (after the headers and the warnings). The
    /// page goes to its file as it is made (through a buffer), never whole in memory: a
    /// message with a link every few bytes makes a page over ten times its size.
    #[allow(clippy::too_many_arguments)]
    fn write_page(
        &self,
        path: &Path,
        file: &str,
        index: usize,
        global: usize,
        m: &ScannedMessage,
        names: &[Option<String>],
        raw: Option<u64>,
        references: &mut References,
    ) -> io::Result<(u64, u64)> {
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut out = Counted {
            inner: io::BufWriter::with_capacity(1 << 16, create_named(path, self.fresh)?),
            written: 0,
        };
        let text_start = self
            .write_page_to(file, index, global, m, names, raw, references, &mut out)
            .map_err(named)?;
        let len = out.written;
        let replacing = out.inner.into_inner().map_err(|e| named(e.into_error()))?;
        replacing.finish()?;
        Ok((len, text_start))
    }

    /// The page of [`Archive::write_page`], into `out`; returns the length of its head (the
    /// headers and warnings), where its text starts.
    #[allow(clippy::too_many_arguments)]
    fn write_page_to(
        &self,
        file: &str,
        index: usize,
        global: usize,
        m: &ScannedMessage,
        names: &[Option<String>],
        raw: Option<u64>,
        references: &mut References,
        out: &mut impl Write,
    ) -> io::Result<u64> {
        let style = self.style();
        let list = self.title.as_deref().or(m.list_name());
        let mut head = Counted {
            inner: &mut *out,
            written: 0,
        };
        heads::write_message_head(
            m,
            file,
            index,
            list,
            style,
            self.search.is_some(),
            &mut head,
        )?;
        let text_start = head.written;
        body::write_body(m, global, names, self.shown(), style, references, out)?;
        if self.downloads {
            download::write_link(global, raw, m.is_piece(), self.addresses, out)?;
        }
        Ok(text_start)
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
        let name = self.name();
        let before = self.before.take();
        // The message pages first: the thread pages copy their text once it is whole.
        let kept = before.as_ref().map_or(0, |b| b.messages);
        let messages_written = self.link_pages(&plan, kept)?;
        let mut output = Output::new(&self.dir, before.as_ref().map(|b| &b.pages));
        output.fresh = self.fresh;
        self.write_threads(&plan, &name, &mut output)?;
        self.write_feeds(&plan, &name, &mut output)?;
        self.write_months(&plan, &name, &mut output)?;
        self.write_front(&plan, &name, &mut output)?;
        let citing: Vec<links::Citing> = self
            .rows
            .iter()
            .map(|r| links::Citing {
                global: r.global,
                date: &r.date,
                urls: &r.cited.urls,
            })
            .collect();
        let searched = self.search.is_some();
        links::write(&mut output, &citing, &self.linkifier, &name, searched)?;
        if searched {
            let mut out = Vec::new();
            heads::write_search_page(&name, &mut out)?;
            output.put(search::SEARCH_PAGE.to_string(), &out)?;
        }
        let (pages, written) = (output.pages, output.written);
        let made = std::mem::replace(&mut self.members, members::Members::new(&self.dir));
        let (_, mbox_names) = mboxes::write(
            &self.dir,
            &plan,
            &self.rows,
            kept,
            &made,
            self.offers_downloads(),
            self.fresh,
        )?;
        drop(made);
        let mut names: HashSet<String> = pages.keys().cloned().collect();
        names.extend(self.rows.iter().map(|r| page_name(r.global)));
        // What an earlier run left (or a stopped one, or a page written without its row),
        // in one listing of the folder; `removed` counts pages and feeds only.
        let messages = self.rows.len();
        let removed = files::remove_stale(&self.dir, |name| {
            if (files::is_page_name(name) || feeds::is_feed_name(name)) && !names.contains(name) {
                files::Stale::Page
            } else if download::is_stale(name, messages)
                || (mboxes::is_mbox_name(name) && !mbox_names.contains(name))
            {
                files::Stale::Other
            } else {
                files::Stale::Keep
            }
        })?;
        attach::remove_stale(&self.dir, messages)?;
        let input = match self.updated.take() {
            Some(input) => Some(input),
            None => self.read_source()?,
        };
        let state = State {
            options: self.options_key(),
            input,
            inputs: self
                .inputs
                .iter()
                .map(|(name, totals)| (self.style().said(name), *totals))
                .collect(),
            pages,
            rows: std::mem::take(&mut self.rows),
        };
        let text = state.to_text();
        self.rows = state.rows;
        // The index last, of the pages as they are now; an index of an earlier run made
        // with search goes with it.
        match &self.search {
            Some(pagefind) => pagefind.index(&self.dir)?,
            None => search::remove_index(&self.dir)?,
        }
        write_replacing(&self.dir.join(STATE_FILE), text.as_bytes())?;
        // Past its end the run knows no name free: a later `finish` looks each up.
        self.fresh = false;
        Ok(Finished {
            pages: names.len(),
            written: written + messages_written,
            removed,
        })
    }

    /// Ends a run whose inputs could not all be read (one missing, damaged, or stopped
    /// early) in place of [`Archive::finish`]: the message pages it wrote get their links
    /// to each other, and nothing else of the folder changes. No list page is written, no
    /// page is removed (an archive built before stays whole, but for the pages this run
    /// wrote again), and no state file is written: one of an earlier run stays when this
    /// run wrote no page, and once it wrote one the folder has none, so that the next
    /// update builds it whole.
    pub fn finish_incomplete(&mut self) -> io::Result<Finished> {
        if let Some(pushed) = self.pushed.take() {
            self.inputs.push(pushed);
        }
        self.before = None;
        self.updated = None;
        if self.rows.is_empty() {
            return Ok(Finished::default());
        }
        self.rows.sort_by_key(|r| r.global);
        let plan = Plan::new(&self.rows);
        let written = self.link_pages(&plan, 0)?;
        Ok(Finished {
            pages: self.rows.len(),
            written,
            removed: 0,
        })
    }

    /// What the pages depend on beyond the messages: the scanner's options
    /// ([`Archive::source`]) and the archive's own.
    fn options_key(&self) -> String {
        let scanner = self.source.as_ref().map_or("", |(_, key)| key.as_str());
        format!(
            "scanner {scanner}; pages {}; checks {} addresses {:?} max-message-size {} title {}{}",
            linkscan::__private::linkifier_key(&self.linkifier),
            self.checks,
            self.addresses,
            self.max_message_size,
            // A hash: the state names no address.
            self.title.as_ref().map_or_else(
                || "-".to_string(),
                |t| format!("{:016x}", hash::hash(t.as_bytes()))
            ),
            match self.attachments {
                // The key of an archive that writes no attachment stays as it was.
                Attachments::None => String::new(),
                a => format!(" attachments {a:?} {}", self.attachment_limit),
            } + if self.downloads { " downloads" } else { "" }
                + if self.search.is_some() { " search" } else { "" }
        )
    }
}

/// A writer that counts the bytes written through it.
struct Counted<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
