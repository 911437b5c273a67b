//! `text/plain; format=flowed` (RFC 3676): the sender's paragraphs joined back before the
//! scan.
//!
//! A flowed part breaks each paragraph into lines of at most 78 characters with *soft*
//! line breaks: a line that ends in a space goes on in the next line. With `DelSp=yes` the
//! sender may break anywhere, in the middle of a word or a URL, and that space is not
//! text: `https://example.com/pa \r\nth` is `https://example.com/path`. Scanning the
//! lines as they stand would report the URL cut short, so a flowed part is unflowed
//! first ([`unflow`]) and its links are found, and their offsets counted, in the unflowed
//! text, as they are in the decoded text of a quoted-printable part.
//!
//! # Algorithm
//!
//! One pass over the lines (RFC 3676 sections 4.1 to 4.5), each line taken without its line
//! break (LF or CRLF):
//!
//! 1. *Quote depth*: the `>` characters at the start of the line are counted and removed.
//! 2. *Space-stuffing*: one space at the start of what is left is removed (a sender
//!    stuffs lines that start with a space, `>` or `From `).
//! 3. *Flowed or fixed*: a line whose content ends in a space is flowed, unless it is the
//!    signature separator `-- ` or the line before it (section 4.3: the separator ends
//!    what comes before it), or the next line has another quote depth
//!    (section 4.5, "quote-depth-wins": the line is then fixed), or it is the last line.
//!    A flowed line goes on in the next one; with `DelSp=yes` its last space is deleted
//!    first (section 4.2).
//! 4. A run of flowed lines and the fixed line that ends it is one paragraph, written as
//!    one line: its quote marks (`>` times the depth) and, when it is quoted and not
//!    empty, one space; then its content; then the line break of its last line. An
//!    unquoted paragraph whose content starts with `>` keeps one space before it (its
//!    stuffing), so that it never reads as a quote.
//!
//! # Invariants
//!
//! * Unflowing is linear in the text, and the result is never longer than the text plus
//!   one byte per line (the space of a quoted line written `>text`).
//! * Text that holds no flowed line, no stuffed line and no quote written without its
//!   space (`>text`) comes back unchanged, so a part wrongly labelled flowed reads as it
//!   would as fixed text. Quoted lines come back as `> text` (depth marks, one space).
//! * Every line break of the result is the line break of a fixed line of the input: no
//!   line of the result joins lines of different quote depths, and [`paragraphs`] reads the
//!   depth of each line of the result back.
//! * Only ASCII bytes (`>`, space, CR, LF) are looked at or removed, so the result is
//!   valid UTF-8 whatever the text's script.

use std::ops::Range;

/// The value of the `format` and `delsp` parameters of a `text/plain` Content-Type: `None`
/// for fixed text (no `format`, or any value but `flowed`), else `Some(delsp)`. Parameter
/// names and values are compared without regard to case, as MIME says.
///
/// ```
/// use linkscan_mail::flowed::format;
/// assert_eq!(format([("charset", "utf-8")]), None);
/// assert_eq!(format([("Format", "Flowed")]), Some(false));
/// assert_eq!(format([("format", "flowed"), ("DelSp", "Yes")]), Some(true));
/// assert_eq!(format([("format", "fixed"), ("delsp", "yes")]), None);
/// ```
pub fn format<'a>(parameters: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<bool> {
    let (mut flowed, mut delsp) = (false, false);
    for (name, value) in parameters {
        let value = value.trim();
        if name.trim().eq_ignore_ascii_case("format") {
            flowed = value.eq_ignore_ascii_case("flowed");
        } else if name.trim().eq_ignore_ascii_case("delsp") {
            delsp = value.eq_ignore_ascii_case("yes");
        }
    }
    flowed.then_some(delsp)
}

