//! `find --field` and `redact --field`: inputs read as records (JSON Lines, plain or gzip,
//! and Parquet), of which one string field is scanned.
//!
//! # Algorithm
//!
//! Each input's kind is told by its first bytes ([`Kind::sniff`]): `PAR1` is Parquet, the
//! gzip signature is gzip-compressed JSON Lines, anything else JSON Lines. [`jsonl`] reads
//! lines in batches on a reader thread ([`batches`]), [`parquet`] reads
//! a row group at a time in Arrow batches; either way a batch's records are scanned in
//! parallel on the rayon pool, in chunks, and the chunks' outputs are written in order on
//! the calling thread, so the output is the same for every `-j`.
//!
//! # Invariants
//!
//! - Nothing is dropped: a record that is not a JSON object, lacks the field or whose value
//!   is not a string (null included) is counted in [`Problems`], which warns with the
//!   input's name and the record's number; `find` skips it, `redact` writes it unchanged,
//!   and the run's exit status is 2 ([`Outcome::InputErrors`]).
//! - Record numbers count from 0 in each input: the line of JSON Lines (blank lines are no
//!   record, but are counted), the row of Parquet.
//! - Offsets are bytes of the field's decoded text (UTF-8, JSON escapes decoded).
//! - Memory is a few batches, plus one record that is longer than a batch (bounded by
//!   [`batches::Limits::record`] for JSON Lines, by a row group for Parquet), and the
//!   output of a batch's chunks until it is written; a chunk that holds a long record
//!   hands its output on in pieces of [`SPILL`] bytes as it is made ([`streamed`]).

mod batches;
mod joined;
mod jsonl;
mod parquet;
mod render;
mod scan;
mod shape;

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use linkscan::{Link, LinkFinder};

use crate::find::{Format, PerInput};
use crate::flags::{FieldPath, RedactArgs};
use crate::input::{describe, STDIN_NAME};
use crate::render::Name;
use crate::{FindArgs, Outcome};
use linkscan_replace::Replacer;

pub(crate) use render::Layout;

/// At most this many problems are shown per input; the rest are counted in one line.
const SHOWN: u64 = 100;

/// What an input holds, by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Jsonl,
    GzipJsonl,
    Parquet,
}

impl Kind {
    /// The kind of an input that starts with `start`.
    fn sniff(start: &[u8]) -> Kind {
        if start.starts_with(b"PAR1") {
            Kind::Parquet
        } else if start.starts_with(&[0x1f, 0x8b]) {
            Kind::GzipJsonl
        } else {
            Kind::Jsonl
        }
    }
}

/// The records' reader of one input: its kind, and its bytes from the start.
struct Opened {
    kind: Kind,
    /// The input (buffered, nothing consumed); Parquet reads `path` itself.
    reader: Box<dyn BufRead + Send>,
}

/// Opens `path` (`-`: standard input) and tells its kind.
fn open(path: &Path) -> io::Result<Opened> {
    let mut reader: Box<dyn BufRead + Send> = if path == Path::new(STDIN_NAME) {
        Box::new(BufReader::with_capacity(256 << 10, io::stdin()))
    } else {
        let file = File::open(path)?;
        if file.metadata()?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a folder: --field reads JSON Lines and Parquet files",
            ));
        }
        Box::new(BufReader::with_capacity(256 << 10, file))
    };
    let start = fill_start(&mut reader)?;
    let kind = Kind::sniff(&start);
    if kind == Kind::Parquet && path == Path::new(STDIN_NAME) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "Parquet is read from a file, not standard input",
        ));
    }
    Ok(Opened { kind, reader })
}

