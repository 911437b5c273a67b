//! Randomized differential test: the fast finder against the spec-literal oracle.
//!
//! Texts are built from tokens that matter to link detection — words in several scripts,
//! the three dots, real and fake TLDs, schemes, `@`, ports, brackets, Soft punctuation,
//! URL syntax, white space, hyphens and invalid UTF-8 — and every text is scanned under
//! the three TLD policies; public suffixes (spec section 1.4) are among the hosts.
//! `LinkFinder::links_bytes` must report exactly what `oracle::find_links` reports
//! (offsets, kinds, schemes), for valid UTF-8 `links` must equal `links_bytes`, and a
//! count must be the number of links reported, with the public-suffix rule and without.
//!
//! The generator is a small deterministic PRNG, so a run is reproducible:
//! `LINKSCAN_DIFF_SEED` sets the seed of the first case (case `i` uses seed + i) and
//! `LINKSCAN_DIFF_CASES` the number of cases. A failure prints the seed of the failing
//! case, the text (escaped), a shrunk text that still fails, and both results.

use crate::common;

use std::sync::Arc;

use linkscan::{oracle, Link, LinkFinder, LinkKind, TldPolicy, TldSet};

const DEFAULT_SEED: u64 = 0x5EED_0F11_4B5C;
const DEFAULT_CASES: u64 = 20_000;

/// SplitMix64: tiny, deterministic, good enough to pick tokens.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn str(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "a",
    "b",
    "x",
    "ab",
    "foo",
    "www",
    "user",
    "example",
    "EXAMPLE",
    "Test",
    "b-c",
    "a--b",
    "com",
    "mail",
    "q",
    "v1",
    "2024",
    "e\u{301}",
    "ß",
    "ｅｘａｍｐｌｅ",
    "_",
    "a_b",
];
const SCRIPTS: &[&str] = &[
    "αβγ",
    "ευ",
    "Ελλάδα",
    "пример",
    "испытание",
    "Ракь",
    "例子",
    "普遍适用测试",
    "我爱你",
    "アルベルト",
    "مثال",
    "موقع",
    "उदाहरण",
    "भारत",
    "ไทย",
    "한국",
    "😀",
    "😎",
    "👩\u{200D}💻",
    "\u{200E}",
    "\u{200D}",
    "\u{AD}",
    "straße",
    "ς",
    "\u{200C}",
    "，",
    "：",
    "（",
    "／",
    "、",
    "\u{2005}",
];
const DOTS: &[&str] = &[".", ".", ".", "。", "．", "..", ".。"];
const FIXED_TLDS: &[&str] = &[
    "com",
    "COM",
    "Com",
    "org",
    "co",
    "uk",
    "рф",
    "香港",
    "xn--p1ai",
    "XN--P1AI",
    "Xn--P1ai",
    "我爱你",
    "invalid",
    "c0m",
    "comx",
    "x",
    "xn--abc",
    "xn--",
    "-com",
    "com-",
    "испытание",
    "ευ",
    "😎",
];
const SCHEMES: &[&str] = &[
    "http://",
    "https://",
    "HTTPS://",
    "Http://",
    "mailto:",
    "MAILTO:",
    "ftp://",
    "http:/",
    "//",
    "git+ssh://",
    "javascript://",
    "Data://",
    "9x.y-z://",
    "1://",
    "https://user:",
    "ftp://a.b:",
    "://",
];
const NUMBERS: &[&str] = &[
    "0", "8", "80", "443", "8080", "65535", "65536", "99999", "123456", "00080",
];
const BRACKETS: &[&str] = &[
    "(", ")", "[", "]", "{", "}", "<", ">", "「", "」", "（", "）", "«", "»", "【", "】", "⹢", "⹣",
    "༺", "༻", "((", "))",
];
const SOFT: &[&str] = &["!", "?", ",", ";", ":", "'", "\"", "…", "、", "¿", "!?"];
const SYNTAX: &[&str] = &[
    "/",
    "/",
    "?",
    "#",
    "=",
    "&",
    ",",
    ":~:",
    "~",
    "%20",
    "+",
    "#:~:text=",
    "?q=",
    "&t=",
];
const PART_STARTS: &[&str] = &["/", "/", "/", "?", "#", "#:~:text=", "/#", "?#", ":~:"];
const SPACE: &[&str] = &[" ", " ", " ", "\n", "\t", "\u{3000}", "\u{A0}", "\r\n"];
const HYPHENS: &[&str] = &["-", "--", "\u{2010}", "-."];
/// Hosts without a TLD, and near misses.
const LITERAL_HOSTS: &[&str] = &[
    "localhost",
    "LOCALHOST",
    "localhos",
    "localhostx",
    "127.0.0.1",
    "192.168.0.1",
    "255.255.255.255",
    "0.0.0.0",
    "256.1.1.1",
    "999.1.1.1",
    "1.2.3.4.5",
    "01.2.3.4",
    "1.2.3",
    "1.2.3.4x",
    "[::1]",
    "[::]",
    "[2001:db8::7]",
    "[1:2:3:4:5:6:7:8]",
    "[1:2:3:4:5:6:7::]",
    "[::1:2:3:4:5:6:7]",
    "[1:2:3:4:5:6:7:8:9]",
    "[::ffff:192.0.2.1]",
    "[1:2:3:4:5:6:1.2.3.4]",
    "[1:2:3:4:5:6::1.2.3.4]",
    "[::01.2.3.4]",
    "[1.2.3.4::]",
    "[12345::]",
    "[::1::]",
    "[:1::]",
    "[1::2:]",
    "[fe80::1%25eth0]",
    "[::1",
    "[",
    "[]",
    "[gggg::]",
];

