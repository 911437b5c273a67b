//! The text of an HTML part, and the targets of its `<a href>` links.
//!
//! # Algorithm
//!
//! The part is tokenized with html5gum, a WHATWG-conformant HTML tokenizer: character
//! references are decoded as a browser decodes them, and the contents of `<script>`,
//! `<style>`, `<title>`, `<iframe>`, `<noembed>` and `<noscript>` are read as raw text
//! (naive state switching) and dropped, as is everything inside `<template>` and
//! `<noframes>`, comments and doctypes; `<xmp>` and `<plaintext>` are raw text that is
//! shown, as a browser shows it. No tree is built; the output is
//! what a reader sees, as plain text:
//!
//! * text runs are appended with each run of ASCII whitespace collapsed to one space
//!   (inside `<pre>`, `<textarea>` and `<listing>` it is kept as is);
//! * block-level elements (`p`, `div`, `li`, `tr`, headings, …) start and end on a new
//!   line, `br` is a line break, and table cells are separated by a space, so that the
//!   texts of neighbouring blocks never run together into one link;
//! * an `<a href="…">` element records its (decoded, trimmed) `href` and the byte range of
//!   its content in the text.
//!
//! # Bounded recursion in the tokenizer
//!
//! html5gum 0.9 reads a run of double-quoted attributes (`a="1" b="2" …`) with one nested
//! call per attribute: its states for a name, `=`, a quoted value and the space after it
//! call each other directly, and only return to its loop at any other byte. One tag of a
//! few thousand such attributes overflows a 2 MiB thread stack. Before tokenizing,
//! [`break_attribute_chains`] bounds that nesting: a small automaton over the bytes follows
//! every place where such a run could be going on (whatever the context, so it can only
//! over-count), and after the opening `"` of the [`MAX_CHAINED_ATTRIBUTES`]th value in a
//! row it inserts the character reference `&#xFDD0;`. A `&` in a quoted value sends the
//! tokenizer back to its loop, so no run is longer than that, and the nesting is at most
//! five calls per attribute of it whatever the input. The reference decodes to the
//! noncharacter U+FDD0, which is removed again from the text and the `href`s (also where
//! it landed in text or raw text instead of a value); input with no such run (all real
//! mail) is tokenized as it is.
//!
//! # Invariants
//!
//! The text is valid UTF-8 (the input is a `&str`), contains no tag or attribute, and every
//! anchor range is a range of character boundaries of the text, `start <= end` (an anchor
//! with no text, such as an image link, has `start == end`).

use std::borrow::Cow;

use html5gum::{DefaultEmitter, Token, Tokenizer};

/// The most double-quoted attributes in a row the tokenizer reads without returning to its
/// loop (see the [module](self) documentation).
pub const MAX_CHAINED_ATTRIBUTES: u32 = 16;

/// What is inserted to break a run of attributes, and the character it decodes to.
const BREAK: &[u8] = b"&#xFDD0;";
const BREAK_CHAR: char = '\u{FDD0}';

/// `html` with `&#xFDD0;` inserted wherever html5gum could nest deeper than
/// [`MAX_CHAINED_ATTRIBUTES`] attributes; borrowed when nothing was inserted.
///
/// The automaton has a state per tokenizer state of the nesting cycle, each holding the
/// most attributes of a run that can have led there (any state may also start a run
/// afresh, at 0): `A` after a value's closing quote, `B` in the white space after it, `C`
/// in an attribute name, `D` after its `=`, `E` in a double-quoted value. Only `D` to `E`
/// (an opening quote) counts an attribute; a `&` in `E` ends the run.
pub fn break_attribute_chains(html: &str) -> Cow<'_, str> {
    fn space(b: u8) -> bool {
        matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
    }
    fn step(n: &mut [u32; 5], b: u8) {
        let [a, bb, c, d, e] = *n;
        let ws = space(b);
        let name = !ws && !matches!(b, b'/' | b'>' | b'=');
        n[0] = if b == b'"' { e } else { 0 };
        n[1] = if ws { a.max(bb) } else { 0 };
        n[2] = if name { bb.max(c) } else { 0 };
        n[3] = match b {
            b'=' => c,
            _ if ws => d,
            _ => 0,
        };
        n[4] = match b {
            b'"' => d + 1,
            b'&' => 0,
            _ => e,
        };
    }
    let bytes = html.as_bytes();
    let mut n = [0u32; 5];
    let mut out: Option<Vec<u8>> = None;
    for (i, &b) in bytes.iter().enumerate() {
        step(&mut n, b);
        if let Some(out) = &mut out {
            out.push(b);
        }
        if n[4] >= MAX_CHAINED_ATTRIBUTES && b == b'"' {
            let out = out.get_or_insert_with(|| {
                let mut v = Vec::with_capacity(bytes.len() + bytes.len() / 8);
                v.extend_from_slice(&bytes[..=i]);
                v
            });
            for &x in BREAK {
                step(&mut n, x);
                out.push(x);
            }
        }
    }
    match out {
        // Only ASCII was inserted, after an ASCII byte: still UTF-8.
        Some(out) => Cow::Owned(String::from_utf8(out).expect("ASCII inserted after ASCII")),
        None => Cow::Borrowed(html),
    }
}