/// The first few bytes of `reader` (fewer only at its end), left unconsumed.
fn fill_start(reader: &mut impl BufRead) -> io::Result<Vec<u8>> {
    loop {
        match reader.fill_buf() {
            Ok(start) => return Ok(start[..start.len().min(4)].to_vec()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The lines of a JSON Lines input, gzip decompressed.
fn lines(opened: Opened) -> Box<dyn Read + Send> {
    match opened.kind {
        Kind::GzipJsonl => Box::new(flate2::bufread::MultiGzDecoder::new(opened.reader)),
        _ => Box::new(opened.reader),
    }
}

/// The problems of one input's records: each is warned about (the first [`SHOWN`]), all
/// are counted.
pub(crate) struct Problems<'a> {
    name: &'a str,
    /// What happens to such a record: "skipped" or "written unchanged".
    fate: &'static str,
    count: u64,
}

impl<'a> Problems<'a> {
    fn new(name: &'a str, fate: &'static str) -> Problems<'a> {
        Problems {
            name,
            fate,
            count: 0,
        }
    }

    /// Record `record` has `problem`.
    fn record(&mut self, record: u64, problem: &str) {
        self.count += 1;
        if self.count <= SHOWN {
            crate::warn!(
                "linkscan: {}: record {record}: {problem}; {}",
                self.name,
                self.fate
            );
        }
    }

    /// The line that counts the problems not shown, if any; whether there was one.
    fn end(&self) -> bool {
        if self.count > SHOWN {
            crate::warn!(
                "linkscan: {}: {} records with problems in all ({} not shown); {}",
                self.name,
                self.count,
                self.count - SHOWN,
                self.fate
            );
        }
        self.count > 0
    }
}

/// What scanning a chunk of records gives: its output, its links, and the problems of its
/// records (record number, what is wrong).
#[derive(Default)]
pub(crate) struct Scanned {
    pub(crate) out: Vec<u8>,
    pub(crate) links: usize,
    pub(crate) problems: Vec<(u64, String)>,
    /// The number of the chunk's lines (JSON Lines), which the consumer of chunks it
    /// numbers itself counts with.
    pub(crate) lines: u64,
}

/// Chunks longer than this in bytes (JSON Lines: a record longer than a batch), or
/// holding a text this long (Parquet), are scanned in their turn, their output handed
/// on as it grows (a text of links alone makes some ten times its size in lines).
const STREAMED: usize = 1 << 20;

/// The output a streamed chunk holds before it is handed on.
const SPILL: usize = 1 << 20;

/// Where a chunk's output goes while it is made: `None`, kept whole; else handed to the
/// call, in order, each time it passes [`SPILL`] bytes (the call then clears it and says
/// whether to go on).
type Spill<'s> = Option<&'s mut dyn FnMut(&mut Scanned) -> bool>;

/// Appends the links of `text`, the field of the record `of`, to `scanned` as `layout`
/// writes them, handing the output to `spill` as it grows: `false` when it said to stop.
fn record_links(
    layout: &Layout<'_>,
    scanned: &mut Scanned,
    of: render::Of<'_>,
    text: &[u8],
    spill: &mut Spill<'_>,
) -> bool {
    let Some(spill) = spill.as_deref_mut().filter(|_| !layout.count) else {
        scanned.links += layout.record(&mut scanned.out, of, text);
        return true;
    };
    for link in layout.finder.links_bytes(text) {
        layout.link(&mut scanned.out, of, text, 0, &link);
        scanned.links += 1;
        if scanned.out.len() >= SPILL && !spill(scanned) {
            return false;
        }
    }
    true
}

/// Runs `scan` (a chunk's scan, `None` when its spill said to stop) with a spill that
/// gives each piece of its output to `emit`, then gives `emit` the rest: whether to go
/// on.
fn streamed(
    emit: &mut impl FnMut(&Scanned) -> io::Result<bool>,
    scan: impl FnOnce(Spill<'_>) -> Option<Scanned>,
) -> io::Result<bool> {
    let mut failed = None;
    let mut spill = |scanned: &mut Scanned| {
        let go_on = emit(scanned).unwrap_or_else(|e| {
            failed = Some(e);
            false
        });
        *scanned = Scanned::default();
        go_on
    };
    let rest = scan(Some(&mut spill));
    if let Some(e) = failed {
        return Err(e);
    }
    match rest {
        Some(rest) => emit(&rest),
        None => Ok(false),
    }
}

impl Scanned {
    /// Makes the problems' record numbers, counted from the chunk's start, the input's,
    /// the chunk's first line being number `first`.
    fn rebase(&mut self, first: u64) {
        for (record, _) in &mut self.problems {
            *record += first;
        }
    }

    /// Writes the output and reports the problems, in order.
    fn emit(&self, problems: &mut Problems<'_>, out: &mut impl Write) -> io::Result<()> {
        for (record, problem) in &self.problems {
            problems.record(*record, problem);
        }
        out.write_all(&self.out)
    }
}

/// How records are scanned for `find`: the finder, the output layout, the fields.
pub(crate) struct FindJob<'a> {
    pub(crate) layout: Layout<'a>,
    pub(crate) field: &'a FieldPath,
    pub(crate) id: Option<&'a FieldPath>,
}

/// How records are redacted: the finder, the replacement, the field.
pub(crate) struct RedactJob<'a> {
    pub(crate) finder: &'a LinkFinder,
    pub(crate) replacer: &'a Replacer,
    pub(crate) field: &'a FieldPath,
}

impl RedactJob<'_> {
    /// `text` with its links replaced, or `None` when it has none.
    fn redact(&self, text: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.redact_to(text, &mut out).then_some(out)
    }

    /// Appends `text` to `out` with its links replaced as they are found, none of them
    /// kept; whether it had any.
    fn redact_to(&self, text: &[u8], out: &mut Vec<u8>) -> bool {
        let n = self
            .finder
            .redact_to(text, out, |link, bytes, out| {
                self.replacer.write(link.kind(), bytes, out)
            })
            .expect("writing to memory cannot fail");
        n > 0
    }

    /// Appends `bytes[text]` to `out` with its `links` (offsets into `bytes`, in order)
    /// replaced, as [`LinkFinder::redact_to`] writes it; whether a replacement holds a
    /// byte that a JSON string escapes (a quote, a backslash, a control character).
    fn replace(&self, bytes: &[u8], text: Range<usize>, links: &[Link], out: &mut Vec<u8>) -> bool {
        let mut at = text.start;
        let mut escapes = false;
        for link in links {
            out.extend_from_slice(&bytes[at..link.start()]);
            let from = out.len();
            self.replacer.write(link.kind(), &bytes[link.range()], out);
            escapes |= out[from..]
                .iter()
                .any(|&b| matches!(b, b'"' | b'\\') || b < 0x20);
            at = link.end();
        }
        out.extend_from_slice(&bytes[at..text.end]);
        escapes
    }
}

