//! The front page, `index.html`: what the archive is, its counts, its newest threads and
//! its months.
//!
//! # Algorithm
//!
//! The page names the archive ([`Archive::name`]: the `--title`, else the phrase of the
//! `List-Id` most messages came through) and says what it holds, one word for each count:
//! *messages*, *threads*, *URLs* and *email addresses* (each occurrence in a text, as
//! `linkscan find --count` counts links: its count is the URLs and the addresses
//! together), then each input with its totals, the [`NEWEST_THREADS`] threads with the
//! latest messages (by their UTC instant; undated messages count as oldest, ties go to
//! the later message of the archive), and the table of the months.
//!
//! # Invariants
//!
//! * The page grows only by a row per month and per input; the newest threads are a
//!   fixed number.
//! * Every text is a row's, escaped; every link is to a page of this folder.

use std::collections::HashSet;
use std::io::{self, Write};

use linkscan::html::write_escaped;

use super::date::{self, Instant};
use super::feeds;
use super::files::Output;
use super::heads::write_head_with;
use super::page::{count, name_and_address};
use super::rows::Plan;
use super::Archive;

/// How many threads the front page lists, the newest first.
pub(crate) const NEWEST_THREADS: usize = 20;

impl Archive {
    pub(super) fn write_front(
        &self,
        plan: &Plan,
        name: &str,
        output: &mut Output<'_>,
    ) -> io::Result<()> {
        let mut out = Vec::new();
        write_head_with(
            &mut out,
            name,
            "<body>",
            &feeds::head_link(feeds::FEED, name),
        )?;
        if self.search.is_some() {
            out.write_all(b"<nav><a href=\"search.html\">Search</a></nav>\n")?;
        }
        out.write_all(b"<h1><bdi dir=\"auto\">")?;
        write_escaped(name, &mut out)?;
        out.write_all(b"</bdi></h1>\n")?;
        let dated: Vec<&str> = plan
            .months
            .iter()
            .map(|(m, _)| m.as_str())
            .filter(|m| *m != "undated")
            .collect();
        if let (Some(first), Some(last)) = (dated.first(), dated.last()) {
            out.write_all(b"<p class=\"about\">The archive of <bdi dir=\"auto\">")?;
            write_escaped(name, &mut out)?;
            if first == last {
                writeln!(out, "</bdi>, {first}.</p>")?;
            } else {
                writeln!(out, "</bdi>, from {first} to {last}.</p>")?;
            }
        }
        let links: usize = self.rows.iter().map(|r| r.links).sum();
        let addresses: usize = self.rows.iter().map(|r| r.addresses).sum();
        writeln!(
            out,
            "<p class=\"totals\">{} in {}; their texts cite {} and {} \
             (<a href=\"links.html\">the URLs by host</a>, <a href=\"links.json\">JSON</a>). \
             URLs and addresses together are the links <code>linkscan find --mbox --count</code> \
             counts with the archive's policy (<code>--policy readable</code> unless the \
             archive was built with another; <code>find</code> is conformant by default).</p>",
            count(self.rows.len(), "message"),
            count(plan.tree.threads.len(), "thread"),
            count(links - addresses, "URL"),
            count_addresses(addresses),
        )?;
        feeds::write_link(feeds::FEED, "list", &mut out)?;
        self.write_newest(plan, &mut out)?;
        out.write_all(b"<h2>Inputs</h2>\n<ul class=\"archives\">\n")?;
        for (name, totals) in &self.inputs {
            out.write_all(b"<li>")?;
            // An input named after an address is obfuscated as the addresses are.
            write_escaped(&self.style().said(name), &mut out)?;
            writeln!(
                out,
                ": {}, {} (URLs and email addresses), {}</li>",
                count(totals.messages, "message"),
                count(totals.links, "link"),
                count(totals.warnings, "warning")
            )?;
        }
        out.write_all(b"</ul>\n<h2>Months</h2>\n")?;
        out.write_all(
            b"<table class=\"months\">\n<thead><tr><th>Month</th><th>Messages</th>\
              <th>Threads</th></tr></thead>\n<tbody>\n",
        )?;
        for (month, list) in &plan.months {
            let label = if month == "undated" { "Undated" } else { month };
            let threads: HashSet<usize> = list.iter().map(|&m| plan.tree.thread[m]).collect();
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

    /// Writes the [`NEWEST_THREADS`] threads with the latest messages: each its subject
    /// (a link to its page), its first author, its latest date and its messages.
    fn write_newest(&self, plan: &Plan, out: &mut Vec<u8>) -> io::Result<()> {
        if plan.tree.threads.is_empty() {
            return Ok(());
        }
        // Each thread's latest message: by instant, then by place in the archive.
        let latest = |thread: &[usize]| {
            thread
                .iter()
                .map(|&m| (Instant::parse(&self.rows[m].date).map(|i| i.minutes()), m))
                .max()
                .expect("a thread has a message")
        };
        let mut threads: Vec<(Option<i64>, usize, usize)> = plan
            .tree
            .threads
            .iter()
            .enumerate()
            .map(|(t, thread)| {
                let (at, m) = latest(thread);
                (at, m, t)
            })
            .collect();
        threads.sort_unstable_by(|a, b| b.cmp(a));
        out.write_all(b"<h2>Newest threads</h2>\n<ul class=\"newest\">\n")?;
        for &(_, last, t) in threads.iter().take(NEWEST_THREADS) {
            let thread = &plan.tree.threads[t];
            let first = &self.rows[thread[0]];
            write!(
                out,
                "<li><a href=\"{}\"><bdi dir=\"auto\">",
                plan.thread_page(&self.rows, thread[0])
            )?;
            write_escaped(&first.subject, out)?;
            let author = name_and_address(&first.from).map_or(&*first.from, |(n, _)| n);
            out.write_all(b"</bdi></a> <span class=\"from\" dir=\"ltr\"><bdi>")?;
            write_escaped(author, out)?;
            out.write_all(b"</bdi></span> <span class=\"date\">")?;
            write_escaped(&date::shown(&self.rows[last].date), out)?;
            writeln!(
                out,
                "</span> <span class=\"count\">{}</span></li>",
                count(thread.len(), "message")
            )?;
        }
        out.write_all(b"</ul>\n")
    }
}

/// `n email addresses`, one word for the count.
fn count_addresses(n: usize) -> String {
    if n == 1 {
        "1 email address".to_string()
    } else {
        format!("{n} email addresses")
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use crate::archive::Archive;
    use crate::{open_mbox, MailScanner, MboxReader};

    /// The front page says what it counts, one word each, and lists the threads with the
    /// latest messages first, each with its first author, latest date and messages.
    #[test]
    fn the_front_page_counts_and_lists_the_newest_threads() {
        let dir = std::env::temp_dir().join(format!("linkscan-front-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut mbox = String::new();
        // Thread k starts on day k; thread 0 gets a late reply, so it is the newest.
        for k in 0..25 {
            mbox.push_str(&format!(
                "From a@example.com Mon Jan  1 00:00:00 2024\nFrom: Ann{k} <ann@example.com>\n\
                 Message-ID: <{k}@example.com>\nDate: {} Jan 2024 10:00:00 +0000\n\
                 Subject: topic {k}\nList-Id: Atlas talk <atlas.example.org>\n\n\
                 see https://example.com/{k} or bob@example.org\n",
                k + 1
            ));
        }
        mbox.push_str(
            "From a@example.com Mon Jan  1 00:00:00 2024\nFrom: Bob <bob@example.com>\n\
             Message-ID: <r@example.com>\nIn-Reply-To: <0@example.com>\n\
             Date: 1 Mar 2024 10:00:00 +0000\nSubject: re: topic 0\n\nyes\n",
        );
        let scanner = MailScanner::new();
        let mut archive = Archive::create(&dir).unwrap();
        for m in MboxReader::new(open_mbox(mbox.as_bytes()).unwrap()) {
            archive
                .push("list.mbox", &scanner.scan(m.unwrap().bytes()))
                .unwrap();
        }
        archive.finish().unwrap();
        let front = fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(
            front.contains(
                "26 messages in 25 threads; their texts cite 25 URLs and 25 email addresses"
            ),
            "{front}"
        );
        assert!(
            front.contains("Atlas talk</bdi>, from 2024-01 to 2024-03."),
            "{front}"
        );
        let newest = &front[front.find("<ul class=\"newest\">").unwrap()..];
        let newest = &newest[..newest.find("</ul>").unwrap()];
        assert_eq!(newest.matches("<li>").count(), super::NEWEST_THREADS);
        let order: Vec<usize> = newest
            .split("<li>")
            .skip(1)
            .map(|li| {
                li[li.find("topic ").unwrap() + 6..]
                    .split('<')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        let want: Vec<usize> = std::iter::once(0).chain((5..25).rev()).take(20).collect();
        assert_eq!(order, want);
        assert!(
            newest.contains(
                "<li><a href=\"t00001.html\"><bdi dir=\"auto\">topic 0</bdi></a> \
             <span class=\"from\" dir=\"ltr\"><bdi>Ann0</bdi></span> \
             <span class=\"date\">2024-03-01 10:00 UTC</span> \
             <span class=\"count\">2 messages</span></li>"
            ),
            "{newest}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
