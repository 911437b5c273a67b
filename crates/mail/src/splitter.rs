//! Splitting an mbox archive held in large buffers into messages, without reading it line
//! by line or copying it: the messages are ranges of the buffer.
//!
//! # Algorithm
//!
//! The rules are those of [`MboxReader`](super::MboxReader) (see the [`mbox`](super::mbox)
//! module), which reads line by line; here only the lines that start with `From ` are
//! looked at, found with `memchr::memmem` (`From `, then the byte before it). Whether such a line separates
//! messages depends only on the line after it (a header field name then `:`, or another
//! `From ` line) and on whether a message is open, so each candidate is decided where it
//! stands, in one pass over the candidates. Lines before the first separator that are all
//! white space are skipped; other text there is a message of its own, with a warning.
//! mboxrd escapes (`>From ` → `From `) are undone later, by [`unescape`], only for the
//! messages that hold one: the same search sees the `From ` after `>`s at a line start,
//! and marks the message ([`SplitMessage::escaped`]), so that the others are not searched
//! again.
//!
//! The search for `From ` is the only pass over every byte. A caller that reads the
//! archive on several threads can run it where the bytes were just read, with
//! [`find_from`], and give the positions to [`MboxSplitter::split_found`], so that the
//! splitting thread touches only the lines around the candidates. The result is the same
//! as [`MboxSplitter::split`]'s, whose own search finds the same positions.
//!
//! # Streaming and bounded memory
//!
//! [`MboxSplitter::split`] takes one buffer at a time (the whole archive, or the next
//! window of a decompressed stream) and returns the messages it completes and how many
//! bytes it consumed; the caller keeps the rest and presents it again at the front of the
//! next buffer, followed by new data. A message is complete once the separator after it is
//! decided, which needs the start of the line after that separator. A message that grows
//! past the size limit is not kept whole: it is handed out as [`Split::Chunk`]s, cut just
//! after an ASCII space or control character (where no link can cross, see
//! [`linkscan::piece_end`]), to be scanned as raw text; so memory stays bounded by the buffer
//! whatever the message size.
//!
//! # Invariants
//!
//! The messages (index, offset, From_ line, bytes after [`unescape`], warnings) are exactly
//! those of [`MboxReader`](super::MboxReader) on the same archive, whatever the buffer
//! boundaries, for messages under the limit (the unit tests, `tests/splitter.rs`, check
//! this on both corpora and on generated archives). Every byte consumed belongs to exactly one message
//! or chunk, except white space before the first message.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use memchr::memmem;

use super::MboxWarning;
use linkscan::window;

/// A complete message: a range of the buffer passed to [`MboxSplitter::split`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMessage {
    /// Position in the archive, from 1.
    pub index: usize,
    /// Byte offset of the message's From_ line (or first line) in the archive.
    pub offset: u64,
    /// The From_ line without its line ending (empty for text before the first separator).
    pub from_line: String,
    /// The message, header and body, in the buffer (mboxrd escaping not yet undone).
    pub range: Range<usize>,
    /// Problems met while splitting.
    pub warnings: Vec<MboxWarning>,
    /// Whether the message may hold an mboxrd-escaped `From ` line (`>From `, `>>From `,
    /// … at a line start), found in the splitter's own search: when it is `false`,
    /// [`unescape`] would give the bytes back unchanged, and need not search them again.
    pub escaped: bool,
}

/// A piece of a message larger than the limit, to be scanned as raw text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageChunk {
    /// The message's position in the archive, from 1.
    pub index: usize,
    /// Byte offset of the message's From_ line (or first line) in the archive.
    pub offset: u64,
    /// Where the chunk starts in the message (its header and body, From_ line excluded).
    pub start_in_message: u64,
    /// The chunk in the buffer.
    pub range: Range<usize>,
    /// Whether this is the message's first chunk (the warnings come with it).
    pub first: bool,
    /// Problems met while splitting; with the first chunk, the size limit.
    pub warnings: Vec<MboxWarning>,
}

/// What [`MboxSplitter::split`] hands out.
///
/// Exhaustive on purpose (unlike the crate's other enums): every byte consumed is in a
/// message or in a chunk, and a caller that must not lose any handles both; a third kind
/// would be a breaking change that such a caller has to see at compile time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Split {
    /// A whole message.
    Message(SplitMessage),
    /// A piece of a message over the size limit.
    Chunk(MessageChunk),
}