/// Refuses the options of `find` that records do not have.
fn check_find(args: &FindArgs) -> io::Result<()> {
    let refuse = |what: &str| {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("--field cannot be used with {what}"),
        ))
    };
    #[cfg(feature = "mail")]
    if args.mail.archives() {
        return refuse("--mbox or --maildir");
    }
    if args.format == Format::Marked {
        return refuse("--format marked");
    }
    if args.only_matching || args.line_number || args.column {
        return refuse("-o, -n or --column");
    }
    if args.files_with_matches || args.files_without_match {
        return refuse("-l or --files-without-match");
    }
    Ok(())
}

/// `find --field`: the links of each record's field in `args.files` (none: standard
/// input).
pub(crate) fn find(
    args: &FindArgs,
    field: &FieldPath,
    finder: &LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    check_find(args)?;
    let stdin = [PathBuf::from(STDIN_NAME)];
    let paths = if args.files.is_empty() {
        &stdin[..]
    } else {
        &args.files[..]
    };
    let several = paths.len() > 1;
    let per_input = PerInput::of(args);
    let count = args.quiet || per_input != PerInput::Links;
    let text = args.format == Format::Text && !count;
    let job = FindJob {
        layout: Layout {
            finder,
            format: args.format,
            count,
            named: args.with_filename(several),
            checks: args.checks,
            color: text && args.colored(),
            id: args.id_field.is_some(),
        },
        field,
        id: args.id_field.as_ref(),
    };
    let mut outcome = Outcome::Ok;
    let mut found = 0;
    for path in paths {
        let name = Name::new(path.as_os_str());
        let mut problems = Problems::new(&name.text, "skipped");
        let mut links = 0;
        let result = open(path).and_then(|opened| {
            let mut emit = |scanned: &Scanned| -> io::Result<bool> {
                links += scanned.links;
                scanned.emit(&mut problems, out)?;
                // -q: the first link ends the run.
                Ok(!(args.quiet && links > 0))
            };
            match opened.kind {
                Kind::Parquet => parquet::find(path, &name, &job, &mut emit),
                _ => jsonl::find(lines(opened), &name, &job, &mut emit),
            }
        });
        found += links;
        if problems.end() {
            outcome = Outcome::InputErrors;
        }
        if let Err(e) = result {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Err(e);
            }
            crate::warn!("linkscan: {}: {}", name.text, describe(&e));
            outcome = Outcome::InputErrors;
        }
        if args.quiet && found > 0 {
            return Ok(Outcome::Ok);
        }
        if !args.quiet {
            per_input.end(out, several, &name.text, links)?;
        }
    }
    Ok(match outcome {
        Outcome::Ok if found == 0 => Outcome::NotFound,
        outcome => outcome,
    })
}

