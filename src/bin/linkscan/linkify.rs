//! `linkscan linkify`: each input as HTML with its links.
//!
//! By default the output is an HTML fragment, for embedding in a page: the escaped text
//! with its links, nothing around it. With `--standalone` it is a complete page (doctype,
//! `<meta charset="utf-8">`, a title) in which each input is one `<pre dir="auto">` block
//! styled `white-space: pre-wrap`, so its line breaks show in a browser. A block is opened
//! at the first piece of its input and closed before the next input's block or the end of
//! the page, so an unreadable input (no pieces) leaves no empty block.

use std::io::{self, Write};

use linkscan::html::{self, Linkifier};
use linkscan::LinkFinder;

use crate::{input, LinkifyArgs, Outcome};

/// Linkifies `files` (the inputs, directories already walked).
pub(crate) fn run(
    args: &LinkifyArgs,
    files: &[std::path::PathBuf],
    linkifier: Linkifier,
    finder: LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    if !args.standalone {
        return input::for_each_piece(files, &finder, |_, _, piece| {
            linkifier.write_html_part(piece.bytes, piece.range, piece.links.iter().copied(), out)
        });
    }
    html::write_page_start(&page_title(files), out)?;
    let mut open: Option<usize> = None;
    let outcome = input::for_each_piece(files, &finder, |input, _, piece| {
        if open != Some(input) {
            if open.is_some() {
                html::write_text_block_end(out)?;
            }
            html::write_text_block_start(out)?;
            open = Some(input);
        }
        linkifier.write_html_part(piece.bytes, piece.range, piece.links.iter().copied(), out)
    })?;
    if open.is_some() {
        html::write_text_block_end(out)?;
    }
    html::write_page_end(out)?;
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
