//! A text part's bytes made text with the decoder `mail-parser` has for its charset, as
//! the parser makes it, without its per-byte loop where the charset is single-byte.
//!
//! # Algorithm
//!
//! The parser decodes a single-byte charset (ISO-8859-*, windows-125*, KOI8, …, and
//! `us-ascii`, which it reads as windows-1252) by looking up every byte in a table and
//! pushing the character, one at a time. Here the decoder is first asked for the 256
//! bytes in order: when it answers with 256 characters of which the first 128 are ASCII
//! itself, it is such a table (a decoder with state, or with sequences of several bytes,
//! answers otherwise: UTF-16 with 128 characters, Shift_JIS, EUC, GB18030 and Big5 with
//! fewer, ISO-2022 and UTF-7 not with ASCII itself), and its answer is the table:
//!
//! * bytes that are all ASCII are the text as they stand (borrowed when they were);
//! * else runs of ASCII bytes are copied at once and each other byte is its character of
//!   the table.
//!
//! Any other decoder is called as the parser calls it.
//!
//! # Invariants
//!
//! [`decode`] returns the text the decoder returns for the same bytes; the tests below
//! check it on every byte and on random bytes for single-byte and multi-byte charsets.

use std::borrow::Cow;

use mail_parser::decoders::charsets::DecoderFnc;

/// `bytes` decoded by `decoder` (see the [module](self) documentation).
pub(crate) fn decode<'x>(decoder: DecoderFnc, bytes: Cow<'x, [u8]>) -> Cow<'x, str> {
    let Some(table) = single_byte_table(decoder) else {
        return decoder(&bytes).into();
    };
    if bytes.is_ascii() {
        return match bytes {
            Cow::Borrowed(bytes) => Cow::Borrowed(std::str::from_utf8(bytes).expect("ASCII")),
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8(bytes).expect("ASCII")),
        };
    }
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let ascii = rest
            .iter()
            .position(|b| !b.is_ascii())
            .unwrap_or(rest.len());
        text.push_str(std::str::from_utf8(&rest[..ascii]).expect("ASCII"));
        rest = &rest[ascii..];
        if let Some((&byte, tail)) = rest.split_first() {
            text.push(table[byte as usize - 128]);
            rest = tail;
        }
    }
    Cow::Owned(text)
}

/// The bytes 0 to 255 in order.
static ALL_BYTES: [u8; 256] = {
    let mut all = [0; 256];
    let mut b = 0;
    while b < 256 {
        all[b] = b as u8;
        b += 1;
    }
    all
};

/// The characters of the bytes 0x80 to 0xFF when `decoder` is a single-byte table whose
/// lower half is ASCII; `None` for any other decoder.
fn single_byte_table(decoder: DecoderFnc) -> Option<[char; 128]> {
    let decoded = decoder(&ALL_BYTES);
    let mut chars = decoded.chars();
    if !(0..128u8).all(|b| chars.next() == Some(b as char)) {
        return None;
    }
    let mut table = ['\0'; 128];
    for slot in &mut table {
        *slot = chars.next()?;
    }
    chars.next().is_none().then_some(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::decoders::charsets::map::charset_decoder;

    /// Single-byte charsets of both the parser's own tables and `encoding_rs`'s, and
    /// multi-byte ones, with or without state.
    const SINGLE: &[&str] = &[
        "us-ascii",
        "iso-8859-1",
        "iso-8859-2",
        "iso-8859-15",
        "windows-1252",
        "windows-1251",
        "koi8-r",
        "koi8-u",
        "macintosh",
        "ibm866",
        "windows-874",
        "tis-620",
        "cp850",
    ];
    const MULTI: &[&str] = &[
        "utf-16",
        "utf-16le",
        "utf-16be",
        "shift_jis",
        "euc-jp",
        "iso-2022-jp",
        "euc-kr",
        "gb18030",
        "gbk",
        "big5",
        "replacement",
    ];

    /// A few kilobytes of bytes from a simple generator, biased to ASCII.
    fn random_bytes(seed: u64) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..4000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x.is_multiple_of(3) {
                    (x >> 8) as u8
                } else {
                    b' ' + (x >> 8) as u8 % 95
                }
            })
            .collect()
    }

    #[test]
    fn single_byte_charsets_decode_as_the_parser_decodes_them() {
        for label in SINGLE {
            let decoder = charset_decoder(label.as_bytes()).expect(label);
            assert!(single_byte_table(decoder).is_some(), "{label}");
            let all: Vec<u8> = (0..=255).collect();
            for seed in 0..20 {
                for bytes in [random_bytes(seed), all.clone(), b"plain ascii".to_vec()] {
                    let theirs = decoder(&bytes);
                    assert_eq!(decode(decoder, Cow::Borrowed(&bytes)), theirs, "{label}");
                    assert_eq!(
                        decode(decoder, Cow::Owned(bytes.clone())),
                        theirs,
                        "{label}"
                    );
                }
            }
        }
    }

    #[test]
    fn other_charsets_are_left_to_their_decoders() {
        for label in MULTI {
            let decoder = charset_decoder(label.as_bytes()).expect(label);
            assert!(single_byte_table(decoder).is_none(), "{label}");
            for seed in 0..5 {
                let bytes = random_bytes(seed);
                assert_eq!(
                    decode(decoder, Cow::Borrowed(&bytes)),
                    decoder(&bytes),
                    "{label}"
                );
            }
        }
    }
}
