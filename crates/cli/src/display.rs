//! `linkscan display`: links in their display form (`linkscan::display`), one per line.
//!
//! Each argument, or each line of standard input when there is none (LF, CR or CRLF
//! ends a line; bytes that are not UTF-8 are percent-escaped first, as `escape` does), is
//! one link, read as an email or a URL as [`linkscan::display::kind_of`] says. Lines are
//! read as `escape` reads them, with its limit ([`crate::escape::MAX_LINE`]): a longer
//! line is written as an empty line, with a warning and exit status 2. C0 and C1 controls
//! and DEL are percent-escaped in the output, as `escape` does
//! ([`crate::escape::escape_controls`]): the display form leaves them in a host, a
//! userinfo or a URL without hierarchy, and a raw `ESC` would reach the terminal.

use std::borrow::Cow;
use std::io::{self, Write};

use linkscan::display::{display_link, kind_of, DisplayOptions};

use crate::escape::{escape_controls, escape_invalid_utf8, for_each_line, Line};
use crate::{DisplayArgs, Outcome};

pub(crate) fn run(args: &DisplayArgs, out: &mut impl Write) -> io::Result<Outcome> {
    let options = DisplayOptions::default().with_bidi(args.bidi);
    let show = |link: &str| {
        let link = link.trim();
        let shown = display_link(link, kind_of(link), &options);
        match escape_controls(&shown) {
            Cow::Borrowed(_) => shown,
            Cow::Owned(escaped) => escaped,
        }
    };
    if !args.links.is_empty() {
        for link in &args.links {
            writeln!(out, "{}", show(link))?;
        }
        return Ok(Outcome::Ok);
    }
    let stdin = io::stdin();
    for_each_line(&mut stdin.lock(), |line| match line {
        Line::Whole(line) => writeln!(out, "{}", show(&escape_invalid_utf8(line))),
        Line::TooLong => writeln!(out),
    })
}

#[cfg(test)]
mod tests {
    use linkscan::display::kind_of;
    use linkscan::LinkKind;

    #[test]
    fn emails_and_urls_are_told_apart() {
        for email in [
            "a@example.com",
            "mailto:a@example.com",
            "MAILTO:x",
            "\"a b\"@x.de",
        ] {
            assert_eq!(kind_of(email), LinkKind::Email, "{email}");
        }
        for url in [
            "https://user@example.com/",
            "example.com/a@b",
            "example.com?to=a@b",
            "example.com",
        ] {
            assert_eq!(kind_of(url), LinkKind::Url, "{url}");
        }
    }
}
