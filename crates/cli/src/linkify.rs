//! `linkscan linkify`: each input as HTML with its links.
//!
//! By default the output is an HTML fragment, for embedding in a page: the escaped text
//! with its links, nothing around it. With `--standalone` it is a complete page (doctype,
//! `<meta charset="utf-8">`, a title) in which each input is one `<pre dir="auto">` block
//! styled `white-space: pre-wrap`, so its line breaks show in a browser. A block is opened
//! at the first piece of its input and closed before the next input's block or the end of
//! the page, so an unreadable input (no pieces) leaves no empty block.

use std::io::{self, Write};

use linkscan::html::{write_escaped, Linkifier};
use linkscan::LinkFinder;

use crate::{input, LinkifyArgs, Outcome};

/// Linkifies `files` (the inputs, directories already walked; `named`: which were named on
/// the command line).
pub(crate) fn run(
    args: &LinkifyArgs,
    files: &[std::path::PathBuf],
    named: &[bool],
    linkifier: Linkifier,
    finder: LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    if !args.standalone {
        return input::for_each_piece(files, named, &finder, |_, _, piece| {
            linkifier.write_html_part(piece.bytes, piece.range, piece.links.iter().copied(), out)
        });
    }
    write_page_start(&page_title(files), out)?;
    let mut open: Option<usize> = None;
    let outcome = input::for_each_piece(files, named, &finder, |input, _, piece| {
        if open != Some(input) {
            if open.is_some() {
                write_text_block_end(out)?;
            }
            write_text_block_start(out)?;
            open = Some(input);
        }
        linkifier.write_html_part(piece.bytes, piece.range, piece.links.iter().copied(), out)
    })?;
    if open.is_some() {
        write_text_block_end(out)?;
    }
    write_page_end(out)?;
    Ok(outcome)
}

/// The page title: the file names (not their folders, which are of the machine that made
/// the page), or "linkscan" for standard input.
fn page_title(files: &[std::path::PathBuf]) -> String {
    let names: Vec<String> = files
        .iter()
        .filter(|path| path.as_os_str() != input::STDIN_NAME)
        .map(|path| {
            path.file_name()
                .map_or_else(|| path.to_string_lossy(), |name| name.to_string_lossy())
                .into_owned()
        })
        .collect();
    if names.is_empty() {
        "linkscan".to_string()
    } else {
        names.join(", ")
    }
}

/// Writes the opening of a standalone HTML page, up to the first text block: doctype,
/// `<meta charset="utf-8">`, `title` (escaped), and a style that keeps the line breaks and
/// spaces of plain text (`white-space: pre-wrap`) while long lines still wrap. Each text
/// goes in a [`write_text_block_start`]…[`write_text_block_end`] block; the page ends with
/// [`write_page_end`].
pub(crate) fn write_page_start<W: Write + ?Sized>(title: &str, out: &mut W) -> io::Result<()> {
    out.write_all(
        b"<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n\
          <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
    )?;
    write_escaped(title, out)?;
    out.write_all(
        b"</title>\n<style>\n\
          pre.text { white-space: pre-wrap; overflow-wrap: anywhere; }\n\
          </style>\n</head>\n<body>\n",
    )
}

/// Opens a block of plain text in a standalone page: `<pre class="text" dir="auto">`, so
/// that a right-to-left text is laid out right to left, and a left-to-right one left to
/// right, by its first strong character.
pub(crate) fn write_text_block_start<W: Write + ?Sized>(out: &mut W) -> io::Result<()> {
    out.write_all(b"<pre class=\"text\" dir=\"auto\">")
}

/// Closes a block opened by [`write_text_block_start`].
pub(crate) fn write_text_block_end<W: Write + ?Sized>(out: &mut W) -> io::Result<()> {
    out.write_all(b"</pre>\n")
}

/// Closes a page opened by [`write_page_start`].
pub(crate) fn write_page_end<W: Write + ?Sized>(out: &mut W) -> io::Result<()> {
    out.write_all(b"</body>\n</html>\n")
}

#[cfg(test)]
mod page_tests {
    use super::*;

    #[test]
    fn a_standalone_page_has_its_title_style_and_blocks() {
        let mut page = Vec::new();
        write_page_start("notes <1>", &mut page).unwrap();
        write_text_block_start(&mut page).unwrap();
        Linkifier::new()
            .write_html(b"see example.com\n\n  indented", &mut page)
            .unwrap();
        write_text_block_end(&mut page).unwrap();
        write_page_end(&mut page).unwrap();
        let page = String::from_utf8(page).unwrap();
        assert!(page.starts_with("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">"));
        assert!(page.contains("<title>notes &lt;1&gt;</title>"));
        assert!(page.contains("white-space: pre-wrap"));
        assert!(page.contains("<pre class=\"text\" dir=\"auto\">see <bdi dir=\"ltr\"><a href=\"https://example.com\">"));
        assert!(page.ends_with("\n\n  indented</pre>\n</body>\n</html>\n"));
    }
}
