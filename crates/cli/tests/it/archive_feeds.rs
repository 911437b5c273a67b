//! The archive's Atom feeds (`linkify --mbox --out DIR`): `feed.atom` with the newest
//! messages of the archive and `tNNNNN.atom` with those of each thread, read with an XML
//! parser: an entry per recent message, newest first, each with its title, author,
//! `updated`, `id`, a link to a page of the folder and its text; announced in the head of
//! the front page and of each thread page; well-formed and bounded whatever the message.

#![cfg(feature = "mail")]

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::build_archive as linkify;
use linkscan_mail::archive::{CUT, ENTRY_TEXT, FEED_ENTRIES};

const ATOM: &str = "http://www.w3.org/2005/Atom";

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("feeds", name)
}

/// A message of an mbox: number `k`, answering `parent`, with a Date header unless
/// `date` is empty.
fn message(
    k: usize,
    parent: Option<usize>,
    date: &str,
    from: &str,
    subject: &str,
    body: &str,
) -> String {
    let parent = parent.map_or_else(String::new, |p| format!("In-Reply-To: <{p}@example.com>\n"));
    let date = if date.is_empty() {
        String::new()
    } else {
        format!("Date: {date}\n")
    };
    format!(
        "From x@example.com Mon Jan  1 00:00:00 2024\nFrom: {from}\nMessage-ID: <{k}@example.com>\n\
         {parent}{date}Subject: {subject}\nContent-Type: text/plain; charset=utf-8\n\n{body}\n\n"
    )
}

/// An entry of a feed as read by the parser.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) title: String,
    pub(crate) author: String,
    pub(crate) updated: String,
    pub(crate) id: String,
    pub(crate) link: String,
    pub(crate) content: String,
}

/// A feed as read by the parser: its title, `updated`, `id` and entries.
#[derive(Debug)]
pub(crate) struct Feed {
    pub(crate) title: String,
    pub(crate) updated: String,
    pub(crate) id: String,
    pub(crate) entries: Vec<Entry>,
}

/// The text of the child `name` of `node` in the Atom namespace; fails the test when it
/// has none.
fn child<'a>(node: roxmltree::Node<'a, 'a>, name: &str) -> roxmltree::Node<'a, 'a> {
    node.children()
        .find(|n| n.has_tag_name((ATOM, name)))
        .unwrap_or_else(|| panic!("no <{name}> in <{}>", node.tag_name().name()))
}

fn text(node: roxmltree::Node<'_, '_>) -> String {
    node.text().unwrap_or("").to_string()
}

/// Reads the feed at `path` with an XML parser (which fails the test on a feed that is
/// not well-formed), checking the shape Atom requires.
pub(crate) fn read_feed(path: &Path) -> Feed {
    let xml = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"));
    let doc = roxmltree::Document::parse(&xml)
        .unwrap_or_else(|e| panic!("{} is not well-formed: {e}", path.display()));
    let feed = doc.root_element();
    assert!(feed.has_tag_name((ATOM, "feed")), "{}", path.display());
    let rfc3339 = |s: &str| {
        let b = s.as_bytes();
        assert!(
            b.len() == 20
                && b[4] == b'-'
                && b[7] == b'-'
                && b[10] == b'T'
                && b[13] == b':'
                && b[16] == b':'
                && b[19] == b'Z',
            "not RFC 3339 in UTC: {s}"
        );
    };
    let entries: Vec<Entry> = feed
        .children()
        .filter(|n| n.has_tag_name((ATOM, "entry")))
        .map(|e| {
            let link = child(e, "link");
            assert_eq!(link.attribute("rel"), Some("alternate"));
            let content = child(e, "content");
            assert_eq!(content.attribute("type"), Some("text"));
            let entry = Entry {
                title: text(child(e, "title")),
                author: text(child(child(e, "author"), "name")),
                updated: text(child(e, "updated")),
                id: text(child(e, "id")),
                link: link.attribute("href").unwrap().to_string(),
                content: text(content),
            };
            rfc3339(&entry.updated);
            entry
        })
        .collect();
    let feed = Feed {
        title: text(child(feed, "title")),
        updated: text(child(feed, "updated")),
        id: text(child(feed, "id")),
        entries,
    };
    rfc3339(&feed.updated);
    assert!(feed.entries.len() <= FEED_ENTRIES);
    feed
}

/// The `href` of the `<link rel="alternate" type="application/atom+xml">` of `page`'s head.
fn announced(page: &str) -> String {
    let head = &page[..page.find("</head>").expect("a head")];
    let at = head
        .find("<link rel=\"alternate\" type=\"application/atom+xml\"")
        .unwrap_or_else(|| panic!("no feed in {head}"));
    let link = &head[at..];
    let link = &link[..link.find('>').unwrap()];
    let href = &link[link.find("href=\"").unwrap() + 6..];
    href[..href.find('"').unwrap()].to_string()
}

