//! The row model: what the archive keeps of each message once its page is written, and
//! where each message is shown.
//!
//! A [`Row`] holds what the lists and the links between pages need (the thread keys as
//! hashes, the date, From and Subject as the lists show them, the counts, the cited
//! Message-IDs and URLs) and what an update needs of the page (the length of its text
//! and the hash of its links); [`ArchivedMessage`] hands it from the worker that wrote
//! the page to [`Archive::add`](super::Archive::add). A [`Plan`] places the rows: each
//! message's thread (`threads`) and month, and the pages they fall on.
//!
//! # Invariants
//!
//! * Bounded: each text field is cut to [`MAX_ROW_FIELD`] bytes ([`capped`]), a row keeps
//!   [`MAX_PARENT_KEYS`] parents at most, and its citations are bounded by `text` and
//!   `links`; never a message's text. So a row holds a few KiB whatever the message.
//! * With [`Addresses::Obfuscate`], the From and Subject a row keeps are obfuscated
//!   already: no list can show an address.
//! * Months are those of the UTC instant; a message without a date is `undated`, last.

use std::collections::HashMap;
use std::io::{self, Write};

use crate::ScannedMessage;
use linkscan::html::write_escaped;

use super::date::{self, Instant};
use super::files::{page_name, paged_name};
use super::page::obfuscated_text;
use super::text::{id_hash, References};
use super::threads::{Keys, Tree};
use super::{Addresses, MAX_ROW_FIELD, PAGE_ENTRIES, THREAD_PAGE_MESSAGES, THREAD_PAGE_TEXT};

/// The most distinct URLs a message's row keeps for the links pages.
pub(crate) const MAX_KEPT_LINKS: usize = 64;

/// The most bytes of URLs a message's row keeps.
pub(crate) const MAX_KEPT_BYTES: usize = 4096;

/// The URLs a message cites, bounded ([`MAX_KEPT_LINKS`], [`MAX_KEPT_BYTES`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cited {
    pub(crate) urls: Vec<String>,
}

impl Cited {
    /// Adds `url` unless it is there or the bounds are reached.
    pub(crate) fn add(&mut self, url: &str) {
        let held: usize = self.urls.iter().map(String::len).sum();
        if self.urls.len() < MAX_KEPT_LINKS
            && held + url.len() <= MAX_KEPT_BYTES
            && !self.urls.iter().any(|u| u == url)
        {
            self.urls.push(url.to_string());
        }
    }

    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.urls.iter().map(String::len).sum()
    }
}

/// The most Message-IDs of its References a row keeps to find its parent (the nearest).
pub(super) const MAX_PARENT_KEYS: usize = 4;