/// The visible text of an HTML document and its link targets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HtmlText {
    /// The text, as described in the [module](self) documentation.
    pub text: String,
    /// The `<a href>` elements, in document order.
    pub anchors: Vec<Anchor>,
}

/// An `<a href>` element: its target and where its content is in [`HtmlText::text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// The `href` attribute, character references decoded, surrounding whitespace removed.
    pub href: String,
    /// Byte offset of the element's content in the text.
    pub start: usize,
    /// Byte offset just past the element's content.
    pub end: usize,
}

/// Elements whose start and end break the line.
fn is_block(name: &[u8]) -> bool {
    matches!(
        name,
        b"address"
            | b"article"
            | b"aside"
            | b"blockquote"
            | b"body"
            | b"center"
            | b"dd"
            | b"details"
            | b"dialog"
            | b"dir"
            | b"div"
            | b"dl"
            | b"dt"
            | b"fieldset"
            | b"figcaption"
            | b"figure"
            | b"footer"
            | b"form"
            | b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"h6"
            | b"header"
            | b"hr"
            | b"html"
            | b"legend"
            | b"li"
            | b"listing"
            | b"main"
            | b"menu"
            | b"nav"
            | b"ol"
            | b"p"
            | b"plaintext"
            | b"pre"
            | b"section"
            | b"summary"
            | b"table"
            | b"tbody"
            | b"tfoot"
            | b"thead"
            | b"tr"
            | b"ul"
            | b"xmp"
    )
}

/// Elements whose text a browser does not show: those the tokenizer reads as raw text
/// (`script`, `style`, `iframe`, `noembed`, `noscript` as with scripting on, and `title`,
/// shown only as the window's title), and `noframes`. A `/` before the `>` of their start
/// tag changes nothing (`<script/>` still starts a script, as in a browser: the flag only
/// means something on void elements).
fn is_raw_hidden(name: &[u8]) -> bool {
    matches!(
        name,
        b"script"
            | b"style"
            | b"title"
            | b"iframe"
            | b"noembed"
            | b"noframe"
            | b"noframes"
            | b"noscript"
    )
}

/// Elements whose white space is kept; `xmp` and `plaintext` are also read as raw text
/// (their tags and references are shown as written), `textarea` as text with references.
fn is_preformatted(name: &[u8]) -> bool {
    matches!(
        name,
        b"pre" | b"textarea" | b"listing" | b"xmp" | b"plaintext"
    )
}

struct Builder {
    out: HtmlText,
    /// An anchor whose end tag has not been seen.
    open_anchor: Option<Anchor>,
    /// Depth of `<pre>`-like elements.
    pre: usize,
    /// Depth of `<template>`.
    template: usize,
    /// Inside a hidden raw-text element (its end tag ends it).
    hidden: Option<Vec<u8>>,
    /// [`BREAK`]s were inserted: their character (and their text, where the tokenizer
    /// did not decode it) is removed from text and `href`s.
    strip: bool,
}

/// `s` without what [`break_attribute_chains`] inserted.
fn unbroken(s: &str) -> Cow<'_, str> {
    let literal = std::str::from_utf8(BREAK).expect("ASCII");
    if s.contains(BREAK_CHAR) || s.contains(literal) {
        Cow::Owned(s.replace(literal, "").replace(BREAK_CHAR, ""))
    } else {
        Cow::Borrowed(s)
    }
}

impl Builder {
    fn ends_with_space(&self) -> bool {
        self.out
            .text
            .as_bytes()
            .last()
            .is_none_or(|b| b.is_ascii_whitespace())
    }

    fn newline(&mut self) {
        let text = &mut self.out.text;
        // Drop a trailing collapsed space before the line break.
        if text.ends_with(' ') && self.pre == 0 {
            text.pop();
        }
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
    }

