//! `linkscan redact`: each input with its links replaced, every other byte kept.
//!
//! The inputs go through the same windows and pieces as `linkify` ([`input::for_each_piece`]:
//! read a window at a time, scanned in parallel, given in order), so memory is bounded by
//! the window, whatever the size of the input. The parts of a piece tile the input, and each
//! part is written as it is but for its links, each replaced by the template.

use std::hash::Hasher;
use std::io::{self, Write};

use linkscan::{Link, LinkFinder, LinkKind};
use siphasher::sip128::{Hasher128, SipHasher24};

use crate::flags::{Part, RedactArgs, Template};
use crate::{input, Outcome};

/// Redacts `files` (none: standard input) to `out`.
pub(crate) fn run(
    args: &RedactArgs,
    finder: &LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    let template = args.replace.clone().unwrap_or_default();
    let replacer = Replacer::new(template, &args.hash_key);
    if let Some(field) = &args.records.field {
        return crate::records::redact(args, field, finder, &replacer, out);
    }
    let named = vec![true; args.files.len()];
    let mut scratch = Vec::new();
    input::for_each_piece(&args.files, &named, finder, |_, _, piece| {
        let mut at = piece.range.start;
        for link in piece.links {
            if link.start() < at {
                continue;
            }
            out.write_all(&piece.bytes[at..link.start()])?;
            scratch.clear();
            replacer.write(link, &piece.bytes[link.range()], &mut scratch);
            out.write_all(&scratch)?;
            at = link.end();
        }
        out.write_all(&piece.bytes[at..piece.range.end])
    })
}

/// Writes the replacement of a link: the template filled in.
pub(crate) struct Replacer {
    template: Template,
    /// The SipHash key of `{hash}`, from `--hash-key`.
    keys: (u64, u64),
}

impl Replacer {
    fn new(template: Template, hash_key: &str) -> Replacer {
        // The key of any length made the 128-bit key of SipHash by SipHash with a zero key.
        let mut hasher = SipHasher24::new_with_keys(0, 0);
        hasher.write(hash_key.as_bytes());
        let key = hasher.finish128();
        Replacer {
            template,
            keys: (key.h1, key.h2),
        }
    }

    /// Appends the replacement of `link`, whose text is `text`, to `out`.
    pub(crate) fn write(&self, link: &Link, text: &[u8], out: &mut Vec<u8>) {
        for part in &self.template.parts {
            match part {
                Part::Text(s) => out.extend_from_slice(s.as_bytes()),
                Part::Kind => out.extend_from_slice(match link.kind() {
                    LinkKind::Email => b"EMAIL",
                    _ => b"URL",
                }),
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

#[cfg(test)]
mod tests {
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
