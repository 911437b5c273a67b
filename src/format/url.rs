//! Formatting a URL string: split it at its literal syntax characters, decode the
//! percent-escapes that are safe to decode, then format each part (section 4.1).
//!
//! Splitting follows the shape of a hierarchical URL:
//! `[scheme "://" | "//"] [userinfo "@"] host [":" port] ["/" path] ["?" query]
//! ["#" fragment (":~:" directive)*]`. A scheme is `[A-Za-z][A-Za-z0-9+.-]*` followed by
//! `://`; without one the string starts with the host (`example.com/α`), or with the path.
//! A string that starts with `name:` but neither `name://` nor a port (`mailto:…`,
//! `tel:…`, `urn:…`) has no host and no hierarchy: it is returned as given.
//!
//! Literal syntax characters stay literal (they are the URL's structure). A `%XX` escape
//! is decoded when the decoded character cannot be mistaken for structure:
//!
//! * escapes that form a valid UTF-8 sequence of a non-ASCII character are decoded;
//! * every byte of an invalid sequence stays escaped (`%FF`, `%C2%C2`, a truncated
//!   `%E2%82`), as section 4.1 asks for legacy encodings; and when there is any such
//!   sequence after the host, the URL is taken to be in a legacy encoding (Shift_JIS…)
//!   and no escaped non-ASCII byte of it is decoded, even where a few bytes happen to
//!   spell valid UTF-8 ("then it is best to percent-escape each non-ASCII byte");
//! * ASCII is decoded except the part's syntax characters: `/ ? # \` in the path,
//!   `+ # = &` in the query, and `& , -` in a fragment directive (its separators and the
//!   affix `-` of `text=`); a `#` after the one that starts the fragment is data, decoded
//!   as the parts API writes it;
//! * `%25` is decoded where the `%` cannot be read as the start of an escape (`%25%CE%B5`
//!   gives `%ε`, a final `%25` gives `%`), and stays `%25` before two hex digits
//!   (`%2541`): as in [`super::interior`], a `%` that would come to be followed by two
//!   hex digits is written `%25`, and a `:~:` that decoding would create inside a
//!   fragment has its first `:` escaped.
//!
//! The userinfo and port are kept as given; the host is shown with
//! [`format_host`]. Leading and trailing spaces and C0 controls are
//! dropped, as WHATWG URL parsing drops them; inside the URL they are data (and come out
//! percent-escaped, being Hard).

use super::escape::push_checked;
use super::interior::{is_syntax, Interior};
use super::{format_host, FormatOptions, Layout, PartWriter, UrlPart};

/// Formats a URL string with minimal escaping (UTS #58 section 4).
///
/// The string may be fully percent-escaped, partly, or not at all; see the module
/// documentation of [`linkscan::format`](super) for what is decoded. Never panics.
///
/// ```
/// use linkscan::format::escape_url;
/// assert_eq!(
///     escape_url("https://example.com/%CE%B1(%CE%B2)?%CE%B3(%CE%B4)#%CE%B5(%CE%B6))"),
///     "https://example.com/α(β)?γ(δ)#ε(ζ)%29"
/// );
/// assert_eq!(escape_url("xn--bcher-kva.de/b%C3%BCcher"), "bücher.de/bücher");
/// // Escaped syntax characters and invalid UTF-8 stay escaped; %25 too, before two hex digits.
/// assert_eq!(escape_url("example.com/a%2Fb%25c1%FF?k%3D=v%26"), "example.com/a%2Fb%25c1%FF?k%3D=v%26");
/// assert_eq!(escape_url("example.com/50%25%20off"), "example.com/50%%20off");
/// // A final Soft character is escaped, so the whole URL is detected in running text.
/// assert_eq!(escape_url("example.com/path1./path2."), "example.com/path1./path2%2E");
/// // Non-hierarchical schemes are left as they are.
/// assert_eq!(escape_url("mailto:someone@example.com."), "mailto:someone@example.com.");
/// ```
pub fn escape_url(url: &str) -> String {
    escape_url_with(url, &FormatOptions::default())
}

