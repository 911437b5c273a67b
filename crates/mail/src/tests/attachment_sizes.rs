//! The size of the parts a scan does not show (`SkippedPart::size`): the bytes of each
//! body as written in the message, found alike by the flat parse and the general one, and
//! shown on the archive's message pages.

use std::fs;
use std::path::{Path, PathBuf};

use crate::archive::Archive;
use crate::{MailScanner, ScannedMessage};

/// `(path, size)` of each skipped part, on both parse paths; asserts that the scan takes
/// the flat path or not as `flat` says, and that both paths agree.
fn sizes(raw: &str, flat: bool) -> (ScannedMessage, Vec<(String, u64)>) {
    let fast = MailScanner::new();
    let general = MailScanner::new().parse_all_headers();
    assert_eq!(fast.takes_flat_path(raw.as_bytes()), flat, "{raw}");
    let a = fast.scan(raw.as_bytes());
    let b = general.scan(raw.as_bytes());
    assert_eq!(a, b, "the paths differ on\n{raw}");
    let sizes = a
        .skipped()
        .iter()
        .map(|p| (p.path.clone(), p.size))
        .collect();
    (a, sizes)
}

const B64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==\niVBORw0KGgoAAAANSUhEUg==";
const QP: &str = "%PDF-1.4 caf=C3=A9 =\nsoft break\nline two";
const SEVEN: &str = "plain bytes\n\nwith a blank line";
const CSV: &str = "a,b\n1,2";

fn flat_message(eol: &str) -> String {
    let m = format!(
        "From: a@example.com\nSubject: files\nMIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"XX\"\n\n\
         preamble\n--XX\nContent-Type: text/plain\n\nsee https://example.com/\n\
         --XX\nContent-Type: image/png; name=\"dot.png\"\nContent-Transfer-Encoding: base64\n\n{B64}\n\
         --XX\nContent-Type: application/pdf; name=\"a.pdf\"\nContent-Transfer-Encoding: quoted-printable\n\n{QP}\n\
         --XX\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: 7bit\n\n{SEVEN}\n\
         --XX\nContent-Type: text/csv\n\n{CSV}\n--XX--\n"
    );
    m.replace('\n', eol)
}

#[test]
fn sizes_are_the_bodies_as_written_on_the_flat_path() {
    for eol in ["\n", "\r\n"] {
        let (_, got) = sizes(&flat_message(eol), true);
        let len = |s: &str| s.replace('\n', eol).len() as u64;
        assert_eq!(
            got,
            [
                ("2".to_string(), len(B64)),
                ("3".to_string(), len(QP)),
                ("4".to_string(), len(SEVEN)),
                ("5".to_string(), len(CSV)),
            ],
            "line ends {eol:?}"
        );
    }
}

#[test]
fn sizes_in_a_nested_message_are_those_of_its_bodies() {
    let raw = format!(
        "From: a@example.com\nSubject: fwd\nMIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"OUT\"\n\n\
         --OUT\nContent-Type: text/plain\n\nforwarded below\n\
         --OUT\nContent-Type: message/rfc822\n\n\
         From: b@example.com\nSubject: inner\nContent-Type: multipart/mixed; boundary=\"IN\"\n\n\
         --IN\nContent-Type: text/plain\n\nhello\n\
         --IN\nContent-Type: image/png; name=\"dot.png\"\nContent-Transfer-Encoding: base64\n\n{B64}\n\
         --IN--\n\
         --OUT\nContent-Type: application/zip; name=\"z.zip\"\nContent-Transfer-Encoding: base64\n\nUEsDBA==\n\
         --OUT--\n"
    );
    let (m, got) = sizes(&raw, false);
    assert_eq!(
        got,
        [("2.2".to_string(), B64.len() as u64), ("3".to_string(), 8)]
    );
    assert_eq!(m.skipped()[0].name.as_deref(), Some("dot.png"));
}

#[test]
fn a_part_cut_short_runs_to_the_end_of_the_message() {
    // A message cut inside its attachment (no delimiter after it): the general path.
    let cut = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAf\niVBORw0KGgoAAA";
    let raw = format!(
        "From: a@example.com\nSubject: cut\nMIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"XX\"\n\n\
         --XX\nContent-Type: text/plain\n\nhi\n\
         --XX\nContent-Type: image/png; name=\"dot.png\"\nContent-Transfer-Encoding: base64\n\n{cut}"
    );
    let (_, got) = sizes(&raw, false);
    assert_eq!(got, [("2".to_string(), cut.len() as u64)]);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "linkscan-attachment-sizes-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every `.html` file under `dir`, concatenated.
fn pages(dir: &Path) -> String {
    let mut all = String::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            all.push_str(&pages(&path));
        } else if path.extension().is_some_and(|e| e == "html") {
            all.push_str(&fs::read_to_string(&path).unwrap());
        }
    }
    all
}

#[test]
fn the_message_page_shows_each_size() {
    let dir = temp_dir("page");
    let mbox = dir.join("list.mbox");
    let raw = flat_message("\n");
    fs::write(
        &mbox,
        format!("From a@example.com Mon Jan  1 00:00:00 2024\n{raw}"),
    )
    .unwrap();
    let scanner = MailScanner::new();
    let web = dir.join("web");
    let mut archive = Archive::create(&web).unwrap().source(&mbox, &scanner);
    archive
        .push(&mbox.to_string_lossy(), &scanner.scan(raw.as_bytes()))
        .unwrap();
    archive.finish().unwrap();
    let html = pages(&web);
    assert!(
        html.contains(&format!(
            "dot.png</bdi>, image/png, <span title=\"{} bytes as sent\">{} bytes encoded</span>",
            B64.len(),
            B64.len()
        )),
        "{html}"
    );
    assert!(
        html.contains(&format!(
            "a.pdf</bdi>, application/pdf, <span title=\"{} bytes as sent\">",
            QP.len()
        )),
        "{html}"
    );
    fs::remove_dir_all(&dir).unwrap();
}
