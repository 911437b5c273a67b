//! JSON Lines records: read in batches on a reader thread, scanned in parallel, written in
//! order.
//!
//! # Algorithm
//!
//! [`batches`](super::batches) reads the input in batches of whole lines, cut into
//! chunks of a few hundred records that know their first record's number (for a count
//! and `redact`, which number only their problems, each chunk counts from 0 and the
//! problems are numbered in order as the chunks' outputs are taken); the chunks of a
//! batch are scanned on the rayon pool and their outputs written in order (`redact`'s
//! in one vectored write a batch). A chunk's
//! records are walked by [`Records`]: a record of one of the few shapes learned from the
//! chunk's lines ([`Shape`]: the same members in the same order, the same white space)
//! is read by comparing the bytes between its values and checking the values, its line
//! not cut first; any other line is cut at its line feed and its field found by
//! [`locate`]: first by the hand-written scanner of [`scan`], which takes the lines it can
//! check fully (nearly all) and leaves the others to `serde_json`, with the same result
//! either way ([`locate_by_serde`]: the line is read as a JSON object by a visitor
//! ([`Member`]) that keeps the raw text ([`RawValue`]) of the one member it looks for and
//! skips the others unparsed into values, the whole line still checked, each name of the
//! dotted path taken in turn). The field's value, a string, is decoded for the scan
//! (borrowed from the line when it has no escape; a run's escaped text is decoded onto
//! the joined texts), and its raw span in the line is what `redact` replaces: every
//! other byte of the line is written as it was read, and the field is searched for a
//! byte to escape only when its string had an escape or a replacement wrote one. The texts
//! of a chunk's records are scanned for links in one call of the finder ([`Joined`]), not
//! one call per record; `find` and `redact` join the run of records that the chunk's
//! first shape reads ([`Records::run`]) without making a [`Record`] of each.
//!
//! # Bounds
//!
//! A line longer than [`Limits::record`] is not held whole: its first bytes end a batch
//! alone, marked, and the rest follows in pieces ([`Piece::Rest`]); the record gets a
//! warning and is skipped (`find`) or written as it is, piece by piece (`redact`). So the
//! memory of a run is a few batches and at most one such record.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;
use std::io::{self, IoSlice, Read, Write};
use std::ops::Range;

use linkscan::__private::Kernel;
use rayon::prelude::*;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::batches::{for_each_piece, Chunk, Limits, Piece};
use super::joined::Joined;
use super::render::{Id, Of};
use super::scan;
use super::shape::Shape;
use super::{record_links, streamed, FindJob, Problems, RedactJob, Scanned, Spill, STREAMED};
use crate::flags::FieldPath;
use crate::render::Name;

/// The problem of a line longer than `limits` allow.
fn too_long(limits: Limits) -> String {
    format!("longer than {} MiB", limits.record >> 20)
}

/// What a record's field is.
#[derive(Debug)]
struct Located<'a> {
    /// Where the field's raw value (a JSON string) lies in the line.
    span: Range<usize>,
    /// Its text (UTF-8).
    text: Cow<'a, [u8]>,
}

/// Whether `line` (its line feed included) holds no record: empty or white space.
fn blank(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// The raw value at `path` in the JSON object `line`.
fn raw_at<'a>(line: &'a [u8], path: &FieldPath) -> Result<&'a RawValue, String> {
    let mut de = serde_json::Deserializer::from_slice(line);
    let mut found = Member(&path.names[0])
        .deserialize(&mut de)
        .and_then(|found| de.end().map(|()| found))
        .map_err(|e| format!("not a JSON object ({e})"))?;
    // Each name of the path in turn: `found` is the value of `path.names[i]`.
    let mut i = 0;
    loop {
        let Some(raw) = found else {
            return Err(format!("no field {:?}", path.names[..=i].join(".")));
        };
        let Some(next) = path.names.get(i + 1) else {
            return Ok(raw);
        };
        let mut de = serde_json::Deserializer::from_str(raw.get());
        found = Member(next).deserialize(&mut de).map_err(|_| {
            format!(
                "{:?} is {}, not an object",
                path.names[..=i].join("."),
                what(raw.get())
            )
        })?;
        i += 1;
    }
}

/// Finds the member `.0` of a JSON object, the raw text of its value (the last, if the
/// name is repeated), skipping the other members without keeping them.
struct Member<'n>(&'n str);

impl<'de> DeserializeSeed<'de> for Member<'_> {
    type Value = Option<&'de RawValue>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Member<'_> {
    type Value = Option<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(wanted) = map.next_key_seed(Key(self.0))? {
            if wanted {
                found = Some(map.next_value::<&'de RawValue>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// Whether a member's name is `.0` (escapes decoded).
struct Key<'n>(&'n str);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<bool, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for Key<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<bool, E> {
        Ok(name == self.0)
    }
}

/// What the JSON value `raw` is, for messages.
fn what(raw: &str) -> &'static str {
    match raw.as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'n') => "null",
        Some(b't' | b'f') => "a boolean",
        _ => "a number",
    }
}

