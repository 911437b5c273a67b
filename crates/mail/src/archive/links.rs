//! The links of the list: every URL the archive's messages cite, grouped by host, each with
//! the messages that cite it and the date it was first cited.
//!
//! # Pages
//!
//! * `links.html` (`links-2.html`, … past [`PAGE_ENTRIES`] hosts): the hosts in order of
//!   their number of citations (then by name), each with its numbers of links and
//!   citations, linked to its own page.
//! * `hNNNNN.html` (`hNNNNN-2.html`, …), one per host, numbered in the order of the
//!   hosts' first citations in the archive (so that an update, which appends messages,
//!   leaves the number of each host as it was): its links in order of their first citation, each with that date and
//!   the messages that cite it (the first [`MAX_CITING_SHOWN`], then how many more).
//! * `links.json`: all of it as data, `{"hosts":[{"host":…,"links":[{"url":…,
//!   "first_cited":…,"messages":[page numbers]}]}]}`.
//!
//! # Invariants
//!
//! * URLs only: an email address is a person, not a document (and `--addresses
//!   obfuscate` publishes none). With checks on, a link that fails one is not listed.
//! * What a message contributes is bounded (`MAX_KEPT_LINKS` links, `MAX_KEPT_BYTES`
//!   bytes, in its row: `rows`), so a message dense with links costs the index no more
//!   than any other; so is every HTML page ([`PAGE_ENTRIES`] entries).
//! * Each link is written as the message pages write it: its display form isolated left
//!   to right, pointing to its ASCII form, and only when the linkifier allows its scheme.

use std::collections::HashMap;
use std::io::{self, Write};

use linkscan::display::{display_link, DisplayOptions};
use linkscan::html::{write_escaped, write_link, write_unlinked, Linkifier};
use linkscan::LinkKind;

use super::files::Output;
use super::files::{page_name, paged_name};
use super::heads::{titled, write_head};
use super::lists::write_pager;
use super::page::count;
use super::search::nav_link;
use super::{date, PAGE_ENTRIES};

/// The most citing messages a link lists on its host's page (`links.json` has them all).
pub(crate) const MAX_CITING_SHOWN: usize = 20;

/// One link: its URL, the date it was first cited, and the messages (page numbers).
struct Link<'a> {
    url: &'a str,
    first: Option<&'a str>,
    messages: Vec<usize>,
}

/// The links of a host.
struct Host<'a> {
    /// Its number (from 0), in the order of the hosts' first citations: a host keeps its
    /// number, and its page its name, as messages are appended to the archive.
    number: usize,
    name: String,
    links: Vec<Link<'a>>,
    citations: usize,
}

/// What a message gives: its page number, date and URLs.
pub(crate) struct Citing<'a> {
    pub(crate) global: usize,
    pub(crate) date: &'a str,
    pub(crate) urls: &'a [String],
}

/// The hosts, in the order of `links.html`.
fn hosts<'a>(messages: &[Citing<'a>]) -> Vec<Host<'a>> {
    let mut at: HashMap<&str, usize> = HashMap::new();
    let mut links: Vec<Link<'a>> = Vec::new();
    for m in messages {
        for url in m.urls {
            let k = *at.entry(url.as_str()).or_insert_with(|| {
                links.push(Link {
                    url,
                    first: None,
                    messages: Vec::new(),
                });
                links.len() - 1
            });
            let link = &mut links[k];
            link.messages.push(m.global);
            let instant = date::Instant::parse(m.date);
            let earlier = match (instant, link.first.and_then(date::Instant::parse)) {
                (Some(i), Some(f)) => i.minutes() < f.minutes(),
                (Some(_), None) => true,
                _ => false,
            };
            if earlier {
                link.first = Some(m.date);
            }
        }
    }
    let mut by_host: HashMap<String, usize> = HashMap::new();
    let mut hosts: Vec<Host<'a>> = Vec::new();
    for link in links {
        let name = super::page::host_of(link.url).unwrap_or_default();
        let k = *by_host.entry(name.clone()).or_insert_with(|| {
            hosts.push(Host {
                number: hosts.len(),
                name,
                links: Vec::new(),
                citations: 0,
            });
            hosts.len() - 1
        });
        hosts[k].citations += link.messages.len();
        hosts[k].links.push(link);
    }
    for host in &mut hosts {
        host.links.sort_by(|a, b| {
            let key = |l: &Link<'_>| l.first.and_then(date::Instant::parse).map(|i| i.minutes());
            (key(a).is_none(), key(a), a.messages[0]).cmp(&(
                key(b).is_none(),
                key(b),
                b.messages[0],
            ))
        });
    }
    hosts.sort_by(|a, b| {
        b.citations
            .cmp(&a.citations)
            .then_with(|| a.name.cmp(&b.name))
    });
    hosts
}

