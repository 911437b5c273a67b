//! What the finder reports beyond detection: [`Policy::Conformant`] (everything UTS #58
//! detects, the default) or [`Policy::Readable`], the higher level that spec section 8
//! allows, which rejects detections or moves their bounds so that what is reported is
//! what a reader of the text would link.
//!
//! The readable policy is a fixed sequence of small rules over one detected link and the
//! characters right around it; [`Policy::Readable`] lists them, and [`readable`] applies
//! them in that order.
//!
//! Invariants: a rule only ever rejects a link or moves its start later or its end earlier,
//! to a character boundary inside it; the result is still non-empty and starts and ends
//! where a link can. A rule looks at the link and at most the two characters on either
//! side of it, never across an ASCII space or control character (the start and the end of
//! the text read as a space), so scanning a text piece by piece, as parallel and streaming
//! scans do, gives the same links as scanning it whole. The conformant policy costs one
//! predictable branch per link.

use crate::link::{Link, LinkKind};
use crate::registrable::Suffix;
use crate::terminate::link_end_bytes;
use crate::utf8;

/// Which of the detected links the finder reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Policy {
    /// Every link UTS #58 detects, with its bounds (the default).
    #[default]
    Conformant,
    /// Detection refined for readers (spec section 8): code and file names without a
    /// scheme are rejected, and hosts do not run into the ideographic text before them.
    /// Its rules, in the order they apply:
    ///
    /// | rule | links | effect | example |
    /// | --- | --- | --- | --- |
    /// | `closing_backtick` | all URLs | a link right after a backtick ends at the next one | ``slack.com/about`，但是`` → `slack.com/about` |
    /// | `escaped_angle_bracket` | all URLs | a link ending in `&gt` or `&quot` before `;` ends before the `&` | `&lt;https://x.org/a&gt;` → `https://x.org/a` |
    /// | `empty_query_or_fragment` | all URLs | a link ending in a `?` or `#` that starts an empty query or fragment ends before it: the sentence's question mark, not part of the link | `Have you tried example.com? It works` → `example.com`; `x.com/?q=1`, `x.com/#top` stay |
    /// | `ideographic_full_stop` | URLs without scheme | the host starts after its last `。` | `提供開始します。cache.ruby-lang.org` → `cache.ruby-lang.org`; `冷水。AI`, `取消了。亚马逊`, `例え。みんな` → none |
    /// | `script_boundary` | URLs without scheme, email local parts | the host (local part) starts after its last change, inside a label, between ideographic or complex-context letters and others; a hyphen joins what is on its sides, so a change across one keeps the host whole when both sides are alike and rejects the URL when they are not (never a cut into another domain) | `ウェブサイトはexample.com` → `example.com`; `000美元。YouTube` → none; `中文-测试.中国` stays whole |
    /// | `invisible_cut` | emails without `mailto:` | rejected when an invisible character (`Default_Ignorable_Code_Point`, not ZWNJ, ZWJ, a variation selector or a Bidi_Control) is right before the local part: the reader sees a longer address | `li\u{AD}wang@example.cn`, `x\u{200B}y@example.com` → none |
    /// | `code_neighbour` | URLs without scheme, path, query or fragment | rejected when glued to code punctuation: `(`, `[` or `_` right after, `_` `/` `\` `$` `&` `#` `::` `->` right before | `Regexp.new(`, `tm.tm_year`, `lib/build.mk`, `&mss.sa` |
    /// | `file_name` | the same | rejected when the TLD is a common file extension (and the host does not start with `www.`) | `NEWS.md`, `libc.so`, `helpers.py`, `cmd.mk` |
    /// | `method_name` | the same | rejected when the TLD, written in lower case, is a common method name (`new` only after a capitalised class name) | `IO.select`, `File.read`, `block.call`, `Proc.new` |
    /// | `public_suffix` | URLs without scheme | rejected when the host, after the rules above, is itself a public suffix in either section of the Public Suffix List ([`is_public_suffix`](crate::is_public_suffix)): spec section 1.4's MUST, which every finder applies with the list's ICANN section (`co.uk`), here with its private section too, as browsers do | `github.io`, `blogspot.com`, `ウェブサイトはco.uk` → none; `user.github.io`, `bbc.co.uk` stay |
    /// | `abbreviation` | the same | rejected when the host is two labels, the first one or two ASCII letters starting in upper case, the second (the TLD) a capital and then lower-case letters: an academic or title abbreviation, the spec's own example of what not to link | `M.Sc.`, `B.Sc`, `B.Com`, `Ph.Sc` (but `x.com`, `T.CO`, `ab.Com.au` stay) |
    ///
    /// A URL with a scheme and an email with `mailto:` are left as detection found them (only
    /// `closing_backtick`, `escaped_angle_bracket` and `empty_query_or_fragment` may end
    /// them earlier): the writer said they are links.
    ///
    /// ```
    /// use linkscan::{LinkFinder, Policy};
    /// let text = "See rubygems.org, NEWS.md and Regexp.new('^a'); ウェブサイトはexample.com です";
    /// let finder = LinkFinder::builder().policy(Policy::Readable).build();
    /// let found: Vec<&str> = finder.links(text).map(|l| l.as_str()).collect();
    /// assert_eq!(found, ["rubygems.org", "example.com"]);
    /// ```
    Readable,
}

