//! URL minimal escaping, spec-literal: section 4.1 over vectors of code points, with the
//! interior escaping it presupposes written out as plainly as possible.

use crate::format::{format_host, UrlPart, UrlParts};
use crate::props::{link_bracket, link_term, LinkTerm};

const LIMIT: usize = 125;

/// One URL part as section 4.1 sees it: its kind and its code points, interior escaping
/// done.
///
/// ```
/// use linkscan::format::UrlPart;
/// let part = linkscan::oracle::Part { kind: UrlPart::Fragment, cp: "a b.".chars().collect() };
/// assert_eq!(linkscan::oracle::minimal_escape(&[part]), "#a%20b%2E");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Path, Query, Fragment or Fragment Directive.
    pub kind: UrlPart,
    /// `cp[0..n]`.
    pub cp: Vec<char>,
}

fn terminators(kind: UrlPart) -> &'static [&'static str] {
    match kind {
        UrlPart::Path => &["?", "#"],
        UrlPart::Query => &["#"],
        UrlPart::Fragment => &[":~:"],
        UrlPart::FragmentDirective => &[],
    }
}

fn clear_stack_open(kind: UrlPart) -> &'static [&'static str] {
    match kind {
        UrlPart::Path => &["/"],
        UrlPart::Query => &["=", "&"],
        UrlPart::Fragment => &[],
        UrlPart::FragmentDirective => &["&", ",", ":~:"],
    }
}

fn matches_at(cp: &[char], i: usize, s: &str) -> bool {
    let s: Vec<char> = s.chars().collect();
    i + s.len() <= cp.len() && cp[i..i + s.len()] == s[..]
}

fn percent_escape(c: char) -> String {
    let mut buf = [0; 4];
    c.encode_utf8(&mut buf)
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect()
}

/// Section 4.1, step by step: the formatted Path, Query and Fragment (with their
/// initiators) of a URL whose non-empty parts are `parts`, in order.
///
/// ```
/// use linkscan::format::UrlPart;
/// use linkscan::oracle::{minimal_escape, Part};
/// let parts = [
///     Part { kind: UrlPart::Path, cp: "α(β)".chars().collect() },
///     Part { kind: UrlPart::Query, cp: "γ(δ))".chars().collect() },
/// ];
/// assert_eq!(minimal_escape(&parts), "/α(β)?γ(δ)%29");
/// ```
pub fn minimal_escape(parts: &[Part]) -> String {
    let mut output = String::new();
    for (k, part) in parts.iter().enumerate() {
        let cp = &part.cp;
        let n = cp.len();
        output.push_str(part.kind.initiator());
        let mut copied_already = 0;
        let mut open_stack: Vec<char> = Vec::new();
        for i in 0..n {
            let mut lt = if terminators(part.kind).iter().any(|t| matches_at(cp, i, t)) {
                LinkTerm::Hard
            } else {
                link_term(cp[i])
            };
            if clear_stack_open(part.kind)
                .iter()
                .any(|s| matches_at(cp, i, s))
            {
                open_stack.clear();
            }
            if lt == LinkTerm::Open {
                if open_stack.len() == LIMIT {
                    lt = LinkTerm::Hard;
                } else {
                    open_stack.push(cp[i]);
                    lt = LinkTerm::Include;
                }
            } else if lt == LinkTerm::Close {
                let last_open = open_stack.pop();
                lt = if last_open.is_some() && link_bracket(cp[i]) == last_open {
                    LinkTerm::Include
                } else {
                    LinkTerm::Hard
                };
            }
            match lt {
                LinkTerm::Include => {
                    output.extend(&cp[copied_already..i]);
                    output.push(cp[i]);
                    copied_already = i + 1;
                }
                LinkTerm::Hard => {
                    output.extend(&cp[copied_already..i]);
                    output.push_str(&percent_escape(cp[i]));
                    copied_already = i + 1;
                }
                _ => {} // Soft: continue.
            }
        }
        let is_last = k + 1 == parts.len();
        if !is_last {
            output.extend(&cp[copied_already..n]);
        } else if copied_already < n {
            output.extend(&cp[copied_already..n - 1]);
            output.push_str(&percent_escape(cp[n - 1]));
        }
    }
    output
}

/// Interior escaping of one value: each character of `value` in `escape_set` is
/// percent-escaped, and so is each `%` followed by two hex digits; with `colons`, so is the
/// first `:` of each `:~:` in `value` followed by `then` (the text written after it).
fn interior(value: &str, escape_set: &[char], colons: bool, then: &str) -> Vec<char> {
    let cp: Vec<char> = value.chars().collect();
    let context: Vec<char> = value.chars().chain(then.chars()).collect();
    let mut out = Vec::new();
    for (i, &c) in cp.iter().enumerate() {
        let escape = escape_set.contains(&c)
            || (c == '%'
                && context.get(i + 1).is_some_and(char::is_ascii_hexdigit)
                && context.get(i + 2).is_some_and(char::is_ascii_hexdigit))
            || (colons && matches_at(&context, i, ":~:"));
        if escape {
            out.extend(percent_escape(c).chars());
        } else {
            out.push(c);
        }
    }
    out
}

/// Formats `parts` like [`crate::format::escape_url_parts`]: interior escaping of each
/// value (path `/ ? # \`, query `+ # = &`, the first `:` of a `:~:` in a fragment or a
/// directive, a `%` before two hex digits), then [`minimal_escape`]; the host via
/// [`format_host`].
///
/// ```
/// use linkscan::format::UrlParts;
/// let url = UrlParts::new("example.com").with_scheme("https").with_segment("α").with_segment("β/γ.");
/// assert_eq!(linkscan::oracle::format_url_parts(&url), "https://example.com/α/β%2Fγ%2E");
/// ```
pub fn format_url_parts(url: &UrlParts) -> String {
    let mut output = String::new();
    if let Some(scheme) = &url.scheme {
        output.push_str(scheme);
        output.push_str("://");
    }
    output.push_str(&format_host(&url.host));
    if let Some(port) = url.port {
        output.push_str(&format!(":{port}"));
    }
    let mut parts = Vec::new();
    if !url.path.is_empty() {
        let mut cp = Vec::new();
        for (k, segment) in url.path.iter().enumerate() {
            if k > 0 {
                cp.push('/');
            }
            cp.extend(interior(segment, &['/', '?', '#', '\\'], false, ""));
        }
        parts.push(Part {
            kind: UrlPart::Path,
            cp,
        });
    }
    if !url.query.is_empty() {
        let mut cp = Vec::new();
        for (k, (key, value)) in url.query.iter().enumerate() {
            if k > 0 {
                cp.push('&');
            }
            cp.extend(interior(key, &['+', '#', '=', '&'], false, ""));
            if let Some(value) = value {
                cp.push('=');
                cp.extend(interior(value, &['+', '#', '=', '&'], false, ""));
            }
        }
        parts.push(Part {
            kind: UrlPart::Query,
            cp,
        });
    }
    let directives = &url.fragment_directives;
    if url.fragment.is_some() || !directives.is_empty() {
        let then = if directives.is_empty() { "" } else { ":~:" };
        let fragment = url.fragment.as_deref().unwrap_or("");
        parts.push(Part {
            kind: UrlPart::Fragment,
            cp: interior(fragment, &[], true, then),
        });
    }
    for (k, directive) in directives.iter().enumerate() {
        let then = if k + 1 < directives.len() { ":~:" } else { "" };
        parts.push(Part {
            kind: UrlPart::FragmentDirective,
            cp: interior(directive, &[], true, then),
        });
    }
    output.push_str(&minimal_escape(&parts));
    output
}
