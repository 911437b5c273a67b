//! Attachments on the archive's pages: text attachments drawn as text (a patch with its
//! added, removed and hunk lines told apart), the others written beside the pages under
//! `a/NNNNN/` and linked, with their name, type and size.
//!
//! # Files
//!
//! The attachments of message `NNNNN` that the scan kept ([`crate::SkippedPart::data`], within
//! the archive's limit per message) are written to `a/NNNNN/K-NAME.EXT`, `K` the
//! attachment's place among the message's attachments (from 1), so names are unique per
//! message. [`file_name`] makes `NAME.EXT` safe whatever the message says:
//!
//! * `NAME` is the file name's last component (after any `/` or `\`) without its
//!   extension, each character other than an ASCII letter, digit, `-` or `_` made `_`
//!   (dots, separators, control and Bidi_Control characters, `@`: no address, no
//!   hidden extension such as Apache's `x.php.txt`), runs of `_` made one, at most
//!   [`MAX_STEM`] bytes; `attachment` when nothing is left.
//! * `EXT` is the name's own extension only when a static server serves it as something
//!   no browser runs ([`SAFE_EXTENSIONS`]: documents, images other than SVG, archives,
//!   sound, video, plain text); else `txt` for a text and `bin` for other bytes. So no
//!   file is ever served as HTML, SVG, XML or a script.
//!
//! With [`Addresses::Obfuscate`] a text file is written with its addresses obfuscated, as
//! the pages write them; other bytes are written as sent, unless they hold an
//! address-shaped string (then the attachment is listed, not written), so that no file
//! of the folder holds an address.
//!
//! # Invariants
//!
//! * A file is written as pages are (`files::create_named`): never through a link; the
//!   folders `a` and `a/NNNNN` are real folders (a link or a file in their place is
//!   removed first). The folder of a message holds exactly its attachments of this run:
//!   any other file there is removed, and a message with none has no folder.
//! * Every `href` is `a/` then digits, `/`, and a name of `[A-Za-z0-9_.-]`.
//! * A text attachment is drawn with its links ([`write_linkified`]) one line at a time
//!   (no link crosses a line end), so the page holds its text escaped, whatever it says.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use crate::{ScannedMessage, TextPart};
use linkscan::display::escape_bidi_controls;
use linkscan::html::write_escaped;

use super::files::create_named;
use super::page::{human_size, obfuscated_text, scrub, write_linkified, Style};
use super::Addresses;

/// The folder of attachment files, beside the pages.
pub(crate) const FOLDER: &str = "a";

/// The longest name of a written attachment before its extension.
pub(crate) const MAX_STEM: usize = 60;

/// The extensions an attachment keeps: what a static server serves as something a
/// browser shows or saves, never runs (no HTML, SVG, XML or script).
pub(crate) const SAFE_EXTENSIONS: &[&str] = &[
    "pdf", "png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "zip", "gz", "tgz", "bz2",
    "xz", "zst", "7z", "tar", "rar", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods",
    "odp", "rtf", "txt", "csv", "patch", "diff", "log", "mp3", "mp4", "ogg", "wav", "webm", "mov",
    "avi", "ics",
];

/// Extensions for types whose file has no name.
const TYPE_EXTENSIONS: &[(&str, &str)] = &[
    ("application/pdf", "pdf"),
    ("image/png", "png"),
    ("image/jpeg", "jpg"),
    ("image/gif", "gif"),
    ("image/webp", "webp"),
    ("application/zip", "zip"),
    ("application/gzip", "gz"),
    ("text/calendar", "ics"),
];

/// Extensions of the files that are text: written obfuscated when addresses are.
const TEXT_FILES: &[&str] = &["txt", "csv", "patch", "diff", "log", "ics"];

/// How the archive shows attachments (`--attachments`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Attachments {
    /// Text attachments drawn on the page, the others written beside it and linked.
    #[default]
    Inline,
    /// Every attachment written beside the page and linked.
    Link,
    /// None written: each listed by name, type and size.
    None,
}

/// The default limit of the attachments kept per message (`--attachment-limit`): 10 MiB.
pub const DEFAULT_ATTACHMENT_LIMIT: u64 = 10 << 20;

/// The folder of message `global`'s attachments, relative to the archive's.
pub(crate) fn folder(global: usize) -> String {
    format!("{FOLDER}/{global:05}")
}

