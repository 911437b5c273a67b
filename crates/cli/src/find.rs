//! `linkscan find`: links of each input as lines for people (`FILE:LINE:COLUMN: LINK`, the
//! default), JSON lines, TSV, marked text or a count.
//!
//! # Algorithm
//!
//! Regular files are read in windows by the workers themselves (see [`files`]): each
//! worker reads a window, renders its links straight into the window's output buffer as
//! it finds them (JSON lines, TSV or marked text), or counts them for `--count`, so no
//! link is ever collected into a list; the calling thread writes the buffers in order.
//! Streams, and `-n`/`--column` (which count lines from the start of the input), are read
//! by [`input`]'s reader thread instead; each of its windows is cut into pieces where no
//! link can cross ([`linkscan::piece_end`]), scanned and rendered the same way on the
//! pool, [`BATCH_PER_THREAD`] pieces per thread at a time.
//!
//! # Bounds
//!
//! A worker renders at most [`BUDGET`] bytes (and the record that crosses it) of one
//! window or piece. Past that it stops and notes the end of its last link; when the calling
//! thread comes to write that output, it renders the rest itself ([`Renderer::finish`]),
//! writing it out every [`CHUNK`] bytes. It scans again from the last ASCII space or
//! control character before that end (no link crosses one, so the links from there are
//! those of the whole window; the ones already written are skipped), which is a line or
//! less in ordinary text and the start of the window in a run without white space. A
//! regular file's window is read again for that ([`files::Window::read_again`]) into one
//! buffer of the calling thread. So the output held is at most [`BUDGET`] per window or
//! piece in flight, whatever the density of the links or the length of the file name, and
//! the memory of a run is a few windows (each at most [`input::MAX_RUN`]) plus that. The
//! output is the same bytes in the same order as when each window is rendered whole.
//!
//! The JSON is written by hand in the form `serde_json` gives the record
//! `{"file","start","end","kind","text"[,"checks"]}`: the file name is rendered once per
//! input ([`Name`]), the link text through [`json_str`], which also escapes the characters
//! a terminal would act on (see [`crate::terminal`]). TSV fields and `-o` lines are
//! escaped as TSV fields ([`tsv_field`]), and the links of the text format as on stderr
//! ([`terminal::escape_into`], a `\` left as it is), so no output line holds them raw;
//! the text format needs the line and column of each link, so it is read as `-n` is;
//! `--format marked` is the input itself and is written as it is, except to a terminal, where its
//! controls and Bidi_Control characters are escaped but for line feeds, tabs and the
//! carriage return of a CRLF ([`terminal::escape_lines_into`]).

use std::io::{self, IsTerminal, Write};
use std::ops::Range;
use std::path::PathBuf;

use linkscan::{checks, Link, LinkFinder};
use rayon::prelude::*;

use crate::lines::Position;
use crate::render::{decimal, json_str, tsv_field, Name};
use crate::{files, input, terminal, FindArgs, Outcome};

/// The output formats, defined with the rest of the command line.
pub(crate) use crate::flags::Format;

/// The size of the pieces a window is scanned in: small enough that a window gives every
/// thread several (uneven link density balances out), large enough that handing a piece
/// over costs nothing next to scanning it.
const PIECE: usize = 256 << 10;

/// The most output a worker holds for one window or piece (past it, the rest is rendered
/// when the output is written): 16 times a usual window of a regular file (512 KiB), so
/// ordinary text, even a link every few bytes with a short file name, seldom reaches it.
pub(crate) const BUDGET: usize = 8 << 20;

/// The output rendered by the calling thread is written every this many bytes.
const CHUNK: usize = 256 << 10;

/// Pieces of a read window scanned at once, per thread: enough to balance uneven pieces,
/// few enough that their outputs (at most [`BUDGET`] each) stay bounded.
const BATCH_PER_THREAD: usize = 4;

