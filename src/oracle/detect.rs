//! Link detection, spec-literal: `initiation.md` for the host and the start, section 3.5.1
//! for termination, section 5.2 for email local parts.
//!
//! The steps are those of `initiation.md`, in its order: for every Dot, (1) the TLD run
//! (with Ignored code points between its characters passed over, a step further than
//! `initiation.md`'s, whose host walk alone passes over them),
//! (2) the trailing dot and the `@` right after a host (a local part, never a URL),
//! (3) the port, (4) the host start, walking back over HostChar and Ignored code points
//! and then forward over Ignored ones, (5) the labels, without the Ignored code points,
//! (6) the email, (7) the scheme, (8) path, query and fragment, (9) the report, which
//! spec section 1.4 makes conditional: a URL whose host is itself a public suffix of the
//! Public Suffix List's ICANN section (not a registrable domain: `co.uk`; the official
//! file links `blogspot.com`, a private entry) is not reported, and the floor moves past it
//! all the same, as after an invalid local part; and before each position from the floor
//! on, "Hosts without a TLD": `http://` or `https://` with `localhost`, an IPv4 or a
//! bracketed IPv6 address (not domains: reported as they are).

use super::{CodePoints, INVALID};
use crate::link::{Link, LinkKind};
use crate::props::{raw, LinkTerm};
use crate::tld::TldPolicy;

const BRACKET_LIMIT: usize = 125;

fn is_dot(c: u32) -> bool {
    c == '.' as u32 || c == 0x3002
}

fn is_host_char(c: u32) -> bool {
    c != INVALID && raw::is_host_char(c)
}

/// Ignored: UTS #46 status `ignored` (soft hyphen, zero width space, …).
fn is_ignored(c: u32) -> bool {
    c != INVALID && raw::is_ignored(c)
}

fn is_host_char_no_dot(c: u32) -> bool {
    is_host_char(c) && c != '.' as u32 && c != 0xFF0E && c != 0x3002
}

fn is_email_char(c: u32) -> bool {
    c != INVALID && (raw::is_link_email(c) || c == '.' as u32)
}

fn link_term(c: u32) -> LinkTerm {
    raw::link_term(c)
}

fn to_string(cp: &[u32]) -> String {
    cp.iter().filter_map(|&c| char::from_u32(c)).collect()
}

/// Whether `cp[at..]` starts with the ASCII string `s`, ignoring ASCII case.
fn matches_at(cp: &[u32], at: usize, s: &str) -> bool {
    s.len() <= cp.len().saturating_sub(at)
        && s.bytes().zip(&cp[at..]).all(|(b, &c)| {
            char::from_u32(c).is_some_and(|c| c.is_ascii() && (c as u8).eq_ignore_ascii_case(&b))
        })
}

/// Whether `label` is a TLD under `policy`: looked up in a plain sorted list (not the fast
/// hash set) after ASCII lower-casing.
fn is_tld(label: &[u32], policy: &TldPolicy) -> bool {
    let label = to_string(label).to_ascii_lowercase();
    match policy {
        TldPolicy::Iana => crate::tables::TLDS.binary_search(&label.as_str()).is_ok(),
        TldPolicy::List(set) => set.iter().any(|t| t == label),
        TldPolicy::Syntactic => crate::tld::is_syntactic_tld(label.as_bytes()),
    }
}