/// The safe name of the `k`th attachment (from 1) named `name`, of `content_type`, whose
/// bytes are `data` (see the [module](self) documentation).
pub(crate) fn file_name(k: usize, name: Option<&str>, content_type: &str, data: &[u8]) -> String {
    let base = name.map_or("", |n| n.rsplit(['/', '\\']).next().unwrap_or(n));
    let (stem, ext) = match base.rsplit_once('.') {
        Some((stem, ext)) => (stem, Some(ext.to_ascii_lowercase())),
        None => (base, None),
    };
    let mut safe = String::with_capacity(stem.len().min(MAX_STEM));
    for c in stem.chars() {
        if safe.len() >= MAX_STEM {
            break;
        }
        let c = if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            c
        } else {
            '_'
        };
        if !(c == '_' && safe.ends_with('_')) {
            safe.push(c);
        }
    }
    let safe = safe.trim_matches(['_', '-']);
    let safe = if safe.is_empty() { "attachment" } else { safe };
    let kept = ext.filter(|e| SAFE_EXTENSIONS.contains(&e.as_str()));
    let ext =
        kept.unwrap_or_else(
            || match TYPE_EXTENSIONS.iter().find(|(t, _)| *t == content_type) {
                Some((_, e)) => e.to_string(),
                None if is_text(content_type, data) => "txt".into(),
                None => "bin".into(),
            },
        );
    format!("{k}-{safe}.{ext}")
}

/// Whether an attachment reads as text: a text-like type, or bytes that are UTF-8 with
/// no NUL.
fn is_text(content_type: &str, data: &[u8]) -> bool {
    let (ctype, subtype) = content_type.split_once('/').unwrap_or((content_type, ""));
    crate::message::is_text_like(ctype, subtype)
        || (!data.contains(&0) && std::str::from_utf8(data).is_ok())
}

/// The names of the files of `m`'s attachments, one per [`ScannedMessage::skipped`]
/// part: `Some` for those the scan kept and that are written. With
/// [`Addresses::Obfuscate`], one that is not a text file (written obfuscated) and holds
/// an address-shaped string is not written: it would publish the address.
pub(crate) fn file_names(m: &ScannedMessage, addresses: Addresses) -> Vec<Option<String>> {
    m.skipped()
        .iter()
        .enumerate()
        .map(|(k, part)| {
            let data = part.data.as_deref()?;
            let name = file_name(k + 1, part.name.as_deref(), &part.content_type, data);
            let written_as_text = is_text_file(&name) && std::str::from_utf8(data).is_ok();
            let holds_address = || {
                matches!(
                    scrub(&String::from_utf8_lossy(data)),
                    std::borrow::Cow::Owned(_)
                )
            };
            (addresses == Addresses::Show || written_as_text || !holds_address()).then_some(name)
        })
        .collect()
}

/// Whether a written file named `name` is text (written obfuscated when addresses are).
fn is_text_file(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| TEXT_FILES.contains(&ext))
}

/// Makes `path` a real folder: a link or a file in its place is removed first (itself,
/// never what a link points to). Several threads may make the same folder at once.
fn real_folder(path: &Path) -> io::Result<()> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(_) => fs::remove_file(path).map_err(named)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(named(e)),
    }
    match fs::create_dir(path) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if fs::symlink_metadata(path).map_err(named)?.is_dir() {
                Ok(())
            } else {
                Err(named(e))
            }
        }
        other => other.map_err(named),
    }
}

/// Writes the kept attachments of message `global` (`names` from [`file_names`]) to its
/// folder under `dir`, and removes anything else there; a message with none has no
/// folder. In a `fresh` folder (`fresh`) there is nothing else: the files are created
/// with no lookup before, and nothing is looked for to remove. Returns how many files
/// were written.
pub(crate) fn write_files(
    dir: &Path,
    global: usize,
    m: &ScannedMessage,
    names: &[Option<String>],
    addresses: Addresses,
    fresh: bool,
) -> io::Result<usize> {
    let folder = dir.join(folder(global));
    let mut written = Vec::new();
    for (part, name) in m.skipped().iter().zip(names) {
        let (Some(data), Some(name)) = (part.data.as_deref(), name) else {
            continue;
        };
        if written.is_empty() {
            real_folder(&dir.join(FOLDER))?;
            real_folder(&folder)?;
        }
        let path = folder.join(name);
        let text_file = is_text_file(name);
        let mut out = create_named(&path, fresh)?;
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        match std::str::from_utf8(data) {
            Ok(text) if addresses == Addresses::Obfuscate && text_file => {
                out.write_all(obfuscated_text(text).as_bytes())
            }
            _ => out.write_all(data),
        }
        .map_err(named)?;
        out.finish()?;
        written.push(name.as_str());
    }
    if !fresh {
        remove_others(&folder, &written)?;
    }
    Ok(written.len())
}

