//! Mail archives: any bytes read as one raw message, as an mbox archive (plain, or gzip
//! when they start with its magic bytes) and as an HTML part must not panic or hang, and
//! the links found must be text of their parts. The property is shared with the proptest
//! suite: `crates/mail/tests/it/properties.rs` (`mail_no_panic`).
//!
//! Deep and wide structure: mutations of a few kilobytes never build the thousands of
//! nested parts that break a recursive parser, so each input is also expanded. Its first
//! four bytes choose a repetition count (a byte, shifted left by 0 to 7 bits when the
//! second byte's low nibble is 9 to 15: half the inputs make at most 255 copies, which
//! keeps runs fast, and the largest 32,640), a part template (a
//! `message/rfc822` header, a multipart with a boundary per level, a digest, an encoded
//! message part, or none) and whether the copies nest (deep) or are siblings of one
//! multipart (wide); the next bytes, up to 96, are added to every copy, and the rest ends
//! the message. The expanded message is scanned on a thread with a worker's 2 MiB stack,
//! and its links must be text of their parts too.
//!
//! A panic raised inside the MIME parser (mail-parser) is not a finding by itself:
//! `MailScanner` catches it, warns and scans the message's raw bytes, and the property
//! checks what comes out. (libFuzzer's panic hook would abort on it even though it is
//! caught; the hook installed here lets exactly those through. Any other panic, or one
//! that escapes linkscan, still aborts.) Found this way: an assertion of mail-parser
//! 0.11.9 that fires in builds with debug assertions, kept as
//! `mime_parser_panic_is_contained` in `tests/hostile.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use linkscan_mail::{LinkSource, MailScanner, ScannedMessage};

#[path = "../../crates/mail/tests/it/properties.rs"]
mod properties;

/// Part headers repeated to build deep or wide messages; `{i}` is the copy's number.
const TEMPLATES: [&str; 6] = [
    "Content-Type: message/rfc822\n\n",
    "Content-Type: multipart/mixed; boundary=\"b{i}\"\n\n--b{i}\n",
    "Content-Type: multipart/digest; boundary=\"d{i}\"\n\n--d{i}\n\n",
    "Content-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\n\n",
    "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n",
    "",
];

/// The message that `data` describes (see the module documentation), if it is long enough.
fn expand(data: &[u8]) -> Option<Vec<u8>> {
    let (&[count, scale, shape, unit_len], rest) = data.split_first_chunk::<4>()?;
    // Mostly small counts (fast runs), up to 255 * 128 = 32,640 copies.
    let reps = usize::from(count) << (scale % 16).saturating_sub(8);
    let template = TEMPLATES[usize::from(shape >> 1) % TEMPLATES.len()];
    let wide = shape & 1 == 1;
    let (unit, tail) = rest.split_at(usize::from(unit_len % 97).min(rest.len()));
    let mut raw = b"From: fuzz@example.com\nSubject: x.example.com\n".to_vec();
    if wide {
        raw.extend_from_slice(b"Content-Type: multipart/mixed; boundary=\"w\"\n\n");
    }
    for i in 0..reps {
        if wide {
            raw.extend_from_slice(b"--w\n");
        }
        raw.extend_from_slice(template.replace("{i}", &i.to_string()).as_bytes());
        raw.extend_from_slice(unit);
    }
    if wide {
        raw.extend_from_slice(b"--w--\n");
    }
    raw.extend_from_slice(tail);
    Some(raw)
}

/// Every link is text of its part (for an href link: its anchor lies in the text).
fn consistent(scanned: &ScannedMessage) -> Result<(), String> {
    for part in scanned.parts() {
        for link in part.links() {
            let inside = part.text().get(link.range());
            let ok = match link.source() {
                LinkSource::Text => inside == Some(link.text()),
                LinkSource::Href => inside.is_some() && !link.text().is_empty(),
                other => return Err(format!("unknown link source {other:?}")),
            };
            if !ok {
                return Err(format!("{link:?} is not text of part {}", part.path()));
            }
        }
    }
    Ok(())
}

fuzz_target!(
    init: {
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
        if let Err(e) = properties::mail_no_panic(data) {
            panic!("{e}");
        }
        if let Some(raw) = expand(data) {
            let scanned = std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || MailScanner::new().scan(&raw))
                .expect("thread starts")
                .join()
                .unwrap_or_else(|_| panic!("the scan of an expanded message panicked"));
            if let Err(e) = consistent(&scanned) {
                panic!("{e}");
            }
        }
    }
);
