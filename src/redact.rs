//! Redaction: a text with each of its links replaced by what the caller writes for it
//! ([`LinkFinder::redact`] over `&str`, [`LinkFinder::redact_to`] over bytes into a
//! [`Write`]).
//!
//! Algorithm: one scan of the text ([`LinkFinder::links`] or
//! [`LinkFinder::links_bytes`], so the finder's kinds, TLD policy, reporting policy and
//! length limit decide what is a link); the text from the end of the last link to the
//! start of the next is copied as it is, and for each link the caller's `replace` writes
//! into a buffer that is emptied before each call, whose content then takes the link's
//! place.
//!
//! Invariants: every byte outside a link is kept, in order (the links do not overlap and
//! come in order, so the copied gaps tile the text between them); each link reported by
//! the finder is replaced exactly once; `replace` sees only an empty buffer, so it cannot
//! change what was written before. A text without a link is returned borrowed by
//! [`LinkFinder::redact`], with no copy.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::{Link, LinkFinder, Match};

impl LinkFinder {
    /// `text` with each link replaced by what `replace` writes for it into the `String` it
    /// is given (empty at each call); every other byte is kept. Borrowed when `text` has
    /// no link.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use linkscan::{LinkFinder, LinkKind};
    ///
    /// let finder = LinkFinder::new();
    /// let text = "Write to σωκράτης@example.gr or see https://ja.wikipedia.org/wiki/東京都.";
    /// let redacted = finder.redact(text, |link, out| {
    ///     out.push_str(if link.kind() == LinkKind::Email { "<EMAIL>" } else { "<URL>" })
    /// });
    /// assert_eq!(redacted, "Write to <EMAIL> or see <URL>.");
    ///
    /// let plain = finder.redact("no link here", |_, _| unreachable!());
    /// assert!(matches!(plain, Cow::Borrowed("no link here")));
    /// ```
    pub fn redact<'t>(
        &self,
        text: &'t str,
        mut replace: impl FnMut(&Match<'_>, &mut String),
    ) -> Cow<'t, str> {
        let mut links = self.links(text);
        let Some(first) = links.next() else {
            return Cow::Borrowed(text);
        };
        let mut out = String::with_capacity(text.len());
        let mut scratch = String::new();
        let mut at = 0;
        for link in std::iter::once(first).chain(links) {
            out.push_str(&text[at..link.start()]);
            scratch.clear();
            replace(&link, &mut scratch);
            out.push_str(&scratch);
            at = link.end();
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// Writes `text`, which need not be valid UTF-8, to `out` with each link replaced by
    /// what `replace` writes for it into the `Vec` it is given (empty at each call);
    /// every other byte is kept. `replace` gets the offset-only [`Link`] (as
    /// [`links_bytes`](Self::links_bytes) yields it) and the link's bytes. Returns the
    /// number of links replaced. `out` is written in large pieces and small ones alike:
    /// give it a buffered writer.
    ///
    /// ```
    /// use linkscan::LinkFinder;
    ///
    /// let mut out = Vec::new();
    /// let text = b"old \xFFexample.com\xFE and info@\xE4\xBE\x8B\xE3\x81\x88.jp";
    /// let n = LinkFinder::new()
    ///     .redact_to(text, &mut out, |link, bytes, out| {
    ///         out.extend_from_slice(format!("[{} {}]", link.kind().as_str(), bytes.len()).as_bytes())
    ///     })
    ///     .unwrap();
    /// assert_eq!(n, 2);
    /// assert_eq!(out, b"old \xFF[url 11]\xFE and [email 14]");
    /// ```
    pub fn redact_to<W: Write>(
        &self,
        text: &[u8],
        mut out: W,
        mut replace: impl FnMut(&Link, &[u8], &mut Vec<u8>),
    ) -> io::Result<usize> {
        let mut scratch = Vec::new();
        let mut at = 0;
        let mut count = 0;
        for link in self.links_bytes(text) {
            out.write_all(&text[at..link.start()])?;
            scratch.clear();
            replace(&link, &text[link.range()], &mut scratch);
            out.write_all(&scratch)?;
            at = link.end();
            count += 1;
        }
        out.write_all(&text[at..])?;
        Ok(count)
    }
}