/// Public suffixes of the list's two sections (ICANN: not linked; private: linked), in
/// several forms, and registrable near misses: spec section 1.4.
const PUBLIC_SUFFIXES: &[&str] = &[
    "co.uk",
    "CO.UK",
    "gov.uk",
    "com.au",
    "x.ck",
    "www.ck",
    "公司.cn",
    "xn--55qx5d.cn",
    "公司。cn",
    "ｃｏ.uk",
    "co\u{AD}.uk",
    "c\u{200B}o.uk",
    "github.io",
    "blogspot.com",
    "s3.amazonaws.com",
    "bbc.co.uk",
    "co.ukk",
    "例子.公司.cn",
];

/// Ignored code points (UTS #46 `ignored`): a host walk passes over them.
const IGNORED: &[&str] = &[
    "\u{AD}",
    "\u{200B}",
    "\u{2060}",
    "\u{FE0F}",
    "\u{FEFF}",
    "\u{180B}",
    "\u{E0100}",
    "\u{3164}",
    "\u{200B}\u{200B}",
    "\u{AD}-",
];
const INVALID: &[&[u8]] = &[
    b"\xFF",
    b"\x80",
    b"\xC3",
    b"\xE3\x80",
    b"\xED\xA0\x80",
    b"\xF0\x9F",
    b"\xC0\xAE",
    b"\xF4\x90\x80\x80",
];

/// The kinds of token.
#[derive(Clone, Copy)]
enum Pool {
    Words,
    Scripts,
    Dots,
    Tld,
    Schemes,
    At,
    Colon,
    Numbers,
    Brackets,
    Soft,
    Syntax,
    Space,
    Hyphens,
    Ignored,
    Invalid,
}

/// Token weights between links.
const TEXT_MIX: &[(Pool, usize)] = &[
    (Pool::Words, 18),
    (Pool::Scripts, 12),
    (Pool::Dots, 12),
    (Pool::Tld, 8),
    (Pool::Schemes, 4),
    (Pool::At, 5),
    (Pool::Colon, 3),
    (Pool::Numbers, 3),
    (Pool::Brackets, 8),
    (Pool::Soft, 5),
    (Pool::Syntax, 8),
    (Pool::Space, 7),
    (Pool::Hyphens, 4),
    (Pool::Ignored, 3),
    (Pool::Invalid, 3),
];

/// Token weights after a host.
const PATH_MIX: &[(Pool, usize)] = &[
    (Pool::Words, 25),
    (Pool::Scripts, 10),
    (Pool::Brackets, 15),
    (Pool::Soft, 12),
    (Pool::Syntax, 20),
    (Pool::Dots, 8),
    (Pool::Space, 4),
    (Pool::Hyphens, 3),
    (Pool::Invalid, 3),
];