/// What a worker makes of one piece.
#[derive(Default)]
struct Rendered {
    /// The output (empty for `--count`).
    out: Vec<u8>,
    /// The number of links.
    links: usize,
    /// Where rendering stopped for want of room ([`BUDGET`]): the end of the last link
    /// rendered, relative to the bytes rendered. The rest is rendered by
    /// [`Renderer::finish`].
    stopped: Option<usize>,
}

/// What a piece is rendered from.
#[derive(Clone, Copy)]
struct Source<'a> {
    bytes: &'a [u8],
    /// Where the bytes start in their input.
    base: u64,
    /// Their position, when positions are asked for.
    pos: Position,
}

/// How each piece is rendered.
struct Renderer<'a> {
    finder: &'a LinkFinder,
    format: Format,
    count: bool,
    /// -o: the text of each link, one per line.
    only: bool,
    /// The text format and -o: each line starts with its file name (several inputs, or
    /// -H), as grep's.
    named: bool,
    /// -n and --column (always both for the text format).
    line: bool,
    column: bool,
    /// The text format is coloured (see [`Palette`]).
    color: bool,
    checks: bool,
    /// Marked text goes to a terminal: its controls and Bidi_Control characters are
    /// escaped ([`terminal::escape_lines_into`]); elsewhere it is the input unchanged.
    terminal: bool,
}

