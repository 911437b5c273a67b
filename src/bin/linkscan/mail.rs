//! Mail archives (`--mbox`, `--maildir`) for `find` and `linkify`: the options, and the
//! parallel scan of [`linkscan::mail::pipeline`] wired to the output.
//!
//! # Pipeline
//!
//! [`Pipeline`] reads the inputs (mbox plain, gzip or standard input; Maildir folders),
//! scans each message on the rayon pool of `-j` threads and gives the results back in
//! archive order, in bounded memory (its module documentation says how). Here a
//! [`Render`] makes each message's output on the pool (JSON lines or TSV for `find`, the
//! message's page for `linkify --out`) and an [`Emit`] writes them in order on the main
//! thread. A message over `--max-message-size` comes as pieces of about 1 MiB, scanned as
//! raw text.
//!
//! # Reporting
//!
//! Every message read is counted, whatever happens to it. Problems in a message are warnings
//! on stderr that name the input, the message and the reason; they never stop the run. An
//! input that cannot be opened or read to its end is an error (exit status 2), after the
//! messages read before the error have been processed. At the end a summary line per input
//! counts messages, scanned parts, links and warnings (`--quiet` leaves it out). A progress
//! bar (bytes, messages, throughput, ETA) is drawn on stderr when it is a terminal and the
//! run lasts more than a second.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use linkscan::checks;
use linkscan::mail::pipeline::{
    self, Event, Input, MessageInfo, Pipeline, DEFAULT_MAX_MESSAGE_SIZE,
};
use linkscan::mail::{LinkSource, MailScanner, ScannedMessage};