/// All links of `text`, by the steps of `initiation.md`.
pub fn find_links(text: &[u8], policy: &TldPolicy) -> Vec<Link> {
    let CodePoints { cp, offset } = CodePoints::new(text);
    let n = cp.len();
    let mut links = Vec::new();
    let mut floor = 0;
    let link = |start: usize, end: usize, kind, has_scheme| Link {
        start: offset[start],
        end: offset[end],
        kind,
        has_scheme,
    };

    for d in 0..n {
        // Hosts without a TLD: `http://` or `https://` beginning here.
        if d >= floor {
            if let Some(end) = literal_host_link_end(&cp, d) {
                links.push(link(d, end, LinkKind::Url, true));
                floor = end;
                continue;
            }
        }

        // 1. Candidate: a Dot followed by a maximal run R of HostCharNoDot that is a TLD.
        if !is_dot(cp[d]) {
            continue;
        }
        //    Ignored code points between characters of R belong to it, and are left out
        //    of the TLD (`example.co` SHY `m` is `example.com`).
        let mut end = d + 1;
        loop {
            while end < n && is_host_char_no_dot(cp[end]) {
                end += 1;
            }
            let mut after = end;
            while after < n && is_ignored(cp[after]) {
                after += 1;
            }
            if end == d + 1 || after == end || after == n || !is_host_char_no_dot(cp[after]) {
                break;
            }
            end = after;
        }
        let tld: Vec<u32> = cp[d + 1..end]
            .iter()
            .copied()
            .filter(|&c| !is_ignored(c))
            .collect();
        if end == d + 1 || !is_tld(&tld, policy) {
            continue;
        }
        let email_end = end;

        // 2. Trailing dot; R is an inner label when a Dot and a label follow it, Ignored
        //    code points on either side of that Dot passed over (`example.co` SHY `.uk`).
        let mut dot = end;
        while dot < n && is_ignored(cp[dot]) {
            dot += 1;
        }
        if dot < n && is_dot(cp[dot]) {
            let mut label = dot + 1;
            while label < n && is_ignored(cp[label]) {
                label += 1;
            }
            if label < n && is_host_char_no_dot(cp[label]) {
                continue;
            }
        }
        let mut trailing_dot = false;
        if end < n && is_dot(cp[end]) {
            end += 1;
            trailing_dot = true;
        }
        // ... and a host right before '@' is an email's local part, never a URL.
        if end < n && cp[end] == '@' as u32 {
            continue;
        }
        let host_end = end;

        // 3. Port.
        let mut has_port = false;
        if end < n && cp[end] == ':' as u32 {
            let mut digits = 0;
            while end + 1 + digits < n
                && char::from_u32(cp[end + 1 + digits]).is_some_and(|c| c.is_ascii_digit())
            {
                digits += 1;
            }
            if digits > 0 {
                let value: u64 = to_string(&cp[end + 1..end + 1 + digits])
                    .parse()
                    .unwrap_or(u64::MAX);
                if digits > 5 || value > 65535 {
                    continue;
                }
                end += 1 + digits;
                has_port = true;
            }
        }

        // 4. Host start: walk back over HostChar and Ignored, never before floor, then
        //    forward over Ignored: a host never starts with one.
        let mut start = d;
        while start > floor && (is_host_char(cp[start - 1]) || is_ignored(cp[start - 1])) {
            start -= 1;
        }
        while start < d && is_ignored(cp[start]) {
            start += 1;
        }
        if start == d || d < floor {
            continue;
        }

        // 5. Labels: split on Dots, without the Ignored code points; no empty label but
        //    the last, none starting or ending with '-'.
        let host: Vec<u32> = cp[start..host_end]
            .iter()
            .copied()
            .filter(|&c| !is_ignored(c))
            .collect();
        let labels: Vec<&[u32]> = host.split(|&c| is_dot(c)).collect();
        let last = labels.len() - 1;
        let bad_label = labels.iter().enumerate().any(|(i, label)| {
            (label.is_empty() && i != last)
                || label.first() == Some(&('-' as u32))
                || label.last() == Some(&('-' as u32))
        });
        if bad_label {
            continue;
        }

        // 6. Email, when '@' stands right before the host.
        if start > floor && cp[start - 1] == '@' as u32 {
            let at = start - 1;
            let local_start = email_local_part_start(&cp, at, floor);
            floor = end;
            if let Some((local_start, mailto)) = local_start {
                links.push(link(local_start, email_end, LinkKind::Email, mailto));
            }
            continue;
        }

        // 7. Scheme: `https://`, `http://`, else any other RFC 3986 `scheme://`; after a
        //    script scheme the whole domain is skipped.
        let mut link_start = start;
        for scheme in ["https://", "http://"] {
            if start >= floor + scheme.len() && matches_at(&cp, start - scheme.len(), scheme) {
                link_start = start - scheme.len();
                break;
            }
        }
        if link_start == start && start >= floor + 3 && matches_at(&cp, start - 3, "://") {
            let is_scheme_char = |c: u32| {
                char::from_u32(c)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            };
            let mut run = start - 3;
            while run > floor && is_scheme_char(cp[run - 1]) {
                run -= 1;
            }
            let first_letter = (run..start - 3)
                .find(|&i| char::from_u32(cp[i]).is_some_and(|c| c.is_ascii_alphabetic()));
            if let Some(at) = first_letter {
                let scheme = to_string(&cp[at..start - 3]).to_ascii_lowercase();
                if ["javascript", "vbscript", "data"].contains(&scheme.as_str()) {
                    floor = end;
                    continue;
                }
                link_start = at;
            }
        }

        // 8. Path, query, fragment (section 3.5.1), else drop a trailing dot.
        let link_end = if end < n && [b'/', b'?', b'#'].iter().any(|&b| cp[end] == b as u32) {
            terminate_cp(&cp, link_start, end)
        } else if trailing_dot && !has_port {
            host_end - 1
        } else {
            end
        };

        // 9. Report, unless the host is a public suffix (section 1.4); the floor moves
        //    either way.
        floor = link_end;
        if is_icann_suffix(&host) {
            continue;
        }
        links.push(link(
            link_start,
            link_end,
            LinkKind::Url,
            link_start != start,
        ));
    }
    links
}

