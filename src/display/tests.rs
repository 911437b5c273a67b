//! Unit tests of the display form: each kind of field, spoofable hosts, Bidi_Control
//! characters, bidi marks and the ASCII form.

use super::*;

fn plain(url: &str) -> String {
    display_url(url, &DisplayOptions::default())
}

/// The display form with bidi marks, LRI/PDI written `⁅`/`⁆` and LRM `|`.
fn marked(text: &str, kind: LinkKind) -> String {
    display_link(text, kind, &DisplayOptions::default().with_bidi(true))
        .replace(LRI, "⁅")
        .replace(PDI, "⁆")
        .replace(LRM, "|")
}

#[test]
fn path_query_and_fragment_are_minimally_escaped() {
    assert_eq!(
        plain("https://example.com/%CE%B1%CE%B2(%CE%B3)?%CE%B4=%CE%B5&x#%CE%B6."),
        "https://example.com/αβ(γ)?δ=ε&x#ζ%2E"
    );
    // Syntax characters that are data stay escaped; so do invalid UTF-8 bytes.
    assert_eq!(
        plain("example.com/a%2Fb?k%3D=v%26#f"),
        "example.com/a%2Fb?k%3D=v%26#f"
    );
    assert_eq!(plain("example.com/%FF%CE%B1"), "example.com/%FF%CE%B1");
}

#[test]
fn hosts_are_shown_in_unicode_unless_spoofable() {
    // Safe: one script per label, nothing confusable with ASCII.
    for (host, shown) in [
        ("xn--bcher-kva.de", "bücher.de"),
        ("xn--mgbh0fb.xn--kgbechtv", "مثال.إختبار"),
        ("xn--5dbqzzl.xn--9dbq2a", "עברית.קום"),
        ("EXAMPLE.com", "EXAMPLE.com"),
        ("Bücher.DE", "bücher.de"),
        ("例え。テスト", "例え.テスト"),
        // Latin with Han and Kana in one label: the highly restrictive level allows it.
        ("abc漢字かな.jp", "abc漢字かな.jp"),
    ] {
        assert_eq!(host_spoof(host), None, "{host}");
        assert_eq!(display_host(host), shown, "{host}");
        assert_eq!(
            plain(&format!("https://{host}/x")),
            format!("https://{shown}/x")
        );
    }
    // Spoofable: kept (or put) in ASCII.
    for (host, why) in [
        ("pay✓al.com", Spoof::IdentifierStatus),
        ("\u{0440}aypal.com", Spoof::MixedScripts),
        ("abcעברית.com", Spoof::MixedScripts),
        (
            "\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}.com",
            Spoof::ConfusableWithAscii,
        ),
        ("xn--80ak6aa92e.com", Spoof::ConfusableWithAscii),
        ("\u{03BF}\u{03BF}\u{03BF}.com", Spoof::ConfusableWithAscii),
    ] {
        assert_eq!(host_spoof(host), Some(why), "{host}");
        let shown = display_host(host);
        assert!(shown.is_ascii(), "{host} shown as {shown}");
        // Punycode, or (a label mixing directions has none) percent-escapes.
        assert!(
            shown.contains("xn--") || shown.contains('%'),
            "{host} shown as {shown}"
        );
        assert_eq!(
            plain(&format!("https://{host}/x")),
            format!("https://{shown}/x")
        );
    }
    // Not domain names: as written.
    assert_eq!(
        display_host("abcעברית.com"),
        "abc%D7%A2%D7%91%D7%A8%D7%99%D7%AA.com"
    );
    for host in ["[::1]", "a%41.de", "192.168.0.1"] {
        assert_eq!(display_host(host), host);
    }
}

