//! `linkscan find`: links of each input as JSON lines, TSV, marked text or a count.
//!
//! # Algorithm
//!
//! Each window of an input (see [`input`]) is cut into pieces where no link can cross
//! ([`linkscan::piece_end`]), and the pieces are scanned on the thread pool: each worker
//! renders its piece's links straight into the piece's output buffer as it finds them
//! (JSON lines, TSV or marked text), or counts them for `--count`, so no link is ever
//! collected into a list. The calling thread then writes the buffers in order. The
//! buffers are kept from one window to the next, so the memory used is a window's output
//! at most, whatever the size of the input or the density of its links.
//!
//! The JSON is written by hand in the exact form `serde_json` gives the record
//! `{"file","start","end","kind","text"[,"checks"]}`: the file name is rendered once per
//! input ([`Name`]), the link text through `serde_json`'s string escaping.

use std::io::{self, Write};
use std::ops::Range;

use clap::ValueEnum;
use linkscan::{checks, Link, LinkFinder};
use rayon::prelude::*;

use crate::render::{tsv_field, Name};
use crate::{input, FindArgs, Outcome};

/// The output formats of `find`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// One JSON object per link.
    Jsonl,
    /// Tab-separated: file, start, end, kind, text (and with --checks, the failed checks).
    Tsv,
    /// The input with ⸠ and ⸡ around each link.
    Marked,
}

/// The size of the pieces a window is scanned in: small enough that a window gives every
/// thread several (uneven link density balances out), large enough that handing a piece
/// over costs nothing next to scanning it.
const PIECE: usize = 256 << 10;

/// What a worker makes of one piece.
#[derive(Default)]
struct Rendered {
    /// The output (empty for `--count`).
    out: Vec<u8>,
    /// The number of links.
    links: usize,
}

/// How each piece is rendered.
struct Renderer<'a> {
    finder: &'a LinkFinder,
    format: Format,
    count: bool,
    checks: bool,
}

impl Renderer<'_> {
    /// Scans `bytes` (at `base` in the input named `name`) into `into`.
    fn piece(&self, name: &Name, base: u64, bytes: &[u8], into: &mut Rendered) {
        into.out.clear();
        into.links = 0;
        if self.count {
            into.links = self.finder.links_bytes(bytes).count();
            return;
        }
        let out = &mut into.out;
        let mut at = 0;
        for link in self.finder.links_bytes(bytes) {
            into.links += 1;
            match self.format {
                Format::Jsonl => self.json(out, name, base, bytes, &link),
                Format::Tsv => self.tsv(out, name, base, bytes, &link),
                Format::Marked => {
                    out.extend_from_slice(&bytes[at..link.start()]);
                    out.extend_from_slice("⸠".as_bytes());
                    out.extend_from_slice(&bytes[link.range()]);
                    out.extend_from_slice("⸡".as_bytes());
                    at = link.end();
                }
            }
        }
        if self.format == Format::Marked {
            out.extend_from_slice(&bytes[at..]);
        }
    }

    fn json(&self, out: &mut Vec<u8>, name: &Name, base: u64, bytes: &[u8], link: &Link) {
        out.extend_from_slice(b"{\"file\":");
        out.extend_from_slice(name.json.as_bytes());
        let _ = write!(
            out,
            ",\"start\":{},\"end\":{},\"kind\":\"{}\",\"text\":",
            base + link.start() as u64,
            base + link.end() as u64,
            link.kind().as_str()
        );
        serde_json::to_writer(&mut *out, link_text(bytes, link))
            .expect("serializing to a Vec cannot fail");
        if self.checks {
            out.extend_from_slice(b",\"checks\":[");
            for (i, check) in checks::check_link(bytes, link).names().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, check).expect("serializing to a Vec cannot fail");
            }
            out.push(b']');
        }
        out.extend_from_slice(b"}\n");
    }

    fn tsv(&self, out: &mut Vec<u8>, name: &Name, base: u64, bytes: &[u8], link: &Link) {
        out.extend_from_slice(name.text.as_bytes());
        let _ = write!(
            out,
            "\t{}\t{}\t{}\t",
            base + link.start() as u64,
            base + link.end() as u64,
            link.kind().as_str()
        );
        tsv_field(out, link_text(bytes, link).as_bytes());
        if self.checks {
            let _ = write!(out, "\t{}", checks::check_link(bytes, link));
        }
        out.push(b'\n');
    }
}

/// The text of a link; links never contain invalid UTF-8.
fn link_text<'a>(bytes: &'a [u8], link: &Link) -> &'a str {
    std::str::from_utf8(&bytes[link.range()]).unwrap_or_default()
}

/// The pieces of `window`: consecutive ranges of about [`PIECE`] bytes, cut where no link
/// can cross.
fn pieces(window: &[u8], into: &mut Vec<Range<usize>>) {
    into.clear();
    let mut start = 0;
    while start < window.len() {
        let end = linkscan::piece_end(window, start, PIECE);
        into.push(start..end);
        start = end;
    }
}

pub(crate) fn run(
    args: &FindArgs,
    finder: &LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    if args.checks && args.format == Format::Marked {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--checks needs --format jsonl or tsv",
        ));
    }
    let several = args.files.len() > 1;
    let renderer = Renderer {
        finder,
        format: args.format,
        count: args.count,
        checks: args.checks,
    };
    // Reused from window to window.
    let mut ranges = Vec::new();
    let mut rendered: Vec<Rendered> = Vec::new();
    // (input index, name, links so far): printed when the next input starts, or at the end.
    let mut counted: Option<(usize, String, usize)> = None;
    let outcome = input::for_each_window(&args.files, |input, name, offset, window| {
        pieces(window, &mut ranges);
        if rendered.len() < ranges.len() {
            rendered.resize_with(ranges.len(), Rendered::default);
        }
        ranges
            .par_iter()
            .zip(rendered.par_iter_mut())
            .for_each(|(range, into)| {
                renderer.piece(
                    name,
                    offset + range.start as u64,
                    &window[range.clone()],
                    into,
                );
            });
        let done = &rendered[..ranges.len()];
        if args.count {
            let links: usize = done.iter().map(|r| r.links).sum();
            match &mut counted {
                Some((counting, _, n)) if *counting == input => *n += links,
                _ => {
                    if let Some((_, done, n)) = counted.take() {
                        print_count(out, several, &done, n)?;
                    }
                    counted = Some((input, name.text.clone(), links));
                }
            }
            return Ok(());
        }
        for piece in done {
            out.write_all(&piece.out)?;
        }
        Ok(())
    })?;
    if let Some((_, name, n)) = counted {
        print_count(out, several, &name, n)?;
    }
    Ok(outcome)
}

fn print_count(out: &mut impl Write, several: bool, name: &str, n: usize) -> io::Result<()> {
    if several {
        writeln!(out, "{name}:{n}")
    } else {
        writeln!(out, "{n}")
    }
}
