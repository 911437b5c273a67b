//! Hostile archive folders and inputs, round 4: an input that cannot be read, two runs on
//! one folder, an input rewritten during a build, old pages and state files that are
//! links, FIFOs or devices, and state values that do not hold together. Each test fails
//! on a build without the fix it names.

#![cfg(feature = "mail")]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("hostile", name)
}

fn message(n: usize, extra_headers: &str, body: &str) -> String {
    format!(
        "From a@example.com Mon Jan  1 00:00:00 2024\n\
         Message-ID: <{n}@example.com>\nFrom: Ann <ann@example.com>\n\
         Date: Mon, {n} Jan 2024 10:00:00 +0100\nSubject: message {n}\n{extra_headers}\n{body}\n\n"
    )
}

fn messages(range: std::ops::RangeInclusive<usize>) -> String {
    range
        .map(|n| message(n, "", &format!("see https://example.com/{n}\n")))
        .collect()
}

/// `linkscan linkify --mbox --no-progress INPUT --out DIR MORE`.
fn linkify(input: &Path, dir: &Path, more: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "--no-progress"])
        .arg(input)
        .arg("--out")
        .arg(dir)
        .args(more)
        .output()
        .expect("linkscan runs")
}

/// As [`linkify`], and it must exit 0: its stderr.
fn linkify_ok(input: &Path, dir: &Path, more: &[&str]) -> String {
    let out = linkify(input, dir, more);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// Every file of `dir` (dot files too) and its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap_or_default(),
            )
        })
        .collect()
}

