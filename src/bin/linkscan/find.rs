//! `linkscan find`: links of each input as JSON lines, TSV, marked text or a count.

use std::io::{self, Write};

use clap::ValueEnum;
use linkscan::{Link, LinkFinder};
use serde::Serialize;

use crate::{input, FindArgs, Outcome};

/// The output formats of `find`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// One JSON object per link.
    Jsonl,
    /// Tab-separated: file, start, end, kind, text.
    Tsv,
    /// The input with ⸠ and ⸡ around each link.
    Marked,
}

#[derive(Serialize)]
struct JsonLink<'a> {
    file: &'a str,
    start: u64,
    end: u64,
    kind: &'static str,
    text: &'a str,
}

/// The text of a link; links never contain invalid UTF-8.
fn link_text<'a>(bytes: &'a [u8], link: &Link) -> &'a str {
    std::str::from_utf8(&bytes[link.range()]).unwrap_or_default()
}

pub(crate) fn run(
    args: &FindArgs,
    finder: &LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    let several = args.files.len() > 1;
    // (input index, name, links so far): printed when the next input starts, or at the end.
    let mut counted: Option<(usize, String, usize)> = None;
    let outcome = input::for_each_piece(&args.files, finder, |input, name, piece| {
        if args.count {
            match &mut counted {
                Some((counting, _, n)) if *counting == input => *n += piece.links.len(),
                _ => {
                    if let Some((_, done, n)) = counted.take() {
                        print_count(out, several, &done, n)?;
                    }
                    counted = Some((input, name.to_string(), piece.links.len()));
                }
            }
            return Ok(());
        }
        let bytes = piece.bytes;
        let base = piece.offset;
        match args.format {
            Format::Jsonl => {
                for link in piece.links {
                    let record = JsonLink {
                        file: name,
                        start: base + link.start() as u64,
                        end: base + link.end() as u64,
                        kind: link.kind().as_str(),
                        text: link_text(bytes, link),
                    };
                    serde_json::to_writer(&mut *out, &record)?;
                    out.write_all(b"\n")?;
                }
            }
            Format::Tsv => {
                for link in piece.links {
                    writeln!(
                        out,
                        "{name}\t{}\t{}\t{}\t{}",
                        base + link.start() as u64,
                        base + link.end() as u64,
                        link.kind().as_str(),
                        link_text(bytes, link)
                    )?;
                }
            }
            Format::Marked => {
                let mut at = 0;
                for link in piece.links {
                    out.write_all(&bytes[at..link.start()])?;
                    out.write_all("⸠".as_bytes())?;
                    out.write_all(&bytes[link.range()])?;
                    out.write_all("⸡".as_bytes())?;
                    at = link.end();
                }
                out.write_all(&bytes[at..])?;
            }
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
