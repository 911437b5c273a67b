//! `linkscan linkify`: each input as HTML with its links.

use std::io::{self, Write};

use linkscan::html::Linkifier;
use linkscan::LinkFinder;

use crate::{input, LinkifyArgs, Outcome};

pub(crate) fn run(
    args: &LinkifyArgs,
    finder: LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    let linkifier = Linkifier::new()
        .finder(finder.clone())
        .default_scheme(args.default_scheme.clone());
    input::for_each_piece(&args.files, &finder, |_, _, piece| {
        linkifier.write_html_with_links(piece.bytes, piece.links.iter().copied(), out)
    })
}
