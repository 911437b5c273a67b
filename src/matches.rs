//! A link bound to the text it was found in ([`Match`]), and the iterator of them that
//! [`LinkFinder::links`](crate::LinkFinder::links) returns ([`Matches`]), in the model of
//! `regex::Match<'h>`.
//!
//! A [`Match`] is the offset-only [`Link`] plus the `&'t str` it was found in, so its
//! [`Match::as_str`] cannot be taken from the wrong text. It is made for free from each
//! link of the byte scan: [`Matches`] wraps [`Links`] and only pairs each link with the
//! text. Invariant: `link.range()` is a range of character boundaries of `text` (the
//! scanner never splits a UTF-8 sequence), so [`Match::as_str`] never panics. [`Link`] stays
//! the form for bytes and for storing ([`Match::link`], `Link::from`).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Range;

use crate::{Link, LinkKind, Links};

/// A link of a `&str`, bound to that text; see [`LinkFinder::links`](crate::LinkFinder::links).
///
/// ```
/// use linkscan::{Link, LinkFinder, LinkKind};
/// let text = "see example.com/αβγ or write to x@example.org";
/// let m = LinkFinder::new().links(text).next().unwrap();
/// assert_eq!(m.as_str(), "example.com/αβγ");
/// assert_eq!((m.start(), m.end()), (4, 22));
/// assert_eq!(m.range(), 4..22);
/// assert_eq!(m.as_str(), &text[m.range()]);
/// assert_eq!((m.kind(), m.has_scheme()), (LinkKind::Url, false));
/// assert_eq!(m.len(), 18);
/// // The offset-only form, to store or to use with the bytes API.
/// let link: Link = m.into();
/// assert_eq!(link, m.link());
/// assert_eq!(link.as_str(text), m.as_str());
/// ```
#[derive(Clone, Copy)]
pub struct Match<'t> {
    text: &'t str,
    link: Link,
}

impl<'t> Match<'t> {
    /// The link's text.
    #[inline]
    pub fn as_str(&self) -> &'t str {
        &self.text[self.link.range()]
    }

    /// Byte offset of the first byte of the link in the text.
    #[inline]
    pub fn start(&self) -> usize {
        self.link.start()
    }

    /// Byte offset just past the link.
    #[inline]
    pub fn end(&self) -> usize {
        self.link.end()
    }

    /// `start()..end()`.
    #[inline]
    pub fn range(&self) -> Range<usize> {
        self.link.range()
    }

    /// The length of the link in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.link.end() - self.link.start()
    }

    /// Whether the link is empty (never, for a detected link; here for the convention
    /// that a `len` comes with an `is_empty`).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// URL or email.
    #[inline]
    pub fn kind(&self) -> LinkKind {
        self.link.kind()
    }

    /// Whether the text spelled a scheme (see [`Link::has_scheme`]).
    #[inline]
    pub fn has_scheme(&self) -> bool {
        self.link.has_scheme()
    }

    /// The offset-only link, without the text (to store, or to compare with the results
    /// of [`LinkFinder::links_bytes`](crate::LinkFinder::links_bytes)).
    #[inline]
    pub fn link(&self) -> Link {
        self.link
    }
}

impl From<Match<'_>> for Link {
    #[inline]
    fn from(m: Match<'_>) -> Link {
        m.link
    }
}

/// Shows the link and its text, not the whole text it was found in.
impl fmt::Debug for Match<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Match")
            .field("start", &self.start())
            .field("end", &self.end())
            .field("kind", &self.kind())
            .field("has_scheme", &self.has_scheme())
            .field("text", &self.as_str())
            .finish()
    }
}

/// Two matches are equal when their links (offsets, kind, scheme) and their link texts are:
/// what [`Debug`](fmt::Debug) shows. The rest of the texts they were found in is not
/// compared.
impl PartialEq for Match<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.link == other.link && self.as_str() == other.as_str()
    }
}

impl Eq for Match<'_> {}

impl Hash for Match<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.link.hash(state);
        self.as_str().hash(state);
    }
}

/// An iterator over the links of one `&str`, each bound to it; see
/// [`LinkFinder::links`](crate::LinkFinder::links).
pub struct Matches<'f, 't> {
    links: Links<'f, 't>,
    text: &'t str,
}

impl<'f, 't> Matches<'f, 't> {
    #[inline]
    pub(crate) fn new(links: Links<'f, 't>, text: &'t str) -> Matches<'f, 't> {
        Matches { links, text }
    }
}

/// Shows the scan's options, not the text.
impl fmt::Debug for Matches<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Matches")
            .field("links", &self.links)
            .finish_non_exhaustive()
    }
}

impl<'t> Iterator for Matches<'_, 't> {
    type Item = Match<'t>;

    #[inline]
    fn next(&mut self) -> Option<Match<'t>> {
        let link = self.links.next()?;
        Some(Match {
            text: self.text,
            link,
        })
    }
}

impl std::iter::FusedIterator for Matches<'_, '_> {}