/// [`escape_url`] with options.
///
/// ```
/// use linkscan::format::{escape_url_with, FormatOptions};
/// let options = FormatOptions::default().with_escape_bidi_controls(true);
/// assert_eq!(
///     escape_url_with("https://example.com/%E2%80%AEfdp.exe", &options),
///     "https://example.com/%E2%80%AEfdp.exe"
/// );
/// assert_eq!(
///     escape_url_with("https://example.com/%E2%80%AEfdp.exe", &Default::default()),
///     "https://example.com/\u{202E}fdp.exe"
/// );
/// ```
pub fn escape_url_with(url: &str, options: &FormatOptions) -> String {
    escape_url_showing(url, options, format_host)
}

/// [`escape_url_with`], the host shown by `show_host` (given the host as written; not
/// called for a host followed by something other than a port).
pub(crate) fn escape_url_showing<'u>(
    url: &'u str,
    options: &FormatOptions,
    show_host: impl FnOnce(&'u str) -> std::borrow::Cow<'u, str>,
) -> String {
    // As WHATWG URL parsing does, leading and trailing C0 controls and spaces are not part
    // of the URL.
    let url = url.trim_matches(|c: char| c <= ' ');
    let mut out = String::with_capacity(url.len() + 8);
    let Some(raw) = RawUrl::split(url) else {
        push_checked(url, options, &mut out);
        return out;
    };
    push_checked(raw.prefix, options, &mut out);
    if let Some(userinfo) = raw.userinfo {
        push_checked(userinfo, options, &mut out);
        out.push('@');
    }
    // A host followed by anything but a port is not a domain name to convert.
    let port_digits = raw.port.strip_prefix(':').unwrap_or(raw.port);
    if raw.port.is_empty() || port_digits.bytes().all(|b| b.is_ascii_digit()) {
        push_checked(&show_host(raw.host), options, &mut out);
    } else {
        push_checked(raw.host, options, &mut out);
    }
    push_checked(raw.port, options, &mut out);

    let (fragment, directives) = match raw.fragment {
        Some(f) => match f.find(":~:") {
            Some(at) => (Some(&f[..at]), Some(&f[at + 3..])),
            None => (Some(f), None),
        },
        None => (None, None),
    };
    let layout = Layout {
        path: raw.path.is_some(),
        query: raw.query.is_some(),
        fragment: fragment.is_some(),
        directives: directives.map_or(0, |d| d.split(":~:").count()),
    };
    let legacy = [raw.path, raw.query, raw.fragment]
        .into_iter()
        .flatten()
        .any(has_invalid_utf8);
    let mut writer = PartWriter::new(&mut out, options, layout);
    if let Some(path) = raw.path {
        writer.part(UrlPart::Path, |w| decode(path, UrlPart::Path, legacy, w));
    }
    if let Some(query) = raw.query {
        writer.part(UrlPart::Query, |w| decode(query, UrlPart::Query, legacy, w));
    }
    if let Some(fragment) = fragment {
        writer.part(UrlPart::Fragment, |w| {
            decode(fragment, UrlPart::Fragment, legacy, w)
        });
    }
    for directive in directives.into_iter().flat_map(|d| d.split(":~:")) {
        writer.part(UrlPart::FragmentDirective, |w| {
            decode(directive, UrlPart::FragmentDirective, legacy, w)
        });
    }
    out
}

/// A hierarchical URL string cut at its literal syntax characters. Parts are given without
/// their initiators.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct RawUrl<'a> {
    /// `scheme://`, `//` or empty.
    pub(crate) prefix: &'a str,
    pub(crate) userinfo: Option<&'a str>,
    pub(crate) host: &'a str,
    /// What follows the host in the authority: `:` and the port, or empty (or, in a
    /// malformed authority, anything, kept as given).
    pub(crate) port: &'a str,
    pub(crate) path: Option<&'a str>,
    pub(crate) query: Option<&'a str>,
    pub(crate) fragment: Option<&'a str>,
}