/// TLDs that, without a scheme, are far more often a file extension than a domain:
/// `configure.ac`, `Makefile.am`, `configure.in`, `man.7.man`, `NEWS.md`, `lint.mk`,
/// `l.mm` (Objective-C++), `crond.pid`, `checkpatch.pl`, `foo.ps`, `doc.py`, `lib.rs`,
/// `test.sh`, `libc.so`, `ruby.zip`. Each is an IANA TLD (a test checks it).
pub const FILE_EXTENSION_TLDS: [&str; 16] = [
    "ac", "am", "in", "man", "md", "mk", "mm", "mov", "pid", "pl", "ps", "py", "rs", "sh", "so",
    "zip",
];

/// TLDs that, written in lower case without a scheme, are far more often a method call:
/// `block.call`, `h.map`, `Dir.open`, `File.read`, `x.report`, `IO.select`, `child.next`,
/// `JsonT.run`, `meson.build`, `event.events`, `body.post`. Each is an IANA TLD.
pub const METHOD_NAME_TLDS: [&str; 11] = [
    "build", "call", "events", "map", "next", "open", "post", "read", "report", "run", "select",
];

/// The readable rules, in the order of the table above. Cheap first: a link with a
/// scheme costs one byte compare, and the two ideographic rules run only on hosts (local
/// parts) that are not all ASCII. `public_suffix`: the finder's verdict on the detected
/// host, an entry of either section of the Public Suffix List (one lookup per link).
#[inline(never)]
pub(crate) fn readable(text: &[u8], mut link: Link, public_suffix: bool) -> Option<Link> {
    if link.kind == LinkKind::Url {
        closing_backtick(text, &mut link);
        escaped_angle_bracket(text, &mut link);
        empty_query_or_fragment(text, &mut link);
    }
    if link.has_scheme {
        return Some(link);
    }
    match link.kind {
        LinkKind::Email => {
            if invisible_cut(text, link.start) {
                return None;
            }
            if text[link.start..link.end].is_ascii() {
                return Some(link); // no script boundary in it (checked a word at a time)
            }
            let at = link.start + text[link.start..link.end].iter().position(|&b| b == b'@')?;
            // A local part is not a domain: a change across a hyphen keeps it whole.
            if let Boundary::At(start) = script_boundary(text, link.start, at) {
                link.start = start;
            }
            Some(link)
        }
        LinkKind::Url => {
            // One pass over the host: where it ends, and whether it is all ASCII.
            let mut host_end = link.end;
            let mut high = 0u8;
            for (i, &b) in text[link.start..link.end].iter().enumerate() {
                if matches!(b, b'/' | b'?' | b'#' | b':') {
                    host_end = link.start + i;
                    break;
                }
                high |= b;
            }
            let ascii = high < 0x80;
            let detected_start = link.start;
            if !ascii {
                if let Some(start) = ideographic_full_stop(text, link.start, host_end) {
                    link.start = start;
                    has_inner_dot(text, link.start, host_end).then_some(())?;
                }
                match script_boundary(text, link.start, host_end) {
                    Boundary::None => {}
                    Boundary::At(start) => {
                        link.start = start;
                        has_inner_dot(text, link.start, host_end).then_some(())?;
                    }
                    Boundary::AcrossHyphen => return None,
                }
            }
            // The detected host, as the finder looked it up; one that a moved start made
            // (`ウェブサイトはco.uk`) is looked up again.
            let public_suffix = if link.start == detected_start {
                public_suffix
            } else {
                crate::registrable::suffix(&text[link.start..host_end]) != Suffix::No
            };
            if public_suffix {
                return None;
            }
            if host_end == link.end || is_port(&text[host_end..link.end]) {
                if code_neighbour(text, &link) {
                    return None;
                }
                let host = &text[link.start..host_end];
                let tld = if ascii {
                    ascii_tld(host)
                } else {
                    last_labels(host).0
                };
                // Every listed TLD is 2 to 6 bytes long.
                if (2..=6).contains(&tld.len())
                    && !starts_with_www(host)
                    && (file_name(tld) || method_name(tld, || last_labels(host).1))
                {
                    return None;
                }
                if ascii && abbreviation(host) {
                    return None;
                }
            }
            Some(link)
        }
    }
}

