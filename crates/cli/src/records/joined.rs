//! Many records' texts scanned for links in one call of the finder, where a call per
//! record cost more than the scan of its few bytes.
//!
//! # Algorithm
//!
//! [`Joined`] copies the texts of consecutive records of a chunk into one buffer, each
//! followed by a line feed, and finds the links of the whole buffer at once
//! ([`Joined::links`]); the links, in order, are handed out per text with the text's
//! start in the buffer, which the writers subtract from the offsets.
//!
//! # Invariants
//!
//! - The links of each text are exactly those of a scan of that text alone: a line feed
//!   is a cut byte of the engine's cut rule (`linkscan::window`): no link contains one
//!   and nothing of a link's detection looks across one, so pieces cut after it scan
//!   independently.
//! - A text longer than [`LONG`] is not copied: [`Joined::fits`] says no, and the caller
//!   scans it alone, so the copy adds at most [`LONG`] per record to a chunk's memory.

use std::ops::Range;

use linkscan::{Link, LinkFinder};

/// Texts longer than this are scanned alone, not copied.
pub(crate) const LONG: usize = 64 << 10;

/// Texts joined by line feeds.
#[derive(Default)]
pub(crate) struct Joined {
    bytes: Vec<u8>,
    /// The start of each text in `bytes` (its end is the next start less the line feed).
    starts: Vec<usize>,
    /// The links of `bytes`, from [`Joined::links`].
    links: Vec<Link>,
}

impl Joined {
    /// Whether `text` is joined rather than scanned alone.
    pub(crate) fn fits(text: &[u8]) -> bool {
        text.len() <= LONG
    }

    /// Adds `text`; its index is the number of texts added before it.
    pub(crate) fn push(&mut self, text: &[u8]) {
        self.starts.push(self.bytes.len());
        self.bytes.extend_from_slice(text);
        self.bytes.push(b'\n');
    }

    /// Adds the text that `text` appends to the buffer, when it says it did (else it
    /// appended nothing).
    pub(crate) fn push_with(&mut self, text: impl FnOnce(&mut Vec<u8>) -> bool) -> bool {
        let start = self.bytes.len();
        if !text(&mut self.bytes) {
            return false;
        }
        self.starts.push(start);
        self.bytes.push(b'\n');
        true
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The number of links of all the texts, which are then forgotten.
    pub(crate) fn count(&mut self, finder: &LinkFinder) -> usize {
        let n = finder.links_bytes(&self.bytes).count();
        self.clear();
        n
    }

    /// Finds the links of all the texts, then calls `each(i, bytes, text, links)` for the
    /// texts in order: text `i` is `bytes[text]`, and its links' offsets are into `bytes`.
    /// Then forgets the texts.
    pub(crate) fn links(
        &mut self,
        finder: &LinkFinder,
        mut each: impl FnMut(usize, &[u8], Range<usize>, &[Link]),
    ) {
        self.links.clear();
        self.links.extend(finder.links_bytes(&self.bytes));
        let mut first = 0;
        for (i, &start) in self.starts.iter().enumerate() {
            // Each text is followed by its line feed.
            let end = self.starts.get(i + 1).unwrap_or(&self.bytes.len()) - 1;
            // Most texts have no link or one: a walk, not a binary search of the rest.
            let rest = &self.links[first..];
            let n = rest
                .iter()
                .position(|link| link.start() >= end)
                .unwrap_or(rest.len());
            each(i, &self.bytes, start..end, &rest[..n]);
            first += n;
        }
        self.clear();
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.starts.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_texts_have_the_links_of_each_alone() {
        let texts: &[&[u8]] = &[
            b"see x.org",
            b"example.com/path(a)",
            b"",
            b"mail a@b.com.",
            b"http://localhost:8080/x and https://[::1]/y",
            b"//not.a.scheme then mailto:x@example.org",
            b"\xc3\xa9t\xc3\xa9.example.fr/p\xc3\xa2ge?q=1#f",
            b"tail http://x.org/(",
            b"\xff broken x.org \xfe",
            b"www.example.com\r",
            b".org at the start",
            b"no link",
        ];
        let finder = LinkFinder::new();
        // Every window of the texts, so that each meets each as neighbour.
        for from in 0..texts.len() {
            let mut joined = Joined::default();
            for text in &texts[from..] {
                assert!(Joined::fits(text));
                joined.push(text);
            }
            let mut seen = 0;
            joined.links(&finder, |i, bytes, text, links| {
                let alone: Vec<_> = finder
                    .links_bytes(texts[from + i])
                    .map(|l| l.range())
                    .collect();
                assert_eq!(&bytes[text.clone()], texts[from + i]);
                let here: Vec<_> = links
                    .iter()
                    .map(|l| l.start() - text.start..l.end() - text.start)
                    .collect();
                assert_eq!(here, alone, "text {}", from + i);
                seen += 1;
            });
            assert_eq!(seen, texts.len() - from);
            assert!(joined.is_empty());
        }
        assert!(!Joined::fits(&vec![b'a'; LONG + 1]));
    }

    #[test]
    fn a_text_that_is_not_written_is_not_joined() {
        let finder = LinkFinder::new();
        let mut joined = Joined::default();
        joined.push(b"a x.org");
        assert!(!joined.push_with(|_| false));
        assert!(joined.push_with(|bytes| {
            bytes.extend_from_slice(b"b y.org");
            true
        }));
        let mut seen = Vec::new();
        joined.links(&finder, |i, bytes, text, links| {
            let links: Vec<_> = links.iter().map(|l| &bytes[l.range()]).collect();
            seen.push((i, bytes[text].to_vec(), links.concat()));
        });
        assert_eq!(
            seen,
            [
                (0, b"a x.org".to_vec(), b"x.org".to_vec()),
                (1, b"b y.org".to_vec(), b"y.org".to_vec())
            ]
        );
    }
}