/// `redact --field`: the one input of `args` (none: standard input) with each record's
/// field redacted, to `--out` or `out`.
pub(crate) fn redact(
    args: &RedactArgs,
    field: &FieldPath,
    finder: &LinkFinder,
    replacer: &Replacer,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    let path = match &args.files[..] {
        [] => PathBuf::from(STDIN_NAME),
        [path] => path.clone(),
        _ => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--field redacts one input at a time",
            ))
        }
    };
    let name = Name::new(path.as_os_str());
    let job = RedactJob {
        finder,
        replacer,
        field,
    };
    let opened = open(&path).map_err(|e| named(&name, e))?;
    let kind = opened.kind;
    let file = match &args.records_out.out {
        Some(to) if same_file(&path, to) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--out names the input itself",
            ))
        }
        Some(to) => Some(File::create(to).map_err(|e| named(&Name::new(to.as_os_str()), e))?),
        None if kind == Kind::Parquet && io::stdout().is_terminal() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "Parquet output needs --out FILE or a pipe, not a terminal",
            ))
        }
        None => None,
    };
    let mut problems = Problems::new(&name.text, "written unchanged");
    let result = if kind == Kind::Parquet {
        // The Parquet writer owns its sink, which must be `Send`: the file, or standard
        // output itself (nothing is buffered in `out` yet).
        let sink: Box<dyn Write + Send> = match file {
            Some(file) => Box::new(file),
            None => Box::new(io::stdout()),
        };
        parquet::redact(
            &path,
            &job,
            &mut problems,
            io::BufWriter::with_capacity(256 << 10, sink),
        )
    } else {
        let mut buffered;
        let mut target: &mut dyn Write = match file {
            Some(file) => {
                buffered = io::BufWriter::with_capacity(256 << 10, file);
                &mut buffered
            }
            None => out,
        };
        let records = lines(opened);
        if kind == Kind::GzipJsonl {
            let mut gz = flate2::write::GzEncoder::new(target, flate2::Compression::default());
            jsonl::redact(records, &job, &mut problems, &mut gz).and_then(|()| gz.finish()?.flush())
        } else {
            jsonl::redact(records, &job, &mut problems, &mut target).and_then(|()| target.flush())
        }
    };
    let mut outcome = Outcome::Ok;
    if problems.end() {
        outcome = Outcome::InputErrors;
    }
    match result {
        Ok(()) => Ok(outcome),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(e),
        Err(e) => Err(named(&name, e)),
    }
}

/// `e` with the name of the input it happened to.
fn named(name: &Name, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {}", name.text, describe(&e)))
}

/// Whether `a` and `b` are the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
