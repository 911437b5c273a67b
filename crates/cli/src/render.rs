//! Rendering output fields: TSV fields escaped so every row keeps its columns, and file
//! names that need not be UTF-8 rendered without loss.
//!
//! # TSV escaping
//!
//! Every TSV field is written with `\` as `\\`, a tab as `\t`, a line feed as `\n`, a
//! carriage return as `\r`, each other C0 control and DEL as `\xHH`, each C1 control and
//! Bidi_Control character as `\uXXXX` (see [`crate::terminal`]), and each byte that is not
//! part of valid UTF-8 as `\xHH` (upper-case hex digits). The escaped text holds no tab,
//! line break or terminal control, and unescaping it gives back the original bytes exactly
//! (the `\` of the escapes is itself escaped, so no escape is ambiguous).
//!
//! # JSON strings and numbers
//!
//! [`json_str`] writes a string as `serde_json` does, except that DEL, the C1 controls and
//! the Bidi_Control characters are escaped too (`\u007f`, `\u0085`, `\u202e`: the same
//! string to a JSON reader, and no surprise on a terminal). A string without a `"`, a `\`
//! or an escaped character ([`crate::terminal::has_special`], which only decodes at the
//! bytes that can start one) is copied as it is, which is nearly every link.
//! [`decimal`] writes a number with `itoa`, as `serde_json` does.
//!
//! # File names in JSON
//!
//! A file name that is valid UTF-8 is a JSON string, as any text. One that is not (Unix
//! names are bytes) is an object `{"bytes":"…"}` holding the name's bytes in standard
//! base64 (RFC 4648, with padding) — the convention of ripgrep's JSON output — so two
//! different names never print alike, and a reader gets the exact bytes back.

use std::borrow::Cow;
use std::ffi::OsStr;

use crate::terminal;

/// A file name, rendered once for every output.
#[derive(Clone, Debug)]
pub(crate) struct Name {
    /// The JSON value: a string, or `{"bytes":"<base64>"}`.
    pub(crate) json: String,
    /// The TSV field (escaped), also used on stderr and in `NAME:COUNT` lines.
    pub(crate) text: String,
}

impl Name {
    pub(crate) fn new(name: &OsStr) -> Name {
        let bytes = os_bytes(name);
        Name::from_bytes(&bytes)
    }

    pub(crate) fn from_bytes(bytes: &[u8]) -> Name {
        let json = match std::str::from_utf8(bytes) {
            Ok(text) => {
                let mut json = Vec::with_capacity(text.len() + 2);
                json_str(&mut json, text);
                String::from_utf8(json).expect("JSON strings are UTF-8")
            }
            Err(_) => format!("{{\"bytes\":\"{}\"}}", base64(bytes)),
        };
        let mut text = Vec::new();
        tsv_field(&mut text, bytes);
        let text = String::from_utf8(text).expect("escaped fields are ASCII or valid UTF-8");
        Name { json, text }
    }
}

/// Appends `text` to `out` as a JSON string, exactly as `serde_json` writes it.
///
/// ```text
/// a.example/x"y  ->  "a.example/x\"y"
/// ```
pub(crate) fn json_str(out: &mut Vec<u8>, text: &str) {
    out.reserve(text.len() + 2);
    out.push(b'"');
    if memchr::memchr(b'"', text.as_bytes()).is_none()
        && !terminal::has_special(text.as_bytes(), true)
    {
        out.extend_from_slice(text.as_bytes());
    } else {
        for c in text.chars() {
            match c {
                '"' => out.extend_from_slice(b"\\\""),
                '\\' => out.extend_from_slice(b"\\\\"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                '\t' => out.extend_from_slice(b"\\t"),
                '\u{8}' => out.extend_from_slice(b"\\b"),
                '\u{c}' => out.extend_from_slice(b"\\f"),
                c if terminal::is_special(c) => {
                    out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes());
                }
                c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            }
        }
    }
    out.push(b'"');
}

/// Appends `n` in decimal.
pub(crate) fn decimal(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// The bytes of an OS string (on Unix, exactly its bytes; elsewhere, its UTF-8 form
/// with unpaired surrogates replaced).
pub(crate) fn os_bytes(name: &OsStr) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match name.to_string_lossy() {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        }
    }
}

/// Appends `bytes` to `out` as one TSV field; see the [module](self) documentation.
pub(crate) fn tsv_field(out: &mut Vec<u8>, bytes: &[u8]) {
    for chunk in bytes.utf8_chunks() {
        terminal::escape_into(out, chunk.valid().as_bytes(), true);
        for &b in chunk.invalid() {
            out.extend_from_slice(format!("\\x{b:02X}").as_bytes());
        }
    }
}

