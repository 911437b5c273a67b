//! The state file of an archive folder, `.linkscan-archive`: what the pages were built
//! from, so that a later run can add the messages appended to its mbox since
//! ([`Archive::update`](super::Archive::update)) and write only the pages they change.
//!
//! # Format
//!
//! UTF-8 text, one record a line, fields separated by tabs (`⇥` below), each string field escaped
//! (`\\`, `\t`, `\n`, `\r`), lists written as their length and then their items:
//!
//! ```text
//! linkscan-archive-state 4
//! options ⇥ KEY
//! input ⇥ NAME ⇥ LENGTH ⇥ HASH ⇥ LAST-OFFSET ⇥ LAST-INDEX ⇥ LAST-SPLIT-WARNINGS   (or: input ⇥ -)
//! inputs ⇥ N, then N lines: NAME ⇥ MESSAGES ⇥ LINKS ⇥ WARNINGS
//! pages ⇥ N, then N lines: NAME ⇥ HASH           (every page but the messages')
//! rows ⇥ N, then N lines: the row of each message (see `write_row`)
//! end ⇥ HASH                                   (of every byte before this line)
//! ```
//!
//! `HASH`es are XXH64 ([`Hash64`](super::hash::Hash64), seed 0) in 16 hex digits: of the input's first
//! `LENGTH` bytes, of each page's bytes, and of the file itself. `LAST-OFFSET` is where
//! the input's last message starts (its `From ` line): an update splits the input again
//! from there, since bytes appended to a file can still belong to its last message.
//!
//! # Invariants
//!
//! * Bounded: a row per message of a few KiB at most (its fields are those the archive
//!   keeps, each capped), a line per other page; never a message's text. Message-IDs are
//!   kept as 64-bit hashes only, and with addresses obfuscated the inputs' names are
//!   too, so that the file names no address.
//! * Deterministic: the same pages built from the same input give the same file, byte for
//!   byte, whether by a full build or an update.
//! * Reading never follows a link, never waits on a FIFO and reads [`MAX_STATE`] bytes at
//!   most, of a plain file only.
//! * Reading never panics and never trusts the file: a wrong version, a bad field, a row
//!   out of order, a missing end or a hash that does not match is an error that says
//!   what, and the caller rebuilds.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::Path;

use super::hash::hash;
use super::rows::{Cited, Row, MAX_KEPT_LINKS, MAX_PARENT_KEYS};
use super::text::References;
use super::InputTotals;

/// The state file's name in the archive folder.
pub const STATE_FILE: &str = ".linkscan-archive";

/// The longest state file read: a row per message of a few KiB at most, for millions of
/// messages. A longer one (or one that is not a plain file: a link, a FIFO, a device) is
/// not read, and the archive is rebuilt.
pub(crate) const MAX_STATE: u64 = 1 << 32;

/// The first line: the format and its version. The version changes with the pages too,
/// not only with this file's rows: an update writes only the pages new messages change,
/// so pages written by an earlier build (version 1: attachments without their size;
/// version 2: rows without their list's name, pages without it; version 3: rows without
/// where their text lies, thread pages without the text) must make the next run rebuild
/// them all.
const MAGIC: &str = "linkscan-archive-state 4";

/// The one input a state can be updated from: a plain mbox file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Input {
    /// Its file name, as pages name it (obfuscated with the addresses).
    pub(crate) name: String,
    /// The bytes read.
    pub(crate) len: u64,
    /// The XXH64 of those bytes.
    pub(crate) hash: u64,
    /// Where its last message starts, that message's index (from 1), and the warnings the
    /// splitter gave it (counted in the input's totals).
    pub(crate) last_offset: u64,
    pub(crate) last_index: usize,
    pub(crate) last_split_warnings: usize,
}

/// What a state file holds.
#[derive(Debug, Default)]
pub(crate) struct State {
    pub(crate) options: String,
    pub(crate) input: Option<Input>,
    pub(crate) inputs: Vec<(String, InputTotals)>,
    pub(crate) pages: BTreeMap<String, u64>,
    pub(crate) rows: Vec<Row>,
}

fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('\\') => '\\',
            Some('t') => '\t',
            Some('n') => '\n',
            Some('r') => '\r',
            _ => return Err("a bad escape".into()),
        });
    }
    Ok(out)
}