/// The message being read when a buffer ends.
#[derive(Debug)]
struct Open {
    index: usize,
    offset: u64,
    from_line: String,
    warnings: Vec<MboxWarning>,
    /// Bytes of it already handed out as chunks (it is over the limit), if any.
    chunked: Option<u64>,
    /// An escaped `From ` line was seen in it.
    escaped: bool,
}

/// Splits an mbox archive presented in consecutive buffers; see the [module](self)
/// documentation.
#[derive(Debug)]
pub struct MboxSplitter {
    /// Archive offset of the first byte of the next buffer.
    offset: u64,
    count: usize,
    open: Option<Open>,
    /// Where the search for candidates resumes in the next buffer (everything before it
    /// was decided not to separate).
    searched: usize,
    /// Whether the last byte consumed was a line break (or none was consumed).
    line_start: bool,
    limit: u64,
}

const FROM: &[u8] = b"From ";

/// Adds to `out` every position in `bytes` where `From ` starts, plus `base`: what
/// [`MboxSplitter::split_found`] takes, for a buffer of which `bytes` is the part from
/// `base` on (positions that straddle two such parts are the caller's to find). Its
/// callers are the pipeline's readers (feature `parallel`).
#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
pub fn find_from(bytes: &[u8], base: usize, out: &mut Vec<usize>) {
    out.extend(from_finder().find_iter(bytes).map(|p| base + p));
}

/// The searcher for `From `, built once: every buffer and every escaped message is searched.
fn from_finder() -> &'static memmem::Finder<'static> {
    static FINDER: OnceLock<memmem::Finder<'static>> = OnceLock::new();
    FINDER.get_or_init(|| memmem::Finder::new(FROM))
}

/// Lines longer than this are not waited for to decide a separator: a `From ` line
/// without a line break, or a field name without `:`, that long does not separate.
pub const MAX_DECISION_LINE: usize = 1 << 20;

impl MboxSplitter {
    /// A splitter; messages larger than `limit` bytes are handed out as chunks.
    pub fn new(limit: u64) -> MboxSplitter {
        MboxSplitter {
            offset: 0,
            count: 0,
            open: None,
            searched: 0,
            line_start: true,
            limit: limit.max(1),
        }
    }

    /// Splits `buf`: the bytes not consumed by the previous call, then new data. `at_end`
    /// says no data follows. Appends what is complete to `out` and returns the number of
    /// bytes consumed from the front of `buf`; at the end, all of it.
    pub fn split(&mut self, buf: &[u8], at_end: bool, out: &mut Vec<Split>) -> usize {
        self.split_found(buf, None, at_end, out)
    }

    /// [`split`](Self::split), with the search for `From ` done by the caller: `found`
    /// holds every position in `buf` where `From ` starts, in increasing order, as
    /// [`find_from`] gives them (those before the bytes not consumed by the previous call
    /// may be left out); `None` searches here.
    pub fn split_found(
        &mut self,
        buf: &[u8],
        found: Option<&[usize]>,
        at_end: bool,
        out: &mut Vec<Split>,
    ) -> usize {
        let consumed = self.split_inner(buf, found, at_end, out);
        if consumed > 0 {
            self.line_start = buf[consumed - 1] == b'\n';
        }
        self.offset += consumed as u64;
        consumed
    }

