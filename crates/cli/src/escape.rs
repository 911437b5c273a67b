//! `linkscan escape`: URLs minimally escaped (UTS #58 section 4.1), one per line.
//!
//! Standard input is read line by line ([`for_each_line`]): a line ends at LF, CR or
//! CRLF, so files with old Mac line ends give one URL per line too. A line is bytes;
//! bytes that are not valid UTF-8 are percent-escaped (`\xFF` becomes `%FF`) before the
//! line is formatted, so they stay escaped in the output (and mark the URL as being in a
//! legacy encoding, see [`linkscan::format`]) instead of turning into U+FFFD.
//!
//! # Bounds
//!
//! A line is held whole while it is formatted, because the formatting of its start can
//! depend on its end: one invalid byte anywhere after the host keeps every escaped
//! non-ASCII byte before it escaped, the last Soft character is escaped only at the very
//! end, and the userinfo ends at the last `@` of the authority. So a line is not streamed
//! in pieces; instead no line over [`MAX_LINE`] bytes (2 MiB, the longest URL Chromium
//! accepts) is held: the rest of such a line is read and dropped, the line is written as
//! an empty line (the output keeps one line per input line), the input gets a warning
//! with the line's number and length, and the exit status is 2. The memory of a run is
//! then a few copies of [`MAX_LINE`] whatever the input. Every line up to the limit is
//! formatted exactly as before.
//!
//! The output holds no C0 control or DEL and no C1 control ([`escape_controls`]): the
//! formatter percent-escapes them inside a path, query or fragment (they are Hard), but
//! a scheme-less or non-hierarchical URL (`mailto:…`), a userinfo, a host or a port is
//! written as given, and a raw `ESC` there would reach the terminal.

use std::borrow::Cow;
use std::io::{self, BufRead, Write};

use crate::{EscapeArgs, Outcome};

/// The longest line `escape` and `display` read from standard input, in bytes: 2 MiB,
/// the longest URL Chromium accepts (`url::kMaxURLChars`).
pub(crate) const MAX_LINE: usize = 2 << 20;

pub(crate) fn run(args: &EscapeArgs, out: &mut impl Write) -> io::Result<Outcome> {
    if !args.urls.is_empty() {
        for url in &args.urls {
            writeln!(out, "{}", escape_controls(&escape(url, args.checks)))?;
        }
        return Ok(Outcome::Ok);
    }
    let stdin = io::stdin();
    for_each_line(&mut stdin.lock(), |line| match line {
        Line::Whole(line) => writeln!(
            out,
            "{}",
            escape_controls(&escape(&escape_invalid_utf8(line), args.checks))
        ),
        Line::TooLong => writeln!(out),
    })
}

/// `url` minimally escaped; with `checks`, Bidi_Control characters escaped too.
fn escape(url: &str, checks: bool) -> String {
    if checks {
        linkscan::escape_url_with(url, &linkscan::checks::SECURE_FORMAT)
    } else {
        linkscan::escape_url(url)
    }
}

/// `text` with each C0 control, DEL and C1 control percent-escaped (`ESC` as `%1B`,
/// U+0085 as `%C2%85`), so that none reaches a terminal raw; the rest as it is.
pub(crate) fn escape_controls(text: &str) -> Cow<'_, str> {
    // Each starts with a byte below 0x20, 0x7F or 0xC2 (C1): a scan of bytes finds out
    // whether there is one, the usual answer being no.
    if !text.bytes().any(|b| b < 0x20 || b == 0x7F || b == 0xC2) {
        return Cow::Borrowed(text);
    }
    let is_control = |c: char| c < ' ' || ('\u{7F}'..='\u{9F}').contains(&c);
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One line of the input, as [`for_each_line`] gives it.
pub(crate) enum Line<'a> {
    /// A line of at most [`MAX_LINE`] bytes, without its line end.
    Whole(&'a [u8]),
    /// A longer line, read and dropped (the warning, with its number and length, is
    /// written).
    TooLong,
}

