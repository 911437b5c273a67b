//! `linkscan display`: links in their display form (`linkscan::display`), one per line.
//!
//! Each argument, or each line of standard input when there is none (LF, CR or CRLF
//! ends a line; bytes that are not UTF-8 are percent-escaped first, as `escape` does), is
//! one link. Its kind is the finder's when the finder sees it as one whole link;
//! otherwise it is an email when it starts with `mailto:`, or when it has no `://` and an
//! `@` with no `/`, `?` or `#` before it, and a URL else.

use std::io::{self, Write};

use linkscan::display::{display_link, DisplayOptions};
use linkscan::{LinkFinder, LinkKind};

use crate::escape::{escape_invalid_utf8, for_each_line};
use crate::{DisplayArgs, Outcome};

pub(crate) fn run(args: &DisplayArgs, out: &mut impl Write) -> io::Result<Outcome> {
    let options = DisplayOptions::default().with_bidi(args.bidi);
    let finder = LinkFinder::new();
    let show = |link: &str| {
        let link = link.trim();
        display_link(link, kind_of(&finder, link), &options)
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

/// Whether `link` is read as an email address or a URL (see the module documentation).
fn kind_of(finder: &LinkFinder, link: &str) -> LinkKind {
    let mut found = finder.links(link);
    if let (Some(only), None) = (found.next(), found.next()) {
        if only.range() == (0..link.len()) {
            return only.kind();
        }
    }
    let mailto = link
        .get(..7)
        .is_some_and(|s| s.eq_ignore_ascii_case("mailto:"));
    let bare_address = !link.contains("://")
        && link
            .rfind('@')
            .is_some_and(|at| !link[..at].contains(['/', '?', '#']));
    if mailto || bare_address {
        LinkKind::Email
    } else {
        LinkKind::Url
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_and_urls_are_told_apart() {
        let finder = LinkFinder::new();
        for email in [
            "a@example.com",
            "mailto:a@example.com",
            "MAILTO:x",
            "\"a b\"@x.de",
        ] {
            assert_eq!(kind_of(&finder, email), LinkKind::Email, "{email}");
        }
        for url in [
            "https://user@example.com/",
            "example.com/a@b",
            "example.com?to=a@b",
            "example.com",
        ] {
            assert_eq!(kind_of(&finder, url), LinkKind::Url, "{url}");
        }
    }
}
