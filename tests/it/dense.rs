//! Link-dense text: the finder equals the spec-literal oracle where links follow each
//! other every few bytes.
//!
//! The scanner has a fast path for the common candidate (a `.` followed by a short ASCII
//! run that an ASCII byte other than a dot ends, looked at as one 8-byte word), remembers
//! the last TLD it found and the last host it rejected, and walks short hosts and local
//! parts byte by byte when the previous link ended just before them. Each of those
//! shortcuts has edges: a run of 7, 8 or 9 bytes, a run that ends fewer than 8 bytes
//! before the end of the text, a run ended by a non-ASCII byte or a dot, a TLD that
//! differs from the last one only in case or length, a run followed by a dot and no
//! label, a one-byte TLD in a user list, a
//! rejected host right before a good one. The texts here are built from units that sit
//! on those edges, glued by separators that do and do not end a link, and every text is
//! scanned with every kernel and two TLD policies; a failure prints the text.

use crate::common;

use std::sync::Arc;

use common::rng::Rng;
use linkscan::internals::Kernel;
use linkscan::{oracle, Link, LinkFinder, TldPolicy, TldSet};

/// Link-like units: good links, near misses, and the lengths around the 8-byte word.
const UNITS: &[&str] = &[
    "x.com",
    "X.CoM",
    "a@b.com",
    "a.b@c.org",
    "x.com:1",
    "x.com:65535",
    "x.com:65536",
    "x.com:123456",
    "x.com:",
    "a.b.c.com",
    "www.ab-c.d.com",
    "-x.com",
    "x-.com",
    "x.-com",
    ".com",
    "x..com",
    "x.xn--p1ai",
    "x.co",
    "x.comm",
    "x.abcdefg",
    "x.abcdefgh",
    "x.abcdefghi",
    "x.museum",
    "x.photography",
    "x.com/",
    "x.com/a.b",
    "x.com?q=1",
    "x.com#f",
    "x.com.",
    "x.com。",
    // A run followed by a dot and no label, looked up on the fast path: a TLD, no TLD, a
    // one-byte run, the longest short TLD.
    "x.coa..b",
    "a..b@x.co",
    "x.org..",
    "x.x.",
    "x.abcdefgh.",
    "x.中国",
    "x.рф",
    "a.x",
    "e.g",
    "1.5",
    "http://x.com",
    "HTTPS://a.io",
    "ftp://x.com",
    "javascript://x.com",
    "mailto:a@b.com",
    "user:pw@x.com",
    "//a@x.com",
    "a..b@c.com",
    "a.@b.com",
    "@b.com",
    "x@y@z.com",
    "é.com",
    "x.comé",
    "x.c",
    // Labels around the 16 bytes up to which a host is walked a byte at a time, and
    // labels that a hyphen, an Ignored code point or a non-ASCII letter interrupts.
    "abcdefghijklmno.com",
    "abcdefghijklmnop.com",
    "abcdefghijklmnopq.com",
    "a-b.x-y.com",
    "ab-.com",
    "ab\u{AD}cd.com",
    "\u{AD}x.com",
    "x\u{200B}.com",
    "ab\u{E9}cd.com",
    "b.\u{E9}x.com",
];

/// What goes between units: link ends, host characters, brackets, non-ASCII, invalid UTF-8.
const SEPARATORS: &[&[u8]] = &[
    b" ",
    b"\n",
    b"",
    b":",
    b"-",
    b"@",
    b".",
    b"/",
    b"(",
    b")",
    b",",
    b"\t",
    "é".as_bytes(),
    "\u{3000}".as_bytes(),
    "…".as_bytes(),
    b"\xFF",
];

fn show(text: &[u8], links: &[Link]) -> String {
    let spans: Vec<String> = links
        .iter()
        .map(|l| format!("{:?}", String::from_utf8_lossy(&text[l.range()])))
        .collect();
    spans.join(" ")
}

/// The policies: the IANA list, and a user list with a one-byte TLD (so that one-byte
/// runs are candidates) and an 8-byte one.
fn policies() -> Vec<(&'static str, TldPolicy)> {
    let list = TldSet::from_list(["com", "org", "x", "c", "abcdefgh", "io", "XN--P1AI"])
        .expect("a valid list");
    vec![
        ("Iana", TldPolicy::Iana),
        ("List", TldPolicy::List(Arc::new(list))),
    ]
}