impl Renderer<'_> {
    /// Whether links are located by line or column.
    fn positions(&self) -> bool {
        self.line || self.column
    }

    /// Scans `bytes` (at `base` in the input named `name`, at `pos` when positions are
    /// asked for) into `into`, up to [`BUDGET`] bytes of output (see `into.stopped`).
    fn piece(&self, name: &Name, base: u64, pos: Position, bytes: &[u8], into: &mut Rendered) {
        into.out.clear();
        into.links = 0;
        into.stopped = None;
        if self.count {
            into.links = self.finder.links_bytes(bytes).count();
            return;
        }
        // Stopping a record short of the budget keeps the vector, which grows by doubling,
        // within it (but for a record longer than that, such as a long link escaped).
        let full = |out: &mut Vec<u8>| Ok(out.len() + (64 << 10) >= BUDGET);
        let source = Source { bytes, base, pos };
        self.render(name, source, 0, into, full)
            .expect("rendering into memory cannot fail");
    }

    /// Renders the links of `source` that a worker left ([`Rendered::stopped`] of `piece`,
    /// rendered from it) into `out`, after `piece`'s own output; returns
    /// the number of links written. `scratch` is reused from call to call.
    fn finish(
        &self,
        name: &Name,
        source: Source<'_>,
        piece: &Rendered,
        scratch: &mut Rendered,
        out: &mut impl Write,
    ) -> io::Result<usize> {
        out.write_all(&piece.out)?;
        let Some(after) = piece.stopped else {
            return Ok(0);
        };
        scratch.out.clear();
        scratch.links = 0;
        self.render(name, source, after, scratch, |rendered| {
            if rendered.len() >= CHUNK {
                out.write_all(rendered)?;
                rendered.clear();
            }
            Ok(false)
        })?;
        out.write_all(&scratch.out)?;
        scratch.out.clear();
        Ok(scratch.links)
    }

    /// Renders the links of `source` that start at or after `after` (a link end, or 0 for
    /// all) into `into`, calling `full` after each link: when it says so, rendering stops
    /// and `into.stopped` notes where. The scan starts at the last ASCII space or control
    /// character before `after`, where no link crosses (see the module documentation).
    fn render(
        &self,
        name: &Name,
        source: Source<'_>,
        after: usize,
        into: &mut Rendered,
        mut full: impl FnMut(&mut Vec<u8>) -> io::Result<bool>,
    ) -> io::Result<()> {
        let Source { bytes, base, pos } = source;
        let from = restart(bytes, after);
        let mut pos = pos;
        if self.positions() {
            pos.advance(&bytes[..from]);
        }
        let (base, bytes, after) = (base + from as u64, &bytes[from..], after - from);
        let out = &mut into.out;
        // Marked text: the input up to here is written.
        let mut at = after;
        let mut passed = 0;
        for link in self.finder.links_bytes(bytes) {
            if link.start() < after {
                continue; // written before
            }
            into.links += 1;
            if self.positions() {
                pos.advance(&bytes[passed..link.start()]);
                passed = link.start();
            }
            if self.only {
                if self.named {
                    out.extend_from_slice(name.text.as_bytes());
                    out.push(b':');
                }
                if self.line {
                    let _ = write!(out, "{}:", pos.line);
                }
                if self.column {
                    let _ = write!(out, "{}:", pos.column);
                }
                // Escaped as a TSV field: no control or Bidi_Control character raw.
                tsv_field(out, &bytes[link.range()]);
                out.push(b'\n');
            } else {
                match self.format {
                    Format::Text => self.text(out, name, pos, bytes, &link),
                    Format::Jsonl => self.json(out, name, base, pos, bytes, &link),
                    Format::Tsv => self.tsv(out, name, base, pos, bytes, &link),
                    Format::Marked => {
                        self.marked(out, &bytes[at..link.start()]);
                        out.extend_from_slice("⸠".as_bytes());
                        self.marked(out, &bytes[link.range()]);
                        out.extend_from_slice("⸡".as_bytes());
                        at = link.end();
                    }
                }
            }
            if full(out)? {
                into.stopped = Some(from + link.end());
                return Ok(());
            }
        }
        if self.format == Format::Marked && !self.only {
            self.marked(out, &bytes[at..]);
        }
        Ok(())
    }

    /// Appends `text` of the input to marked output: as it is, or escaped for a terminal.
    fn marked(&self, out: &mut Vec<u8>, text: &[u8]) {
        if self.terminal {
            terminal::escape_lines_into(out, text);
        } else {
            out.extend_from_slice(text);
        }
    }

    /// A link's line in the text format: `[FILE:]LINE:COLUMN: LINK`, and with --checks
    /// `  [fails: NAME,…]` when it fails one.
    fn text(&self, out: &mut Vec<u8>, name: &Name, pos: Position, bytes: &[u8], link: &Link) {
        let palette = Palette::new(self.color);
        if self.named {
            palette.paint(out, Palette::FILE, name.text.as_bytes());
            out.push(b':');
        }
        out.extend_from_slice(palette.on(Palette::POSITION));
        decimal(out, pos.line);
        out.push(b':');
        decimal(out, pos.column);
        out.extend_from_slice(palette.off());
        link_and_checks(out, palette, bytes, link, self.checks);
    }

    fn json(
        &self,
        out: &mut Vec<u8>,
        name: &Name,
        base: u64,
        pos: Position,
        bytes: &[u8],
        link: &Link,
    ) {
        out.extend_from_slice(b"{\"file\":");
        out.extend_from_slice(name.json.as_bytes());
        out.extend_from_slice(b",\"start\":");
        decimal(out, base + link.start() as u64);
        out.extend_from_slice(b",\"end\":");
        decimal(out, base + link.end() as u64);
        if self.line {
            out.extend_from_slice(b",\"line\":");
            decimal(out, pos.line);
        }
        if self.column {
            out.extend_from_slice(b",\"column\":");
            decimal(out, pos.column);
        }
        out.extend_from_slice(b",\"kind\":\"");
        out.extend_from_slice(link.kind().as_str().as_bytes());
        out.extend_from_slice(b"\",\"text\":");
        json_str(out, link_text(bytes, link));
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

    fn tsv(
        &self,
        out: &mut Vec<u8>,
        name: &Name,
        base: u64,
        pos: Position,
        bytes: &[u8],
        link: &Link,
    ) {
        out.extend_from_slice(name.text.as_bytes());
        out.push(b'\t');
        decimal(out, base + link.start() as u64);
        out.push(b'\t');
        decimal(out, base + link.end() as u64);
        if self.line {
            out.push(b'\t');
            decimal(out, pos.line);
        }
        if self.column {
            out.push(b'\t');
            decimal(out, pos.column);
        }
        out.push(b'\t');
        out.extend_from_slice(link.kind().as_str().as_bytes());
        out.push(b'\t');
        tsv_field(out, link_text(bytes, link).as_bytes());
        if self.checks {
            let _ = write!(out, "\t{}", checks::check_link(bytes, link));
        }
        out.push(b'\n');
    }
}

