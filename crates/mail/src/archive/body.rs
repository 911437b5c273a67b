//! The body of a message as the archive draws it, on its message page (and wherever
//! else a page shows a message whole): its text parts with their links, its text
//! attachments drawn as text, and the list of its other attachments.
//!
//! # Invariants
//!
//! * Every text part and every text attachment is drawn once, in the order of the MIME
//!   tree; every attachment not drawn is listed once: linked to its file when the scan
//!   kept it (see `attach`), else with why not.
//! * With [`Attachments::None`], or a scan that kept no attachment, the attachments are
//!   listed as `Not shown`, by name, type and encoded size, as they always were.
//! * One text part of the message needs no heading: it is the message; a text attachment
//!   always has one.

use std::io::{self, Write};

use crate::ScannedMessage;
use linkscan::html::write_escaped;

use super::attach::{self, Attachments};
use super::page::{human_size, Style};
use super::text::{self, References};

/// How a body draws its attachments: the archive's choice and its limit per message.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shown {
    pub(crate) attachments: Attachments,
    pub(crate) limit: u64,
}

/// Writes the body of `m`, message `global` of the archive; `names` are the files of its
/// kept attachments ([`attach::file_names`]).
pub(crate) fn write_body(
    m: &ScannedMessage,
    global: usize,
    names: &[Option<String>],
    shown: Shown,
    style: Style<'_>,
    references: &mut References,
    out: &mut impl Write,
) -> io::Result<()> {
    let texts = || {
        m.parts()
            .iter()
            .filter(|p| p.path() != "subject" && p.attachment_name().is_none())
    };
    // One text part needs no heading: it is the message.
    let headed = texts().nth(1).is_some();
    for part in m.parts().iter().filter(|p| p.path() != "subject") {
        if part.attachment_name().is_some() {
            attach::write_text(part, m.piece_offset(), style, out)?;
        } else {
            text::write_part(part, m.piece_offset(), headed, style, references, out)?;
        }
    }
    if m.skipped().is_empty() {
        return Ok(());
    }
    if shown.attachments != Attachments::None && m.attachments_kept() {
        return attach::write_list(m, global, names, shown.limit, style, out);
    }
    out.write_all(b"<section class=\"attachments\"><h2>Not shown</h2>\n<ul>\n")?;
    for part in m.skipped() {
        out.write_all(b"<li>Part ")?;
        write_escaped(&part.path, out)?;
        out.write_all(b": <bdi dir=\"auto\">")?;
        write_escaped(
            &style.said(part.name.as_deref().unwrap_or("(no name)")),
            out,
        )?;
        out.write_all(b"</bdi>, ")?;
        write_escaped(&part.content_type, out)?;
        write!(
            out,
            ", <span title=\"{} bytes as sent\">{} encoded</span>",
            part.size,
            human_size(part.size)
        )?;
        out.write_all(b"</li>\n")?;
    }
    out.write_all(b"</ul></section>\n")
}
