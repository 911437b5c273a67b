//! `linkscan redact`: each input with its links replaced, every other byte kept.
//!
//! Regular files go the way of `find --count` ([`files::for_each_window`]): each worker
//! reads a window, redacts it into an output buffer of its own (copying the bytes between
//! links, writing the template for each link) and the calling thread writes the buffers in
//! order. Nothing is kept per link. A window is at most its size times the template's
//! growth over the shortest link ([`Replacer::bounded`]); a template that could grow a
//! window past [`MAX_GROWTH`](linkscan_replace::MAX_GROWTH) times, and standard input and other streams, go through the
//! windows and pieces of `linkify` instead ([`input::for_each_piece`]: read by a reader
//! thread, scanned in parallel, written link by link). Either way memory is bounded by a
//! few windows, whatever the size of the input, and the parts written tile the input.

use std::io::{self, Write};

use linkscan::LinkFinder;

use crate::flags::RedactArgs;
use crate::{files, input, Outcome};
use linkscan_replace::Replacer;

/// Redacts `files` (none: standard input) to `out`.
pub(crate) fn run(
    args: &RedactArgs,
    finder: &LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    let template = args.replace.clone().unwrap_or_default();
    let replacer = Replacer::new(template, &args.hash_key);
    if let Some(field) = &args.records.field {
        return crate::records::redact(args, field, finder, &replacer, out);
    }
    let named = vec![true; args.files.len()];
    if !args.files.is_empty() && files::all_regular(&args.files) && replacer.bounded() {
        // Each worker redacts the window it read; the buffers are written in order.
        return files::for_each_window(
            &args.files,
            &named,
            Vec::new,
            |_, _, window, redacted: &mut Vec<u8>| {
                // `LinkFinder::redact_to`'s loop, with the replacement written in place
                // (not through a buffer of its own).
                redacted.clear();
                redacted.reserve(window.len());
                let mut at = 0;
                for link in finder.links_bytes(window) {
                    redacted.extend_from_slice(&window[at..link.start()]);
                    replacer.write(link.kind(), &window[link.range()], redacted);
                    at = link.end();
                }
                redacted.extend_from_slice(&window[at..]);
            },
            |_, _, _, redacted| out.write_all(redacted),
        );
    }
    let mut scratch = Vec::new();
    input::for_each_piece(&args.files, &named, finder, |_, _, piece| {
        let mut at = piece.range.start;
        for link in piece.links {
            if link.start() < at {
                continue;
            }
            out.write_all(&piece.bytes[at..link.start()])?;
            scratch.clear();
            replacer.write(link.kind(), &piece.bytes[link.range()], &mut scratch);
            out.write_all(&scratch)?;
            at = link.end();
        }
        out.write_all(&piece.bytes[at..piece.range.end])
    })
}
