//! The inputs of a subcommand: named files, or standard input for `-` or no name, scanned
//! piece by piece.
//!
//! Regular files are memory-mapped and scanned in windows of [`WINDOW`] bytes, each with
//! [`LinkFinder::par_pieces`] on the command's thread pool (its pieces are handed on one
//! by one, without merging their links into one vector); standard input (and anything
//! that cannot be mapped, such as a pipe given by name) is streamed through a buffer of
//! the same size with [`LinkFinder::scan_reader`]. Either way the caller sees consecutive
//! pieces with their links, in order, and memory stays bounded by the window whatever the
//! input size. Pieces are cut only where no link can cross (see the library's `split`
//! module), so the links are exactly those of a scan of the whole input.
//!
//! An input that cannot be read is reported on stderr (`linkscan: NAME: reason`) and
//! skipped; the others are still processed and the outcome says so (exit status 2).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use linkscan::{Link, LinkFinder};
use memmap2::Mmap;

use crate::Outcome;

/// The display name of standard input.
pub(crate) const STDIN_NAME: &str = "-";

/// Bytes scanned (and, for standard input, buffered) at a time.
pub(crate) const WINDOW: usize = 32 << 20;

/// One piece of an input: where it starts in the input, its bytes, its links (offsets
/// relative to the piece).
pub(crate) struct Piece<'a> {
    pub(crate) offset: u64,
    pub(crate) bytes: &'a [u8],
    pub(crate) links: &'a [Link],
}

/// Maps a regular file; `None` when the file cannot be mapped (a pipe, a device), so it
/// is streamed instead.
#[allow(unsafe_code)]
fn map(file: &File) -> Option<Mmap> {
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() == 0 {
        return None;
    }
    // SAFETY: the map is read-only and dropped before this input is done. If another
    // process truncates or rewrites the file meanwhile, reads may see changed bytes or
    // fault — the same contract as every mmap-based reader (ripgrep makes the same
    // choice); the scan itself never trusts the bytes to stay valid UTF-8.
    unsafe { Mmap::map(file) }.ok()
}

/// Calls `each(input, name, piece)` for every piece of every input, in order; `input` is
/// the index of the input on the command line. Every input that can be read gives at
/// least one piece (an empty one for an empty input). Errors from `each` (writing the
/// output) stop the run; errors reading an input are reported and skipped.
pub(crate) fn for_each_piece(
    paths: &[PathBuf],
    finder: &LinkFinder,
    mut each: impl FnMut(usize, &str, Piece<'_>) -> io::Result<()>,
) -> io::Result<Outcome> {
    let stdin = [PathBuf::from(STDIN_NAME)];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let mut outcome = Outcome::Ok;
    for (input, path) in paths.iter().enumerate() {
        let name = path.to_string_lossy();
        let mut failed = |e: io::Error| {
            eprintln!("linkscan: {name}: {}", describe(&e));
            outcome = Outcome::InputErrors;
        };
        let mut emit = |piece: Piece<'_>| each(input, &name, piece);
        let result = if path == Path::new(STDIN_NAME) {
            scan_stream(io::stdin().lock(), finder, &mut emit)
        } else {
            match File::open(path) {
                Ok(file) => match map(&file) {
                    Some(map) => scan_mapped(&map, finder, &mut emit).map(|()| 0),
                    None => scan_stream(file, finder, &mut emit),
                },
                Err(e) => Err(ReadError::Input(e)),
            }
        };
        match result {
            Ok(0) => {}
            Ok(forced) => eprintln!(
                "linkscan: {name}: warning: {forced} run(s) of more than {} MiB without white \
                 space were cut at a character boundary; a link across such a cut is split",
                WINDOW >> 20
            ),
            Err(ReadError::Input(e)) => failed(e),
            Err(ReadError::Output(e)) => return Err(e),
        }
    }
    Ok(outcome)
}

/// An error reading an input (reported, the run goes on) or writing the output (fatal).
enum ReadError {
    Input(io::Error),
    Output(io::Error),
}

fn scan_mapped(
    bytes: &[u8],
    finder: &LinkFinder,
    each: &mut impl FnMut(Piece<'_>) -> io::Result<()>,
) -> Result<(), ReadError> {
    let mut start = 0;
    while start < bytes.len() {
        let end = linkscan::piece_end(bytes, start, WINDOW);
        let window = &bytes[start..end];
        // The window's pieces go out one by one: no merged copy of their links.
        for (range, links) in finder.par_pieces(window) {
            each(Piece {
                offset: (start + range.start) as u64,
                bytes: &window[range],
                links: &links,
            })
            .map_err(ReadError::Output)?;
        }
        start = end;
    }
    Ok(())
}

/// Streams `reader`; returns the number of forced cuts (see `LinkFinder::scan_reader`).
fn scan_stream(
    reader: impl io::Read,
    finder: &LinkFinder,
    each: &mut impl FnMut(Piece<'_>) -> io::Result<()>,
) -> Result<u64, ReadError> {
    let mut output_error = None;
    let result = finder.scan_reader(reader, WINDOW, |offset, bytes, links| {
        each(Piece {
            offset,
            bytes,
            links,
        })
        .map_err(|e| {
            // Keep the output error apart from read errors of the input.
            let kind = e.kind();
            output_error = Some(e);
            io::Error::from(kind)
        })
    });
    match (result, output_error) {
        (_, Some(e)) => Err(ReadError::Output(e)),
        (Err(e), None) => Err(ReadError::Input(e)),
        (Ok(forced), None) => Ok(forced),
    }
}

/// An I/O error in words, without the `(os error N)` suffix.
pub(crate) fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
