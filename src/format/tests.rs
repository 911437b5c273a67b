//! Unit tests of the formatter, and randomised differential tests against the oracle.

use super::*;
use crate::{oracle, LinkFinder};

fn path(segments: &[&str]) -> UrlParts {
    segments
        .iter()
        .fold(UrlParts::new("example.com"), |u, s| u.with_segment(*s))
}

fn links(text: &str) -> Vec<&str> {
    LinkFinder::new().links(text).map(|l| l.as_str()).collect()
}

/// The formatted URL is detected whole, alone and in running text.
fn assert_detected_whole(url: &str) {
    assert_eq!(links(url), [url], "alone");
    let text = format!("See {url} for more.");
    assert_eq!(links(&text), [url], "in {text:?}");
}

#[test]
fn percent_is_escaped_only_before_two_hex_digits() {
    assert_eq!(
        escape_url_parts(&path(&["α", "β%41γ%ε%"])),
        "example.com/α/β%2541γ%ε%"
    );
    assert_eq!(
        escape_url_parts(&path(&["%4", "%g1", "%%41"])),
        "example.com/%4/%g1/%%2541"
    );
    let query = UrlParts::new("example.com").with_query("α%β", Some("%aF"));
    assert_eq!(escape_url_parts(&query), "example.com?α%β=%25aF");
    let fragment = UrlParts::new("example.com").with_fragment("%41%");
    assert_eq!(escape_url_parts(&fragment), "example.com#%2541%");
    // The hex digits after a `%` may come from a later segment's data only through a `/`.
    assert_eq!(escape_url_parts(&path(&["%", "41"])), "example.com/%/41");
}

#[test]
fn hard_soft_and_separators() {
    let url = path(&["αβ γ\t", "δ.", ""])
        .with_query("θ.", Some("ικ."))
        .with_query("", None);
    assert_eq!(escape_url_parts(&url), "example.com/αβ%20γ%09/δ./?θ.=ικ.&");
    // Only the last character of the last part is escaped, not all trailing Soft ones.
    assert_eq!(escape_url_parts(&path(&["a?!."])), "example.com/a%3F!%2E");
    assert_eq!(escape_url_parts(&path(&["a\\b"])), "example.com/a%5Cb");
    let query = UrlParts::new("example.com").with_query("a+b", Some("c d"));
    assert_eq!(escape_url_parts(&query), "example.com?a%2Bb=c%20d");
    // Unassigned and noncharacters are Hard.
    assert_eq!(
        escape_url_parts(&path(&["a\u{FFFF}b"])),
        "example.com/a%EF%BF%BFb"
    );
}

#[test]
fn brackets_match_within_a_part_and_separators_clear_them() {
    assert_eq!(
        escape_url_parts(&path(&["a(b", "c)"])),
        "example.com/a(b/c%29"
    );
    assert_eq!(
        escape_url_parts(&path(&["(「a」)", "[b)"])),
        "example.com/(「a」)/[b%29"
    );
    // A mismatched Close pops its Open anyway, so the next Close is unmatched too.
    assert_eq!(escape_url_parts(&path(&["(a])"])), "example.com/(a%5D%29");
    let query = UrlParts::new("example.com").with_query("(a", Some("b)"));
    assert_eq!(escape_url_parts(&query), "example.com?(a=b%29");
    assert_eq!(escape_url_parts(&path(&["<a>"])), "example.com/<a>");
}

#[test]
fn bracket_limit_is_125() {
    let deep = format!("{}{}", "(".repeat(125), ")".repeat(125));
    let url = escape_url_parts(&path(&[&deep]));
    assert_eq!(url, format!("example.com/{deep}"));
    assert_detected_whole(&url);

    let deeper = format!("{}{}", "(".repeat(126), ")".repeat(126));
    let url = escape_url_parts(&path(&[&deeper]));
    let expected = format!("example.com/{}%28{}%29", "(".repeat(125), ")".repeat(125));
    assert_eq!(url, expected);
    assert_eq!(url, oracle::format_url_parts(&path(&[&deeper])));
    assert_detected_whole(&url);
}