/// Page `page` (from 0) of the host numbered `k` (from 0).
fn host_page(k: usize, page: usize) -> String {
    paged_name(&format!("h{:05}", k + 1), page)
}

/// Writes `s` as a JSON string.
fn json_str(out: &mut impl Write, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    let mut at = 0;
    for (i, c) in s.char_indices() {
        let escaped = match c {
            '"' => "\\\"".to_string(),
            '\\' => "\\\\".to_string(),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                format!("\\u{:04x}", c as u32)
            }
            _ => continue,
        };
        out.write_all(&s.as_bytes()[at..i])?;
        out.write_all(escaped.as_bytes())?;
        at = i + c.len_utf8();
    }
    out.write_all(&s.as_bytes()[at..])?;
    out.write_all(b"\"")
}

/// Puts `links.html`, the host pages and `links.json`.
pub(crate) fn write(
    output: &mut Output<'_>,
    messages: &[Citing<'_>],
    linkifier: &Linkifier,
    list: &str,
    search: bool,
) -> io::Result<()> {
    let hosts = hosts(messages);

    // links.html
    let pages = hosts.len().div_ceil(PAGE_ENTRIES).max(1);
    for p in 0..pages {
        let name = paged_name("links", p);
        let mut out = Vec::new();
        write_head(&mut out, &titled("Links", Some(list)))?;
        out.write_all(b"<nav><a href=\"index.html\">Index</a><a href=\"links.json\">JSON</a>")?;
        out.write_all(nav_link(search).as_bytes())?;
        out.write_all(b"</nav>\n<h1>Links</h1>\n")?;
        let links: usize = hosts.iter().map(|h| h.links.len()).sum();
        writeln!(
            out,
            "<p>{} on {}, cited {}.</p>",
            count(links, "link"),
            count(hosts.len(), "host"),
            count(hosts.iter().map(|h| h.citations).sum(), "time")
        )?;
        write_pager("links", p, pages, &mut out)?;
        out.write_all(
            b"<table class=\"months\">\n<thead><tr><th>Host</th><th>Links</th>\
              <th>Citations</th></tr></thead>\n<tbody>\n",
        )?;
        for host in hosts.iter().skip(p * PAGE_ENTRIES).take(PAGE_ENTRIES) {
            write!(
                out,
                "<tr><td><a href=\"{}\"><bdi>",
                host_page(host.number, 0)
            )?;
            write_escaped(&host.name, &mut out)?;
            writeln!(
                out,
                "</bdi></a></td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                host.links.len(),
                host.citations
            )?;
        }
        out.write_all(b"</tbody></table>\n</body></html>\n")?;
        output.put(name, &out)?;
    }

    // A page per host.
    for host in &hosts {
        let base = format!("h{:05}", host.number + 1);
        let pages = host.links.len().div_ceil(PAGE_ENTRIES);
        for (p, chunk) in host.links.chunks(PAGE_ENTRIES).enumerate() {
            let name = paged_name(&base, p);
            let mut out = Vec::new();
            write_head(&mut out, &titled(&host.name, Some(list)))?;
            out.write_all(
                b"<nav><a href=\"index.html\">Index</a><a href=\"links.html\">Links</a>",
            )?;
            out.write_all(nav_link(search).as_bytes())?;
            out.write_all(b"</nav>\n<h1><bdi>")?;
            write_escaped(&host.name, &mut out)?;
            writeln!(
                out,
                "</bdi></h1>\n<p>{}, cited {}.</p>",
                count(host.links.len(), "link"),
                count(host.citations, "time")
            )?;
            write_pager(&base, p, pages, &mut out)?;
            out.write_all(b"<ul class=\"links\">\n")?;
            for link in chunk {
                out.write_all(b"<li>")?;
                let shown = display_link(link.url, LinkKind::Url, &DisplayOptions::default());
                if linkifier.allows_href(link.url) {
                    write_link(&shown, LinkKind::Url, link.url, Some("nofollow"), &mut out)?;
                } else {
                    write_unlinked(&shown, LinkKind::Url, &mut out)?;
                }
                if let Some(first) = link.first {
                    out.write_all(b" <span class=\"date\">first cited ")?;
                    write_escaped(&date::shown(first), &mut out)?;
                    out.write_all(b"</span>")?;
                }
                out.write_all(b" <span class=\"count\">in")?;
                for &m in link.messages.iter().take(MAX_CITING_SHOWN) {
                    write!(out, " <a href=\"{}\">{m}</a>", page_name(m))?;
                }
                if link.messages.len() > MAX_CITING_SHOWN {
                    write!(out, " and {} more", link.messages.len() - MAX_CITING_SHOWN)?;
                }
                out.write_all(b"</span></li>\n")?;
            }
            out.write_all(b"</ul>\n</body></html>\n")?;
            output.put(name, &out)?;
        }
    }

    // links.json
    let mut out = Vec::new();
    out.write_all(b"{\"hosts\":[")?;
    for (k, host) in hosts.iter().enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"\n{\"host\":")?;
        json_str(&mut out, &host.name)?;
        out.write_all(b",\"links\":[")?;
        for (j, link) in host.links.iter().enumerate() {
            if j > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"{\"url\":")?;
            json_str(&mut out, link.url)?;
            out.write_all(b",\"first_cited\":")?;
            match link.first {
                Some(first) => json_str(&mut out, first)?,
                None => out.write_all(b"null")?,
            }
            out.write_all(b",\"messages\":[")?;
            for (i, m) in link.messages.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{m}")?;
            }
            out.write_all(b"]}")?;
        }
        out.write_all(b"]}")?;
    }
    out.write_all(b"\n]}\n")?;
    output.put("links.json".to_string(), &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_group_by_host_with_their_citations() {
        let a = vec![
            "https://example.com/a".to_string(),
            "https://docs.example.org/x".to_string(),
        ];
        let b = vec!["https://example.com/a".to_string()];
        let c = vec!["https://example.com/b".to_string()];
        let messages = [
            Citing {
                global: 1,
                date: "2024-01-02T10:00:00Z",
                urls: &a,
            },
            Citing {
                global: 2,
                date: "2024-01-01T10:00:00Z",
                urls: &b,
            },
            Citing {
                global: 3,
                date: "",
                urls: &c,
            },
        ];
        let hosts = hosts(&messages);
        let names: Vec<&str> = hosts.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["example.com", "docs.example.org"]);
        assert_eq!(hosts[0].citations, 3);
        let first = &hosts[0].links[0];
        assert_eq!(first.url, "https://example.com/a");
        assert_eq!(first.messages, [1, 2]);
        assert_eq!(first.first, Some("2024-01-01T10:00:00Z"));
        assert_eq!(hosts[0].links[1].first, None);
    }

    #[test]
    fn json_strings_are_escaped() {
        let mut out = Vec::new();
        json_str(&mut out, "a\"b\\c\n\u{2028}é").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"b\\\\c\\u000a\\u2028é\""
        );
    }
}