/// `text`, a flowed part's decoded text, unflowed: each paragraph on one line (see the
/// [module](self) documentation). `delsp` is the `DelSp=yes` parameter.
///
/// ```
/// use linkscan_mail::flowed::unflow;
/// let text = "see https://example.com/very/long/pa \r\nth/to/doc\r\n";
/// assert_eq!(unflow(text, true), "see https://example.com/very/long/path/to/doc\r\n");
/// assert_eq!(unflow("one \ntwo\n\n>quoted \n>line\n", false), "one two\n\n> quoted line\n");
/// ```
pub fn unflow(text: &str, delsp: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    // The open paragraph: its quote depth, and whether anything was written after its
    // quote marks.
    let mut open: Option<usize> = None;
    let mut line = Line::at(bytes, 0);
    while let Some(this) = line {
        let next = Line::at(bytes, this.end.end);
        let depth = this.depth;
        let content = &bytes[this.content.clone()];
        // The separator line ends what comes before it (section 4.3): the line before it
        // is fixed, or DelSp would glue `--` to its last word.
        let flowed = content.last() == Some(&b' ')
            && content != b"-- "
            && next
                .as_ref()
                .is_some_and(|next| next.depth == depth && &bytes[next.content.clone()] != b"-- ");
        if open.is_none() {
            for _ in 0..depth {
                out.push('>');
            }
            if depth > 0 {
                if !content.is_empty() || flowed {
                    out.push(' ');
                }
            } else if content.first() == Some(&b'>') {
                out.push(' ');
            }
            open = Some(depth);
        }
        // Only ASCII bytes (`>`, a space, CR, LF) lie at the ends of these ranges, so
        // each is a slice of `text` at character boundaries.
        if flowed {
            let end = this.content.end - usize::from(delsp);
            out.push_str(&text[this.content.start..end]);
        } else {
            out.push_str(&text[this.content.start..this.end.end]);
            open = None;
        }
        line = next;
    }
    out
}

/// One line of a flowed text, as RFC 3676 section 4.2 reads it: its quote depth, its
/// content (quote marks and stuffing removed) and its line break (empty for the last line
/// without one), as ranges of the text. The content ends where the break starts.
struct Line {
    depth: usize,
    content: Range<usize>,
    end: Range<usize>,
}

impl Line {
    /// The line that starts at `start`, if the text goes on there.
    fn at(text: &[u8], start: usize) -> Option<Line> {
        if start >= text.len() {
            return None;
        }
        let (body_end, end) = match memchr::memchr(b'\n', &text[start..]) {
            Some(i) => {
                let lf = start + i;
                let cr = lf > start && text[lf - 1] == b'\r';
                (lf - usize::from(cr), lf + 1)
            }
            None => (text.len(), text.len()),
        };
        let mut at = start;
        while at < body_end && text[at] == b'>' {
            at += 1;
        }
        let depth = at - start;
        if at < body_end && text[at] == b' ' {
            at += 1;
        }
        Some(Line {
            depth,
            content: at..body_end,
            end: body_end..end,
        })
    }
}

/// One line of an unflowed text (what [`unflow`] returns): its quote depth and where its
/// content lies in the text, past the quote marks and the one space after them (for an
/// unquoted line, past the stuffing space before a `>`). The line break is not part of
/// `content`; `line` is the whole line, its break included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paragraph {
    /// How many `>` the paragraph is quoted with (0: not quoted).
    pub depth: usize,
    /// The range of its content in the text.
    pub content: Range<usize>,
    /// The range of the whole line in the text, its line break included.
    pub line: Range<usize>,
}