/// The finder equals the oracle on `text`, for every kernel and policy; returns the
/// number of links the oracle found with the IANA list.
fn assert_equal_to_oracle(text: &[u8], policies: &[(&str, TldPolicy)]) -> usize {
    let mut iana = 0;
    for (name, policy) in policies {
        let expected = oracle::find_links(text, policy);
        if *name == "Iana" {
            iana = expected.len();
        }
        for kernel in Kernel::available() {
            let finder = LinkFinder::builder()
                .tld_policy(policy.clone())
                .prefilter_kernel(kernel)
                .max_link_len(None)
                .build();
            let found: Vec<Link> = finder.links_bytes(text).collect();
            assert_eq!(
                found,
                expected,
                "policy {name}, kernel {}, text {:?}\n  finder: {}\n  oracle: {}",
                kernel.name(),
                String::from_utf8_lossy(text),
                show(text, &found),
                show(text, &expected)
            );
            assert_eq!(finder.links_bytes(text).count(), expected.len());
        }
    }
    iana
}

/// Random runs of units and separators, from one unit to dozens.
#[test]
fn random_dense_texts_equal_the_oracle() {
    let policies = policies();
    let mut rng = Rng::new(0xD3_05E0_11AC);
    let (mut links, mut bytes) = (0, 0);
    for _ in 0..6_000 {
        let mut text = Vec::new();
        let units = 1 + rng.below(24);
        for _ in 0..units {
            text.extend_from_slice(rng.pick(UNITS).as_bytes());
            // Mostly a link end, as in real lists; sometimes anything.
            let separator: &[u8] = if rng.below(3) == 0 {
                SEPARATORS[rng.below(SEPARATORS.len())]
            } else if rng.below(2) == 0 {
                b" "
            } else {
                b"\n"
            };
            text.extend_from_slice(separator);
        }
        // Cut anywhere, so that runs end at every distance from the end of the text.
        let cut = text.len() - rng.below(text.len().min(12) + 1);
        links += assert_equal_to_oracle(&text[..cut], &policies);
        bytes += cut;
    }
    // The texts are dense: a link every twenty bytes or so.
    assert!(links * 32 > bytes, "{links} links in {bytes} bytes");
}

/// Each unit repeated, with each separator, long enough to cross blocks of the
/// candidate search; and each unit alone at the end of the text, cut at every length.
#[test]
fn repeated_units_equal_the_oracle() {
    let policies = policies();
    for unit in UNITS {
        for separator in SEPARATORS {
            let mut text = Vec::new();
            while text.len() < 200 {
                text.extend_from_slice(unit.as_bytes());
                text.extend_from_slice(separator);
            }
            assert_equal_to_oracle(&text, &policies);
        }
        let mut text = b"see ".to_vec();
        text.extend_from_slice(unit.as_bytes());
        for cut in 0..=text.len() {
            assert_equal_to_oracle(&text[..cut], &policies);
        }
    }
}

/// The last TLD found is remembered: TLDs that differ from it only in case, length or
/// the bytes after it are looked up again, not taken for it.
#[test]
fn the_remembered_tld_is_not_taken_for_a_neighbour() {
    let finder = LinkFinder::new();
    let text = "x.com x.co x.comm x.COM x.cox x.com x.c x.cm x.cmo";
    let found: Vec<&str> = finder.links(text).map(|l| l.as_str()).collect();
    assert_eq!(found, ["x.com", "x.co", "x.COM", "x.com", "x.cm"]);
    assert_equal_to_oracle(text.as_bytes(), &policies());
}

