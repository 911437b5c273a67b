//! The thread pages: each message of a thread with its text, in thread order.
//!
//! # Algorithm
//!
//! A thread page opens with the tree of the messages it holds (the nested lists of
//! `lists`, each entry a link to the message's text below, `#mN`), then each message in
//! thread order: a header line (its subject where it changes from its parent's, its
//! author's name, its date, its depth past [`MAX_POST_INDENT`] levels, a link to its own
//! page) and its text, indented by its reply depth up to [`MAX_POST_INDENT`] levels. The
//! pages of a thread ([`thread_pages`](super::rows::thread_pages)) hold at most
//! [`THREAD_PAGE_MESSAGES`] messages and [`THREAD_PAGE_TEXT`] bytes of text (but for one
//! longer message, alone on its page, whole), with a pager.
//!
//! The text is not rendered again: it is copied from the message's own page, where
//! [`Archive::write_message`] wrote it and recorded where it lies (`Row::text_start`, up
//! to `Row::body_len`), once [`Archive::link_pages`] has made its Message-ID citations
//! links. So a message's text reads the same on both pages (its links, the quotes, the
//! parts not shown, the addresses obfuscated or not), nothing is held from the scan to the
//! end, and an update, whose earlier messages are not scanned again, reads their text the
//! same way.
//!
//! # Invariants
//!
//! * Memory: a page is streamed to its file ([`files::Puts::put_with`]), each text copied
//!   through a small buffer ([`files::copy_range`]); nothing grows with a thread or a
//!   message. An update hashes each thread page as it would be and writes it only when it
//!   differs from the last run's (so whenever one of its messages changed), reading the
//!   texts again to write it.
//! * The page of every message is a file the run wrote or kept: a page missing, shorter
//!   than recorded, or replaced by a link is an error, never a text silently left out.
//! * Each message is on exactly one thread page, with an anchor `mN` (`N` its number in
//!   the archive), which the message page's link to its thread leads to.

use std::io::{self, Write};

use linkscan::html::write_escaped;

use super::feeds;
use super::files::{self, page_name, paged_name, Output};
use super::heads::{titled, write_head_with};
use super::lists::write_pager;
use super::page::{count, name_and_address};
use super::rows::{same_subject, Plan};
use super::search::nav_link;
use super::{date, Archive};
#[cfg(doc)]
use super::{THREAD_PAGE_MESSAGES, THREAD_PAGE_TEXT};

/// The most levels a message's text is indented by its depth; deeper replies are drawn at
/// this level, their depth written in their header.
pub(crate) const MAX_POST_INDENT: usize = 6;

impl Archive {
    /// Writes the pages of every thread.
    pub(super) fn write_threads(
        &self,
        plan: &Plan,
        name: &str,
        output: &mut Output<'_>,
    ) -> io::Result<()> {
        // Each thread's pages on a thread of the pool: they read their messages' pages.
        let threads: Vec<usize> = (0..plan.tree.threads.len()).collect();
        output.put_each(&threads, |&t, puts| {
            let thread = &plan.tree.threads[t];
            let base = format!("t{:05}", self.rows[thread[0]].global);
            let starts = &plan.thread_pages[t];
            for (k, &start) in starts.iter().enumerate() {
                let end = starts.get(k + 1).copied().unwrap_or(thread.len());
                let chunk = &thread[start..end];
                puts.put_with(paged_name(&base, k), |out| {
                    self.write_thread_page(plan, name, thread, (k, starts.len()), chunk, out)
                })?;
            }
            Ok(())
        })
    }

