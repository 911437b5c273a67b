//! The security checks of UTS #58 section 8 (`linkscan::checks`): the library layer over
//! the finder, and the `--checks` options of the command line.

use crate::common;

use linkscan::checks::{self, Check, LinkCheck};
use linkscan::{Link, LinkFinder, LinkKind, TldPolicy, TldSet};

/// One link per check, one that passes, and one that fails two.
const SAMPLE: &str = "a ｅxample.com b example.com/\u{202E}fdp.exe c x@example.com \
                      d ƿ.example.org/\u{2066} e example.c0m";

/// A finder whose TLD list lets a syntactically invalid TLD through, as a user's list may.
fn finder_with_bad_tld() -> LinkFinder {
    let set = TldSet::from_list(["com", "org", "c0m"]).expect("a valid list");
    LinkFinder::builder()
        .tld_policy(TldPolicy::List(set.into()))
        .build()
}

fn results(finder: &LinkFinder, text: &str) -> Vec<(String, String)> {
    checks::checked_links(finder, text.as_bytes())
        .map(|(link, check)| (link.as_str(text).to_string(), check.to_string()))
        .collect()
}

#[test]
fn each_check_flags_its_links_and_only_those() {
    let expected = [
        ("ｅxample.com", "identifier_status"),
        ("example.com/\u{202E}fdp.exe", "bidi_control"),
        ("x@example.com", ""),
        ("ƿ.example.org/\u{2066}", "identifier_status,bidi_control"),
        ("example.c0m", "tld_syntax"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(results(&finder_with_bad_tld(), SAMPLE), expected);
    // With the IANA list, `c0m` is no TLD and the finder reports one link fewer.
    assert_eq!(results(&LinkFinder::new(), SAMPLE), expected[..4]);
}

#[test]
fn checks_never_change_what_is_detected() {
    let finder = finder_with_bad_tld();
    let plain: Vec<_> = finder.links(SAMPLE).map(Link::from).collect();
    let checked: Vec<_> = checks::checked_links(&finder, SAMPLE.as_bytes())
        .map(|(link, _)| link)
        .collect();
    assert_eq!(plain, checked);
}

#[test]
fn checks_match_a_direct_reading_of_the_data() {
    // Every host character that is not a dot decides `identifier_status` alone.
    for c in [
        'a', 'Z', '0', '-', 'ü', 'ж', 'あ', '中', 'ｅ', '✓', 'ⓐ', 'ƿ', 'ß', 'ς',
    ] {
        if !linkscan::is_host_char(c) {
            continue;
        }
        let url = format!("x{c}x.com");
        let flagged = checks::check(&url, LinkKind::Url).fails(Check::IdentifierStatus);
        assert_eq!(flagged, !linkscan::is_identifier_allowed(c), "{c:?}");
    }
    // Every Bidi_Control character, and nothing else in a sample of format characters.
    for cp in 0x0600..0x2100u32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        let url = format!("example.com/a{c}b");
        assert_eq!(
            checks::check(&url, LinkKind::Url).fails(Check::BidiControl),
            linkscan::is_bidi_control(c),
            "U+{cp:04X}"
        );
    }
    // The TLD check is the syntactic TLD rule of section 8 on the last label.
    for tld in [
        "com",
        "c",
        "c0",
        "a-b",
        "рф",
        "xn--p1ai",
        "xn--zz",
        "ευ1",
        "テスト",
    ] {
        let url = format!("example.{tld}/x");
        assert_eq!(
            checks::check(&url, LinkKind::Url).fails(Check::TldSyntax),
            !linkscan::is_syntactic_tld(tld.as_bytes()),
            "{tld}"
        );
    }
}

#[test]
fn a_link_check_lists_names_in_a_fixed_order() {
    let result = checks::check("ƿ.c0m/\u{200F}", LinkKind::Url);
    assert_eq!(
        result.iter().collect::<Vec<_>>(),
        [
            Check::TldSyntax,
            Check::IdentifierStatus,
            Check::BidiControl
        ]
    );
    assert_eq!(
        result.names().collect::<Vec<_>>(),
        ["tld_syntax", "identifier_status", "bidi_control"]
    );
    let all = checks::check("\u{0440}a.c0m/\u{200F}\u{00AD}", LinkKind::Url);
    assert_eq!(
        all.names().collect::<Vec<_>>(),
        ["tld_syntax", "bidi_control", "spoof", "invisible"]
    );
    assert!(LinkCheck::default().passed());
}

#[test]
fn secure_formatting_escapes_bidi_controls_everywhere() {
    let url = "https://example.com/\u{202E}a?\u{2066}=b#\u{200F}";
    let escaped = linkscan::escape_url_with(url, &checks::SECURE_FORMAT);
    assert_eq!(
        escaped,
        "https://example.com/%E2%80%AEa?%E2%81%A6=b#%E2%80%8F"
    );
    assert!(!escaped.chars().any(linkscan::is_bidi_control));
    // The conformant formatter leaves them (their Link_Term is Include).
    assert_eq!(linkscan::escape_url(url), url);
}

/// The invisible set holds every `Other_Default_Ignorable_Code_Point` and
/// `Variation_Selector` of `PropList.txt`, and none of its `White_Space` or
/// `Prepended_Concatenation_Mark` code points (the parts of the derivation that the data
/// gives; `Cf` comes from the general category, which it does not).
#[test]
fn invisible_set_follows_prop_list() {
    let text = common::read(common::unicode("17.0.0").join("PropList.txt"));
    let (mut inside, mut outside) = (0, 0);
    for line in text.lines() {
        let line = line.split('#').next().unwrap();
        let Some((range, property)) = line.split_once(';') else {
            continue;
        };
        let range = range.trim();
        let (lo, hi) = range.split_once("..").unwrap_or((range, range));
        let (lo, hi) = (
            u32::from_str_radix(lo, 16).unwrap(),
            u32::from_str_radix(hi, 16).unwrap(),
        );
        let expected = match property.trim() {
            "Other_Default_Ignorable_Code_Point" | "Variation_Selector" => true,
            "White_Space" | "Prepended_Concatenation_Mark" => false,
            _ => continue,
        };
        for c in (lo..=hi).filter_map(char::from_u32) {
            assert_eq!(checks::is_default_ignorable(c), expected, "{c:?}");
            if expected {
                inside += 1;
            } else {
                outside += 1;
            }
        }
    }
    assert!(inside > 4000 && outside > 20, "{inside} {outside}");
}