use crate::find::{Format, PerInput};
use crate::input::STDIN_NAME;
use crate::render::{decimal, json_str, tsv_field, tsv_unescape, Name};
use crate::words;
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
fn parse_size(s: &str) -> Result<u64, String> {
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
fn display(path: &Path) -> String {
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

/// The library's [`linkscan::mail::pipeline::Render`] of a [`Render`]: the display name
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
    let inputs: Vec<Input> = if run.inputs.is_empty() {
        vec![Input::Stdin]
    } else {
        (run.inputs.iter())
            .map(|path| match path.to_str() {
                Some(STDIN_NAME) => Input::Stdin,
                _ => Input::Path(path.clone()),
            })
            .collect()
    };
    let names: Vec<String> = inputs.iter().map(|input| display(input.path())).collect();
    let limit = run
        .args
        .max_message_size
        .unwrap_or(DEFAULT_MAX_MESSAGE_SIZE);
    let pipeline = Pipeline::new(run.scanner)
        .maildir(run.args.maildir)
        .max_message_size(limit);

    let quiet = run.args.no_progress || run.quiet;
    // `find -q` stops at the first link, as grep -q does.
    let stop_at_first_link = run.quiet;
    let show_progress = !quiet && io::stderr().is_terminal();
    let bar = progress_bar();
    let started = Instant::now();
    let mut bar_visible = false;

    let mut outcome = Outcome::Ok;
    let mut all = Totals::default();
    let mut totals = Totals::default();
    let mut current = String::new();
    let named = Named {
        render,
        names: names.clone(),
    };
    let result = pipeline.run(&inputs, &named, |event| {
        match event {
            Event::Start { input, size } => {
                current.clone_from(&names[input]);
                totals = Totals::default();
                if let Some(size) = size {
                    bar.inc_length(size);
                }
                sink.start(&current)?;
            }
            Event::Message(done) => {
                if done.read_error {
                    outcome = Outcome::InputErrors;
                }
                totals.messages += usize::from(done.first);
                totals.parts += done.parts;
                totals.skipped += done.skipped;
                totals.skipped_text += done.skipped_text;
                totals.links += done.links;
                totals.warnings += done.warnings.len();
                if !done.warnings.is_empty() {
                    let file = done.path.as_deref().map(display);
                    let file = file.as_deref().unwrap_or(&current);
                    let id = done
                        .message_id
                        .as_deref()
                        .map(|id| format!(" <{id}>"))
                        .unwrap_or_default();
                    bar.suspend(|| {
                        for w in &done.warnings {
                            crate::warn!("linkscan: {file}: message {}{id}: {w}", done.index);
                        }
                    });
                }
                totals.links += sink.emit(done.output)?;
                if stop_at_first_link && all.links + totals.links > 0 {
                    // Stopping the run stops the reader at its next batch.
                    sink.end(&current, &totals)?;
                    return Ok(false);
                }
            }
            Event::Progress { bytes } if show_progress => {
                if !bar_visible && started.elapsed() > Duration::from_secs(1) {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar_visible = true;
                }
                bar.set_position(bytes);
                bar.set_message(format!("{} messages", all.messages + totals.messages));
            }
            Event::Failed { input, error } => {
                let name = &names[input];
                bar.suspend(|| crate::warn!("linkscan: {name}: {error}"));
                outcome = Outcome::InputErrors;
            }
            Event::End {
                error,
                read_errors,
                unreadable,
                ..
            } => {
                if read_errors > 0 || !unreadable.is_empty() {
                    outcome = Outcome::InputErrors;
                }
                for (folder, e) in &unreadable {
                    bar.suspend(|| crate::warn!("linkscan: {}: {e}", display(folder)));
                }
                if let Some(error) = error {
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
                    outcome = Outcome::InputErrors;
                }
                sink.end(&current, &totals)?;
                if !quiet {
                    bar.suspend(|| crate::warn!("linkscan: {current}: {}", summary(&totals)));
                }
                all.add(&totals);
            }
            _ => {}
        }
        Ok(true)
    });
    // (Once this thread stops early, on a write error, the run stops by itself.)
    let result = result.and_then(|()| sink.finish());
    bar.finish_and_clear();
    result?;
    if !quiet && inputs.len() > 1 {
        crate::warn!("linkscan: total: {}", summary(&all));
    }
    Ok(outcome)
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

/// `find` over archives: JSON lines or TSV per message.
struct FindRender {
    format: Format,
    count: bool,
    /// -o: the text of each link, one per line.
    only: bool,
    checks: bool,
}

/// `find` over archives: the output, and the counts.
struct FindSink<'o, W: Write> {
    out: &'o mut W,
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

impl Render for FindRender {
    type Rendered = Vec<u8>;

    fn render(&self, file: &str, index: usize, _global: usize, m: ScannedMessage) -> Vec<u8> {
        if self.count {
            return Vec::new();
        }
        // A JSON line is a few hundred bytes: sized once, rather than grown by doubling
        // (each doubling copies what was rendered).
        let mut out = Vec::with_capacity(m.link_count() * 320);
        // What every line of the message starts with, and every line of a part: rendered
        // once, not per link.
        let tsv = self.format == Format::Tsv;
        let mut message = Vec::new();
        if !self.only && m.link_count() > 0 {
            if tsv {
                message.extend_from_slice(file.as_bytes());
                message.push(b'\t');
                decimal(&mut message, index as u64);
                message.push(b'\t');
                tsv_field(&mut message, m.message_id().unwrap_or_default().as_bytes());
            } else {
                message.extend_from_slice(b"{\"file\":");
                message.extend_from_slice(&file_json(file));
                message.extend_from_slice(b",\"message\":");
                decimal(&mut message, index as u64);
                message.extend_from_slice(b",\"message_id\":");
                json_opt(&mut message, m.message_id());
            }
        }
        let mut head = Vec::new();
        for part in m.parts() {
            if part.links().is_empty() {
                continue;
            }
            head.clear();
            head.extend_from_slice(&message);
            if tsv {
                head.push(b'\t');
                tsv_field(&mut head, part.path().as_bytes());
                head.push(b'\t');
                tsv_field(
                    &mut head,
                    part.content_type().unwrap_or_default().as_bytes(),
                );
            } else if !self.only {
                head.extend_from_slice(b",\"part\":");
                json_str(&mut head, part.path());
                head.extend_from_slice(b",\"content_type\":");
                json_opt(&mut head, part.content_type());
            }
            for link in part.links() {
                if self.only {
                    tsv_field(&mut out, link.text().as_bytes());
                    out.push(b'\n');
                    continue;
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
                if tsv {
                    out.extend_from_slice(&head);
                    out.push(b'\t');
                    out.extend_from_slice(link.source().as_str().as_bytes());
                    out.push(b'\t');
                    decimal(&mut out, link.start() as u64);
                    out.push(b'\t');
                    decimal(&mut out, link.end() as u64);
                    out.push(b'\t');
                    out.extend_from_slice(link.kind().as_str().as_bytes());
                    for field in [link.text(), link.href()] {
                        out.push(b'\t');
                        tsv_field(&mut out, field.as_bytes());
                    }
                    if let Some(failed) = failed {
                        let names: Vec<&str> = failed.names().collect();
                        out.push(b'\t');
                        out.extend_from_slice(names.join(",").as_bytes());
                    }
                    out.push(b'\n');
                    continue;
                }
                out.extend_from_slice(&head);
                out.extend_from_slice(b",\"source\":\"");
                out.extend_from_slice(link.source().as_str().as_bytes());
                out.extend_from_slice(b"\",\"start\":");
                decimal(&mut out, link.start() as u64);
                out.extend_from_slice(b",\"end\":");
                decimal(&mut out, link.end() as u64);
                out.extend_from_slice(b",\"kind\":\"");
                out.extend_from_slice(link.kind().as_str().as_bytes());
                out.extend_from_slice(b"\",\"text\":");
                json_str(&mut out, link.text());
                out.extend_from_slice(b",\"href\":");
                json_str(&mut out, link.href());
                if let Some(failed) = failed {
                    out.extend_from_slice(b",\"checks\":[");
                    for (i, name) in failed.names().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        json_str(&mut out, name);
                    }
                    out.push(b']');
                }
                out.extend_from_slice(b"}\n");
            }
        }
        out
    }
}

impl<W: Write> Emit<Vec<u8>> for FindSink<'_, W> {
    fn emit(&mut self, rendered: Vec<u8>) -> io::Result<usize> {
        self.out.write_all(&rendered)?;
        Ok(0)
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
            "--format marked is for plain text; use jsonl or tsv with --mbox/--maildir",
        ));
    }
    if args.line_number || args.column {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "-n/--line-number and --column are for plain text; a link of a message is \
             located by its part and its offsets in the decoded part text",
        ));
    }
    // --count and -q print no link: the links of text are counted, not kept, so a
    // message dense with links costs no record per link.
    let scanner = scanner.count_only(args.count || args.quiet);
    let render = FindRender {
        format: args.format,
        // -q renders nothing, as --count, -l and --files-without-match do.
        count: args.quiet || PerInput::of(args) != PerInput::Links,
        only: args.only_matching,
        checks: args.checks,
    };
    let mut sink = FindSink {
        out,
        per_input: PerInput::of(args),
        quiet: args.quiet,
        several: args.files.len() > 1,
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