impl<'a> RawUrl<'a> {
    /// Splits `url`; `None` for a non-hierarchical URL such as `mailto:x@example.com`.
    pub(crate) fn split(url: &'a str) -> Option<RawUrl<'a>> {
        let prefix_len = match scheme_colon(url) {
            Some(colon) if url[colon + 1..].starts_with("//") => colon + 3,
            Some(colon) if is_port(&url[colon + 1..]) => 0,
            Some(_) => return None,
            None if url.starts_with("//") => 2,
            None => 0,
        };
        let (prefix, rest) = url.split_at(prefix_len);
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, mut rest) = rest.split_at(authority_end);
        let (userinfo, host_port) = match authority.rfind('@') {
            Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
            None => (None, authority),
        };
        let host_end = if host_port.starts_with('[') {
            host_port
                .find(']')
                .map_or(host_port.len(), |close| close + 1)
        } else {
            host_port.find(':').unwrap_or(host_port.len())
        };
        let (host, port) = host_port.split_at(host_end);

        let mut take = |initiator: char, ends: &[char]| -> Option<&'a str> {
            let body = rest.strip_prefix(initiator)?;
            let end = body.find(ends).unwrap_or(body.len());
            rest = &body[end..];
            Some(&body[..end])
        };
        let path = take('/', &['?', '#']);
        let query = take('?', &['#']);
        let fragment = take('#', &[]);
        Some(RawUrl {
            prefix,
            userinfo,
            host,
            port,
            path,
            query,
            fragment,
        })
    }
}

/// The offset of the `:` after a leading scheme name `[A-Za-z][A-Za-z0-9+.-]*`, if any.
fn scheme_colon(url: &str) -> Option<usize> {
    let bytes = url.as_bytes();
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    let len = bytes
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')))?;
    (bytes[len] == b':').then_some(len)
}

/// Whether `rest` (after a `:`) starts with a port: one or more digits, then the end or
/// `/`, `?`, `#`. Then `name:` was a host, as in `localhost:8080/`.
fn is_port(rest: &str) -> bool {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(rest.as_bytes().get(digits), None | Some(b'/' | b'?' | b'#'))
}

/// Whether a `%XX` escape decoding to the ASCII character `c` stays escaped in `part`.
///
/// `%` itself (`%25`) is decoded: [`Interior::literal`] writes it back as `%25` exactly
/// when two hex digits follow it, where it would read as the start of an escape. `#` is
/// decoded in a fragment and a directive, as [`super::escape_url_parts`] writes it there
/// (only the first `#` of a URL starts its fragment).
fn keeps_escaped(part: UrlPart, c: char) -> bool {
    is_syntax(part, c)
        || match part {
            UrlPart::Path | UrlPart::Query | UrlPart::Fragment => false,
            UrlPart::FragmentDirective => matches!(c, '&' | ',' | '-'),
        }
}

/// The byte that the two hex digits at `bytes[at..at + 2]` spell, if they are hex digits.
fn hex_pair(bytes: &[u8], at: usize) -> Option<u8> {
    let digit = |b: u8| (b as char).to_digit(16);
    let hi = digit(*bytes.get(at)?)?;
    let lo = digit(*bytes.get(at + 1)?)?;
    Some((hi * 16 + lo) as u8)
}

/// The escape `%XX` at `at`, if there is one.
fn escape_at(bytes: &[u8], at: usize) -> Option<u8> {
    if bytes.get(at) == Some(&b'%') {
        hex_pair(bytes, at + 1)
    } else {
        None
    }
}