/// Writes the fields of a row, tab-separated, without the line end.
fn write_row(r: &Row, out: &mut String) {
    let _ = write!(
        out,
        "{}\t{}\t{:016x}\t{}\t{}",
        r.global,
        r.index,
        r.thread,
        r.own
            .map_or_else(|| "-".to_string(), |h| format!("{h:016x}")),
        r.parents.len()
    );
    for p in &r.parents {
        let _ = write!(out, "\t{p:016x}");
    }
    for s in [&r.date, &r.from, &r.subject, &r.list] {
        out.push('\t');
        escape(s, out);
    }
    let refs = &r.references;
    let _ = write!(
        out,
        "\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        r.links,
        r.addresses,
        r.links_all,
        r.warnings,
        refs.own
            .map_or_else(|| "-".to_string(), |h| format!("{h:016x}")),
        u8::from(refs.more),
        refs.cited.len()
    );
    for c in &refs.cited {
        let _ = write!(out, "\t{c:016x}");
    }
    let _ = write!(out, "\t{}", r.cited.urls.len());
    for u in &r.cited.urls {
        out.push('\t');
        escape(u, out);
    }
    let _ = write!(
        out,
        "\t{}\t{:016x}\t{}\t{}",
        r.body_len, r.end_hash, r.text_start, r.text_len
    );
}

/// The fields of a line, read in turn.
struct Fields<'a> {
    it: std::str::Split<'a, char>,
}

impl<'a> Fields<'a> {
    fn new(line: &'a str) -> Fields<'a> {
        Fields {
            it: line.split('\t'),
        }
    }

    fn raw(&mut self) -> Result<&'a str, String> {
        self.it.next().ok_or_else(|| "a missing field".to_string())
    }

    fn string(&mut self) -> Result<String, String> {
        unescape(self.raw()?)
    }

    fn num<T: std::str::FromStr>(&mut self) -> Result<T, String> {
        let s = self.raw()?;
        s.parse().map_err(|_| format!("{s:?} is not a number"))
    }

    fn hash(&mut self) -> Result<u64, String> {
        let s = self.raw()?;
        if s.len() != 16 {
            return Err(format!("{s:?} is not a hash"));
        }
        u64::from_str_radix(s, 16).map_err(|_| format!("{s:?} is not a hash"))
    }

    fn opt_hash(&mut self) -> Result<Option<u64>, String> {
        match self.it.clone().next() {
            Some("-") => {
                self.it.next();
                Ok(None)
            }
            _ => self.hash().map(Some),
        }
    }

    /// A list's length, at most `max`.
    fn len(&mut self, max: usize) -> Result<usize, String> {
        let n: usize = self.num()?;
        if n > max {
            return Err(format!("a list of {n}, more than {max}"));
        }
        Ok(n)
    }

    fn end(&mut self) -> Result<(), String> {
        match self.it.next() {
            None => Ok(()),
            Some(_) => Err("a field too many".into()),
        }
    }
}

fn read_row(line: &str) -> Result<Row, String> {
    let mut f = Fields::new(line);
    let global = f.num()?;
    let index = f.num()?;
    let thread = f.hash()?;
    let own = f.opt_hash()?;
    let n = f.len(MAX_PARENT_KEYS + 1)?;
    let parents = (0..n).map(|_| f.hash()).collect::<Result<_, _>>()?;
    let date = f.string()?;
    let from = f.string()?;
    let subject = f.string()?;
    let list = f.string()?;
    let links = f.num()?;
    let addresses = f.num()?;
    let links_all = f.num()?;
    let warnings = f.num()?;
    let refs_own = f.opt_hash()?;
    let more = match f.raw()? {
        "0" => false,
        "1" => true,
        other => return Err(format!("{other:?} is not 0 or 1")),
    };
    let n = f.len(super::text::MAX_KEPT_REFERENCES)?;
    let cited = (0..n).map(|_| f.hash()).collect::<Result<_, _>>()?;
    let n = f.len(MAX_KEPT_LINKS)?;
    let urls = (0..n).map(|_| f.string()).collect::<Result<_, _>>()?;
    let body_len = f.num()?;
    let end_hash = f.hash()?;
    let text_start = f.num()?;
    let text_len = f.num()?;
    f.end()?;
    Ok(Row {
        global,
        index,
        thread,
        own,
        parents,
        date,
        from,
        subject,
        list,
        links,
        addresses,
        links_all,
        warnings,
        references: References {
            own: refs_own,
            cited,
            more,
        },
        cited: Cited { urls },
        body_len,
        end_hash,
        text_start,
        text_len,
    })
}

