//! The inputs of the crate's unit tests: the shared corpora, the multilingual corpus
//! wrapped as messages in every encoding, and generated messages (proptest strategies)
//! that exercise the corners of the parser and of the splitter.

use proptest::prelude::*;

use super::common;
use crate::{MboxMessage, MboxReader};

/// A file of the shared corpus.
pub(super) fn corpus(name: &str) -> Vec<u8> {
    let path = common::shared().join("corpus").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The messages of an mbox, as the line reader gives them.
pub(super) fn mbox_messages(mbox: &[u8]) -> Vec<MboxMessage> {
    MboxReader::new(mbox)
        .collect::<std::io::Result<Vec<_>>>()
        .expect("in-memory reads cannot fail")
}

/// The multilingual corpus cut into documents of about 4 KB at line breaks.
pub(super) fn intl_documents() -> Vec<String> {
    let text = String::from_utf8_lossy(&corpus("email-intl.txt")).into_owned();
    let mut docs = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        current.push_str(line);
        if current.len() > 4096 {
            docs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        docs.push(current);
    }
    docs
}

/// Quoted-printable encoding (RFC 2045 section 6.7), lines of at most 76 characters.
pub(super) fn quoted_printable(text: &str) -> String {
    let mut out = String::new();
    for line in text.split('\n') {
        let mut width = 0;
        for &b in line.as_bytes() {
            let piece = if (b == b' ' || b.is_ascii_graphic()) && b != b'=' {
                (b as char).to_string()
            } else {
                format!("={b:02X}")
            };
            if width + piece.len() > 75 {
                out.push_str("=\n");
                width = 0;
            }
            width += piece.len();
            out.push_str(&piece);
        }
        out.push('\n');
    }
    out
}

pub(super) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, group) in bytes.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push('\n');
        }
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out.push('\n');
    out
}

/// Wraps document `i` of the corpus as a message, cycling through the encodings a
/// message can have: plain UTF-8, quoted-printable, base64, Latin-1 (when the text has
/// only Latin-1 characters), HTML, and multipart/alternative.
pub(super) fn wrap(i: usize, doc: &str) -> Vec<u8> {
    let header = format!(
        "Received: from mx{i}.example.net (mx{i}.example.net [192.0.2.{}]) by example.org\n\
         \twith ESMTP id {i}; Mon, 1 Jan 2024 00:00:00 +0000\n\
         From: =?utf-8?q?J=C3=BCrgen?= <j{i}@example.org>\n\
         To: list@example.org\n\
         Date: Mon, 1 Jan 2024 00:00:{:02} +0000\n\
         Message-ID: <doc{i}@example.org>\n\
         Subject: =?utf-8?b?{}?=\n\
         MIME-Version: 1.0\n",
        i % 256,
        i % 60,
        base64(doc.lines().next().unwrap_or("").as_bytes()).trim_end()
    );
    let body = match i % 6 {
        0 => format!("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n{doc}"),
        1 => format!(
            "Content-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n\n{}",
            quoted_printable(doc)
        ),
        2 => format!(
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n{}",
            base64(doc.as_bytes())
        ),
        3 => {
            let latin1: Option<Vec<u8>> = doc
                .chars()
                .map(|c| u8::try_from(u32::from(c)).ok())
                .collect();
            match latin1 {
                Some(bytes) => {
                    let mut m = b"Content-Type: text/plain; charset=iso-8859-1\n\n".to_vec();
                    m.extend_from_slice(&bytes);
                    return [header.as_bytes(), &m].concat();
                }
                None => format!("Content-Type: text/plain\n\n{doc}"),
            }
        }
        4 => format!(
            "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n{}",
            quoted_printable(&format!("<html><body><p>{}</p><a href=\"https://example.com/{i}\">x</a></body></html>", doc.replace('<', "&lt;")))
        ),
        _ => format!(
            "Content-Type: multipart/alternative; boundary=\"b{i}\"\n\n--b{i}\n\
             Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n{}\n--b{i}\n\
             Content-Type: text/html; charset=utf-8\n\n<p>{}</p>\n--b{i}--\n",
            quoted_printable(doc),
            doc.replace('<', "&lt;")
        ),
    };
    [header.as_bytes(), body.as_bytes()].concat()
}