/// Chains of labels joined by `.` and `。`, as in `a。b.a。b.…`: the scanner goes along
/// a chain of short ASCII labels label after label ([`linkscan`]'s chain loop), to the
/// first label that is no inner one. The labels sit on its edges (one byte, the longest
/// TLD of each policy and one byte more, a hyphen, upper case, a TLD, non-ASCII), the
/// joints on the Dot's (`.`, `。`, two of them, a fullwidth stop, a `。` cut short or
/// with its last byte changed, an Ignored code point, nothing), and the chain ends
/// anywhere: in the middle of a `。`, after a Dot, before a link end.
#[test]
fn chains_of_labels_with_ideographic_dots_equal_the_oracle() {
    const LABELS: &[&str] = &[
        "a",
        "b1",
        "-",
        "x-",
        "com",
        "COM",
        "org",
        "abcdefgh",
        "abcdefghi",
        "xn--vermgensberatung-pwb",
        "xn--vermgensberatung-pwbx",
        "中国",
        "é",
        "рф",
    ];
    const JOINTS: &[&str] = &[
        ".",
        "\u{3002}",
        "\u{3002}",
        "..",
        "\u{3002}\u{3002}",
        ".\u{3002}",
        "\u{FF0E}",
        "\u{AD}\u{3002}",
        "\u{3002}\u{AD}",
        "\u{3001}",
        "",
    ];
    let policies = policies();
    let mut rng = Rng::new(0xC4A1_3002_0A0B);
    let (mut links, mut texts) = (0, 0);
    for _ in 0..4_000 {
        let mut text = Vec::new();
        if rng.below(3) == 0 {
            text.extend_from_slice(SEPARATORS[rng.below(SEPARATORS.len())]);
        }
        for _ in 0..1 + rng.below(16) {
            text.extend_from_slice(rng.pick(LABELS).as_bytes());
            let joint = rng.pick(JOINTS).as_bytes();
            text.extend_from_slice(joint);
        }
        if rng.below(2) == 0 {
            text.extend_from_slice(rng.pick(LABELS).as_bytes());
        }
        text.extend_from_slice(SEPARATORS[rng.below(SEPARATORS.len())]);
        // The bytes of `。` with the last one changed, or cut short.
        if rng.below(4) == 0 {
            text.extend_from_slice(&[0xE3, 0x80, 0x81, b'a']);
        }
        let cut = text.len() - rng.below(text.len().min(5) + 1);
        links += assert_equal_to_oracle(&text[..cut], &policies);
        texts += 1;
    }
    // Some chains end in a TLD, and so in a link.
    assert!(links * 10 > texts, "{links} links in {texts} texts");
    // The hostile line itself, long enough to cross many blocks of the search, and
    // shorter chains that end in a TLD: a link, unless a label is bad.
    for (unit, link) in [
        ("a\u{3002}b.", 1),
        ("a.b\u{3002}", 1),
        ("ab\u{3002}cd\u{3002}", 1),
        ("a\u{3002}-.", 0),
    ] {
        let mut text = unit.repeat(300);
        assert_equal_to_oracle(text.as_bytes(), &policies);
        text.push_str("com x");
        assert_equal_to_oracle(text.as_bytes(), &policies);
        let text = format!("{}com x", unit.repeat(20));
        assert_eq!(
            assert_equal_to_oracle(text.as_bytes(), &policies),
            link,
            "{text}"
        );
    }
}

/// A count of link-dense text takes its links on a path of its own once they follow one
/// another closely with the same TLD: one-label and many-label hosts, ports good and
/// bad, paths, emails (their local parts walked back to the end of the link before),
/// schemes, and the near misses of each (bad labels, an `@` after the host, another
/// TLD, a non-ASCII byte in the host, a host too far from the last link). Units with
/// `.com` follow each other with little or nothing between them, so that each unit
/// lands on that path, and each near miss must be left to the general one; counts and
/// links are compared with the oracle's under every kernel.
#[test]
fn dense_counts_equal_the_oracle() {
    const DENSE: &[&str] = &[
        "x.com",
        "x.com",
        "X.COM",
        "ab.com",
        "a-b.com",
        "www.x.com",
        "a.b-c.d.com",
        "x.com:1",
        "x.com:80",
        "x.com:65535",
        "x.com:65536",
        "x.com:123456",
        "x.com:",
        "x.com:/a",
        "x.com:8/a",
        "x.com/",
        "x.com/a",
        "x.com/a(b)",
        "x.com/((",
        "x.com?q",
        "x.com#f",
        "a@x.com",
        "a.b@x.com",
        "a..b@x.com",
        ".a@x.com",
        "@x.com",
        " @x.com",
        "a.@x.com",
        "é@x.com",
        "a:b@x.com",
        "//a@x.com",
        "abcdefghijklmnopq@x.com",
        "a@x.com:1",
        "a@x.com/b",
        "mailto:a@x.com",
        "http://x.com",
        "https://x.com/a",
        "HTTP://x.com",
        "ftp://x.com",
        "javascript://x.com",
        "//x.com",
        ":/x.com",
        "x.com@",
        "x.com@y.com",
        "-x.com",
        "x-.com",
        "a.-b.com",
        "a-.b.com",
        "a..b.com",
        ".com",
        "x.comm",
        "x.co",
        "x.org",
        "x.com.",
        "x.com。",
        "é.com",
        "aé.b.com",
        "x\u{AD}.com",
        "abcdefghijklmnop.com",
        "abcdefghijklmnopq.com",
        "a.bcdefghijklmnop.com",
    ];
    const GLUE: &[&str] = &[
        "", "", " ", "\n", ",", ";", "(", ")", "<", ">", "'", "-", "1",
    ];
    let policies = policies();
    let mut rng = Rng::new(0xC0_DE45_E000);
    let (mut links, mut bytes) = (0, 0);
    for _ in 0..5_000 {
        let mut text = Vec::new();
        for _ in 0..2 + rng.below(20) {
            text.extend_from_slice(rng.pick(DENSE).as_bytes());
            text.extend_from_slice(rng.pick(GLUE).as_bytes());
        }
        links += assert_equal_to_oracle(&text, &policies);
        bytes += text.len();
        // Links longer than a limit are left out, by the count too.
        let expected = oracle::find_links(&text, &TldPolicy::Iana);
        for limit in [5, 7, 9, 13] {
            let short: Vec<Link> = expected
                .iter()
                .filter(|l| l.range().len() <= limit)
                .copied()
                .collect();
            for kernel in Kernel::available() {
                let finder = LinkFinder::builder()
                    .prefilter_kernel(kernel)
                    .max_link_len(Some(limit))
                    .build();
                let found: Vec<Link> = finder.links_bytes(&text).collect();
                assert_eq!(found, short, "limit {limit}, {}", show(&text, &expected));
                assert_eq!(
                    finder.links_bytes(&text).count(),
                    short.len(),
                    "limit {limit}, kernel {}, {}",
                    kernel.name(),
                    show(&text, &expected)
                );
            }
        }
    }
    assert!(links * 24 > bytes, "{links} links in {bytes} bytes");
    // The hostile lines, long enough to cross groups of blocks of the search.
    for unit in [
        "x.com:1",
        "x.com:1 ",
        "x.com ",
        "x.com\n",
        "a@b.com ",
        "www.x.com,",
    ] {
        let text = unit.repeat(700);
        assert_eq!(
            assert_equal_to_oracle(text.as_bytes(), &policies),
            700,
            "{unit:?}"
        );
    }
}