    fn split_inner(
        &mut self,
        buf: &[u8],
        found: Option<&[usize]>,
        at_end: bool,
        out: &mut Vec<Split>,
    ) -> usize {
        let base = self.offset;
        // Start of the open message's bytes not yet handed out; where to search next.
        let mut pos = 0;
        let mut search = self.searched;
        self.searched = 0;
        if self.open.is_none() {
            // Skip the blank lines before the first message.
            let mut at = 0;
            while at < buf.len() && !buf[at..].starts_with(FROM) {
                let end = match memchr::memchr(b'\n', &buf[at..]) {
                    Some(i) => at + i + 1,
                    None if at_end => buf.len(),
                    None if buf.len() - at > MAX_DECISION_LINE => buf.len(),
                    None if buf[at..].iter().all(u8::is_ascii_whitespace)
                        || FROM.starts_with(&buf[at..]) =>
                    {
                        return at
                    }
                    None => buf.len(),
                };
                if !buf[at..end].iter().all(u8::is_ascii_whitespace) {
                    // Text before the first separator: a message of its own.
                    self.count += 1;
                    self.open = Some(Open {
                        index: self.count,
                        offset: base + at as u64,
                        from_line: String::new(),
                        warnings: vec![MboxWarning::TextBeforeFirstSeparator],
                        chunked: None,
                        escaped: false,
                    });
                    break;
                }
                at = end;
            }
            if self.open.is_none() && at < buf.len() {
                // A From line with nothing open: a separator whatever follows; wait for
                // its line break.
                if memchr::memchr(b'\n', &buf[at..]).is_none()
                    && !at_end
                    && buf.len() - at <= MAX_DECISION_LINE
                {
                    return at;
                }
            } else if self.open.is_none() {
                return buf.len();
            }
            pos = at;
            search = at;
        }
        let finder = from_finder();
        // The first `From ` at or after `at`.
        let next_from = |at: usize| match found {
            Some(found) => found.get(found.partition_point(|&p| p < at)).copied(),
            None => finder.find(&buf[at..]).map(|i| at + i),
        };
        loop {
            // The next `From ` at a line start. The ones after `>`s at a line start, passed
            // on the way, mark the open message as escaped (a run of `>` reaching back to
            // the start of the buffer counts too: the mark may only err towards searching).
            let mut candidate = None;
            let mut at = search;
            while let Some(p) = next_from(at) {
                let line_start = if p == 0 {
                    self.line_start
                } else {
                    buf[p - 1] == b'\n'
                };
                if line_start {
                    candidate = Some(p);
                    break;
                }
                let quotes = buf[..p].iter().rev().take_while(|&&b| b == b'>').count();
                if quotes > 0 && (quotes == p || buf[p - quotes - 1] == b'\n') {
                    if let Some(open) = self.open.as_mut() {
                        open.escaped = true;
                    }
                }
                at = p + 1;
            }
            let Some(p) = candidate else {
                search = buf.len().saturating_sub(FROM.len()).max(search);
                break;
            };
            // The From line, and the start of the line after it.
            let line_end = memchr::memchr(b'\n', &buf[p..]).map(|i| p + i + 1);
            let decision = match line_end {
                None if at_end || buf.len() - p > MAX_DECISION_LINE => Some(false),
                None => None,
                Some(e) if e == buf.len() && at_end => Some(false),
                Some(e) => header_start(&buf[e..], at_end || buf.len() - e > MAX_DECISION_LINE),
            };
            let separates = match decision {
                _ if self.open.is_none() => true,
                Some(d) => d,
                None => {
                    // Undecided until more data comes.
                    search = p;
                    break;
                }
            };
            if !separates {
                let open = self.open.as_mut().expect("a message is open");
                open.warnings.push(MboxWarning::UnescapedFromLine {
                    offset: base + p as u64,
                });
                search = p + 1;
                continue;
            }
            // Close the open message at `p`, open the next one.
            self.finish(buf, pos, p, out);
            let e = line_end.unwrap_or(buf.len());
            self.count += 1;
            self.open = Some(Open {
                index: self.count,
                offset: base + p as u64,
                from_line: String::from_utf8_lossy(trim_line_end(&buf[p..e])).into_owned(),
                warnings: Vec::new(),
                chunked: None,
                escaped: false,
            });
            pos = e;
            search = e;
        }
        if at_end {
            self.finish(buf, pos, buf.len(), out);
            return buf.len();
        }
        // The open message continues in the next buffer. Over the limit, hand out what
        // can be cut safely before the first undecided byte.
        if let Some(open) = self.open.as_mut() {
            let decided = search.max(pos);
            let held = (decided - pos) as u64 + open.chunked.unwrap_or(0);
            if held > self.limit {
                let cut = match window::last_cut(&buf[pos..decided]) {
                    Some(cut) => cut,
                    None => {
                        // No safe cut at all: cut at a character boundary, and say so.
                        open.warnings
                            .push(MboxWarning::CutWithoutWhiteSpace { len: decided - pos });
                        window::char_boundary_before(&buf[pos..decided], decided - pos)
                    }
                };
                if cut > 0 {
                    push_chunk(open, self.limit, buf, pos..pos + cut, out);
                    pos += cut;
                }
            }
        }
        self.searched = search.max(pos) - pos;
        pos
    }