/// `s` cut to at most [`MAX_ROW_FIELD`] bytes at a character boundary, `…` marking a cut.
pub(super) fn capped(s: &str) -> String {
    if s.len() <= MAX_ROW_FIELD {
        return s.to_string();
    }
    let mut end = MAX_ROW_FIELD - '…'.len_utf8();
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// What the archive keeps of a message whose page is written ([`Archive::write_message`](super::Archive::write_message)),
/// until [`Archive::finish`](super::Archive::finish): a few KiB at most, never its text.
#[derive(Debug)]
pub struct ArchivedMessage {
    pub(super) row: Row,
}

impl ArchivedMessage {
    /// The page of the message, in the archive's folder.
    pub fn page(&self) -> String {
        page_name(self.row.global)
    }

    /// The bytes its fields hold.
    #[cfg(test)]
    fn held(&self) -> usize {
        let r = &self.row;
        8 * (2 + r.parents.len() + r.references.cited.len())
            + r.date.len()
            + r.from.len()
            + r.subject.len()
            + r.list.len()
            + r.cited.held()
    }
}

/// One message's row: what the lists and the links between pages need, and what an
/// update needs of the page (the state file keeps the rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Row {
    pub(super) global: usize,
    /// The message's place in its input, from 1 (the pieces of an over-limit message
    /// share it).
    pub(super) index: usize,
    /// The thread root's key (`threads`): Message-IDs are kept as [`id_hash`]es.
    pub(super) thread: u64,
    pub(super) own: Option<u64>,
    /// In-Reply-To, then the last References, nearest first.
    pub(super) parents: Vec<u64>,
    pub(super) date: String,
    /// As the lists show it: with [`Addresses::Obfuscate`], its addresses obfuscated.
    pub(super) from: String,
    /// As the lists show it (so too).
    pub(super) subject: String,
    /// The name of its list ([`ScannedMessage::list_name`]), shown so too; empty without.
    pub(super) list: String,
    /// Links counted on the pages (those that pass the checks, with checks on).
    pub(super) links: usize,
    /// Of those, the email addresses (the others are URLs).
    pub(super) addresses: usize,
    /// Links of the message and warnings of its scan, as an input's totals count them.
    pub(super) links_all: usize,
    pub(super) warnings: usize,
    /// The message's own Message-ID, and the Message-IDs its text parts cite.
    pub(super) references: References,
    /// The URLs it cites, for the links pages.
    pub(super) cited: Cited,
    /// The bytes of its page before the links to the others, and the hash of those links
    /// (`Archive::link_pages`): what an update rewrites.
    pub(super) body_len: u64,
    pub(super) end_hash: u64,
    /// Where its text (its parts, and the parts not shown) starts on its page, after the
    /// headers and warnings; and the text's length as the page was first written, before
    /// its Message-ID citations became links: the thread pages copy the text from there
    /// (`posts`) and are paged by that length, the same whether built whole or updated.
    pub(super) text_start: u64,
    pub(super) text_len: u64,
}

impl Row {
    pub(super) fn new(
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
            list: shown(m.list_name().unwrap_or_default()),
            links,
            addresses: 0,
            links_all: m.link_count(),
            warnings: m.warnings().len(),
            references,
            cited: Cited::default(),
            body_len: 0,
            end_hash: 0,
            text_start: 0,
            text_len: 0,
        }
    }
}

/// Where each message is shown: its thread and month pages.
pub(super) struct Plan {
    pub(super) tree: Tree,
    /// The months in order (`YYYY-MM`, then `undated`), each with its messages in the
    /// order shown (threads in order of their first message that month).
    pub(super) months: Vec<(String, Vec<usize>)>,
    /// Each message's month (an index of `months`) and place in that list.
    pub(super) month_of: Vec<(usize, usize)>,
    /// Each thread's pages: where each starts in the thread's order ([`thread_pages`]).
    pub(super) thread_pages: Vec<Vec<usize>>,
}

/// Where the pages of a thread start (places in its order, the first 0): a page takes
/// messages until it holds [`THREAD_PAGE_MESSAGES`], or until the next would take its text
/// past [`THREAD_PAGE_TEXT`] bytes (`Row::text_len`); a message longer than that has a
/// page of its own, whole. So each page holds at most one long message's text or a
/// bounded amount, and paging depends on the rows only.
pub(super) fn thread_pages(rows: &[Row], thread: &[usize]) -> Vec<usize> {
    let mut starts = vec![0];
    let (mut n, mut bytes) = (0usize, 0u64);
    for (place, &m) in thread.iter().enumerate() {
        let len = rows[m].text_len;
        if n > 0 && (n == THREAD_PAGE_MESSAGES || bytes.saturating_add(len) > THREAD_PAGE_TEXT) {
            starts.push(place);
            (n, bytes) = (0, 0);
        }
        n += 1;
        bytes = bytes.saturating_add(len);
    }
    starts
}

impl Plan {
    pub(super) fn new(rows: &[Row]) -> Plan {
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
        let thread_pages = tree
            .threads
            .iter()
            .map(|thread| thread_pages(rows, thread))
            .collect();
        Plan {
            tree,
            months,
            month_of,
            thread_pages,
        }
    }