/// Everything a text is made from.
struct Alphabet {
    tlds: Vec<String>,
}

impl Alphabet {
    fn new() -> Alphabet {
        let list = common::read(
            common::shared()
                .join("iana")
                .join("tlds-alpha-by-domain.txt"),
        );
        let mut tlds: Vec<String> = list
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.trim().to_string())
            .collect();
        assert!(tlds.len() > 1000, "TLD list too short: {}", tlds.len());
        // The embedded set also holds the decoded forms of the XN-- entries.
        tlds.extend(linkscan::internals::TLDS.iter().map(|t| t.to_string()));
        Alphabet { tlds }
    }

    fn tld(&self, rng: &mut Rng) -> Vec<u8> {
        if rng.chance(40) {
            return rng.str(FIXED_TLDS).as_bytes().to_vec();
        }
        let tld = rng.pick(&self.tlds);
        match rng.below(3) {
            0 => tld.to_ascii_lowercase().into_bytes(),
            1 => tld.to_ascii_uppercase().into_bytes(),
            _ => tld
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect::<String>()
                .into_bytes(),
        }
    }

    fn label(&self, rng: &mut Rng) -> Vec<u8> {
        let table = if rng.chance(60) { WORDS } else { SCRIPTS };
        rng.str(table).as_bytes().to_vec()
    }

    /// A host without a TLD after a scheme, or something close to one.
    fn literal_like(&self, rng: &mut Rng, out: &mut Vec<Vec<u8>>) {
        if rng.chance(30) {
            out.push(
                rng.str(&["x", "-", ".", "+", "1", "é", "(", "@"])
                    .as_bytes()
                    .to_vec(),
            );
        }
        out.push(
            rng.str(&["http://", "https://", "HTTP://", "hTtPs://", "ftp://"])
                .as_bytes()
                .to_vec(),
        );
        out.push(rng.str(LITERAL_HOSTS).as_bytes().to_vec());
        if rng.chance(20) {
            out.push(
                rng.str(&[".", "-", "x", "0", "\u{AD}", "。", "]", "é"])
                    .as_bytes()
                    .to_vec(),
            );
        }
        if rng.chance(30) {
            out.push(b":".to_vec());
            out.push(rng.str(NUMBERS).as_bytes().to_vec());
        }
        if rng.chance(50) {
            out.push(rng.str(PART_STARTS).as_bytes().to_vec());
            for _ in 0..rng.below(6) {
                out.push(self.path_token(rng));
            }
        }
    }

    /// A public suffix (or a near miss) as a host, maybe after a label, a scheme or `@`,
    /// maybe with a trailing dot, a port and a path.
    fn suffix_like(&self, rng: &mut Rng, out: &mut Vec<Vec<u8>>) {
        out.push(rng.str(SPACE).as_bytes().to_vec());
        match rng.below(6) {
            0 => out.push(rng.str(SCHEMES).as_bytes().to_vec()),
            1 => out.push(b"x@".to_vec()),
            _ => {}
        }
        if rng.chance(25) {
            out.push(self.label(rng));
            out.push(rng.str(DOTS).as_bytes().to_vec());
        }
        out.push(rng.str(PUBLIC_SUFFIXES).as_bytes().to_vec());
        if rng.chance(15) {
            out.push(rng.str(DOTS).as_bytes().to_vec());
        }
        if rng.chance(15) {
            out.push(b":".to_vec());
            out.push(rng.str(NUMBERS).as_bytes().to_vec());
        }
        if rng.chance(40) {
            out.push(rng.str(PART_STARTS).as_bytes().to_vec());
            for _ in 0..rng.below(6) {
                out.push(self.path_token(rng));
            }
        }
    }

    /// A host-like run: labels, dots and a TLD, maybe with a scheme, port and path.
    fn link_like(&self, rng: &mut Rng, out: &mut Vec<Vec<u8>>) {
        if rng.chance(8) {
            return self.literal_like(rng, out);
        }
        if rng.chance(8) {
            return self.suffix_like(rng, out);
        }
        if rng.chance(50) {
            out.push(rng.str(SPACE).as_bytes().to_vec());
        }
        if rng.chance(30) {
            out.push(rng.str(SCHEMES).as_bytes().to_vec());
        }
        if rng.chance(20) {
            out.push(self.label(rng));
            if rng.chance(40) {
                // A local part that ends in a TLD (`xiao.li@`), maybe with a trailing dot.
                out.push(rng.str(DOTS).as_bytes().to_vec());
                out.push(self.tld(rng));
                if rng.chance(10) {
                    out.push(b".".to_vec());
                }
            }
            out.push(b"@".to_vec());
        }
        for _ in 0..1 + rng.below(3) {
            // Ignored code points before, inside and after a label.
            if rng.chance(8) {
                out.push(rng.str(IGNORED).as_bytes().to_vec());
            }
            let label = self.label(rng);
            if rng.chance(10) {
                let cut = (0..=label.len())
                    .filter(|&i| std::str::from_utf8(&label[..i]).is_ok())
                    .nth(rng.below(label.len() + 1))
                    .unwrap_or(0);
                out.push(label[..cut].to_vec());
                out.push(rng.str(IGNORED).as_bytes().to_vec());
                out.push(label[cut..].to_vec());
            } else {
                out.push(label);
            }
            if rng.chance(8) {
                out.push(rng.str(IGNORED).as_bytes().to_vec());
            }
            let dot = if rng.chance(70) { "." } else { rng.str(DOTS) };
            out.push(dot.as_bytes().to_vec());
        }
        if rng.chance(5) {
            out.push(rng.str(IGNORED).as_bytes().to_vec());
        }
        let tld = self.tld(rng);
        if rng.chance(8) {
            // Ignored code points anywhere in the TLD, its edges included.
            let cut = (0..=tld.len())
                .filter(|&i| std::str::from_utf8(&tld[..i]).is_ok())
                .nth(rng.below(tld.len() + 1))
                .unwrap_or(0);
            out.push(tld[..cut].to_vec());
            out.push(rng.str(IGNORED).as_bytes().to_vec());
            out.push(tld[cut..].to_vec());
        } else {
            out.push(tld);
        }
        if rng.chance(8) {
            out.push(rng.str(IGNORED).as_bytes().to_vec());
        }
        if rng.chance(15) {
            out.push(rng.str(DOTS).as_bytes().to_vec());
            if rng.chance(8) {
                out.push(rng.str(IGNORED).as_bytes().to_vec());
            }
        }
        if rng.chance(15) {
            out.push(b":".to_vec());
            out.push(rng.str(NUMBERS).as_bytes().to_vec());
        }
        if rng.chance(50) {
            out.push(rng.str(PART_STARTS).as_bytes().to_vec());
            for _ in 0..rng.below(10) {
                out.push(self.path_token(rng));
            }
        }
    }

    /// What tends to follow a host: URL syntax, words, brackets and Soft characters,
    /// rarely white space or invalid bytes; now and then a run near the bracket stack limit.
    fn path_token(&self, rng: &mut Rng) -> Vec<u8> {
        if rng.chance(1) {
            let bracket = rng.str(&["(", ")", "[", "]", "「", "」"]);
            return bracket.repeat(120 + rng.below(10)).into_bytes();
        }
        self.draw(rng, PATH_MIX)
    }

    fn token(&self, rng: &mut Rng) -> Vec<u8> {
        self.draw(rng, TEXT_MIX)
    }

    /// A token from one of the pools, chosen with the weights of `mix`.
    fn draw(&self, rng: &mut Rng, mix: &[(Pool, usize)]) -> Vec<u8> {
        let mut roll = rng.below(mix.iter().map(|&(_, w)| w).sum());
        let pool = mix
            .iter()
            .find(|&&(_, w)| {
                let hit = roll < w;
                roll = roll.saturating_sub(w);
                hit
            })
            .map(|&(pool, _)| pool)
            .expect("the weights cover the roll");
        let s = match pool {
            Pool::Words => rng.str(WORDS),
            Pool::Scripts => rng.str(SCRIPTS),
            Pool::Dots => rng.str(DOTS),
            Pool::Tld => return self.tld(rng),
            Pool::Schemes => rng.str(SCHEMES),
            Pool::At => "@",
            Pool::Colon => ":",
            Pool::Numbers => rng.str(NUMBERS),
            Pool::Brackets => rng.str(BRACKETS),
            Pool::Soft => rng.str(SOFT),
            Pool::Syntax => rng.str(SYNTAX),
            Pool::Space => rng.str(SPACE),
            Pool::Hyphens => rng.str(HYPHENS),
            Pool::Ignored => rng.str(IGNORED),
            Pool::Invalid => return rng.pick(INVALID).to_vec(),
        };
        s.as_bytes().to_vec()
    }

    /// The tokens of one case.
    fn case(&self, seed: u64) -> Vec<Vec<u8>> {
        let mut rng = Rng::new(seed);
        let mut tokens = Vec::new();
        let target = 1 + rng.below(40);
        while tokens.len() < target {
            match rng.below(10) {
                0..=3 => self.link_like(&mut rng, &mut tokens),
                4 if !tokens.is_empty() => {
                    // Repeat a recent stretch: runs of the same shape stress the memoised
                    // host walk and the floor.
                    let from = tokens.len() - 1 - rng.below(tokens.len().min(6));
                    let stretch: Vec<Vec<u8>> = tokens[from..].to_vec();
                    for _ in 0..1 + rng.below(4) {
                        tokens.extend(stretch.iter().cloned());
                    }
                }
                _ => tokens.push(self.token(&mut rng)),
            }
        }
        tokens
    }
}