    fn push_text(&mut self, s: &str) {
        let s = if self.strip {
            unbroken(s)
        } else {
            Cow::Borrowed(s)
        };
        let s = s.as_ref();
        if self.pre > 0 {
            self.out.text.push_str(s);
            return;
        }
        let mut space = self.ends_with_space();
        for c in s.chars() {
            if c.is_ascii_whitespace() {
                if !space {
                    self.out.text.push(' ');
                    space = true;
                }
            } else {
                self.out.text.push(c);
                space = false;
            }
        }
    }

    fn close_anchor(&mut self) {
        if let Some(mut anchor) = self.open_anchor.take() {
            // A collapsed space at the end is not part of the link text.
            let text = &self.out.text;
            let mut end = text.len();
            if end > anchor.start && text.as_bytes()[end - 1] == b' ' && self.pre == 0 {
                end -= 1;
            }
            anchor.end = end;
            self.out.anchors.push(anchor);
        }
    }

    fn start_tag(&mut self, name: &[u8], href: Option<&[u8]>) {
        if self.template > 0 {
            if name == b"template" {
                self.template += 1;
            }
            return;
        }
        match name {
            b"template" => self.template = 1,
            b"br" => {
                if self.out.text.ends_with(' ') && self.pre == 0 {
                    self.out.text.pop();
                }
                self.out.text.push('\n');
            }
            b"td" | b"th" => {
                if !self.ends_with_space() {
                    self.out.text.push(' ');
                }
            }
            b"a" => {
                self.close_anchor();
                if let Some(href) = href {
                    let href = String::from_utf8_lossy(href);
                    let href = if self.strip {
                        Cow::Owned(unbroken(&href).into_owned())
                    } else {
                        href
                    };
                    let href = href.trim_matches(|c: char| c.is_ascii_whitespace());
                    let start = self.out.text.len();
                    self.open_anchor = Some(Anchor {
                        href: href.to_string(),
                        start,
                        end: start,
                    });
                }
            }
            _ if is_raw_hidden(name) => self.hidden = Some(name.to_vec()),
            _ => {
                if is_block(name) {
                    self.newline();
                }
                if is_preformatted(name) {
                    self.pre += 1;
                }
            }
        }
    }

    fn end_tag(&mut self, name: &[u8]) {
        if self.template > 0 {
            if name == b"template" {
                self.template -= 1;
            }
            return;
        }
        if name == b"a" {
            self.close_anchor();
            return;
        }
        if is_preformatted(name) {
            self.pre = self.pre.saturating_sub(1);
        }
        if is_block(name) {
            self.newline();
        }
    }
}

