//! `linkify --addresses obfuscate`: no file of the archive folder holds an address-shaped
//! string (`local@host.tld`, whether a finder calls it an address or not: cited
//! Message-IDs, URLs that carry one, hosts without a known TLD) or a `mailto:`.

#![cfg(feature = "mail")]

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("obfuscate", name)
}

/// The address-shaped strings of `bytes`: ASCII local-part characters, `@`, and a host of
/// two labels or more.
fn addresses(bytes: &[u8]) -> Vec<String> {
    let local = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~.-".contains(&b);
    let host = |b: u8| b.is_ascii_alphanumeric() || b == b'.' || b == b'-';
    let mut found = Vec::new();
    for (at, _) in bytes.iter().enumerate().filter(|(_, &b)| b == b'@') {
        if at == 0 || !local(bytes[at - 1]) {
            continue;
        }
        let end = bytes[at + 1..]
            .iter()
            .position(|&b| !host(b))
            .map_or(bytes.len(), |i| at + 1 + i);
        let h = String::from_utf8_lossy(&bytes[at + 1..end]);
        if h.trim_matches(['.', '-'])
            .split('.')
            .filter(|l| !l.is_empty())
            .count()
            >= 2
        {
            let from = at.saturating_sub(30);
            found.push(String::from_utf8_lossy(&bytes[from..end]).into_owned());
        }
    }
    found
}

/// Builds `mbox` with `--addresses obfuscate` into `out`.
fn build_obfuscated(mbox: &Path, out: &Path) {
    crate::common::build_archive(mbox, out, &["--addresses", "obfuscate"]);
}

/// Asserts that no file of `dir` or of its folders (the attachments under `a/`) holds
/// an address or a `mailto:`; returns how many files were read.
fn assert_no_address(dir: &Path) -> usize {
    let mut files = 0;
    let mut folders = vec![dir.to_path_buf()];
    let mut paths = Vec::new();
    while let Some(folder) = folders.pop() {
        for e in fs::read_dir(folder).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                paths.push(path);
            }
        }
    }
    for path in paths {
        let bytes = fs::read(&path).unwrap();
        let found = addresses(&bytes);
        assert!(
            found.is_empty(),
            "{}: {:?}",
            path.display(),
            &found[..found.len().min(5)]
        );
        assert!(
            !bytes.windows(7).any(|w| w.eq_ignore_ascii_case(b"mailto:")),
            "{}: mailto:",
            path.display()
        );
        files += 1;
    }
    files
}

/// Every page of the English corpus's archive (and its state file).
#[test]
fn no_page_of_the_corpus_holds_an_address() {
    let dir = temp_dir("corpus");
    let mbox = common::shared().join("corpus").join("email-en.mbox");
    build_obfuscated(&mbox, &dir);
    let files = assert_no_address(&dir);
    assert!(files > 8000, "{files} files");
    // The feeds were among them: the list's and one per thread.
    let feeds = fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".atom")
        })
        .count();
    assert!(feeds > 1000, "{feeds} feeds");
    fs::remove_dir_all(&dir).unwrap();
}

