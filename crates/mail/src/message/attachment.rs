//! What the scan keeps of an attachment (a part it does not scan) when asked to
//! ([`MailScanner::keep_attachments`]): its decoded bytes, or, for a text attachment with
//! [`MailScanner::inline_text_attachments`], a text part of its own.
//!
//! # Algorithm
//!
//! Each part not scanned comes here with its decoded body (a text, converted from its
//! charset to UTF-8 by the parser, or bytes). A text attachment ([`is_text_attachment`]:
//! by type, else by the extension of its file name) whose text is UTF-8 becomes a
//! [`TextPart`] with its links when inline texts are asked for, it is at most
//! [`MAX_INLINE_ATTACHMENT`] bytes and it fits in what is left of the message's limit;
//! any other attachment keeps its bytes in [`SkippedPart::data`] when they fit, else
//! `None`.
//!
//! # Invariants
//!
//! * Memory: the bytes kept for one message, texts and data together, are at most the
//!   limit (counted in [`ScannedMessage`]'s `kept`, over nested messages too); a part that
//!   does not fit keeps nothing, and a later smaller one may still fit.
//! * Without [`MailScanner::keep_attachments`] nothing changes: the part is listed as
//!   it always was, with no data.

use std::borrow::Cow;

use super::{MailScanner, ScannedMessage, SkippedPart, TextPart};

/// The largest text attachment shown as text: past it a page would grow with it, so it
/// is kept as data (written beside the page) instead.
pub const MAX_INLINE_ATTACHMENT: usize = 1 << 20;

/// The decoded body of a part not scanned.
pub(crate) enum Kept<'x> {
    /// A text (the parser converted it to UTF-8).
    Text(Cow<'x, str>),
    /// Bytes.
    Bytes(Cow<'x, [u8]>),
}

/// The extensions of file names that are text to read: patches and diffs, source files,
/// build and configuration files, logs.
const TEXT_EXTENSIONS: &[&str] = &[
    "patch", "diff", "txt", "text", "log", "md", "rst", "c", "h", "cc", "cpp", "cxx", "hpp", "hh",
    "rs", "go", "py", "rb", "pl", "pm", "sh", "bash", "zsh", "java", "kt", "scala", "cs", "swift",
    "m", "js", "ts", "lua", "php", "sql", "el", "lisp", "scm", "hs", "ml", "ex", "exs", "erl",
    "toml", "yaml", "yml", "ini", "cfg", "conf", "json", "csv", "tsv", "mk", "cmake", "s", "asm",
    "tex", "awk", "sed", "vim", "nix", "dts", "dtsi", "kconfig",
];

/// Whether an attachment of type `ctype/subtype` (lower case) named `name` is text to
/// read: any text-like type ([`is_text_like`](super::is_text_like): `text/*`, patches,
/// scripts, JSON, …), or a file name that ends with the extension of a patch or a
/// source file (`fix.patch`, `main.c` sent as `application/octet-stream`), or is a
/// `Makefile`.
pub fn is_text_attachment(ctype: &str, subtype: &str, name: Option<&str>) -> bool {
    if super::is_text_like(ctype, subtype) {
        return true;
    }
    let Some(name) = name else {
        return false;
    };
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    if base.eq_ignore_ascii_case("makefile") {
        return true;
    }
    base.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && TEXT_EXTENSIONS
                .iter()
                .any(|known| ext.eq_ignore_ascii_case(known))
    })
}

