//! Mail archives (`--mbox`, `--maildir`) for `find` and `linkify`: the options, and the
//! parallel scan of [`linkscan_mail::pipeline`] wired to the output.
//!
//! # Pipeline
//!
//! [`Pipeline`] reads the inputs (mbox plain, gzip or standard input; Maildir folders),
//! scans each message on the rayon pool of `-j` threads and gives the results back in
//! archive order, in bounded memory (its module documentation says how). Here a
//! [`Render`] makes each message's output on the pool (JSON lines or TSV for `find`) and
//! an [`Emit`] writes them in order on the main thread; `linkify --out` builds its archive
//! on the same pipeline with the library's `Archive::build` ([`crate::archive`]). A message
//! over `--max-message-size` comes as pieces of about 1 MiB, scanned as raw text.
//!
//! # Bounds
//!
//! `find` renders at most [`BUDGET`] bytes of output per thread on the pool, for all the
//! messages in flight together; a message that finds the budget spent is left to the main thread,
//! which renders the rest of its links from the part texts in pieces of [`CHUNK`] bytes as
//! it writes them ([`FindRender::finish`]). Its scan keeps no record per link of text (the
//! links are found again in the part texts: [`MailScanner::defer_text_links`]). So the
//! output held is bounded whatever the density of the links, and the memory of a run is
//! the pipeline's plus that.
//!
//! # Reporting
//!
//! Every message read is counted, whatever happens to it. Problems in a message are warnings
//! on stderr that name the input, the message and the reason; they never stop the run. An
//! input that cannot be opened or read to its end is an error (exit status 2), after the
//! messages read before the error have been processed. At the end a summary line per input
//! counts messages, scanned parts, links and warnings (`--quiet` leaves it out). A progress
//! bar (bytes, messages, throughput, ETA) is drawn on stderr when it is a terminal and the
//! run lasts more than a second. [`Report`] says all of it, from the run's events, for
//! both: the library gives the problems as data, and the words are this module's (an I/O
//! error without its `(os error N)`, [`describe`]).

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use linkscan::checks;
use linkscan_mail::pipeline::{self, Event, Input, MessageInfo, Pipeline};
use linkscan_mail::{
    LinkSource, MailLink, MailScanner, ScannedMessage, TextPart, DEFAULT_MAX_MESSAGE_SIZE,
};

use crate::find::{Format, Palette, PerInput};
use crate::input::{describe, STDIN_NAME};
use crate::render::{decimal, json_str, tsv_field, tsv_unescape, Name};
use crate::{terminal, words};
use crate::{FindArgs, Outcome};

/// Options of `find` and `linkify` for mail archives.
#[derive(Args, Debug, Clone)]
pub(crate) struct MailArgs {
    /// Read the inputs as mbox archives (gzip-compressed ones are detected by content).
    #[arg(long, conflicts_with = "maildir")]
    pub(crate) mbox: bool,
    /// Read the inputs as Maildir folders (messages in cur/ and new/).
    #[arg(long)]
    pub(crate) maildir: bool,
    /// With --mbox/--maildir: also scan text/* parts other than plain and HTML (patches, …).
    #[arg(long)]
    pub(crate) all_text: bool,
    /// With --mbox/--maildir: no progress bar and no summary on stderr (warnings remain).
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// With --mbox/--maildir: a message larger than this (bytes; K, M or G suffix) is not
    /// parsed but scanned as raw text in pieces, with a warning.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) max_message_size: Option<u64>,
}

/// `123`, `64K`, `32M`, `1G` (powers of 1024).
pub(crate) fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("unknown unit {unit:?} (use K, M or G)")),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{s:?} is not a size such as 32M"))?;
    match n.checked_mul(1 << shift) {
        Some(0) | None => Err(format!("{s:?}: the size must be between 1 byte and 16 EiB")),
        Some(size) => Ok(size),
    }
}

impl MailArgs {
    /// Whether the inputs are archives.
    pub(crate) fn archives(&self) -> bool {
        self.mbox || self.maildir
    }

    /// Refuses the options that only mean something for archives when the inputs are not
    /// archives, rather than ignore them.
    pub(crate) fn check_plain(&self) -> Result<(), String> {
        let given = [
            (self.all_text, "--all-text"),
            (self.no_progress, "--no-progress"),
            (self.max_message_size.is_some(), "--max-message-size"),
        ];
        match given.iter().find(|(on, _)| *on) {
            Some((_, flag)) => Err(format!("{flag} is for --mbox or --maildir inputs")),
            None => Ok(()),
        }
    }

