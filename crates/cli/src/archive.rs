//! `linkscan linkify --mbox/--maildir --out DIR`: the HTML archive of
//! [`linkscan_mail::archive`], its pages written on the parallel scan of [`linkscan_mail::pipeline`] (wired by
//! [`crate::mail`]).
//!
//! Each message's page is written on the worker that scanned it
//! ([`Archive::write_message`]); the rows come back in archive order and are added once
//! the run has read every input, and [`Archive::finish`] writes the thread, month and
//! front pages and the links between the pages. The folder keeps what was written when
//! the run stops early.

use std::io;

use linkscan::html::Linkifier;
use linkscan_mail::archive::{Addresses, Archive, ArchivedMessage, InputTotals, Updated};
use linkscan_mail::{MailScanner, ScannedMessage};

use crate::mail::{self, Emit, Render, Run, Totals};
use crate::{words, LinkifyArgs, Outcome};

/// Writes the pages (in parallel).
struct Pages<'a> {
    archive: &'a Archive,
}

impl Render for Pages<'_> {
    type Rendered = io::Result<ArchivedMessage>;

    fn render(
        &self,
        file: &str,
        index: usize,
        global: usize,
        m: ScannedMessage,
    ) -> io::Result<ArchivedMessage> {
        self.archive.write_message(file, index, global, &m)
    }
}

/// Gathers the rows (in order) and the inputs' totals.
#[derive(Default)]
struct Rows {
    messages: Vec<ArchivedMessage>,
    inputs: Vec<(String, InputTotals)>,
}

impl Emit<io::Result<ArchivedMessage>> for Rows {
    fn emit(&mut self, row: io::Result<ArchivedMessage>) -> io::Result<usize> {
        self.messages.push(row?);
        Ok(0)
    }

    fn end(&mut self, input: &str, totals: &Totals) -> io::Result<()> {
        let totals = InputTotals {
            messages: totals.messages,
            links: totals.links,
            warnings: totals.warnings,
        };
        self.inputs.push((input.to_string(), totals));
        Ok(())
    }
}

/// `linkscan linkify --mbox/--maildir --out DIR`.
pub(crate) fn run(
    args: &LinkifyArgs,
    scanner: MailScanner,
    linkifier: Linkifier,
) -> io::Result<Outcome> {
    let Some(dir) = &args.out else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "linkify --mbox/--maildir writes an HTML archive: give its folder with --out DIR",
        ));
    };
    let mut archive = Archive::create(dir)?
        .linkifier(linkifier)
        .checks(args.checks)
        .addresses(if args.obfuscate_addresses() {
            Addresses::Obfuscate
        } else {
            Addresses::Show
        })
        .max_message_size(
            args.mail
                .max_message_size
                .unwrap_or(linkscan_mail::DEFAULT_MAX_MESSAGE_SIZE),
        );
    if let ([input], false) = (&args.files[..], args.mail.maildir) {
        archive = archive.source(input, &scanner);
    }
    if args.update {
        match (&args.files[..], args.mail.maildir) {
            ([input], false) if input.as_os_str() != "-" => {
                match archive.update(input, &scanner)? {
                    Updated::Done {
                        added,
                        finished,
                        warnings,
                    } => {
                        let name = input.display();
                        for w in &warnings {
                            crate::warn!("linkscan: {name}: {w}");
                        }
                        if !args.mail.no_progress {
                            crate::warn!(
                                "linkscan: {}: updated: {} read, {} of {} written",
                                dir.display(),
                                words::count(added, "message"),
                                finished.written,
                                words::count(finished.pages, "page")
                            );
                        }
                        return Ok(Outcome::Ok);
                    }
                    Updated::Rebuild(why) => crate::warn!(
                        "linkscan: {}: cannot update ({why}): building it whole",
                        dir.display()
                    ),
                }
            }
            _ => crate::warn!(
                "linkscan: {}: cannot update (an update reads one mbox file, appended to): \
                 building it whole",
                dir.display()
            ),
        }
    }
    let mut rows = Rows::default();
    let outcome = mail::run(
        Run {
            inputs: &args.files,
            args: &args.mail,
            scanner,
            quiet: false,
        },
        &Pages { archive: &archive },
        &mut rows,
    );
    // The other pages are written even when the run stopped early: what was written is
    // kept.
    for message in rows.messages {
        archive.add(message);
    }
    for (name, totals) in &rows.inputs {
        archive.end_input(name, *totals);
    }
    let finished = archive.finish();
    let outcome = outcome?;
    let finished = finished?;
    if finished.removed > 0 {
        crate::warn!(
            "linkscan: {}: removed {} left by an earlier run that this archive does not have",
            dir.display(),
            words::count(finished.removed, "page")
        );
    }
    Ok(outcome)
}