/// Section 4.1 pops the bracket stack on every Close, also on one that does not match and
/// is escaped; detection never sees that escaped Close as a bracket, so the Open it popped
/// is still open there and a later Close can end the link. We follow section 4.1 (UTS58-C2
/// asks for its results exactly); this pins the behaviour and its consequence.
#[test]
fn a_mismatched_close_pops_the_stack_as_section_4_1_says() {
    let url = escape_url_parts(&path(&["(<])"]));
    assert_eq!(url, "example.com/(<%5D)");
    assert_eq!(url, oracle::format_url_parts(&path(&["(<])"])));
    assert_eq!(links(&url), ["example.com/(<%5D"]);
}

#[test]
fn fragment_directives() {
    let url = UrlParts::new("example.com")
        .with_scheme("https")
        .with_fragment("reserved")
        .with_directive("text=Reserved,into")
        .with_directive("text=open,closed");
    assert_eq!(
        escape_url_parts(&url),
        "https://example.com#reserved:~:text=Reserved,into:~:text=open,closed"
    );
    // Directives without a fragment still start with `#`.
    let url = UrlParts::new("example.com").with_directive("text=α.");
    assert_eq!(escape_url_parts(&url), "example.com#:~:text=α%2E");
    // A literal `:~:` in a fragment or directive has its first `:` escaped, and so has a
    // final `:~` that the next `:~:` would complete.
    let url = UrlParts::new("example.com")
        .with_fragment("a:~:b:~")
        .with_directive("c:~:d:~")
        .with_directive("e:~");
    assert_eq!(
        escape_url_parts(&url),
        "example.com#a%3A~:b%3A~:~:c%3A~:d%3A~:~:e:~"
    );
    // A directive's `,` and `&` are separators: they clear the bracket stack.
    let url = UrlParts::new("example.com").with_directive("text=(a,b)&text=(c)");
    assert_eq!(
        escape_url_parts(&url),
        "example.com#:~:text=(a,b%29&text=(c)"
    );
    // Section 4.1 reads a final `,` by its Link_Term (Soft) and escapes it.
    let url = UrlParts::new("example.com").with_directive("text=a,");
    assert_eq!(escape_url_parts(&url), "example.com#:~:text=a%2C");
}

#[test]
fn minimal_escape_applies_terminators_as_hard() {
    let options = FormatOptions::default();
    let mut out = String::new();
    minimal_escape(UrlPart::Path, "a?b#c", true, &options, &mut out);
    minimal_escape(UrlPart::Query, "a#b", true, &options, &mut out);
    minimal_escape(UrlPart::Fragment, "a:~:b", true, &options, &mut out);
    minimal_escape(UrlPart::FragmentDirective, "", true, &options, &mut out);
    assert_eq!(out, "/a%3Fb%23c?a%23b#a%3A~:b:~:");
}

#[test]
fn bidi_controls_are_escaped_only_on_request() {
    let secure = FormatOptions {
        escape_bidi_controls: true,
    };
    let url = UrlParts::new("example.com")
        .with_segment("a\u{202E}b")
        .with_query("\u{2066}k", Some("v\u{200F}"))
        .with_fragment("\u{061C}");
    assert_eq!(
        escape_url_parts(&url),
        "example.com/a\u{202E}b?\u{2066}k=v\u{200F}#\u{061C}"
    );
    assert_eq!(
        escape_url_parts_with(&url, &secure),
        "example.com/a%E2%80%AEb?%E2%81%A6k=v%E2%80%8F#%D8%9C"
    );
}

#[test]
fn punycode_hosts_are_shown_in_unicode() {
    assert_eq!(format_host("xn--bcher-kva.de"), "bücher.de");
    assert_eq!(format_host("xn--j1ay.xn--p1ai"), "кц.рф");
    assert_eq!(
        escape_url_parts(&UrlParts::new("xn--bcher-kva.de").with_port(8080)),
        "bücher.de:8080"
    );
    // Not valid domain names: as given.
    for host in ["xn--a.de", "[::1]", "a%41.de", "exa mple.com"] {
        assert_eq!(format_host(host), host);
    }
}

/// A small deterministic generator (xorshift64*), so the randomised tests need no crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn string(&mut self, alphabet: &[char], max_len: usize) -> String {
        let len = self.below(max_len + 1);
        (0..len)
            .map(|_| alphabet[self.below(alphabet.len())])
            .collect()
    }
}