/// The newest [`FEED_ENTRIES`] messages in `feed.atom` and in each thread's feed, newest
/// first (by the second, ties by number, the undated last), each with its title, author,
/// RFC 3339 date, a stable id and a link to its page, its text as its page shows it; the
/// front page and each thread page announce their feed and link it.
#[test]
fn feeds_hold_the_newest_messages_of_the_archive_and_of_each_thread() {
    let dir = temp_dir("newest");
    let mut mbox = String::new();
    let date = |k: usize| match k {
        51 => "Mon, 1 Jan 2024 12:00:30 +0000".to_string(),
        52 => "Mon, 1 Jan 2024 12:00:10 +0000".to_string(),
        k => format!("Mon, 1 Jan 2024 {:02}:{:02}:00 +0000", 10 + k / 60, k % 60),
    };
    for k in 1..=52 {
        let subject = if k == 1 { "topic one" } else { "Re: topic one" };
        mbox.push_str(&message(
            k,
            (k > 1).then(|| k - 1),
            &date(k),
            &format!("Ann {k} <ann{k}@example.com>"),
            subject,
            &format!("see https://example.com/{k} and the words of message {k}"),
        ));
    }
    let ann = "Ann <ann@example.com>";
    mbox.push_str(&message(
        53,
        None,
        "Tue, 2 Jan 2024 09:00:00 +0100",
        ann,
        "two",
        "a",
    ));
    mbox.push_str(&message(54, Some(53), "", ann, "Re: two", "undated"));
    mbox.push_str(&message(
        55,
        Some(53),
        "Tue, 2 Jan 2024 08:00:00 +0000",
        ann,
        "Re: two",
        "c",
    ));
    mbox.push_str(&message(
        56,
        None,
        "Tue, 2 Jan 2024 08:00:00 GMT",
        "bob@example.org",
        "three",
        "d",
    ));
    let path = dir.join("list.mbox");
    fs::write(&path, &mbox).unwrap();
    let web = dir.join("web");
    linkify(&path, &web, &["--title", "Atlas & <co>"]);

    let feed = read_feed(&web.join("feed.atom"));
    assert_eq!(feed.title, "Atlas & <co>");
    let numbers = |feed: &Feed| -> Vec<usize> {
        feed.entries
            .iter()
            .map(|e| e.link.strip_suffix(".html").unwrap().parse().unwrap())
            .collect()
    };
    let want: Vec<usize> = [56, 55, 53, 51, 52]
        .into_iter()
        .chain((6..=50).rev())
        .collect();
    assert_eq!(numbers(&feed), want);
    assert_eq!(feed.updated, "2024-01-02T08:00:00Z");
    assert_eq!(feed.entries[3].updated, "2024-01-01T12:00:30Z");
    let mut ids: Vec<&str> = feed.entries.iter().map(|e| e.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), FEED_ENTRIES, "ids are unique");
    for e in &feed.entries {
        assert!(web.join(&e.link).is_file(), "{}", e.link);
        assert!(e.id.starts_with("urn:linkscan:message-id:"), "{}", e.id);
    }
    // The entry of message 7: its subject, its author's name, its text.
    let seven = feed
        .entries
        .iter()
        .find(|e| e.link == "00007.html")
        .unwrap();
    assert_eq!(seven.title, "Re: topic one");
    assert_eq!(seven.author, "Ann 7");
    assert_eq!(seven.updated, "2024-01-01T10:07:00Z");
    assert_eq!(
        seven.content,
        "see https://example.com/7 and the words of message 7"
    );
    // A sender without a name: the address, as the page shows it.
    assert_eq!(feed.entries[0].author, "bob@example.org");

    // The thread's feed: its newest 50 of 52, the same entries.
    let thread = read_feed(&web.join("t00001.atom"));
    assert_eq!(thread.title, "topic one · Atlas & <co>");
    let want: Vec<usize> = [51, 52].into_iter().chain((3..=50).rev()).collect();
    assert_eq!(numbers(&thread), want);
    let seven_there = thread
        .entries
        .iter()
        .find(|e| e.link == "00007.html")
        .unwrap();
    assert_eq!(seven_there.id, seven.id);
    assert_eq!(seven_there.content, seven.content);
    assert_ne!(thread.id, feed.id);
    // The undated message: the epoch, last.
    let two = read_feed(&web.join("t00053.atom"));
    assert_eq!(numbers(&two), [55, 53, 54]);
    assert_eq!(two.entries[2].updated, "1970-01-01T00:00:00Z");
    assert_eq!(two.entries[2].content, "undated");
    assert_eq!(numbers(&read_feed(&web.join("t00056.atom"))), [56]);
    let feeds: Vec<String> = fs::read_dir(&web)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".atom"))
        .collect();
    assert_eq!(feeds.len(), 4, "{feeds:?}");

    // Announced and linked: the front page, and each page of the thread.
    let front = fs::read_to_string(web.join("index.html")).unwrap();
    assert_eq!(announced(&front), "feed.atom");
    assert!(front.contains("title=\"Atlas &amp; &lt;co&gt;\" href=\"feed.atom\">"));
    assert!(front.contains("<a href=\"feed.atom\" type=\"application/atom+xml\">Feed</a>"));
    for page in ["t00001.html", "t00001-2.html"] {
        let html = fs::read_to_string(web.join(page)).unwrap();
        assert_eq!(announced(&html), "t00001.atom", "{page}");
        assert!(html.contains("<a href=\"t00001.atom\" type=\"application/atom+xml\">Feed</a>"));
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Hostile subjects and bodies (control characters XML forbids, `]]>`, `</feed>`, markup,
/// bidi controls, a text of 200 KiB) leave every feed well-formed XML, the texts as they
/// were but for the forbidden characters (U+FFFD), each entry's text bounded and marked
/// where cut.
#[test]
fn hostile_subjects_and_bodies_stay_well_formed() {
    let dir = temp_dir("hostile");
    let hostile = "a\u{1}b]]></title></entry></feed><x>&amp;\"'\u{202e}gnp.exe\u{7f}";
    let mut mbox = String::new();
    mbox.push_str(&message(
        1,
        None,
        "Mon, 1 Jan 2024 10:00:00 +0000",
        "\u{202e}Eve\u{1} <eve@example.com>",
        hostile,
        &format!("body {hostile}\u{b}\u{c} end"),
    ));
    mbox.push_str(&message(
        2,
        Some(1),
        "Mon, 1 Jan 2024 11:00:00 +0000",
        "Eve <eve@example.com>",
        "long",
        &"<&> ".repeat(50_000),
    ));
    mbox.push_str(&message(
        3,
        None,
        "not a date at all",
        "Eve <eve@example.com>",
        "x",
        "y",
    ));
    let path = dir.join("list.mbox");
    fs::write(&path, &mbox).unwrap();
    let web = dir.join("web");
    linkify(&path, &web, &[]);
    for name in ["feed.atom", "t00001.atom", "t00003.atom"] {
        let bytes = fs::read(web.join(name)).unwrap();
        assert!(
            !bytes
                .iter()
                .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')),
            "{name} holds a control character"
        );
        assert!(bytes.len() < 1 << 20, "{name}: {}", bytes.len());
        let feed = read_feed(&web.join(name));
        for e in &feed.entries {
            assert!(
                e.content.len() <= ENTRY_TEXT + CUT.len(),
                "{}",
                e.content.len()
            );
        }
    }
    let feed = read_feed(&web.join("feed.atom"));
    assert_eq!(feed.entries.len(), 3);
    let first = feed
        .entries
        .iter()
        .find(|e| e.link == "00001.html")
        .unwrap();
    assert!(
        first
            .title
            .contains("]]></title></entry></feed><x>&amp;\"'\u{202e}gnp.exe"),
        "{first:?}"
    );
    assert!(!first.title.contains('\u{1}'));
    assert!(first.content.starts_with("body a"), "{first:?}");
    assert!(first.content.contains("</feed><x>&amp;"), "{first:?}");
    assert!(first.content.ends_with(" end"), "{first:?}");
    let long = feed
        .entries
        .iter()
        .find(|e| e.link == "00002.html")
        .unwrap();
    assert!(
        long.content.ends_with(CUT),
        "{}",
        &long.content[long.content.len() - 80..]
    );
    assert!(long.content.starts_with("<&> <&> "));
    assert!(long.content.len() > ENTRY_TEXT - 8);
    let undated = feed
        .entries
        .iter()
        .find(|e| e.link == "00003.html")
        .unwrap();
    assert_eq!(undated.updated, "1970-01-01T00:00:00Z");
    assert_eq!(feed.entries.last().unwrap().link, "00003.html");
    fs::remove_dir_all(&dir).unwrap();
}

/// A feed of a thread an earlier build had and this one does not is removed.
#[test]
fn the_feed_of_a_thread_no_longer_there_is_removed() {
    let dir = temp_dir("stale");
    let path = dir.join("list.mbox");
    let one = message(
        1,
        None,
        "Mon, 1 Jan 2024 10:00:00 +0000",
        "A <a@example.com>",
        "s",
        "t",
    );
    let two = message(
        2,
        None,
        "Mon, 1 Jan 2024 11:00:00 +0000",
        "A <a@example.com>",
        "u",
        "v",
    );
    fs::write(&path, format!("{one}{two}")).unwrap();
    let web = dir.join("web");
    linkify(&path, &web, &[]);
    assert!(web.join("t00002.atom").is_file());
    fs::write(&path, &one).unwrap();
    linkify(&path, &web, &[]);
    assert!(!web.join("t00002.atom").exists());
    assert_eq!(read_feed(&web.join("feed.atom")).entries.len(), 1);
    fs::remove_dir_all(&dir).unwrap();
}