/// The string field `path` of the record `line`: by the fast scanner ([`scan`]) when it
/// is sure, else by `serde_json` ([`locate_by_serde`]), which gives the same result on
/// the lines the scanner accepts. `utf8` says the line is known to be UTF-8.
fn locate<'a>(line: &'a [u8], path: &FieldPath, utf8: bool) -> Result<Located<'a>, String> {
    if let Some(found) = scan::find(line, &path.names, utf8) {
        if let Some(text) = scan::string_text(&found) {
            return Ok(Located {
                span: found.span,
                text,
            });
        }
    }
    locate_by_serde(line, path)
}

/// The most shapes a chunk's records are read by: a file whose records have optional
/// members has a few.
const SHAPES: usize = 4;

/// Lines that no shape reads before a shape is learned (tried) from the next such line: a
/// file of lines the scanner leaves to `serde_json` is not walked again for each.
const LEARN_AFTER: u32 = 8;

/// The bytes the shapes may compare in vain in a chunk before it gives them up, if that
/// is more than the bytes of the records they read: a failed read may have compared and
/// checked most of a line (layouts that differ only at their end, more layouts in turn
/// than [`SHAPES`]), and then the line is read again.
const GIVE_UP_AFTER: usize = 4096;

/// A record's field: where it lies and its text, or what is wrong with the record.
type Field<'a> = Result<Located<'a>, String>;

/// A record of a chunk, as [`Records`] gives it.
struct Record<'a> {
    /// Its number in the input.
    number: u64,
    /// Its line's span in the batch's bytes, its line feed included.
    line: Range<usize>,
    /// Its field, as [`locate`] gives it; `None` for a blank line.
    field: Option<Field<'a>>,
    /// Its `--id-field` value, as [`id_of`] gives it, when asked and the field was found.
    id: Option<Id>,
}

/// A record of [`Records::run`]: its number, its line's span in the batch's bytes, its
/// field's raw span in the line, its id when asked, and its field's string.
struct Run<'t> {
    number: u64,
    line: Range<usize>,
    span: Range<usize>,
    id: Option<Id>,
    /// The field's raw JSON string, its quotes included.
    raw: &'t [u8],
    /// Whether it has an escape (else its text is its raw bytes, which hold no byte
    /// that JSON escapes).
    escaped: bool,
}

impl Run<'_> {
    /// Whether the text is joined rather than scanned alone ([`Joined::fits`] of the
    /// bytes between the quotes, which a decoded text is not longer than).
    #[inline]
    fn fits(&self) -> bool {
        Joined::fits(&self.raw[1..self.raw.len() - 1])
    }

    /// Adds the text to `joined`, decoded there when it has an escape; whether it
    /// decodes (else `joined` is as it was).
    #[inline]
    fn join(&self, joined: &mut Joined) -> bool {
        let inner = &self.raw[1..self.raw.len() - 1];
        if self.escaped {
            joined.push_with(|bytes| scan::decode_into(self.raw, bytes))
        } else {
            joined.push(inner);
            true
        }
    }
}

/// The records of a chunk in order. A record of one of the shapes the chunk's records
/// have ([`Shape`]) is read by it, its line not cut first, its id too when the field and
/// the id are top-level members; any other line is cut and located as [`locate`] does,
/// and a shape is learned from it (when the scanner reads it) if none was tried yet, or
/// if [`LEARN_AFTER`] lines were not read by one since the last try. The shapes are
/// tried the last one to read a record first, and the one that read none for longest
/// goes when a fifth is learned ([`SHAPES`]), so that a file of one layout tries one. A
/// chunk whose shapes compare more bytes in vain than the records they read gives them
/// up ([`GIVE_UP_AFTER`]), so that no line is compared much more than about twice (three
/// times with [`Records::run`], which tries the first shape once more, uncounted).
/// Either way a record's field and id are the ones [`locate`] and [`id_of`] give.
struct Records<'a, 'p> {
    bytes: &'a [u8],
    at: usize,
    end: usize,
    number: u64,
    path: &'p FieldPath,
    id: Option<&'p FieldPath>,
    utf8: bool,
    shapes: Vec<Shape>,
    /// Lines not read by a shape since one was last learned.
    unread: u32,
    /// The bytes of the records the shapes read, and the bytes they compared in vain.
    read: usize,
    wasted: usize,
    /// Whether the shapes were given up.
    off: bool,
    spans: Vec<Range<usize>>,
}

impl<'a, 'p> Records<'a, 'p> {
    fn new(
        bytes: &'a [u8],
        chunk: &Chunk,
        path: &'p FieldPath,
        id: Option<&'p FieldPath>,
        utf8: bool,
    ) -> Self {
        Records {
            bytes,
            at: chunk.span.start,
            end: chunk.span.end,
            number: chunk.first,
            path,
            id,
            utf8,
            shapes: Vec::new(),
            unread: LEARN_AFTER,
            read: 0,
            wasted: 0,
            off: false,
            spans: Vec::new(),
        }
    }

