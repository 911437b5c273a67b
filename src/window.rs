//! The cut rule: where a text may be cut into windows (or pieces) that scan independently
//! to exactly the links of the whole. Every reader of this workspace — the parallel scans
//! of [`LinkFinder`](crate::LinkFinder), the command line's file and stream readers, the
//! mail splitter and pipeline — cuts with these functions and no others.
//!
//! A link never contains an ASCII control character or a space (they are Link_Term=Hard,
//! not HostChar and not Link_Email), and nothing of a link's detection looks across one: a
//! host walk, an email walk and the termination all stop there, and the scheme and
//! `mailto:` look-backs are plain ASCII without them. So cutting just after such a byte
//! ([`is_cut_byte`]) — preferably a newline ([`last_cut`]) — and scanning the pieces
//! separately gives exactly the links of a scan of the whole, shifted by each piece's
//! offset. (Non-ASCII Hard characters are not used: some, such as U+00A0, are HostChar.)
//!
//! Where a window holds no cut byte at all (a run without white space longer than the
//! reader's buffer), the reader cuts at [`char_boundary_before`] the buffer's end, so
//! that each window is still valid UTF-8 where the input is; a link across such a forced
//! cut is split, and the readers say so.
//!
//! Invariants: every position returned is `<= text.len()`; [`last_cut`] and
//! [`last_cut_byte`] return a position just after a cut byte; [`char_boundary_before`]
//! never splits a UTF-8 sequence unless the bytes hold no lead byte in their last four;
//! [`fill`] returns fewer bytes than asked only at the end of the input or with the error
//! that stopped it (`Interrupted` is retried).

use std::fs::File;
use std::io::{self, Read};

/// Whether a link can be cut just after byte `b`: ASCII controls and space.
///
/// ```
/// use linkscan::window::is_cut_byte;
/// assert!(is_cut_byte(b'\n') && is_cut_byte(b' ') && is_cut_byte(0x7F));
/// assert!(!is_cut_byte(b'a') && !is_cut_byte(0xA0));
/// ```
#[inline]
pub fn is_cut_byte(b: u8) -> bool {
    b <= b' ' || b == 0x7F
}

/// The last cut position in `text`: just after the last newline, else just after the last
/// other cut byte ([`is_cut_byte`]), else `None`.
///
/// ```
/// use linkscan::window::last_cut;
/// assert_eq!(last_cut(b"a b\nc d"), Some(4));
/// assert_eq!(last_cut(b"a b c"), Some(4));
/// assert_eq!(last_cut(b"abc"), None);
/// ```
#[inline]
pub fn last_cut(text: &[u8]) -> Option<usize> {
    if let Some(i) = memchr::memrchr(b'\n', text) {
        return Some(i + 1);
    }
    last_cut_byte(text)
}

/// The position just after the last cut byte of `text` (newline or not), else `None`.
///
/// The text is searched backwards a block at a time: the test of a whole block has no
/// early exit, so it compiles to vector compares, where a byte loop took 12 % of a
/// command-line run over text without white space. The byte loop then looks only at the
/// block where the test hit, or at the text's first bytes.
///
/// ```
/// use linkscan::window::last_cut_byte;
/// assert_eq!(last_cut_byte(b"a b\nc d"), Some(6));
/// assert_eq!(last_cut_byte(b"abc"), None);
/// ```
pub fn last_cut_byte(text: &[u8]) -> Option<usize> {
    const BLOCK: usize = 64;
    let mut end = text.len();
    while end >= BLOCK {
        let block = &text[end - BLOCK..end];
        if block.iter().fold(false, |hit, &b| hit | is_cut_byte(b)) {
            break;
        }
        end -= BLOCK;
    }
    text[..end]
        .iter()
        .rposition(|&b| is_cut_byte(b))
        .map(|i| i + 1)
}

/// Where a scan may start again to find the links of `text` that start at or after
/// `at`: just after the last cut byte before `at` (no link crosses one), else 0.
///
/// ```
/// use linkscan::window::restart;
/// assert_eq!(restart(b"one two.com", 9), 4);
/// assert_eq!(restart(b"two.com", 5), 0);
/// ```
#[inline]
pub fn restart(text: &[u8], at: usize) -> usize {
    last_cut_byte(&text[..at]).unwrap_or(0)
}

