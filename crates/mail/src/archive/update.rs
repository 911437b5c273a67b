//! The `--update` path: the messages appended to an mbox since the last run, added to its
//! archive with only the pages they change written.
//!
//! # Algorithm
//!
//! [`Archive::update`] reads the state file (`state`) of the folder and checks, before
//! anything is written, that it was built from the same options and from this one plain
//! mbox file, which still starts with the bytes it was built from (their XXH64) and whose
//! new messages are all within the size limit. It then drops the rows of the last
//! message of the last run (bytes appended to a file may still be part of it), splits
//! the input again from where that message starts with the splitter a build uses, and
//! writes the pages of the messages read; [`Archive::finish`] writes the other pages that
//! change, by their hashes. After a full build, [`Archive::read_source`] records the
//! input's length, hash and last message for the next update, if the input is still the
//! bytes it was when the build started ([`Archive::note_source`]).
//!
//! # Invariants
//!
//! * The folder an update leaves is the one a full build of the whole input makes, byte
//!   for byte, the state file included.
//! * Nothing is written when the answer is [`Updated::Rebuild`]; once the folder changes,
//!   it has no state file until it is whole again, so a run that stops halfway is
//!   rebuilt next time.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, Read, Seek};
use std::path::Path;

use crate::splitter::{unescape, MboxSplitter, Split};
use crate::{MailScanner, MboxWarning};

use super::files::{self, file_name, page_name};
use super::hash::Hash64;
use super::state::{Input, State, STATE_FILE};
use super::{Archive, Finished, Updated};

/// What an update starts from: the pages the last run wrote.
#[derive(Debug)]
pub(super) struct Before {
    /// The hashes of its pages other than the messages'.
    pub(super) pages: BTreeMap<String, u64>,
    /// The rows kept from it (the messages before its last one).
    pub(super) messages: usize,
}

impl Archive {
    /// Notes the length and hash of the source ([`Archive::source`]) as a build starts,
    /// once: [`Archive::read_source`] records the input only if it is still those bytes
    /// at the end, so that pages made from bytes rewritten since are never taken for
    /// those of the file.
    pub(super) fn note_source(&mut self) -> io::Result<()> {
        if self.source_start.is_some() {
            return Ok(());
        }
        let mut noted = None;
        if let Some((path, _)) = &self.source {
            if let Ok(mut file) = File::open(path) {
                if file.metadata()?.is_file() && is_plain_mbox(&mut file)? {
                    let len = file.metadata()?.len();
                    noted = hash_prefix(&mut file, len)?.map(|h| (len, h.finish()));
                }
            }
        }
        self.source_start = Some(noted);
        Ok(())
    }

    /// The state of the input of a full build ([`Archive::source`]), when it is one plain
    /// mbox file read whole: its length and hash, and where its last message starts. None
    /// otherwise, or when the file no longer holds the messages the archive has (it
    /// changed while being read: its length and hash are not those noted at the start).
    pub(super) fn read_source(&self) -> io::Result<Option<Input>> {
        let Some((path, _)) = &self.source else {
            return Ok(None);
        };
        let name = file_name(&path.to_string_lossy());
        if self.inputs.len() != 1 || self.inputs[0].0 != name {
            return Ok(None);
        }
        let Ok(mut file) = File::open(path) else {
            return Ok(None);
        };
        if !is_plain_mbox(&mut file)? {
            return Ok(None);
        }
        let len = file.metadata()?.len();
        let mut hasher = Hash64::new();
        let mut last = None;
        split_file(
            &mut file,
            0,
            len,
            self.max_message_size,
            &mut hasher,
            0,
            |split, _| {
                if let Split::Message(m) = &split {
                    last = Some((m.offset, m.index, m.warnings.len()));
                } else if let Split::Chunk(c) = &split {
                    match &mut last {
                        Some((offset, index, warnings)) if *offset == c.offset => {
                            *warnings += c.warnings.len();
                            let _ = index;
                        }
                        _ => last = Some((c.offset, c.index, c.warnings.len())),
                    }
                }
                Ok(())
            },
        )?;
        let Some((last_offset, last_index, last_split_warnings)) = last else {
            return Ok(None);
        };
        let hash = hasher.finish();
        if self.source_start != Some(Some((len, hash))) {
            return Ok(None);
        }
        let messages = self.inputs[0].1.messages;
        if last_index != messages || self.rows.last().map(|r| r.index) != Some(last_index) {
            return Ok(None);
        }
        Ok(Some(Input {
            name: self.style().said(&name),
            len,
            hash,
            last_offset,
            last_index,
            last_split_warnings,
        }))
    }

