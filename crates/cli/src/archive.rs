//! `linkscan linkify --mbox/--maildir --out DIR`: the HTML archive of
//! [`linkscan_mail::archive`], built on the parallel scan of [`linkscan_mail::pipeline`] by
//! [`Archive::build`], which writes each message's page on the worker that scanned it;
//! [`Archive::finish`] then writes the thread, month and front pages and the links
//! between the pages. A run whose input could not all be read removes nothing and
//! writes no list page: the folder keeps the archive already there, and what was written.
//! With `--search`, Pagefind is found first (`--pagefind`, `PAGEFIND`, the `PATH`,
//! `python3 -m pagefind`), and the build ends by indexing the message pages.
//!
//! Only the words are the command's: the run's progress, warnings and summaries, as
//! `find --mbox` says them ([`crate::mail::Report`]), an update's, and the pages removed.

use std::io;

use linkscan::html::Linkifier;
use linkscan_mail::archive::search::Pagefind;
use linkscan_mail::archive::{Addresses, Archive, Updated};
use linkscan_mail::MailScanner;

use crate::mail::{self, Emit, Report};
use crate::{words, LinkifyArgs, Outcome};

/// Nothing to write in order: the pages are written on the pool, as the messages are
/// scanned.
impl Emit<()> for () {
    fn emit(&mut self, (): ()) -> io::Result<usize> {
        Ok(0)
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
    let (attachments, limit) = args.attachments();
    let addresses = if args.obfuscate_addresses() {
        Addresses::Obfuscate
    } else {
        Addresses::Show
    };
    let scanner = linkscan_mail::archive::scanner(scanner, attachments, limit, addresses);
    // Pagefind is found before anything is written: without it, nothing is.
    let pagefind = match args.search {
        true => Some(
            Pagefind::find(args.pagefind.as_deref().map(|p| p.as_os_str()), None)
                .map_err(|e| io::Error::new(io::ErrorKind::NotFound, format!("--search: {e}")))?,
        ),
        false => None,
    };
    let mut archive = Archive::create(dir)?
        .attachments(attachments, limit)
        .linkifier(linkifier)
        .checks(args.checks)
        .addresses(addresses)
        .downloads(true)
        .max_message_size(
            args.mail
                .max_message_size
                .unwrap_or(linkscan_mail::DEFAULT_MAX_MESSAGE_SIZE),
        );
    if let ([input], false) = (&args.files[..], args.mail.maildir) {
        archive = archive.source(input, &scanner);
    }
    if let Some(title) = &args.title {
        archive = archive.title(title);
    }
    if let Some(pagefind) = pagefind {
        archive = archive.search(pagefind);
    }
    if args.update {
        match (&args.files[..], args.mail.maildir) {
            ([input], false) if input.as_os_str() != "-" => {
                let name = input.display();
                // Each warning said as it comes, none kept.
                let warn = |w: String| crate::warn!("linkscan: {name}: {w}");
                match archive.update_warning(input, &scanner, warn)? {
                    Updated::Done {
                        added, finished, ..
                    } => {
                        if !args.mail.no_progress {
                            let read = if added == 0 {
                                "no new message".to_string()
                            } else {
                                format!("{} read", words::count(added, "new message"))
                            };
                            crate::warn!(
                                "linkscan: {}: updated: {read}, {} of {} written",
                                dir.display(),
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
    let inputs = mail::inputs(&args.files);
    let pipeline = mail::pipeline(&args.mail, scanner);
    let mut report = Report::new(&inputs, &args.mail, false);
    let built = archive.build(&inputs, &pipeline, mail::display, |event| {
        report.event(event, &mut ())
    });
    let outcome = report.end(built.map(|_| ()));
    // An input that could not be read whole (a typo, a damaged file) leaves the archive
    // already there as it is: the pages written get their links, and nothing is removed.
    let finished = match outcome {
        Ok(Outcome::Ok) => archive.finish(),
        _ => archive.finish_incomplete(),
    };
    let outcome = outcome?;
    let finished = finished?;
    if finished.removed > 0 {
        crate::warn!(
            "linkscan: {}: removed {} left by an earlier run that this archive does not have",
            dir.display(),
            words::count(finished.removed, "page")
        );
    }
    if matches!(outcome, Outcome::Ok) && !args.mail.no_progress {
        crate::warn!(
            "linkscan: {}: {} written; open {}",
            dir.display(),
            words::count(finished.pages, "page"),
            dir.join("index.html").display()
        );
    }
    Ok(outcome)
}