const ALPHABET: &[char] = &[
    'a', 'α', 'F', '4', '(', ')', '[', ']', '「', '」', '<', '>', '.', '!', '?', '\'', '"', ',',
    ':', '~', '/', '#', '&', '=', '+', '%', '-', '\\', ' ', '\t', '\u{200F}', '\u{202E}',
    '\u{FFFF}', '。', 'ü', '@',
];

fn random_parts(rng: &mut Rng, alphabet: &[char]) -> UrlParts {
    let mut url = UrlParts::new("example.com");
    if rng.below(2) == 0 {
        url.scheme = Some("https".into());
    }
    for _ in 0..rng.below(4) {
        url.path.push(rng.string(alphabet, 6));
    }
    for _ in 0..rng.below(3) {
        let key = rng.string(alphabet, 4);
        let value = (rng.below(3) > 0).then(|| rng.string(alphabet, 4));
        url.query.push((key, value));
    }
    if rng.below(2) == 0 {
        url.fragment = Some(rng.string(alphabet, 6));
    }
    for _ in 0..rng.below(3) {
        url.fragment_directives.push(rng.string(alphabet, 6));
    }
    url
}

#[test]
fn random_parts_agree_with_the_oracle() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let secure = FormatOptions {
        escape_bidi_controls: true,
    };
    for _ in 0..20_000 {
        let url = random_parts(&mut rng, ALPHABET);
        let fast = escape_url_parts(&url);
        assert_eq!(fast, oracle::format_url_parts(&url), "{url:?}");
        let checked = escape_url_parts_with(&url, &secure);
        assert!(!checked.chars().any(crate::is_bidi_control), "{checked:?}");
    }
}

/// Section 4's goal, on random parts. With one kind of bracket only: with two kinds, a
/// mismatched Close pops the stack in section 4.1 but (escaped) not in detection, see
/// [`a_mismatched_close_pops_the_stack_as_section_4_1_says`].
#[test]
fn random_parts_are_detected_whole() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let alphabet: Vec<char> = ALPHABET
        .iter()
        .copied()
        .filter(|c| !matches!(c, '[' | ']' | '「' | '」' | '<' | '>'))
        .collect();
    for _ in 0..20_000 {
        let url = random_parts(&mut rng, &alphabet);
        let fast = escape_url_parts(&url);
        let text = format!("See {fast} now");
        assert_eq!(links(&text), [fast.as_str()], "{url:?}");
    }
}

// URL strings.

#[test]
fn escape_url_keeps_percent_escapes_that_must_stay() {
    // %25 stays before two hex digits; a lone % stays literal.
    assert_eq!(
        escape_url("example.com/%2541%CE%B3%%CE%B5%"),
        "example.com/%2541γ%ε%"
    );
    // %25 is decoded where its % cannot start an escape.
    assert_eq!(
        escape_url("https://example.com/%CE%B1/%CE%B2%2541%CE%B3%25%CE%B5%25"),
        "https://example.com/α/β%2541γ%ε%"
    );
    assert_eq!(
        escape_url("https://example.com?%CE%B1%25%CE%B2=%CE%B3%25%CE%B4"),
        "https://example.com?α%β=γ%δ"
    );
    assert_eq!(escape_url("example.com/%25zz%25a"), "example.com/%zz%a");
    assert_eq!(escape_url("example.com/%25%FF"), "example.com/%%FF");
    // A literal % that decoding would put before two hex digits is written %25.
    assert_eq!(escape_url("example.com/%%41B"), "example.com/%25AB");
    assert_eq!(escape_url("example.com/%%41%42"), "example.com/%25AB");
    assert_eq!(escape_url("example.com/%A%42"), "example.com/%25AB");
    assert_eq!(escape_url("example.com/%%41"), "example.com/%A");
    // Lower-case hex is decoded, or kept in upper case.
    assert_eq!(escape_url("example.com/%c3%bc%2f"), "example.com/ü%2F");
}

#[test]
fn escaped_syntax_characters_stay_escaped() {
    assert_eq!(
        escape_url("example.com/a%2Fb%3Fc%23d%5Ce?k%3D%26%2B=v%23#f%23g:~:text=a%2Cb%26c%2Dd,e"),
        "example.com/a%2Fb%3Fc%23d%5Ce?k%3D%26%2B=v%23#f#g:~:text=a%2Cb%26c%2Dd,e"
    );
    // Other ASCII is decoded; Hard characters come back escaped by section 4.1.
    assert_eq!(
        escape_url("example.com/%41%20%28x%29%2E"),
        "example.com/A%20(x)%2E"
    );
    // Literal structure stays as typed: a raw `+` or `=` in a query value.
    assert_eq!(escape_url("example.com?a=b=c+d"), "example.com?a=b=c+d");
}