    /// Adds to the archive in `dir` the messages appended to `mbox` since the run that
    /// wrote it, and writes the pages they change: theirs, those of the messages whose
    /// links change (the previous message, the parents of replies, …), their threads and
    /// months, the front page and the links pages. The folder is then as a full build of
    /// the whole `mbox` makes it, byte for byte.
    ///
    /// The state file of `dir` ([`STATE_FILE`], written by every [`Archive::finish`])
    /// says what the pages were built from. When there is none, when it is damaged, when
    /// it was built from other options or from other inputs than this one plain mbox
    /// file (gzip, Maildir, several inputs: those are rebuilt), when `mbox` no longer
    /// starts with the bytes it was built from (rewritten, not appended to), or when a
    /// message to read is over the size limit (its pieces are cut where the reads of a
    /// build fall, which an update cannot reproduce), nothing is
    /// written and the answer is [`Updated::Rebuild`] with the reason: build the archive
    /// whole (the same `Archive`, which is still empty, can). The new messages are read
    /// on this thread, the last message of the last run again (bytes appended to a file
    /// may still be part of it).
    ///
    /// ```
    /// use linkscan_mail::archive::{Archive, Updated};
    /// use linkscan_mail::MailScanner;
    /// let dir = std::env::temp_dir().join(format!("linkscan-doc-update-{}", std::process::id()));
    /// let mbox = dir.with_extension("mbox");
    /// let one = "From a@example.com Mon Jan  1 00:00:00 2024\n\
    ///            Message-ID: <1@example.com>\nSubject: plans\n\nsee example.com\n\n";
    /// let two = "From b@example.com Mon Jan  1 00:00:00 2024\n\
    ///            Message-ID: <2@example.com>\nIn-Reply-To: <1@example.com>\n\
    ///            Subject: re: plans\n\nyes\n\n";
    /// std::fs::write(&mbox, one)?;
    /// let scanner = MailScanner::new();
    /// // The first run finds no state, and the archive is built whole.
    /// let mut archive = Archive::create(&dir)?.source(&mbox, &scanner);
    /// assert!(matches!(archive.update(&mbox, &scanner)?, Updated::Rebuild(_)));
    /// let file = std::io::BufReader::new(std::fs::File::open(&mbox)?);
    /// for m in linkscan_mail::MboxReader::new(file) {
    ///     archive.push(&mbox.to_string_lossy(), &scanner.scan(m?.bytes()))?;
    /// }
    /// archive.finish()?;
    /// drop(archive); // One archive at a time holds the folder.
    /// // A message is appended: the update reads it (and the last one again).
    /// std::fs::write(&mbox, format!("{one}{two}"))?;
    /// let mut archive = Archive::create(&dir)?;
    /// let Updated::Done { added, .. } = archive.update(&mbox, &scanner)? else {
    ///     panic!("not updated")
    /// };
    /// assert_eq!(added, 2);
    /// assert!(std::fs::read_to_string(dir.join("00001.html"))?.contains("00002.html"));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # std::fs::remove_file(&mbox)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn update(&mut self, mbox: impl AsRef<Path>, scanner: &MailScanner) -> io::Result<Updated> {
        let mut warnings = Vec::new();
        let updated = self.update_warning(mbox, scanner, |w| warnings.push(w))?;
        Ok(match updated {
            Updated::Done {
                added, finished, ..
            } => Updated::Done {
                added,
                finished,
                warnings,
            },
            rebuild => rebuild,
        })
    }

    /// [`Archive::update`], handing each warning to `warn` as it comes (so that none is
    /// kept): its answer's `warnings` are empty.
    pub fn update_warning(
        &mut self,
        mbox: impl AsRef<Path>,
        scanner: &MailScanner,
        mut warn: impl FnMut(String),
    ) -> io::Result<Updated> {
        let mbox = mbox.as_ref();
        self.source = Some((mbox.to_path_buf(), scanner.options_key()));
        let rebuild = |why: String| Ok(Updated::Rebuild(why));
        let state = match State::load(&self.dir) {
            Ok(Some(state)) => state,
            Ok(None) => return rebuild(format!("no {STATE_FILE} from an earlier run")),
            Err(e) => return rebuild(format!("{STATE_FILE} cannot be used: {e}")),
        };
        if state.options != self.options_key() {
            return rebuild("it was built with other options".into());
        }
        let name = file_name(&mbox.to_string_lossy());
        let Some(input) = state.input else {
            return rebuild(
                "it was not built from one plain mbox file (an update reads one, appended to)"
                    .into(),
            );
        };
        if input.name != self.style().said(&name) {
            return rebuild(format!("it was built from {:?}, not {name:?}", input.name));
        }
        let mut file = File::open(mbox)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", mbox.display())))?;
        if !is_plain_mbox(&mut file)? {
            return rebuild(format!(
                "{name} is not a plain mbox file (gzip, or CR line ends)"
            ));
        }
        let len = file.metadata()?.len();
        if len < input.len {
            return rebuild(format!(
                "{name} is shorter than when it was built: it was rewritten"
            ));
        }
        let hasher = hash_prefix(&mut file, input.len)?;
        let Some(mut hasher) = hasher.filter(|h| h.finish() == input.hash) else {
            return rebuild(format!(
                "{name} no longer starts with what was built: it was rewritten, not appended to"
            ));
        };
        let (Some((_, totals)), 1) = (state.inputs.first(), state.inputs.len()) else {
            return rebuild("its totals are not those of one input".into());
        };
        let mut totals = *totals;
        // Its values must hold together, and with the input: they are only as good as its
        // checksum, which anyone can compute again.
        if let Some(why) = inconsistent(&input, &state.rows, totals.messages, &mut file)? {
            return rebuild(format!("{STATE_FILE} cannot be used: {why}"));
        }
        if len == input.len {
            return Ok(Updated::Done {
                added: 0,
                finished: Finished {
                    pages: state.pages.len() + state.rows.len(),
                    written: 0,
                    removed: 0,
                },
                warnings: Vec::new(),
            });
        }
        // A message over the size limit is read in pieces cut where the reads of the
        // build fell, which an update, reading from elsewhere, cannot cut the same way.
        let mut pieces = false;
        split_file(
            &mut file,
            input.last_offset,
            len,
            self.max_message_size,
            &mut Hash64::new(),
            len,
            |split, _| {
                pieces |= matches!(split, Split::Chunk(_));
                Ok(())
            },
        )?;
        if pieces {
            return rebuild(format!(
                "a message to read is over the size limit of {} bytes, read in pieces that \
                 only a whole build cuts as it does",
                self.max_message_size
            ));
        }
        // The pages kept must be those the last run wrote: a plain file each (never read
        // through a link), none missing.
        let keep = state.rows.partition_point(|r| r.index < input.last_index);
        if let Some(row) = state.rows[..keep]
            .iter()
            .find(|r| !files::is_plain_longer(&self.dir.join(page_name(r.global)), r.body_len))
        {
            return rebuild(format!(
                "{} is not as the last run left it (missing, or not a plain file)",
                page_name(row.global)
            ));
        }
        // From here on the folder changes: without a state until it is whole again.
        fs::remove_file(self.dir.join(STATE_FILE))?;
        self.stale_state.call_once(|| {});
        let mut rows = state.rows;
        let keep = rows.partition_point(|r| r.index < input.last_index);
        let dropped = rows.split_off(keep);
        totals.messages -= usize::from(!dropped.is_empty()).min(totals.messages);
        totals.links -= dropped
            .iter()
            .map(|r| r.links_all)
            .sum::<usize>()
            .min(totals.links);
        let warned = input.last_split_warnings + dropped.iter().map(|r| r.warnings).sum::<usize>();
        totals.warnings -= warned.min(totals.warnings);
        self.rows = rows;
        self.before = Some(Before {
            pages: state.pages,
            messages: keep,
        });
        let display = mbox.to_string_lossy().into_owned();
        let mut added = 0;
        let mut last = (input.last_offset, input.last_index, 0);
        let base_index = input.last_index - 1;
        split_file(
            &mut file,
            input.last_offset,
            len,
            self.max_message_size,
            &mut hasher,
            input.len,
            |split, buf| {
                let (scanned, index, offset, first, split_warnings) = match &split {
                    Split::Message(m) => {
                        let bytes = &buf[m.range.clone()];
                        let scanned = if m.escaped {
                            scanner.scan(&unescape(bytes))
                        } else {
                            scanner.scan(bytes)
                        };
                        (scanned, m.index, m.offset, true, &m.warnings)
                    }
                    Split::Chunk(c) => {
                        let at = usize::try_from(c.start_in_message).unwrap_or(usize::MAX);
                        let scanned = scanner.scan_raw(&buf[c.range.clone()], at);
                        (scanned, c.index, c.offset, c.first, &c.warnings)
                    }
                };
                let index = base_index + index;
                let offset = input.last_offset + offset;
                let global = self.rows.len() + 1;
                let message = self.write_message(&display, index, global, &scanned)?;
                added += usize::from(first);
                totals.messages += usize::from(first);
                totals.links += scanned.link_count();
                totals.warnings += split_warnings.len() + scanned.warnings().len();
                let id = scanned
                    .message_id()
                    .map(|id| format!(" <{}>", super::short_message_id(id)))
                    .unwrap_or_default();
                for w in split_warnings
                    .iter()
                    .map(|w| in_file(w, input.last_offset).to_string())
                    .chain(scanned.warnings().iter().map(ToString::to_string))
                {
                    warn(format!("message {index}{id}: {w}"));
                }
                if last.0 == offset && !first {
                    last.2 += split_warnings.len();
                } else {
                    last = (offset, index, split_warnings.len());
                }
                self.add(message);
                Ok(())
            },
        )?;
        self.inputs = vec![(name.clone(), totals)];
        self.updated = Some(Input {
            name: self.style().said(&name),
            len,
            hash: hasher.finish(),
            last_offset: last.0,
            last_index: last.1,
            last_split_warnings: last.2,
        });
        let finished = self.finish()?;
        Ok(Updated::Done {
            added,
            finished,
            warnings: Vec::new(),
        })
    }
}