    /// The record at the start of `rest` (its length, field and id), if one of the
    /// shapes reads it.
    fn read(&mut self, rest: &'a [u8]) -> Option<(usize, Field<'a>, Option<Id>)> {
        if self.off {
            return None;
        }
        let mut found = None;
        for (i, shape) in self.shapes.iter().enumerate() {
            match shape.try_read(rest) {
                Ok(read) => {
                    found = Some((i, read));
                    break;
                }
                Err(reached) => self.wasted += reached,
            }
        }
        let Some((i, read)) = found else {
            self.unread += 1;
            if self.wasted >= GIVE_UP_AFTER && self.wasted > self.read {
                self.off = true;
                self.shapes.clear();
            }
            return None;
        };
        self.read += read.len;
        // The shape that read it is tried first from now on.
        self.shapes[..=i].rotate_right(1);
        let line = &rest[..read.len];
        let found = scan::Found {
            raw: &line[read.span.clone()],
            span: read.span,
            escaped: read.escaped,
        };
        let located = match scan::string_text(&found) {
            Some(text) => Ok(Located {
                span: found.span,
                text,
            }),
            None => locate_by_serde(line, self.path),
        };
        let id = match self.id {
            Some(path) if located.is_ok() => Some(match (&path.names[..], read.id) {
                ([_], Some(span)) => id_at(line, span, path),
                // A shape learned with the id has no such member: neither has this line.
                ([_], None) => Id::missing(),
                // A nested id is not in the shape.
                _ => id_of(line, path),
            }),
            _ => None,
        };
        Some((read.len, located, id))
    }

    /// Reads on while the first shape reads the records with a string field (the usual
    /// run of a file of one layout): each is given to `each` with its number, its id
    /// (when asked) and its text, without the [`Record`] that [`Iterator::next`] makes,
    /// and is taken when `each` says so. Stops, with the record left to
    /// [`Iterator::next`], at one the first shape does not read, whose field is not a
    /// string, or that `each` does not take (then `each` did nothing with it: the
    /// scans do not take a string that does not decode, [`Run::join`]). The records
    /// given are those [`Iterator::next`] gives, with the same field and id: the same
    /// shape reads them with the same code ([`Records::read`]).
    fn run(&mut self, mut each: impl FnMut(Run<'_>) -> bool) {
        let Some(shape) = self.shapes.first() else {
            return;
        };
        if self.off {
            return;
        }
        while self.at < self.end {
            let rest = &self.bytes[self.at..self.end];
            let Ok(read) = shape.try_read(rest) else {
                return;
            };
            let line = &rest[..read.len];
            let raw = &line[read.span.clone()];
            // A string (the shape's field may be any value in other records).
            if raw.first() != Some(&b'"') {
                return;
            }
            let id = self.id.map(|path| match (&path.names[..], read.id) {
                ([_], Some(span)) => id_at(line, span, path),
                ([_], None) => Id::missing(),
                _ => id_of(line, path),
            });
            let run = Run {
                number: self.number,
                line: self.at..self.at + read.len,
                span: read.span,
                id,
                raw,
                escaped: read.escaped,
            };
            if !each(run) {
                return;
            }
            self.read += read.len;
            self.at += read.len;
            self.number += 1;
        }
    }

    /// Learns the shape of `line`, now and then (see [`Records`]).
    fn learn(&mut self, line: &[u8]) {
        if self.unread < LEARN_AFTER || !self.utf8 || self.off {
            return;
        }
        let [name] = &self.path.names[..] else {
            return;
        };
        let id = match self.id.map(|path| &path.names[..]) {
            None => None,
            Some([id]) => Some(id.as_str()),
            // The id is found by `id_of`.
            Some(_) => None,
        };
        self.unread = 0;
        if let Some(shape) = Shape::learn(line, name, id, &mut self.spans) {
            self.shapes.truncate(SHAPES - 1);
            self.shapes.insert(0, shape);
        }
    }
}

impl<'a> Iterator for Records<'a, '_> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Record<'a>> {
        if self.at == self.end {
            return None;
        }
        let number = self.number;
        self.number += 1;
        let start = self.at;
        let rest = &self.bytes[start..self.end];
        if let Some((len, field, id)) = self.read(rest) {
            self.at += len;
            return Some(Record {
                number,
                line: start..self.at,
                field: Some(field),
                id,
            });
        }
        let len = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let line = &rest[..len];
        self.at += len;
        let (field, id) = if blank(line) {
            (None, None)
        } else {
            let field = locate(line, self.path, self.utf8);
            let id = match self.id {
                Some(path) if field.is_ok() => Some(id_of(line, path)),
                _ => None,
            };
            if field.is_ok() {
                self.learn(line);
            }
            (Some(field), id)
        };
        Some(Record {
            number,
            line: start..self.at,
            field,
            id,
        })
    }
}

