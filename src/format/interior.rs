//! Interior escaping: writing one part's text so that its data cannot be read as syntax.
//!
//! Section 4.1 assumes each part already has "the normal interior escaping for syntactic
//! characters". [`Interior`] produces that text from a stream of three kinds of input:
//!
//! * [`Interior::data`]: a character of a decoded value (a path segment, a query key…);
//!   the part's syntax characters ([`is_syntax`]) are percent-escaped.
//! * [`Interior::literal`]: a character written as itself: structure (`/` between
//!   segments, `=` and `&` in a query) or a character of a URL string that stays as typed.
//! * [`Interior::escaped_byte`]: a byte that stays percent-escaped (`%25`, `%2F` in a path,
//!   an invalid UTF-8 byte such as `%FF`).
//!
//! Two rules depend on context, and are enforced on the text as written, so that they
//! hold whatever mix of the three kinds produced it:
//!
//! * a `%` written as itself must not be followed by two hex digits (else it would read as
//!   an escape): when the second digit arrives, the `%` becomes `%25`;
//! * in a fragment or a fragment directive, `:~:` must not appear (else it would start a
//!   directive): when its last `:` arrives, the first `:` becomes `%3A`; likewise a part
//!   ending in `:~` that is followed by a directive's `:~:`.
//!
//! Invariant: `window` holds the last two characters written as themselves since the last
//! escape (with their byte offsets); an escape clears it, since no forbidden sequence can
//! span one (`%XX` contains neither `:` nor `~`, and a `%` directly before it is followed
//! by `%`, not a hex digit).

use super::escape::{push_escaped_byte, push_escaped_char};
use super::UrlPart;

/// Whether `c`, as data of `part`, must be percent-escaped.
///
/// * Path: `/`, `?`, `#` (section 4.1) and `\`, which WHATWG URL parsing reads as `/` in
///   `http(s)` URLs.
/// * Query: `+`, `#`, `=`, `&` (section 4.1).
/// * Fragment and fragment directive: none by themselves; `:~:` is handled in context,
///   and a directive's own `&` and `,` are its structure (the value of a directive is
///   written as the directive syntax, e.g. `text=start,end`).
///
/// `%` is escaped in context (only when two hex digits follow), in every part.
pub(crate) fn is_syntax(part: UrlPart, c: char) -> bool {
    match part {
        UrlPart::Path => matches!(c, '/' | '?' | '#' | '\\'),
        UrlPart::Query => matches!(c, '+' | '#' | '=' | '&'),
        UrlPart::Fragment | UrlPart::FragmentDirective => false,
    }
}

/// Writes the interior-escaped text of one part into a buffer.
pub(crate) struct Interior<'a> {
    out: &'a mut String,
    part: UrlPart,
    window: [(usize, char); 2],
    window_len: usize,
}

impl<'a> Interior<'a> {
    /// Starts writing `part` at the end of `out`.
    pub(crate) fn new(out: &'a mut String, part: UrlPart) -> Interior<'a> {
        Interior {
            out,
            part,
            window: [(0, '\0'); 2],
            window_len: 0,
        }
    }

    fn directive_syntax(&self) -> bool {
        matches!(self.part, UrlPart::Fragment | UrlPart::FragmentDirective)
    }

    /// A character of a decoded value.
    #[inline]
    pub(crate) fn data(&mut self, c: char) {
        if is_syntax(self.part, c) {
            self.escaped_char(c);
        } else {
            self.literal(c);
        }
    }

    /// Every character of a decoded value.
    pub(crate) fn data_str(&mut self, s: &str) {
        for c in s.chars() {
            self.data(c);
        }
    }

    /// A character written as itself.
    pub(crate) fn literal(&mut self, c: char) {
        if self.window_len == 2 {
            let [(first_at, first), (_, second)] = self.window;
            if first == '%' && second.is_ascii_hexdigit() && c.is_ascii_hexdigit() {
                self.replace_window_first(first_at, "%25");
            } else if self.directive_syntax() && first == ':' && second == '~' && c == ':' {
                self.replace_window_first(first_at, "%3A");
            }
            self.window[0] = self.window[1];
            self.window_len = 1;
        }
        self.window[self.window_len] = (self.out.len(), c);
        self.window_len += 1;
        self.out.push(c);
    }

    /// Replaces the one-byte character at `at` (the first of the window) by `escape`,
    /// moving the second one's offset along.
    fn replace_window_first(&mut self, at: usize, escape: &str) {
        self.out.replace_range(at..at + 1, escape);
        self.window[1].0 += escape.len() - 1;
    }

    /// A byte that stays percent-escaped.
    #[inline]
    pub(crate) fn escaped_byte(&mut self, b: u8) {
        push_escaped_byte(b, self.out);
        self.window_len = 0;
    }

    /// A character percent-escaped as its UTF-8 bytes.
    #[inline]
    pub(crate) fn escaped_char(&mut self, c: char) {
        push_escaped_char(c, self.out);
        self.window_len = 0;
    }

    /// Ends the part. `directive_follows`: the next thing written after it is a fragment
    /// directive's `:~:`, so a final `:~` would join it into a `:~:`.
    pub(crate) fn finish(self, directive_follows: bool) {
        if directive_follows && self.window_len == 2 {
            let [(first_at, first), (_, second)] = self.window;
            if first == ':' && second == '~' {
                self.out.replace_range(first_at..first_at + 1, "%3A");
            }
        }
    }
}