/// What does not hold together in the state of `input` (its rows, and the messages its
/// totals count) and the file it was built from, whose first `input.len` bytes are those
/// it was built from: `None` when all does.
fn inconsistent(
    input: &Input,
    rows: &[super::rows::Row],
    messages: usize,
    file: &mut File,
) -> io::Result<Option<String>> {
    if input.last_index == 0 || input.last_index != messages {
        return Ok(Some(format!(
            "its last message is numbered {} of {messages}",
            input.last_index
        )));
    }
    if rows.last().map(|r| r.index) != Some(input.last_index) {
        return Ok(Some("its last row is not its last message".into()));
    }
    if input.last_offset >= input.len {
        return Ok(Some(format!(
            "its last message starts at {}, past the {} bytes built",
            input.last_offset, input.len
        )));
    }
    // The last message starts with a `From ` line.
    let from = input.last_offset.saturating_sub(1);
    let mut head = Vec::new();
    file.seek(io::SeekFrom::Start(from))?;
    (&mut *file).take(6).read_to_end(&mut head)?;
    file.seek(io::SeekFrom::Start(0))?;
    let head = if input.last_offset == 0 {
        Some(&head[..])
    } else {
        head.strip_prefix(b"\n")
    };
    if !head.is_some_and(|h| h.starts_with(b"From ")) {
        return Ok(Some(format!(
            "no message starts at {}, where its last one does",
            input.last_offset
        )));
    }
    Ok(None)
}