    /// The message scanner for these options.
    /// `index_fields`: whether the messages' From, Date and thread fields are read (only the
    /// HTML archive shows them).
    pub(crate) fn scanner(
        &self,
        finder: linkscan::LinkFinder,
        default_scheme: &str,
        index_fields: bool,
    ) -> MailScanner {
        MailScanner::new()
            .finder(finder)
            .default_scheme(default_scheme)
            .other_text(self.all_text)
            .index_fields(index_fields)
    }
}

/// What `find` and `linkify` make of each message, in parallel.
pub(crate) trait Render: Sync {
    /// The output of one message.
    type Rendered: Send;
    /// Renders one scanned message (runs on the pool). `file` is the display name of the
    /// message's input (its own file in a Maildir).
    fn render(
        &self,
        file: &str,
        index: usize,
        global: usize,
        message: ScannedMessage,
    ) -> Self::Rendered;
}

/// What `find` and `linkify` do with the rendered messages, in archive order.
pub(crate) trait Emit<T> {
    /// An input starts.
    fn start(&mut self, _input: &str) -> io::Result<()> {
        Ok(())
    }
    /// Writes one rendered message; returns the links it found that the scan did not
    /// count (those a renderer finds itself in the texts, see [`MailScanner::text_links`]).
    fn emit(&mut self, rendered: T) -> io::Result<usize>;
    /// An input ends, with its totals.
    fn end(&mut self, _input: &str, _totals: &Totals) -> io::Result<()> {
        Ok(())
    }
    /// The run ends.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Counts for the summary.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Totals {
    pub(crate) messages: usize,
    pub(crate) parts: usize,
    pub(crate) links: usize,
    pub(crate) warnings: usize,
    /// Leaf parts not scanned (attachments, and text-like parts without --all-text).
    pub(crate) skipped: usize,
    /// Of those, the text-like ones.
    pub(crate) skipped_text: usize,
}

impl Totals {
    fn add(&mut self, other: &Totals) {
        self.messages += other.messages;
        self.parts += other.parts;
        self.links += other.links;
        self.warnings += other.warnings;
        self.skipped += other.skipped;
        self.skipped_text += other.skipped_text;
    }
}

/// How to run the pipeline.
pub(crate) struct Run<'a> {
    pub(crate) inputs: &'a [PathBuf],
    pub(crate) args: &'a MailArgs,
    pub(crate) scanner: MailScanner,
    /// `find -q`: no progress bar and no summary either.
    pub(crate) quiet: bool,
}

/// The name of an input or a Maildir file as printed: escaped as a TSV field (see
/// [`crate::render`]), so a name that is not UTF-8 stays distinct.
pub(crate) fn display(path: &Path) -> String {
    Name::new(path.as_os_str()).text
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{wide_bar}] {bytes}/{total_bytes} {binary_bytes_per_sec} \
             ETA {eta} {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar
}

/// The library's [`linkscan_mail::pipeline::Render`] of a [`Render`]: the display name
/// of each message's input (or Maildir file) for it.
struct Named<'a, R> {
    render: &'a R,
    /// The display names of the inputs.
    names: Vec<String>,
}

impl<R: Render> pipeline::Render for Named<'_, R> {
    type Output = R::Rendered;

    fn render(&self, message: &MessageInfo<'_>, scanned: ScannedMessage) -> R::Rendered {
        let file = message.path.map(display);
        let file = file.as_deref().unwrap_or(&self.names[message.input]);
        self.render
            .render(file, message.index, message.global, scanned)
    }
}

/// Runs the pipeline over the inputs: `render` each message, `sink` the results.
pub(crate) fn run<R: Render, S: Emit<R::Rendered>>(
    run: Run<'_>,
    render: &R,
    sink: &mut S,
) -> io::Result<Outcome> {
    let inputs = inputs(run.inputs);
    let pipeline = pipeline(run.args, run.scanner);
    let mut report = Report::new(&inputs, run.args, run.quiet);
    let named = Named {
        render,
        names: report.names.clone(),
    };
    let result = pipeline.run(&inputs, &named, |event| report.event(event, sink));
    // (Once this thread stops early, on a write error, the run stops by itself.)
    report.end(result.and_then(|()| sink.finish()))
}