/// The last label of an ASCII host, a trailing dot aside.
fn ascii_tld(host: &[u8]) -> &[u8] {
    let host = host.strip_suffix(b".").unwrap_or(host);
    match host.iter().rposition(|&b| b == b'.') {
        Some(dot) => &host[dot + 1..],
        None => host,
    }
}

/// Where the host of a URL ends: at the first `/`, `?`, `#` or `:` after its scheme.
fn host_end(text: &[u8], link: &Link) -> usize {
    let mut start = link.start;
    if link.has_scheme {
        // `scheme://`: the scanner took it, so it is there, in ASCII.
        let slashes = text[start..link.end].windows(3).position(|w| w == b"://");
        start += slashes.map_or(0, |i| i + 3);
    }
    text[start..link.end]
        .iter()
        .position(|b| matches!(b, b'/' | b'?' | b'#' | b':'))
        .map_or(link.end, |i| start + i)
}

fn is_port(rest: &[u8]) -> bool {
    rest.len() > 1 && rest[0] == b':' && rest[1..].iter().all(u8::is_ascii_digit)
}

const IDEOGRAPHIC_FULL_STOP: &[u8] = "。".as_bytes();

/// `text[start..end]` without one trailing Dot.
fn without_trailing_dot(text: &[u8], start: usize, end: usize) -> usize {
    if text[start..end].ends_with(b".") {
        end - 1
    } else if text[start..end].ends_with(IDEOGRAPHIC_FULL_STOP) {
        end - IDEOGRAPHIC_FULL_STOP.len()
    } else {
        end
    }
}

/// Whether a Dot separates two labels of `text[start..end]` (a trailing dot does not).
fn has_inner_dot(text: &[u8], start: usize, end: usize) -> bool {
    let end = without_trailing_dot(text, start, end);
    let host = &text[start..end];
    host.contains(&b'.') || host.windows(3).any(|w| w == IDEOGRAPHIC_FULL_STOP)
}

/// Rule `closing_backtick`: in Markdown and chat, `` `x.com/a` `` is code; Link_Term has
/// the backtick Include, so detection runs on past the closing one. A link right after a
/// backtick ends at the next backtick (and the termination algorithm runs again up to
/// there, so a Soft character before it is dropped as usual).
fn closing_backtick(text: &[u8], link: &mut Link) {
    if link.start == 0 || text[link.start - 1] != b'`' {
        return;
    }
    let Some(cut) = text[link.start..link.end].iter().position(|&b| b == b'`') else {
        return;
    };
    let cut = link.start + cut;
    // A backtick is no host character, so the cut is in the path, query or fragment.
    let path = host_end(text, link);
    link.end = if path < cut && text[path] != b':' {
        link_end_bytes(&text[..cut], path)
    } else {
        cut
    };
}

/// Rule `escaped_angle_bracket`: text that was HTML-escaped once too often shows
/// `&lt;https://x.org/a&gt;`, and detection takes `&gt` into the path (`;` is Soft). A
/// link that ends with `&gt` or `&quot` right before a `;` ends before the `&`.
fn escaped_angle_bracket(text: &[u8], link: &mut Link) {
    if text.get(link.end) != Some(&b';') {
        return;
    }
    let body = &text[link.start..link.end];
    for entity in [&b"&gt"[..], b"&quot"] {
        if body.len() > entity.len() && body.ends_with(entity) {
            let end = link.end - entity.len();
            // Only inside a path, query or fragment: the host keeps its bytes.
            if host_end(text, link) < end {
                link.end = link_end_bytes(&text[..end], host_end(text, link));
            }
            return;
        }
    }
}