    /// Hands out the open message, which ends at `end`.
    fn finish(&mut self, buf: &[u8], start: usize, end: usize, out: &mut Vec<Split>) {
        let Some(mut open) = self.open.take() else {
            return;
        };
        let held = (end - start) as u64 + open.chunked.unwrap_or(0);
        if held <= self.limit {
            out.push(Split::Message(SplitMessage {
                index: open.index,
                offset: open.offset,
                from_line: open.from_line,
                range: start..end,
                warnings: open.warnings,
                escaped: open.escaped,
            }));
            return;
        }
        if start < end || open.chunked.is_none() {
            push_chunk(&mut open, self.limit, buf, start..end, out);
        }
    }
}

/// The size of the chunks of an over-limit message.
pub const CHUNK: usize = 1 << 20;

/// Hands out `range` of an over-limit message as chunks of about [`CHUNK`] bytes, cut just
/// after an ASCII space or control character where there is one.
fn push_chunk(open: &mut Open, limit: u64, buf: &[u8], range: Range<usize>, out: &mut Vec<Split>) {
    let mut start = range.start;
    loop {
        let end = linkscan::piece_end(&buf[..range.end], start, CHUNK);
        let first = open.chunked.is_none();
        let start_in_message = open.chunked.unwrap_or(0);
        let mut warnings = std::mem::take(&mut open.warnings);
        if first {
            warnings.insert(0, MboxWarning::TooLarge { limit });
        }
        open.chunked = Some(start_in_message + (end - start) as u64);
        out.push(Split::Chunk(MessageChunk {
            index: open.index,
            offset: open.offset,
            start_in_message,
            range: start..end,
            first,
            warnings,
        }));
        start = end;
        if start >= range.end {
            return;
        }
    }
}