/// The end of a text line, after its position: `: `, the link (in its kind's colour,
/// controls and bidi escaped), the checks it fails when `checks` asks, and the line break.
/// `text` holds the link at its offsets.
pub(crate) fn link_and_checks(
    out: &mut Vec<u8>,
    palette: Palette,
    text: &[u8],
    link: &Link,
    checks: bool,
) {
    out.extend_from_slice(b": ");
    out.extend_from_slice(palette.on(Palette::kind(link.kind())));
    terminal::escape_into(out, &text[link.range()], false);
    out.extend_from_slice(palette.off());
    if checks {
        let failed = checks::check_link(text, link);
        if failed.names().next().is_some() {
            let _ = write!(out, "  [fails: {failed}]");
        }
    }
    out.push(b'\n');
}

/// The text of a link; links never contain invalid UTF-8.
fn link_text<'a>(bytes: &'a [u8], link: &Link) -> &'a str {
    std::str::from_utf8(&bytes[link.range()]).unwrap_or_default()
}

/// Where a scan may start again to find the links of `bytes` that start at or after
/// `after`: just after the last ASCII space or control character before it (no link
/// crosses one), else 0.
fn restart(bytes: &[u8], after: usize) -> usize {
    linkscan::window::restart(bytes, after)
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

/// `find` over `files` (the inputs, directories already walked).
pub(crate) fn run(
    args: &FindArgs,
    files: &[PathBuf],
    named: &[bool],
    walked: bool,
    finder: &LinkFinder,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    if args.checks && args.format == Format::Marked {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--checks needs --format text, jsonl or tsv",
        ));
    }
    if (args.line_number || args.column) && args.format == Format::Marked && !args.only_matching {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "-n/--line-number and --column need --format text, jsonl or tsv, or -o",
        ));
    }
    let several = files.len() > 1 || walked;
    let per_input = PerInput::of(args);
    // -q only needs to know whether there is a link, -c, -l and --files-without-match how
    // many each input has.
    let count = args.quiet || per_input != PerInput::Links;
    // The text format's lines say where each link is.
    let text = args.format == Format::Text && !args.only_matching && !count;
    let renderer = Renderer {
        finder,
        format: args.format,
        count,
        only: args.only_matching,
        named: args.with_filename(several),
        line: args.line_number || text,
        column: args.column || text,
        color: text && args.colored(),
        checks: args.checks,
        terminal: args.format == Format::Marked && io::stdout().is_terminal(),
    };
    let mut found = 0usize;
    // The inputs -l or --files-without-match printed.
    let mut listed = 0usize;
    // (input index, name, links so far): printed when the next input starts, or at the end.
    let mut counted: Option<(usize, String, usize)> = None;
    let mut scratch = Rendered::default();
    // What the calling thread does with each piece's output, in order. `source` is what the
    // piece was rendered from (its bytes, their offset in the input and their position),
    // for the rest of a piece a worker left; `None` when it left none, or when that rest
    // cannot be rendered (an error already reported).
    let mut account = |input: usize,
                       name: &Name,
                       piece: &Rendered,
                       source: Option<Source<'_>>|
     -> io::Result<()> {
        found += piece.links;
        if args.quiet {
            // grep -q: the first link ends the run.
            return if found > 0 {
                Err(io::Error::other(Found))
            } else {
                Ok(())
            };
        }
        if per_input != PerInput::Links {
            match &mut counted {
                Some((counting, _, n)) if *counting == input => *n += piece.links,
                _ => {
                    if let Some((_, done, n)) = counted.take() {
                        listed += usize::from(per_input.end(out, several, &done, n)?);
                    }
                    counted = Some((input, name.text.clone(), piece.links));
                }
            }
            return Ok(());
        }
        match source {
            Some(source) => {
                found += renderer.finish(name, source, piece, &mut scratch, out)?;
                Ok(())
            }
            None => out.write_all(&piece.out),
        }
    };
    let stdin = [PathBuf::from(input::STDIN_NAME)];
    let paths = if files.is_empty() { &stdin[..] } else { files };
    // A window read again for the rest of its output, and whether that failed.
    let mut again = Vec::new();
    let mut again_failed = false;
    let outcome = if !renderer.positions() && files::all_regular(paths) {
        // Regular files: each window is read by the worker that scans it.
        files::for_each_window(
            paths,
            named,
            Rendered::default,
            |name, offset, window, into| {
                renderer.piece(name, offset, Position::START, window, into);
            },
            |input, name, window, piece| {
                let Some(stopped) = piece.stopped else {
                    return account(input, name, piece, None);
                };
                match window.read_again(&mut again) {
                    Ok(bytes) => {
                        let source = Source {
                            bytes,
                            base: window.offset,
                            pos: Position::START,
                        };
                        account(input, name, piece, Some(source))
                    }
                    Err(e) => {
                        account(input, name, piece, None)?;
                        crate::warn!(
                            "linkscan: {}: {}; the links after byte {} were not printed",
                            name.text,
                            input::describe(&e),
                            window.offset + stopped as u64
                        );
                        again_failed = true;
                        Ok(())
                    }
                }
            },
        )
    } else {
        scan_read_windows(paths, named, &renderer, args.quiet, &mut account)
    };
    let outcome = match outcome {
        Err(e) if e.get_ref().is_some_and(|e| e.is::<Found>()) => return Ok(Outcome::Ok),
        Ok(Outcome::Ok) if again_failed => Outcome::InputErrors,
        outcome => outcome?,
    };
    if let Some((_, name, n)) = counted {
        listed += usize::from(per_input.end(out, several, &name, n)?);
    }
    Ok(match outcome {
        // --files-without-match succeeds when it names an input (as ripgrep).
        Outcome::Ok if per_input == PerInput::WithoutMatch => {
            if listed > 0 {
                Outcome::Ok
            } else {
                Outcome::NotFound
            }
        }
        Outcome::Ok if found == 0 => Outcome::NotFound,
        outcome => outcome,
    })
}