/// [`locate`] by `serde_json` alone: the reference, and the messages of bad records.
fn locate_by_serde<'a>(line: &'a [u8], path: &FieldPath) -> Result<Located<'a>, String> {
    let raw = raw_at(line, path)?;
    let value = raw.get();
    if !value.starts_with('"') {
        return Err(format!(
            "{:?} is {}, not a string",
            path.dotted,
            what(value)
        ));
    }
    // The raw value is a slice of `line` (borrowed by the parser).
    let start = (value.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
    let span = start..start + value.len();
    if line.get(span.clone()) != Some(value.as_bytes()) {
        return Err("a value not found in its line".to_owned());
    }
    let text = match serde_json::from_str::<&str>(value) {
        Ok(text) => Cow::Borrowed(text.as_bytes()),
        Err(_) => Cow::Owned(
            serde_json::from_str::<String>(value)
                .map_err(|e| format!("a bad string ({e})"))?
                .into_bytes(),
        ),
    };
    Ok(Located { span, text })
}

/// The `--id-field` value of the record `line`.
fn id_of(line: &[u8], path: &FieldPath) -> Id {
    match scan::field(line, &path.names) {
        Some((_, raw)) => id_of_raw(raw).unwrap_or_else(|| id_by_serde(line, path)),
        None => id_by_serde(line, path),
    }
}

/// The id at `path` of `line`, whose raw value the scanner found at `span`: as [`id_of`]
/// gives it.
fn id_at(line: &[u8], span: Range<usize>, path: &FieldPath) -> Id {
    std::str::from_utf8(&line[span])
        .ok()
        .and_then(id_of_raw)
        .unwrap_or_else(|| id_by_serde(line, path))
}

/// The id of the raw value `raw` when the scanner decodes it: not for a string whose
/// escapes do not decode.
fn id_of_raw(raw: &str) -> Option<Id> {
    if !raw.starts_with('"') {
        return Some(Id::json(raw));
    }
    scan::text(raw).map(|text| Id::string(&text))
}

/// [`id_of`] by `serde_json` alone.
fn id_by_serde(line: &[u8], path: &FieldPath) -> Id {
    match raw_at(line, path) {
        Ok(raw) => match serde_json::from_str::<Cow<'_, str>>(raw.get()) {
            Ok(text) => Id::string(&text),
            Err(_) => Id::json(raw.get()),
        },
        Err(_) => Id::missing(),
    }
}

/// `find --field` over the JSON Lines `reader` (named `name`): `emit` gets each chunk's
/// output in order, and says whether to go on.
pub(crate) fn find(
    reader: impl Read + Send,
    name: &Name,
    job: &FindJob<'_>,
    emit: &mut impl FnMut(&Scanned) -> io::Result<bool>,
) -> io::Result<()> {
    // A count needs the records' numbers for its problems alone: the reader does not
    // count the lines, the chunks' walks do, and their problems are numbered here.
    let limits = if job.layout.count {
        Limits::RUN.unnumbered()
    } else {
        Limits::RUN
    };
    // Unnumbered, the number of the next chunk's first line.
    let mut base = 0;
    for_each_piece(reader, limits, |piece| match piece {
        Piece::Batch(batch) => {
            // A chunk that holds a long record is scanned here in its turn, its output
            // written as it grows (a record of links alone makes some ten times its
            // size); the others on the pool, their outputs held until written in order.
            let streamed = |chunk: &Chunk| chunk.span.len() > STREAMED;
            let mut scanned: Vec<Option<Scanned>> = batch
                .chunks
                .par_iter()
                .map(|chunk| {
                    if streamed(chunk) {
                        return None;
                    }
                    // Without a spill the chunk's output is always there.
                    SCRATCH.with_borrow_mut(|scratch| {
                        find_chunk(batch.bytes(), chunk, name, job, scratch, None)
                    })
                })
                .collect();
            for (chunk, scanned) in batch.chunks.iter().zip(&mut scanned) {
                let go_on = match scanned {
                    Some(scanned) => {
                        if !limits.numbered {
                            scanned.rebase(base);
                            base += scanned.lines;
                        }
                        emit(scanned)?
                    }
                    None => {
                        let chunk = Chunk {
                            first: chunk.first + base,
                            span: chunk.span.clone(),
                        };
                        if !limits.numbered {
                            base += chunk.line_count(batch.bytes());
                        }
                        find_streamed(batch.bytes(), &chunk, name, job, emit)?
                    }
                };
                if !go_on {
                    return Ok(false);
                }
            }
            if let Some(record) = batch.long {
                let problem = too_long(limits);
                let scanned = Scanned {
                    problems: vec![(record + base, problem)],
                    ..Scanned::default()
                };
                if !limits.numbered {
                    base += 1;
                }
                return emit(&scanned);
            }
            Ok(true)
        }
        Piece::Rest(_) | Piece::Failed(_) => Ok(true),
    })
}

/// [`find_chunk`] of a chunk that holds a long record, on this thread, its output given
/// to `emit` in pieces ([`streamed`]): whether to go on.
fn find_streamed(
    bytes: &[u8],
    chunk: &Chunk,
    name: &Name,
    job: &FindJob<'_>,
    emit: &mut impl FnMut(&Scanned) -> io::Result<bool>,
) -> io::Result<bool> {
    streamed(emit, |spill| {
        SCRATCH.with_borrow_mut(|scratch| find_chunk(bytes, chunk, name, job, scratch, spill))
    })
}