/// `warning` of the splitter of an update, which reads the file from `from` on, with
/// its place in the file, as a full build gives it.
fn in_file(warning: &MboxWarning, from: u64) -> MboxWarning {
    match warning {
        MboxWarning::UnescapedFromLine { offset } => MboxWarning::UnescapedFromLine {
            offset: offset.saturating_add(from),
        },
        other => other.clone(),
    }
}

/// Whether `file` is read as it is by the mbox reader: not gzip, lines not ended by CR
/// alone (those are read through a decoder, which an update cannot resume).
fn is_plain_mbox(file: &mut File) -> io::Result<bool> {
    let mut head = Vec::new();
    file.seek(io::SeekFrom::Start(0))?;
    (&mut *file).take(64 << 10).read_to_end(&mut head)?;
    file.seek(io::SeekFrom::Start(0))?;
    Ok(!crate::is_gzip(&head) && !crate::has_cr_line_ends(&head))
}

/// The XXH64 of the first `len` bytes of `file`, read from its start, to go on with;
/// `None` when it has fewer.
fn hash_prefix(file: &mut File, len: u64) -> io::Result<Option<Hash64>> {
    file.seek(io::SeekFrom::Start(0))?;
    let mut hasher = Hash64::new();
    let mut reader = (&mut *file).take(len);
    let mut buf = vec![0; 1 << 20];
    let mut read = 0;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buf[..n]);
        read += n as u64;
    }
    Ok((read == len).then_some(hasher))
}

