//! Cutting a text into pieces that can be scanned independently: the basis of parallel
//! scans and of streaming with bounded memory.
//!
//! A link never contains an ASCII control character or a space (they are Link_Term=Hard,
//! not HostChar and not Link_Email), and nothing of a link's detection looks across one: a
//! host walk, an email walk and the termination all stop there, and the scheme and
//! `mailto:` look-backs are plain ASCII without them. So cutting just after such a byte —
//! preferably a newline — and scanning the pieces separately gives exactly the links of a
//! scan of the whole, shifted by each piece's offset. (Non-ASCII Hard characters are not
//! used: some, such as U+00A0, are HostChar.)
//!
//! Invariants: pieces are consecutive, non-empty and cover the text; every cut is just
//! after a byte for which [`is_cut_byte`] holds, except where a text has none for longer
//! than the streaming buffer (see [`crate::LinkFinder::scan_reader`]).

use std::io::{self, Read};
#[cfg(any(test, feature = "parallel"))]
use std::ops::Range;

use crate::finder::LinkFinder;
use crate::link::Link;

/// Whether a link can be cut just after byte `b`: ASCII controls and space.
#[inline]
pub(crate) fn is_cut_byte(b: u8) -> bool {
    b <= b' ' || b == 0x7F
}

/// The last cut position in `text` (just after the last newline, else after the last
/// other cut byte), if any.
fn last_cut(text: &[u8]) -> Option<usize> {
    if let Some(i) = memchr::memrchr(b'\n', text) {
        return Some(i + 1);
    }
    text.iter().rposition(|&b| is_cut_byte(b)).map(|i| i + 1)
}

/// Where a piece of `text` that starts at `start` and should hold about `size` bytes ends,
/// so that the pieces scan independently to exactly the links of the whole: just after the
/// last newline (else the last ASCII space or control character) before `start + size`;
/// the end of the text if it comes first; past the limit, just after the next such byte
/// (or at the end) when the window has none.
///
/// ```
/// let text = b"one example.com\ntwo example.org\nthree";
/// assert_eq!(linkscan::piece_end(text, 0, 20), 16);
/// assert_eq!(linkscan::piece_end(text, 16, 100), text.len());
/// assert_eq!(linkscan::piece_end(b"abcdef ghi", 0, 3), 7);
/// ```
pub fn piece_end(text: &[u8], start: usize, size: usize) -> usize {
    let limit = start.saturating_add(size.max(1));
    if limit >= text.len() {
        return text.len();
    }
    if let Some(cut) = last_cut(&text[start..limit]) {
        return start + cut;
    }
    text[limit..]
        .iter()
        .position(|&b| is_cut_byte(b))
        .map_or(text.len(), |i| limit + i + 1)
}

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
            while !eof && filled < capacity {
                match reader.read(&mut buf[filled..]) {
                    Ok(0) => eof = true,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
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

/// The last position `<= at` that does not split a UTF-8 sequence (and is not 0 unless
/// the bytes are all continuation bytes).
fn char_boundary_before(bytes: &[u8], at: usize) -> usize {
    let mut i = at;
    while i > 0 && i > at.saturating_sub(4) && bytes[i - 1] & 0xC0 == 0x80 {
        i -= 1;
    }
    // Step before the lead byte of an incomplete final sequence.
    if i > 0 && bytes[i - 1] >= 0xC0 {
        i -= 1;
    }
    if i == 0 {
        at
    } else {
        i
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
                    is_cut_byte(text[pair[0].end - 1]),
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