/// The inputs of a run: standard input when none is named, and for `-`.
pub(crate) fn inputs(paths: &[PathBuf]) -> Vec<Input> {
    if paths.is_empty() {
        return vec![Input::Stdin];
    }
    (paths.iter())
        .map(|path| match path.to_str() {
            Some(STDIN_NAME) => Input::Stdin,
            _ => Input::Path(path.clone()),
        })
        .collect()
}

/// The pipeline of a run: mbox or Maildir inputs, and the size limit of a message.
pub(crate) fn pipeline(args: &MailArgs, scanner: MailScanner) -> Pipeline {
    let limit = args.max_message_size.unwrap_or(DEFAULT_MAX_MESSAGE_SIZE);
    Pipeline::new(scanner)
        .maildir(args.maildir)
        .max_message_size(limit)
}

/// What a run says on stderr as it goes, from its events: each message's warnings, the
/// inputs that could not be read, a summary per input (and a total), and the progress bar.
pub(crate) struct Report {
    /// The display names of the inputs.
    names: Vec<String>,
    /// No progress bar and no summary.
    quiet: bool,
    /// `find -q`: stop at the first link, as grep -q does.
    stop_at_first_link: bool,
    show_progress: bool,
    bar: ProgressBar,
    started: Instant,
    bar_visible: bool,
    outcome: Outcome,
    /// The inputs ended so far, and the current one.
    all: Totals,
    totals: Totals,
    current: String,
}

impl Report {
    /// The report of a run over `inputs`; `stop_at_first_link` is `find -q`, which is
    /// quiet too.
    pub(crate) fn new(inputs: &[Input], args: &MailArgs, stop_at_first_link: bool) -> Report {
        let quiet = args.no_progress || stop_at_first_link;
        Report {
            names: inputs.iter().map(|input| display(input.path())).collect(),
            quiet,
            stop_at_first_link,
            show_progress: !quiet && io::stderr().is_terminal(),
            bar: progress_bar(),
            started: Instant::now(),
            bar_visible: false,
            outcome: Outcome::Ok,
            all: Totals::default(),
            totals: Totals::default(),
            current: String::new(),
        }
    }

    /// Says what `event` says, and hands its output to `sink`; `Ok(false)` stops the run.
    pub(crate) fn event<T>(
        &mut self,
        event: Event<T>,
        sink: &mut impl Emit<T>,
    ) -> io::Result<bool> {
        let (bar, totals, current) = (&self.bar, &mut self.totals, &mut self.current);
        match event {
            Event::Start { input, size } => {
                current.clone_from(&self.names[input]);
                *totals = Totals::default();
                if let Some(size) = size {
                    bar.inc_length(size);
                }
                sink.start(current)?;
            }
            Event::Message(done) => {
                if done.read_error {
                    self.outcome = Outcome::InputErrors;
                }
                totals.messages += usize::from(done.first);
                totals.parts += done.parts;
                totals.skipped += done.skipped;
                totals.skipped_text += done.skipped_text;
                totals.links += done.links;
                totals.warnings += done.warnings.len();
                if !done.warnings.is_empty() {
                    let file = done.path.as_deref().map(display);
                    let file = file.as_deref().unwrap_or(current);
                    let id = done
                        .message_id
                        .as_deref()
                        .map(|id| format!(" <{}>", linkscan_mail::archive::short_message_id(id)))
                        .unwrap_or_default();
                    bar.suspend(|| {
                        for w in &done.warnings {
                            crate::warn!("linkscan: {file}: message {}{id}: {w}", done.index);
                        }
                    });
                }
                totals.links += sink.emit(done.output)?;
                if self.stop_at_first_link && self.all.links + totals.links > 0 {
                    // Stopping the run stops the reader at its next batch.
                    sink.end(current, totals)?;
                    return Ok(false);
                }
            }
            Event::Progress { bytes } if self.show_progress => {
                if !self.bar_visible && self.started.elapsed() > Duration::from_secs(1) {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    self.bar_visible = true;
                }
                bar.set_position(bytes);
                bar.set_message(format!("{} messages", self.all.messages + totals.messages));
            }
            Event::Failed { input, error } => {
                let (name, error) = (&self.names[input], describe(&error));
                bar.suspend(|| crate::warn!("linkscan: {name}: {error}"));
                self.outcome = Outcome::InputErrors;
            }
            Event::End {
                error,
                read_errors,
                unreadable,
                ..
            } => {
                if read_errors > 0 || !unreadable.is_empty() {
                    self.outcome = Outcome::InputErrors;
                }
                for (folder, e) in &unreadable {
                    let (folder, e) = (display(folder), describe(e));
                    bar.suspend(|| crate::warn!("linkscan: {folder}: {e}"));
                }
                if let Some(error) = error {
                    let error = describe(&error);
                    bar.suspend(|| {
                        if totals.messages > 0 {
                            crate::warn!(
                                "linkscan: {current}: {error} (after {} messages)",
                                totals.messages
                            );
                        } else {
                            crate::warn!("linkscan: {current}: {error}");
                        }
                    });
                    self.outcome = Outcome::InputErrors;
                }
                sink.end(current, totals)?;
                if !self.quiet {
                    bar.suspend(|| crate::warn!("linkscan: {current}: {}", summary(totals)));
                }
                self.all.add(totals);
            }
            _ => {}
        }
        Ok(true)
    }

