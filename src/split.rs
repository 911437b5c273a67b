//! Scanning a text in pieces, cut by the rule of [`crate::window`]: the basis of parallel
//! scans ([`LinkFinder::par_links`], [`LinkFinder::par_pieces`]) and of streaming with
//! bounded memory ([`LinkFinder::scan_reader`]).
//!
//! Invariants: pieces are consecutive, non-empty and cover the text; every cut is just
//! after a byte for which [`crate::window::is_cut_byte`] holds, except where a text
//! has none for longer than the streaming buffer (see [`crate::LinkFinder::scan_reader`]).

use std::io::{self, Read};
#[cfg(any(test, feature = "parallel"))]
use std::ops::Range;

use crate::finder::LinkFinder;
use crate::link::Link;
#[cfg(any(test, feature = "parallel"))]
use crate::window::piece_end;
use crate::window::{char_boundary_before, fill, last_cut};

/// Consecutive pieces of about `target` bytes (see [`piece_end`]).
#[cfg(any(test, feature = "parallel"))]
pub(crate) fn pieces(text: &[u8], target: usize) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(text.len() / target.max(1) + 1);
    let mut start = 0;
    while start < text.len() {
        let end = piece_end(text, start, target);
        out.push(start..end);
        start = end;
    }
    out
}

impl LinkFinder {
    /// The links of `text`, found by scanning pieces of it on the current rayon thread
    /// pool. The result is identical to `links_bytes(text).collect()`.
    ///
    /// ```
    /// let text = "see example.com\n".repeat(100_000);
    /// let finder = linkscan::LinkFinder::new();
    /// let parallel = finder.par_links(text.as_bytes());
    /// assert_eq!(parallel.len(), 100_000);
    /// assert!(parallel.iter().copied().eq(finder.links_bytes(text.as_bytes())));
    /// ```
    #[cfg(feature = "parallel")]
    pub fn par_links(&self, text: &[u8]) -> Vec<Link> {
        let found = self.par_pieces(text);
        let mut links = Vec::with_capacity(found.iter().map(|(_, links)| links.len()).sum());
        for (range, piece_links) in &found {
            links.extend(piece_links.iter().map(|link| link.shifted(range.start)));
        }
        links
    }

    /// [`par_links`](Self::par_links) without the final merge: the consecutive pieces of
    /// `text` that were scanned on the current rayon thread pool, each with its links
    /// (offsets relative to the piece). A caller that goes through the links in order
    /// (a count, an output stream) saves the copy into one vector, and the memory it
    /// takes.
    ///
    /// ```
    /// let text = "see example.com\n".repeat(100_000);
    /// let finder = linkscan::LinkFinder::new();
    /// let pieces = finder.par_pieces(text.as_bytes());
    /// assert_eq!(pieces.first().map(|(range, _)| range.start), Some(0));
    /// assert_eq!(pieces.last().map(|(range, _)| range.end), Some(text.len()));
    /// assert_eq!(pieces.iter().map(|(_, links)| links.len()).sum::<usize>(), 100_000);
    /// ```
    #[cfg(feature = "parallel")]
    pub fn par_pieces(&self, text: &[u8]) -> Vec<(Range<usize>, Vec<Link>)> {
        use rayon::prelude::*;
        // Several pieces per thread balance uneven link density; 1 MiB keeps the
        // per-piece overhead negligible.
        let threads = rayon::current_num_threads().max(1);
        let target = (text.len() / (threads * 4)).max(1 << 20);
        pieces(text, target)
            .into_par_iter()
            .map(|range| {
                let links = self.links_bytes(&text[range.clone()]).collect();
                (range, links)
            })
            .collect()
    }

