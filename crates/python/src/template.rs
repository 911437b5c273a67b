//! The replacement of a redacted link: a template with `{kind}`, `{host}` and `{hash}`, as
//! `linkscan redact --replace` takes it, and the keyed hash of `{hash}`.
//!
//! A template is parsed once per call into text parts and placeholders ([`Template::parse`]):
//! `{{` and `}}` are braces, any other `{name}` or a lone brace is an error (a Python
//! `ValueError` before any text is scanned), so filling it in cannot fail.
//!
//! `{hash}` is SipHash-2-4 with a 128-bit output over the link's UTF-8 bytes, written as 32
//! lowercase hex digits; its key is the caller's key of any length made 128 bits by
//! SipHash-2-4-128 with a zero key. This is exactly the command line's `{hash}` for the same
//! `--hash-key` (the tests run both on the same key and text), so links redacted in Python
//! and by `linkscan redact` still join.
//!
//! Invariant: the output of [`Replacer::write`] depends only on the template, the key, the
//! link's kind and its bytes: the same on every run and machine.

use std::hash::Hasher;

use linkscan::LinkKind;
use siphasher::sip128::{Hasher128, SipHasher24};

/// The default template: `<URL>` or `<EMAIL>`.
pub const DEFAULT_TEMPLATE: &str = "<{kind}>";

/// One part of a [`Template`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// Text written as it is.
    Text(String),
    /// `{kind}`: `URL` or `EMAIL`.
    Kind,
    /// `{host}`: the host of a URL, the domain of an email.
    Host,
    /// `{hash}`: the keyed hash of the link's text.
    Hash,
}

/// A parsed replacement template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

impl Template {
    /// Parses a template: placeholders `{kind}`, `{host}`, `{hash}`, escapes `{{` and `}}`.
    pub fn parse(value: &str) -> Result<Template, String> {
        const KNOWN: &str = "use {kind}, {host} or {hash}, and {{ or }} for a brace";
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = value;
        while let Some(i) = rest.find(['{', '}']) {
            text.push_str(&rest[..i]);
            let tail = &rest[i..];
            if let Some(after) = tail.strip_prefix("{{") {
                text.push('{');
                rest = after;
            } else if let Some(after) = tail.strip_prefix("}}") {
                text.push('}');
                rest = after;
            } else if tail.starts_with('}') {
                return Err(format!("replace: a lone }} in {value:?}: {KNOWN}"));
            } else {
                let Some(close) = tail.find('}') else {
                    return Err(format!(
                        "replace: a {{ without its }} in {value:?}: {KNOWN}"
                    ));
                };
                let part = match &tail[1..close] {
                    "kind" => Part::Kind,
                    "host" => Part::Host,
                    "hash" => Part::Hash,
                    name => {
                        return Err(format!(
                            "replace: unknown placeholder {{{name}}} in {value:?}: {KNOWN}"
                        ))
                    }
                };
                if !text.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut text)));
                }
                parts.push(part);
                rest = &tail[close + 1..];
            }
        }
        text.push_str(rest);
        if !text.is_empty() {
            parts.push(Part::Text(text));
        }
        Ok(Template { parts })
    }
}

/// A template and the key of its `{hash}`: writes the replacement of each link.
pub struct Replacer {
    template: Template,
    /// The 128-bit SipHash key made from the caller's key.
    keys: (u64, u64),
}

impl Replacer {
    /// The replacer of `template` with the `{hash}` key `hash_key` (any text).
    pub fn new(template: Template, hash_key: &str) -> Replacer {
        let mut hasher = SipHasher24::new_with_keys(0, 0);
        hasher.write(hash_key.as_bytes());
        let key = hasher.finish128();
        Replacer {
            template,
            keys: (key.h1, key.h2),
        }
    }

    /// Appends the replacement of a link of kind `kind` whose text is `text` to `out`.
    pub fn write(&self, kind: LinkKind, text: &[u8], out: &mut Vec<u8>) {
        for part in &self.template.parts {
            match part {
                Part::Text(s) => out.extend_from_slice(s.as_bytes()),
                Part::Kind => out.extend_from_slice(match kind {
                    LinkKind::Email => b"EMAIL",
                    _ => b"URL",
                }),
                Part::Host => {
                    // A link is a run of whole characters; the lossy form is for safety.
                    let text = String::from_utf8_lossy(text);
                    out.extend_from_slice(linkscan::checks::host(&text, kind).as_bytes());
                }
                Part::Hash => out.extend_from_slice(self.hash(text).as_bytes()),
            }
        }
    }

    /// `{hash}` of `text`: 32 lowercase hex digits.
    fn hash(&self, text: &[u8]) -> String {
        let mut hasher = SipHasher24::new_with_keys(self.keys.0, self.keys.1);
        hasher.write(text);
        format!("{:032x}", hasher.finish128().as_u128())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replace(template: &str, key: &str, kind: LinkKind, text: &str) -> String {
        let mut out = Vec::new();
        Replacer::new(Template::parse(template).unwrap(), key).write(
            kind,
            text.as_bytes(),
            &mut out,
        );
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn templates_parse_placeholders_and_escapes() {
        let t = Template::parse("{{x}} <{kind}:{host}:{hash}>").unwrap();
        assert_eq!(
            t.parts,
            [
                Part::Text("{x} <".into()),
                Part::Kind,
                Part::Text(":".into()),
                Part::Host,
                Part::Text(":".into()),
                Part::Hash,
                Part::Text(">".into()),
            ]
        );
        assert_eq!(Template::parse("").unwrap().parts, []);
        for bad in ["{name}", "{", "}", "a{kind", "{KIND}", "{ kind}"] {
            assert!(Template::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn placeholders_are_filled_in() {
        let url = LinkKind::Url;
        assert_eq!(
            replace("<{kind} {host}>", "", url, "https://bücher.de/x"),
            "<URL bücher.de>"
        );
        assert_eq!(
            replace("{kind}@{host}", "", LinkKind::Email, "σωκράτης@example.gr"),
            "EMAIL@example.gr"
        );
        assert_eq!(replace(DEFAULT_TEMPLATE, "", url, "x.com"), "<URL>");
    }

    #[test]
    fn the_hash_is_keyed_sip_hash_128() {
        // SipHash-2-4-128 of the empty message with key 00 01 … 0f is the first vector
        // of the reference implementation (vectors_sip128[0]), read as a little-endian
        // u128: it pins the algorithm, the output width and the digit order.
        let mut hasher = SipHasher24::new_with_keys(0x0706050403020100, 0x0f0e0d0c0b0a0908);
        hasher.write(b"");
        assert_eq!(
            format!("{:032x}", hasher.finish128().as_u128()),
            "930255c71472f66de6a825ba047f81a3"
        );
        let hash = replace("{hash}", "k", LinkKind::Email, "x@example.org");
        assert_eq!(hash.len(), 32);
        assert!(hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')));
        assert_eq!(
            hash,
            replace("{hash}", "k", LinkKind::Email, "x@example.org")
        );
        assert_ne!(
            hash,
            replace("{hash}", "l", LinkKind::Email, "x@example.org")
        );
        assert_ne!(
            hash,
            replace("{hash}", "k", LinkKind::Email, "y@example.org")
        );
    }
}