/// Scans the windows of `paths` as `input`'s reader thread reads them (standard input and
/// other streams, or positions asked for): each window's pieces on the pool, a batch at a
/// time, then `account` for each piece in order on the calling thread.
fn scan_read_windows(
    paths: &[PathBuf],
    named: &[bool],
    renderer: &Renderer<'_>,
    quiet: bool,
    account: &mut impl FnMut(usize, &Name, &Rendered, Option<Source<'_>>) -> io::Result<()>,
) -> io::Result<Outcome> {
    // -n/--column: where each piece starts (filled in order before the pieces are
    // scanned in parallel), and where the next window starts, per input.
    let mut starts: Vec<Position> = Vec::new();
    let mut next: (usize, Position) = (usize::MAX, Position::START);
    let batch = BATCH_PER_THREAD * rayon::current_num_threads();
    // Reused from window to window.
    let mut ranges = Vec::new();
    let mut rendered: Vec<Rendered> = Vec::new();
    // -q: each read is scanned as it comes, so a link ends the run even if the input
    // then stalls.
    input::for_each_window(paths, named, quiet, |input, name, offset, window| {
        if window.is_empty() {
            // An empty input still counts (0).
            return account(input, name, &Rendered::default(), None);
        }
        pieces(window, &mut ranges);
        starts.clear();
        if renderer.positions() {
            if next.0 != input {
                next = (input, Position::START);
            }
            for range in &ranges {
                starts.push(next.1);
                next.1.advance(&window[range.clone()]);
            }
        } else {
            starts.resize(ranges.len(), Position::START);
        }
        for (ranges, starts) in ranges.chunks(batch).zip(starts.chunks(batch)) {
            if rendered.len() < ranges.len() {
                rendered.resize_with(ranges.len(), Rendered::default);
            }
            ranges
                .par_iter()
                .zip(starts)
                .zip(rendered.par_iter_mut())
                .for_each(|((range, &pos), into)| {
                    renderer.piece(
                        name,
                        offset + range.start as u64,
                        pos,
                        &window[range.clone()],
                        into,
                    );
                });
            for ((range, &pos), piece) in ranges.iter().zip(starts).zip(&rendered) {
                let source = Source {
                    bytes: &window[range.clone()],
                    base: offset + range.start as u64,
                    pos,
                };
                account(input, name, piece, Some(source))?;
            }
        }
        Ok(())
    })
}

/// The colours of the text format (SGR sequences, as ripgrep's defaults): the file name
/// magenta, the line and column green, a URL bold blue and an email address bold yellow;
/// or nothing at all.
#[derive(Clone, Copy)]
pub(crate) struct Palette {
    on: bool,
}

impl Palette {
    pub(crate) const FILE: &'static [u8] = b"\x1b[35m";
    pub(crate) const POSITION: &'static [u8] = b"\x1b[32m";
    const URL: &'static [u8] = b"\x1b[1;34m";
    const EMAIL: &'static [u8] = b"\x1b[1;33m";
    const RESET: &'static [u8] = b"\x1b[0m";

    pub(crate) fn new(on: bool) -> Palette {
        Palette { on }
    }

    /// The colour of a link of `kind`.
    pub(crate) fn kind(kind: linkscan::LinkKind) -> &'static [u8] {
        match kind {
            linkscan::LinkKind::Email => Palette::EMAIL,
            _ => Palette::URL,
        }
    }

    /// `color` when colours are on, else nothing.
    pub(crate) fn on(self, color: &'static [u8]) -> &'static [u8] {
        if self.on {
            color
        } else {
            b""
        }
    }

    /// The end of a colour, when colours are on.
    pub(crate) fn off(self) -> &'static [u8] {
        self.on(Palette::RESET)
    }

    /// Appends `text` in `color`.
    pub(crate) fn paint(self, out: &mut Vec<u8>, color: &'static [u8], text: &[u8]) {
        out.extend_from_slice(self.on(color));
        out.extend_from_slice(text);
        out.extend_from_slice(self.off());
    }
}

