//! `linkscan display`: links in their display form (`linkscan::display`), one per line.
//!
//! Each argument, or each line of standard input when there is none (LF, CR or CRLF
//! ends a line; bytes that are not UTF-8 are percent-escaped first, as `escape` does), is
//! one link, read as an email or a URL as [`linkscan::display::kind_of`] says.

use std::io::{self, Write};

use linkscan::display::{display_link, kind_of, DisplayOptions};

use crate::escape::{escape_invalid_utf8, for_each_line};
use crate::{DisplayArgs, Outcome};

pub(crate) fn run(args: &DisplayArgs, out: &mut impl Write) -> io::Result<Outcome> {
    let options = DisplayOptions::default().with_bidi(args.bidi);
    let show = |link: &str| {
        let link = link.trim();
        display_link(link, kind_of(link), &options)
    };
    if !args.links.is_empty() {
        for link in &args.links {
            writeln!(out, "{}", show(link))?;
        }
        return Ok(Outcome::Ok);
    }
    let stdin = io::stdin();
    for_each_line(&mut stdin.lock(), |line| {
        writeln!(out, "{}", show(&escape_invalid_utf8(line)))
    })?;
    Ok(Outcome::Ok)
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