impl MailScanner {
    /// Adds the part `skipped`, not scanned, with its decoded `body`: as a text part, with
    /// its data, or as it is (see the [module](self) documentation).
    pub(crate) fn skip(&self, mut skipped: SkippedPart, body: Kept<'_>, out: &mut ScannedMessage) {
        let (Some(limit), Some(kept)) = (self.keep_attachments, out.kept) else {
            out.skipped.push(skipped);
            return;
        };
        let len = match &body {
            Kept::Text(text) => text.len(),
            Kept::Bytes(bytes) => bytes.len(),
        } as u64;
        let fits = kept.saturating_add(len) <= limit;
        let (ctype, subtype) = skipped
            .content_type
            .split_once('/')
            .unwrap_or((&skipped.content_type, ""));
        let inline = fits
            && self.inline_text_attachments
            && len <= MAX_INLINE_ATTACHMENT as u64
            && is_text_attachment(ctype, subtype, skipped.name.as_deref());
        let body = if inline {
            let text = match body {
                Kept::Text(text) => Ok(text.into_owned()),
                Kept::Bytes(bytes) => String::from_utf8(bytes.into_owned())
                    .map_err(|e| Kept::Bytes(Cow::Owned(e.into_bytes()))),
            };
            match text {
                Ok(text) => {
                    out.kept = Some(kept + len);
                    out.parts.push(TextPart {
                        path: skipped.path,
                        content_type: Some(skipped.content_type),
                        links: self.text_links_of(&text),
                        text,
                        flowed: false,
                        attachment: Some(skipped.name.unwrap_or_default()),
                    });
                    return;
                }
                // Not UTF-8: kept as bytes.
                Err(bytes) => bytes,
            }
        } else {
            body
        };
        if fits {
            out.kept = Some(kept + len);
            skipped.data = Some(match body {
                Kept::Text(text) => text.into_owned().into_bytes(),
                Kept::Bytes(bytes) => bytes.into_owned(),
            });
        }
        out.skipped.push(skipped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(parts: &[(&str, &str, &str)]) -> Vec<u8> {
        let mut raw = String::from(
            "Subject: x\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n\
             --b\nContent-Type: text/plain\n\nsee example.com\n",
        );
        for (ctype, name, body) in parts {
            raw.push_str(&format!(
                "--b\nContent-Type: {ctype}\nContent-Disposition: attachment; \
                 filename=\"{name}\"\n\n{body}\n"
            ));
        }
        raw.push_str("--b--\n");
        raw.into_bytes()
    }

    /// A patch becomes a text part with its links; an image keeps its bytes; without
    /// the option both are listed with no data, as before.
    #[test]
    fn text_attachments_become_parts_and_others_keep_their_bytes() {
        let raw = message(&[
            ("text/x-patch", "fix.patch", "+see docs.example.org\n-old"),
            ("application/octet-stream", "main.c", "int main;"),
            ("image/png", "a.png", "PNGDATA"),
        ]);
        let scanner = MailScanner::new()
            .keep_attachments(Some(1000))
            .inline_text_attachments(true);
        let m = scanner.scan(&raw);
        let names: Vec<_> = m.parts().iter().map(|p| p.attachment_name()).collect();
        assert_eq!(names, [None, None, Some("fix.patch"), Some("main.c")]);
        assert_eq!(m.parts()[2].links()[0].text(), "docs.example.org");
        assert_eq!(m.skipped().len(), 1);
        assert_eq!(m.skipped()[0].data.as_deref(), Some(&b"PNGDATA"[..]));
        // Linked, not inline: every attachment keeps its bytes.
        let m = MailScanner::new().keep_attachments(Some(1000)).scan(&raw);
        assert_eq!(m.parts().len(), 2);
        assert!(m.skipped().iter().all(|s| s.data.is_some()));
        let plain = MailScanner::new().scan(&raw);
        assert!(!plain.attachments_kept());
        assert!(plain.skipped().iter().all(|s| s.data.is_none()));
        assert_eq!(plain.skipped().len(), 3);
    }

    /// Past the limit a part keeps nothing; a later one that fits still does.
    #[test]
    fn the_limit_bounds_what_a_message_keeps() {
        let raw = message(&[
            ("image/png", "a.png", "0123456789"),
            ("image/png", "b.png", "0123456789"),
            ("image/png", "c.png", "01"),
        ]);
        let m = MailScanner::new().keep_attachments(Some(13)).scan(&raw);
        let kept: Vec<bool> = m.skipped().iter().map(|s| s.data.is_some()).collect();
        assert_eq!(kept, [true, false, true]);
        assert!(m.attachments_kept());
        // Base64 bodies are decoded, on the flat path and the general one alike.
        let raw = message(&[(
            "image/png\nContent-Transfer-Encoding: base64",
            "a.png",
            "iVBORw0KGgo=",
        )]);
        let scanner = MailScanner::new().keep_attachments(Some(100));
        let flat = scanner.scan(&raw);
        assert_eq!(
            flat.skipped()[0].data.as_deref(),
            Some(&b"\x89PNG\r\n\x1a\n"[..])
        );
        let mut general = scanner.clone();
        general.general_path_only = true;
        assert_eq!(general.scan(&raw), flat);
    }

    #[test]
    fn text_attachments_by_type_and_name() {
        assert!(is_text_attachment("text", "x-diff", None));
        assert!(is_text_attachment("application", "x-patch", None));
        assert!(is_text_attachment(
            "application",
            "octet-stream",
            Some("a/b/Main.RS")
        ));
        assert!(is_text_attachment(
            "application",
            "octet-stream",
            Some("Makefile")
        ));
        assert!(!is_text_attachment(
            "application",
            "octet-stream",
            Some(".c")
        ));
        assert!(!is_text_attachment("application", "pdf", Some("a.pdf")));
        assert!(!is_text_attachment("image", "png", None));
    }
}