/// An input that cannot be read (a typo, a damaged gzip) is an error, exit 2, and
/// removes nothing of the archive already in the folder: no page, not its state.
#[test]
fn an_input_that_cannot_be_read_removes_nothing() {
    let dir = temp_dir("unreadable");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, messages(1..=5)).unwrap();
    let web = dir.join("web");
    linkify_ok(&mbox, &web, &[]);
    let before = files(&web);
    for more in [&[][..], &["--update"][..]] {
        let out = linkify(&dir.join("lsit.mbox"), &web, more);
        assert_eq!(out.status.code(), Some(2), "{more:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("lsit.mbox"), "{stderr}");
        assert!(files(&web) == before, "{more:?}: the folder changed");
    }
    // A gzip damaged half-way: the messages before the damage are written again, and
    // none of the pages after them goes.
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let text: String = (1..=300)
        .map(|n| message(n, "", &format!("{n} {}\n", "words ".repeat(40 + n % 7))))
        .collect();
    std::io::Write::write_all(&mut enc, text.as_bytes()).unwrap();
    let mut gz = enc.finish().unwrap();
    let gz_path = dir.join("list.mbox.gz");
    fs::write(&gz_path, &gz).unwrap();
    linkify_ok(&gz_path, &web, &[]);
    let before = files(&web);
    let half = gz.len() / 2;
    gz[half] ^= 0x55;
    fs::write(&gz_path, &gz).unwrap();
    let out = linkify(&gz_path, &web, &[]);
    assert_eq!(out.status.code(), Some(2));
    let after = files(&web);
    for name in before.keys().filter(|n| n.ends_with(".html")) {
        assert!(after.contains_key(name), "{name} was removed");
    }
    assert!(
        after["index.html"] == before["index.html"],
        "the front page changed"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// A folder another run holds (its lock file locked) is not written: the second run
/// refuses, exit 2, and says which folder.
#[test]
fn a_folder_in_use_is_refused() {
    let dir = temp_dir("locked");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, messages(1..=3)).unwrap();
    let web = dir.join("web");
    linkify_ok(&mbox, &web, &[]);
    let before = files(&web);
    let lock = fs::File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(web.join(".linkscan.lock"))
        .unwrap();
    lock.lock().unwrap();
    fs::write(&mbox, messages(1..=4)).unwrap();
    for more in [&[][..], &["--update"][..]] {
        let out = linkify(&mbox, &web, more);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&*web.to_string_lossy()), "{stderr}");
        assert!(stderr.contains("in use"), "{stderr}");
        assert!(files(&web) == before, "the folder changed");
    }
    drop(lock);
    linkify_ok(&mbox, &web, &["--update"]);
    assert!(web.join("00004.html").exists());
    // The lock file is no page: no page names it.
    for (name, bytes) in files(&web) {
        assert!(
            !String::from_utf8_lossy(&bytes).contains(".linkscan.lock"),
            "{name}"
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// An mbox rewritten while it is built (redacted in place, its length kept) is not
/// recorded as the input of pages made from its old bytes: the next update rebuilds
/// rather than find nothing to do.
#[test]
fn an_input_rewritten_during_a_build_is_not_recorded() {
    use linkscan_mail::archive::{Archive, Updated};
    use linkscan_mail::{MailScanner, MboxReader};
    let dir = temp_dir("rewritten");
    let mbox = dir.join("list.mbox");
    let text = messages(1..=3).replace("example.com/2", "secret.com/2");
    fs::write(&mbox, &text).unwrap();
    let web = dir.join("web");
    let scanner = MailScanner::new();
    let mut archive = Archive::create(&web).unwrap().source(&mbox, &scanner);
    let file = mbox.to_string_lossy().into_owned();
    for m in MboxReader::new(std::io::BufReader::new(fs::File::open(&mbox).unwrap())) {
        archive
            .push(&file, &scanner.scan(m.unwrap().bytes()))
            .unwrap();
    }
    // Redacted in place before the build ends.
    fs::write(&mbox, text.replace("secret.com/2", "XXXXXX.com/2")).unwrap();
    archive.finish().unwrap();
    drop(archive);
    let page = fs::read_to_string(web.join("00002.html")).unwrap();
    assert!(page.contains("secret.com"));
    let updated = Archive::create(&web)
        .unwrap()
        .update(&mbox, &scanner)
        .unwrap();
    assert!(matches!(updated, Updated::Rebuild(_)), "{updated:?}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A page of the last run that is a symbolic link now (to a file the attacker cannot
/// read) is never read by an update: nothing of its target is published, and the page
/// is a plain file again.
#[cfg(unix)]
#[test]
fn an_update_never_reads_a_page_through_a_link() {
    let dir = temp_dir("page-link");
    let mbox = dir.join("list.mbox");
    let one = message(1, "", "one\n");
    let two = message(2, "", "two\n");
    let three = message(3, "In-Reply-To: <1@example.com>\n", "three\n");
    fs::write(&mbox, format!("{one}{two}")).unwrap();
    let web = dir.join("web");
    linkify_ok(&mbox, &web, &[]);
    let secret = dir.join("secret.txt");
    fs::write(&secret, "SECRET ".repeat(4000)).unwrap();
    let page = web.join("00001.html");
    fs::remove_file(&page).unwrap();
    std::os::unix::fs::symlink(&secret, &page).unwrap();
    fs::write(&mbox, format!("{one}{two}{three}")).unwrap();
    let _ = linkify(&mbox, &web, &["--update"]);
    for (name, bytes) in files(&web) {
        if name != "00001.html" || !fs::symlink_metadata(&page).unwrap().is_symlink() {
            assert!(
                !String::from_utf8_lossy(&bytes).contains("SECRET"),
                "{name}"
            );
        }
    }
    assert!(!fs::symlink_metadata(&page).unwrap().is_symlink());
    assert_eq!(fs::read_to_string(&secret).unwrap(), "SECRET ".repeat(4000));
    fs::remove_dir_all(&dir).unwrap();
}

/// A state file that is a FIFO is not read (which would wait for ever): the update
/// rebuilds, and says why.
#[cfg(unix)]
#[test]
fn a_state_file_that_is_a_fifo_is_not_read() {
    let dir = temp_dir("state-fifo");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, messages(1..=2)).unwrap();
    let web = dir.join("web");
    linkify_ok(&mbox, &web, &[]);
    let state = web.join(".linkscan-archive");
    fs::remove_file(&state).unwrap();
    let made = Command::new("mkfifo").arg(&state).status().unwrap();
    assert!(made.success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "--no-progress"])
        .arg(&mbox)
        .arg("--out")
        .arg(&web)
        .arg("--update")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("the update waits on the FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("cannot be used"), "{stderr}");
    assert!(fs::symlink_metadata(&state).unwrap().is_file());
    fs::remove_dir_all(&dir).unwrap();
}

/// A message page removed from the folder is written again by an update.
#[test]
fn an_update_restores_a_missing_message_page() {
    let dir = temp_dir("missing");
    let mbox = dir.join("list.mbox");
    fs::write(&mbox, messages(1..=3)).unwrap();
    let web = dir.join("web");
    linkify_ok(&mbox, &web, &[]);
    fs::remove_file(web.join("00001.html")).unwrap();
    fs::write(&mbox, messages(1..=4)).unwrap();
    linkify_ok(&mbox, &web, &["--update"]);
    assert!(web.join("00001.html").is_file());
    assert!(web.join("00004.html").is_file());
    fs::remove_dir_all(&dir).unwrap();
}

/// With addresses obfuscated, an input named after an address is obfuscated too: on
/// the front page and in the state file.
#[test]
fn an_input_named_after_an_address_is_obfuscated() {
    let dir = temp_dir("named");
    let mbox = dir.join("dev@lists.example.org.mbox");
    fs::write(&mbox, messages(1..=2)).unwrap();
    let web = dir.join("web");
    linkify_ok(&mbox, &web, &["--addresses", "obfuscate"]);
    for (name, bytes) in files(&web) {
        assert!(
            !String::from_utf8_lossy(&bytes).contains("dev@lists"),
            "{name}"
        );
    }
    fs::write(&mbox, messages(1..=3)).unwrap();
    let said = linkify_ok(&mbox, &web, &["--addresses", "obfuscate", "--update"]);
    assert!(!said.contains("cannot update"), "{said}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A warning names its message by a Message-ID cut short (its start and a hash), never
/// the whole of a long one, in a build and in an update.
#[test]
fn warnings_cut_a_long_message_id_short() {
    let dir = temp_dir("long-id");
    let mbox = dir.join("list.mbox");
    let long = format!(
        "From a@example.com Mon Jan  1 00:00:00 2024\nMessage-ID: <{}@example.com>\n\
         Subject: s\nContent-Type: text/plain; charset=x-no-such-charset\n\nsee example.com\n\n",
        "a".repeat(50_000)
    );
    fs::write(&mbox, format!("{}{long}", messages(1..=1))).unwrap();
    let web = dir.join("web");
    let said = linkify_ok(&mbox, &web, &[]);
    assert!(said.contains("message 2 <aaaa"), "{}", &said[..200]);
    assert!(said.lines().all(|l| l.len() < 1000), "{}", &said[..200]);
    fs::write(&mbox, format!("{}{long}{long}", messages(1..=1))).unwrap();
    let said = linkify_ok(&mbox, &web, &["--update"]);
    assert!(
        !said.contains("cannot update"),
        "{}",
        &said[..200.min(said.len())]
    );
    assert!(
        said.contains("message 3 <aaaa"),
        "{}",
        &said[..200.min(said.len())]
    );
    assert!(said.lines().all(|l| l.len() < 1000), "{}", &said[..200]);
    fs::remove_dir_all(&dir).unwrap();
}

/// A file of the folder that an update reads, mutated: cut at several places, bytes
/// changed (among them the `>` after a Message-ID marker's hash, which a run once sliced
/// inside a character), removed, or a folder in its place. The update never panics: it
/// ends (0), or fails with a message (exit 1 or 2); and a full build afterwards is a
/// fresh build, byte for byte.
#[test]
fn an_update_of_a_mutated_folder_never_panics() {
    let dir = temp_dir("mutated");
    let mbox = dir.join("list.mbox");
    let one = message(1, "", "see <3@example.com> and https://example.com/1\n");
    let two = message(2, "In-Reply-To: <1@example.com>\n", "two <1@example.com>\n");
    let three = message(3, "In-Reply-To: <1@example.com>\n", "three\n");
    let mutations = |bytes: &[u8]| -> Vec<(String, Option<Vec<u8>>)> {
        let len = bytes.len();
        let mut out: Vec<(String, Option<Vec<u8>>)> = Vec::new();
        for cut in [
            0,
            1,
            len / 3,
            len / 2,
            len.saturating_sub(20),
            len.saturating_sub(1),
        ] {
            out.push((format!("cut at {cut}"), Some(bytes[..cut].to_vec())));
        }
        let mut places: Vec<usize> = (1..6).map(|k| k * len / 6).collect();
        let marker = b"data-mid=\"";
        if let Some(at) = bytes.windows(marker.len()).position(|w| w == marker) {
            let end = at + marker.len();
            let quote = end + bytes[end..].iter().position(|&b| b == b'"').unwrap_or(0);
            places.extend([end, quote, quote + 1]);
        }
        for at in places.into_iter().filter(|&at| at + 2 <= len) {
            let mut e = bytes.to_vec();
            e[at..at + 2].copy_from_slice("é".as_bytes());
            out.push((format!("é at {at}"), Some(e)));
            let mut x = bytes.to_vec();
            x[at] ^= 0x80;
            out.push((format!("byte {at} flipped"), Some(x)));
        }
        out.push(("removed".into(), None));
        out
    };
    for obfuscate in [false, true] {
        let more: &[&str] = if obfuscate {
            &["--addresses", "obfuscate"]
        } else {
            &[]
        };
        let update: Vec<&str> = more.iter().copied().chain(["--update"]).collect();
        let fresh = dir.join("fresh");
        let _ = fs::remove_dir_all(&fresh);
        fs::write(&mbox, format!("{one}{two}{three}")).unwrap();
        linkify_ok(&mbox, &fresh, more);
        let expected = files(&fresh);
        for name in [
            "00001.html",
            "00002.html",
            "t00001.html",
            ".linkscan-archive",
        ] {
            let web = dir.join("web");
            let _ = fs::remove_dir_all(&web);
            fs::write(&mbox, format!("{one}{two}")).unwrap();
            linkify_ok(&mbox, &web, more);
            let path = web.join(name);
            let bytes = fs::read(&path).unwrap();
            let mut cases = mutations(&bytes);
            cases.push(("a folder".into(), Some(Vec::new())));
            for (k, (what, mutated)) in cases.into_iter().enumerate() {
                let folder = what == "a folder";
                if k > 0 {
                    let _ = fs::remove_dir_all(&web);
                    fs::write(&mbox, format!("{one}{two}")).unwrap();
                    linkify_ok(&mbox, &web, more);
                }
                let _ = fs::remove_file(&path);
                match mutated {
                    _ if folder => fs::create_dir(&path).unwrap(),
                    Some(m) => fs::write(&path, m).unwrap(),
                    None => {}
                }
                fs::write(&mbox, format!("{one}{two}{three}")).unwrap();
                let out = linkify(&mbox, &web, &update);
                let stderr = String::from_utf8_lossy(&out.stderr);
                let code = out.status.code();
                assert!(
                    matches!(code, Some(0..=2)) && !stderr.contains("panicked"),
                    "{name}, {what}, obfuscate {obfuscate}: {code:?} {stderr}"
                );
                assert!(
                    code == Some(0) || stderr.contains("linkscan: "),
                    "{name}, {what}: {stderr}"
                );
                if folder {
                    let _ = fs::remove_dir_all(&path);
                }
                linkify_ok(&mbox, &web, more);
                assert!(
                    files(&web) == expected,
                    "{name}, {what}, obfuscate {obfuscate}: a full build is not a fresh one"
                );
            }
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A page citing more Message-IDs than its row keeps (64) is rewritten by an update only
/// when one of them is added: an update that adds another message leaves it as it is
/// (the same file), and the folder is still a full build's.
#[cfg(unix)]
#[test]
fn a_page_citing_many_ids_is_not_rewritten_by_every_update() {
    use std::os::unix::fs::MetadataExt;
    let dir = temp_dir("many-ids");
    let mbox = dir.join("list.mbox");
    let cites: String = (2..=70)
        .chain(73..=90)
        .map(|n| format!("<{n}@example.com>\n"))
        .collect();
    let mut text = message(1, "", &cites);
    text.push_str(&messages(2..=70));
    fs::write(&mbox, &text).unwrap();
    let web = dir.join("web");
    linkify_ok(&mbox, &web, &[]);
    let page = web.join("00001.html");
    let before = fs::metadata(&page).unwrap().ino();
    for n in [71, 72] {
        text.push_str(&message(n, "", "unrelated\n"));
        fs::write(&mbox, &text).unwrap();
        let said = linkify(&mbox, &web, &["--update"]);
        assert!(said.status.success());
        assert_eq!(fs::metadata(&page).unwrap().ino(), before, "after {n}");
    }
    // A cited message added: the page is written, with the link to it.
    text.push_str(&messages(73..=73));
    fs::write(&mbox, &text).unwrap();
    linkify_ok(&mbox, &web, &["--update"]);
    assert!(fs::read_to_string(&page)
        .unwrap()
        .contains("<a class=\"mid\" href=\"00073.html\">"));
    let fresh = dir.join("fresh");
    linkify_ok(&mbox, &fresh, &[]);
    assert!(
        files(&web) == files(&fresh),
        "an update is not a full build"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// A warning of an update that gives a place in the input gives it in the file, as a full
/// build of the same file says it, not from where the update started to read.
#[test]
fn an_update_gives_warnings_at_their_place_in_the_file() {
    let dir = temp_dir("warning-offsets");
    let mbox = dir.join("list.mbox");
    let body = "hello\n\nFrom here on, all is well\nyes\n";
    let text = format!("{}{}", messages(1..=3), message(4, "", body));
    fs::write(&mbox, messages(1..=3)).unwrap();
    let web = dir.join("web");
    linkify_ok(&mbox, &web, &[]);
    fs::write(&mbox, &text).unwrap();
    let updated = linkify_ok(&mbox, &web, &["--update"]);
    let full = linkify_ok(&mbox, &dir.join("fresh"), &[]);
    let at = |said: &str| -> Vec<String> {
        said.lines()
            .filter_map(|l| l.split_once("at byte ").map(|(_, r)| r.to_string()))
            .collect()
    };
    assert!(!at(&full).is_empty(), "{full}");
    assert_eq!(at(&updated), at(&full), "{updated}");
    fs::remove_dir_all(&dir).unwrap();
}
