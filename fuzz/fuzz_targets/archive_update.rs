//! `--update` on a folder someone else changed: an archive of a small thread is built
//! once; each input mutates a copy of its folder (the state file, message, thread, month
//! and front pages: cut, overwritten with the input's bytes, replaced by the input,
//! deleted, made a folder or a symbolic link) and appends the input to the mbox as one
//! more message, then updates it. An update may refuse (an error, or `Rebuild`) but must
//! not panic; afterwards a full build of the folder must equal a full build into an
//! empty one, whatever the update left. Use the dictionary `fuzz/dict/mail.dict`.
#![no_main]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use linkscan_mail::archive::{Addresses, Archive, Updated};
use linkscan_mail::{MailScanner, MboxReader};

const THREAD: &str = "From a@example.com Mon Jan  1 00:00:00 2024\n\
    Message-ID: <1@example.com>\nFrom: Ann <ann@example.com>\nSubject: plans\n\
    Date: Mon, 1 Jan 2024 10:00:00 +0000\n\nsee example.com and <2@example.com>\n\n\
    From b@example.com Tue Jan  2 00:00:00 2024\nMessage-ID: <2@example.com>\n\
    In-Reply-To: <1@example.com>\nFrom: Bob <bob@example.com>\nSubject: re: plans\n\
    Date: Tue, 2 Jan 2024 10:00:00 +0000\n\n> see example.com\nyes, x.org/a\n\n";

/// The files an update reads.
const FILES: &[&str] = &[
    ".linkscan-archive",
    "00001.html",
    "00002.html",
    "t00001.html",
    "2024-01.html",
    "index.html",
];

fn build(dir: &Path, mbox: &Path, addresses: Addresses) -> std::io::Result<()> {
    let scanner = MailScanner::new();
    let mut archive = Archive::create(dir)?
        .addresses(addresses)
        .source(mbox, &scanner);
    let file = std::io::BufReader::new(fs::File::open(mbox)?);
    for m in MboxReader::new(file).take(1000) {
        archive.push(&mbox.to_string_lossy(), &scanner.scan(m?.bytes()))?;
    }
    archive.finish()?;
    Ok(())
}

/// Every file of `dir` and its bytes (the lock file aside).
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() != ".linkscan.lock")
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = fs::read(e.path()).unwrap_or_default();
            (name, bytes)
        })
        .collect()
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("linkscan-fuzz-update-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Applies one mutation, chosen by `op`, to `path` with `bytes`.
fn mutate(path: &Path, op: u8, at: usize, bytes: &[u8]) {
    let old = fs::read(path).unwrap_or_default();
    let at = if old.is_empty() { 0 } else { at % old.len() };
    match op % 6 {
        0 => {
            let _ = fs::write(path, &old[..at]);
        }
        1 => {
            let mut new = old.clone();
            let end = (at + bytes.len()).min(new.len());
            new[at..end].copy_from_slice(&bytes[..end - at]);
            let _ = fs::write(path, new);
        }
        2 => {
            let _ = fs::write(path, bytes);
        }
        3 => {
            let _ = fs::remove_file(path);
        }
        4 => {
            let _ = fs::remove_file(path);
            let _ = fs::create_dir(path);
        }
        _ => {
            let _ = fs::remove_file(path);
            let _ = std::os::unix::fs::symlink("/dev/zero", path);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, rest) = data.split_at(4);
    let split = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    let (bytes, appended) = (&rest[..split], rest.get(split + 1..).unwrap_or_default());
    let addresses = if head[3] & 1 == 0 {
        Addresses::Show
    } else {
        Addresses::Obfuscate
    };
    let dir = scratch();
    let mbox = dir.join("list.mbox");
    let web = dir.join("web");
    fs::write(&mbox, THREAD).unwrap();
    build(&web, &mbox, addresses).unwrap();

    let target = web.join(FILES[usize::from(head[0]) % FILES.len()]);
    mutate(&target, head[1], usize::from(head[2]) * 97, bytes);
    let mut grown = THREAD.as_bytes().to_vec();
    grown.extend_from_slice(b"From c@example.com Wed Jan  3 00:00:00 2024\n");
    grown.extend_from_slice(appended);
    grown.extend_from_slice(b"\n\n");
    fs::write(&mbox, &grown).unwrap();

    let scanner = MailScanner::new();
    if let Ok(archive) = Archive::create(&web) {
        let mut archive = archive.addresses(addresses);
        match archive.update(&mbox, &scanner) {
            Ok(Updated::Done { .. }) | Ok(Updated::Rebuild(_)) | Err(_) => {}
        }
    }

    // A full build repairs whatever the update left: it equals a build into an empty
    // folder (a folder where a page goes is the one thing it cannot replace).
    if target.is_dir() {
        let _ = fs::remove_dir(&target);
    }
    build(&web, &mbox, addresses).unwrap();
    let fresh = dir.join("fresh");
    build(&fresh, &mbox, addresses).unwrap();
    assert_eq!(
        contents(&web),
        contents(&fresh),
        "a full build after the update differs"
    );
    let _ = fs::remove_dir_all(&dir);
});
