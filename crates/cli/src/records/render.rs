//! The lines `find --field` writes for the links of one record's text, in each format:
//!
//! - text: `[FILE:]#RECORD[:ID]:START: LINK` (`#` tells a record from a line number);
//! - jsonl: `{"file","record"[,"id"],"start","end","kind","text"[,"checks"]}`;
//! - tsv: file, record, (id,) start, end, kind, text(, checks).
//!
//! Invariant: as in `crate::find`, nothing reaches the output raw that a terminal would act
//! on: JSON strings through [`json_str`], TSV fields through [`tsv_field`], the text
//! format's link through [`terminal::escape_into`]; START and END are byte offsets in the
//! record's text.

use std::io::Write;

use linkscan::{checks, Link, LinkFinder};

use crate::find::{Format, Palette};
use crate::render::{decimal, json_str, tsv_field, Name};
use crate::terminal;

/// A record's `--id-field` value, rendered once for all its links.
pub(crate) struct Id {
    /// As a JSON value (a string, a number, `null`…).
    pub(crate) json: Vec<u8>,
    /// As a TSV field (a string's text, a number's digits; empty for a missing value).
    pub(crate) text: Vec<u8>,
}

impl Id {
    /// The value of a record without the id field.
    pub(crate) fn missing() -> Id {
        Id {
            json: b"null".to_vec(),
            text: Vec::new(),
        }
    }

    /// A string value.
    pub(crate) fn string(value: &str) -> Id {
        let mut json = Vec::new();
        json_str(&mut json, value);
        let mut text = Vec::new();
        tsv_field(&mut text, value.as_bytes());
        Id { json, text }
    }

    /// Another value, as JSON text (a number, `true`, an object…).
    pub(crate) fn json(value: &str) -> Id {
        let mut text = Vec::new();
        tsv_field(&mut text, value.as_bytes());
        // Escaped as the JSON output is when it holds what a terminal acts on.
        let json = if terminal::has_special(value.as_bytes(), true) {
            let mut json = Vec::new();
            json_str(&mut json, value);
            json
        } else {
            value.as_bytes().to_vec()
        };
        Id { json, text }
    }
}

/// The record a link is of: its input's name, its number, its id (when asked).
#[derive(Clone, Copy)]
pub(crate) struct Of<'a> {
    pub(crate) name: &'a Name,
    pub(crate) record: u64,
    pub(crate) id: Option<&'a Id>,
}

/// How the links of a record are written.
pub(crate) struct Layout<'a> {
    pub(crate) finder: &'a LinkFinder,
    pub(crate) format: Format,
    /// Counted, not written (-c, -q).
    pub(crate) count: bool,
    /// The text format starts each line with the file name.
    pub(crate) named: bool,
    pub(crate) checks: bool,
    pub(crate) color: bool,
    /// Each link carries its record's id (`--id-field`).
    pub(crate) id: bool,
}

impl Layout<'_> {
    /// Appends the lines of the links of `text`, the field of the record `of`, to `out`;
    /// returns the number of links.
    pub(crate) fn record(&self, out: &mut Vec<u8>, of: Of<'_>, text: &[u8]) -> usize {
        if self.count {
            return self.finder.links_bytes(text).count();
        }
        let mut n = 0;
        for link in self.finder.links_bytes(text) {
            n += 1;
            self.link(out, of, text, 0, &link);
        }
        n
    }

    /// Appends the line of `link`, found in `bytes` where the text of the record `of`
    /// starts at `base` (offsets are written less `base`). With `checks`, `bytes` must be
    /// the record's text alone (`base` 0): the checks read the text around the link.
    pub(crate) fn link(
        &self,
        out: &mut Vec<u8>,
        of: Of<'_>,
        bytes: &[u8],
        base: usize,
        link: &Link,
    ) {
        debug_assert!(!self.checks || base == 0);
        let of = Of {
            id: of.id.filter(|_| self.id),
            ..of
        };
        match self.format {
            Format::Jsonl => self.json(out, of, bytes, base, link),
            Format::Tsv => self.tsv(out, of, bytes, base, link),
            // Marked is refused with --field.
            Format::Text | Format::Marked => self.text(out, of, bytes, base, link),
        }
    }

    fn text(&self, out: &mut Vec<u8>, of: Of<'_>, text: &[u8], base: usize, link: &Link) {
        let Of { name, record, id } = of;
        let palette = Palette::new(self.color);
        if self.named {
            palette.paint(out, Palette::FILE, name.text.as_bytes());
            out.push(b':');
        }
        out.extend_from_slice(palette.on(Palette::POSITION));
        out.push(b'#');
        decimal(out, record);
        out.push(b':');
        if let Some(id) = id {
            out.extend_from_slice(&id.text);
            out.push(b':');
        }
        decimal(out, (link.start() - base) as u64);
        out.extend_from_slice(palette.off());
        crate::find::link_and_checks(out, palette, text, link, self.checks);
    }

    fn json(&self, out: &mut Vec<u8>, of: Of<'_>, text: &[u8], base: usize, link: &Link) {
        let Of { name, record, id } = of;
        out.extend_from_slice(b"{\"file\":");
        out.extend_from_slice(name.json.as_bytes());
        out.extend_from_slice(b",\"record\":");
        decimal(out, record);
        if let Some(id) = id {
            out.extend_from_slice(b",\"id\":");
            out.extend_from_slice(&id.json);
        }
        out.extend_from_slice(b",\"start\":");
        decimal(out, (link.start() - base) as u64);
        out.extend_from_slice(b",\"end\":");
        decimal(out, (link.end() - base) as u64);
        out.extend_from_slice(b",\"kind\":\"");
        out.extend_from_slice(link.kind().as_str().as_bytes());
        out.extend_from_slice(b"\",\"text\":");
        json_str(out, link_text(text, link));
        if self.checks {
            out.extend_from_slice(b",\"checks\":[");
            for (i, check) in checks::check_link(text, link).names().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                json_str(out, check);
            }
            out.push(b']');
        }
        out.extend_from_slice(b"}\n");
    }

    fn tsv(&self, out: &mut Vec<u8>, of: Of<'_>, text: &[u8], base: usize, link: &Link) {
        let Of { name, record, id } = of;
        out.extend_from_slice(name.text.as_bytes());
        out.push(b'\t');
        decimal(out, record);
        if let Some(id) = id {
            out.push(b'\t');
            out.extend_from_slice(&id.text);
        }
        out.push(b'\t');
        decimal(out, (link.start() - base) as u64);
        out.push(b'\t');
        decimal(out, (link.end() - base) as u64);
        out.push(b'\t');
        out.extend_from_slice(link.kind().as_str().as_bytes());
        out.push(b'\t');
        tsv_field(out, link_text(text, link).as_bytes());
        if self.checks {
            let _ = write!(out, "\t{}", checks::check_link(text, link));
        }
        out.push(b'\n');
    }
}

/// The text of a link; links never contain invalid UTF-8.
fn link_text<'a>(text: &'a [u8], link: &Link) -> &'a str {
    std::str::from_utf8(&text[link.range()]).unwrap_or_default()
}