/// Spec section 1.4: whether `host` (its code points, Ignored ones already left out, a
/// trailing dot allowed) is itself a public suffix, so not a registrable domain: its
/// UTS #46 ASCII form, without a trailing dot, is an entry of the ICANN section of the
/// Public Suffix List (the list's default rule for unknown names aside). A host UTS #46
/// refuses is none.
fn is_icann_suffix(host: &[u32]) -> bool {
    let Ok(ascii) = idna::domain_to_ascii(&to_string(host)) else {
        return false;
    };
    let ascii = ascii.strip_suffix('.').unwrap_or(&ascii);
    match psl::suffix(ascii.as_bytes()) {
        Some(suffix) => {
            suffix.is_known()
                && suffix.as_bytes() == ascii.as_bytes()
                && suffix.typ() == Some(psl::Type::Icann)
        }
        None => false,
    }
}

/// `initiation.md`, "Hosts without a TLD": when `http://` or `https://` (any case)
/// begins at `p`, not right after an ASCII letter, digit, `+`, `-` or `.`, and the host
/// after it is `localhost`, a dotted-decimal IPv4 address or a bracketed IPv6 address
/// (for the first two, followed by neither HostChar nor Ignored), the end of the link:
/// after an optional port (a bad port: no link) and the path, query and fragment. An `@`
/// right after the host or its port makes it userinfo: no link.
fn literal_host_link_end(cp: &[u32], p: usize) -> Option<usize> {
    let n = cp.len();
    let scheme_len = if matches_at(cp, p, "https://") {
        8
    } else if matches_at(cp, p, "http://") {
        7
    } else {
        return None;
    };
    if p > 0 {
        let before = char::from_u32(cp[p - 1]).unwrap_or('\u{FFFD}');
        if before.is_ascii_alphanumeric() || matches!(before, '+' | '-' | '.') {
            return None;
        }
    }
    let host = p + scheme_len;
    let mut end;
    if host < n && cp[host] == '[' as u32 {
        let close = (host..n).find(|&i| cp[i] == ']' as u32)?;
        if !is_ipv6(&to_string(&cp[host + 1..close])) {
            return None;
        }
        end = close + 1;
    } else {
        // The longest run of ASCII letters, digits and dots is the candidate host; it
        // must be all of the host (what follows it is checked below).
        let mut run = host;
        while run < n
            && char::from_u32(cp[run]).is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
        {
            run += 1;
        }
        let word = to_string(&cp[host..run]);
        // `localhost` or an address, then neither HostChar nor Ignored. (A run that is
        // longer holds a HostChar right after the host: no link either way.)
        let len = if word.len() >= 9 && word[..9].eq_ignore_ascii_case("localhost") {
            9
        } else {
            ipv4_prefix_len(&word)?
        };
        end = host + len;
        if end < n && (is_host_char(cp[end]) || is_ignored(cp[end])) {
            return None;
        }
    }
    // 3. Port.
    if end < n && cp[end] == ':' as u32 {
        let mut digits = 0;
        while end + 1 + digits < n
            && char::from_u32(cp[end + 1 + digits]).is_some_and(|c| c.is_ascii_digit())
        {
            digits += 1;
        }
        if digits > 0 {
            let value: u64 = to_string(&cp[end + 1..end + 1 + digits])
                .parse()
                .unwrap_or(u64::MAX);
            if digits > 5 || value > 65535 {
                return None;
            }
            end += 1 + digits;
        }
    }
    // Userinfo: `http://localhost@evil.com` names the host after the `@`; no link.
    if end < n && cp[end] == '@' as u32 {
        return None;
    }
    // 8. Path, query, fragment.
    if end < n && [b'/', b'?', b'#'].iter().any(|&b| cp[end] == b as u32) {
        return Some(terminate_cp(cp, p, end));
    }
    Some(end)
}