/// The lines of `text`, an unflowed text as [`unflow`] returns it, each with its quote
/// depth: how an archive shows a flowed part's paragraphs at their depth.
///
/// ```
/// use linkscan_mail::flowed::{paragraphs, unflow};
/// let text = unflow("Hi \nthere\n>>quoted \n>>on\n >not quoted\n", false);
/// let read: Vec<(usize, &str)> =
///     paragraphs(&text).map(|p| (p.depth, &text[p.content])).collect();
/// assert_eq!(read, [(0, "Hi there"), (2, "quoted on"), (0, ">not quoted")]);
/// ```
pub fn paragraphs(text: &str) -> impl Iterator<Item = Paragraph> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let start = at;
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i + 1);
        at = end;
        let line = &text[start..end];
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let depth = body.bytes().take_while(|&b| b == b'>').count();
        let rest = &body[depth..];
        let skip = if depth > 0 {
            usize::from(rest.starts_with(' '))
        } else {
            usize::from(rest.starts_with(" >"))
        };
        Some(Paragraph {
            depth,
            content: start + depth + skip..start + body.len(),
            line: start..end,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The previous implementation, over `&str` lines: the reference of
    /// `unflow_equals_the_line_by_line_reading`.
    fn unflow_by_str(text: &str, delsp: bool) -> String {
        let mut out = String::with_capacity(text.len() + 16);
        // The open paragraph: its quote depth, and whether anything was written after its
        // quote marks.
        let mut open: Option<usize> = None;
        let mut lines = OldLines::new(text).peekable();
        while let Some(line) = lines.next() {
            let depth = line.depth;
            let content = line.content;
            let flowed = content.ends_with(' ')
                && content != "-- "
                && lines
                    .peek()
                    .is_some_and(|next| next.depth == depth && next.content != "-- ");
            if open.is_none() {
                for _ in 0..depth {
                    out.push('>');
                }
                if depth > 0 {
                    if !content.is_empty() || flowed {
                        out.push(' ');
                    }
                } else if content.starts_with('>') {
                    out.push(' ');
                }
                open = Some(depth);
            }
            if flowed {
                out.push_str(if delsp {
                    &content[..content.len() - 1]
                } else {
                    content
                });
            } else {
                out.push_str(content);
                out.push_str(line.end);
                open = None;
            }
        }
        out
    }

    /// One line of a flowed text: its quote depth, its content (quote marks and stuffing
    /// removed) and its line break (`""` for the last line without one).
    struct OldLine<'t> {
        depth: usize,
        content: &'t str,
        end: &'t str,
    }

    /// The lines of a flowed text, read as RFC 3676 section 4.2 says.
    struct OldLines<'t> {
        rest: &'t str,
    }

    impl<'t> OldLines<'t> {
        fn new(text: &'t str) -> OldLines<'t> {
            OldLines { rest: text }
        }
    }

    impl<'t> Iterator for OldLines<'t> {
        type Item = OldLine<'t>;

        fn next(&mut self) -> Option<OldLine<'t>> {
            if self.rest.is_empty() {
                return None;
            }
            let (line, end, rest) = match memchr::memchr(b'\n', self.rest.as_bytes()) {
                Some(i) => {
                    let cr = i > 0 && self.rest.as_bytes()[i - 1] == b'\r';
                    let start = if cr { i - 1 } else { i };
                    (
                        &self.rest[..start],
                        &self.rest[start..=i],
                        &self.rest[i + 1..],
                    )
                }
                None => (self.rest, "", ""),
            };
            self.rest = rest;
            let depth = line.bytes().take_while(|&b| b == b'>').count();
            let content = &line[depth..];
            let content = content.strip_prefix(' ').unwrap_or(content);
            Some(OldLine {
                depth,
                content,
                end,
            })
        }
    }

    /// Random texts of quote marks, spaces, CRs, LFs, signature separators and letters in
    /// two scripts: the byte-range reading gives the same text as the `&str` one.
    #[test]
    fn unflow_equals_the_line_by_line_reading() {
        let pieces = [">", " ", "\r", "\n", "\r\n", "a", "-- ", "é", ">> ", "--"];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 33) as usize % n
        };
        for _ in 0..50_000 {
            let text: String = (0..next(16)).map(|_| pieces[next(pieces.len())]).collect();
            for delsp in [false, true] {
                assert_eq!(
                    unflow(&text, delsp),
                    unflow_by_str(&text, delsp),
                    "{text:?} {delsp}"
                );
            }
        }
    }

    #[test]
    fn fixed_text_comes_back_unchanged() {
        for text in [
            "",
            "a",
            "a\n",
            "a\r\nb\r\n",
            "no space\nat the ends\n\n",
            "x\n\n\n",
        ] {
            assert_eq!(unflow(text, false), text);
            assert_eq!(unflow(text, true), text);
        }
    }

    #[test]
    fn the_last_line_keeps_its_space_without_delsp() {
        assert_eq!(unflow("end ", false), "end ");
        assert_eq!(unflow("end ", true), "end ");
        assert_eq!(unflow("a \nend \n", false), "a end \n");
    }

    #[test]
    fn paragraphs_read_back_the_depth_of_every_unflowed_line() {
        let text = ">a \n>b\n>>c\n\nd \ne\n>\n";
        let unflowed = unflow(text, false);
        assert_eq!(unflowed, "> a b\n>> c\n\nd e\n>\n");
        let depths: Vec<usize> = paragraphs(&unflowed).map(|p| p.depth).collect();
        assert_eq!(depths, [1, 2, 0, 0, 1]);
    }
}
