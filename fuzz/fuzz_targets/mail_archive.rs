//! Whole archives: any bytes as an mbox archive (plain, gzip when they start with its magic
//! bytes, CR line ends when its first line has them) read message by message, and as a
//! Maildir (the bytes split at each `\0` into message files of `cur/`, one of them also a
//! symbolic link out of the folder) listed and read through `open_message`; every message
//! is scanned, and its links must be text of their parts, with no panic. The link out of
//! the folder must be refused. A panic inside the MIME parser, which the scanner catches,
//! is no finding (see `mail_no_panic`). Use the dictionary `fuzz/dict/mail.dict`.
#![no_main]

use std::io::Read;
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use linkscan_mail::maildir::{open_message, read_maildir};
use linkscan_mail::{open_mbox, MailScanner, MboxReader, ScannedMessage};

fn check(m: &ScannedMessage) {
    for part in m.parts() {
        for link in part.links() {
            if link.source() == linkscan_mail::LinkSource::Text {
                assert_eq!(part.text().get(link.range()), Some(link.text()));
            }
        }
    }
}

fn maildir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("linkscan-fuzz-maildir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("Maildir/cur")).unwrap();
    std::fs::create_dir_all(dir.join("Maildir/new")).unwrap();
    std::fs::write(
        dir.join("outside"),
        b"Subject: secret\n\nhttps://secret.example.com/\n",
    )
    .unwrap();
    dir
}

fuzz_target!(
    init: {
        // A panic inside the MIME parser is caught by the scanner (which then scans the
        // raw bytes); libFuzzer's hook would abort on it all the same, so it is let
        // through, as in `mail_no_panic`. Any other panic aborts.
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_parser = info
                .location()
                .is_some_and(|at| at.file().contains("/mail-parser-"));
            if !in_parser {
                abort(info);
            }
        }));
    },
    |data: &[u8]| {
    let scanner = MailScanner::new();
    if let Ok(archive) = open_mbox(data) {
        for message in MboxReader::new(archive).take(10_000) {
            match message {
                Ok(message) => check(&scanner.scan(message.bytes())),
                Err(_) => break,
            }
        }
    }
    let dir = maildir();
    let md = dir.join("Maildir");
    for (k, file) in data.split(|&b| b == 0).take(64).enumerate() {
        std::fs::write(md.join(format!("cur/{k:04}")), file).unwrap();
    }
    std::os::unix::fs::symlink(dir.join("outside"), md.join("new/9999")).unwrap();
    let listed = read_maildir(&md).unwrap();
    for path in &listed.messages {
        match open_message(&md, path) {
            Ok(mut file) => {
                assert!(!path.ends_with("new/9999"), "a link out of the Maildir was followed");
                let mut bytes = Vec::new();
                file.read_to_end(&mut bytes).unwrap();
                check(&scanner.scan(&bytes));
            }
            Err(e) => assert!(path.ends_with("new/9999"), "{path:?}: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    }
);