/// The output of `find --field` for the records `chunk` of `bytes`, or `None` when
/// `spill` said to stop. The texts are joined ([`Joined`]) and scanned at once, but for
/// a long one, scanned alone in its turn (its output handed to `spill` as it grows), and
/// with `--checks`, which reads a record's text alone.
fn find_chunk(
    bytes: &[u8],
    chunk: &Chunk,
    name: &Name,
    job: &FindJob<'_>,
    scratch: &mut Scratch,
    mut spill: Spill<'_>,
) -> Option<Scanned> {
    let layout = &job.layout;
    let mut scanned = Scanned::default();
    let Scratch { joined, pending } = scratch;
    let utf8 = chunk_is_utf8(bytes, chunk);
    let flush =
        |joined: &mut Joined, pending: &mut Vec<(u64, Option<Id>)>, scanned: &mut Scanned| {
            if joined.is_empty() {
                return;
            }
            if layout.count {
                scanned.links += joined.count(layout.finder);
            } else {
                joined.links(layout.finder, |i, bytes, text, links| {
                    let (record, id) = &pending[i];
                    for link in links {
                        let out = &mut scanned.out;
                        let of = Of {
                            name,
                            record: *record,
                            id: id.as_ref(),
                        };
                        layout.link(out, of, bytes, text.start, link);
                    }
                    scanned.links += links.len();
                });
            }
            pending.clear();
        };
    let mut records = Records::new(bytes, chunk, job.field, job.id, utf8);
    loop {
        // The usual records, joined without a `Record` each.
        if layout.count || !layout.checks {
            records.run(|run| {
                if !run.fits() || !run.join(joined) {
                    return false;
                }
                if !layout.count {
                    pending.push((run.number, run.id));
                }
                true
            });
        }
        let Some(Record {
            number: record,
            field,
            id,
            ..
        }) = records.next()
        else {
            break;
        };
        let Some(field) = field else {
            continue;
        };
        match field {
            Ok(found) => {
                let text = &*found.text;
                if (layout.count || !layout.checks) && Joined::fits(text) {
                    joined.push(text);
                    // A count needs no record numbers.
                    if !layout.count {
                        pending.push((record, id));
                    }
                } else {
                    flush(joined, pending, &mut scanned);
                    let of = Of {
                        name,
                        record,
                        id: id.as_ref(),
                    };
                    // Nothing is joined now: the texts before were flushed.
                    if !record_links(layout, &mut scanned, of, text, &mut spill) {
                        return None;
                    }
                }
            }
            Err(problem) => scanned.problems.push((record, problem)),
        }
    }
    flush(joined, pending, &mut scanned);
    scanned.lines = records.number - chunk.first;
    Some(scanned)
}