/// Splits `file[from..end]` into messages as the mbox reader does ([`MboxSplitter`], with
/// size limit `limit`), handing each to `each` with the buffer its ranges are in; the
/// bytes from `hash_from` on are added to `hasher`.
fn split_file(
    file: &mut File,
    from: u64,
    end: u64,
    limit: u64,
    hasher: &mut Hash64,
    hash_from: u64,
    mut each: impl FnMut(Split, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    const READ: usize = 1 << 20;
    file.seek(io::SeekFrom::Start(from))?;
    let mut reader = (&mut *file).take(end - from);
    let mut splitter = MboxSplitter::new(limit);
    let mut buf: Vec<u8> = Vec::new();
    let mut at = from;
    let mut out = Vec::new();
    loop {
        let have = buf.len();
        buf.resize(have + READ, 0);
        let n = loop {
            match reader.read(&mut buf[have..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        buf.truncate(have + n);
        let read = &buf[have..];
        let skip = usize::try_from(hash_from.saturating_sub(at)).unwrap_or(usize::MAX);
        if skip < read.len() {
            hasher.update(&read[skip..]);
        }
        at += n as u64;
        let at_end = n == 0;
        let consumed = splitter.split(&buf, at_end, &mut out);
        for split in out.drain(..) {
            each(split, &buf)?;
        }
        buf.drain(..consumed);
        if at_end {
            if at != end {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the file shrank while it was read",
                ));
            }
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MboxReader;

    fn message(n: usize) -> String {
        format!(
            "From a@example.com Mon Jan  1 00:00:00 2024\nMessage-ID: <{n}@example.com>\n\
             Subject: message {n}\n\nsee https://example.com/{n}\n\n"
        )
    }

    /// State values that do not hold together (an offset past the input's end, an index
    /// of 0, a last message that is not the last row), with a checksum that matches
    /// them: the update rebuilds, never panics, never fails.
    #[test]
    fn state_values_that_do_not_hold_together_are_rebuilt() {
        let dir = std::env::temp_dir().join(format!("linkscan-values-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let mbox = dir.join("list.mbox");
        let web = dir.join("web");
        let scanner = MailScanner::new();
        let damages: [fn(&mut Input); 4] = [
            |i| i.last_offset = i.len + 100,
            |i| i.last_index = 0,
            |i| i.last_index = 7,
            |i| i.last_offset = 3,
        ];
        for (k, damage) in damages.iter().enumerate() {
            let text: String = (1..=3).map(message).collect();
            fs::write(&mbox, &text).unwrap();
            let mut archive = Archive::create(&web).unwrap().source(&mbox, &scanner);
            for m in MboxReader::new(text.as_bytes()) {
                archive
                    .push("list.mbox", &scanner.scan(m.unwrap().bytes()))
                    .unwrap();
            }
            archive.finish().unwrap();
            drop(archive);
            let mut state = State::load(&web).unwrap().unwrap();
            damage(state.input.as_mut().unwrap());
            fs::write(web.join(STATE_FILE), state.to_text()).unwrap();
            fs::write(&mbox, format!("{text}{}", message(4))).unwrap();
            let updated = Archive::create(&web).unwrap().update(&mbox, &scanner);
            assert!(
                matches!(updated, Ok(Updated::Rebuild(_))),
                "damage {k}: {updated:?}"
            );
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