/// The text with invalid bytes as `\xNN` and everything else as in a Rust string literal.
fn escape(text: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in text.utf8_chunks() {
        for c in chunk.valid().chars() {
            out.extend(c.escape_debug());
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out.push('"');
    out
}

fn show(text: &[u8], links: &[Link]) -> String {
    let items: Vec<String> = links
        .iter()
        .map(|l| {
            format!(
                "{}..{} {:?}{} {}",
                l.start(),
                l.end(),
                l.kind(),
                if l.has_scheme() { " (scheme)" } else { "" },
                escape(&text[l.range()])
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

struct Policies {
    named: Vec<(&'static str, TldPolicy, LinkFinder)>,
}

impl Policies {
    fn new() -> Policies {
        let list = TldSet::from_list(["com", "co", "uk", "invalid", "XN--P1AI", "香港", "ευ"])
            .expect("valid list");
        let named = [
            ("Iana", TldPolicy::Iana),
            ("List", TldPolicy::List(Arc::new(list))),
            ("Syntactic", TldPolicy::Syntactic),
        ]
        .into_iter()
        .map(|(name, policy)| {
            let finder = LinkFinder::builder()
                .tld_policy(policy.clone())
                .max_link_len(None)
                .build();
            (name, policy, finder)
        })
        .collect();
        Policies { named }
    }

    /// The first disagreement on `text`, described.
    fn mismatch(&self, text: &[u8]) -> Option<String> {
        for (name, policy, finder) in &self.named {
            let fast: Vec<Link> = finder.links_bytes(text).collect();
            let slow = oracle::find_links(text, policy);
            if fast != slow {
                return Some(format!(
                    "policy {name}: finder and oracle differ\n  finder: {}\n  oracle: {}",
                    show(text, &fast),
                    show(text, &slow)
                ));
            }
            // A length limit only drops the longer links; everything else is unchanged.
            let limited = LinkFinder::builder()
                .tld_policy(policy.clone())
                .max_link_len(Some(12))
                .build();
            let limited: Vec<Link> = limited.links_bytes(text).collect();
            let expected: Vec<Link> = slow
                .iter()
                .copied()
                .filter(|l| l.end() - l.start() <= 12)
                .collect();
            if limited != expected {
                return Some(format!(
                    "policy {name}: max_link_len(12) is not the oracle's links of at most 12 bytes\n  finder: {}\n  oracle: {}",
                    show(text, &limited),
                    show(text, &expected)
                ));
            }
            // Counting: one link at a time through the rule, and the scanner's own loop
            // without it, each the number of links it reports.
            let count = finder.links_bytes(text).count();
            let every = LinkFinder::builder()
                .tld_policy(policy.clone())
                .max_link_len(None)
                .public_suffix_hosts(true)
                .build();
            let every_links = every.links_bytes(text).collect::<Vec<Link>>();
            let every_count = every.links_bytes(text).count();
            if count != fast.len() || every_count != every_links.len() {
                return Some(format!(
                    "policy {name}: counts {count} and {every_count} (public-suffix hosts) for {} and {} links",
                    fast.len(),
                    every_links.len()
                ));
            }
            if let Ok(s) = std::str::from_utf8(text) {
                let from_str: Vec<Link> = finder.links(s).map(Link::from).collect();
                if from_str != fast {
                    return Some(format!(
                        "policy {name}: links(&str) and links_bytes differ\n  links:       {}\n  links_bytes: {}",
                        show(text, &from_str),
                        show(text, &fast)
                    ));
                }
            }
            let mut at = 0;
            for link in &fast {
                if link.start() < at || link.start() >= link.end() || link.end() > text.len() {
                    return Some(format!(
                        "policy {name}: links out of order, empty or overlapping: {}",
                        show(text, &fast)
                    ));
                }
                at = link.end();
            }
        }
        None
    }
}

/// Drops tokens while the text still fails, to print a small failing input.
fn shrink(mut tokens: Vec<Vec<u8>>, fails: impl Fn(&[u8]) -> bool) -> Vec<u8> {
    let mut changed = true;
    while changed {
        changed = false;
        let mut i = 0;
        while i < tokens.len() {
            let mut fewer = tokens.clone();
            fewer.remove(i);
            if fails(&fewer.concat()) {
                tokens = fewer;
                changed = true;
            } else {
                i += 1;
            }
        }
    }
    tokens.concat()
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => {
            let v = v.trim();
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{name}={v:?} is not a number"))
        }
        Err(_) => default,
    }
}

#[test]
fn finder_equals_oracle_on_random_texts() {
    let seed = env_u64("LINKSCAN_DIFF_SEED", DEFAULT_SEED);
    let cases = env_u64("LINKSCAN_DIFF_CASES", DEFAULT_CASES);
    let alphabet = Alphabet::new();
    let policies = Policies::new();
    let (mut links, mut emails, mut invalid) = (0usize, 0usize, 0usize);
    for case in 0..cases {
        let case_seed = seed.wrapping_add(case);
        let tokens = alphabet.case(case_seed);
        let text = tokens.concat();
        if let Some(report) = policies.mismatch(&text) {
            let small = shrink(tokens, |t| policies.mismatch(t).is_some());
            panic!(
                "case {case} of seed {seed:#x} (rerun alone with LINKSCAN_DIFF_SEED={case_seed:#x} \
                 LINKSCAN_DIFF_CASES=1)\ntext:   {}\n{report}\nshrunk: {}\n{}",
                escape(&text),
                escape(&small),
                policies.mismatch(&small).unwrap_or_default()
            );
        }
        let found: Vec<Link> = LinkFinder::new().links_bytes(&text).collect();
        links += found.len();
        emails += found.iter().filter(|l| l.kind() == LinkKind::Email).count();
        invalid += usize::from(std::str::from_utf8(&text).is_err());
    }
    eprintln!("{cases} cases: {links} links ({emails} emails), {invalid} texts with invalid UTF-8");
    // The generator must keep producing texts worth comparing.
    if cases >= 1000 {
        assert!(
            links as u64 > cases / 2,
            "only {links} links in {cases} cases"
        );
        assert!(
            emails as u64 > cases / 50,
            "only {emails} emails in {cases} cases"
        );
        assert!(
            invalid as u64 > cases / 10,
            "only {invalid} invalid texts in {cases} cases"
        );
    }
}

/// Runs shorter than the shortest TLD of the policy are rejected before the lookup; a
/// list with a one-letter TLD still finds links ending in it.
#[test]
fn shortest_tld_of_a_list_counts() {
    let texts = ["a.x b.ab c.xyz d.x.ab e.中 f.αβ", "x.a.x", "a.x~ q.ab~"];
    for (entries, want) in [
        (
            vec!["x", "ab"],
            vec!["a.x", "b.ab", "d.x.ab", "x.a.x", "a.x", "q.ab"],
        ),
        (vec!["ab", "xyz"], vec!["b.ab", "c.xyz", "d.x.ab", "q.ab"]),
        (vec!["中", "αβ"], vec!["e.中", "f.αβ"]),
    ] {
        let policy = TldPolicy::List(Arc::new(TldSet::from_list(&entries).expect("valid list")));
        let finder = LinkFinder::builder().tld_policy(policy.clone()).build();
        let mut found = Vec::new();
        for text in texts {
            let links: Vec<Link> = finder.links(text).map(Link::from).collect();
            assert_eq!(
                links,
                oracle::find_links(text.as_bytes(), &policy),
                "{entries:?} {text}"
            );
            found.extend(links.iter().map(|l| &text[l.start()..l.end()]));
        }
        assert_eq!(found, want, "{entries:?}");
    }
}

/// A run after a `.` that starts with a digit is rejected before its lookup, and a `。`
/// before a character that starts no TLD is dropped by the candidate search, by what the
/// scanner knows of the list: a list with such TLDs still finds the links that end in
/// them, and the IANA list finds none.
#[test]
fn candidates_dropped_for_the_list_are_kept_for_another() {
    let text = "a.1ab b.22 c。这个 d.这个 e。1ab f。ab 。这个 g.这";
    for (entries, want) in [
        (
            Some(vec!["1ab", "这个"]),
            vec!["a.1ab", "c。这个", "d.这个", "e。1ab"],
        ),
        (Some(vec!["ab"]), vec!["f。ab"]),
        (None, vec![]),
    ] {
        let policy = match &entries {
            Some(entries) => {
                TldPolicy::List(Arc::new(TldSet::from_list(entries).expect("valid list")))
            }
            None => TldPolicy::Iana,
        };
        let finder = LinkFinder::builder().tld_policy(policy.clone()).build();
        let links: Vec<Link> = finder.links(text).map(Link::from).collect();
        assert_eq!(
            links,
            oracle::find_links(text.as_bytes(), &policy),
            "{entries:?}"
        );
        let found: Vec<&str> = links.iter().map(|l| &text[l.start()..l.end()]).collect();
        assert_eq!(found, want, "{entries:?}");
    }
}

/// The scanner matches the TLD it found last with one compare while it is all letters:
/// in any case, and only as a whole run before a byte that ends it; a TLD with a digit or
/// a hyphen goes through the whole test every time (a control character OR 0x20 is a
/// digit, and `\r` OR 0x20 is `-`).
#[test]
fn the_tld_found_last_is_matched_whole() {
    let units = [
        "a.com ",
        "b.COM\n",
        "c.Com:8",
        "d.coma ",
        "e.com- ",
        "f.com.",
        "g.com1 ",
        "h.co ",
        "i.comé ",
        "j.com@k.com ",
        "l.com/p ",
        "m.a-b ",
        "n.a\rb ",
        "o.A-B?q ",
        "p.c1 ",
        "q.c\u{11} ",
        "r.C1\t",
        "s.org ",
        "t.ORG\t",
        "u.or ",
    ];
    let custom = TldPolicy::List(Arc::new(
        TldSet::from_list(["com", "org", "a-b", "c1"]).expect("valid list"),
    ));
    let mut rng = Rng::new(0x001A_577D);
    for policy in [TldPolicy::Iana, custom] {
        let finder = LinkFinder::builder().tld_policy(policy.clone()).build();
        let mut links_seen = 0;
        for round in 0..300 {
            let text: String = (0..1 + rng.below(40))
                .map(|_| units[rng.below(units.len())])
                .collect();
            let links: Vec<Link> = finder.links(&text).map(Link::from).collect();
            assert_eq!(
                links,
                oracle::find_links(text.as_bytes(), &policy),
                "round {round}: {text:?}"
            );
            links_seen += links.len();
        }
        assert!(links_seen > 1000, "{links_seen}");
    }
}