/// Removes from `folder` every entry not named in `keep`, and the folder itself when
/// `keep` is empty; a missing folder is fine.
fn remove_others(folder: &Path, keep: &[&str]) -> io::Result<()> {
    let named = |p: &Path, e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", p.display()));
    let entries = match fs::symlink_metadata(folder) {
        Ok(m) if m.is_dir() => fs::read_dir(folder).map_err(|e| named(folder, e))?,
        Ok(_) => return fs::remove_file(folder).map_err(|e| named(folder, e)),
        Err(_) => return Ok(()),
    };
    for entry in entries {
        let entry = entry.map_err(|e| named(folder, e))?;
        let name = entry.file_name();
        if keep.iter().any(|k| name.to_str() == Some(k)) {
            continue;
        }
        let path = entry.path();
        let is_dir = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        if is_dir {
            fs::remove_dir_all(&path)
        } else {
            fs::remove_file(&path)
        }
        .map_err(|e| named(&path, e))?;
    }
    if keep.is_empty() {
        fs::remove_dir(folder).map_err(|e| named(folder, e))?;
    }
    Ok(())
}

/// Removes the folders of attachments of messages past `messages` (an earlier run's),
/// and the folder `a` when it is left empty; returns how many were removed. Entries of
/// `a` that are not a message's folder are left alone.
pub(crate) fn remove_stale(dir: &Path, messages: usize) -> io::Result<usize> {
    let root = dir.join(FOLDER);
    if !fs::symlink_metadata(&root).is_ok_and(|m| m.is_dir()) {
        return Ok(0);
    }
    let mut removed = 0;
    for entry in fs::read_dir(&root)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(n) = name
            .to_str()
            .filter(|n| n.len() >= 5 && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        if n > messages {
            remove_others(&entry.path(), &[])?;
            removed += 1;
        }
    }
    if fs::read_dir(&root)?.next().is_none() {
        fs::remove_dir(&root)?;
    }
    Ok(removed)
}

/// Whether a text attachment is a patch or a diff: by its type or name, else by a line
/// that starts a hunk (`@@ `) after the lines that name its files (`--- `, `+++ `).
pub(crate) fn is_diff(part: &TextPart) -> bool {
    let by_type = part
        .content_type()
        .is_some_and(|t| t.ends_with("/x-patch") || t.ends_with("/x-diff") || t.ends_with("/diff"));
    let name = part.attachment_name().unwrap_or("").to_ascii_lowercase();
    if by_type || name.ends_with(".patch") || name.ends_with(".diff") {
        return true;
    }
    let text = part.text();
    let (mut minus, mut plus) = (false, false);
    for line in text.lines().take(200) {
        if line.starts_with("--- ") {
            minus = true;
        } else if minus && line.starts_with("+++ ") {
            plus = true;
        } else if plus && line.starts_with("@@ ") {
            return true;
        }
    }
    false
}

/// The class of a line of a diff: `add`, `del`, `hunk`, `file`, or none (context).
fn line_class(line: &str) -> Option<&'static str> {
    if line.starts_with("+++ ") || line.starts_with("--- ") || line.starts_with("diff ") {
        Some("file")
    } else if line.starts_with("@@") {
        Some("hunk")
    } else if line.starts_with('+') {
        Some("add")
    } else if line.starts_with('-') {
        Some("del")
    } else {
        None
    }
}

/// The style of the drawn attachments, for the page's style sheet.
pub(crate) const STYLE: &str = "section.attachment h2 a{margin-left:.6em}\
pre.diff .add{color:#055d20;background:#e6ffec}pre.diff .del{color:#82071e;background:#ffebe9}\
pre.diff .hunk{color:#0550ae;background:#ddf4ff}pre.diff .file{font-weight:bold}";

/// Writes a text attachment drawn as text (`part`, whose [`TextPart::attachment_name`]
/// is set): a heading with its name, type and size, then its text with its links, a
/// diff's lines each in a `<span>` of its class ([`line_class`]).
pub(crate) fn write_text(
    part: &TextPart,
    base: usize,
    style: Style<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    out.write_all(b"<section class=\"attachment\"><h2>Attachment ")?;
    write_escaped(part.path(), out)?;
    out.write_all(b": <bdi dir=\"auto\">")?;
    let name = part.attachment_name().filter(|n| !n.is_empty());
    write_escaped(
        &escape_bidi_controls(&style.said(name.unwrap_or("(no name)"))),
        out,
    )?;
    out.write_all(b"</bdi>, ")?;
    write_escaped(part.content_type().unwrap_or(""), out)?;
    writeln!(out, ", {}</h2>", human_size(part.text().len() as u64))?;
    let text = part.text();
    let links = part.links();
    let diff = is_diff(part);
    out.write_all(if diff {
        b"<pre class=\"diff\" dir=\"ltr\">"
    } else {
        b"<pre dir=\"auto\">"
    })?;
    let mut at = 0;
    let mut next = 0;
    while at < text.len() {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = &text[at..end];
        let first = next;
        while next < links.len() && links[next].start().saturating_sub(base) < end {
            next += 1;
        }
        let class = if diff { line_class(line) } else { None };
        if let Some(class) = class {
            write!(out, "<span class=\"{class}\">")?;
        }
        write_linkified(line, &links[first..next], base + at, style, out)?;
        if class.is_some() {
            out.write_all(b"</span>")?;
        }
        if end < text.len() {
            out.write_all(b"\n")?;
        }
        at = end + 1;
    }
    out.write_all(b"</pre></section>\n")
}

