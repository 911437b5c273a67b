//! The list pages: the tree of a thread (on its pages, `posts`), a page per month, and
//! the front page.
//!
//! # Algorithm
//!
//! A thread page lists its messages in thread order (the [`Plan`]'s tree), a month page
//! its threads in the order of their first message that month; both are nested lists
//! drawn from the depth of each message (`write_nested`), one level at a time, at most
//! [`MAX_NESTING`] deep. A month goes on over numbered pages of [`PAGE_ENTRIES`] messages
//! with a pager ([`write_pager`], which the thread and links pages use too). The front
//! page has the inputs and their totals, the archive's totals and a row per month.
//!
//! # Invariants
//!
//! * No list page grows with the archive: [`PAGE_ENTRIES`] messages at most; only the
//!   front page grows, by a row per month.
//! * Every entry is a link to a page of this folder (or to a message's text on the same
//!   page); the texts are the row's, escaped.

use std::collections::HashSet;
use std::io::{self, Write};

use super::files::{paged_name, Output};
use super::heads::{titled, write_head};
use super::page::count;
use super::rows::Plan;
use super::search::nav_link;
use super::{Archive, MAX_NESTING, PAGE_ENTRIES};

impl Archive {
    /// Writes `entries` (messages and their depths) as nested lists: each entry one level
    /// at most deeper than the one before ([`MAX_NESTING`] at most), the first at the top;
    /// `thread_start` says where a new thread begins (a new top-level item). Each entry
    /// links to its message's page, or with `anchors` to its text on this page (`#mN`).
    pub(super) fn write_nested(
        &self,
        plan: &Plan,
        entries: &[(usize, usize, bool)],
        anchors: bool,
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
            // The subject shows where it changes from the parent's, and at the top of a
            // thread as listed here (its parent elsewhere, if any).
            let parent = plan.tree.parent[m]
                .filter(|_| !start)
                .map(|p| &self.rows[p]);
            if anchors {
                row.write_entry_to(&format!("#m{}", row.global), parent, &more, out)?;
            } else {
                row.write_entry(parent, &more, out)?;
            }
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

    pub(super) fn write_months(
        &self,
        plan: &Plan,
        name: &str,
        output: &mut Output<'_>,
    ) -> io::Result<()> {
        for (k, (month, list)) in plan.months.iter().enumerate() {
            let pages = list.len().div_ceil(PAGE_ENTRIES);
            let label = if month == "undated" { "Undated" } else { month };
            for (p, chunk) in list.chunks(PAGE_ENTRIES).enumerate() {
                let page = paged_name(month, p);
                let mut out = Vec::new();
                write_head(&mut out, &titled(label, Some(name)))?;
                out.write_all(b"<nav><a href=\"index.html\">Index</a>")?;
                out.write_all(nav_link(self.search.is_some()).as_bytes())?;
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
                let mbox = super::mboxes::month_name(month);
                super::download::write_mbox_link(
                    &mbox,
                    "month",
                    self.downloads,
                    self.addresses,
                    &mut out,
                )?;
                write_pager(month, p, pages, &mut out)?;
                // Depths relative to the thread's first message shown here.
                let mut entries = Vec::with_capacity(chunk.len());
                let mut last_thread = None;
                for &m in chunk {
                    let t = plan.tree.thread[m];
                    entries.push((m, plan.tree.depth[m], last_thread != Some(t)));
                    last_thread = Some(t);
                }
                self.write_nested(
                    plan,
                    &entries,
                    false,
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
                write_pager(month, p, pages, &mut out)?;
                out.write_all(b"</body></html>\n")?;
                output.put(page, &out)?;
            }
        }
        Ok(())
    }
}

/// Writes `<nav>` with the previous and next page of a paged list.
pub(super) fn write_pager(
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

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use super::super::rows::{Cited, Row};
    use super::super::text::{id_hash, References};
    use super::*;
    use crate::archive::{MAX_REPLIES_SHOWN, THREAD_PAGE_MESSAGES};

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
                list: String::new(),
                links: 0,
                addresses: 0,
                links_all: 0,
                warnings: 0,
                references: References::default(),
                cited: Cited::default(),
                body_len: 0,
                end_hash: 0,
                text_start: 0,
                text_len: 0,
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
    /// binary tree 17 deep) go on over 2,000 thread pages of at most
    /// [`THREAD_PAGE_MESSAGES`] messages, each listed once; a message with 50,000 replies lists
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
        archive.write_threads(&plan, "List", &mut output).unwrap();
        let written = output.pages;
        assert_eq!(written.len(), n.div_ceil(THREAD_PAGE_MESSAGES));
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
        drop(archive); // One archive at a time holds the folder.
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
        archive.write_months(&plan, "List", &mut output).unwrap();
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
            .write_front(&plan, "List", &mut Output::new(&dir, None))
            .unwrap();
        let front = fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(front.contains("<td class=\"n\">200000</td><td class=\"n\">2000</td>"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