/// The length of the UTF-8 sequence that `lead` starts, or 0 if it cannot start one.
fn sequence_len(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// One unit of a part's raw text.
enum Token {
    /// A character written as itself.
    Literal(char),
    /// An escape `%XX` of an ASCII byte.
    Ascii(u8),
    /// Escapes that spell a valid UTF-8 sequence of a non-ASCII character.
    Utf8(char),
    /// An escaped non-ASCII byte that is not part of a valid UTF-8 sequence.
    Invalid(u8),
}

/// The token at byte `i` of `raw` and its length in bytes. An invalid sequence yields its
/// first byte only; the bytes after it are looked at again (each is a continuation byte
/// or a new lead), so every byte of an invalid sequence becomes one `Invalid` token.
fn token_at(raw: &str, i: usize) -> Option<(Token, usize)> {
    let bytes = raw.as_bytes();
    let Some(lead) = escape_at(bytes, i) else {
        let c = raw.get(i..)?.chars().next()?;
        return Some((Token::Literal(c), c.len_utf8()));
    };
    if lead < 0x80 {
        return Some((Token::Ascii(lead), 3));
    }
    let len = sequence_len(lead);
    let mut buf = [lead, 0, 0, 0];
    let mut got = 1;
    while got < len {
        match escape_at(bytes, i + 3 * got) {
            Some(b) => {
                buf[got] = b;
                got += 1;
            }
            None => break,
        }
    }
    let decoded = (len > 0 && got == len)
        .then(|| std::str::from_utf8(&buf[..len]).ok())
        .flatten()
        .and_then(|s| s.chars().next());
    Some(match decoded {
        Some(c) => (Token::Utf8(c), 3 * len),
        None => (Token::Invalid(lead), 3),
    })
}

/// The tokens of `raw`, in order.
fn tokens(raw: &str) -> impl Iterator<Item = Token> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let (token, len) = token_at(raw, i)?;
        i += len;
        Some(token)
    })
}

/// Whether the percent-escapes of `raw` hold an invalid UTF-8 sequence: then the URL is
/// taken to be in a legacy encoding, and no non-ASCII byte of it is decoded (section 4.1:
/// "if the URL … is otherwise detected to have any invalid UTF-8 sequences, then it is best
/// to percent-escape each non-ASCII byte").
fn has_invalid_utf8(raw: &str) -> bool {
    tokens(raw).any(|t| matches!(t, Token::Invalid(_)))
}

/// Writes the raw text of `part` into `w`, decoding what is safe to decode; with
/// `legacy`, escaped non-ASCII bytes all stay escaped.
fn decode(raw: &str, part: UrlPart, legacy: bool, w: &mut Interior<'_>) {
    let mut buf = [0; 4];
    for token in tokens(raw) {
        match token {
            Token::Literal(c) => w.literal(c),
            Token::Ascii(b) if keeps_escaped(part, b as char) => w.escaped_byte(b),
            Token::Ascii(b) => w.literal(b as char),
            Token::Utf8(c) if legacy => {
                for &b in c.encode_utf8(&mut buf).as_bytes() {
                    w.escaped_byte(b);
                }
            }
            Token::Utf8(c) => w.literal(c),
            Token::Invalid(b) => w.escaped_byte(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RawUrl;

    #[test]
    fn splits_hierarchical_urls() {
        let raw =
            RawUrl::split("https://user:pw@example.com:8080/a/b?k=v&x#frag:~:text=a").unwrap();
        assert_eq!(
            raw,
            RawUrl {
                prefix: "https://",
                userinfo: Some("user:pw"),
                host: "example.com",
                port: ":8080",
                path: Some("a/b"),
                query: Some("k=v&x"),
                fragment: Some("frag:~:text=a"),
            }
        );
        let raw = RawUrl::split("example.com?q#").unwrap();
        assert_eq!(
            (raw.prefix, raw.host, raw.path, raw.query, raw.fragment),
            ("", "example.com", None, Some("q"), Some(""))
        );
        let raw = RawUrl::split("localhost:8080").unwrap();
        assert_eq!((raw.host, raw.port), ("localhost", ":8080"));
        let raw = RawUrl::split("//[::1]:80/").unwrap();
        assert_eq!(
            (raw.prefix, raw.host, raw.port, raw.path),
            ("//", "[::1]", ":80", Some(""))
        );
        let raw = RawUrl::split("/only/a/path").unwrap();
        assert_eq!((raw.host, raw.path), ("", Some("only/a/path")));
    }

    #[test]
    fn non_hierarchical_urls_are_not_split() {
        for url in [
            "mailto:a@example.com",
            "tel:+1-555",
            "urn:isbn:123",
            "data:,x",
            "foo:/bar",
        ] {
            assert_eq!(RawUrl::split(url), None, "{url}");
        }
    }
}