    /// Scans `reader` in pieces of at most `buffer` bytes (at least 64 KiB), so memory stays
    /// bounded whatever the input size. For each piece, in order, `each` gets the offset of
    /// the piece in the input, its bytes and its links (offsets relative to the piece).
    /// The pieces cover the input exactly, and the links are those of a scan of the whole
    /// input — except when more than `buffer` bytes pass without an ASCII space or control
    /// character: such a run is cut at a character boundary (no safe cut exists), and
    /// `each` is told so by the returned count of forced cuts.
    ///
    /// ```
    /// let input = "a example.com b\nmail x@example.org\n".repeat(10_000);
    /// let mut links = 0;
    /// let forced = linkscan::LinkFinder::new()
    ///     .scan_reader(input.as_bytes(), 64 * 1024, |_offset, _piece, found| {
    ///         links += found.len();
    ///         Ok(())
    ///     })
    ///     .unwrap();
    /// assert_eq!((links, forced), (20_000, 0));
    /// ```
    pub fn scan_reader<R: Read>(
        &self,
        mut reader: R,
        buffer: usize,
        mut each: impl FnMut(u64, &[u8], &[Link]) -> io::Result<()>,
    ) -> io::Result<u64> {
        let capacity = buffer.max(64 * 1024);
        let mut buf = vec![0u8; capacity];
        let mut filled = 0;
        let mut offset = 0u64;
        let mut forced = 0;
        let mut links = Vec::new();
        let mut eof = false;
        while !eof || filled > 0 {
            // Fill the buffer (or reach the end of the input).
            if !eof && filled < capacity {
                let (n, error) = fill(&mut reader, &mut buf[filled..]);
                if let Some(e) = error {
                    return Err(e);
                }
                filled += n;
                eof = filled < capacity;
            }
            let end = if eof {
                filled
            } else {
                match last_cut(&buf[..filled]) {
                    Some(cut) => cut,
                    None => {
                        forced += 1;
                        char_boundary_before(&buf[..filled], filled)
                    }
                }
            };
            links.clear();
            links.extend(self.links_bytes(&buf[..end]));
            each(offset, &buf[..end], &links)?;
            offset += end as u64;
            buf.copy_within(end..filled, 0);
            filled -= end;
        }
        Ok(forced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_cover_the_text_and_end_after_cut_bytes() {
        let text = b"aaaa\nbbbb cccc\ndddd\teeee";
        for target in 1..text.len() + 2 {
            let pieces = pieces(text, target);
            assert_eq!(pieces.first().map(|r| r.start), Some(0));
            assert_eq!(pieces.last().map(|r| r.end), Some(text.len()));
            for pair in pieces.windows(2) {
                assert_eq!(pair[0].end, pair[1].start);
                assert!(
                    crate::window::is_cut_byte(text[pair[0].end - 1]),
                    "target {target}: {pieces:?}"
                );
            }
        }
        assert!(pieces(b"", 10).is_empty());
    }

    #[test]
    fn streaming_equals_a_whole_scan_and_reports_forced_cuts() {
        let finder = LinkFinder::new();
        let text = "x.com/αβγ (see https://example.org/wiki/A_(b)) mail a.b@c.de\n".repeat(5000);
        let whole: Vec<Link> = finder.links(&text).map(Link::from).collect();
        let mut streamed = Vec::new();
        let mut covered = 0u64;
        let forced = finder
            .scan_reader(text.as_bytes(), 64 * 1024, |offset, piece, links| {
                assert_eq!(offset, covered);
                covered += piece.len() as u64;
                streamed.extend(links.iter().map(|l| l.shifted(offset as usize)));
                Ok(())
            })
            .unwrap();
        assert_eq!(forced, 0);
        assert_eq!(covered, text.len() as u64);
        assert_eq!(streamed, whole);

        // 200 KB without a single space: forced cuts, but every byte is still covered.
        let long = "é".repeat(100_000);
        let mut covered = 0;
        let forced = finder
            .scan_reader(long.as_bytes(), 64 * 1024, |_, piece, _| {
                assert!(std::str::from_utf8(piece).is_ok(), "cut inside a character");
                covered += piece.len();
                Ok(())
            })
            .unwrap();
        assert!(forced >= 3);
        assert_eq!(covered, long.len());
    }
}
