//! The end of a folded header field (RFC 5322, section 2.2.3), for the header loop of mail
//! mode (`message/headers.rs` of the linkscan-mail package), which skips most of a
//! message's header — the `Received:`, `DKIM-Signature:` and `ARC-*` fields, half the
//! bytes of a typical archive — without reading it.
//!
//! A field ends at the first line break (`\n`) that no space or tab follows: a line that
//! starts with one is a continuation of the field. [`field_end`] tests a vector of bytes
//! at a time: the line breaks of the lanes at `i`, and the spaces and tabs of the lanes at
//! `i + 1` (a second, unaligned load), so that a continuation line costs no more than any
//! other byte; [`field_end_scalar`] is the definition, used by the portable kernel and for
//! the last bytes of a text.
//!
//! A field's name ends at its colon; [`name_end`] finds the first colon or ASCII white
//! space (a name with white space in it is not a plain name, and the parser reads it), a
//! vector at a time too: names are short, but a byte loop with five white-space tests
//! costs some ten instructions a byte.
//!
//! Invariants: a vector is loaded at `i` (and `i + 1`) only when `i + BYTES` (`i + 1 +
//! BYTES`) `<= text.len()`; every kernel returns what [`field_end_scalar`] and
//! [`name_end_scalar`] return, for every text and every start (the tests below compare
//! them at every offset).

use super::simd::{first_stop, Vector};

/// The end of the header field that contains `text[at]`: the position just past the first
/// `\n` at or after `at` that is not followed by a space or a tab, or `text.len()` if there
/// is none (a `\n` that ends the text ends the field).
pub(crate) fn field_end_scalar(text: &[u8], at: usize) -> usize {
    let mut i = at;
    while i < text.len() {
        if text[i] == b'\n' && !matches!(text.get(i + 1), Some(b' ' | b'\t')) {
            return i + 1;
        }
        i += 1;
    }
    text.len()
}

/// [`field_end_scalar`], a vector at a time.
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn field_end<V: Vector>(text: &[u8], at: usize) -> usize {
    let mut i = at;
    // SAFETY: the CPU has `V`'s instruction set (the caller's promise); both loads read
    // `BYTES` bytes that lie inside `text` (`i + 1 + BYTES <= text.len()`).
    unsafe {
        let newline = V::splat(b'\n');
        let (space, tab) = (V::splat(b' '), V::splat(b'\t'));
        let p = text.as_ptr();
        // `i + 1 + BYTES <= text.len()`, without an overflow for any `at`.
        while text.len().saturating_sub(i) > V::BYTES {
            let breaks = V::load(p.add(i)).eq(newline).movemask();
            if breaks != 0 {
                let next = V::load(p.add(i + 1));
                let folded = next.eq(space).or(next.eq(tab)).movemask();
                let ends = breaks & !folded;
                if ends != 0 {
                    return i + ends.trailing_zeros() as usize + 1;
                }
            }
            i += V::BYTES;
        }
    }
    field_end_scalar(text, i)
}

/// The first colon or ASCII white space (`is_ascii_whitespace`: space, tab, line feed,
/// form feed, carriage return) at or after `at`, or `text.len()`.
pub(crate) fn name_end_scalar(text: &[u8], at: usize) -> usize {
    text[at.min(text.len())..]
        .iter()
        .position(|&b| b == b':' || b.is_ascii_whitespace())
        .map_or(text.len(), |i| at + i)
}

/// [`name_end_scalar`], a vector at a time.
///
/// # Safety
/// The CPU has the instruction set of `V`.
#[inline(always)]
pub(crate) unsafe fn name_end<V: Vector>(text: &[u8], at: usize) -> usize {
    // SAFETY: the CPU has `V`'s instruction set (the caller's promise), and the lanes
    // marked are the bytes `name_end_scalar` stops at.
    unsafe {
        let stops = |v: V| {
            v.eq(V::splat(b':'))
                .or(v.eq(V::splat(b' ')))
                .or(v.eq(V::splat(b'\t')))
                .or(v.eq(V::splat(b'\n')))
                .or(v.eq(V::splat(b'\r')))
                .or(v.eq(V::splat(0x0C)))
        };
        first_stop(text, at, stops, name_end_scalar)
    }
}

#[cfg(test)]
mod tests {
    use super::{field_end_scalar, name_end_scalar};
    use crate::vector::rng::Rng;
    use crate::vector::Kernel;

    /// Every kernel agrees with the definition at every start, on texts made mostly of
    /// line breaks, spaces, tabs and carriage returns (every fold and every place of a
    /// break relative to a vector's lanes), and on a real header.
    #[test]
    fn every_kernel_finds_the_ends_the_definition_finds() {
        let mut texts: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"\n".to_vec(),
            b"a\n".to_vec(),
            b"a\n \n\tb\nc".to_vec(),
            b"Received: from a\r\n\tby b\r\n  with c\r\nSubject: x\r\n\r\nbody".to_vec(),
        ];
        let alphabet = b"\n\n \t\rab:\x0C\x0B";
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for len in [1, 15, 16, 17, 31, 32, 33, 34, 63, 64, 65, 100, 200] {
            for _ in 0..40 {
                let text = (0..len)
                    .map(|_| {
                        // Mostly letters, so that some vectors hold no break at all.
                        let r = (rng.next_u64() >> 32) as usize;
                        if r % 4 == 0 {
                            alphabet[r / 4 % alphabet.len()]
                        } else {
                            b'x'
                        }
                    })
                    .collect();
                texts.push(text);
            }
        }
        let kernels = Kernel::available();
        assert!(!kernels.is_empty());
        let mut checked = 0;
        for text in &texts {
            for at in 0..=text.len() {
                let want = field_end_scalar(text, at);
                // The definition, read another way: a break at `want - 1`, and none
                // before it that ends a field.
                if want < text.len() || text.last() == Some(&b'\n') {
                    assert_eq!(text[want - 1], b'\n');
                }
                for kernel in &kernels {
                    assert_eq!(
                        kernel.name_end(text, at),
                        name_end_scalar(text, at),
                        "{} at {at} of {:?}",
                        kernel.name(),
                        String::from_utf8_lossy(text)
                    );
                    assert_eq!(
                        kernel.field_end(text, at),
                        want,
                        "{} at {at} of {:?}",
                        kernel.name(),
                        String::from_utf8_lossy(text)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn a_fold_continues_the_field_and_a_bare_break_ends_it() {
        for kernel in Kernel::available() {
            let text = b"To: a,\r\n b,\r\n\tc\r\nCc: d\r\n";
            assert_eq!(kernel.field_end(text, 0), 17, "{}", kernel.name());
            assert_eq!(&text[17..], b"Cc: d\r\n");
            assert_eq!(kernel.field_end(text, 17), text.len());
            // A long field: the break is found past several vectors.
            let mut long = b"X-A: ".to_vec();
            long.extend(std::iter::repeat_n(b'v', 100));
            long.extend_from_slice(b"\n y\nZ: 1\n");
            assert_eq!(kernel.field_end(&long, 0), long.len() - 5);
            // A start past the end, however far, is the end.
            for at in [long.len() + 1, usize::MAX - 3, usize::MAX] {
                assert_eq!(kernel.field_end(&long, at), long.len(), "{}", kernel.name());
                assert_eq!(kernel.name_end(&long, at), long.len(), "{}", kernel.name());
            }
        }
    }
}
