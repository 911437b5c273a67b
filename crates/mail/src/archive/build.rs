//! An archive built on the parallel [`pipeline`](crate::pipeline): the pages of the
//! messages written as they are scanned, as `linkscan linkify --mbox --out` and Python's
//! `build_archive` build one.
//!
//! # Algorithm
//!
//! [`Archive::build`] runs the pipeline with a render that writes each message's page on
//! the worker that scanned it ([`Archive::write_message`], which takes `&self`), so the
//! pages are written in parallel; the rows come back in archive order on the calling
//! thread, which hands each event of the run to the caller (for its progress and its
//! words) and keeps the rows and each input's totals. Once the run is over they are
//! added to the archive, whose [`Archive::finish`] then writes the pages that need every
//! message.
//!
//! # Invariants
//!
//! * The pages are those [`Archive::push`] writes for the same messages in the same
//!   order: numbered over all inputs, each named after its input (or Maildir file).
//! * A run that stops early (an error, or the caller) still adds what it wrote: the rows
//!   of the pages written and the totals of the inputs read to their end, so that
//!   [`Archive::finish`] links the pages there are.
//! * The archive splits what it reads again (an update) as the pipeline split it: it
//!   takes the pipeline's size limit.

use std::io;
use std::path::Path;

use crate::pipeline::{Event, Input, MessageInfo, Pipeline};
use crate::ScannedMessage;

use super::{Archive, InputTotals};

/// What [`Archive::build`] read: the totals of its messages, over all inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Built {
    /// Messages read (the pieces of a message over the size limit count once).
    pub messages: usize,
    /// Links found in them.
    pub links: usize,
    /// Warnings given.
    pub warnings: usize,
}

impl Archive {
    /// Writes the pages of the messages of `inputs`, read and scanned on `pipeline` (in
    /// parallel, on the global rayon pool), and adds them in archive order, each input
    /// with its totals; [`Archive::finish`] then writes the rest. `name` says how the
    /// pages name an input or a Maildir file from its path (they show the file name of
    /// what it gives: `|path| path.to_string_lossy().into_owned()` shows it as it is).
    ///
    /// `each` is given every event of the run in order, on this thread, without the
    /// messages' output (the rows the pages gave): the caller's progress and words. When
    /// it returns `Ok(false)`, the run stops; when it returns an error, the run stops and
    /// `build` returns the error, as it does the first error writing a page. Either way
    /// the pages written before are added, so that [`Archive::finish`] keeps them.
    ///
    /// The archive takes the pipeline's size limit ([`Pipeline::max_message_size`]): an
    /// update splits what it reads as the pipeline split the build's input.
    ///
    /// ```
    /// use linkscan_mail::archive::Archive;
    /// use linkscan_mail::pipeline::{Event, Input, Pipeline};
    /// use linkscan_mail::MailScanner;
    /// let dir = std::env::temp_dir().join(format!("linkscan-doc-build-{}", std::process::id()));
    /// let mbox = dir.with_extension("mbox");
    /// std::fs::write(&mbox, "From a@example.com Mon Jan  1 00:00:00 2024\n\
    ///                        Message-ID: <1@example.com>\nSubject: plans\n\nsee example.com\n")?;
    /// let pipeline = Pipeline::new(MailScanner::new());
    /// let mut archive = Archive::create(&dir)?.source(&mbox, pipeline.scanner());
    /// let name = |path: &std::path::Path| path.to_string_lossy().into_owned();
    /// let built = archive.build(&[Input::Path(mbox.clone())], &pipeline, name, |event| {
    ///     match event {
    ///         Event::Failed { error, .. } | Event::End { error: Some(error), .. } => Err(error),
    ///         _ => Ok(true),
    ///     }
    /// })?;
    /// assert_eq!((built.messages, built.links), (1, 1));
    /// let finished = archive.finish()?;
    /// assert!(dir.join("00001.html").exists() && finished.written == finished.pages);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # std::fs::remove_file(&mbox)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn build(
        &mut self,
        inputs: &[Input],
        pipeline: &Pipeline,
        name: fn(&Path) -> String,
        mut each: impl FnMut(Event<()>) -> io::Result<bool>,
    ) -> io::Result<Built> {
        self.max_message_size = pipeline.limit();
        self.note_source()?;
        let names: Vec<String> = inputs.iter().map(|input| name(input.path())).collect();
        let mut rows = Vec::new();
        let mut ended = Vec::new();
        let mut totals = InputTotals::default();
        let mut built = Built::default();
        let archive: &Archive = self;
        let render = |message: &MessageInfo<'_>, scanned: ScannedMessage| {
            let file = message.path.map(name);
            let file = file.as_deref().unwrap_or(&names[message.input]);
            archive.write_message(file, message.index, message.global, &scanned)
        };
        let run = pipeline.run(inputs, &render, |event| {
            let (event, row) = event.take_output();
            match &event {
                Event::Start { .. } => totals = InputTotals::default(),
                Event::Message(m) => {
                    totals.messages += usize::from(m.first);
                    totals.links += m.links;
                    totals.warnings += m.warnings.len();
                    built.messages += usize::from(m.first);
                    built.links += m.links;
                    built.warnings += m.warnings.len();
                }
                Event::End { input, .. } => ended.push((*input, totals)),
                _ => {}
            }
            let go_on = each(event)?;
            if let Some(row) = row {
                rows.push(row?);
            }
            Ok(go_on)
        });
        for row in rows {
            self.add(row);
        }
        for (input, totals) in ended {
            self.end_input(&names[input], totals);
        }
        run.map(|()| built)
    }
}