/// A position `<= at` of `bytes` that splits no UTF-8 sequence, for a forced cut: `at`
/// itself when the byte before it is ASCII, else the start of the multi-byte sequence
/// that the bytes before `at` end with (complete or not: the cut is conservative, and
/// the next window starts with that character). At most four bytes are stepped back
/// over (in bytes that are not UTF-8 no lead byte may be found), and where the position
/// found would be 0, `at` is returned: a cut must move on.
///
/// ```
/// use linkscan::window::char_boundary_before;
/// let text = "aé€".as_bytes(); // 61 C3 A9 E2 82 AC
/// assert_eq!(char_boundary_before(text, 1), 1);
/// assert_eq!(char_boundary_before(text, 3), 1);
/// assert_eq!(char_boundary_before(text, 5), 3); // inside the euro sign
/// assert_eq!(char_boundary_before(&text[1..], 2), 2); // nothing before the lead byte
/// ```
pub fn char_boundary_before(bytes: &[u8], at: usize) -> usize {
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

/// Reads into all of `buf`, or up to the end of the input. Returns the bytes read and the
/// error that stopped it (fewer bytes than `buf` holds: the end, or that error).
///
/// ```
/// let mut buf = [0u8; 8];
/// let (n, error) = linkscan::window::fill(&mut &b"abc"[..], &mut buf);
/// assert_eq!((n, error.is_none()), (3, true));
/// ```
pub fn fill(reader: &mut impl Read, buf: &mut [u8]) -> (usize, Option<io::Error>) {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (got, Some(e)),
        }
    }
    (got, None)
}

/// [`fill`] from `offset` of `file`: `buf.len()` bytes, or up to the end of the file.
/// Positioned reads on Unix and Windows (several threads may read one file; on Windows
/// the file's cursor moves), a seek and reads elsewhere.
pub fn fill_at(file: &File, offset: u64, buf: &mut [u8]) -> (usize, Option<io::Error>) {
    let mut got = 0;
    while got < buf.len() {
        match read_at(file, &mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (got, Some(e)),
        }
    }
    (got, None)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(not(any(unix, windows)))]
fn read_at(mut file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::io::{Seek, SeekFrom};
    file.seek(SeekFrom::Start(offset))?;
    file.read(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_cut_byte(text: &[u8]) -> Option<usize> {
        text.iter().rposition(|&b| is_cut_byte(b)).map(|i| i + 1)
    }

    #[test]
    fn last_cut_agrees_with_a_byte_loop_at_every_place_and_length() {
        let lengths = (0..140).chain([191, 192, 193, 1000]);
        for len in lengths {
            let plain = vec![b'a'; len];
            assert_eq!(last_cut(&plain), None, "len {len}");
            assert_eq!(last_cut_byte(&plain), None, "len {len}");
            for cut in [b' ', b'\t', b'\r', 0x00, 0x7F, b'\n'] {
                for at in 0..len {
                    let mut text = plain.clone();
                    text[at] = cut;
                    // A byte above 0x7F near it must not count.
                    if at + 1 < len {
                        text[at + 1] = 0xA0;
                    }
                    assert_eq!(
                        last_cut_byte(&text),
                        naive_cut_byte(&text),
                        "len {len} at {at}"
                    );
                    assert_eq!(last_cut(&text), Some(at + 1), "len {len} cut {cut} at {at}");
                }
            }
        }
    }

    #[test]
    fn a_newline_wins_over_a_later_space() {
        assert_eq!(last_cut(b"ab\ncd ef"), Some(3));
        assert_eq!(last_cut_byte(b"ab\ncd ef"), Some(6));
        assert_eq!(restart(b"ab\ncd ef", 5), 3);
        assert_eq!(restart(b"ab\ncd ef", 0), 0);
    }

    #[test]
    fn char_boundary_before_never_splits_a_character() {
        let text = "aé€😀b".repeat(3);
        let bytes = text.as_bytes();
        for at in 1..=bytes.len() {
            let cut = char_boundary_before(bytes, at);
            assert!(cut <= at);
            assert!(text.is_char_boundary(cut), "at {at}: {cut}");
            assert!(at - cut <= 4, "at {at}: {cut}");
        }
        // Only continuation bytes: at most four stepped over, never back to 0.
        assert_eq!(char_boundary_before(&[0x80, 0x80, 0x80, 0x80], 4), 4);
        assert_eq!(char_boundary_before(&[0x80, 0x80, 0x80, 0x80, 0x80], 5), 1);
        assert_eq!(char_boundary_before(b"abc", 3), 3);
    }

    #[test]
    fn fill_reads_to_the_end_through_short_reads() {
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(3).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut buf = [0u8; 10];
        let (n, e) = fill(&mut Trickle(b"abcdefghijklmn"), &mut buf);
        assert_eq!((n, e.is_none(), &buf[..]), (10, true, &b"abcdefghij"[..]));
        let (n, e) = fill(&mut Trickle(b"abcd"), &mut buf);
        assert_eq!((n, e.is_none(), &buf[..n]), (4, true, &b"abcd"[..]));
    }
}
