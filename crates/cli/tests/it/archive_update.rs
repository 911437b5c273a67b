//! `linkscan linkify --mbox FILE --out DIR --update` and `Archive::update`: an archive
//! updated with the messages appended to its mbox is, byte for byte, the archive a full
//! build of the whole mbox makes; whatever cannot be updated (a rewritten input, other
//! options, a damaged state file, a Maildir, several inputs) is rebuilt, with the reason
//! on stderr.

#![cfg(feature = "mail")]

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use linkscan_mail::archive::{
    Addresses, Archive, Attachments, Updated, DEFAULT_ATTACHMENT_LIMIT, STATE_FILE,
};
use linkscan_mail::{MailScanner, MboxReader};

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("update", name)
}

/// Every file of `dir` and of its folders (dot files too, attachments under `a/`) by
/// its path in `dir`, and its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut folders = vec![(dir.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = folders.pop() {
        for e in fs::read_dir(&folder).unwrap() {
            let e = e.unwrap();
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            if e.file_type().unwrap().is_dir() {
                folders.push((e.path(), format!("{name}/")));
            } else {
                all.insert(name, fs::read(e.path()).unwrap());
            }
        }
    }
    all
}

/// Asserts that the folders hold the same files, byte for byte (`diff -r`).
fn assert_same(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    let names = |f: &BTreeMap<String, Vec<u8>>| f.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&fa),
        names(&fb),
        "{} and {}",
        a.display(),
        b.display()
    );
    for (name, bytes) in &fa {
        assert!(
            *bytes == fb[name],
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
    assert!(fa.contains_key(STATE_FILE));
}

/// `linkscan linkify --mbox --no-progress ARGS`: its stderr; fails the test unless it
/// exits 0.
fn linkify(args: &[&Path], more: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "--no-progress"])
        .args(args)
        .args(more)
        .output()
        .expect("linkscan runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// Builds `mbox` into `out`, whole or as an update: the stderr.
fn build(mbox: &Path, out: &Path, update: bool) -> String {
    let mut more = vec!["--out", out.to_str().unwrap()];
    if update {
        more.push("--update");
    }
    linkify(&[mbox], &more)
}

/// The first `n` messages of the English corpus, and where each starts.
fn corpus_messages(n: usize) -> (Vec<u8>, Vec<usize>) {
    let path = common::shared().join("corpus").join("email-en.mbox");
    let data = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let starts: Vec<usize> = MboxReader::new(&data[..])
        .take(n + 1)
        .map(|m| m.unwrap().offset() as usize)
        .collect();
    let end = starts.get(n).copied().unwrap_or(data.len());
    let mut data = data;
    data.truncate(end);
    (data, starts[..n.min(starts.len())].to_vec())
}

/// Half of 1,200 messages of the corpus, updated to 1,000 and again to all of them, is
/// at each step the archive a full build makes; an update writes fewer pages than there
/// are, and says so.
#[test]
fn updates_of_an_appended_mbox_equal_full_builds() {
    let dir = temp_dir("appended");
    let (data, starts) = corpus_messages(1200);
    let mbox = dir.join("list.mbox");
    let full_mbox = dir.join("full").join("list.mbox");
    fs::create_dir_all(full_mbox.parent().unwrap()).unwrap();
    let (web, full) = (dir.join("web"), dir.join("web-full"));
    fs::write(&mbox, &data[..starts[600]]).unwrap();
    let first = build(&mbox, &web, true);
    assert!(
        first.contains("cannot update (no .linkscan-archive"),
        "{first}"
    );
    for end in [starts[1000], data.len()] {
        fs::write(&mbox, &data[..end]).unwrap();
        let said = build(&mbox, &web, true);
        assert!(!said.contains("cannot update"), "{said}");
        fs::write(&full_mbox, &data[..end]).unwrap();
        build(&full_mbox, &full, false);
        assert_same(&web, &full);
    }
    // Nothing appended: nothing written.
    let said = linkify(&[&mbox], &["--out", web.to_str().unwrap(), "--update"]);
    assert!(said.is_empty() || !said.contains("cannot update"), "{said}");
    assert_same(&web, &full);
    fs::remove_dir_all(&dir).unwrap();
}

fn message(n: usize, extra_headers: &str, body: &str) -> String {
    format!(
        "From a@example.com Mon Jan  1 00:00:00 2024\n\
         Message-ID: <{n}@example.com>\nFrom: Ann <ann@example.com>\n\
         Date: Mon, {n} Jan 2024 10:00:00 +0100\nSubject: message {n}\n{extra_headers}\n{body}\n"
    )
}

/// Builds `before` then updates to `after` in one folder, builds `after` whole in
/// another, and compares them; returns the update's stderr.
fn update_equals_full(name: &str, before: &str, after: &str, more: &[&str]) -> String {
    let dir = temp_dir(name);
    let mbox = dir.join("list.mbox");
    let full_mbox = dir.join("full").join("list.mbox");
    fs::create_dir_all(full_mbox.parent().unwrap()).unwrap();
    let (web, full) = (dir.join("web"), dir.join("web-full"));
    let args = |out: &Path| {
        let mut args = vec!["--out".to_string(), out.to_str().unwrap().to_string()];
        args.extend(more.iter().map(|s| s.to_string()));
        args
    };
    fs::write(&mbox, before).unwrap();
    let a = args(&web);
    linkify(&[&mbox], &a.iter().map(String::as_str).collect::<Vec<_>>());
    fs::write(&mbox, after).unwrap();
    let mut a = args(&web);
    a.push("--update".into());
    let said = linkify(&[&mbox], &a.iter().map(String::as_str).collect::<Vec<_>>());
    fs::write(&full_mbox, after).unwrap();
    let a = args(&full);
    linkify(
        &[&full_mbox],
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_same(&web, &full);
    fs::remove_dir_all(&dir).unwrap();
    said
}

/// A message with attachments: a patch, an image and a file past the limit.
fn with_attachments(n: usize) -> String {
    message(
        n,
        "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n",
        &format!(
            "--b\nContent-Type: text/plain\n\nthe fix {n}\n\
             --b\nContent-Type: text/x-patch; name=fix{n}.patch\n\n\
             --- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new see example.org/{n}\n\
             --b\nContent-Type: image/png\nContent-Disposition: attachment; filename=shot{n}.png\n\
             Content-Transfer-Encoding: base64\n\niVBORw0KGgo=\n\
             --b\nContent-Type: application/octet-stream; name=big.bin\n\n{}\n--b--\n",
            "x".repeat(3000)
        ),
    )
}

/// Attachments: the files an update writes under `a/` (and the pages that link them)
/// are those of a full build, for `inline` and `link`; and a folder of a message that an
/// earlier build had and this one does not is removed.
#[test]
fn attachments_update_as_a_full_build() {
    let msgs: Vec<String> = (1..=4).map(with_attachments).collect();
    let before = msgs[..2].join("\n");
    let after = msgs.join("\n");
    for how in ["inline", "link"] {
        let said = update_equals_full(
            &format!("attach-{how}"),
            &before,
            &after,
            &["--attachments", how, "--attachment-limit", "2K"],
        );
        assert!(!said.contains("cannot update"), "{said}");
    }
    // The files are there, named safely, the one past the limit not written.
    let dir = temp_dir("attach-files");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, &after).unwrap();
    let web = dir.join("web");
    linkify(
        &[&mbox],
        &["--out", web.to_str().unwrap(), "--attachment-limit", "2K"],
    );
    let all = files(&web);
    let attached: Vec<&str> = all
        .keys()
        .filter(|k| k.starts_with("a/"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        attached,
        [
            "a/00001/1-shot1.png",
            "a/00002/1-shot2.png",
            "a/00003/1-shot3.png",
            "a/00004/1-shot4.png"
        ]
    );
    assert_eq!(all["a/00001/1-shot1.png"], b"\x89PNG\r\n\x1a\n");
    let page = String::from_utf8(all["00001.html"].clone()).unwrap();
    assert!(page.contains("href=\"a/00001/1-shot1.png\""), "{page}");
    assert!(
        page.contains("not written, past the archive's limit of 2.0 KiB"),
        "{page}"
    );
    // Rebuilt from fewer messages: the folders of the others go.
    fs::write(&mbox, &before).unwrap();
    linkify(
        &[&mbox],
        &["--out", web.to_str().unwrap(), "--attachment-limit", "2K"],
    );
    let left: Vec<String> = files(&web)
        .into_keys()
        .filter(|k| k.starts_with("a/"))
        .collect();
    assert_eq!(left, ["a/00001/1-shot1.png", "a/00002/1-shot2.png"]);
    // And with none, no folder at all.
    linkify(
        &[&mbox],
        &["--out", web.to_str().unwrap(), "--attachments", "none"],
    );
    assert!(!web.join("a").exists());
    fs::remove_dir_all(&dir).unwrap();
}

/// A message that cites, in its flowed text, the Message-ID of a message that arrives
/// only with the update links to that message's page after the update, as in a full
/// build; so does the page of its parent, whose replies change.
#[test]
fn a_citation_of_a_message_that_arrives_later_is_linked() {
    let one = message(
        1,
        "Content-Type: text/plain; format=flowed\n",
        "see <3@example.com> and example.com\n",
    );
    let two = message(2, "In-Reply-To: <1@example.com>\n", "yes\n");
    let three = message(3, "", "the third\n");
    let before = format!("{one}\n{two}\n");
    let after = format!("{before}{three}");
    let dir = temp_dir("cited-check");
    let said = update_equals_full("cited", &before, &after, &[]);
    assert!(!said.contains("cannot update"), "{said}");
    // The full build links it (so the update does too, being equal to it).
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, &after).unwrap();
    build(&mbox, &dir.join("web"), false);
    let page = fs::read_to_string(dir.join("web").join("00001.html")).unwrap();
    assert!(
        page.contains("<a class=\"mid\" href=\"00003.html\">&lt;3@example.com&gt;</a>"),
        "{page}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// An update that adds replies to an old thread and a new thread changes `feed.atom`
/// and that thread's feed, and adds the new thread's, exactly as a full build writes
/// them; the feed of a thread it does not touch stays as it was.
#[test]
fn feeds_update_as_a_full_build() {
    let one = message(1, "", "one\n");
    let two = message(2, "In-Reply-To: <1@example.com>\n", "two\n");
    let three = message(3, "", "three\n");
    let four = message(
        4,
        "In-Reply-To: <2@example.com>\n",
        "four, see example.org\n",
    );
    let five = message(5, "", "five\n");
    let before = format!("{one}\n{two}\n{three}\n");
    let after = format!("{before}{four}\n{five}\n");
    let dir = temp_dir("feeds");
    let mbox = dir.join("list.mbox");
    let web = dir.join("web");
    fs::write(&mbox, &before).unwrap();
    build(&mbox, &web, false);
    let old = files(&web);
    fs::write(&mbox, &after).unwrap();
    let said = build(&mbox, &web, true);
    assert!(!said.contains("cannot update"), "{said}");
    let new = files(&web);
    let full_mbox = dir.join("full").join("list.mbox");
    fs::create_dir_all(full_mbox.parent().unwrap()).unwrap();
    fs::write(&full_mbox, &after).unwrap();
    build(&full_mbox, &dir.join("web-full"), false);
    assert_same(&web, &dir.join("web-full"));
    let text =
        |f: &BTreeMap<String, Vec<u8>>, name: &str| String::from_utf8(f[name].clone()).unwrap();
    for name in ["feed.atom", "t00001.atom"] {
        assert_ne!(old[name], new[name], "{name}");
        assert!(text(&new, name).contains("href=\"00004.html\""), "{name}");
    }
    assert!(text(&new, "feed.atom").contains("href=\"00005.html\""));
    assert!(!old.contains_key("t00005.atom"));
    assert!(text(&new, "t00005.atom").contains("href=\"00005.html\""));
    assert_eq!(old["t00003.atom"], new["t00003.atom"]);
    fs::remove_dir_all(&dir).unwrap();
}

/// Bytes appended to the last message (no new `From ` line), and a message appended
/// after a last one that had no blank line at its end: the last message is read again.
#[test]
fn the_last_message_is_read_again() {
    let one = message(1, "", "one\n");
    let two = message(
        2,
        "In-Reply-To: <1@example.com>\n",
        "two, see example.org\n",
    );
    let before = format!("{one}\n{two}");
    let said = update_equals_full(
        "continued",
        &before,
        &format!("{before}more of two, example.net\n"),
        &[],
    );
    assert!(!said.contains("cannot update"), "{said}");
    let three = message(3, "In-Reply-To: <2@example.com>\n", "three\n");
    let said = update_equals_full("no-blank", &before, &format!("{before}\n{three}"), &[]);
    assert!(!said.contains("cannot update"), "{said}");
}

/// An input that no longer starts with what was built, or that is shorter, is rebuilt,
/// and stderr says why.
#[test]
fn a_rewritten_input_is_rebuilt() {
    let one = message(1, "", "one\n");
    let two = message(2, "", "two\n");
    let three = message(3, "", "three\n");
    let said = update_equals_full(
        "rewritten",
        &format!("{one}\n{two}\n"),
        &format!("{one}\n{}\n{three}", two.replace("two", "TWO")),
        &[],
    );
    assert!(said.contains("rewritten, not appended to"), "{said}");
    assert!(said.contains("building it whole"), "{said}");
    let said = update_equals_full("shorter", &format!("{one}\n{two}\n"), &one, &[]);
    assert!(said.contains("shorter than when it was built"), "{said}");
}

/// A message over the size limit is read in pieces cut where the build's reads fell:
/// an update that would read one rebuilds, and says so.
#[test]
fn a_message_over_the_size_limit_is_rebuilt() {
    let one = message(1, "", "one\n");
    let long = message(2, "", &"see example.com/a and more words here\n".repeat(40));
    let said = update_equals_full(
        "over-limit",
        &format!("{one}\n"),
        &format!("{one}\n{long}"),
        &["--max-message-size", "512"],
    );
    assert!(said.contains("over the size limit of 512 bytes"), "{said}");
}

/// Other options than those of the build: rebuilt.
#[test]
fn other_options_are_rebuilt() {
    let dir = temp_dir("options");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, message(1, "", "write to bob@example.com\n")).unwrap();
    let web = dir.join("web");
    build(&mbox, &web, false);
    let said = linkify(
        &[&mbox],
        &[
            "--out",
            web.to_str().unwrap(),
            "--update",
            "--addresses",
            "obfuscate",
        ],
    );
    assert!(said.contains("built with other options"), "{said}");
    let page = fs::read_to_string(web.join("00001.html")).unwrap();
    assert!(!page.contains("mailto:"), "{page}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A change made to a state file.
type Damage = Box<dyn Fn(Vec<u8>) -> Vec<u8>>;

/// A state file cut short, with a byte changed, emptied, of another version, or made
/// of garbage: rebuilt, never a panic, and the folder equals a full build.
#[test]
fn a_damaged_state_is_rebuilt() {
    let dir = temp_dir("damaged");
    let before = format!("{}\n{}\n", message(1, "", "one\n"), message(2, "", "two\n"));
    let after = format!("{before}{}", message(3, "", "three\n"));
    let mbox = dir.join("list.mbox");
    let full_mbox = dir.join("full").join("list.mbox");
    fs::create_dir_all(full_mbox.parent().unwrap()).unwrap();
    fs::write(&full_mbox, &after).unwrap();
    let full = dir.join("web-full");
    build(&full_mbox, &full, false);
    let web = dir.join("web");
    let state = web.join(STATE_FILE);
    let damages: Vec<(&str, Damage)> = vec![
        ("cut", Box::new(|s: Vec<u8>| s[..s.len() / 2].to_vec())),
        (
            "changed",
            Box::new(|mut s: Vec<u8>| {
                let at = s.len() / 3;
                s[at] ^= 0x20;
                s
            }),
        ),
        ("empty", Box::new(|_| Vec::new())),
        ("garbage", Box::new(|_| vec![0xff; 1000])),
        (
            "version",
            Box::new(|s: Vec<u8>| {
                String::from_utf8(s)
                    .unwrap()
                    .replacen("state 4", "state 9", 1)
                    .into_bytes()
            }),
        ),
    ];
    for (what, damage) in damages {
        fs::write(&mbox, &before).unwrap();
        build(&mbox, &web, false);
        fs::write(&state, damage(fs::read(&state).unwrap())).unwrap();
        fs::write(&mbox, &after).unwrap();
        let said = build(&mbox, &web, true);
        assert!(said.contains("cannot be used"), "{what}: {said}");
        assert_same(&web, &full);
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Several inputs and Maildirs are not updated: they are rebuilt, with a message; a
/// gzip archive too.
#[test]
fn other_inputs_are_rebuilt() {
    let dir = temp_dir("inputs");
    let (a, b) = (dir.join("a.mbox"), dir.join("b.mbox"));
    fs::write(&a, message(1, "", "one\n")).unwrap();
    fs::write(&b, message(2, "", "two\n")).unwrap();
    let web = dir.join("web");
    let out = ["--out", web.to_str().unwrap(), "--update"];
    linkify(&[&a, &b], &["--out", web.to_str().unwrap()]);
    let said = linkify(&[&a, &b], &out);
    assert!(said.contains("an update reads one mbox file"), "{said}");
    let maildir = dir.join("md");
    fs::create_dir_all(maildir.join("cur")).unwrap();
    fs::create_dir_all(maildir.join("new")).unwrap();
    fs::create_dir_all(maildir.join("tmp")).unwrap();
    fs::write(maildir.join("cur").join("1:2,S"), message(1, "", "one\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--maildir", "--no-progress"])
        .arg(&maildir)
        .args(["--out", web.to_str().unwrap(), "--update"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("an update reads one mbox file"), "{said}");
    assert!(web.join("00001.html").exists());
    // gzip: the state names no input, and an update rebuilds.
    let gz = dir.join("list.mbox.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, message(1, "", "one\n").as_bytes()).unwrap();
    fs::write(&gz, enc.finish().unwrap()).unwrap();
    build(&gz, &web, false);
    let said = build(&gz, &web, true);
    assert!(
        said.contains("not built from one plain mbox file"),
        "{said}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// The library: an archive built with `Archive::push` from the first messages, then
/// `Archive::update` with all of them, equals one built from all of them.
#[test]
fn the_library_updates_as_the_command_line_does() {
    let dir = temp_dir("library");
    let scanner = MailScanner::new();
    let msgs: Vec<String> = (1..=30)
        .map(|n| {
            let reply = if n > 1 && n % 3 != 1 {
                format!("In-Reply-To: <{}@example.com>\n", n - 1)
            } else {
                String::new()
            };
            message(n, &reply, &format!("see https://example.com/{n}\n"))
        })
        .collect();
    let build_lib = |mbox: &Path, out: &Path| {
        let mut archive = Archive::create(out).unwrap().source(mbox, &scanner);
        let file = mbox.to_string_lossy().into_owned();
        for m in MboxReader::new(std::io::BufReader::new(fs::File::open(mbox).unwrap())) {
            let m = m.unwrap();
            archive.push(&file, &scanner.scan(m.bytes())).unwrap();
            archive.count_read_warnings(m.warnings().len());
        }
        archive.finish().unwrap();
    };
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, msgs[..20].join("\n")).unwrap();
    let web = dir.join("web");
    build_lib(&mbox, &web);
    fs::write(&mbox, msgs.join("\n")).unwrap();
    let mut archive = Archive::create(&web).unwrap();
    let Updated::Done {
        added, finished, ..
    } = archive.update(&mbox, &scanner).unwrap()
    else {
        panic!("not updated");
    };
    assert_eq!(added, 11);
    assert!(finished.written < finished.pages, "{finished:?}");
    let full_mbox = dir.join("full").join("list.mbox");
    fs::create_dir_all(full_mbox.parent().unwrap()).unwrap();
    fs::write(&full_mbox, msgs.join("\n")).unwrap();
    let full = dir.join("web-full");
    build_lib(&full_mbox, &full);
    assert_same(&web, &full);
    fs::remove_dir_all(&dir).unwrap();
}

/// An archive built through the library as Python's `build_archive` builds it (the
/// readable policy, `Archive::push`) is the command line's, state file included, so that
/// either can update what the other built.
#[test]
fn the_library_builds_the_command_lines_folder() {
    let dir = temp_dir("library-cli");
    let mbox = dir.join("list.mbox");
    let msgs: Vec<String> = (1..=5)
        .map(|n| {
            message(
                n,
                "",
                &format!("see https://example.com/{n} and bob@example.org\n"),
            )
        })
        .collect();
    fs::write(&mbox, msgs.join("\n")).unwrap();
    let finder = linkscan::LinkFinder::builder()
        .policy(linkscan::Policy::Readable)
        .build();
    // As the command's: its attachments and its bytes kept.
    let scanner = linkscan_mail::archive::scanner(
        MailScanner::new().finder(finder.clone()),
        Attachments::Inline,
        DEFAULT_ATTACHMENT_LIMIT,
        Addresses::Show,
    );
    let web = dir.join("web");
    let mut archive = Archive::create(&web)
        .unwrap()
        .linkifier(linkscan::html::Linkifier::new().finder(finder))
        .downloads(true)
        .source(&mbox, &scanner);
    let file = mbox.to_string_lossy().into_owned();
    for m in MboxReader::new(std::io::BufReader::new(fs::File::open(&mbox).unwrap())) {
        let m = m.unwrap();
        archive.push(&file, &scanner.scan(m.bytes())).unwrap();
        archive.count_read_warnings(m.warnings().len());
    }
    archive.finish().unwrap();
    let cli = dir.join("web-cli");
    build(&mbox, &cli, false);
    assert_same(&web, &cli);
    fs::remove_dir_all(&dir).unwrap();
}

/// The list's name comes from List-Id; a List-Id that only new messages carry gives the
/// pages a full build gives (every list page named after it), and so does `--title`.
#[test]
fn the_list_name_of_new_messages_updates_as_a_full_build() {
    let list = "List-Id: Atlas translators <atlas.lists.example.org>\n";
    let before = format!("{}\n{}\n", message(1, "", "one\n"), message(2, "", "two\n"));
    let after = format!(
        "{before}{}\n{}\n",
        message(3, list, "three\n"),
        message(4, list, "four\n")
    );
    update_equals_full("list-name", &before, &after, &[]);
    update_equals_full("list-title", &before, &after, &["--title", "Atlas <b>"]);
}

/// Another `--title` than the build's: rebuilt, every page with the new title.
#[test]
fn another_title_is_rebuilt() {
    let dir = temp_dir("title");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, message(1, "", "one\n")).unwrap();
    let web = dir.join("web");
    build(&mbox, &web, false);
    let out = web.to_str().unwrap();
    let said = linkify(&[&mbox], &["--out", out, "--update", "--title", "Atlas"]);
    assert!(said.contains("built with other options"), "{said}");
    let page = fs::read_to_string(web.join("00001.html")).unwrap();
    assert!(page.contains("<title>message 1 · Atlas</title>"), "{page}");
    fs::remove_dir_all(&dir).unwrap();
}

/// Builds `mbox` (its text) with `more` options: the folder's pages by name.
fn built(name: &str, mbox: &str, more: &[&str]) -> BTreeMap<String, String> {
    let dir = temp_dir(name);
    let path = dir.join("list.mbox");
    fs::write(&path, mbox).unwrap();
    let web = dir.join("web");
    let mut args = vec!["--out", web.to_str().unwrap()];
    args.extend(more);
    linkify(&[&path], &args);
    let pages = files(&web)
        .into_iter()
        .filter(|(name, _)| name.ends_with(".html"))
        .map(|(name, bytes)| (name, String::from_utf8(bytes).unwrap()))
        .collect();
    fs::remove_dir_all(&dir).unwrap();
    pages
}

/// The `<title>` of a page.
fn title_of(page: &str) -> &str {
    let start = page.find("<title>").unwrap() + 7;
    &page[start..start + page[start..].find("</title>").unwrap()]
}

/// The archive is named after the list of most of its messages (the List-Id's phrase,
/// else its id) on every page; `--title` names it otherwise; without either, "Mail
/// archive".
#[test]
fn the_archive_is_named_after_its_list() {
    let named = "List-Id: Atlas translators <atlas.lists.example.org>\n";
    let bare = "List-Id: <other.lists.example.org>\n";
    let mbox = format!(
        "{}\n{}\n{}\n",
        message(1, bare, "one\n"),
        message(2, named, "two\n"),
        message(3, named, "three\n")
    );
    let pages = built("named", &mbox, &[]);
    assert!(pages["index.html"].contains("<h1><bdi dir=\"auto\">Atlas translators</bdi></h1>"));
    for (name, page) in &pages {
        if name.starts_with("000") {
            continue;
        }
        assert!(
            title_of(page).ends_with("Atlas translators"),
            "{name}: {}",
            title_of(page)
        );
    }
    // A message page names the list it came through.
    assert_eq!(
        title_of(&pages["00001.html"]),
        "message 1 · other.lists.example.org"
    );
    assert_eq!(
        title_of(&pages["00002.html"]),
        "message 2 · Atlas translators"
    );
    assert_eq!(
        title_of(&pages["2024-01.html"]),
        "2024-01 · Atlas translators"
    );

    let pages = built("titled", &mbox, &["--title", "The <Atlas> & co"]);
    for (name, page) in &pages {
        assert!(
            title_of(page).ends_with("The &lt;Atlas&gt; &amp; co"),
            "{name}: {}",
            title_of(page)
        );
        assert!(!page.contains("Atlas translators"), "{name}");
    }

    let pages = built("unnamed", &message(1, "", "one\n"), &[]);
    assert_eq!(title_of(&pages["index.html"]), "Mail archive");
    assert_eq!(title_of(&pages["00001.html"]), "message 1");
}

/// A hostile List-Id is escaped everywhere, and under `--addresses obfuscate` no address
/// of it (or of a `--title`) is written.
#[test]
fn a_hostile_list_id_is_escaped_and_obfuscated() {
    let hostile = "List-Id: \"<script>alert(1)</script> eve@example.com\" <x.example.org>\n";
    let mbox = format!("{}\n", message(1, hostile, "one\n"));
    let pages = built("hostile-list", &mbox, &[]);
    for (name, page) in &pages {
        assert!(!page.contains("<script>"), "{name}");
    }
    assert!(pages["index.html"].contains("&lt;script&gt;alert(1)&lt;/script&gt; eve@example.com"));
    for more in [&[][..], &["--title", "Lists of bob@example.net"][..]] {
        let mut args = vec!["--addresses", "obfuscate"];
        args.extend(more);
        let pages = built("hostile-obfuscated", &mbox, &args);
        for (name, page) in &pages {
            assert!(!page.contains("<script>"), "{name}");
            assert!(!page.contains("@example."), "{name}: {page}");
        }
        assert!(
            title_of(&pages["index.html"]).contains(" at example dot "),
            "{}",
            title_of(&pages["index.html"])
        );
    }
}

/// Less noise: a single-part message has no part heading (one of several parts has);
/// the trees show a reply's subject only where it changes from its parent's, and the
/// author's name without the address (the address alone when there is no name,
/// obfuscated under `--addresses obfuscate`).
#[test]
fn the_trees_show_changed_subjects_and_names_only() {
    let reply = |n: usize, parent: usize, subject: &str, from: &str| {
        format!(
            "From a@example.com Mon Jan  1 00:00:00 2024\n\
             Message-ID: <{n}@example.com>\nIn-Reply-To: <{parent}@example.com>\n\
             From: {from}\nDate: Mon, {n} Jan 2024 10:00:00 +0100\nSubject: {subject}\n\n\
             text {n}\n\n"
        )
    };
    let multipart = "MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=b\n\n\
                     --b\nContent-Type: text/plain\n\nplain\n--b\nContent-Type: text/plain\n\n\
                     again\n--b--\n";
    let mbox = format!(
        "{}\n{}{}{}",
        message(1, "", "one\n"),
        reply(2, 1, "Re:  message   1", "Bob <bob@example.com>"),
        reply(3, 2, "Fwd: RE: message 1 (was: other)", "carol@example.com"),
        message(4, multipart, ""),
    );
    let pages = built("noise", &mbox, &[]);
    let thread = &pages["t00001.html"];
    assert!(
        thread.contains("<bdi dir=\"auto\">message 1</bdi>"),
        "{thread}"
    );
    assert!(
        thread.contains(
            "<a class=\"same\" href=\"#m2\"><span class=\"from\" dir=\"ltr\">\
             <bdi>Bob</bdi></span>"
        ),
        "{thread}"
    );
    assert!(!thread.contains("bob@example.com"), "{thread}");
    assert!(
        thread.contains("<bdi dir=\"auto\">Fwd: RE: message 1 (was: other)</bdi></a>"),
        "{thread}"
    );
    assert!(thread.contains("<bdi>carol@example.com</bdi>"), "{thread}");
    assert!(!thread.contains("Re:  message"), "{thread}");
    let month = &pages["2024-01.html"];
    assert!(
        month.contains("<a class=\"same\" href=\"00002.html\">"),
        "{month}"
    );
    // The address stays on the message page.
    assert!(pages["00002.html"].contains("bob@example.com"));
    // Part headings only where there are several parts.
    assert!(
        !pages["00001.html"].contains("<h2>Part"),
        "{}",
        pages["00001.html"]
    );
    assert!(pages["00004.html"].contains("<h2>Part 1 · text/plain</h2>"));
    assert!(pages["00004.html"].contains("<h2>Part 2 · text/plain</h2>"));

    let pages = built("noise-obfuscated", &mbox, &["--addresses", "obfuscate"]);
    let thread = &pages["t00001.html"];
    assert!(
        thread.contains("<bdi>carol at example dot com</bdi>"),
        "{thread}"
    );
    assert!(!thread.contains("@example"), "{thread}");
}

/// `>` lines of plain mail are nested quotes, a quote of more than 12 lines folded, the
/// "… wrote:" line before it outside the fold, links in quotes linked.
#[test]
fn plain_quotes_are_nested_and_long_ones_folded() {
    let long: String = (1..=40).map(|i| format!("> line {i}\n")).collect();
    let body = format!(
        "On Monday, Ann wrote:\n> see https://example.com/a\n> > deeper\n>> deeper too\nmine\n\n\
         Bob wrote:\n{long}end\n"
    );
    let pages = built("quotes", &format!("{}\n", message(1, "", &body)), &[]);
    let page = &pages["00001.html"];
    assert!(
        page.contains(
            "<div class=\"flowed plain\" dir=\"auto\"><p>On Monday, Ann wrote:</p>\n\
             <blockquote><p>see <bdi dir=\"ltr\"><a href=\"https://example.com/a\""
        ),
        "{page}"
    );
    assert!(
        page.contains("<blockquote><p>deeper</p>\n<p>deeper too</p>\n</blockquote></blockquote>"),
        "{page}"
    );
    assert!(
        page.contains(
            "<p>Bob wrote:</p>\n<details><summary>40 quoted lines</summary><blockquote><p>line 1</p>"
        ),
        "{page}"
    );
    assert!(
        page.contains("<p>line 40</p>\n</blockquote></details><p>end</p>"),
        "{page}"
    );
    // Without quotes: fixed text as before.
    let pages = built(
        "no-quotes",
        &format!("{}\n", message(1, "", "a > b\n")),
        &[],
    );
    assert!(pages["00001.html"].contains("<pre dir=\"auto\">a &gt; b"));
}