/// The cases one at a time: a cited Message-ID of the archive (a link to its page, with
/// the ID obfuscated) and one it does not have, an address the finder does not call one,
/// a URL that carries an address (text, not a link), one that carries it as `%40`, and a
/// subject with an address.
#[test]
fn cited_ids_and_urls_with_addresses_are_obfuscated() {
    let dir = temp_dir("cases");
    let mbox = dir.join("list.mbox");
    fs::write(
        &mbox,
        "From a@example.com Mon Jan  1 00:00:00 2024\n\
         Message-ID: <1.x@mail.example.com>\nFrom: Ann <ann@example.com>\n\
         Subject: ask bob@example.org\n\n\
         see <2.y@mail.example.com>, <gone@elsewhere.example.net>, a@localhost.lan,\n\
         https://lore.kernel.org/r/20240101-1-ann@example.com/ and\n\
         https://example.com/?to=bob%40example.org\n\n\
         From b@example.com Mon Jan  1 00:00:00 2024\n\
         Message-ID: <2.y@mail.example.com>\nIn-Reply-To: <1.x@mail.example.com>\n\
         Subject: re\n\nyes, see <1.x@mail.example.com>\n",
    )
    .unwrap();
    let web = dir.join("web");
    build_obfuscated(&mbox, &web);
    assert_no_address(&web);
    let page = fs::read_to_string(web.join("00001.html")).unwrap();
    assert!(
        page.contains(
            "<a class=\"mid\" href=\"00002.html\">&lt;2.y at mail dot example dot com&gt;</a>"
        ),
        "{page}"
    );
    assert!(
        page.contains("&lt;gone at elsewhere dot example dot net&gt;"),
        "{page}"
    );
    assert!(page.contains("a at localhost dot lan"), "{page}");
    assert!(!page.contains("href=\"https://lore.kernel.org"), "{page}");
    assert!(
        page.contains("<title>ask bob at example dot org</title>"),
        "{page}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Attachments under obfuscation: a text attachment drawn as text, a text file written
/// beside the pages (`--attachments link`) and names and types that carry addresses
/// leave no address in any file; the patch's text is still there, obfuscated.
#[test]
fn attachments_leave_no_address() {
    let dir = temp_dir("attachments");
    let mbox = dir.join("list.mbox");
    fs::write(
        &mbox,
        "From a@example.com Mon Jan  1 00:00:00 2024\n\
         Message-ID: <1.x@mail.example.com>\nFrom: Ann <ann@example.com>\nSubject: fix\n\
         MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n\
         --b\nContent-Type: text/plain\n\nthe fix\n\
         --b\nContent-Type: text/x-patch; name=\"ann@example.com.patch\"\n\n\
         Signed-off-by: Ann <ann@example.com>\n+see mailto:bob@example.org\n\
         --b\nContent-Type: application/octet-stream; name=\"bob@example.org.dat\"\n\n\
         write to carol@example.net\n\
         --b\nContent-Type: image/png; name=\"dave@example.com.png\"\n\nPNG\n--b--\n",
    )
    .unwrap();
    for how in ["inline", "link"] {
        let web = dir.join(how);
        let run = Command::new(env!("CARGO_BIN_EXE_linkscan"))
            .args([
                "linkify",
                "--mbox",
                "--no-progress",
                "--addresses",
                "obfuscate",
            ])
            .args(["--attachments", how])
            .arg(&mbox)
            .arg("--out")
            .arg(&web)
            .output()
            .expect("linkscan runs");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        // The page, and the files: the .dat as text, the image.
        assert!(assert_no_address(&web) >= 4, "{how}");
        let page = fs::read_to_string(web.join("00001.html")).unwrap();
        assert!(
            page.contains("Signed-off-by: Ann &lt;ann at example dot com&gt;") || how == "link",
            "{page}"
        );
        let written = fs::read_dir(web.join("a/00001")).unwrap().count();
        assert_eq!(written, if how == "inline" { 2 } else { 3 }, "{how}");
    }
    let text = fs::read_to_string(dir.join("link/a/00001/2-bob_example_org.txt")).unwrap();
    assert_eq!(text, "write to carol at example dot net");
    fs::remove_dir_all(&dir).unwrap();
}

/// `bytes` as a reader sees it: tags removed and the entities of escaped text decoded, so
/// that an address split by markup (`ann@<a …>example.com</a>`) is seen whole.
fn visible(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .into_bytes()
}

/// Addresses chained by more than one `@` (`ann@example.com@relay.example.org`), doubled
/// `@`s and addresses that touch links: the scrub of a run's text, links and surroundings
/// together, leaves no address-shaped string, in the body, the Subject row or the
/// headers, neither in the page's source nor in the text a reader sees.
#[test]
fn chained_and_doubled_at_signs_leave_no_address() {
    let dir = temp_dir("chains");
    let mbox = dir.join("list.mbox");
    let hostile = [
        "ann@example.com@relay.example.org",
        "a@b.com@c.org",
        "a@@b.com",
        "a@b@c.d@e.f@g.h.example.com",
        "x.y@a.b@c.d@e.f",
        "ann@example.com@",
        "@ann@example.com",
        "\"a@b.com\"@c.org",
        "a@https://example.com/x",
        "https://example.com/@a@b.org",
        "mamailto:ilto:a@b.com",
        "<ann@example.com@relay.example.org>",
        "ann@example.com.@relay.example.org",
        "a@b.c-@d.e",
    ];
    let mut text = String::new();
    for (k, h) in hostile.iter().enumerate() {
        text.push_str(&format!(
            "From a@example.com Mon Jan  1 00:00:00 2024\n\
             Message-ID: <{k}.x@mail.example.com>\nFrom: {h}\nTo: {h}, {h}\nCc: Ann <{h}>\n\
             Subject: ask {h} now\n\n\
             see {h} and {h}{h} and ({h}).\n\n"
        ));
    }
    fs::write(&mbox, text).unwrap();
    let web = dir.join("web");
    build_obfuscated(&mbox, &web);
    assert_no_address(&web);
    for e in fs::read_dir(&web).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let found = addresses(&visible(&fs::read(&path).unwrap()));
            assert!(found.is_empty(), "{}: {found:?}", path.display());
        }
    }
    // The feeds, as a feed reader reads them (references resolved).
    let feed = crate::archive_feeds::read_feed(&web.join("feed.atom"));
    assert_eq!(feed.entries.len(), hostile.len());
    for e in &feed.entries {
        for text in [&e.title, &e.author, &e.content, &e.id] {
            let found = addresses(text.as_bytes());
            assert!(found.is_empty(), "{}: {found:?}", e.link);
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// The author of a feed's entry: the sender's name, or without one the address as the
/// message page shows it, obfuscated; no address in any feed.
#[test]
fn feed_authors_are_names_or_obfuscated_addresses() {
    let dir = temp_dir("feeds");
    let mbox = dir.join("list.mbox");
    fs::write(
        &mbox,
        "From a@example.com Mon Jan  1 00:00:00 2024\nFrom: Ann Lee <ann@example.com>\n\
         Message-ID: <1.x@mail.example.com>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\n\
         Subject: write to ann@example.com\n\nor bob@example.org\n\n\
         From a@example.com Mon Jan  1 00:00:00 2024\nFrom: bob@example.org\n\
         Message-ID: <2.x@mail.example.com>\nIn-Reply-To: <1.x@mail.example.com>\n\
         Date: Mon, 1 Jan 2024 11:00:00 +0000\nSubject: re\n\nyes\n",
    )
    .unwrap();
    let web = dir.join("web");
    build_obfuscated(&mbox, &web);
    assert_no_address(&web);
    for name in ["feed.atom", "t00001.atom"] {
        let feed = crate::archive_feeds::read_feed(&web.join(name));
        let authors: Vec<&str> = feed.entries.iter().map(|e| e.author.as_str()).collect();
        assert_eq!(authors, ["bob at example dot org", "Ann Lee"], "{name}");
        assert_eq!(feed.entries[1].title, "write to ann at example dot com");
        assert_eq!(feed.entries[1].content, "or bob at example dot org");
    }
    let page = fs::read_to_string(web.join("00002.html")).unwrap();
    assert!(page.contains("bob at example dot org"), "{page}");
    fs::remove_dir_all(&dir).unwrap();
}