/// The next line, or an error naming `what` is missing.
fn next<'a>(lines: &mut std::str::Lines<'a>, what: &str) -> Result<&'a str, String> {
    lines
        .next()
        .ok_or_else(|| format!("a {what} line is missing"))
}

/// A line `WHAT\tN`: the count N.
fn header(lines: &mut std::str::Lines<'_>, what: &str) -> Result<usize, String> {
    let mut f = Fields::new(next(lines, what)?);
    if f.raw()? != what {
        return Err(format!("no {what} line"));
    }
    let n = f.num()?;
    f.end()?;
    Ok(n)
}

impl State {
    /// The file's text.
    pub(crate) fn to_text(&self) -> String {
        let mut out = String::with_capacity(64 + self.rows.len() * 256);
        out.push_str(MAGIC);
        out.push_str("\noptions\t");
        escape(&self.options, &mut out);
        out.push_str("\ninput\t");
        match &self.input {
            Some(i) => {
                escape(&i.name, &mut out);
                let _ = write!(
                    out,
                    "\t{}\t{:016x}\t{}\t{}\t{}",
                    i.len, i.hash, i.last_offset, i.last_index, i.last_split_warnings
                );
            }
            None => out.push('-'),
        }
        let _ = write!(out, "\ninputs\t{}\n", self.inputs.len());
        for (name, t) in &self.inputs {
            escape(name, &mut out);
            let _ = writeln!(out, "\t{}\t{}\t{}", t.messages, t.links, t.warnings);
        }
        let _ = writeln!(out, "pages\t{}", self.pages.len());
        for (name, h) in &self.pages {
            escape(name, &mut out);
            let _ = writeln!(out, "\t{h:016x}");
        }
        let _ = writeln!(out, "rows\t{}", self.rows.len());
        for r in &self.rows {
            write_row(r, &mut out);
            out.push('\n');
        }
        let h = hash(out.as_bytes());
        let _ = writeln!(out, "end\t{h:016x}");
        out
    }

    /// Reads the state of `dir`: `Ok(None)` when it has none, `Err` with what is wrong
    /// when it cannot be used.
    pub(crate) fn load(dir: &Path) -> Result<Option<State>, String> {
        let path = dir.join(STATE_FILE);
        let bytes = match super::files::read_plain(&path, MAX_STATE) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let text = String::from_utf8(bytes).map_err(|_| "it is not UTF-8".to_string())?;
        State::parse(&text).map(Some)
    }