/// Calls `each` with every line of `input`, without its line end. A line ends at `\n`,
/// `\r`, or `\r\n` (one end, not two); a last line without an end is a line too. A line
/// over [`MAX_LINE`] bytes is not held: it is given as [`Line::TooLong`], warned about,
/// and the outcome is [`Outcome::InputErrors`].
pub(crate) fn for_each_line(
    input: &mut impl BufRead,
    mut each: impl FnMut(Line<'_>) -> io::Result<()>,
) -> io::Result<Outcome> {
    let mut outcome = Outcome::Ok;
    let mut line = Vec::new();
    let mut number = 0u64;
    // The length of the line being dropped, when it is over the limit.
    let mut dropped: Option<u64> = None;
    // The previous line ended with `\r`: a `\n` right after it belongs to that end.
    let mut after_cr = false;
    let mut end_line = |line: &mut Vec<u8>, dropped: &mut Option<u64>| {
        number += 1;
        let result = match dropped.take() {
            Some(len) => {
                crate::warn!(
                    "linkscan: line {number}: {len} bytes, more than the {} MiB of the \
                     longest URL; written as an empty line",
                    MAX_LINE >> 20
                );
                outcome = Outcome::InputErrors;
                each(Line::TooLong)
            }
            None => each(Line::Whole(line)),
        };
        line.clear();
        result
    };
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let mut start = 0;
        if after_cr && buf[0] == b'\n' {
            start = 1;
        }
        after_cr = false;
        let (end, ends_line) = match memchr::memchr2(b'\n', b'\r', &buf[start..]) {
            Some(at) => (start + at, true),
            None => (buf.len(), false),
        };
        let piece = &buf[start..end];
        any |= !piece.is_empty() || ends_line;
        match &mut dropped {
            Some(len) => *len += piece.len() as u64,
            None if line.len() + piece.len() > MAX_LINE => {
                dropped = Some((line.len() + piece.len()) as u64);
                // The memory of the long line is given back, not kept for the next.
                line = Vec::new();
            }
            None => line.extend_from_slice(piece),
        }
        if ends_line {
            after_cr = buf[end] == b'\r';
            input.consume(end + 1);
            end_line(&mut line, &mut dropped)?;
            any = false;
        } else {
            input.consume(end);
        }
    }
    if any {
        end_line(&mut line, &mut dropped)?;
    }
    Ok(outcome)
}

/// `bytes` as a string, each byte of an invalid UTF-8 sequence written `%XX`.
pub(crate) fn escape_invalid_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], capacity: usize) -> Vec<Vec<u8>> {
        let mut reader = io::BufReader::with_capacity(capacity, input);
        let mut lines = Vec::new();
        for_each_line(&mut reader, |l| {
            match l {
                Line::Whole(l) => lines.push(l.to_vec()),
                Line::TooLong => lines.push(b"too long".to_vec()),
            }
            Ok(())
        })
        .unwrap();
        lines
    }

    #[test]
    fn lines_end_at_lf_cr_and_crlf() {
        let input = b"a\nb\rc\r\nd\n\ne\r\rf";
        let want: Vec<Vec<u8>> = ["a", "b", "c", "d", "", "e", "", "f"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
        // Every buffer size, so a CRLF split between two reads is one line end too.
        for capacity in 1..=input.len() + 1 {
            assert_eq!(lines(input, capacity), want, "buffer of {capacity}");
        }
        assert!(lines(b"", 8).is_empty());
        assert_eq!(lines(b"x\r\n", 8), [b"x".to_vec()]);
    }

    #[test]
    fn lines_over_the_limit_are_dropped_and_counted() {
        let mut input = b"a\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE));
        input.extend_from_slice(b"\r\n");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE + 1));
        input.extend_from_slice(b"\nb");
        for capacity in [1 << 10, 8 << 10, 3 << 20] {
            let got = lines(&input, capacity);
            assert_eq!(got.len(), 4);
            assert_eq!(got[0], b"a");
            assert_eq!(got[1].len(), MAX_LINE, "a line of the limit is whole");
            assert_eq!(got[2], b"too long", "buffer of {capacity}");
            assert_eq!(got[3], b"b");
        }
    }

    #[test]
    fn invalid_utf8_is_percent_escaped() {
        assert_eq!(escape_invalid_utf8(b"a\xFFb\xC3"), "a%FFb%C3");
        assert_eq!(escape_invalid_utf8("αβ".as_bytes()), "αβ");
        assert_eq!(escape_invalid_utf8(b"\xE2\x82x"), "%E2%82x");
    }

    #[test]
    fn controls_are_percent_escaped() {
        assert_eq!(
            escape_controls("mailto:a\u{1B}]0;x\u{7}b"),
            "mailto:a%1B]0;x%07b"
        );
        assert_eq!(
            escape_controls("a\u{7F}\u{85}\u{9F}\u{A0}é"),
            "a%7F%C2%85%C2%9F\u{A0}é"
        );
        assert!(matches!(escape_controls("example.com/α"), Cow::Borrowed(_)));
    }
}
