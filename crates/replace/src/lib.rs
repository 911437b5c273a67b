//! The replacement of a redacted link: a template with `{kind}`, `{host}` and `{hash}`,
//! filled in for each link. `linkscan redact --replace` (files and records) and the Python
//! module's `redact` share it, so the same template and key give the same bytes in both.
//!
//! # Algorithm
//!
//! A template is parsed once ([`Template::parse`]) into text parts and placeholders: `{{`
//! and `}}` are braces, any other `{name}` or a lone brace is an error, so filling it in
//! cannot fail. A template of text and `{kind}` only (the default `<{kind}>` among them) is
//! made, once, into the two byte strings of a URL and of an email address, and each link
//! costs one copy ([`Replacer::write`]); otherwise its parts are written in turn.
//!
//! `{hash}` is SipHash-2-4 with a 128-bit output over the link's bytes, written as 32
//! lowercase hex digits; its key is the caller's key of any length made 128 bits by
//! SipHash-2-4-128 with a zero key.
//!
//! # Invariants
//!
//! What is written for a link depends only on the template, the key, the link's kind and
//! its bytes: the same on every run and machine. It is at most [`MAX_GROWTH`] times the
//! link's length when [`Replacer::bounded`] says so (links are three bytes or more).

use std::fmt;
use std::hash::Hasher;

use linkscan::LinkKind;
use siphasher::sip128::{Hasher128, SipHasher24};

/// The default template: `<URL>` or `<EMAIL>`.
pub const DEFAULT_TEMPLATE: &str = "<{kind}>";

/// The most a text may grow by redaction when [`Replacer::bounded`]: the template's
/// bytes over the shortest link (three bytes) at most this many times the link's length.
pub const MAX_GROWTH: usize = 32;

/// One part of a [`Template`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// Text written as it is.
    Text(String),
    /// `{kind}`: `URL` or `EMAIL`.
    Kind,
    /// `{host}`: the host of a URL, the domain of an email address.
    Host,
    /// `{hash}`: the keyed hash of the link's text.
    Hash,
}

/// A parsed replacement template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

impl Default for Template {
    /// [`DEFAULT_TEMPLATE`]: `<{kind}>`.
    fn default() -> Template {
        Template {
            parts: vec![Part::Text("<".into()), Part::Kind, Part::Text(">".into())],
        }
    }
}

/// Why a template was refused: its message names the fault and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError(String);

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

impl Template {
    /// Parses a template: placeholders `{kind}`, `{host}`, `{hash}`, escapes `{{` and `}}`.
    pub fn parse(value: &str) -> Result<Template, TemplateError> {
        const KNOWN: &str = "use {kind}, {host} or {hash}, and {{ or }} for a brace";
        let fail = |why: String| Err(TemplateError(format!("{why}: {KNOWN}")));
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
                return fail(format!("a lone }} at byte {}", value.len() - tail.len()));
            } else {
                let Some(close) = tail.find('}') else {
                    return fail("a { without its }".into());
                };
                let part = match &tail[1..close] {
                    "kind" => Part::Kind,
                    "host" => Part::Host,
                    "hash" => Part::Hash,
                    name => return fail(format!("unknown placeholder {{{name}}}")),
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

impl std::str::FromStr for Template {
    type Err = TemplateError;

    fn from_str(value: &str) -> Result<Template, TemplateError> {
        Template::parse(value)
    }
}

/// A template and the key of its `{hash}`: writes the replacement of each link.
#[derive(Clone, Debug)]
pub struct Replacer {
    template: Template,
    /// The 128-bit SipHash key made from the caller's key.
    keys: (u64, u64),
    /// The replacements of a URL and of an email address, when the template has no
    /// `{host}` or `{hash}` (the usual case): one copy per link.
    fixed: Option<[Vec<u8>; 2]>,
}

impl Replacer {
    /// The replacer of `template` with the `{hash}` key `hash_key` (any text).
    pub fn new(template: Template, hash_key: &str) -> Replacer {
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

    /// Whether every replacement is at most [`MAX_GROWTH`] times its link's length: each
    /// link (three bytes or more) becomes the template's text, 32 bytes per `{hash}`, five
    /// per `{kind}` and at most the link's own length per `{host}`.
    pub fn bounded(&self) -> bool {
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

    /// Appends the replacement of a link of kind `kind` whose text is `text` to `out`.
    pub fn write(&self, kind: LinkKind, text: &[u8], out: &mut Vec<u8>) {
        if let Some([url, email]) = &self.fixed {
            out.extend_from_slice(match kind {
                LinkKind::Email => email,
                _ => url,
            });
            return;
        }
        for part in &self.template.parts {
            match part {
                Part::Text(s) => out.extend_from_slice(s.as_bytes()),
                Part::Kind => out.extend_from_slice(kind_word(kind)),
                Part::Host => {
                    // A link is a run of whole characters; the lossy form is for safety.
                    let text = String::from_utf8_lossy(text);
                    out.extend_from_slice(linkscan::checks::host(&text, kind).as_bytes());
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
        assert_eq!(Template::parse(DEFAULT_TEMPLATE), Ok(Template::default()));
        for bad in ["{name}", "{", "}", "a{kind", "{KIND}", "{ kind}"] {
            assert!(Template::parse(bad).is_err(), "{bad}");
        }
        let err = Template::parse("ab}").unwrap_err().to_string();
        assert!(err.starts_with("a lone } at byte 2: use {kind}"), "{err}");
        let err = Template::parse("{x}").unwrap_err().to_string();
        assert!(err.starts_with("unknown placeholder {x}: "), "{err}");
    }

    #[test]
    fn a_template_of_text_and_kind_is_written_whole() {
        let email = LinkKind::Email;
        assert_eq!(replace("[{kind}]", "", email, "x@example.org"), "[EMAIL]");
        assert_eq!(
            replace("[{kind}]", "", LinkKind::Url, "https://example.org"),
            "[URL]"
        );
        assert_eq!(
            replace("{{{kind}}}", "", LinkKind::Url, "example.org"),
            "{URL}"
        );
        let replacer = Replacer::new(Template::default(), "");
        assert!(replacer.fixed.is_some() && replacer.bounded());
        let replacer = Replacer::new(Template::parse("<{host}>").unwrap(), "");
        assert!(replacer.fixed.is_none() && replacer.bounded());
        let long = Template::parse(&"x".repeat(100)).unwrap();
        assert!(!Replacer::new(long, "").bounded());
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
        let email = LinkKind::Email;
        let hash = replace("{hash}", "k", email, "x@example.org");
        assert_eq!(hash.len(), 32);
        assert!(hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')));
        assert_eq!(hash, replace("{hash}", "k", email, "x@example.org"));
        assert_ne!(hash, replace("{hash}", "l", email, "x@example.org"));
        assert_ne!(hash, replace("{hash}", "k", email, "y@example.org"));
        // The value `linkscan redact --replace {hash}` has written since `{hash}` came:
        // a change of the key's derivation or of the digits would break joins across runs.
        assert_eq!(
            replace("{hash}", "", email, "x@example.org"),
            "5b9ebf9cd9d44fce4fc12ff79d59daa3"
        );
        assert_eq!(hash, "83c5c97ea51b1d5dcba6176b90e33078");
    }
}