    /// Ends the report of a run that gave `result`: clears the progress bar and, when the
    /// run went to its end, writes the total of several inputs; the run's outcome.
    pub(crate) fn end(self, result: io::Result<()>) -> io::Result<Outcome> {
        self.bar.finish_and_clear();
        result?;
        if !self.quiet && self.names.len() > 1 {
            crate::warn!("linkscan: total: {}", summary(&self.all));
        }
        Ok(self.outcome)
    }
}

fn summary(t: &Totals) -> String {
    let mut line = format!(
        "{}, {} scanned, {}, {}",
        words::count(t.messages, "message"),
        words::count(t.parts, "part"),
        words::count(t.links, "link"),
        words::count(t.warnings, "warning")
    );
    if t.skipped > 0 {
        let other = t.skipped - t.skipped_text;
        line.push_str(&format!(
            "; {} not scanned (",
            words::count(t.skipped, "part")
        ));
        if other > 0 {
            line.push_str(&format!("{other} attachments or other non-text types"));
        }
        if t.skipped_text > 0 {
            if other > 0 {
                line.push_str(", ");
            }
            line.push_str(&format!(
                "{} text-like: --all-text scans them",
                t.skipped_text
            ));
        }
        line.push(')');
    }
    line
}

/// `find` over archives: lines for people, JSON lines or TSV per message.
struct FindRender {
    format: Format,
    count: bool,
    /// -o: the text of each link, one per line.
    only: bool,
    /// The text format: each line starts with the archive's name (several inputs, or -H).
    named: bool,
    /// The text format is coloured.
    color: bool,
    checks: bool,
    /// The scanner, whose finder finds the links of the texts again
    /// ([`MailScanner::text_links`]).
    scanner: MailScanner,
    /// The most output rendered on the pool and not yet written, for all messages together.
    budget: usize,
    /// The output rendered on the pool and not yet written.
    held: AtomicUsize,
}

/// The output rendered on the pool for all messages in flight together, per thread (see
/// the module documentation).
const BUDGET: usize = crate::find::BUDGET;

/// The output that the main thread renders is written every this many bytes.
const CHUNK: usize = 256 << 10;

/// What a worker makes of one message for `find`.
#[derive(Default)]
pub(crate) struct FindOutput {
    /// The output rendered on the pool.
    out: Vec<u8>,
    /// The links of the texts it has (found again: the scan did not count them).
    links: usize,
    /// What is left to render when the budget was spent.
    rest: Option<Box<Rest>>,
}

/// A message whose output a worker left to the main thread, and where it stopped.
struct Rest {
    file: String,
    index: usize,
    message: ScannedMessage,
    at: Cursor,
}

/// Where rendering a message's links stands: a part, and in it the end of the last link
/// of the text written (the links of the text come first), then the next of the links
/// the scan kept ([`linkscan_mail::TextPart::links`]).
#[derive(Clone, Copy, Debug, Default)]
struct Cursor {
    part: usize,
    after: usize,
    text_done: bool,
    kept: usize,
}

/// `find` over archives: the output, and the counts.
struct FindSink<'o, 'r, W: Write> {
    out: &'o mut W,
    /// The renderer, for the rest of a message that a worker left.
    render: &'r FindRender,
    /// -c, -l, --files-without-match: a line per archive.
    per_input: PerInput,
    /// -q: print nothing.
    quiet: bool,
    several: bool,
    /// Links found in all inputs so far.
    found: usize,
    /// Archives named by -l or --files-without-match.
    listed: usize,
}

