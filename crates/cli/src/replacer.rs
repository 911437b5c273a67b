//! The replacement of a redacted link: `--replace`'s [`Template`] filled in for each link
//! (`{kind}`, `{host}`, `{hash}`), for `redact` of files and of records alike.
//!
//! A template of text and `{kind}` only is written as one of two byte strings made once
//! (one copy per link); otherwise its parts are written in turn. `{hash}` is SipHash-2-4
//! with a 128-bit output over the link's bytes, as 32 lowercase hex digits, keyed by
//! `--hash-key` of any length made 128 bits by SipHash-2-4-128 with a zero key.
//!
//! Invariant: what is written for a link depends only on the template, the key, the link's
//! kind and its bytes, the same on every run and machine; and it is at most
//! [`MAX_GROWTH`] times the link's length when [`Replacer::bounded`] says so.

use std::hash::Hasher;

use linkscan::{Link, LinkKind};
use siphasher::sip128::{Hasher128, SipHasher24};

use crate::flags::{Part, Template};

/// The most a window may grow by redaction on the workers' path: the template's bytes,
/// over the shortest link (three bytes), at most this many times the window.
pub(crate) const MAX_GROWTH: usize = 32;

/// Writes the replacement of a link: the template filled in.
pub(crate) struct Replacer {
    template: Template,
    /// The SipHash key of `{hash}`, from `--hash-key`.
    keys: (u64, u64),
    /// The replacements of a URL and of an email address, when the template has no
    /// `{host}` or `{hash}` (the usual case): one copy per link.
    fixed: Option<[Vec<u8>; 2]>,
}

impl Replacer {
    pub(crate) fn new(template: Template, hash_key: &str) -> Replacer {
        // The key of any length made the 128-bit key of SipHash by SipHash with a zero key.
        let mut hasher = SipHasher24::new_with_keys(0, 0);
        hasher.write(hash_key.as_bytes());
        let key = hasher.finish128();
        let fixed = template
            .parts
            .iter()
            .all(|part| matches!(part, Part::Text(_) | Part::Kind))
            .then(|| {
                [LinkKind::Url, LinkKind::Email].map(|kind| {
                    let mut out = Vec::new();
                    for part in &template.parts {
                        match part {
                            Part::Text(s) => out.extend_from_slice(s.as_bytes()),
                            _ => out.extend_from_slice(kind_word(kind)),
                        }
                    }
                    out
                })
            });
        Replacer {
            template,
            keys: (key.h1, key.h2),
            fixed,
        }
    }

    /// Whether a window redacted on a worker stays within [`MAX_GROWTH`] times its size:
    /// each link (three bytes or more) becomes the template's text, at most 32 bytes per
    /// `{hash}`, five per `{kind}` and the link's own length per `{host}`.
    pub(crate) fn bounded(&self) -> bool {
        let mut fixed = 0;
        let mut hosts = 0;
        for part in &self.template.parts {
            match part {
                Part::Text(s) => fixed += s.len(),
                Part::Kind => fixed += 5,
                Part::Hash => fixed += 32,
                Part::Host => hosts += 1,
            }
        }
        fixed.div_ceil(3) + hosts <= MAX_GROWTH
    }

    /// Appends the replacement of `link`, whose text is `text`, to `out`.
    pub(crate) fn write(&self, link: &Link, text: &[u8], out: &mut Vec<u8>) {
        if let Some([url, email]) = &self.fixed {
            out.extend_from_slice(match link.kind() {
                LinkKind::Email => email,
                _ => url,
            });
            return;
        }
        for part in &self.template.parts {
            match part {
                Part::Text(s) => out.extend_from_slice(s.as_bytes()),
                Part::Kind => out.extend_from_slice(kind_word(link.kind())),
                Part::Host => {
                    // A link is a run of whole characters; the lossy form is for safety.
                    let text = String::from_utf8_lossy(text);
                    let host = linkscan::checks::host(&text, link.kind());
                    out.extend_from_slice(host.as_bytes());
                }
                Part::Hash => {
                    let mut hasher = SipHasher24::new_with_keys(self.keys.0, self.keys.1);
                    hasher.write(text);
                    let hash = hasher.finish128().as_u128();
                    out.extend_from_slice(format!("{hash:032x}").as_bytes());
                }
            }
        }
    }
}

/// What `{kind}` stands for.
fn kind_word(kind: LinkKind) -> &'static [u8] {
    match kind {
        LinkKind::Email => b"EMAIL",
        _ => b"URL",
    }
}

#[cfg(test)]
mod tests {
    use linkscan::LinkFinder;

    use super::*;

    fn replace(template: &str, key: &str, text: &str) -> String {
        let finder = LinkFinder::new();
        let link = finder.links_bytes(text.as_bytes()).next().unwrap();
        let mut out = Vec::new();
        Replacer::new(Template::parse(template).unwrap(), key).write(
            &link,
            &text.as_bytes()[link.range()],
            &mut out,
        );
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_template_of_text_and_kind_is_written_whole() {
        assert_eq!(replace("[{kind}]", "", "x@example.org"), "[EMAIL]");
        assert_eq!(replace("[{kind}]", "", "https://example.org"), "[URL]");
        assert_eq!(replace("{{{kind}}}", "", "example.org"), "{URL}");
        let replacer = Replacer::new(Template::parse("<{kind}>").unwrap(), "");
        assert!(replacer.fixed.is_some() && replacer.bounded());
        let replacer = Replacer::new(Template::parse("<{host}>").unwrap(), "");
        assert!(replacer.fixed.is_none() && replacer.bounded());
        let long = Template::parse(&"x".repeat(100)).unwrap();
        assert!(!Replacer::new(long, "").bounded());
    }

    #[test]
    fn placeholders_are_filled_in() {
        assert_eq!(
            replace("<{kind} {host}>", "", "https://bücher.de/x"),
            "<URL bücher.de>"
        );
        assert_eq!(
            replace("{kind}@{host}", "", "σωκράτης@example.gr"),
            "EMAIL@example.gr"
        );
        let hash = replace("{hash}", "k", "x@example.org");
        assert_eq!(hash.len(), 32);
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(hash, replace("{hash}", "k", "x@example.org"));
        assert_ne!(hash, replace("{hash}", "l", "x@example.org"));
        assert_ne!(hash, replace("{hash}", "k", "y@example.org"));
    }
}