/// Rule `empty_query_or_fragment`: UTS #58 keeps the `?` that starts a query and the `#`
/// that starts a fragment even with nothing after them, so a question about a link takes
/// its question mark: `Have you tried example.com? It works.` gives `example.com?`. A link
/// that ends with such an initiator (the first `?` after the host and before any `#`, or
/// the first `#`), whatever follows it (a space, the end of the text, `)` or `.`), ends
/// before it, and the termination algorithm runs again up to there (a Soft character
/// before it is dropped as usual). Repeated while it applies: `x.com?#` gives `x.com`. A
/// `?` or `#` with something after it in the link is kept (`x.com/?q=1`, `x.com/#top`),
/// as is one inside a query or fragment (`x.com/?q=1?`, `x.com/#a?`).
fn empty_query_or_fragment(text: &[u8], link: &mut Link) {
    loop {
        let last = text[link.end - 1];
        if last != b'?' && last != b'#' {
            return;
        }
        let path = host_end(text, link);
        let rest = &text[path..link.end];
        let initiator = rest
            .iter()
            .position(|&b| b == last)
            .filter(|&i| last == b'#' || !rest[..i].contains(&b'#'));
        if initiator != Some(rest.len() - 1) {
            return;
        }
        let cut = link.end - 1;
        // Terminated again from the first initiator after the host (a port's digits are
        // no Soft characters): `x.com/a.?` ends before its full stop too.
        link.end = match text[path..cut]
            .iter()
            .position(|b| matches!(b, b'/' | b'?' | b'#'))
        {
            Some(i) => link_end_bytes(&text[..cut], path + i),
            None => cut,
        };
    }
}

/// Rule `ideographic_full_stop`: `。` ends sentences in Chinese and Japanese, and a word
/// after it that happens to be a TLD (`AI`, `App`, `亚马逊`) would make the sentence a
/// host. Without a scheme, the host starts after its last `。` (a trailing one aside).
/// Returns the new start, if it moves.
fn ideographic_full_stop(text: &[u8], start: usize, host_end: usize) -> Option<usize> {
    let end = without_trailing_dot(text, start, host_end);
    let at = text[start..end]
        .windows(3)
        .rposition(|w| w == IDEOGRAPHIC_FULL_STOP)?;
    Some(start + at + IDEOGRAPHIC_FULL_STOP.len())
}

/// What rule `script_boundary` finds in a host or local part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Boundary {
    /// No change of script class inside a label: the start stays.
    None,
    /// The last change is between two letters side by side: the start moves there.
    At(usize),
    /// The last change is across a hyphen (`例子-example.com`): the hyphen joins the two
    /// sides into one label, and starting after it would link another domain.
    AcrossHyphen,
}

/// Rule `script_boundary` (the example of spec section 8): in text without spaces, a host
/// (or an email local part) runs back into the words before it: `ウェブサイトはexample.com`.
/// The start moves to the last place where, inside one label, a character that is
/// ideographic or complex-context ([`is_ideographic`]) and one that is not stand side by
/// side. So `例子.com`, `中国政府网.中国` and `bücher.de` stay whole, and
/// `最高のSONY製品.com` (which the spec names as the price of the rule) becomes
/// `製品.com`.
///
/// A hyphen belongs to no class: `中文-测试.中国`, `ตัวอย่าง-ทดสอบ.ไทย` and
/// `ສາກົນ-ການຍອມຮັບ-ທົດລອງ.ລາວ` are one label each, whole; a change of class across a
/// hyphen is [`Boundary::AcrossHyphen`], never a start after the hyphen (which would be
/// another, maybe real, domain).
fn script_boundary(text: &[u8], start: usize, end: usize) -> Boundary {
    let mut i = start;
    let mut previous: Option<bool> = None;
    let mut hyphen = false;
    let mut boundary = Boundary::None;
    while i < end {
        let (cp, len) = utf8::decode(text, i);
        if cp == '.' as u32 || cp == 0x3002 || cp == 0xFF0E {
            previous = None;
            hyphen = false;
        } else if cp == '-' as u32 {
            hyphen = true;
        } else {
            let class = is_ideographic(cp);
            if previous.is_some_and(|p| p != class) {
                boundary = if hyphen {
                    Boundary::AcrossHyphen
                } else {
                    Boundary::At(i)
                };
            }
            previous = Some(class);
            hyphen = false;
        }
        i += len;
    }
    boundary
}

