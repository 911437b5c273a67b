//! The minimal escaping algorithm of UTS #58 section 4.1, over one URL part.
//!
//! The input is the part's text *after* interior escaping (see [`super::interior`]), so
//! its literal syntax characters are structure and everything else is data. The loop keeps
//! `copied`, the byte offset up to which the input has been written out; Soft characters
//! are left pending between `copied` and the current position and are written (as they
//! are) by the next Include, Open or matched Close, or (escaped if need be) by the next
//! Hard character. Only the very last pending Soft character of the *last* part is
//! percent-escaped, as the "Else if copiedAlready < n" step says.
//!
//! Invariants: one forward pass; output only ever appended to the caller's buffer (runs of
//! input are copied with one `push_str`); the bracket stack is a fixed array of
//! [`BRACKET_LIMIT`](crate::BRACKET_LIMIT) entries; no allocation beyond the buffer's growth.

use super::FormatOptions;
use crate::props::{is_bidi_control, link_bracket, link_term, LinkTerm};
use crate::terminate::BracketStack;

pub use crate::parts::UrlPart;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%XX` (upper-case hex) for the byte `b`.
#[inline]
pub(crate) fn push_escaped_byte(b: u8, out: &mut String) {
    out.push('%');
    out.push(HEX[(b >> 4) as usize] as char);
    out.push(HEX[(b & 15) as usize] as char);
}

/// Appends percentEscape(`c`): each byte of its UTF-8 form as `%XX`.
#[inline]
pub(crate) fn push_escaped_char(c: char, out: &mut String) {
    let mut buf = [0; 4];
    for &b in c.encode_utf8(&mut buf).as_bytes() {
        push_escaped_byte(b, out);
    }
}

/// Appends `text`, percent-escaping its Bidi_Control characters when `options` asks for
/// it (used for the scheme, host, port and for text left as given).
pub(crate) fn push_checked(text: &str, options: &FormatOptions, out: &mut String) {
    if !options.escape_bidi_controls {
        out.push_str(text);
        return;
    }
    let mut copied = 0;
    for (i, c) in text.char_indices() {
        if is_bidi_control(c) {
            out.push_str(&text[copied..i]);
            push_escaped_char(c, out);
            copied = i + c.len_utf8();
        }
    }
    out.push_str(&text[copied..]);
}

/// Appends one URL part, minimally escaped: the part's initiator, then `text` formatted
/// by the algorithm of UTS #58 section 4.1.
///
/// `text` must already have the normal interior escaping of the part (for a path, literal
/// `?`, `#` and `/` inside a segment written `%3F`, `%23`, `%2F`, and so on): its literal
/// `/` (path), `=` and `&` (query) are read as structure and clear the bracket stack.
/// `is_last` says whether this is the last part of the URL; only then is a final Soft
/// character escaped. With [`FormatOptions::escape_bidi_controls`], Bidi_Control characters
/// are escaped like Hard ones (a higher-level escaping that section 4.1 allows).
///
/// This is the piece the migration path of section 10 calls after formatting the scheme
/// and host with existing code.
///
/// ```
/// use linkscan::format::{minimal_escape, FormatOptions, UrlPart};
/// let mut out = String::from("https://example.com");
/// let options = FormatOptions::default();
/// minimal_escape(UrlPart::Path, "α(β)./δ.", false, &options, &mut out);
/// minimal_escape(UrlPart::Fragment, "ε(ζ)) x.", true, &options, &mut out);
/// assert_eq!(out, "https://example.com/α(β)./δ.#ε(ζ)%29%20x%2E");
/// ```
pub fn minimal_escape(
    part: UrlPart,
    text: &str,
    is_last: bool,
    options: &FormatOptions,
    out: &mut String,
) {
    out.push_str(part.initiator());
    let bytes = text.as_bytes();
    let mut stack = BracketStack::new();
    // Bytes before `copied` are written; runs of characters that are copied as they are
    // are written in one piece, when an escape or the end comes.
    let mut copied = 0;
    // The end of the last character that is not Soft: what follows it is waiting.
    let mut settled = 0;
    for (i, c) in text.char_indices() {
        let lt = if part.terminates_at(bytes, i)
            || (options.escape_bidi_controls && is_bidi_control(c))
        {
            LinkTerm::Hard
        } else {
            link_term(c)
        };
        if part.clears_stack_at(bytes, i) {
            stack.clear();
        }
        let include = match lt {
            LinkTerm::Include => true,
            LinkTerm::Hard => false,
            LinkTerm::Soft => continue,
            // A full stack makes an Open do the same as Hard.
            LinkTerm::Open => stack.push(c as u32),
            // An empty stack pops 0, which matches no Link_Bracket value.
            LinkTerm::Close => {
                let last_open = stack.pop().and_then(char::from_u32);
                last_open.is_some() && link_bracket(c) == last_open
            }
        };
        let end = i + c.len_utf8();
        if !include {
            out.push_str(&text[copied..i]);
            push_escaped_char(c, out);
            copied = end;
        }
        settled = end;
    }
    match text[settled..].chars().next_back() {
        // The last part ends in Soft characters still waiting: the last one is escaped.
        Some(last) if is_last => {
            out.push_str(&text[copied..text.len() - last.len_utf8()]);
            push_escaped_char(last, out);
        }
        _ => out.push_str(&text[copied..]),
    }
}