#[test]
fn bidi_controls_are_escaped_everywhere() {
    for c in [
        '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}',
    ] {
        let mut escaped = String::new();
        push_escaped_char(c, &mut escaped);
        for (url, want) in [
            (
                format!("https://example.com/a{c}b"),
                format!("https://example.com/a{escaped}b"),
            ),
            (
                format!("https://example.com?k{c}=v"),
                format!("https://example.com?k{escaped}=v"),
            ),
            (
                format!("https://example.com#f{c}"),
                format!("https://example.com#f{escaped}"),
            ),
            (
                format!("https://ex{c}ample.com"),
                format!("https://ex{escaped}ample.com"),
            ),
        ] {
            assert_eq!(plain(&url), want, "{c:?}");
        }
        // Not a Link_Email character: the local part is quoted, and the control escaped.
        let email = display_email(&format!("a{c}b@example.com"), &DisplayOptions::default());
        assert_eq!(email, format!("\"a{escaped}b\"@example.com"));
        assert!(!email.chars().any(is_bidi_control));
    }
    // The conformant formatter keeps them (section 4.1); only the display form escapes.
    assert_eq!(
        crate::escape_url("example.com/\u{202E}x"),
        "example.com/\u{202E}x"
    );
}

#[test]
fn emails_quote_the_local_part_and_show_the_domain_as_a_host() {
    let options = DisplayOptions::default();
    assert_eq!(
        display_email("jane@xn--bcher-kva.de", &options),
        "jane@bücher.de"
    );
    assert_eq!(
        display_email("a..b@example.com", &options),
        "\"a..b\"@example.com"
    );
    assert_eq!(
        display_email("\"a b\"@example.com", &options),
        "\"a b\"@example.com"
    );
    assert_eq!(
        display_email("x@xn--80ak6aa92e.com", &options),
        "x@xn--80ak6aa92e.com"
    );
    assert_eq!(
        display_email("MAILTO:x@example.com", &options),
        "MAILTO:x@example.com"
    );
}

#[test]
fn every_kind_of_field_and_separator() {
    // Scheme and ://, domain labels and dots, path segments and /.
    assert_eq!(
        marked("https://a.b.c/f/g", LinkKind::Url),
        "⁅|https|://|a|.|b|.|c|/|f|/|g|⁆"
    );
    // ToUnicode writes the other three dots as `.`; where a host keeps them (it is not
    // a valid domain name), each is a separator too.
    assert_eq!(marked("例え。テスト", LinkKind::Url), "⁅|例え|.|テスト|⁆");
    let shown = "a_b.c。d．e｡f";
    let pieces: Vec<&str> = fields(shown, LinkKind::Url)
        .into_iter()
        .map(|f| &shown[f.range])
        .collect();
    assert_eq!(pieces, ["a_b", ".", "c", "。", "d", "．", "e", "｡", "f"]);
    // Query keys and values with ? = &, the fragment with #.
    assert_eq!(
        marked("example.com?k=v&w=x#frag", LinkKind::Url),
        "⁅|example|.|com|?|k|=|v|&|w|=|x|#|frag|⁆"
    );
    // Userinfo and port; an empty segment or value is no field.
    assert_eq!(
        marked("http://user@example.com:8080/a//b/?k=", LinkKind::Url),
        "⁅|http|://|user|@|example|.|com|:|8080|/|a|//|b|/?|k|=⁆"
    );
    // Right-to-left labels and segments are fields like any other.
    assert_eq!(
        marked(
            "https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1_(%D8%AF)",
            LinkKind::Url
        ),
        "⁅|https|://|ar|.|wikipedia|.|org|/|wiki|/|مصر_(د)|⁆"
    );
    // Data that would read as a separator stays escaped, inside its field.
    assert_eq!(
        marked("example.com/a%2Fb?k%3D=v%26", LinkKind::Url),
        "⁅|example|.|com|/|a%2Fb|?|k%3D|=|v%26|⁆"
    );
    // Emails: local part, @, domain labels; mailto and its colon.
    assert_eq!(
        marked("mailto:ali@مثال.إختبار", LinkKind::Email),
        "⁅|mailto|:|ali|@|مثال|.|إختبار|⁆"
    );
    // A URL without a host is one field.
    assert_eq!(marked("tel:+1-555", LinkKind::Url), "⁅|tel:+1-555|⁆");
}