#[test]
fn invalid_utf8_bytes_stay_escaped() {
    assert_eq!(escape_url("example.com/%FF"), "example.com/%FF");
    assert_eq!(escape_url("example.com/a%ffb"), "example.com/a%FFb");
    assert_eq!(escape_url("example.com/%C2%C2"), "example.com/%C2%C2");
    // Truncated, overlong, surrogate, beyond U+10FFFF, lone continuation byte.
    assert_eq!(escape_url("example.com/%E2%82x"), "example.com/%E2%82x");
    assert_eq!(escape_url("example.com/%C0%AF"), "example.com/%C0%AF");
    assert_eq!(escape_url("example.com/%ED%A0%80"), "example.com/%ED%A0%80");
    assert_eq!(
        escape_url("example.com/%F4%90%80%80"),
        "example.com/%F4%90%80%80"
    );
    assert_eq!(escape_url("example.com/%80a"), "example.com/%80a");
    // A sequence broken by a literal character.
    assert_eq!(escape_url("example.com/%CEα"), "example.com/%CEα");
    // One invalid sequence anywhere after the host marks the URL as legacy-encoded: then
    // no non-ASCII byte is decoded, even where some happen to spell valid UTF-8 (%C2%A9
    // is also "ｩ" in Shift_JIS). ASCII is decoded as usual.
    assert_eq!(escape_url("example.com/%C2%C2%A9"), "example.com/%C2%C2%A9");
    assert_eq!(
        escape_url("example.com/%CE%B1%41?q=%93%FA%96%7B"),
        "example.com/%CE%B1A?q=%93%FA%96{"
    );
    assert_eq!(
        escape_url("example.com/%CE%B1#%FF"),
        "example.com/%CE%B1#%FF"
    );
    assert_eq!(escape_url("example.com/%CE%B1#%C3%BF"), "example.com/α#ÿ");
}

#[test]
fn scheme_userinfo_port_and_scheme_less_urls() {
    assert_eq!(escape_url("example.com/%CE%B1"), "example.com/α");
    assert_eq!(escape_url("localhost:8080/%CE%B1."), "localhost:8080/α%2E");
    assert_eq!(
        escape_url("HTTPS://Example.COM:443/"),
        "HTTPS://example.com:443/"
    );
    assert_eq!(
        escape_url("https://us%20er:p@example.com/"),
        "https://us%20er:p@example.com/"
    );
    assert_eq!(escape_url("file:///etc/x."), "file:///etc/x%2E");
    assert_eq!(escape_url("/just/a/path%CE%B1"), "/just/a/pathα");
    assert_eq!(escape_url("?q.#f."), "?q.#f%2E");
    assert_eq!(escape_url(""), "");
    assert_eq!(
        escape_url(" \thttps://example.com/a b.\n"),
        "https://example.com/a%20b%2E"
    );
    // Not hierarchical: as given.
    for url in [
        "mailto:a.@example.com",
        "tel:+1-555-0100.",
        "urn:isbn:0451450523",
    ] {
        assert_eq!(escape_url(url), url);
    }
}

#[test]
fn escape_url_shows_punycode_hosts_in_unicode() {
    assert_eq!(
        escape_url("https://xn--bcher-kva.de/b%C3%BCcher"),
        "https://bücher.de/bücher"
    );
    assert_eq!(escape_url("xn--j1ay.xn--p1ai"), "кц.рф");
    // A host followed by something that is not a port is left as given.
    assert_eq!(escape_url("//xn--bcher-kva.de:x/"), "//xn--bcher-kva.de:x/");
}

#[test]
fn escape_url_splits_fragment_directives() {
    // Split at the literal `:~:`; decoding never creates one.
    assert_eq!(
        escape_url("example.com#f%3A~:x:~:text=%CE%B1,%CE%B2:~:text=%3A%7E%3A"),
        "example.com#f%3A~:x:~:text=α,β:~:text=%3A~%3A"
    );
    assert_eq!(
        escape_url("example.com#a%3A%7E:~:text=b"),
        "example.com#a%3A~:~:text=b"
    );
}