/// Rule `invisible_cut`: an email whose local part starts right after an invisible
/// character (`li\u{AD}wang@example.cn`, a soft hyphen from hyphenated text) was cut
/// there; the reader sees the longer address. ASCII before the start costs one compare.
fn invisible_cut(text: &[u8], start: usize) -> bool {
    start > 0
        && text[start - 1] >= 0x80
        && crate::invisible::char_before(text, start).is_some_and(crate::invisible::is_invisible)
}

/// Rule `abbreviation`: `M.Sc`, `B.Sc`, `B.Com`: a host of two labels, the first one or
/// two ASCII letters with a capital first, the second a capital then lower-case letters.
/// Spec section 1.4 gives `M.Sc.` as what must not be linked; `x.com`, `T.CO` and
/// `St.Kitts.com` are not abbreviations by this test.
fn abbreviation(host: &[u8]) -> bool {
    let host = host.strip_suffix(b".").unwrap_or(host);
    let Some(dot) = host.iter().position(|&b| b == b'.') else {
        return false;
    };
    let (first, tld) = (&host[..dot], &host[dot + 1..]);
    (1..=2).contains(&first.len())
        && first[0].is_ascii_uppercase()
        && first[1..].iter().all(u8::is_ascii_lowercase)
        && tld.len() >= 2
        && tld[0].is_ascii_uppercase()
        && tld[1..].iter().all(u8::is_ascii_lowercase)
}

/// Letters that Line_Break gives the values Ideographic (ID), Conditional Japanese
/// Starter (CJ) or Complex_Context (SA): Han, kana, Bopomofo, Yi, and the scripts written
/// without spaces between words (Thai, Lao, Myanmar, Khmer, Tai scripts). By blocks, as
/// `LineBreak.txt` is not among the data this crate is built from.
pub(crate) fn is_ideographic(cp: u32) -> bool {
    matches!(cp,
        0x0E00..=0x0EFF        // Thai, Lao
        | 0x1000..=0x109F      // Myanmar
        | 0x1780..=0x17FF      // Khmer
        | 0x1950..=0x19DF      // Tai Le, New Tai Lue
        | 0x1A20..=0x1AAF      // Tai Tham
        | 0x2E80..=0x2FDF      // CJK radicals, Kangxi radicals
        | 0x3005..=0x3007      // 々 〆 〇
        | 0x3021..=0x3029      // Hangzhou numerals
        | 0x3031..=0x303C      // kana repeat marks, 〻 〼
        | 0x3041..=0x30FF      // Hiragana, Katakana
        | 0x3105..=0x312F      // Bopomofo
        | 0x31A0..=0x31FF      // Bopomofo Extended, CJK strokes, Katakana Phonetic Extensions
        | 0x3400..=0x4DBF      // CJK Extension A
        | 0x4E00..=0x9FFF      // CJK Unified Ideographs
        | 0xA000..=0xA4CF      // Yi
        | 0xA9E0..=0xA9FF      // Myanmar Extended-B
        | 0xAA60..=0xAADF      // Myanmar Extended-A, Tai Viet
        | 0xF900..=0xFAFF      // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9D      // halfwidth Katakana
        | 0x1B000..=0x1B2FF    // Kana Supplement and Extended, small kana, Nushu
        | 0x20000..=0x3FFFD    // CJK Extensions B and later
    )
}

/// The character before `i`, or a space at the start of the text.
fn byte_before(text: &[u8], i: usize) -> u8 {
    if i == 0 {
        b' '
    } else {
        text[i - 1]
    }
}

/// Rule `code_neighbour`: a name glued to code punctuation is code. After the link: a call
/// `(`, an index `[`, or `_` (the TLD was cut from an identifier: `tm.tm_year`,
/// `act.sa_flags`). Before it: `_` (`remove_COLOPHON.sh`), `/` or `\` (a path:
/// `lib/build.mk`), `$`, `&`, `#`, `::`, `->`.
fn code_neighbour(text: &[u8], link: &Link) -> bool {
    let after = text.get(link.end).copied().unwrap_or(b' ');
    if matches!(after, b'(' | b'[' | b'_') {
        return true;
    }
    let before = byte_before(text, link.start);
    if matches!(before, b'_' | b'/' | b'\\' | b'$' | b'&' | b'#') {
        return true;
    }
    link.start >= 2 && matches!(&text[link.start - 2..link.start], b"::" | b"->")
}

