//! A detected link ([`Link`]) and its kind ([`LinkKind`]): the value the scanner produces,
//! offset-only, so that it fits bytes and can be stored. [`LinkFinder::links_bytes`]
//! yields it; [`LinkFinder::links`] pairs it with its `&str` (a [`Match`]).
//!
//! Invariant: `start <= end`, both byte offsets of the scanned text (or of a piece of it,
//! until [`Link::shifted`] moves the link into the whole text's coordinates).
//!
//! With the `serde` feature, both are `Serialize`/`Deserialize`: a kind as `"url"` or
//! `"email"`, a link as `{"start","end","kind","has_scheme"}`; deserializing refuses
//! `start > end`, so a deserialized link keeps the invariant.

use std::ops::Range;

#[cfg(doc)]
use crate::{LinkFinder, Match};

/// What a detected link is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum LinkKind {
    /// A URL (with or without a written scheme).
    Url,
    /// An email address (with or without a written `mailto:`).
    Email,
}

impl LinkKind {
    /// `"url"` or `"email"`.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkKind::Url => "url",
            LinkKind::Email => "email",
        }
    }
}

/// A detected link: a byte range of the scanned text, without the text (see [`Match`] for
/// a link bound to its `&str`).
///
/// With the `serde` feature:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use linkscan::{Link, LinkFinder};
/// let link = LinkFinder::new().links("see example.com").next().unwrap().link();
/// let json = serde_json::to_string(&link).unwrap();
/// assert_eq!(json, r#"{"start":4,"end":15,"kind":"url","has_scheme":false}"#);
/// assert_eq!(serde_json::from_str::<Link>(&json).unwrap(), link);
/// let reversed = r#"{"start":15,"end":4,"kind":"url","has_scheme":false}"#;
/// assert!(serde_json::from_str::<Link>(reversed).is_err());
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "LinkFields"))]
pub struct Link {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) kind: LinkKind,
    pub(crate) has_scheme: bool,
}

impl Link {
    /// Byte offset of the first byte of the link.
    #[inline]
    pub fn start(&self) -> usize {
        self.start
    }

    /// Byte offset just past the link.
    #[inline]
    pub fn end(&self) -> usize {
        self.end
    }

    /// `start()..end()`.
    #[inline]
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// URL or email.
    #[inline]
    pub fn kind(&self) -> LinkKind {
        self.kind
    }

    /// Whether the text spelled a scheme: `scheme://` for a URL (`http://`, `https://`, or
    /// another such as `ftp://`), `mailto:` for an email.
    #[inline]
    pub fn has_scheme(&self) -> bool {
        self.has_scheme
    }

    /// The same link `by` bytes further on (for a piece of a larger text).
    #[inline]
    #[cfg(feature = "parallel")]
    pub(crate) fn shifted(self, by: usize) -> Link {
        Link {
            start: self.start + by,
            end: self.end + by,
            ..self
        }
    }

    /// The link's text, given the text it was found in.
    ///
    /// # Panics
    /// If `text` is not the text (or a copy of it) that the link was found in.
    #[inline]
    pub fn as_str<'t>(&self, text: &'t str) -> &'t str {
        &text[self.range()]
    }
}

/// A link as deserialized, before its invariant is checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct LinkFields {
    start: usize,
    end: usize,
    kind: LinkKind,
    has_scheme: bool,
}

#[cfg(feature = "serde")]
impl TryFrom<LinkFields> for Link {
    type Error = String;

    fn try_from(f: LinkFields) -> Result<Link, String> {
        if f.start > f.end {
            return Err(format!(
                "a link's start ({}) is after its end ({})",
                f.start, f.end
            ));
        }
        Ok(Link {
            start: f.start,
            end: f.end,
            kind: f.kind,
            has_scheme: f.has_scheme,
        })
    }
}