#[test]
fn escape_url_escapes_bidi_controls_only_on_request() {
    let secure = FormatOptions {
        escape_bidi_controls: true,
    };
    assert_eq!(
        escape_url_with("https://exa\u{202E}mple.com/x", &secure),
        "https://exa%E2%80%AEmple.com/x"
    );
    assert_eq!(
        escape_url_with("mailto:\u{202E}@x.com", &secure),
        "mailto:%E2%80%AE@x.com"
    );
    // The conformant formatter leaves them: their Link_Term is Include.
    assert_eq!(
        escape_url("example.com/%E2%80%8Fx"),
        "example.com/\u{200F}x"
    );
}

/// Parsing a formatted URL and formatting it again changes nothing.
#[test]
fn escape_url_leaves_formatted_urls_unchanged() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let fast = escape_url_parts(&random_parts(&mut rng, ALPHABET));
        assert_eq!(escape_url(&fast), fast);
    }
}

#[test]
fn escape_url_never_panics_and_is_idempotent() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let alphabet: Vec<char> = ALPHABET
        .iter()
        .copied()
        .chain([
            '%', '%', 'C', 'E', 'B', '3', 'x', 'n', ':', '/', '/', '[', '@',
        ])
        .collect();
    for _ in 0..20_000 {
        let prefix = ["", "https://", "//", "x:", "example.com", "a:1"][rng.below(6)];
        let input = format!("{prefix}{}", rng.string(&alphabet, 16));
        let once = escape_url(&input);
        assert_eq!(escape_url(&once), once, "input {input:?}");
    }
}

// Email addresses.

#[test]
fn email_quoting() {
    assert_eq!(quote_local_part("abcd").unwrap(), "abcd");
    assert!(matches!(
        quote_local_part("x.abcd").unwrap(),
        Cow::Borrowed(_)
    ));
    assert_eq!(
        quote_local_part("アルベルト.アルベルト").unwrap(),
        "アルベルト.アルベルト"
    );
    assert_eq!(
        quote_local_part("a+b!#$%&'*/=?^_`{|}~-").unwrap(),
        "a+b!#$%&'*/=?^_`{|}~-"
    );
    for (local, quoted) in [
        ("john.", "\"john.\""),
        (".john", "\".john\""),
        ("john..doe", "\"john..doe\""),
        ("", "\"\""),
        ("john doe", "\"john doe\""),
        ("a@b", "\"a@b\""),
        ("a(b)", "\"a(b)\""),
        ("a\"b\\c", "\"a\\\"b\\\\c\""),
        ("tab\there", "\"tab\there\""),
        ("☃", "\"☃\""),
    ] {
        assert_eq!(quote_local_part(local).unwrap(), quoted, "{local:?}");
    }
    for (local, bad, offset) in [
        ("a\0b", '\0', 1),
        ("\r\n", '\r', 0),
        ("ab\u{7F}", '\u{7F}', 2),
    ] {
        let err = quote_local_part(local).unwrap_err();
        assert_eq!((err.character(), err.offset()), (bad, offset), "{local:?}");
        assert!(err.to_string().contains("not even quoted"));
    }
    assert_eq!(
        format_email("john doe", "example.com").unwrap(),
        "\"john doe\"@example.com"
    );
    assert!(format_email("a\nb", "example.com").is_err());
}

#[test]
fn email_domains_are_shown_in_unicode() {
    assert_eq!(
        format_email("σωκράτης", "xn--bcher-kva.de").unwrap(),
        "σωκράτης@bücher.de"
    );
    assert_eq!(format_email("a", "[127.0.0.1]").unwrap(), "a@[127.0.0.1]");
}