/// Writes the list of `m`'s attachments that are not drawn as text: each linked to its
/// file (`names` from [`file_names`]) with its name, type and size, or listed with why
/// it was not written (past the limit of `limit` bytes per message).
pub(crate) fn write_list(
    m: &ScannedMessage,
    global: usize,
    names: &[Option<String>],
    limit: u64,
    style: Style<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    out.write_all(b"<section class=\"attachments\"><h2>Attachments</h2>\n<ul>\n")?;
    for (part, name) in m.skipped().iter().zip(names) {
        out.write_all(b"<li>Part ")?;
        write_escaped(&part.path, out)?;
        out.write_all(b": ")?;
        let shown = escape_bidi_controls(&style.said(part.name.as_deref().unwrap_or("(no name)")))
            .into_owned();
        match (name, &part.data) {
            (Some(file), Some(data)) => {
                write!(out, "<a href=\"{}/{file}\" download>", folder(global))?;
                out.write_all(b"<bdi dir=\"auto\">")?;
                write_escaped(&shown, out)?;
                out.write_all(b"</bdi></a>, ")?;
                write_escaped(&part.content_type, out)?;
                write!(
                    out,
                    ", <span title=\"{} bytes\">{}</span>",
                    data.len(),
                    human_size(data.len() as u64)
                )?;
            }
            (_, data) => {
                out.write_all(b"<bdi dir=\"auto\">")?;
                write_escaped(&shown, out)?;
                out.write_all(b"</bdi>, ")?;
                write_escaped(&part.content_type, out)?;
                match data {
                    Some(data) => write!(
                        out,
                        ", {}: not written, since it holds an address and addresses are \
                         obfuscated",
                        human_size(data.len() as u64)
                    )?,
                    None => write!(
                        out,
                        ", {} encoded: not written, past the archive's limit of {} of \
                         attachments per message",
                        human_size(part.size),
                        human_size(limit)
                    )?,
                }
            }
        }
        out.write_all(b"</li>\n")?;
    }
    out.write_all(b"</ul></section>\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are reduced to safe ones: no separator, no leading dot, no control or
    /// Bidi_Control character, no address, a bounded length, and an extension a server
    /// never runs.
    #[test]
    fn attachment_names_are_safe() {
        let cases = [
            (
                Some("report.pdf"),
                "application/pdf",
                &b"%PDF"[..],
                "1-report.pdf",
            ),
            (
                Some("../../etc/passwd"),
                "text/plain",
                b"root",
                "1-passwd.txt",
            ),
            (Some("..\\..\\boot.ini"), "text/plain", b"x", "1-boot.txt"),
            (Some(".htaccess"), "text/plain", b"x", "1-attachment.txt"),
            (Some("evil.html"), "text/html", b"<script>", "1-evil.txt"),
            (Some("x.php.txt"), "text/plain", b"<?php", "1-x_php.txt"),
            (Some("pic.svg"), "image/svg+xml", b"<svg/>", "1-pic.txt"),
            (
                Some("a.xhtml"),
                "application/octet-stream",
                b"\0\x01",
                "1-a.bin",
            ),
            (
                Some("tool.js"),
                "application/javascript",
                b"alert(1)",
                "1-tool.txt",
            ),
            (
                Some("ann@example.com.png"),
                "image/png",
                b"\x89PNG",
                "1-ann_example_com.png",
            ),
            (
                Some("gnp.\u{202E}exe.pdf"),
                "application/pdf",
                b"x",
                "1-gnp_exe.pdf",
            ),
            (Some("a\r\nb.PNG"), "image/png", b"x", "1-a_b.png"),
            (None, "image/jpeg", b"x", "1-attachment.jpg"),
            (None, "application/x-thing", b"\0", "1-attachment.bin"),
        ];
        for (name, ctype, data, want) in cases {
            assert_eq!(file_name(1, name, ctype, data), want, "{name:?}");
        }
        let long = "x".repeat(500) + ".pdf";
        let named = file_name(12, Some(&long), "application/pdf", b"");
        assert_eq!(named, format!("12-{}.pdf", "x".repeat(MAX_STEM)));
    }

    #[test]
    fn diff_lines_are_classed() {
        assert_eq!(line_class("+added"), Some("add"));
        assert_eq!(line_class("-removed"), Some("del"));
        assert_eq!(line_class("@@ -1,2 +1,2 @@"), Some("hunk"));
        assert_eq!(line_class("+++ b/x"), Some("file"));
        assert_eq!(line_class("--- a/x"), Some("file"));
        assert_eq!(line_class(" context"), None);
    }
}