/// Header lines, body lines and separators that exercise the parser's and the splitter's
/// corners.
fn header_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Received: from a.example (a.example [192.0.2.1])\n\tby b.example; Mon, 1 Jan 2024 00:00:00 +0000\n".to_string()),
        Just("Subject: =?utf-8?q?see_example.com?=\n".to_string()),
        Just("Subject: =?iso-8859-1?q?caf=E9?= x.org/a\n".to_string()),
        Just("Subject: folded\n example.net/x\n".to_string()),
        Just("From: \"A, B\" <a@example.com>\n".to_string()),
        Just("From: broken <<>\n".to_string()),
        Just("Date: Mon, 1 Jan 2024 00:00:00 +0000\n".to_string()),
        Just("Date: not a date\n".to_string()),
        Just("Message-ID: <id@example.org>\n".to_string()),
        Just("Message-ID: no brackets\n".to_string()),
        Just("To: x@example.org\n".to_string()),
        Just("X-Weird:\n\tcontinued\n".to_string()),
        Just("Content-Type: text/plain; charset=utf-8\n".to_string()),
        Just("Content-Type: text/plain; charset=iso-8859-1\n".to_string()),
        Just("Content-Type: text/plain; charset=x-unknown\n".to_string()),
        Just("Content-Type: text/html\n".to_string()),
        Just("Content-Type: multipart/mixed; boundary=zz\n".to_string()),
        Just("Content-Type: multipart/signed; boundary=\"zz\"; protocol=\"application/pgp-signature\"\n".to_string()),
        Just("Content-Type: multipart/digest; boundary=zz\n".to_string()),
        Just("Content-Transfer-Encoding: quoted-printable\n".to_string()),
        Just("Content-Transfer-Encoding: base64\n".to_string()),
        Just("Content-Transfer-Encoding: 8bit\n".to_string()),
        Just("Content-Disposition: attachment\n".to_string()),
        "[A-Za-z-]{1,12}: [ -~]{0,30}\n",
    ]
}

fn body_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("see https://example.com/a_(b) now\n".to_string()),
        Just("https://en.wikipedia.org/wiki/Ham=\nburg =3D x@example.org\n".to_string()),
        Just("caf=E9 =C3=A9t=C3=A9 example.org/=\n".to_string()),
        Just("==41 =ZZ =\n".to_string()),
        Just("aHR0cHM6Ly9leGFtcGxlLmNvbS8K\n".to_string()),
        Just("--zz\nContent-Type: text/plain\n\nin part x.com\n".to_string()),
        Just("--zz--\n".to_string()),
        // Parts of every kind the path of flat messages reads, and the nested ones it
        // leaves to the general path.
        Just("--zz\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\ncaf=C3=A9 x.org/=\n".to_string()),
        Just("--zz\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<a href=3D\"https://h.example/\">t</a>=\r\n".to_string()),
        Just("--zz\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\naHR0cHM6Ly9leGFtcGxlLmNvbS8K\n".to_string()),
        Just("--zz\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\naGVsbG8=\n".to_string()),
        Just("--zz\nContent-Type: image/png\n\n\u{89}PNG\n".to_string()),
        Just("--zz\nContent-Type: message/rfc822\n\nSubject: inner\n\nx.com\n".to_string()),
        Just("--zz\nContent-Type: multipart/alternative; boundary=yy\n\n--yy\n\nnested y.com\n--yy--\n".to_string()),
        Just("-- \nsignature z.org --zz trailing\n".to_string()),
        Just("<a href=\"https://h.example/\">t</a> <p>p.example</p>\n".to_string()),
        Just("From the body\n".to_string()),
        Just(">From escaped\n".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        "[ -~]{0,40}\n",
        "[ -~éß中]{0,20}\n",
    ]
}

pub(super) fn message() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(header_line(), 0..8),
        prop::collection::vec(body_line(), 0..12),
        any::<bool>(),
    )
        .prop_map(|(headers, body, blank)| {
            let mut m = headers.concat();
            if blank {
                m.push('\n');
            }
            m.push_str(&body.concat());
            m.into_bytes()
        })
}