/// The string path and the parts path agree on a `#` inside the fragment: only the first
/// `#` of a URL starts its fragment, so the parts API writes a later one as itself, and an
/// escaped one in a URL string is decoded to match.
#[test]
fn hash_in_the_fragment_agrees_between_string_and_parts() {
    let parts = UrlParts::new("example.com")
        .with_scheme("https")
        .with_fragment("a#b");
    assert_eq!(escape_url_parts(&parts), "https://example.com#a#b");
    assert_eq!(
        escape_url("https://example.com#a%23b"),
        "https://example.com#a#b"
    );
    assert_eq!(
        escape_url("https://example.com#a#b"),
        "https://example.com#a#b"
    );
    // In a path and a query, `#` is syntax and stays escaped on both paths.
    let parts = UrlParts::new("example.com")
        .with_segment("a#b")
        .with_query("k#", Some("v#"));
    assert_eq!(escape_url_parts(&parts), "example.com/a%23b?k%23=v%23");
    assert_eq!(
        escape_url("example.com/a%23b?k%23=v%23"),
        "example.com/a%23b?k%23=v%23"
    );
}

/// On random parts, the string path given the fully escaped URL gives what the parts path
/// gives: every value escaped byte for byte (non-ASCII, `%`, syntax and Hard characters),
/// then decoded by [`escape_url`].
#[test]
fn random_fully_escaped_strings_agree_with_parts() {
    fn full(value: &str, out: &mut String) {
        for c in value.chars() {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '(' | ')' | '~' | '_') {
                out.push(c);
            } else {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
    }
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for _ in 0..20_000 {
        let mut url = random_parts(&mut rng, ALPHABET);
        // A directive is written in its own syntax; the string path cannot tell its
        // structure from escaped data, so compare without directives.
        url.fragment_directives.clear();
        let mut line = String::from(if url.scheme.is_some() { "https://" } else { "" });
        line.push_str(&url.host);
        for segment in &url.path {
            line.push('/');
            full(segment, &mut line);
        }
        for (k, (key, value)) in url.query.iter().enumerate() {
            line.push(if k == 0 { '?' } else { '&' });
            full(key, &mut line);
            if let Some(value) = value {
                line.push('=');
                full(value, &mut line);
            }
        }
        if let Some(fragment) = &url.fragment {
            line.push('#');
            full(fragment, &mut line);
        }
        assert_eq!(escape_url(&line), escape_url_parts(&url), "{line}");
    }
}

/// The shortcut of `format_host` for lower-case ASCII gives what IDNA gives.
#[test]
fn plain_ascii_hosts_are_their_own_unicode_form() {
    let mut rng = Rng(0xDEAD_BEEF_0BAD_F00D);
    let alphabet = ['a', 'x', 'n', 'z', '0', '9', '.', '-', '_'];
    for _ in 0..20_000 {
        let host = rng.string(&alphabet, 12);
        let via_idna = match idna::domain_to_unicode(&host) {
            (unicode, Ok(())) if !unicode.is_empty() && unicode.chars().all(is_shown_host_char) => {
                unicode
            }
            _ => host.clone(),
        };
        assert_eq!(format_host(&host), via_idna, "{host:?}");
    }
}

/// Every Ignored code point at every position of a host is removed from the target, and
/// nothing else of the target changes.
#[test]
fn targets_lose_the_ignored_code_points_of_their_host_only() {
    let ignored: Vec<char> = crate::tables::IDNA_IGNORED
        .iter()
        .flat_map(|&(lo, hi)| [lo, hi])
        .filter_map(char::from_u32)
        .collect();
    assert!(ignored.contains(&'\u{AD}') && ignored.contains(&'\u{200B}'));
    let host = "www.exam-ple.co.uk";
    for &c in &ignored {
        for at in (0..=host.len()).filter(|&i| host.is_char_boundary(i)) {
            let with = format!("{}{c}{}", &host[..at], &host[at..]);
            for (prefix, suffix) in [
                ("https://", "/a\u{AD}b?q=\u{200B}#f"),
                ("", ":8080/x"),
                ("mailto:a\u{AD}b@", ""),
                ("x\u{200B}y@", ""),
                ("HTTP://", ""),
            ] {
                let target = format!("{prefix}{with}{suffix}");
                let want = format!("{prefix}{host}{suffix}");
                assert_eq!(without_ignored_in_host(&target), want, "{target:?}");
            }
        }
    }
    // No host, nothing to remove; ASCII and ordinary Unicode targets come back borrowed.
    for target in [
        "https://example.com/\u{AD}",
        "bücher.de/α",
        "mailto:\u{AD}x",
        "tel:\u{AD}1",
    ] {
        assert!(
            matches!(without_ignored_in_host(target), Cow::Borrowed(t) if t == target),
            "{target:?}"
        );
    }
}
