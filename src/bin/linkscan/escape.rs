//! `linkscan escape`: URLs minimally escaped (UTS #58 section 4.1), one per line.
//!
//! Standard input is read line by line ([`for_each_line`]): a line ends at LF, CR or
//! CRLF, so files with old Mac line ends give one URL per line too. A line is bytes;
//! bytes that are not valid UTF-8 are percent-escaped (`\xFF` becomes `%FF`) before the
//! line is formatted, so they stay escaped in the output (and mark the URL as being in a
//! legacy encoding, see [`linkscan::format`]) instead of turning into U+FFFD.

use std::io::{self, BufRead, Write};

use crate::{EscapeArgs, Outcome};

pub(crate) fn run(args: &EscapeArgs, out: &mut impl Write) -> io::Result<Outcome> {
    if !args.urls.is_empty() {
        for url in &args.urls {
            writeln!(out, "{}", escape(url, args.checks))?;
        }
        return Ok(Outcome::Ok);
    }
    let stdin = io::stdin();
    for_each_line(&mut stdin.lock(), |line| {
        writeln!(out, "{}", escape(&escape_invalid_utf8(line), args.checks))
    })?;
    Ok(Outcome::Ok)
}

/// `url` minimally escaped; with `checks`, Bidi_Control characters escaped too.
fn escape(url: &str, checks: bool) -> String {
    if checks {
        linkscan::escape_url_with(url, &linkscan::checks::SECURE_FORMAT)
    } else {
        linkscan::escape_url(url)
    }
}

/// Calls `each` with every line of `input`, without its line end. A line ends at `\n`,
/// `\r`, or `\r\n` (one end, not two); a last line without an end is a line too.
pub(crate) fn for_each_line(
    input: &mut impl BufRead,
    mut each: impl FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let mut line = Vec::new();
    // The previous line ended with `\r`: a `\n` right after it belongs to that end.
    let mut after_cr = false;
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
        match memchr::memchr2(b'\n', b'\r', &buf[start..]) {
            Some(at) => {
                let end = start + at;
                line.extend_from_slice(&buf[start..end]);
                after_cr = buf[end] == b'\r';
                input.consume(end + 1);
                each(&line)?;
                line.clear();
            }
            None => {
                line.extend_from_slice(&buf[start..]);
                let len = buf.len();
                input.consume(len);
            }
        }
    }
    if !line.is_empty() {
        each(&line)?;
    }
    Ok(())
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
            lines.push(l.to_vec());
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
    fn invalid_utf8_is_percent_escaped() {
        assert_eq!(escape_invalid_utf8(b"a\xFFb\xC3"), "a%FFb%C3");
        assert_eq!(escape_invalid_utf8("αβ".as_bytes()), "αβ");
        assert_eq!(escape_invalid_utf8(b"\xE2\x82x"), "%E2%82x");
    }
}
