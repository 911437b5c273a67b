//! UTF-8 decoding over bytes that may be invalid.
//!
//! The scanner works on `&[u8]`. Every invalid sequence decodes as [`INVALID`], a value
//! whose properties are those of Hard (it can never be part of a link). Forward and backward
//! decoding agree on every valid character: a valid sequence always starts with a lead byte,
//! and an invalid prefix never swallows a lead byte, so a character found walking backward
//! from a position is the same one found walking forward to it.

/// The code point reported for an invalid byte (past U+10FFFF, so every lookup gives Hard).
pub(crate) const INVALID: u32 = 0x11_0000;

/// Decodes the character starting at `i` (`i < bytes.len()`): `(code point, length)`.
/// An invalid sequence gives `(INVALID, 1)`.
#[inline]
pub(crate) fn decode(bytes: &[u8], i: usize) -> (u32, usize) {
    let b0 = bytes[i];
    if b0 < 0x80 {
        return (b0 as u32, 1);
    }
    // Three bytes whose lead needs no check of the second's range (not E0, ED: CJK,
    // kana, Hangul, most punctuation), inline.
    if let Some(&[b1, b2]) = bytes.get(i + 1..i + 3) {
        if (0xE1..=0xEF).contains(&b0) && b0 != 0xED && (b1 & 0xC0 == 0x80) & (b2 & 0xC0 == 0x80) {
            let cp = ((b0 & 0x0F) as u32) << 12 | ((b1 & 0x3F) as u32) << 6 | (b2 & 0x3F) as u32;
            return (cp, 3);
        }
    }
    decode_multibyte(bytes, i)
}

#[inline]
fn cont(bytes: &[u8], i: usize) -> Option<u32> {
    match bytes.get(i) {
        Some(&b) if b & 0xC0 == 0x80 => Some((b & 0x3F) as u32),
        _ => None,
    }
}

#[inline(never)]
fn decode_multibyte(bytes: &[u8], i: usize) -> (u32, usize) {
    let b0 = bytes[i];
    let second_ok = |lo: u8, hi: u8| matches!(bytes.get(i + 1), Some(&b) if (lo..=hi).contains(&b));
    let decoded = match b0 {
        0xC2..=0xDF => cont(bytes, i + 1).map(|c1| (((b0 & 0x1F) as u32) << 6 | c1, 2)),
        0xE0..=0xEF => {
            let ok = match b0 {
                0xE0 => second_ok(0xA0, 0xBF),
                0xED => second_ok(0x80, 0x9F),
                _ => second_ok(0x80, 0xBF),
            };
            if ok {
                cont(bytes, i + 2).map(|c2| {
                    let c1 = (bytes[i + 1] & 0x3F) as u32;
                    (((b0 & 0x0F) as u32) << 12 | c1 << 6 | c2, 3)
                })
            } else {
                None
            }
        }
        0xF0..=0xF4 => {
            let ok = match b0 {
                0xF0 => second_ok(0x90, 0xBF),
                0xF4 => second_ok(0x80, 0x8F),
                _ => second_ok(0x80, 0xBF),
            };
            if ok {
                match (cont(bytes, i + 2), cont(bytes, i + 3)) {
                    (Some(c2), Some(c3)) => {
                        let c1 = (bytes[i + 1] & 0x3F) as u32;
                        Some((((b0 & 0x07) as u32) << 18 | c1 << 12 | c2 << 6 | c3, 4))
                    }
                    _ => None,
                }
            } else {
                None
            }
        }
        _ => None,
    };
    decoded.unwrap_or((INVALID, 1))
}

/// Decodes the character ending at `i` (`0 < i <= bytes.len()`): `(code point, length)`.
/// Bytes that do not end a valid character give `(INVALID, 1)`.
#[inline]
pub(crate) fn decode_before(bytes: &[u8], i: usize) -> (u32, usize) {
    let b = bytes[i - 1];
    if b < 0x80 {
        return (b as u32, 1);
    }
    decode_before_multibyte(bytes, i)
}

#[inline(never)]
fn decode_before_multibyte(bytes: &[u8], i: usize) -> (u32, usize) {
    if bytes[i - 1] & 0xC0 != 0x80 {
        return (INVALID, 1);
    }
    // Find the lead byte among the (at most three) bytes before the last continuation byte.
    let lowest = i.saturating_sub(4);
    let mut j = i - 1;
    while j > lowest && bytes[j] & 0xC0 == 0x80 {
        j -= 1;
    }
    let (cp, len) = decode(bytes, j);
    if cp != INVALID && j + len == i {
        (cp, len)
    } else {
        (INVALID, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Forward decoding of every position agrees with `std`'s view of validity, and
    /// backward decoding finds exactly the characters forward decoding finds.
    #[test]
    fn forward_and_backward_agree() {
        let samples: Vec<Vec<u8>> = vec![
            "aé中😀。".as_bytes().to_vec(),
            vec![0xE3, 0xE3, 0x80, 0x82, 0x80, b'a', 0xF0, 0x9F, 0x98],
            vec![0xED, 0xA0, 0x80, 0xC0, 0xAF, 0xF4, 0x90, 0x80, 0x80, 0xFF],
            vec![0xC3, 0xA9, 0xA9, 0xE2, 0x82, 0xAC, 0xE2, 0x82],
        ];
        for bytes in samples {
            let mut fwd = Vec::new();
            let mut i = 0;
            while i < bytes.len() {
                let (cp, len) = decode(&bytes, i);
                if cp != INVALID {
                    let s = std::str::from_utf8(&bytes[i..i + len]).expect("valid");
                    assert_eq!(s.chars().next().map(|c| c as u32), Some(cp));
                    fwd.push((i, cp, len));
                }
                i += len;
            }
            let mut back = Vec::new();
            let mut i = bytes.len();
            while i > 0 {
                let (cp, len) = decode_before(&bytes, i);
                if cp != INVALID {
                    back.push((i - len, cp, len));
                }
                i -= len;
            }
            back.reverse();
            assert_eq!(fwd, back, "bytes {bytes:02X?}");
        }
    }

    /// The first character of every sequence of a non-ASCII lead and two more bytes (and
    /// a continuation byte after them) decodes as `std` decodes it, or as invalid where
    /// `std` finds no character: the inline three-byte path and the general one alike.
    #[test]
    fn every_lead_and_two_bytes_decode_as_std_does() {
        for b0 in 0x80..=0xFFu8 {
            for b1 in 0..=0xFFu8 {
                for b2 in 0..=0xFFu8 {
                    let bytes = [b0, b1, b2, 0x80];
                    let first = bytes
                        .utf8_chunks()
                        .next()
                        .and_then(|c| c.valid().chars().next());
                    let expected = first.map_or((INVALID, 1), |c| (c as u32, c.len_utf8()));
                    assert_eq!(decode(&bytes, 0), expected, "{bytes:02X?}");
                    assert_eq!(
                        decode(&bytes[..3], 0).0 == INVALID,
                        first.is_none_or(|c| c.len_utf8() > 3),
                        "{bytes:02X?}"
                    );
                }
            }
        }
    }

    #[test]
    fn rejects_surrogates_overlongs_and_out_of_range() {
        for bad in [
            &[0xED, 0xA0, 0x80][..],
            &[0xC0, 0x80],
            &[0xE0, 0x80, 0x80],
            &[0xF4, 0x90, 0x80, 0x80],
            &[0xF8],
        ] {
            assert_eq!(decode(bad, 0), (INVALID, 1), "{bad:02X?}");
            assert_eq!(decode_before(bad, bad.len()).0, INVALID, "{bad:02X?}");
        }
    }
}
