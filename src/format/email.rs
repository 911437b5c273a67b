//! Email minimal quoting (UTS #58 section 5.3).
//!
//! A local part is written as it is when it is a dot-atom of Link_Email characters (what
//! section 5.2 detects: no leading or trailing `.`, no `..`). Otherwise the whole local part
//! goes in double quotes, with a backslash before `"` and `\` (RFC 5322 quoted-string,
//! extended to UTF-8 by RFC 6532). Characters that no quoted string can hold — the ASCII
//! controls other than tab, and DEL — are an error. Length limits (RFC 5321: 64 octets) are
//! not checked.

use std::borrow::Cow;
use std::fmt;

use super::format_host;
use crate::props::is_link_email;

/// A local part holds a character that cannot appear in an email address, not even
/// quoted.
///
/// ```
/// let err = linkscan::format::quote_local_part("a\nb").unwrap_err();
/// assert_eq!(err.character(), '\n');
/// assert_eq!(err.offset(), 1);
/// assert_eq!(
///     err.to_string(),
///     "U+000A at byte 1 cannot appear in an email local part, not even quoted"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuoteError {
    character: char,
    offset: usize,
}

impl QuoteError {
    /// The offending character.
    ///
    /// ```
    /// let err = linkscan::format::quote_local_part("x\0").unwrap_err();
    /// assert_eq!(err.character(), '\0');
    /// ```
    pub fn character(&self) -> char {
        self.character
    }

    /// Its byte offset in the local part.
    ///
    /// ```
    /// let err = linkscan::format::quote_local_part("ab\r").unwrap_err();
    /// assert_eq!(err.offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for QuoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "U+{:04X} at byte {} cannot appear in an email local part, not even quoted",
            self.character as u32, self.offset
        )
    }
}

impl std::error::Error for QuoteError {}

/// Whether `c` can appear in a quoted local part (RFC 5322 qtext, quoted-pair and
/// white space; RFC 6532 UTF-8).
fn is_quotable(c: char) -> bool {
    c == '\t' || !c.is_ascii_control()
}

/// Whether `local` is a dot-atom of Link_Email characters.
fn is_link_email_dot_atom(local: &str) -> bool {
    local
        .split('.')
        .all(|atom| !atom.is_empty() && atom.chars().all(is_link_email))
}

/// Quotes an email local part minimally (UTS #58 section 5.3): unchanged when it is a
/// dot-atom of Link_Email characters, else the whole of it in `"…"` with `\` before `"`
/// and `\`. `local` is the local part itself (a value, not already quoted).
///
/// ```
/// use linkscan::format::quote_local_part;
/// assert_eq!(quote_local_part("σωκράτης").unwrap(), "σωκράτης");
/// assert_eq!(quote_local_part("x.abcd").unwrap(), "x.abcd");
/// assert_eq!(quote_local_part("john doe").unwrap(), "\"john doe\"");
/// assert_eq!(quote_local_part("john..doe").unwrap(), "\"john..doe\"");
/// assert_eq!(quote_local_part("say \"hi\"\\").unwrap(), r#""say \"hi\"\\""#);
/// assert!(quote_local_part("nul\0").is_err());
/// ```
pub fn quote_local_part(local: &str) -> Result<Cow<'_, str>, QuoteError> {
    if let Some((offset, character)) = local.char_indices().find(|&(_, c)| !is_quotable(c)) {
        return Err(QuoteError { character, offset });
    }
    if is_link_email_dot_atom(local) {
        return Ok(Cow::Borrowed(local));
    }
    let mut quoted = String::with_capacity(local.len() + 4);
    quoted.push('"');
    for c in local.chars() {
        if matches!(c, '"' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    Ok(Cow::Owned(quoted))
}

/// Formats an email address: the local part quoted minimally ([`quote_local_part`]), `@`,
/// and the domain shown in Unicode ([`format_host`]).
///
/// ```
/// use linkscan::format::format_email;
/// assert_eq!(format_email("jane", "xn--bcher-kva.de").unwrap(), "jane@bücher.de");
/// assert_eq!(format_email("Jane Doe", "example.com").unwrap(), "\"Jane Doe\"@example.com");
/// assert!(format_email("a\r\nb", "example.com").is_err());
/// ```
pub fn format_email(local: &str, domain: &str) -> Result<String, QuoteError> {
    let local = quote_local_part(local)?;
    let domain = format_host(domain);
    let mut out = String::with_capacity(local.len() + 1 + domain.len());
    out.push_str(&local);
    out.push('@');
    out.push_str(&domain);
    Ok(out)
}