/// The text and anchors of `html`; see the [module](self) documentation.
///
/// ```
/// use linkscan_mail::html_text;
/// let page = html_text("<p>Read <a href=' https://example.com/a?b=1&amp;c=2 '>the docs</a> \
///                       &amp; more</p><p>next</p><script>var x = 'hidden.example';</script>");
/// assert_eq!(page.text, "Read the docs & more\nnext\n");
/// assert_eq!(page.anchors[0].href, "https://example.com/a?b=1&c=2");
/// assert_eq!(&page.text[page.anchors[0].start..page.anchors[0].end], "the docs");
/// ```
pub fn html_text(html: &str) -> HtmlText {
    let broken = break_attribute_chains(html);
    let strip = matches!(broken, Cow::Owned(_));
    let html = broken.as_ref();
    let mut emitter = DefaultEmitter::<()>::default();
    emitter.naively_switch_states(true);
    let mut b = Builder {
        out: HtmlText {
            text: String::with_capacity(html.len() / 2),
            anchors: Vec::new(),
        },
        open_anchor: None,
        pre: 0,
        template: 0,
        hidden: None,
        strip,
    };
    for token in Tokenizer::new_with_emitter(html, emitter) {
        let Ok(token) = token;
        match token {
            Token::StartTag(tag) => {
                if b.hidden.is_some() {
                    continue;
                }
                let href = (tag.name.as_slice() == b"a")
                    .then(|| tag.attributes.get(b"href".as_slice()))
                    .flatten()
                    .map(|v| v.value.as_slice());
                b.start_tag(&tag.name, href);
            }
            Token::EndTag(tag) => {
                if let Some(hidden) = &b.hidden {
                    if *hidden == *tag.name {
                        b.hidden = None;
                    }
                    continue;
                }
                b.end_tag(&tag.name);
            }
            Token::String(s) => {
                if b.hidden.is_none() && b.template == 0 {
                    b.push_text(&String::from_utf8_lossy(&s.value));
                }
            }
            Token::Comment(_) | Token::Doctype(_) | Token::Error(_) => {}
        }
    }
    b.close_anchor();
    b.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_break_lines_and_whitespace_collapses() {
        let t = html_text("<div>a  \n b</div><div>example.com</div>x<br>y<table><tr><td>1</td><td>2</td></tr></table>");
        assert_eq!(t.text, "a b\nexample.com\nx\ny\n1 2\n");
        assert!(t.anchors.is_empty());
    }

    #[test]
    fn hidden_and_preformatted() {
        let t = html_text(
            "<head><title>T</title><style>a{}</style></head><body><pre>  x\n  y</pre>\
             <template><p>no</p></template><!-- c --><textarea>k  l</textarea></body>",
        );
        assert_eq!(t.text, "  x\n  y\nk  l\n");
    }

    #[test]
    fn anchors() {
        let t = html_text(
            "<a href=\"mailto:a@example.com\">write</a> <a href=x><img src=y></a> \
             <a name=top>no href</a><a href='https://example.com/&lt;'>unclosed",
        );
        assert_eq!(t.text, "write no hrefunclosed");
        assert_eq!(
            t.anchors,
            [
                Anchor {
                    href: "mailto:a@example.com".into(),
                    start: 0,
                    end: 5
                },
                Anchor {
                    href: "x".into(),
                    start: 6,
                    end: 6
                },
                Anchor {
                    href: "https://example.com/<".into(),
                    start: 13,
                    end: 21
                },
            ]
        );
    }

    /// Raw-text elements as a browser reads them: `<xmp>` shows its markup as text, a `/`
    /// before `>` does not end a script, and `<iframe>` content is not shown.
    #[test]
    fn raw_text_rules() {
        let t = html_text("<xmp><b>a.com</b>  &amp;</xmp><p>b.com</p>");
        assert_eq!(t.text, "<b>a.com</b>  &amp;\nb.com\n");
        let t = html_text("<script/>var u = 'evil.com';</script>shown.com <iframe>in.com</iframe>");
        assert_eq!(t.text, "shown.com ");
        let t = html_text("x<textarea/>  a  </textarea>y <plaintext>  <a href=x>z</a>");
        assert_eq!(t.text, "x  a  y\n  <a href=x>z</a>");
        assert!(t.anchors.is_empty());
    }

    /// One tag with many double-quoted attributes in a row: the tokenizer's nesting stays
    /// bounded (a thread of 256 KiB is enough for a tag of 200,000), and the text and the
    /// `href` come out as without the runs being broken.
    #[test]
    fn wide_tags_do_not_overflow_the_stack() {
        let attrs = " x=\"y\"".repeat(200_000);
        let html = format!(
            "<p{attrs}>before</p><a{attrs} href=\"https://example.com/\"{attrs}>link</a>\
             <p title=\"{attrs}\">after a=\"1\" b=\"2\"</p>"
        );
        let quoted = " a=\"1\"".repeat(100);
        let html = format!("{html}<div>{quoted}</div>");
        let t = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || html_text(&html))
            .unwrap()
            .join()
            .unwrap();
        let expected_text = format!(
            "before\nlink\nafter a=\"1\" b=\"2\"\n{}\n",
            quoted.trim_start()
        );
        assert!(
            t.text == expected_text,
            "{:?}",
            &t.text[..t.text.len().min(200)]
        );
        assert_eq!(t.anchors.len(), 1);
        assert_eq!(t.anchors[0].href, "https://example.com/");
        // The href as the attribute where the run is broken: the break is not in it.
        let fifteen = " x=\"y\"".repeat(MAX_CHAINED_ATTRIBUTES as usize - 1);
        let t = html_text(&format!("<a{fifteen} href=\"https://example.com/\">l</a>"));
        assert_eq!(t.anchors[0].href, "https://example.com/");
        let run = " x=\"y\"".repeat(100);
        let broken = break_attribute_chains(&run);
        assert_eq!(
            broken.matches("&#xFDD0;").count(),
            100 / MAX_CHAINED_ATTRIBUTES as usize
        );
        let plain = "<p a=\"1\" b=\"2\">x</p>";
        assert!(matches!(break_attribute_chains(plain), Cow::Borrowed(_)));
    }

    #[test]
    fn malformed_html_is_still_text() {
        let t = html_text("<p <b>bold</b> & <unclosed <a href=\"x");
        assert!(t.text.contains("bold"), "{t:?}");
        assert!(
            !t.text.contains('<') || t.text.contains("<unclosed"),
            "{t:?}"
        );
    }
}