/// Stops the scan of `find -q` at its first link (carried as an error out of the scan).
#[derive(Debug)]
struct Found;

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a link was found")
    }
}

impl std::error::Error for Found {}

/// What `find` prints for each input instead of its links, once the input is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PerInput {
    /// The links themselves (no line per input).
    Links,
    /// `-c`: the number of links; with several inputs `NAME:N`, for the inputs with a link
    /// only unless `--include-zero` (as ripgrep). A single input's count is always
    /// printed, 0 included: it is the total.
    Count { include_zero: bool },
    /// `-l`: the name of each input with a link.
    WithMatches,
    /// `--files-without-match`: the name of each input without one.
    WithoutMatch,
}

impl PerInput {
    pub(crate) fn of(args: &FindArgs) -> PerInput {
        if args.files_with_matches {
            PerInput::WithMatches
        } else if args.files_without_match {
            PerInput::WithoutMatch
        } else if args.count {
            PerInput::Count {
                include_zero: args.include_zero,
            }
        } else {
            PerInput::Links
        }
    }

    /// Writes the line of the input `name` (of `several`) that has `n` links, if it has
    /// one; returns whether it wrote one.
    pub(crate) fn end(
        self,
        out: &mut impl Write,
        several: bool,
        name: &str,
        n: usize,
    ) -> io::Result<bool> {
        match self {
            PerInput::Links => return Ok(false),
            PerInput::Count { .. } if !several => writeln!(out, "{n}")?,
            PerInput::Count { include_zero } if n > 0 || include_zero => {
                writeln!(out, "{name}:{n}")?
            }
            PerInput::WithMatches if n > 0 => writeln!(out, "{name}")?,
            PerInput::WithoutMatch if n == 0 => writeln!(out, "{name}")?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}
