//! The text of an HTML part, and the targets of its `<a href>` links.
//!
//! # Algorithm
//!
//! The part is tokenized with html5gum, a WHATWG-conformant HTML tokenizer: character
//! references are decoded as a browser decodes them, and the contents of `<script>`,
//! `<style>` and `<title>` are read as raw text (naive state switching) and dropped, as is
//! everything inside `<template>`, comments and doctypes. No tree is built; the output is
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
//! # Invariants
//!
//! The text is valid UTF-8 (the input is a `&str`), contains no tag or attribute, and every
//! anchor range is a range of character boundaries of the text, `start <= end` (an anchor
//! with no text, such as an image link, has `start == end`).

use html5gum::{DefaultEmitter, Token, Tokenizer};

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
            | b"pre"
            | b"section"
            | b"summary"
            | b"table"
            | b"tbody"
            | b"tfoot"
            | b"thead"
            | b"tr"
            | b"ul"
    )
}

/// Elements whose text is not shown, read as raw text by the tokenizer.
fn is_raw_hidden(name: &[u8]) -> bool {
    matches!(name, b"script" | b"style" | b"title" | b"xmp" | b"noembed")
}

fn is_preformatted(name: &[u8]) -> bool {
    matches!(name, b"pre" | b"textarea" | b"listing")
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

    fn start_tag(&mut self, name: &[u8], href: Option<&[u8]>, self_closing: bool) {
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
                    let href = href.trim_matches(|c: char| c.is_ascii_whitespace());
                    let start = self.out.text.len();
                    self.open_anchor = Some(Anchor {
                        href: href.to_string(),
                        start,
                        end: start,
                    });
                }
            }
            _ if is_raw_hidden(name) => {
                if !self_closing {
                    self.hidden = Some(name.to_vec());
                }
            }
            _ => {
                if is_block(name) {
                    self.newline();
                }
                if is_preformatted(name) && !self_closing {
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
/// use linkscan::mail::html_text;
/// let page = html_text("<p>Read <a href=' https://example.com/a?b=1&amp;c=2 '>the docs</a> \
///                       &amp; more</p><p>next</p><script>var x = 'hidden.example';</script>");
/// assert_eq!(page.text, "Read the docs & more\nnext\n");
/// assert_eq!(page.anchors[0].href, "https://example.com/a?b=1&c=2");
/// assert_eq!(&page.text[page.anchors[0].start..page.anchors[0].end], "the docs");
/// ```
pub fn html_text(html: &str) -> HtmlText {
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
                b.start_tag(&tag.name, href, tag.self_closing);
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