    /// The thread page of message `m`.
    pub(super) fn thread_page(&self, rows: &[Row], m: usize) -> String {
        let t = self.tree.thread[m];
        let first = rows[self.tree.threads[t][0]].global;
        let place = self.tree.place[m];
        let k = self.thread_pages[t].partition_point(|&start| start <= place) - 1;
        paged_name(&format!("t{first:05}"), k)
    }

    /// Message `m`'s place on its thread page: the page and the anchor of its text.
    pub(super) fn in_thread(&self, rows: &[Row], m: usize) -> String {
        format!("{}#m{}", self.thread_page(rows, m), rows[m].global)
    }

    /// The month page of message `m`.
    pub(super) fn month_page(&self, m: usize) -> String {
        let (k, place) = self.month_of[m];
        paged_name(&self.months[k].0, place / PAGE_ENTRIES)
    }
}

impl Row {
    /// Writes one message's entry of a list: its subject (a link to its page), sender and
    /// date, and `extra` after them.
    pub(super) fn write_entry(
        &self,
        parent: Option<&Row>,
        extra: &str,
        out: &mut impl Write,
    ) -> io::Result<()> {
        self.write_entry_to(&page_name(self.global), parent, extra, out)
    }

    /// [`Row::write_entry`], its link to `page` (a page of the folder, or an anchor).
    pub(super) fn write_entry_to(
        &self,
        page: &str,
        parent: Option<&Row>,
        extra: &str,
        out: &mut impl Write,
    ) -> io::Result<()> {
        // The author's name only (its address is on the message page), or the address
        // when there is no name.
        let author = super::page::name_and_address(&self.from).map_or(&*self.from, |(n, _)| n);
        let write_author = |out: &mut dyn Write| -> io::Result<()> {
            out.write_all(b"<span class=\"from\" dir=\"ltr\"><bdi>")?;
            write_escaped(author, out)?;
            out.write_all(b"</bdi></span> <span class=\"date\">")?;
            write_escaped(&date::shown(&self.date), out)?;
            out.write_all(b"</span>")
        };
        if parent.is_some_and(|p| same_subject(&p.subject, &self.subject)) {
            // The subject its parent shows: the link is the author and the date.
            write!(out, "<a class=\"same\" href=\"{page}\">")?;
            write_author(out)?;
            out.write_all(b"</a>")?;
        } else {
            write!(out, "<a href=\"{page}\"><bdi dir=\"auto\">")?;
            write_escaped(&self.subject, out)?;
            out.write_all(b"</bdi></a> ")?;
            write_author(out)?;
        }
        out.write_all(extra.as_bytes())
    }
}

/// `subject` without its leading `Re:`, `Fw:` and `Fwd:` (any case, any number), its
/// words separated by single spaces.
fn bare_subject(subject: &str) -> String {
    let mut s = subject.trim_start();
    loop {
        let lower = s.get(..4).map(str::to_ascii_lowercase).unwrap_or_default();
        let cut = if lower.starts_with("re:") || lower.starts_with("fw:") {
            3
        } else if lower == "fwd:" {
            4
        } else {
            break;
        };
        s = s[cut..].trim_start();
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a reply's subject is its parent's (but for `Re:`, `Fwd:` and white space).
pub(super) fn same_subject(parent: &str, reply: &str) -> bool {
    bare_subject(parent) == bare_subject(reply)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MailScanner;

    #[test]
    fn a_row_keeps_a_bounded_number_of_links() {
        let mut cited = Cited::default();
        for i in 0..1000 {
            cited.add(&format!("https://example.com/{i}"));
            cited.add(&format!("https://example.com/{i}"));
        }
        assert_eq!(cited.urls.len(), MAX_KEPT_LINKS);
        let mut long = Cited::default();
        for i in 0..100 {
            long.add(&format!("https://example.com/{i}/{}", "x".repeat(1000)));
        }
        assert!(long.held() <= MAX_KEPT_BYTES);
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
}
