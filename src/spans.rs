//! A text cut into links and the text between them ([`LinkFinder::spans`]): what every
//! linkifier needs, without the bookkeeping of offsets. (The links alone, each bound to its
//! text, are [`LinkFinder::links`].)
//!
//! Algorithm: one pass of [`LinkFinder::links_bytes`]; between the end of the last span and the
//! start of the next link, a non-link span is yielded first. Invariants: the spans of
//! [`LinkFinder::spans`] are non-empty, in order, and their texts concatenated are the
//! whole text; two non-link spans never follow each other. A [`Span`] holds its text
//! (`&'t str`), so its [`Span::as_str`] cannot be taken from the wrong text.

use std::ops::Range;

use crate::{Link, LinkFinder, LinkKind, Links};

/// A piece of a text: a link, or text between links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span<'t> {
    text: &'t str,
    start: usize,
    link: Option<Link>,
}

impl<'t> Span<'t> {
    /// The text of the span.
    pub fn as_str(&self) -> &'t str {
        self.text
    }

    /// Byte offset of the span in the whole text.
    pub fn start(&self) -> usize {
        self.start
    }

    /// Byte offset just past the span.
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }

    /// `start()..end()`.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end()
    }

    /// The link, when the span is one.
    pub fn link(&self) -> Option<Link> {
        self.link
    }

    /// URL or email, when the span is a link.
    pub fn kind(&self) -> Option<LinkKind> {
        self.link.map(|l| l.kind())
    }

    /// Whether the span is a link.
    pub fn is_link(&self) -> bool {
        self.link.is_some()
    }
}

/// The spans of a text; see [`LinkFinder::spans`].
#[derive(Debug)]
pub struct Spans<'f, 't> {
    links: Links<'f, 't>,
    text: &'t str,
    at: usize,
    next: Option<Link>,
}

impl<'t> Iterator for Spans<'_, 't> {
    type Item = Span<'t>;

    fn next(&mut self) -> Option<Span<'t>> {
        loop {
            let link = match self.next.take() {
                Some(link) => link,
                None => match self.links.next() {
                    Some(link) => link,
                    None if self.at < self.text.len() => {
                        let start = std::mem::replace(&mut self.at, self.text.len());
                        return Some(Span {
                            text: &self.text[start..],
                            start,
                            link: None,
                        });
                    }
                    None => return None,
                },
            };
            if link.start() > self.at {
                let start = std::mem::replace(&mut self.at, link.start());
                self.next = Some(link);
                return Some(Span {
                    text: &self.text[start..link.start()],
                    start,
                    link: None,
                });
            }
            self.at = link.end();
            if link.start() == link.end() {
                continue;
            }
            return Some(Span {
                text: link.as_str(self.text),
                start: link.start(),
                link: Some(link),
            });
        }
    }
}

impl LinkFinder {
    /// `text` cut into links and the text between them, in order; their texts
    /// concatenated are `text`.
    ///
    /// ```
    /// use linkscan::{LinkFinder, LinkKind};
    /// let text = "See example.com/a, or write to x@example.org.";
    /// let finder = LinkFinder::new();
    /// let spans: Vec<(&str, Option<LinkKind>)> =
    ///     finder.spans(text).map(|s| (s.as_str(), s.kind())).collect();
    /// assert_eq!(spans, [
    ///     ("See ", None),
    ///     ("example.com/a", Some(LinkKind::Url)),
    ///     (", or write to ", None),
    ///     ("x@example.org", Some(LinkKind::Email)),
    ///     (".", None),
    /// ]);
    /// // A linkifier in three lines.
    /// let html: String = finder.spans(text).map(|s| match s.kind() {
    ///     Some(_) => format!("<a href=\"https://{0}\">{0}</a>", s.as_str()),
    ///     None => s.as_str().to_string(),
    /// }).collect();
    /// assert!(html.starts_with("See <a href=\"https://example.com/a\">example.com/a</a>, or"));
    /// assert!(finder.spans("").next().is_none());
    /// ```
    pub fn spans<'f, 't>(&'f self, text: &'t str) -> Spans<'f, 't> {
        Spans {
            links: self.links_bytes(text.as_bytes()),
            text,
            at: 0,
            next: None,
        }
    }
}
