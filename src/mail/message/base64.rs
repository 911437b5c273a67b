//! Base64 decoding as RFC 2045 section 6.8 asks of a reader: characters outside the
//! alphabet are ignored.
//!
//! # Algorithm
//!
//! One pass over the bytes with a 4-character accumulator. An alphabet character adds its
//! 6 bits; every fourth one completes 3 bytes. `=` ends a quantum early: with 2 or 3
//! characters pending it completes 1 or 2 bytes, then decoding goes on after it (a body
//! made of several base64 runs, each padded, decodes to the runs' bytes one after the
//! other, as the MIME parser reads it). Line breaks and white space are skipped; every
//! other byte is ignored and counted, so the caller can say how many there were. A final
//! lone character (6 bits, less than a byte) is dropped and reported as a partial
//! quantum.
//!
//! # Invariants
//!
//! The output is at most 3/4 of the input's length (rounded up); on input made only of
//! alphabet characters, padding and white space, it is exactly the standard decoding.
//! Time and memory are linear; nothing fails.

/// What [`decode`] made of a base64 body.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Decoded {
    /// The decoded bytes.
    pub bytes: Vec<u8>,
    /// Bytes that were neither base64 characters, `=`, nor white space: ignored.
    pub ignored: usize,
    /// Whether the data ended inside a quantum (characters left that make no byte).
    pub partial: bool,
}

/// The value of each base64 character, `INVALID` for the others.
pub(super) const INVALID: u8 = 0xFF;
pub(super) const VALUES: [u8; 256] = {
    let mut table = [INVALID; 256];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut i = 0;
    while i < 64 {
        table[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// Whether `byte` is a base64 alphabet character.
pub(crate) fn is_base64_char(byte: u8) -> bool {
    VALUES[byte as usize] != INVALID
}

/// Decodes `input`; see the [module](self) documentation.
pub(crate) fn decode(input: &[u8]) -> Decoded {
    let mut out = Decoded {
        bytes: Vec::with_capacity(input.len() / 4 * 3 + 3),
        ..Decoded::default()
    };
    let mut acc: u32 = 0;
    let mut pending = 0u8;
    for &byte in input {
        let value = VALUES[byte as usize];
        if value != INVALID {
            acc = acc << 6 | u32::from(value);
            pending += 1;
            if pending == 4 {
                out.bytes
                    .extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
                acc = 0;
                pending = 0;
            }
            continue;
        }
        match byte {
            b'=' => {
                flush(&mut out, acc, pending);
                acc = 0;
                pending = 0;
            }
            b' ' | b'\t' | b'\r' | b'\n' | b'\x0C' | b'\x0B' => {}
            _ => out.ignored += 1,
        }
    }
    flush(&mut out, acc, pending);
    out
}

/// Completes a quantum of `pending` (< 4) characters held in `acc`.
fn flush(out: &mut Decoded, acc: u32, pending: u8) {
    match pending {
        2 => out.bytes.push((acc >> 4) as u8),
        3 => out
            .bytes
            .extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        1 => out.partial = true,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_decoding() {
        for (encoded, plain) in [
            (&b""[..], &b""[..]),
            (b"Zg==", b"f"),
            (b"Zm8=", b"fo"),
            (b"Zm9v", b"foo"),
            (b"Zm9vYg==", b"foob"),
            (b"Zm9vYmE=", b"fooba"),
            (b"Zm9vYmFy", b"foobar"),
            (b"Zm9v\r\nYmFy\n", b"foobar"),
            (b"+/+/", b"\xfb\xff\xbf"),
        ] {
            let d = decode(encoded);
            assert_eq!(d.bytes, plain, "{encoded:?}");
            assert_eq!((d.ignored, d.partial), (0, false), "{encoded:?}");
        }
    }

    #[test]
    fn characters_outside_the_alphabet_are_ignored_and_counted() {
        let d = decode(b"aHR0c!HM6Ly9le\n-- \nGFtcGxlLmNvbS8K");
        assert_eq!(d.bytes, b"https://example.com/\n");
        assert_eq!(d.ignored, 3);
        assert!(!d.partial);
    }

    #[test]
    fn padded_runs_decode_one_after_the_other_and_a_lone_character_is_reported() {
        let d = decode(b"Zg==Zm8=Zm9vY");
        assert_eq!(d.bytes, b"ffofoo");
        assert!(d.partial);
        assert_eq!(d.ignored, 0);
    }

    #[test]
    fn output_is_bounded_by_three_quarters_of_the_input() {
        for len in 0..64 {
            let input = vec![b'Q'; len];
            assert!(decode(&input).bytes.len() <= len.div_ceil(4) * 3);
        }
    }
}