/// A `.` before a non-ASCII character is rejected on the fast path when no TLD starts
/// with that character (`пример.пример.…`), from the bits of its UTF-8 form: characters
/// of two, three and four bytes that do and do not start a TLD of each policy, Ignored
/// code points, `。` and the fullwidth stop, and bytes that are no UTF-8 (a lead byte
/// without its continuation, an overlong form, a lone continuation byte, the end of the
/// text inside a character).
#[test]
fn dots_before_non_ascii_equal_the_oracle() {
    const UNITS: &[&[u8]] = &[
        "пример.".as_bytes(),
        "x.рф".as_bytes(),
        "x.р".as_bytes(),
        "x.рфx".as_bytes(),
        "x.ком".as_bytes(),
        "x.中国".as_bytes(),
        "x.中".as_bytes(),
        "x.是".as_bytes(),
        "x.é".as_bytes(),
        "x.\u{AD}com".as_bytes(),
        "x.\u{3002}com".as_bytes(),
        "x.\u{FF0E}com".as_bytes(),
        "x.😀".as_bytes(),
        "x.ελ".as_bytes(),
        "x.קום".as_bytes(),
        b"x.\xC3(",
        b"x.\xC0\xAF",
        b"x.\xE4\xB8",
        b"x.\xF0\x9F\x98",
        b"x.\x80com",
        b"x.\xFFcom",
        b"x.com",
        b"a.",
    ];
    let policies = policies();
    let mut rng = Rng::new(0x0D07_7E0A_5C11);
    for _ in 0..3_000 {
        let mut text = Vec::new();
        for _ in 0..1 + rng.below(12) {
            text.extend_from_slice(UNITS[rng.below(UNITS.len())]);
            if rng.below(2) == 0 {
                text.extend_from_slice(SEPARATORS[rng.below(SEPARATORS.len())]);
            }
        }
        // Cut anywhere, so that a character may be cut short at the end of the text.
        let cut = text.len() - rng.below(text.len().min(4) + 1);
        assert_equal_to_oracle(&text[..cut], &policies);
    }
    for unit in UNITS {
        assert_equal_to_oracle(&unit.repeat(300), &policies);
    }
}