/// Whether `line` (the start of the line after a `From ` line) starts a header: `Some`
/// once the bytes say so, `None` when they do not yet (more data may come).
fn header_start(line: &[u8], at_end: bool) -> Option<bool> {
    let name_len = line
        .iter()
        .take_while(|&&b| (0x21..=0x7E).contains(&b) && b != b':')
        .count();
    if name_len < line.len() {
        if name_len > 0 && line[name_len] == b':' {
            return Some(true);
        }
        return Some(line.starts_with(FROM));
    }
    // Every byte so far could be a field name (or the start of `From `).
    if at_end {
        Some(false)
    } else {
        None
    }
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// `bytes` with mboxrd escaping undone: a line matching `^>+From ` loses one `>`.
/// Borrowed when there is nothing to undo. Only the occurrences of `From ` are looked at
/// (found with memmem), each checked back to its line start.
pub fn unescape(bytes: &[u8]) -> Cow<'_, [u8]> {
    let escaped_line_starts = from_finder().find_iter(bytes).filter_map(|p| {
        let quotes = bytes[..p].iter().rev().take_while(|&&b| b == b'>').count();
        let start = p - quotes;
        (quotes > 0 && (start == 0 || bytes[start - 1] == b'\n')).then_some(start)
    });
    let mut starts = escaped_line_starts.peekable();
    if starts.peek().is_none() {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    for s in starts {
        out.extend_from_slice(&bytes[at..s]);
        at = s + 1;
    }
    out.extend_from_slice(&bytes[at..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MboxReader;

    /// (index, offset, from_line, unescaped bytes, warnings) of each message.
    type Flat = (usize, u64, String, Vec<u8>, Vec<MboxWarning>);

    fn reference(mbox: &[u8]) -> Vec<Flat> {
        MboxReader::new(mbox)
            .map(|m| {
                let m = m.expect("in-memory reads cannot fail");
                (m.index, m.offset, m.from_line, m.bytes, m.warnings)
            })
            .collect()
    }

    /// Splits `mbox` fed `step` bytes at a time.
    fn split_in_steps(mbox: &[u8], step: usize) -> Vec<Flat> {
        let mut splitter = MboxSplitter::new(u64::MAX);
        let mut twin = MboxSplitter::new(u64::MAX);
        let mut buf = Vec::new();
        let mut fed = 0;
        let mut result = Vec::new();
        loop {
            let next = (fed + step).min(mbox.len());
            buf.extend_from_slice(&mbox[fed..next]);
            fed = next;
            let at_end = fed == mbox.len();
            let mut out = Vec::new();
            let consumed = splitter.split(&buf, at_end, &mut out);
            // The same with the positions of `From ` found beforehand, by a splitter that
            // has seen the same buffers.
            let mut found = Vec::new();
            find_from(&buf, 0, &mut found);
            let mut given = Vec::new();
            assert_eq!(
                twin.split_found(&buf, Some(&found), at_end, &mut given),
                consumed
            );
            assert_eq!(given, out, "split_found differs from split");
            for split in out {
                let Split::Message(m) = split else {
                    panic!("no limit, no chunks")
                };
                // Unescaped only where the splitter saw an escape: a missed one shows as a
                // difference from the line reader.
                let bytes = match m.escaped {
                    true => unescape(&buf[m.range.clone()]).into_owned(),
                    false => buf[m.range.clone()].to_vec(),
                };
                result.push((m.index, m.offset, m.from_line, bytes, m.warnings));
            }
            buf.drain(..consumed);
            if at_end {
                assert!(buf.is_empty());
                return result;
            }
        }
    }

    const SAMPLES: &[&[u8]] = &[
        b"From a Mon Jan  1 00:00:00 2024\r\nSubject: x\r\n\r\n>From a\r\n>>From b\r\n>Fromage\r\n\r\n\
          From b Mon Jan  1 00:00:00 2024\nX: y\n\nz",
        b"From a Mon Jan  1 00:00:00 2024\nSubject: x\n\nhello\nFrom my point of view\nbye\n",
        b"From a\nA: 1\n\nx\nFrom b\n",
        b"From a\nFrom b\nA: 1\n\nx\n",
        b"Subject: bare\n\nbody\nFrom a\nA: 1\n\n",
        b"",
        b"\n\n",
        b"  \n\t\nFrom a\nFrom b\nFrom c\n",
        b"From a\nA: 1\n\nFrom b",
        b"From a",
        b"\n  x\nFrom a\nB: 2\n\n>From q\nFrom z\n\nFrom y\nC:3\n",
        b"From \nFrom \n",
    ];

    #[test]
    fn equals_the_line_reader_at_every_buffer_size() {
        for sample in SAMPLES {
            let want = reference(sample);
            for step in 1..=sample.len().max(1) {
                assert_eq!(
                    split_in_steps(sample, step),
                    want,
                    "{:?} in steps of {step}",
                    String::from_utf8_lossy(sample)
                );
            }
        }
    }

    #[test]
    fn a_message_over_the_limit_comes_in_chunks_that_cover_it() {
        let body = "see example.com and more text here\n".repeat(1000);
        let mbox = format!("From a\nA: 1\n\n{body}From b\nB: 2\n\nsmall\n");
        let mut splitter = MboxSplitter::new(4096);
        let mut buf = Vec::new();
        let mut fed = 0;
        let mut chunks = Vec::new();
        let mut messages = Vec::new();
        while fed < mbox.len() {
            let next = (fed + 1000).min(mbox.len());
            buf.extend_from_slice(&mbox.as_bytes()[fed..next]);
            fed = next;
            let mut out = Vec::new();
            let consumed = splitter.split(&buf, fed == mbox.len(), &mut out);
            assert!(
                buf.len() - consumed <= 4096 + 2000,
                "held {}",
                buf.len() - consumed
            );
            for split in out {
                match split {
                    Split::Chunk(c) => {
                        let bytes = buf[c.range.clone()].to_vec();
                        chunks.push((c, bytes));
                    }
                    Split::Message(m) => messages.push((m.index, buf[m.range].to_vec())),
                }
            }
            buf.drain(..consumed);
        }
        let whole: Vec<u8> = chunks.iter().flat_map(|(_, b)| b.clone()).collect();
        assert_eq!(whole, format!("A: 1\n\n{body}").as_bytes());
        assert!(chunks[0].0.first);
        assert_eq!(
            chunks[0].0.warnings,
            [MboxWarning::TooLarge { limit: 4096 }]
        );
        assert!(chunks[1..].iter().all(|(c, _)| !c.first && c.index == 1));
        let mut at = 0;
        for (c, b) in &chunks {
            assert_eq!(c.start_in_message, at);
            at += b.len() as u64;
        }
        assert_eq!(messages, [(2, b"B: 2\n\nsmall\n".to_vec())]);
    }

    #[test]
    fn unescape_undoes_mboxrd_only_where_needed() {
        assert!(matches!(unescape(b"a\nFrom b\n"), Cow::Borrowed(_)));
        assert_eq!(
            unescape(b">From a\n>>From b\n> From c\n>Fromage\n").as_ref(),
            b"From a\n>From b\n> From c\n>Fromage\n"
        );
    }
}