thread_local! {
    /// The worker's buffers.
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// What a worker keeps from chunk to chunk, so that its buffers grow once.
#[derive(Default)]
struct Scratch {
    joined: Joined,
    /// The records of the joined texts, and their ids.
    pending: Vec<(u64, Option<Id>)>,
}

/// Whether the lines of `chunk` are all UTF-8: checked at once, rather than each field
/// and name on its own (then a line of the chunk that is not is checked alone).
fn chunk_is_utf8(bytes: &[u8], chunk: &Chunk) -> bool {
    simdutf8::basic::from_utf8(&bytes[chunk.span.clone()]).is_ok()
}

/// `redact --field` of the JSON Lines `reader` to `out`: each line as it is, but for the
/// field's string, written again (JSON-escaped) when it holds a link.
pub(crate) fn redact(
    reader: impl Read + Send,
    job: &RedactJob<'_>,
    problems: &mut Problems<'_>,
    out: &mut impl Write,
) -> io::Result<()> {
    // The records' numbers are for the problems alone: the reader does not count the
    // lines, the chunks' walks do, and their problems are numbered here.
    let limits = Limits::RUN.unnumbered();
    // The number of the next chunk's first line.
    let mut base = 0;
    for_each_piece(reader, limits, |piece| {
        match piece {
            Piece::Batch(batch) => {
                let scanned: Vec<Scanned> = batch
                    .chunks
                    .par_iter()
                    .map(|chunk| redact_chunk(batch.bytes(), chunk, job))
                    .collect();
                // The chunks' outputs in one vectored write, not copied into the
                // writer's buffer one by one; their problems reported first.
                for chunk in &scanned {
                    for (record, problem) in &chunk.problems {
                        problems.record(base + record, problem);
                    }
                    base += chunk.lines;
                }
                let mut outputs: Vec<IoSlice<'_>> = scanned
                    .iter()
                    .map(|chunk| IoSlice::new(&chunk.out))
                    .collect();
                write_all_vectored(out, &mut outputs)?;
                if let Some(record) = batch.long {
                    problems.record(base + record, &too_long(limits));
                    base += 1;
                    out.write_all(batch.bytes())?;
                }
            }
            Piece::Rest(bytes) => out.write_all(bytes)?,
            Piece::Failed(_) => {}
        }
        Ok(true)
    })
}

/// Writes all of `bufs`, in order, in as few calls as `out` takes them (the standard
/// library's `write_all_vectored` is not stable yet).
fn write_all_vectored(out: &mut impl Write, mut bufs: &mut [IoSlice<'_>]) -> io::Result<()> {
    IoSlice::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        match out.write_vectored(bufs) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut bufs, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A line of a chunk that `redact --field` writes once the joined texts are scanned.
enum Held {
    /// Written as it is.
    AsIs(Range<usize>),
    /// A line whose field, at `span` in it, is a joined text; `escaped` when the field's
    /// string has an escape (its text may then hold a byte that JSON escapes).
    Field {
        line: Range<usize>,
        span: Range<usize>,
        escaped: bool,
    },
}

/// The output of `redact --field` for the records `chunk` of `bytes`: each line as it
/// is, but for its field's text, redacted. The texts are joined ([`Joined`]) and scanned
/// at once, but for a long one, redacted alone in its turn.
fn redact_chunk(bytes: &[u8], chunk: &Chunk, job: &RedactJob<'_>) -> Scanned {
    REDACT_SCRATCH.with_borrow_mut(|scratch| redact_chunk_with(bytes, chunk, job, scratch))
}

thread_local! {
    /// The worker's buffers for `redact`.
    static REDACT_SCRATCH: RefCell<RedactScratch> = RefCell::default();
}

/// What a worker keeps from chunk to chunk for `redact`, so that its buffers grow once.
#[derive(Default)]
struct RedactScratch {
    joined: Joined,
    held: Vec<Held>,
    redacted: Vec<u8>,
}

/// [`redact_chunk`] with the worker's buffers.
fn redact_chunk_with(
    bytes: &[u8],
    chunk: &Chunk,
    job: &RedactJob<'_>,
    scratch: &mut RedactScratch,
) -> Scanned {
    let utf8 = chunk_is_utf8(bytes, chunk);
    // The output is about as long as the input: made once, not grown by doubling.
    let mut scanned = Scanned {
        out: Vec::with_capacity(chunk.span.len() + chunk.span.len() / 8),
        ..Scanned::default()
    };
    let RedactScratch {
        joined,
        held,
        redacted,
    } = scratch;
    let mut records = Records::new(bytes, chunk, job.field, None, utf8);
    loop {
        // The usual records, held without a `Record` each.
        records.run(|run| {
            if !run.fits() || !run.join(joined) {
                return false;
            }
            held.push(Held::Field {
                line: run.line,
                span: run.span,
                escaped: run.escaped,
            });
            true
        });
        let Some(Record {
            number: record,
            line: range,
            field,
            ..
        }) = records.next()
        else {
            break;
        };
        let line = &bytes[range.clone()];
        let Some(field) = field else {
            held.push(Held::AsIs(range));
            continue;
        };
        match field {
            Ok(found) if Joined::fits(&found.text) => {
                joined.push(&found.text);
                held.push(Held::Field {
                    line: range.clone(),
                    span: found.span,
                    // A borrowed text is the string's raw bytes: it has no escape.
                    escaped: matches!(found.text, Cow::Owned(_)),
                });
            }
            Ok(found) => {
                write_held(bytes, held, joined, job, &mut scanned.out);
                // A long text: its links replaced as they are found, not held (a text of
                // links alone would hold more in them than in its bytes).
                redacted.clear();
                let any = job.redact_to(&found.text, redacted);
                write_line(line, &found.span, any, redacted, &mut scanned.out);
            }
            Err(problem) => {
                scanned.problems.push((record, problem));
                held.push(Held::AsIs(range));
            }
        }
    }
    write_held(bytes, held, joined, job, &mut scanned.out);
    scanned.lines = records.number - chunk.first;
    scanned
}

/// Scans the joined texts and writes the held lines, in order, to `out`.
fn write_held(
    bytes: &[u8],
    held: &mut Vec<Held>,
    joined: &mut Joined,
    job: &RedactJob<'_>,
    out: &mut Vec<u8>,
) {
    let kernel = Kernel::detect();
    let mut lines = held.drain(..);
    joined.links(job.finder, |_, texts, text, links| {
        // The lines before this text's, written as they are; then its own.
        for line in lines.by_ref() {
            match line {
                Held::AsIs(range) => out.extend_from_slice(&bytes[range]),
                Held::Field {
                    line,
                    span,
                    escaped,
                } => {
                    let line = &bytes[line];
                    if links.is_empty() {
                        out.extend_from_slice(line);
                    } else {
                        // The text between the links holds a byte to escape only when
                        // the string had an escape.
                        write_field(line, &span, kernel, out, |out| {
                            job.replace(texts, text, links, out) || escaped
                        });
                    }
                    return;
                }
            }
        }
    });
    for line in lines {
        if let Held::AsIs(range) = line {
            out.extend_from_slice(&bytes[range]);
        }
    }
}

/// Appends `line` to `out`: as it is when its field has no link, else with the field's
/// string at `span` written again (JSON-escaped) as `redacted`.
fn write_line(line: &[u8], span: &Range<usize>, any: bool, redacted: &[u8], out: &mut Vec<u8>) {
    if any {
        write_field(line, span, Kernel::detect(), out, |out| {
            out.extend_from_slice(redacted);
            true
        });
    } else {
        out.extend_from_slice(line);
    }
}

/// Appends `line` to `out` with the field's string at `span` written again as the JSON
/// string of the text that `text` appends (UTF-8: the field's text and replacements).
/// `text` says whether what it wrote may hold a byte that JSON escapes (a quote, a
/// backslash, a control character: `serde_json` escapes only these); the text is then
/// searched for one with `kernel`, and escaped as `serde_json` escapes it when it has
/// one. The usual text is written in place, neither searched nor copied again.
fn write_field(
    line: &[u8],
    span: &Range<usize>,
    kernel: Kernel,
    out: &mut Vec<u8>,
    text: impl FnOnce(&mut Vec<u8>) -> bool,
) {
    out.extend_from_slice(&line[..span.start]);
    let quote = out.len();
    out.push(b'"');
    if text(out) && kernel.string_run_end(out, quote + 1) < out.len() {
        let raw = out.split_off(quote + 1);
        out.truncate(quote);
        let raw = String::from_utf8_lossy(&raw);
        serde_json::to_writer(&mut *out, raw.as_ref()).expect("writing to memory cannot fail");
    } else {
        out.push(b'"');
    }
    out.extend_from_slice(&line[span.end..]);
}

#[cfg(test)]
mod differential;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find::Format;
    use crate::records::{Layout, SPILL};

    fn path(dotted: &str) -> FieldPath {
        FieldPath::parse(dotted).unwrap()
    }

    #[test]
    fn a_long_record_is_found_in_pieces_as_it_is_whole() {
        let finder = linkscan::LinkFinder::new();
        let (field, id) = (path("text"), path("id"));
        let name = Name::new(std::ffi::OsStr::new("in.jsonl"));
        for (format, checks) in [(Format::Jsonl, false), (Format::Tsv, true)] {
            let job = FindJob {
                layout: Layout {
                    finder: &finder,
                    format,
                    count: false,
                    named: true,
                    checks,
                    color: false,
                    id: true,
                },
                field: &field,
                id: Some(&id),
            };
            // A record of 2 MiB of links between short ones, and a bad one after it.
            let long = "x.org a@b.org ".repeat(120_000);
            let bytes = format!(
                "{{\"id\": 1, \"text\": \"see y.org\"}}\n{{\"id\": 2, \"text\": \"{long}\"}}\n\
                 {{\"id\": 3}}\n{{\"id\": 4, \"text\": \"z.org\"}}\n"
            );
            let chunk = Chunk {
                first: 0,
                span: 0..bytes.len(),
            };
            let whole = SCRATCH
                .with_borrow_mut(|scratch| {
                    find_chunk(bytes.as_bytes(), &chunk, &name, &job, scratch, None)
                })
                .unwrap();
            assert_eq!(whole.links, 240_002);
            assert!(whole.out.len() > 4 * SPILL);
            // In pieces: the same bytes, links and problems, none much over the bound.
            let mut pieces = Vec::new();
            let go_on = find_streamed(bytes.as_bytes(), &chunk, &name, &job, &mut |piece| {
                pieces.push((piece.out.clone(), piece.links, piece.problems.clone()));
                Ok(true)
            });
            assert!(go_on.unwrap());
            assert!(pieces.len() > 4);
            assert!(pieces.iter().all(|(out, _, _)| out.len() < SPILL + 4096));
            let out: Vec<u8> = pieces.iter().flat_map(|p| p.0.iter().copied()).collect();
            assert_eq!(out, whole.out);
            assert_eq!(pieces.iter().map(|p| p.1).sum::<usize>(), whole.links);
            let problems: Vec<_> = pieces.iter().flat_map(|p| p.2.clone()).collect();
            assert_eq!(problems, whole.problems);
            // Told to stop after the first piece, no other piece comes.
            let mut n = 0;
            let go_on = find_streamed(bytes.as_bytes(), &chunk, &name, &job, &mut |_| {
                n += 1;
                Ok(false)
            });
            assert_eq!((go_on.unwrap(), n), (false, 1));
            // A write that fails is the error.
            let failed = find_streamed(bytes.as_bytes(), &chunk, &name, &job, &mut |_| {
                Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
            });
            assert_eq!(failed.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        }
    }

    #[test]
    fn a_long_text_is_redacted_as_its_links_say_one_by_one() {
        use linkscan_replace::{Replacer, Template};
        let finder = linkscan::LinkFinder::new();
        let replacer = Replacer::new(Template::parse("[{kind} {host}]").unwrap(), "");
        let field = path("text");
        let job = RedactJob {
            finder: &finder,
            replacer: &replacer,
            field: &field,
        };
        // Past the joined texts' bound, with links at its ends and an escape.
        let long = format!(
            "x.org {}\\u00e9 mail a@b.example {}https://b\u{fc}cher.de/(a)",
            "words and example.com, ".repeat(4000),
            "\\\"quoted\\\" ".repeat(10)
        );
        assert!(!Joined::fits(long.as_bytes()));
        let short = "see x.org and \\u00e9 a@b.example";
        let bytes = format!(
            "{{\"text\": \"{short}\"}}\n{{\"text\": \"{long}\", \"n\": 1}}\n{{\"text\": \"{short}\"}}\n"
        );
        let chunk = Chunk {
            first: 0,
            span: 0..bytes.len(),
        };
        let scanned = redact_chunk(bytes.as_bytes(), &chunk, &job);
        assert!(scanned.problems.is_empty());
        // Each line as its text redacted from the links the finder reports, one by one.
        let mut want = Vec::new();
        for line in bytes.split_inclusive('\n') {
            let located = locate(line.as_bytes(), &field, true).unwrap();
            let links: Vec<_> = finder.links_bytes(&located.text).collect();
            let mut redacted = Vec::new();
            job.replace(&located.text, 0..located.text.len(), &links, &mut redacted);
            write_line(
                line.as_bytes(),
                &located.span,
                !links.is_empty(),
                &redacted,
                &mut want,
            );
        }
        assert_eq!(
            String::from_utf8(scanned.out).unwrap(),
            String::from_utf8(want).unwrap()
        );
    }

    /// A writer that takes at most `step` bytes a call, of its first buffer only, and is
    /// interrupted every other call.
    struct Trickle {
        out: Vec<u8>,
        step: usize,
        calls: usize,
    }

    impl Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.calls += 1;
            if self.calls.is_multiple_of(2) {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(self.step);
            self.out.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_output_is_written_whole_and_in_order() {
        let outputs: [&[u8]; 5] = [b"", b"first line\n", b"", b"second\nthird\n", b"x"];
        for step in [1, 3, 100] {
            let mut out = Trickle {
                out: Vec::new(),
                step,
                calls: 0,
            };
            let mut bufs: Vec<IoSlice<'_>> = outputs.iter().map(|b| IoSlice::new(b)).collect();
            write_all_vectored(&mut out, &mut bufs).unwrap();
            assert_eq!(out.out, outputs.concat(), "{step}");
        }
        // A writer that takes nothing is an error, not a loop.
        let mut full: &mut [u8] = &mut [];
        let mut bufs = [IoSlice::new(b"x")];
        let err = write_all_vectored(&mut full, &mut bufs).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WriteZero);
    }

    #[test]
    fn a_redacted_field_is_written_as_serde_json_writes_it() {
        let line = br#"{"id": 1, "text": "old", "n": 2}"#;
        let span = 18..23;
        assert_eq!(&line[span.clone()], br#""old""#);
        for redacted in [
            "",
            "<URL> and <EMAIL>",
            "\u{e9}t\u{e9} <URL> \u{1f600} \u{7f}",
            "a \"quote\" and a \\ backslash",
            "tab\tline\ncr\r\u{1} \u{1f}",
            "/ <URL>",
        ] {
            let mut out = Vec::new();
            write_line(line, &span, true, redacted.as_bytes(), &mut out);
            let want = format!(
                "{{\"id\": 1, \"text\": {}, \"n\": 2}}",
                serde_json::to_string(redacted).unwrap()
            );
            assert_eq!(String::from_utf8(out).unwrap(), want, "{redacted:?}");
        }
        let mut out = Vec::new();
        write_line(line, &span, false, b"", &mut out);
        assert_eq!(out, line);
    }

    #[test]
    fn fields_are_found_by_their_raw_span() {
        let line = br#"{"id": 7, "meta": {"body": "see a\u00e9 x.org", "n": 1}, "text": "t"}"#;
        let found = locate(line, &path("meta.body"), false).unwrap();
        assert_eq!(&*found.text, "see a\u{e9} x.org".as_bytes());
        assert_eq!(&line[found.span], br#""see a\u00e9 x.org""#);
        let found = locate(line, &path("text"), true).unwrap();
        assert!(matches!(found.text, Cow::Borrowed(b"t")));
        for (field, problem) in [
            ("nope", "no field \"nope\""),
            ("id", "\"id\" is a number, not a string"),
            ("meta.n", "\"meta.n\" is a number, not a string"),
            ("id.x", "\"id\" is a number, not an object"),
            ("meta.x", "no field \"meta.x\""),
        ] {
            assert_eq!(
                locate(line, &path(field), true).err().as_deref(),
                Some(problem)
            );
        }
        assert!(locate(b"[1]", &path("text"), true)
            .unwrap_err()
            .starts_with("not a JSON object"));
        assert!(locate(b"{\"text\": \"a\"} x", &path("text"), true).is_err());
    }
}