/// Room for the fields of a message's or a part's head besides the file name and the
/// message's head (a message id, a part's path and content type).
const HEAD_ROOM: usize = 192;

/// The `file` field of a JSON line: the name as a string, or `{"bytes":…}` when it is not
/// UTF-8 (see [`crate::render`]); `file` is the name as displayed (TSV-escaped).
fn file_json(file: &str) -> Vec<u8> {
    let mut out = Vec::new();
    // `display` escaped the name; without a backslash, the escaped form is the name.
    if !file.contains('\\') {
        json_str(&mut out, file);
        return out;
    }
    let bytes = tsv_unescape(file);
    match std::str::from_utf8(&bytes) {
        Ok(text) => json_str(&mut out, text),
        Err(_) => out.extend_from_slice(Name::from_bytes(&bytes).json.as_bytes()),
    }
    out
}

/// Appends `text` as a JSON string, or `null`.
fn json_opt(out: &mut Vec<u8>, text: Option<&str>) {
    match text {
        Some(text) => json_str(out, text),
        None => out.extend_from_slice(b"null"),
    }
}

impl FindRender {
    /// What each line of the message starts with: its fields.
    fn message_head(&self, file: &str, index: usize, m: &ScannedMessage) -> Vec<u8> {
        let mut head = Vec::with_capacity(HEAD_ROOM + file.len());
        if self.only {
            return head;
        }
        if self.format == Format::Text {
            // `[FILE:]MESSAGE`, in the colours of `FILE:LINE` of plain text.
            let palette = Palette::new(self.color);
            if self.named {
                palette.paint(&mut head, Palette::FILE, file.as_bytes());
                head.push(b':');
            }
            head.extend_from_slice(palette.on(Palette::POSITION));
            decimal(&mut head, index as u64);
        } else if self.format == Format::Tsv {
            head.extend_from_slice(file.as_bytes());
            head.push(b'\t');
            decimal(&mut head, index as u64);
            head.push(b'\t');
            tsv_field(&mut head, m.message_id().unwrap_or_default().as_bytes());
        } else {
            head.extend_from_slice(b"{\"file\":");
            head.extend_from_slice(&file_json(file));
            head.extend_from_slice(b",\"message\":");
            decimal(&mut head, index as u64);
            head.extend_from_slice(b",\"message_id\":");
            json_opt(&mut head, m.message_id());
        }
        head
    }

    /// What each line of `part` starts with: the message's fields (`message`), then the
    /// part's.
    fn part_head(&self, message: &[u8], part: &TextPart, head: &mut Vec<u8>) {
        head.clear();
        if self.only {
            return;
        }
        head.reserve(message.len() + HEAD_ROOM);
        head.extend_from_slice(message);
        if self.format == Format::Text {
            // A slash, not a colon: `3/1` does not read as a line and a column.
            head.push(b'/');
            terminal::escape_into(head, part.path().as_bytes(), false);
            head.extend_from_slice(Palette::new(self.color).off());
        } else if self.format == Format::Tsv {
            head.push(b'\t');
            tsv_field(head, part.path().as_bytes());
            head.push(b'\t');
            tsv_field(head, part.content_type().unwrap_or_default().as_bytes());
        } else {
            head.extend_from_slice(b",\"part\":");
            json_str(head, part.path());
            head.extend_from_slice(b",\"content_type\":");
            json_opt(head, part.content_type());
        }
    }