    pub(crate) fn parse(text: &str) -> Result<State, String> {
        // The end line and the hash of all before it.
        let body_end = text
            .strip_suffix('\n')
            .and_then(|t| t.rfind('\n'))
            .map(|i| i + 1)
            .ok_or("it has no end")?;
        let (body, last) = text.split_at(body_end);
        let mut f = Fields::new(last.trim_end_matches('\n'));
        if f.raw()? != "end" {
            return Err("it is cut short (no end line)".into());
        }
        if f.hash()? != hash(body.as_bytes()) {
            return Err("its contents do not match its hash".into());
        }
        let mut lines = body.lines();
        if next(&mut lines, "first")? != MAGIC {
            return Err("it is not of this version".into());
        }
        let mut f = Fields::new(next(&mut lines, "options")?);
        if f.raw()? != "options" {
            return Err("no options line".into());
        }
        let options = f.string()?;
        f.end()?;
        let mut f = Fields::new(next(&mut lines, "input")?);
        if f.raw()? != "input" {
            return Err("no input line".into());
        }
        let input = if f.it.clone().next() == Some("-") {
            f.raw()?;
            None
        } else {
            Some(Input {
                name: f.string()?,
                len: f.num()?,
                hash: f.hash()?,
                last_offset: f.num()?,
                last_index: f.num()?,
                last_split_warnings: f.num()?,
            })
        };
        f.end()?;
        let mut state = State {
            options,
            input,
            ..State::default()
        };
        // Counts are only trusted as far as there are lines: a bad count cannot ask for
        // memory.
        let n = header(&mut lines, "inputs")?;
        for _ in 0..n {
            let mut f = Fields::new(next(&mut lines, "input")?);
            let name = f.string()?;
            let totals = InputTotals {
                messages: f.num()?,
                links: f.num()?,
                warnings: f.num()?,
            };
            f.end()?;
            state.inputs.push((name, totals));
        }
        let n = header(&mut lines, "pages")?;
        for _ in 0..n {
            let mut f = Fields::new(next(&mut lines, "page")?);
            let name = f.string()?;
            let h = f.hash()?;
            f.end()?;
            if !super::files::is_page_name(&name)
                && !super::feeds::is_feed_name(&name)
                && name != "index.html"
            {
                return Err(format!("{name:?} is not a page of an archive"));
            }
            state.pages.insert(name, h);
        }
        let n = header(&mut lines, "rows")?;
        for k in 0..n {
            let row =
                read_row(next(&mut lines, "row")?).map_err(|e| format!("row {}: {e}", k + 1))?;
            if row.global != k + 1 {
                return Err(format!("row {} is numbered {}", k + 1, row.global));
            }
            if row.index == 0 || state.rows.last().is_some_and(|p| p.index > row.index) {
                return Err(format!("row {} is out of order", k + 1));
            }
            state.rows.push(row);
        }
        if lines.next().is_some() {
            return Err("it has lines after its rows".into());
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_and_read_back() {
        let mut out = String::new();
        escape("a\tb\\n\nc\r", &mut out);
        assert!(!out.contains(['\t', '\n', '\r']));
        assert_eq!(unescape(&out).unwrap(), "a\tb\\n\nc\r");
        assert!(unescape("x\\q").is_err());
    }

    /// The state of a build before attachments had their size (version 1), intact
    /// otherwise, is refused: its message pages lack the sizes, so the archive is rebuilt.
    #[test]
    fn a_state_of_version_1_is_refused() {
        let text = State::default().to_text();
        let (body, _) = text.rsplit_once("end\t").unwrap();
        let old = body.replacen("linkscan-archive-state 4", "linkscan-archive-state 1", 1);
        assert_ne!(old, body);
        let old = format!("{old}end\t{:016x}\n", hash(old.as_bytes()));
        assert!(State::parse(&text).is_ok());
        assert_eq!(
            State::parse(&old).err().as_deref(),
            Some("it is not of this version")
        );
    }

    /// A state reads back as written; every cut and every changed byte of it is an error,
    /// never a panic.
    #[test]
    fn a_damaged_state_is_an_error() {
        let mut state = State {
            options: "o\tp".into(),
            input: Some(Input {
                name: "list.mbox".into(),
                len: 10,
                hash: 7,
                last_offset: 0,
                last_index: 1,
                last_split_warnings: 0,
            }),
            inputs: vec![("list.mbox".into(), InputTotals::default())],
            ..State::default()
        };
        state.pages.insert("t00001.html".into(), 42);
        state.rows.push(Row {
            global: 1,
            index: 1,
            thread: 5,
            own: Some(6),
            parents: vec![1, 2],
            date: "Mon, 1 Jan 2024 10:00:00 +0000".into(),
            from: "A <a@example.com>".into(),
            subject: "s\tt".into(),
            list: "Atlas <atlas.example.org>".into(),
            links: 1,
            addresses: 0,
            links_all: 2,
            warnings: 0,
            references: References {
                own: Some(6),
                cited: vec![9],
                more: false,
            },
            cited: Cited {
                urls: vec!["https://example.com/".into()],
            },
            body_len: 100,
            end_hash: 3,
            text_start: 40,
            text_len: 50,
        });
        let text = state.to_text();
        let back = State::parse(&text).unwrap();
        assert_eq!(back.to_text(), text);
        for cut in 0..text.len() {
            assert!(State::parse(&text[..cut]).is_err(), "cut at {cut}");
        }
        let bytes = text.as_bytes();
        for at in 0..bytes.len() {
            let mut changed = bytes.to_vec();
            changed[at] ^= 0x01;
            if let Ok(changed) = std::str::from_utf8(&changed) {
                assert!(State::parse(changed).is_err(), "byte {at} changed");
            }
        }
    }
}
