//! `linkscan find`: links of each input as JSON lines, TSV, marked text or a count.

use std::io::{self, Write};

use clap::ValueEnum;
use linkscan::{checks, Link, LinkFinder};
use serde::Serialize;

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

#[derive(Serialize)]
struct JsonLink<'a> {
    file: &'a str,
    start: usize,
    end: usize,
    kind: &'static str,
    text: &'a str,
    /// With `--checks`: the names of the failed checks.
    #[serde(skip_serializing_if = "Option::is_none")]
    checks: Option<Vec<&'static str>>,
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
    if args.checks && args.format == Format::Marked {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--checks needs --format jsonl or tsv",
        ));
    }
    let several = args.files.len() > 1;
    input::for_each(&args.files, |name, bytes| {
        if args.count {
            let n = finder.links_bytes(bytes).count();
            return if several {
                writeln!(out, "{name}:{n}")
            } else {
                writeln!(out, "{n}")
            };
        }
        match args.format {
            Format::Jsonl => {
                for link in finder.links_bytes(bytes) {
                    let record = JsonLink {
                        file: name,
                        start: link.start(),
                        end: link.end(),
                        kind: link.kind().as_str(),
                        text: link_text(bytes, &link),
                        checks: args
                            .checks
                            .then(|| checks::check_link(bytes, &link).names().collect()),
                    };
                    serde_json::to_writer(&mut *out, &record)?;
                    out.write_all(b"\n")?;
                }
            }
            Format::Tsv => {
                for link in finder.links_bytes(bytes) {
                    write!(
                        out,
                        "{name}\t{}\t{}\t{}\t{}",
                        link.start(),
                        link.end(),
                        link.kind().as_str(),
                        link_text(bytes, &link)
                    )?;
                    if args.checks {
                        write!(out, "\t{}", checks::check_link(bytes, &link))?;
                    }
                    writeln!(out)?;
                }
            }
            Format::Marked => {
                let mut at = 0;
                for link in finder.links_bytes(bytes) {
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
    })
}