#[test]
fn fields_cover_the_display_form_exactly() {
    for (text, kind) in [
        (
            "https://user:pw@例え.テスト:80/a/%2F/b?k=v&&x=#f:~:text=a",
            LinkKind::Url,
        ),
        ("//[::1]/x", LinkKind::Url),
        ("\"a@b\"@example.com", LinkKind::Email),
        ("x", LinkKind::Url),
        ("", LinkKind::Email),
    ] {
        let pieces = fields(text, kind);
        let mut at = 0;
        for piece in &pieces {
            assert_eq!(piece.range.start, at, "{text}: {pieces:?}");
            assert!(!piece.range.is_empty());
            at = piece.range.end;
        }
        assert_eq!(at, text.len(), "{text}: {pieces:?}");
    }
}

#[test]
fn ascii_forms_for_hrefs() {
    assert_eq!(
        ascii_form("https://مثال.إختبار/مصر?ا=ب#ج"),
        "https://xn--mgbh0fb.xn--kgbechtv/%D9%85%D8%B5%D8%B1?%D8%A7=%D8%A8#%D8%AC"
    );
    assert_eq!(
        ascii_form("https://example.com/\u{202E}x"),
        "https://example.com/%E2%80%AEx"
    );
    assert_eq!(
        ascii_form("mailto:ali@مثال.إختبار?subject=س"),
        "mailto:ali@xn--mgbh0fb.xn--kgbechtv?subject=%D8%B3"
    );
    assert_eq!(ascii_form("tel:+1 555"), "tel:+1%20555");
    for target in [
        "https://example.com/a?b=1&c=2#d",
        "mailto:x@example.com",
        "http://[::1]:80/",
    ] {
        assert_eq!(ascii_form(target), target);
    }
}

/// No input panics, and the display form never holds a Bidi_Control character of its own.
#[test]
fn random_links_never_panic_nor_keep_bidi_controls() {
    const ALPHABET: &[char] = &[
        'a', 'α', 'ع', 'ש', 'р', '.', '。', '/', '?', '#', '=', '&', '@', ':', '%', '4', 'F', '(',
        ')', '"', ' ', '\u{202E}', '\u{200F}', '\u{2066}', '-', '[', ']', 'x', 'n',
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let len = (next() % 24) as usize;
        let text: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        for kind in [LinkKind::Url, LinkKind::Email] {
            let shown = display_link(&text, kind, &DisplayOptions::default());
            assert!(!shown.chars().any(is_bidi_control), "{text:?} → {shown:?}");
            let marked = display_link(&text, kind, &DisplayOptions::default().with_bidi(true));
            assert_eq!(
                marked.replace([LRI, PDI, LRM], ""),
                shown,
                "{text:?}: the marks are all that bidi adds"
            );
            assert!(ascii_form(&text).is_ascii());
        }
    }
}

/// The shortcut of `display_host` for ASCII hosts without Punycode agrees with the full
/// checks.
#[test]
fn ascii_hosts_are_judged_as_the_checks_judge_them() {
    let alphabet = ['a', 'B', '0', '.', '-', '_', ':', '\'', '!', '~', 'x', 'n'];
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 10) as usize;
        let host: String = (0..len)
            .map(|k| alphabet[((state >> (4 * k + 4)) % alphabet.len() as u64) as usize])
            .collect();
        if host.is_empty() {
            continue;
        }
        let full = if host_spoof(&host).is_none() {
            // A plain ASCII host is shown as written; anything else in its ToUnicode form.
            if host.is_ascii() && !host.to_ascii_lowercase().contains("xn--") {
                Cow::Borrowed(host.as_str())
            } else {
                format_host(&host)
            }
        } else {
            match idna::domain_to_ascii(&host) {
                Ok(ascii) if !ascii.is_empty() => Cow::Owned(ascii),
                _ => {
                    let mut ascii = String::new();
                    push_ascii(&host, &mut ascii);
                    Cow::Owned(ascii)
                }
            }
        };
        assert_eq!(display_host(&host), full, "{host:?}");
    }
}