/// Paths, queries and fragments full of brackets (`x.com/(((((x.com/(((((…`): the
/// automaton takes a run of Open brackets, Soft bytes and short plain runs in a loop of
/// its own, out of line, and gives everything else back. The pieces sit on its edges
/// (each ASCII Open and Close bracket, Soft bytes that are and are not a part's
/// separator, plain runs around its longest, a part's separators and terminators,
/// non-ASCII brackets), and some paths hold more Open brackets than the stack takes, with
/// other bytes between them, so that the stack fills inside such a run.
#[test]
fn paths_of_brackets_equal_the_oracle() {
    const PIECES: &[&str] = &[
        "(",
        "(",
        "[",
        "{",
        "<",
        ")",
        "]",
        "}",
        ">",
        ".",
        ",",
        ";",
        "!",
        "'",
        "\"",
        "a",
        "ab",
        "abcdefg",
        "abcdefgh",
        "abcdefghi",
        "abcdefghijklmnopq",
        "/",
        "?",
        "#",
        "=",
        "&",
        ":",
        ":~:",
        "é",
        "\u{FF08}",
        "\u{FF09}",
        "%20",
        "x.com",
    ];
    const STARTS: &[&str] = &["x.com/", "x.com?", "x.com#", "x.com/a#b:~:", "x.com:8/"];
    const ENDS: &[&str] = &["", " ", "\n", ")", ". ", "é"];
    let policies = policies();
    let mut rng = Rng::new(0xB7AC_0E75_0001);
    for round in 0..3_000 {
        let mut text = rng.pick(STARTS).to_string();
        let pieces = if round % 50 == 0 {
            300
        } else {
            1 + rng.below(30)
        };
        for _ in 0..pieces {
            // More Open brackets than anything else, so that the stack fills sometimes.
            let piece = if rng.below(3) == 0 {
                "("
            } else {
                rng.pick(PIECES)
            };
            text.push_str(piece);
        }
        text.push_str(ENDS[rng.below(ENDS.len())]);
        assert_equal_to_oracle(text.as_bytes(), &policies);
    }
    for unit in [
        "x.com/([{<",
        "x.com/(((((",
        "x.com/a.,;:!?",
        "(a.b",
        "(abcdefghi",
    ] {
        let text = format!("x.com/{}", unit.repeat(200));
        assert_equal_to_oracle(text.as_bytes(), &policies);
    }
}

/// The run looked up last and not found is rejected with one compare (`coa` of
/// `a..b@x.coa..b@x.co…`) when it comes again whole: the same letters in any case, before
/// an ASCII byte that ends it. Units repeat such runs and follow them with what must not
/// be taken for them: the same run continued by a letter, a non-ASCII letter or an
/// Ignored code point (which a user list may make a TLD), a run with a digit or a hyphen
/// (never kept: a control byte OR 0x20 reads as one), and a control byte in its place
/// (`co\r` is `co`, a TLD, and no `co-`).
#[test]
fn repeated_runs_that_are_no_tld_equal_the_oracle() {
    const UNITS: &[&str] = &[
        "a..b@x.coa",
        "x.coa..",
        "x.coa ",
        "x.COA.",
        "x.CoA\n",
        "x.coa.b",
        "x.coa\u{E9} ",
        "x.coab ",
        "x.coa\u{AD}b ",
        "x.co ",
        "x.co\ra ",
        "x.co-a..",
        "x.c0a..",
        "x.c\u{10}a ",
        "x.c ",
        "x.com ",
        "x.co",
        "x.coa",
    ];
    let list =
        TldSet::from_list(["com", "co", "c", "coab", "coa\u{E9}", "org"]).expect("a valid list");
    let mut policies = policies();
    policies.push(("List with coab", TldPolicy::List(Arc::new(list))));
    let mut rng = Rng::new(0x0C0A_0C0A_5EED);
    for _ in 0..3_000 {
        let mut text = Vec::new();
        for _ in 0..1 + rng.below(16) {
            text.extend_from_slice(rng.pick(UNITS).as_bytes());
            if rng.below(3) == 0 {
                text.extend_from_slice(SEPARATORS[rng.below(SEPARATORS.len())]);
            }
        }
        assert_equal_to_oracle(&text, &policies);
    }
    for unit in UNITS {
        assert_equal_to_oracle(unit.repeat(200).as_bytes(), &policies);
    }
}