    /// Writes page `k` of `pages` of `thread`, which holds the messages `chunk`.
    fn write_thread_page(
        &self,
        plan: &Plan,
        name: &str,
        thread: &[usize],
        (k, pages): (usize, usize),
        chunk: &[usize],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let mut out = out;
        let first = &self.rows[thread[0]];
        let base = format!("t{:05}", first.global);
        let title = titled(&first.subject, Some(name));
        let feed = feeds::thread_feed(first.global);
        write_head_with(&mut out, &title, "<body>", &feeds::head_link(&feed, &title))?;
        write!(
            out,
            "<nav><a href=\"index.html\">Index</a><a href=\"{}\">Month</a>{}</nav>\n\
             <h1><bdi dir=\"auto\">",
            plan.month_page(thread[0]),
            nav_link(self.search.is_some())
        )?;
        write_escaped(&first.subject, &mut out)?;
        out.write_all(b"</bdi></h1>\n")?;
        if pages > 1 {
            let at = plan.tree.place[chunk[0]];
            writeln!(
                out,
                "<p>Thread of {}: here {} to {}.</p>",
                count(thread.len(), "message"),
                at + 1,
                at + chunk.len()
            )?;
        } else {
            writeln!(out, "<p>Thread of {}.</p>", count(thread.len(), "message"))?;
        }
        let mbox = super::mboxes::thread_name(first.global);
        super::download::write_mbox_link(
            &mbox,
            "thread",
            self.downloads,
            self.addresses,
            &mut out,
        )?;
        feeds::write_link(&feed, "thread", &mut out)?;
        write_pager(&base, k, pages, &mut out)?;
        let entries: Vec<(usize, usize, bool)> = chunk
            .iter()
            .map(|&m| (m, plan.tree.depth[m], false))
            .collect();
        self.write_nested(
            plan,
            &entries,
            true,
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
        for &m in chunk {
            self.write_post(plan, m, &mut out)?;
        }
        write_pager(&base, k, pages, &mut out)?;
        out.write_all(b"</body></html>\n")
    }

    /// Writes message `m` with its text, as a thread page shows it.
    fn write_post(&self, plan: &Plan, m: usize, out: &mut dyn Write) -> io::Result<()> {
        let row = &self.rows[m];
        let depth = plan.tree.depth[m];
        let page = page_name(row.global);
        write!(
            out,
            "<article class=\"post d{}\" id=\"m{}\">\n<p class=\"post\">",
            depth.min(MAX_POST_INDENT),
            row.global
        )?;
        if depth > MAX_POST_INDENT {
            write!(out, "<span class=\"depth\">depth {depth}</span> ")?;
        }
        let parent = plan.tree.parent[m].map(|p| &self.rows[p]);
        if !parent.is_some_and(|p| same_subject(&p.subject, &row.subject)) {
            out.write_all(b"<bdi class=\"subject\" dir=\"auto\">")?;
            write_escaped(&row.subject, out)?;
            out.write_all(b"</bdi> ")?;
        }
        // The author's name only, as the lists show it (its address is on its page).
        let author = name_and_address(&row.from).map_or(&*row.from, |(n, _)| n);
        out.write_all(b"<span class=\"from\" dir=\"ltr\"><bdi>")?;
        write_escaped(author, out)?;
        out.write_all(b"</bdi></span> <span class=\"date\">")?;
        write_escaped(&date::shown(&row.date), out)?;
        writeln!(
            out,
            "</span> <a class=\"own\" href=\"{page}\">message {}</a></p>",
            row.global
        )?;
        let path = self.dir.join(&page);
        files::copy_range(&path, row.text_start, row.body_len, out)?;
        out.write_all(b"</article>\n")
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::archive::{THREAD_PAGE_MESSAGES, THREAD_PAGE_TEXT};
    use crate::MailScanner;

    /// An mbox of `n` messages in one thread, each answering the one before, message `i`'s
    /// body `body(i)`.
    fn chain(n: usize, body: impl Fn(usize) -> String) -> Vec<u8> {
        let mut mbox = String::new();
        for i in 1..=n {
            let reply = if i > 1 {
                format!("In-Reply-To: <{}@example.com>\n", i - 1)
            } else {
                String::new()
            };
            mbox.push_str(&format!(
                "From a@example.com Mon Jan  1 00:00:00 2024\nFrom: Ann <ann@example.com>\n\
                 Message-ID: <{i}@example.com>\n{reply}Date: Mon, 1 Jan 2024 10:00:00 +0000\n\
                 Subject: plans\n\n{}\n",
                body(i)
            ));
        }
        mbox.into_bytes()
    }

    fn build(dir: &std::path::Path, mbox: &[u8]) {
        let _ = fs::remove_dir_all(dir);
        let scanner = MailScanner::new();
        let mut archive = Archive::create(dir).unwrap();
        for message in crate::MboxReader::new(crate::open_mbox(mbox).unwrap()) {
            archive
                .push("list.mbox", &scanner.scan(message.unwrap().bytes()))
                .unwrap();
        }
        archive.finish().unwrap();
    }

    /// Each message's text is on its thread page as on its own page (its links, a cited
    /// Message-ID made a link), with its anchor and a link to its page; the message page
    /// leads to the anchor.
    #[test]
    fn a_thread_page_has_each_text_as_its_page_has_it() {
        let dir = std::env::temp_dir().join(format!("linkscan-posts-{}", std::process::id()));
        let mbox = chain(3, |i| {
            format!("word{i} see https://example.com/{i} and <1@example.com>")
        });
        build(&dir, &mbox);
        let thread = fs::read_to_string(dir.join("t00001.html")).unwrap();
        for i in 1..=3 {
            let page = fs::read_to_string(dir.join(format!("0000{i}.html"))).unwrap();
            let start = page.find("<pre").unwrap();
            let end = page[start..].find("</pre>").unwrap() + start + 6;
            let text = &page[start..end];
            assert!(
                text.contains(&format!("href=\"https://example.com/{i}\"")),
                "{text}"
            );
            assert!(
                text.contains("<a class=\"mid\" href=\"00001.html\">"),
                "{text}"
            );
            assert_eq!(thread.matches(text).count(), 1, "{thread}");
            assert!(thread.contains(&format!("id=\"m{i}\"")));
            assert!(thread.contains(&format!("<a class=\"own\" href=\"0000{i}.html\">")));
            assert!(thread.contains(&format!("<a class=\"same\" href=\"#m{i}\">")) || i == 1);
            assert!(
                page.contains(&format!("<a href=\"t00001.html#m{i}\">Thread</a>")),
                "{page}"
            );
        }
        // In thread order, indented by depth.
        let at = |i: usize| thread.find(&format!("id=\"m{i}\"")).unwrap();
        assert!(at(1) < at(2) && at(2) < at(3));
        assert!(thread.contains("<article class=\"post d2\" id=\"m3\">"));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A thread goes on over pages of at most [`THREAD_PAGE_MESSAGES`] messages and
    /// [`THREAD_PAGE_TEXT`] bytes of text; a longer message has a page of its own, whole;
    /// every message is on exactly one page; deep replies are drawn at
    /// [`MAX_POST_INDENT`] with their depth written.
    #[test]
    fn thread_pages_are_bounded_by_messages_and_text() {
        let dir = std::env::temp_dir().join(format!("linkscan-posts-paged-{}", std::process::id()));
        let n = 2 * THREAD_PAGE_MESSAGES + 5;
        let big = 70usize;
        // Message 70 alone is longer than a page's text: its page holds it whole.
        let long = |i: usize| if i == big { 1_200_000 } else { 30_000 };
        let mbox = chain(n, |i| format!("word{i} {}", "x".repeat(long(i))));
        build(&dir, &mbox);
        let mut pages = Vec::new();
        for k in 1.. {
            let name = if k == 1 {
                "t00001.html".to_string()
            } else {
                format!("t00001-{k}.html")
            };
            match fs::read_to_string(dir.join(name)) {
                Ok(page) => pages.push(page),
                Err(_) => break,
            }
        }
        let mut seen = vec![0; n + 1];
        for page in &pages {
            let here: Vec<usize> = (1..=n)
                .filter(|i| page.contains(&format!("id=\"m{i}\"")))
                .collect();
            let text: usize = here.iter().map(|&i| long(i)).sum();
            assert!(here.len() <= THREAD_PAGE_MESSAGES, "{}", here.len());
            assert!(text as u64 <= THREAD_PAGE_TEXT || here == [big], "{here:?}");
            for i in here {
                seen[i] += 1;
                assert!(page.contains(&format!("word{i} ")));
            }
            assert!(page.len() < 2 << 20, "{}", page.len());
        }
        assert!(seen[1..].iter().all(|&s| s == 1), "{seen:?}");
        assert!(pages.len() > n.div_ceil(THREAD_PAGE_MESSAGES));
        let long_page = pages.iter().find(|p| p.contains("id=\"m70\"")).unwrap();
        assert!(long_page.contains(&"x".repeat(1_200_000)));
        assert!(long_page.contains("<span class=\"depth\">depth 69</span>"));
        assert!(long_page.contains(&format!(
            "<article class=\"post d{MAX_POST_INDENT}\" id=\"m70\">"
        )));
        // The message page's thread link leads to the page that has it.
        let page70 = fs::read_to_string(dir.join("00070.html")).unwrap();
        let k = pages.iter().position(|p| p.contains("id=\"m70\"")).unwrap();
        assert!(page70.contains(&format!("<a href=\"t00001-{}.html#m70\">Thread</a>", k + 1)));
        assert!(pages[1].contains("rel=\"prev\" href=\"t00001.html\""));
        fs::remove_dir_all(&dir).unwrap();
    }
}
