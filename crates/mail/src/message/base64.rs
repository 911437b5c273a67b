//! Base64 decoding as RFC 2045 section 6.8 asks of a reader: characters outside the
//! alphabet are ignored.
//!
//! # Algorithm
//!
//! One pass over the bytes with a 4-character accumulator. An alphabet character adds its
//! 6 bits; every fourth one completes 3 bytes. Between groups, the run of whole groups
//! that follows (most of a line) is decoded in blocks, 32 characters at a time with the
//! AVX2 kernel and eight at a time after that ([`decode_groups`]), with the same result. `=` ends a quantum early: with 2 or 3
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

use linkscan::__private::Kernel;

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

/// Decodes the whole groups of four alphabet characters at the start of `input` (those
/// before its first byte outside the alphabet, or its last incomplete group) onto `out`,
/// and returns how many characters they were (a multiple of 4): nearly all of a body is
/// such runs, one per line. Blocks of 32 characters go through the vector kernel
/// ([`Kernel::base64_blocks`]); then eight characters at a time make six bytes with one
/// table look-up each and one test of all eight.
pub(crate) fn decode_groups(kernel: Kernel, input: &[u8], out: &mut Vec<u8>) -> usize {
    // Blocks of 32 characters with the vector kernel, where it has a decoder.
    let mut i = kernel.base64_blocks(input, out);
    while let Some(chunk) = input.get(i..i + 8) {
        let v: [u8; 8] = std::array::from_fn(|k| VALUES[chunk[k] as usize]);
        if v.iter().fold(0, |all, &x| all | x) & 0x80 != 0 {
            break;
        }
        let n = v.iter().fold(0u64, |n, &x| n << 6 | u64::from(x));
        out.extend_from_slice(&n.to_be_bytes()[2..]);
        i += 8;
    }
    while let Some(&[a, b, c, d]) = input.get(i..i + 4) {
        let v = [a, b, c, d].map(|ch| VALUES[ch as usize]);
        if (v[0] | v[1] | v[2] | v[3]) & 0x80 != 0 {
            break;
        }
        let n = v.iter().fold(0u32, |n, &x| n << 6 | u32::from(x));
        out.extend_from_slice(&n.to_be_bytes()[1..]);
        i += 4;
    }
    i
}

/// Decodes `input`; see the [module](self) documentation.
pub(crate) fn decode(input: &[u8]) -> Decoded {
    let mut out = Decoded {
        bytes: Vec::with_capacity(input.len() / 4 * 3 + 3),
        ..Decoded::default()
    };
    let kernel = Kernel::detect();
    let mut acc: u32 = 0;
    let mut pending = 0u8;
    let mut i = 0;
    while i < input.len() {
        if pending == 0 {
            i += decode_groups(kernel, &input[i..], &mut out.bytes);
            if i == input.len() {
                break;
            }
        }
        let byte = input[i];
        i += 1;
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

    /// The module's algorithm one character at a time, without [`decode_groups`].
    fn one_at_a_time(input: &[u8]) -> Decoded {
        let mut out = Decoded::default();
        let (mut acc, mut pending) = (0u32, 0u8);
        for &byte in input {
            match VALUES[byte as usize] {
                INVALID if byte == b'=' => {
                    flush(&mut out, acc, pending);
                    (acc, pending) = (0, 0);
                }
                INVALID if byte.is_ascii_whitespace() || byte == b'\x0B' => {}
                INVALID => out.ignored += 1,
                value => {
                    (acc, pending) = (acc << 6 | u32::from(value), pending + 1);
                    if pending == 4 {
                        out.bytes.extend_from_slice(&acc.to_be_bytes()[1..]);
                        (acc, pending) = (0, 0);
                    }
                }
            }
        }
        flush(&mut out, acc, pending);
        out
    }

    /// Runs of whole groups of every length, broken by line ends, padding, stray bytes and
    /// lone characters at every place relative to the eight-character steps.
    #[test]
    fn groups_decode_as_one_character_at_a_time() {
        let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let breaks: &[&[u8]] = &[b"\r\n", b"\n", b"=", b"==", b"!", b" ", b"-", b"\xC3"];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 33) % n
        };
        let mut checked = 0;
        for _ in 0..2000 {
            let mut input = Vec::new();
            for _ in 0..next(6) {
                for _ in 0..next(40) {
                    input.push(alphabet[next(64) as usize]);
                }
                input.extend_from_slice(breaks[next(breaks.len() as u64) as usize]);
            }
            let want = one_at_a_time(&input);
            assert_eq!(
                decode(&input),
                want,
                "{:?}",
                String::from_utf8_lossy(&input)
            );
            let mut groups = Vec::new();
            let n = decode_groups(Kernel::detect(), &input, &mut groups);
            assert_eq!(n % 4, 0);
            assert!(input[..n].iter().all(|&b| is_base64_char(b)));
            assert!(input.len() - n < 4 || !input[n..n + 4].iter().all(|&b| is_base64_char(b)));
            assert_eq!(groups[..], want.bytes[..groups.len()]);
            checked += n;
        }
        assert!(checked > 10_000);
    }
}