/// The TLD of a host (its last label, a trailing dot aside) and the label before it.
fn last_labels(host: &[u8]) -> (&[u8], &[u8]) {
    let host = host.strip_suffix(b".").unwrap_or(host);
    let host = host.strip_suffix(IDEOGRAPHIC_FULL_STOP).unwrap_or(host);
    match last_dot(host) {
        Some((dot, len)) => {
            let receiver = &host[..dot];
            let receiver = match last_dot(receiver) {
                Some((d, l)) => &receiver[d + l..],
                None => receiver,
            };
            (&host[dot + len..], receiver)
        }
        None => (host, &[]),
    }
}

/// The last Dot (`.` or `。`) of `host`: its offset and length. One backward pass.
fn last_dot(host: &[u8]) -> Option<(usize, usize)> {
    let mut i = host.len();
    while i > 0 {
        i -= 1;
        match host[i] {
            b'.' => return Some((i, 1)),
            0x82 if i >= 2 && host[i - 2..i] == [0xE3, 0x80] => return Some((i - 2, 3)),
            _ => {}
        }
    }
    None
}

/// Rules `file_name` and `method_name` leave hosts that start with `www.` alone.
fn starts_with_www(host: &[u8]) -> bool {
    host.len() > 4 && host[..4].eq_ignore_ascii_case(b"www.")
}

/// Rule `file_name`: the TLD is one of [`FILE_EXTENSION_TLDS`] (any case: `README.MD`).
/// A `match` on the lower-cased bytes, as every scheme-less link asks.
fn file_name(tld: &[u8]) -> bool {
    let mut lower = [0u8; 3];
    if tld.len() > lower.len() {
        return false;
    }
    for (l, b) in lower.iter_mut().zip(tld) {
        *l = b.to_ascii_lowercase();
    }
    matches!(
        &lower[..tld.len()],
        b"ac"
            | b"am"
            | b"in"
            | b"man"
            | b"md"
            | b"mk"
            | b"mm"
            | b"mov"
            | b"pid"
            | b"pl"
            | b"ps"
            | b"py"
            | b"rs"
            | b"sh"
            | b"so"
            | b"zip"
    )
}

/// Rule `method_name`: the TLD, in lower case as written, is one of [`METHOD_NAME_TLDS`],
/// or it is `new` after a capitalised name (`Proc.new`, `Thread.new`; `doc.new` stays).
/// (`receiver` gives the label before the TLD, asked for `new` only.)
fn method_name<'h>(tld: &[u8], receiver: impl FnOnce() -> &'h [u8]) -> bool {
    match tld {
        b"build" | b"call" | b"events" | b"map" | b"next" | b"open" | b"post" | b"read"
        | b"report" | b"run" | b"select" => true,
        b"new" => receiver().first().is_some_and(u8::is_ascii_uppercase),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `match`es of the two rules hold exactly the published lists.
    #[test]
    fn matches_hold_the_lists() {
        for ext in FILE_EXTENSION_TLDS {
            assert!(file_name(ext.as_bytes()), "{ext}");
            assert!(file_name(ext.to_ascii_uppercase().as_bytes()), "{ext}");
        }
        for name in METHOD_NAME_TLDS {
            assert!(method_name(name.as_bytes(), || &b"x"[..]), "{name}");
            assert!(
                !method_name(name.to_ascii_uppercase().as_bytes(), || &b"x"[..]),
                "{name}"
            );
        }
        let listed = |t: &str| FILE_EXTENSION_TLDS.contains(&t) || METHOD_NAME_TLDS.contains(&t);
        for tld in crate::tables::TLDS {
            if !listed(tld) && tld.is_ascii() {
                assert!(!file_name(tld.as_bytes()), "{tld}");
                let new_after_capital = tld == "new";
                assert_eq!(
                    method_name(tld.as_bytes(), || &b"X"[..]),
                    new_after_capital,
                    "{tld}"
                );
                assert!(!method_name(tld.as_bytes(), || &b"x"[..]), "{tld}");
            }
        }
    }
}
