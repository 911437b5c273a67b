//! Output that is safe on a terminal: the characters that move the cursor, change the
//! terminal's state or reorder what is shown never reach it raw.
//!
//! # The characters
//!
//! The C0 controls (U+0000–U+001F), DEL (U+007F), the C1 controls (U+0080–U+009F) and the
//! Bidi_Control characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): an
//! `ESC ]0;…` in a Message-ID retitles the terminal window, a U+202E reverses the rest of
//! the line. Each output escapes them in its own syntax: JSON strings as `\uXXXX`
//! ([`crate::render::json_str`]), TSV fields and `-o` lines as TSV escapes its tabs
//! ([`crate::render::tsv_field`]), warnings and errors on stderr through [`warn`] (the
//! same escapes, with a `\` left as it is).
//!
//! # The scan
//!
//! Text without such a character is copied as it is, and finding out is the hot path (every
//! link and every field goes through it). Each of these characters starts with one of
//! five bytes: below 0x20, 0x7F, 0xC2 (C1), 0xD8 (U+061C) or 0xE2 (U+20xx). [`next_lead`]
//! looks for them 32 bytes at a time with a comparison that has no branch per byte (the
//! compiler makes it vector instructions), the last bytes of a text too, padded to 32 with
//! a byte that starts nothing (most links are shorter than 32 bytes); only at such a byte
//! does [`special_at`] decode the character, and most 0xE2 characters (quotes, dashes) are
//! copied on.

use std::borrow::Cow;

/// The bytes scanned at once by [`next_lead`].
const CHUNK: usize = 32;

/// Whether `b` can start an escaped character (or is `\`, when `backslash`).
#[inline(always)]
fn is_lead(b: u8, backslash: bool) -> bool {
    (b < 0x20) | (b == 0x7F) | (b == 0xC2) | (b == 0xD8) | (b == 0xE2) | (backslash & (b == b'\\'))
}

/// The first byte of `bytes` that can start an escaped character (with `backslash`, a `\`
/// too).
pub(crate) fn next_lead(bytes: &[u8], backslash: bool) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(CHUNK);
    let mut at = 0;
    for chunk in &mut chunks {
        if any_lead(chunk.try_into().expect("a whole chunk"), backslash) {
            return first_lead(chunk, backslash).map(|i| at + i);
        }
        at += CHUNK;
    }
    // The last bytes (most links are shorter than a chunk) as a whole chunk too, padded
    // with a byte that starts nothing: byte by byte, they took a fifth of the
    // instructions of `find --format jsonl`.
    let rest = chunks.remainder();
    let mut padded = [b'a'; CHUNK];
    padded[..rest.len()].copy_from_slice(rest);
    if any_lead(&padded, backslash) {
        return first_lead(rest, backslash).map(|i| at + i);
    }
    None
}

/// Whether a chunk holds a byte of [`is_lead`]: no early exit, so that the fold is
/// vectorised.
#[inline(always)]
fn any_lead(chunk: &[u8; CHUNK], backslash: bool) -> bool {
    chunk
        .iter()
        .fold(false, |hit, &b| hit | is_lead(b, backslash))
}

/// The first byte of [`is_lead`] in `bytes`, byte by byte.
fn first_lead(bytes: &[u8], backslash: bool) -> Option<usize> {
    bytes.iter().position(|&b| is_lead(b, backslash))
}

/// The escaped character that starts `bytes`, if one does: its code point and its length
/// in bytes.
pub(crate) fn special_at(bytes: &[u8]) -> Option<(u32, usize)> {
    match *bytes {
        [b, ..] if b < 0x20 || b == 0x7F => Some((u32::from(b), 1)),
        [0xC2, b, ..] if (0x80..=0x9F).contains(&b) => Some((u32::from(b), 2)),
        [0xD8, 0x9C, ..] => Some((0x061C, 2)),
        [0xE2, 0x80, b, ..] if matches!(b, 0x8E | 0x8F | 0xAA..=0xAE) => {
            Some((0x2000 + u32::from(b - 0x80), 3))
        }
        [0xE2, 0x81, b @ 0xA6..=0xA9, ..] => Some((0x2040 + u32::from(b - 0x80), 3)),
        _ => None,
    }
}