/// The length of the longest prefix of `s` that is a dotted-decimal IPv4 address (four
/// numbers 0–255 without leading zeros); the caller checks what follows it.
fn ipv4_prefix_len(s: &str) -> Option<usize> {
    // The four numbers are the first four dot-separated fields.
    let fields: Vec<&str> = s.splitn(5, '.').collect();
    if fields.len() < 4 {
        return None;
    }
    let mut len = 3; // the dots between them
    for (i, field) in fields[..4].iter().enumerate() {
        // The last field may run on into letters or digits: those follow the host.
        let number = if i == 3 {
            let digits = field.bytes().take_while(u8::is_ascii_digit).count();
            &field[..digits]
        } else {
            field
        };
        if !is_dec_octet(number) {
            return None;
        }
        len += number.len();
    }
    Some(len)
}

/// A decimal number 0–255 without leading zeros.
fn is_dec_octet(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 3
        && s.bytes().all(|b| b.is_ascii_digit())
        && !(s.len() > 1 && s.starts_with('0'))
        && s.parse::<u32>().is_ok_and(|v| v <= 255)
}

/// An IPv6 address in the text form of RFC 4291 section 2.2: eight groups of one to four
/// hex digits separated by `:`, at most one `::` standing for one or more zero groups,
/// and optionally the last 32 bits as a dotted-decimal IPv4 address.
fn is_ipv6(s: &str) -> bool {
    let (head, tail, compressed) = match s.find("::") {
        Some(i) => (&s[..i], &s[i + 2..], true),
        None => (s, "", false),
    };
    if tail.contains("::") {
        return false;
    }
    // The number of 16-bit pieces in a `:`-separated list; an IPv4 address is allowed as
    // the last field of the address only.
    let pieces = |part: &str, last: bool| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let fields: Vec<&str> = part.split(':').collect();
        let mut count = 0;
        for (i, field) in fields.iter().enumerate() {
            if last && i == fields.len() - 1 && field.contains('.') {
                let octets: Vec<&str> = field.split('.').collect();
                if octets.len() != 4 || !octets.iter().all(|o| is_dec_octet(o)) {
                    return None;
                }
                count += 2;
            } else if (1..=4).contains(&field.len()) && field.bytes().all(|b| b.is_ascii_hexdigit())
            {
                count += 1;
            } else {
                return None;
            }
        }
        Some(count)
    };
    let (Some(h), Some(t)) = (pieces(head, !compressed), pieces(tail, true)) else {
        return false;
    };
    if compressed {
        h + t <= 7
    } else {
        h == 8
    }
}

/// Section 5.2 (with the additions of `initiation.md` step 6): the start of the local part
/// before the '@' at `n`, and whether "mailto:" was included; `None`: fail to match.
fn email_local_part_start(cp: &[u32], n: usize, floor: usize) -> Option<(usize, bool)> {
    // If n = 0, fail to match. If cp[n-1] == '.', fail to match.
    if n == 0 || n <= floor || cp[n - 1] == '.' as u32 {
        return None;
    }
    // Scan backward from i = n - 1 (never before floor).
    let mut start = floor;
    let mut i = n;
    while i > floor {
        i -= 1;
        if cp[i] == '.' as u32 {
            if cp[i + 1] == '.' as u32 {
                return None;
            }
        } else if !is_email_char(cp[i]) {
            start = i + 1;
            break;
        }
    }
    if cp[start] == '.' as u32 || start == n {
        return None;
    }
    // scheme://userinfo@host is deprecated userinfo, not an email.
    if matches_at(cp, start, "//") && start > 0 && cp[start - 1] == ':' as u32 {
        return None;
    }
    // scheme://user:password@host: the password is no local part either.
    if start > floor && cp[start - 1] == ':' as u32 {
        let colon = start - 1;
        let mut user = colon;
        while user > floor && is_email_char(cp[user - 1]) {
            user -= 1;
        }
        if matches_at(cp, user, "//") && user < colon && user > 0 && cp[user - 1] == ':' as u32 {
            return None;
        }
    }
    // If "mailto:" is immediately before start, include it.
    if start >= floor + 7 && matches_at(cp, start - 7, "mailto:") {
        return Some((start - 7, true));
    }
    Some((start, false))
}

