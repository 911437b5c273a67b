//! `linkscan linkify --mbox … --out DIR --search`: the archive searchable in the browser
//! with Pagefind.
//!
//! * Without Pagefind the run fails with the install command, before writing anything.
//! * With it (tests `#[ignore = "needs pagefind"]`; `.ci/run` installs it and exports
//!   `PAGEFIND`): only message pages are marked for the index, every page links to
//!   `search.html`; an update indexes the new message (its word is in the index's
//!   fragments, which are gzip) and equals a full build; with `--addresses obfuscate` no
//!   file of the index holds an address.
//! * In headless Chromium (`#[ignore = "needs chromium and pagefind"]`), served over
//!   HTTP by a thread of the test: a word of one message's text, typed into the search
//!   box, finds that message's page, and no other page.

#![cfg(feature = "mail")]

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::linkify_archive as linkify;

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("search", name)
}

/// [`linkify`] that must succeed (with a Pagefind to be found: `PAGEFIND`, the `PATH`,
/// `python3 -m pagefind`).
fn build(mbox: &Path, out: &Path, more: &[&str]) {
    let run = linkify(mbox, out, more);
    assert!(
        run.status.success(),
        "this test needs Pagefind (pip install 'pagefind[bin]'; or PAGEFIND=PROGRAM): {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// A message of `from`, numbered `n`, saying `body`.
fn message(n: usize, from: &str, subject: &str, body: &str) -> String {
    format!(
        "From x@example.com Mon Jan  1 00:00:00 2024\n\
         From: {from}\nSubject: {subject}\nMessage-ID: <m{n}@example.com>\n\
         Date: Mon, {n} Jan 2024 10:00:00 +0000\n\n{body}\n"
    )
}

/// A thread of three messages; one word each that no other message has.
fn three() -> String {
    [
        message(
            1,
            "Ann Lee <ann.lee@example.com>",
            "plans",
            "the quarterly zeppelin report, see https://example.com/a",
        ),
        message(
            2,
            "bob@example.org",
            "re: plans",
            "> the quarterly zeppelin report\nwrite to carol@example.net about the marmalade",
        ),
        message(3, "Carol <carol@example.net>", "other", "nothing of note"),
    ]
    .concat()
}

/// Every file under `dir`, by its path relative to it, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let name = path
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(name, fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The files of the index (`pagefind/`), each decompressed when it is gzip.
fn index_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    tree(&dir.join("pagefind"))
        .into_iter()
        .map(|(name, bytes)| {
            if bytes.starts_with(&[0x1f, 0x8b]) {
                let mut plain = Vec::new();
                flate2::read::MultiGzDecoder::new(&bytes[..])
                    .read_to_end(&mut plain)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                (name, plain)
            } else {
                (name, bytes)
            }
        })
        .collect()
}

/// The decompressed fragments (one per page indexed) that hold `word`: their texts.
fn fragments_with(dir: &Path, word: &str) -> Vec<String> {
    let fragments: Vec<String> = index_files(dir)
        .into_iter()
        .filter(|(name, _)| name.ends_with(".pf_fragment"))
        .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned())
        .collect();
    assert!(!fragments.is_empty(), "no fragment in {}", dir.display());
    fragments.into_iter().filter(|f| f.contains(word)).collect()
}

#[test]
fn search_without_pagefind_fails_and_writes_nothing() {
    let dir = temp_dir("missing");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, three()).unwrap();
    let nowhere = dir.join("empty-bin");
    fs::create_dir_all(&nowhere).unwrap();
    let cases: [(&str, &[&str]); 2] = [
        ("nothing on the PATH", &["--search"]),
        (
            "a --pagefind that is not there",
            &["--search", "--pagefind", "/nonexistent/pagefind"],
        ),
    ];
    for (what, args) in cases {
        let out = dir.join("web");
        let run = Command::new(env!("CARGO_BIN_EXE_linkscan"))
            .args(["linkify", "--mbox", "--no-progress"])
            .arg(&mbox)
            .arg("--out")
            .arg(&out)
            .args(args)
            .env("PATH", &nowhere)
            .env_remove("PAGEFIND")
            .output()
            .expect("linkscan runs");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{what}: {stderr}");
        assert!(
            stderr.contains("pip install 'pagefind[bin]'"),
            "{what}: {stderr}"
        );
        assert!(!out.exists(), "{what}: {} was made", out.display());
    }
    // A PAGEFIND that is not Pagefind is refused too, and not passed over for another.
    let out = dir.join("web");
    let run = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "--no-progress", "--search"])
        .arg(&mbox)
        .arg("--out")
        .arg(&out)
        .env("PAGEFIND", "true")
        .output()
        .expect("linkscan runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("PAGEFIND=true"), "{stderr}");
    assert!(!out.exists());
    // --pagefind needs --search.
    let run = linkify(&mbox, &out, &["--pagefind", "pagefind"]);
    assert!(!run.status.success());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn without_search_no_page_is_marked() {
    let dir = temp_dir("unmarked");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, three()).unwrap();
    let out = dir.join("web");
    let run = linkify(&mbox, &out, &[]);
    assert!(run.status.success());
    for (name, bytes) in tree(&out) {
        let page = String::from_utf8_lossy(&bytes);
        assert!(!page.contains("pagefind"), "{name}");
        assert!(!page.contains("search.html"), "{name}");
    }
    assert!(!out.join("search.html").exists());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs pagefind"]
fn only_message_pages_are_indexed_and_every_page_links_the_search() {
    let dir = temp_dir("marked");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, three()).unwrap();
    let out = dir.join("web");
    build(&mbox, &out, &["--search"]);
    let pages = tree(&out);
    let search = String::from_utf8_lossy(&pages["search.html"]).into_owned();
    assert!(search.contains("<script src=\"pagefind/pagefind-ui.js\"></script>"));
    assert!(search.contains("<link href=\"pagefind/pagefind-ui.css\" rel=\"stylesheet\">"));
    for (name, bytes) in pages.iter().filter(|(n, _)| n.ends_with(".html")) {
        let page = String::from_utf8_lossy(bytes);
        let message = name.len() == "00001.html".len() && name.starts_with("0000");
        assert_eq!(page.contains("data-pagefind-body"), message, "{name}");
        if name != "search.html" {
            assert!(
                page.contains("<a href=\"search.html\">Search</a>"),
                "{name}"
            );
        }
    }
    let first = String::from_utf8_lossy(&pages["00001.html"]).into_owned();
    assert!(first.contains("<td class=\"subject\" dir=\"auto\" data-pagefind-meta=\"title\">"));
    assert!(first.contains("<span data-pagefind-filter=\"author\">Ann Lee</span>"));
    assert!(first.contains("<span data-pagefind-filter=\"month\">2024-01</span>"));
    assert!(first.contains("<nav class=\"archive\" data-pagefind-ignore>"));
    // Three pages indexed, each its own: the reply's word is in its fragment only.
    let index = index_files(&out);
    assert!(index.contains_key("pagefind-ui.js") && index.contains_key("pagefind-entry.json"));
    let marmalade = fragments_with(&out, "marmalade");
    assert_eq!(marmalade.len(), 1, "{marmalade:?}");
    assert!(marmalade[0].contains("00002.html"), "{}", marmalade[0]);
    // The quoted word is on both pages that say it; the thread page is not indexed.
    let zeppelin = fragments_with(&out, "zeppelin");
    assert_eq!(zeppelin.len(), 2);
    assert!(zeppelin.iter().all(|f| !f.contains("t00001")));
    // The navigation is not indexed: no page is found by "Previous".
    assert!(fragments_with(&out, "Previous").is_empty());
    // Built again without --search: the search page and the index are gone.
    build(&mbox, &out, &[]);
    assert!(!out.join("search.html").exists() && !out.join("pagefind").exists());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs pagefind"]
fn an_update_indexes_the_new_messages_as_a_full_build_does() {
    let dir = temp_dir("update");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, three()).unwrap();
    let (updated, full) = (dir.join("updated"), dir.join("full"));
    build(&mbox, &updated, &["--search"]);
    let before = index_files(&updated);
    assert!(fragments_with(&updated, "xylophone").is_empty());
    let mut more = three();
    more.push_str(&message(
        4,
        "Dan <dan@example.com>",
        "music",
        "a xylophone solo",
    ));
    fs::write(&mbox, &more).unwrap();
    let run = linkify(&mbox, &updated, &["--search", "--update"]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&run.stderr).contains("cannot update"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let after = index_files(&updated);
    assert_ne!(before, after, "the index was not rewritten");
    let found = fragments_with(&updated, "xylophone");
    assert_eq!(found.len(), 1);
    assert!(found[0].contains("00004.html"));
    // As a full build: the same pages, and the same words in the index.
    build(&mbox, &full, &["--search"]);
    let pages = |d: &Path| -> BTreeMap<String, Vec<u8>> {
        tree(d)
            .into_iter()
            .filter(|(n, _)| !n.starts_with("pagefind"))
            .collect()
    };
    assert!(pages(&updated) == pages(&full), "the pages differ");
    let fragments = |d: &Path| -> Vec<Vec<u8>> {
        let mut f: Vec<Vec<u8>> = index_files(d)
            .into_iter()
            .filter(|(n, _)| n.ends_with(".pf_fragment"))
            .map(|(_, b)| b)
            .collect();
        f.sort();
        f
    };
    assert!(
        fragments(&updated) == fragments(&full),
        "the fragments differ"
    );
    // An update that turns search on (or off) rebuilds: the pages change.
    let plain = dir.join("plain");
    build(&mbox, &plain, &[]);
    let run = linkify(&mbox, &plain, &["--search", "--update"]);
    assert!(run.status.success());
    assert!(
        pages(&plain) == pages(&full),
        "search turned on by an update"
    );
    let run = linkify(&mbox, &plain, &["--update"]);
    assert!(run.status.success());
    assert!(!plain.join("pagefind").exists() && !plain.join("search.html").exists());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs pagefind"]
fn an_obfuscated_index_holds_no_address() {
    let dir = temp_dir("obfuscate");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, three()).unwrap();
    let out = dir.join("web");
    build(&mbox, &out, &["--search", "--addresses", "obfuscate"]);
    let index = index_files(&out);
    let mut read = 0;
    for (name, bytes) in &index {
        if name.ends_with(".js") || name.ends_with(".css") || name.starts_with("wasm.") {
            continue; // Pagefind's own code
        }
        let text = String::from_utf8_lossy(bytes);
        for address in ["ann.lee@", "bob@", "carol@", "@example"] {
            assert!(!text.contains(address), "{name}: {address}");
        }
        read += 1;
    }
    // The obfuscated form is there (the index has the text), and the author filter.
    let marmalade = fragments_with(&out, "marmalade");
    assert_eq!(marmalade.len(), 1);
    assert!(
        marmalade[0].contains("carol at example dot net"),
        "{}",
        marmalade[0]
    );
    assert!(
        marmalade[0].contains("bob at example dot org"),
        "{}",
        marmalade[0]
    );
    assert!(read >= 4, "{:?}", index.keys().collect::<Vec<_>>());
    let _ = fs::remove_dir_all(&dir);
}

/// Serves the files of `dir` over HTTP on a free port of 127.0.0.1, on a thread of its own
/// (for as long as the test runs); returns the port.
fn serve(dir: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let dir = dir.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    return;
                }
                // The headers, up to the empty line.
                let mut header = String::new();
                while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                    header.clear();
                }
                let path = line.split(' ').nth(1).unwrap_or("/");
                let path = path.split('?').next().unwrap().trim_start_matches('/');
                if path == "wait" {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
                let path = if path.is_empty() { "index.html" } else { path };
                let file = dir.join(path);
                let reply = match (path.contains(".."), fs::read(&file)) {
                    (false, Ok(bytes)) => {
                        let kind = match file.extension().and_then(|e| e.to_str()) {
                            Some("html") => "text/html; charset=utf-8",
                            Some("js") => "text/javascript",
                            Some("css") => "text/css",
                            Some("json") => "application/json",
                            _ => "application/octet-stream",
                        };
                        let mut r = format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
                             Connection: close\r\n\r\n",
                            bytes.len()
                        )
                        .into_bytes();
                        r.extend(bytes);
                        r
                    }
                    _ if path == "wait" => {
                        b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n".to_vec()
                    }
                    _ => {
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                            .to_vec()
                    }
                };
                let _ = stream.write_all(&reply);
            });
        }
    });
    port
}