/// Whether `bytes` holds an escaped character (with `backslash`, or a `\`): the test
/// before copying text as it is. Quotes and dashes (0xE2 …) cost a look each, no more.
pub(crate) fn has_special(bytes: &[u8], backslash: bool) -> bool {
    let mut at = 0;
    while let Some(found) = next_lead(&bytes[at..], backslash) {
        let i = at + found;
        if bytes[i] == b'\\' || special_at(&bytes[i..]).is_some() {
            return true;
        }
        at = i + 1;
    }
    false
}

/// Whether `c` is one of the escaped characters.
pub(crate) fn is_special(c: char) -> bool {
    let mut buf = [0; 4];
    special_at(c.encode_utf8(&mut buf).as_bytes()).is_some()
}

/// Appends `bytes` to `out` with each escaped character written as TSV writes it: `\t`,
/// `\n`, `\r`, `\xHH` for the other one-byte controls, `\uXXXX` for the others (upper-case
/// hex); with `backslash`, `\` as `\\` (so the escapes can be undone). `bytes` is valid
/// UTF-8 or a part of it that ends at a character boundary.
pub(crate) fn escape_into(out: &mut Vec<u8>, bytes: &[u8], backslash: bool) {
    let mut at = 0;
    while let Some(found) = next_lead(&bytes[at..], backslash) {
        let i = at + found;
        out.extend_from_slice(&bytes[at..i]);
        if bytes[i] == b'\\' {
            out.extend_from_slice(b"\\\\");
            at = i + 1;
            continue;
        }
        match special_at(&bytes[i..]) {
            Some((c, len)) => {
                match c {
                    0x09 => out.extend_from_slice(b"\\t"),
                    0x0A => out.extend_from_slice(b"\\n"),
                    0x0D => out.extend_from_slice(b"\\r"),
                    0..=0x7F => out.extend_from_slice(format!("\\x{c:02X}").as_bytes()),
                    _ => out.extend_from_slice(format!("\\u{c:04X}").as_bytes()),
                }
                at = i + len;
            }
            None => {
                out.push(bytes[i]);
                at = i + 1;
            }
        }
    }
    out.extend_from_slice(&bytes[at..]);
}

/// Appends `bytes`, lines of text, to `out` safe for a terminal: escaped as in
/// [`escape_into`] (a `\` left as it is), except that line feeds, tabs and the carriage
/// return of a CRLF stay as they are, so the text keeps its lines (`find --format marked`
/// on a terminal). Bytes that are not valid UTF-8 are copied.
pub(crate) fn escape_lines_into(out: &mut Vec<u8>, bytes: &[u8]) {
    let mut at = 0;
    while let Some(found) = next_lead(&bytes[at..], false) {
        let i = at + found;
        let kept = match bytes[i] {
            b'\n' | b'\t' => true,
            b'\r' => bytes.get(i + 1) == Some(&b'\n'),
            _ => false,
        };
        match special_at(&bytes[i..]) {
            Some((_, len)) if !kept => {
                // Only the special character at its end is escaped.
                escape_into(out, &bytes[at..i + len], false);
                at = i + len;
            }
            _ => {
                out.extend_from_slice(&bytes[at..=i]);
                at = i + 1;
            }
        }
    }
    out.extend_from_slice(&bytes[at..]);
}

/// `text` safe for a terminal: escaped as in [`escape_into`], a `\` left as it is.
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    if !has_special(text.as_bytes(), false) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + 8);
    escape_into(&mut out, text.as_bytes(), false);
    Cow::Owned(String::from_utf8(out).expect("escaping keeps UTF-8 valid"))
}

/// Writes one line to stderr, escaped (see [`escape`]), in one `write` of the whole line:
/// warning-heavy input costs one system call per warning, and lines of several threads
/// never interleave. Every warning and error of the program goes through here (the
/// [`warn!`](crate::warn) macro).
pub(crate) fn warn(line: &str) {
    use std::io::Write;
    let mut buf = escape(line).into_owned();
    buf.push('\n');
    // A warning that cannot be written (stderr closed) has nowhere else to go.
    let _ = std::io::stderr().lock().write_all(buf.as_bytes());
}