/// The termination algorithm of section 3.5.1 over the code points of `text`, starting at
/// the byte offset `at` (which should hold '/', '?' or '#'). Returns the byte offset of
/// the end of the link; `at` itself when no part starts there.
pub fn terminate(text: &[u8], at: usize) -> usize {
    let cps = CodePoints::new(text);
    let Some(start) = cps.offset.iter().position(|&o| o == at) else {
        return at;
    };
    cps.offset[terminate_cp(&cps.cp, start, start)]
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Part {
    Path,
    Query,
    Fragment,
    FragmentDirective,
}

impl Part {
    fn initiator(self) -> &'static str {
        match self {
            Part::Path => "/",
            Part::Query => "?",
            Part::Fragment => "#",
            Part::FragmentDirective => ":~:",
        }
    }
    fn terminators(self) -> &'static [&'static str] {
        match self {
            Part::Path => &["?", "#"],
            Part::Query => &["#"],
            Part::Fragment => &[":~:"],
            Part::FragmentDirective => &[],
        }
    }
    fn clear_stack_open(self) -> &'static [&'static str] {
        match self {
            Part::Path => &["/"],
            Part::Query => &["=", "&"],
            Part::Fragment => &[],
            Part::FragmentDirective => &["&", ",", ":~:"],
        }
    }
}

fn matches_exact(cp: &[u32], at: usize, s: &str) -> bool {
    s.len() <= cp.len() - at && s.bytes().zip(&cp[at..]).all(|(b, &c)| c == b as u32)
}

/// Section 3.5.1, literally: `link_start` and `start` are code point indices.
fn terminate_cp(cp: &[u32], link_start: usize, start: usize) -> usize {
    let n = cp.len();
    let mut last_safe = link_start;
    let mut part: Option<Part> = None;
    let mut previous_part: Option<Part> = None;
    let limit = BRACKET_LIMIT;
    let mut open_stack: Vec<u32> = Vec::new();
    let mut i = start;
    while i < n {
        if let Some(p) = part {
            if p.terminators().iter().any(|t| matches_exact(cp, i, t)) {
                previous_part = Some(p);
                part = None;
            }
        }
        if part.is_none() {
            let initiators = [
                Part::Path,
                Part::Query,
                Part::Fragment,
                Part::FragmentDirective,
            ];
            let Some(p) = initiators
                .into_iter()
                .find(|p| matches_exact(cp, i, p.initiator()))
            else {
                return last_safe;
            };
            part = Some(p);
            if p == Part::FragmentDirective
                && !matches!(
                    previous_part,
                    Some(Part::Fragment | Part::FragmentDirective)
                )
            {
                return last_safe;
            }
            i += p.initiator().len();
            last_safe = i;
            open_stack.clear();
            continue;
        }
        let p = part.expect("part is set");
        if let Some(sep) = p
            .clear_stack_open()
            .iter()
            .find(|s| matches_exact(cp, i, s))
        {
            i += sep.len();
            last_safe = i;
            open_stack.clear();
            continue;
        }
        match link_term(cp[i]) {
            LinkTerm::Include => {
                last_safe = i + 1;
            }
            LinkTerm::Soft => {}
            LinkTerm::Hard => return last_safe,
            LinkTerm::Open => {
                if open_stack.len() == limit {
                    return last_safe;
                }
                open_stack.push(cp[i]);
                last_safe = i + 1;
            }
            LinkTerm::Close => {
                let Some(last_open) = open_stack.pop() else {
                    return last_safe;
                };
                if raw::link_bracket(cp[i]) == Some(last_open) {
                    last_safe = i + 1;
                } else {
                    return last_safe;
                }
            }
        }
        i += 1;
    }
    last_safe
}