/// Types `word` into the search box of `search.html` and writes the links of the results
/// into `#measured` once there are some. Pagefind searches on a worker, which Chromium's
/// virtual time does not wait for: each wait is a request to `/wait`, which the server
/// answers after a while of real time, and virtual time stands still while it is pending.
const TYPE_AND_LIST: &str = "<pre id=\"measured\"></pre><script>\
  window.addEventListener('load', () => {\
    let typed = false;\
    const step = async () => {\
      const input = document.querySelector('.pagefind-ui__search-input');\
      if (input && !typed) {\
        typed = true;\
        input.value = 'WORD';\
        input.dispatchEvent(new Event('input', {bubbles: true}));\
      }\
      const links = [...document.querySelectorAll('.pagefind-ui__result-link')];\
      if (links.length) {\
        document.getElementById('measured').textContent = 'results ' +\
          links.map(a => a.getAttribute('href')).join(' ');\
        return;\
      }\
      await fetch('/wait');\
      setTimeout(step, 10);\
    };\
    step();\
  });\
</script></body>";

#[test]
#[ignore = "needs chromium and pagefind"]
fn a_word_typed_in_the_search_box_finds_its_message() {
    let browser = crate::browser::chromium();
    let dir = temp_dir("browser");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, three()).unwrap();
    let out = dir.join("web");
    build(&mbox, &out, &["--search"]);
    let port = serve(out.clone());
    for (word, expected) in [("marmalade", "/00002.html"), ("zeppelin", "/00001.html")] {
        let page = fs::read_to_string(out.join("search.html"))
            .unwrap()
            .replace("</body>", &TYPE_AND_LIST.replace("WORD", word));
        let probe = format!("probe-{word}.html");
        fs::write(out.join(&probe), page).unwrap();
        let run = crate::browser::chromium_command(&browser, &dir)
            .args(["--virtual-time-budget=15000", "--dump-dom"])
            .arg(format!("http://127.0.0.1:{port}/{probe}"))
            .output()
            .expect("chromium runs");
        assert!(run.status.success(), "chromium failed: {run:?}");
        let dom = String::from_utf8_lossy(&run.stdout);
        let start = dom.find("<pre id=\"measured\">").expect("the probe") + 19;
        let results = &dom[start..start + dom[start..].find("</pre>").unwrap()];
        let links: Vec<&str> = results
            .strip_prefix("results")
            .unwrap_or_else(|| panic!("{word}: no results written: {results:?}"))
            .split_whitespace()
            .collect();
        assert!(links.contains(&expected), "{word}: {links:?}");
        // Only message pages: the thread page that copies the text is not found.
        assert!(
            links
                .iter()
                .all(|l| l.len() == "/00001.html".len() && l.starts_with("/0000")),
            "{word}: {links:?}"
        );
        if word == "marmalade" {
            assert_eq!(links, [expected]);
        }
    }
    let _ = fs::remove_dir_all(&dir);
}