/// The last label before a candidate dot, walked back byte by byte to the floor (the end
/// of the link before) or to a byte that is no ASCII HostCharNoDot: the first step of
/// both the host walk of every link and the path of link-dense counts, one function. The
/// labels sit on its edges: one byte, a hyphen at either end or alone, empty (a dot or
/// the floor right before the dot), a label that reaches the floor exactly or stops at a
/// dot (more labels to walk, good and bad), at a non-ASCII letter, an Ignored code point
/// or a byte that is no HostChar, and labels around the 16 bytes up to which a walk is
/// made byte by byte. Units follow each other with nothing between them or with glue
/// that does and does not end a host, so that a label meets the floor at every distance;
/// links and counts are compared with the oracle's under every kernel.
#[test]
fn labels_before_the_dot_equal_the_oracle() {
    const LABELS: &[&str] = &[
        "x.com",
        "-x.com",
        "x-.com",
        "-.com",
        "a-b.com",
        ".com",
        "a..com",
        "a.-b.com",
        "a-.b.com",
        "a.b.com",
        "é.com",
        "éx.com",
        "xé.com",
        "x\u{AD}.com",
        "\u{AD}x.com",
        "x_y.com",
        "_.com",
        "abcdefghijklmno.com",
        "abcdefghijklmnop.com",
        "abcdefghijklmnopq.com",
        "a.bcdefghijklmnopq.com",
        "x.com:1",
        "a@x.com",
        "x.com/a",
    ];
    const GLUE: &[&str] = &["", "", " ", "\n", "-", ".", "@", ":", "/", "é", "_", "1"];
    let policies = policies();
    let mut rng = Rng::new(0x1AB_E1B4_C5E0);
    let (mut links, mut bytes) = (0, 0);
    for _ in 0..4_000 {
        let mut text = Vec::new();
        for _ in 0..1 + rng.below(16) {
            text.extend_from_slice(rng.pick(LABELS).as_bytes());
            text.extend_from_slice(rng.pick(GLUE).as_bytes());
        }
        links += assert_equal_to_oracle(&text, &policies);
        bytes += text.len();
    }
    // Dense: a link every 40 bytes or so.
    assert!(links * 48 > bytes, "{links} links in {bytes} bytes");
    for unit in LABELS {
        for glue in GLUE {
            let text = format!("{unit}{glue}").repeat(40);
            assert_equal_to_oracle(text.as_bytes(), &policies);
        }
    }
}

/// The count of the links no longer than a few limits equals the oracle's, under every
/// kernel: the links' ends, not only their number.
fn assert_short_counts_equal_the_oracle(text: &[u8]) {
    let expected = oracle::find_links(text, &TldPolicy::Iana);
    for limit in [5, 7, 9, 11, 13] {
        let short = expected.iter().filter(|l| l.range().len() <= limit).count();
        for kernel in Kernel::available() {
            let finder = LinkFinder::builder()
                .prefilter_kernel(kernel)
                .max_link_len(Some(limit))
                .build();
            assert_eq!(
                finder.links_bytes(text).count(),
                short,
                "limit {limit}, kernel {}, {}",
                kernel.name(),
                show(text, &expected)
            );
        }
    }
}

/// The port of a link that follows another closely is read from the six bytes after its
/// `:` on the path of link-dense counts; with fewer left before the end of the text, the
/// general loop reads it. Ports of one to six digits, at and past 65535, empty, before a
/// path or a host character, each the last of a line of such links cut at every length,
/// so that the text ends at every distance from the `:`; counts and links are compared
/// with the oracle's under every kernel.
#[test]
fn dense_ports_at_every_distance_from_the_end_equal_the_oracle() {
    const PORTS: &[&str] = &[
        "x.com:1",
        "x.com:12",
        "x.com:8080",
        "x.com:09999",
        "x.com:65535",
        "x.com:65536",
        "x.com:99999",
        "x.com:123456",
        "x.com:1234567",
        "x.com:",
        "x.com::1",
        "x.com:8/a",
        "x.com:1x",
        "x.com:1-",
        "x.com:1.",
        "x.com:1@",
    ];
    let policies = policies();
    for unit in PORTS {
        for glue in ["", " ", "x"] {
            // After a link, so that the count takes the port on its own path.
            let text = format!("x.com {unit}{glue}").repeat(4);
            for cut in text.len().saturating_sub(16)..=text.len() {
                let text = &text.as_bytes()[..cut];
                assert_equal_to_oracle(text, &policies);
                assert_short_counts_equal_the_oracle(text);
            }
        }
    }
    // The lines of the patterns, long enough to cross groups of blocks: every
    // link found, by the count too.
    for (unit, links) in [("x.com:1", 700), ("x.com:65535 ", 700), ("x.com:65536 ", 0)] {
        let text = unit.repeat(700);
        assert_eq!(
            assert_equal_to_oracle(text.as_bytes(), &policies),
            links,
            "{unit:?}"
        );
    }
}