    /// Renders the links of `m` from `at` into `out`, counting the links of the texts in
    /// `links` and calling `full` after each link: when it says so, rendering stops and
    /// the place to go on from is returned.
    #[allow(clippy::too_many_arguments)]
    fn write_links(
        &self,
        file: &str,
        index: usize,
        m: &ScannedMessage,
        mut at: Cursor,
        out: &mut Vec<u8>,
        links: &mut usize,
        mut full: impl FnMut(&mut Vec<u8>) -> io::Result<bool>,
    ) -> io::Result<Option<Cursor>> {
        // Rendered at the message's first link, and each part's at its first.
        let mut message = None;
        let mut head = Vec::new();
        while let Some(part) = m.parts().get(at.part) {
            // Rendered at the part's first link: most parts have none.
            let mut has_head = false;
            if !at.text_done {
                for link in self.scanner.text_links(m, at.part, at.after) {
                    if !has_head {
                        let message =
                            message.get_or_insert_with(|| self.message_head(file, index, m));
                        self.part_head(message, part, &mut head);
                        has_head = true;
                    }
                    self.line(out, &head, part, &link);
                    *links += 1;
                    at.after = link.end();
                    if full(out)? {
                        return Ok(Some(at));
                    }
                }
                at.text_done = true;
            }
            while let Some(link) = part.links().get(at.kept) {
                if !has_head {
                    let message = message.get_or_insert_with(|| self.message_head(file, index, m));
                    self.part_head(message, part, &mut head);
                    has_head = true;
                }
                self.line(out, &head, part, link);
                at.kept += 1;
                if full(out)? {
                    return Ok(Some(at));
                }
            }
            at = Cursor {
                part: at.part + 1,
                ..Cursor::default()
            };
        }
        Ok(None)
    }

    /// One link's line.
    fn line(&self, out: &mut Vec<u8>, head: &[u8], part: &TextPart, link: &MailLink) {
        if self.only {
            tsv_field(out, link.text().as_bytes());
            out.push(b'\n');
            return;
        }
        let failed = self.checks.then(|| {
            // What is right before a link of the text counts (an invisible
            // character); an href's attribute has nothing before it.
            let (before, after) = match link.source() {
                LinkSource::Text => (
                    part.text().get(..link.start()).unwrap_or(""),
                    part.text().get(link.end()..).unwrap_or(""),
                ),
                _ => ("", ""),
            };
            checks::check_between(before, link.text(), after, link.kind())
        });
        if self.format == Format::Text {
            // `[FILE:]MESSAGE/PART: LINK[ (href)][  [fails: NAME,…]]`
            let palette = Palette::new(self.color);
            out.extend_from_slice(head);
            out.extend_from_slice(b": ");
            out.extend_from_slice(palette.on(Palette::kind(link.kind())));
            terminal::escape_into(out, link.text().as_bytes(), false);
            out.extend_from_slice(palette.off());
            if link.source() != LinkSource::Text {
                let _ = write!(out, " ({})", link.source().as_str());
            }
            if let Some(failed) = failed.filter(|f| f.names().next().is_some()) {
                let names: Vec<&str> = failed.names().collect();
                let _ = write!(out, "  [fails: {}]", names.join(","));
            }
            out.push(b'\n');
            return;
        }
        if self.format == Format::Tsv {
            out.extend_from_slice(head);
            out.push(b'\t');
            out.extend_from_slice(link.source().as_str().as_bytes());
            out.push(b'\t');
            decimal(out, link.start() as u64);
            out.push(b'\t');
            decimal(out, link.end() as u64);
            out.push(b'\t');
            out.extend_from_slice(link.kind().as_str().as_bytes());
            for field in [link.text(), link.href()] {
                out.push(b'\t');
                tsv_field(out, field.as_bytes());
            }
            if let Some(failed) = failed {
                let names: Vec<&str> = failed.names().collect();
                out.push(b'\t');
                out.extend_from_slice(names.join(",").as_bytes());
            }
            out.push(b'\n');
            return;
        }
        out.extend_from_slice(head);
        out.extend_from_slice(b",\"source\":\"");
        out.extend_from_slice(link.source().as_str().as_bytes());
        out.extend_from_slice(b"\",\"start\":");
        decimal(out, link.start() as u64);
        out.extend_from_slice(b",\"end\":");
        decimal(out, link.end() as u64);
        out.extend_from_slice(b",\"kind\":\"");
        out.extend_from_slice(link.kind().as_str().as_bytes());
        out.extend_from_slice(b"\",\"text\":");
        json_str(out, link.text());
        out.extend_from_slice(b",\"href\":");
        json_str(out, link.href());
        if let Some(failed) = failed {
            out.extend_from_slice(b",\"checks\":[");
            for (i, name) in failed.names().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                json_str(out, name);
            }
            out.push(b']');
        }
        out.extend_from_slice(b"}\n");
    }

    /// Writes what a worker rendered of a message, then renders the rest of it, if any,
    /// writing it every [`CHUNK`] bytes; returns the links of the texts in the rest.
    fn finish(&self, rendered: FindOutput, out: &mut impl Write) -> io::Result<usize> {
        let written = out.write_all(&rendered.out);
        self.held.fetch_sub(rendered.out.len(), Ordering::Relaxed);
        written?;
        let Some(rest) = rendered.rest else {
            return Ok(0);
        };
        let mut links = 0;
        let mut buf = Vec::with_capacity(CHUNK + (64 << 10));
        let Rest {
            file,
            index,
            message,
            at,
        } = *rest;
        self.write_links(&file, index, &message, at, &mut buf, &mut links, |buf| {
            if buf.len() >= CHUNK {
                out.write_all(buf)?;
                buf.clear();
            }
            Ok(false)
        })?;
        out.write_all(&buf)?;
        Ok(links)
    }
}