/// Undoes [`tsv_field`].
#[cfg(feature = "mail")]
pub(crate) fn tsv_unescape(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() {
            let decoded = match bytes[i + 1] {
                b'\\' => Some((b'\\', 2)),
                b't' => Some((b'\t', 2)),
                b'n' => Some((b'\n', 2)),
                b'r' => Some((b'\r', 2)),
                b'x' => text
                    .get(i + 2..i + 4)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .map(|b| (b, 4)),
                b'u' => {
                    // A C1 or Bidi_Control character.
                    let c = text
                        .get(i + 2..i + 6)
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .and_then(char::from_u32);
                    if let Some(c) = c {
                        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                        i += 6;
                        continue;
                    }
                    None
                }
                _ => None,
            };
            if let Some((b, len)) = decoded {
                out.push(b);
                i += len;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// Standard base64 with padding (RFC 4648 section 4).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_and_numbers_are_written_as_serde_json_writes_them() {
        for text in [
            "",
            "example.com",
            "https://a.example/x\"y",
            "a\\b",
            "tab\there",
            "\u{1}\u{8}\u{C}\u{1F}",
            "中文.example/é?q=\u{2028} “quoted”",
        ] {
            let mut out = Vec::new();
            json_str(&mut out, text);
            assert_eq!(out, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
        for n in [0, 7, 10, 1234567890, u64::MAX] {
            let mut out = Vec::new();
            decimal(&mut out, n);
            assert_eq!(out, serde_json::to_vec(&n).unwrap());
        }
    }

    #[test]
    fn json_strings_escape_terminal_controls_and_read_back() {
        let cases = [
            ("a\u{202E}b", r#""a\u202eb""#),
            ("\u{7F}\u{85}\u{9F}", r#""\u007f\u0085\u009f""#),
            ("\u{1B}]0;x\u{7}", r#""\u001b]0;x\u0007""#),
            (
                "\u{61C}\u{200E}\u{200F}\u{2066}\u{2069}",
                r#""\u061c\u200e\u200f\u2066\u2069""#,
            ),
            ("\u{2028}\u{2030}\u{A0}", "\"\u{2028}\u{2030}\u{A0}\""),
        ];
        for (text, want) in cases {
            let mut out = Vec::new();
            json_str(&mut out, text);
            assert_eq!(String::from_utf8(out.clone()).unwrap(), want);
            assert_eq!(serde_json::from_slice::<String>(&out).unwrap(), text);
        }
        let name = Name::from_bytes("x\u{202E}txt.exe".as_bytes());
        assert_eq!(name.json, r#""x\u202etxt.exe""#);
        assert_eq!(name.text, "x\\u202Etxt.exe");
    }

    #[test]
    fn tsv_fields_escape_and_round_trip() {
        let cases: &[&[u8]] = &[
            b"plain name.txt",
            b"tab\there",
            b"line\nbreak\r\n",
            b"back\\slash \\t literal",
            b"bad \xFF\xFE utf-8 \xC3",
            "été.txt".as_bytes(),
            "\u{1B}]0;title\u{7} \u{7F}\u{85} \u{202E}exe.txt \u{2066}\u{2069} “q”".as_bytes(),
            b"\\u202E literal",
        ];
        for &case in cases {
            let mut out = Vec::new();
            tsv_field(&mut out, case);
            let text = String::from_utf8(out).unwrap();
            assert!(!text.contains(['\t', '\n', '\r']), "{text:?}");
            assert!(!text.chars().any(terminal::is_special), "{text:?}");
            assert_eq!(tsv_unescape(&text), case, "{text:?}");
        }
        let mut out = Vec::new();
        tsv_field(&mut out, b"a\tb\\c\xFF");
        assert_eq!(out, b"a\\tb\\\\c\\xFF");
    }

    #[test]
    fn names_that_are_not_utf8_stay_distinct_in_json() {
        let a = Name::from_bytes(b"caf\xE9.txt");
        let b = Name::from_bytes(b"caf\xE8.txt");
        assert_ne!(a.json, b.json);
        assert_eq!(a.json, r#"{"bytes":"Y2Fm6S50eHQ="}"#);
        assert_eq!(a.text, "caf\\xE9.txt");
        assert_eq!(
            Name::from_bytes("a\"b.txt".as_bytes()).json,
            r#""a\"b.txt""#
        );
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
    }
}