/// `eprintln!` for warnings and errors, with the line made safe for a terminal.
#[macro_export]
macro_rules! warn {
    ($($arg:tt)*) => {
        $crate::terminal::warn(&format!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character this module escapes, by the definition of the module documentation.
    fn specials() -> Vec<char> {
        let mut all: Vec<char> = (0..0x20)
            .chain([0x7F])
            .chain(0x80..0xA0)
            .map(|c| char::from_u32(c).unwrap())
            .collect();
        all.extend(['\u{061C}', '\u{200E}', '\u{200F}']);
        all.extend('\u{202A}'..='\u{202E}');
        all.extend('\u{2066}'..='\u{2069}');
        all
    }

    #[test]
    fn exactly_the_controls_and_bidi_controls_are_special() {
        let specials = specials();
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(is_special(c), specials.contains(&c), "U+{:04X}", c as u32);
            // Agrees with the library's own Bidi_Control property.
            if linkscan::is_bidi_control(c) {
                assert!(is_special(c), "U+{:04X}", c as u32);
            }
        }
    }

    #[test]
    fn leads_are_found_at_every_offset_of_a_chunk() {
        for len in [0, 1, 31, 32, 33, 64, 100] {
            for at in 0..len {
                for lead in [0x1B, 0x7F, 0xC2, 0xD8, 0xE2] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = lead;
                    assert_eq!(next_lead(&bytes, false), Some(at), "{len} {at} {lead:x}");
                }
                let mut bytes = vec![b'a'; len];
                bytes[at] = b'\\';
                assert_eq!(next_lead(&bytes, false), None);
                assert_eq!(next_lead(&bytes, true), Some(at));
            }
            assert_eq!(next_lead("é中".repeat(len).as_bytes(), false), None);
        }
    }

    /// Every byte value at every offset of texts of every length up to three chunks,
    /// whole chunks, padded last bytes and both together, with a `\` at or after it: the
    /// first lead, as a byte loop finds it.
    #[test]
    fn next_lead_is_the_first_lead_byte_by_byte() {
        for len in 1..=3 * CHUNK + 1 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'x'; len];
                    bytes[at] = b;
                    bytes[len - 1 - (at * 7) % (len - at)] = b'\\';
                    for backslash in [false, true] {
                        let expected = bytes.iter().position(|&c| is_lead(c, backslash));
                        assert_eq!(next_lead(&bytes, backslash), expected, "{len} {at} {b:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn escaped_text_holds_no_special_character_and_keeps_the_rest() {
        let text = "a\u{1B}]0;title\u{7}b\u{202E}c\u{85}d “quoted” — \u{2066}x\u{2069} \\ é\t\n";
        let escaped = escape(text);
        assert!(!escaped.chars().any(is_special), "{escaped:?}");
        assert_eq!(
            escaped,
            "a\\x1B]0;title\\x07b\\u202Ec\\u0085d “quoted” — \\u2066x\\u2069 \\ é\\t\\n"
        );
        assert!(matches!(escape("plain “text” ⸠x⸡"), Cow::Borrowed(_)));
        let mut out = Vec::new();
        escape_into(&mut out, b"a\\b\x1B", true);
        assert_eq!(out, b"a\\\\b\\x1B");
    }

    #[test]
    fn lines_keep_their_breaks_and_tabs_and_lose_the_rest() {
        let mut out = Vec::new();
        let text = "a\tb\r\nc\u{1B}[2J\rd\u{202E}e\u{85}f\\ “g”\n\r".as_bytes();
        escape_lines_into(&mut out, text);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "a\tb\r\nc\\x1B[2J\\rd\\u202Ee\\u0085f\\ “g”\n\\r"
        );
        let mut out = Vec::new();
        escape_lines_into(&mut out, b"x\xFF\xC2y");
        assert_eq!(out, b"x\xFF\xC2y", "invalid UTF-8 is copied");
    }
}