impl Render for FindRender {
    type Rendered = FindOutput;

    fn render(&self, file: &str, index: usize, _global: usize, m: ScannedMessage) -> FindOutput {
        let mut rendered = FindOutput::default();
        if self.count {
            return rendered;
        }
        // The room left of the budget: past it (less a record's worth, so that the vector,
        // which grows by doubling, stays within it), the rest is left to the main thread.
        let room = self
            .budget
            .saturating_sub(self.held.load(Ordering::Relaxed));
        let full = |out: &mut Vec<u8>| Ok(out.len() + (64 << 10) >= room);
        let (out, links) = (&mut rendered.out, &mut rendered.links);
        let stopped = self
            .write_links(file, index, &m, Cursor::default(), out, links, full)
            .expect("rendering into memory cannot fail");
        self.held.fetch_add(rendered.out.len(), Ordering::Relaxed);
        if let Some(at) = stopped {
            rendered.rest = Some(Box::new(Rest {
                file: file.to_owned(),
                index,
                message: m,
                at,
            }));
        }
        rendered
    }
}

impl<W: Write> Emit<FindOutput> for FindSink<'_, '_, W> {
    fn emit(&mut self, rendered: FindOutput) -> io::Result<usize> {
        let links = rendered.links;
        Ok(links + self.render.finish(rendered, self.out)?)
    }

    fn end(&mut self, input: &str, totals: &Totals) -> io::Result<()> {
        self.found += totals.links;
        if !self.quiet {
            let listed = self
                .per_input
                .end(self.out, self.several, input, totals.links)?;
            self.listed += usize::from(listed);
        }
        Ok(())
    }
}

/// `linkscan find --mbox/--maildir`.
pub(crate) fn find<W: Write>(
    args: &FindArgs,
    scanner: MailScanner,
    out: &mut W,
) -> io::Result<Outcome> {
    if args.format == Format::Marked {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--format marked is for plain text; use text, jsonl or tsv with --mbox/--maildir",
        ));
    }
    if args.line_number || args.column {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "-n/--line-number and --column are for plain text; a link of a message is \
             located by its part and its offsets in the decoded part text",
        ));
    }
    // -q renders nothing, as --count, -l and --files-without-match do: the links of text
    // are counted, not kept; else they are found again as they are rendered. So a message
    // dense with links costs no record per link.
    let count = args.quiet || PerInput::of(args) != PerInput::Links;
    let scanner = scanner.count_only(count).defer_text_links(!count);
    let several = args.files.len() > 1;
    let render = FindRender {
        format: args.format,
        count,
        only: args.only_matching,
        named: args.with_filename(several),
        color: args.format == Format::Text && !args.only_matching && args.colored(),
        checks: args.checks,
        scanner: scanner.clone(),
        budget: BUDGET * rayon::current_num_threads(),
        held: AtomicUsize::new(0),
    };
    let mut sink = FindSink {
        out,
        render: &render,
        per_input: PerInput::of(args),
        quiet: args.quiet,
        several,
        found: 0,
        listed: 0,
    };
    let outcome = run(
        Run {
            inputs: &args.files,
            args: &args.mail,
            scanner,
            quiet: args.quiet,
        },
        &render,
        &mut sink,
    )?;
    Ok(match outcome {
        // grep -q: a link found wins over an input error.
        _ if args.quiet && sink.found > 0 => Outcome::Ok,
        Outcome::Ok if sink.per_input == PerInput::WithoutMatch && sink.listed == 0 => {
            Outcome::NotFound
        }
        Outcome::Ok if sink.per_input == PerInput::WithoutMatch => Outcome::Ok,
        Outcome::Ok if sink.found == 0 => Outcome::NotFound,
        outcome => outcome,
    })
}
