//! `linkscan escape`: URLs minimally escaped (UTS #58 section 4.1), one per line.

use std::io::{self, BufRead, Write};

use crate::{EscapeArgs, Outcome};

pub(crate) fn run(args: &EscapeArgs, out: &mut impl Write) -> io::Result<Outcome> {
    if !args.urls.is_empty() {
        for url in &args.urls {
            writeln!(out, "{}", escape(url, args.checks))?;
        }
        return Ok(Outcome::Ok);
    }
    // One URL per line; a line that is not UTF-8 is taken lossily (its invalid bytes
    // become U+FFFD, which the escaping then percent-encodes).
    let stdin = io::stdin();
    let mut line = Vec::new();
    let mut reader = stdin.lock();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        writeln!(
            out,
            "{}",
            escape(&String::from_utf8_lossy(&line), args.checks)
        )?;
    }
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
