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
        .finder(finder)
        .default_scheme(args.default_scheme.clone())
        .checks(args.checks);
    input::for_each(&args.files, |_, bytes| linkifier.write_html(bytes, out))
}
