//! The readable policy (`Policy::Readable`), rule by rule: what each rule removes or
//! re-bounds, and what it keeps; that the conformant default is unchanged; and that every
//! entry point (`links`, `links_bytes`, `par_links`, `scan_reader`, `Linkifier`, mail,
//! the CLI) reports the same links under it.

use crate::common;

use linkscan::html::Linkifier;
use linkscan::{
    oracle, Link, LinkFinder, Policy, TldPolicy, FILE_EXTENSION_TLDS, METHOD_NAME_TLDS,
};

fn readable() -> LinkFinder {
    LinkFinder::builder().policy(Policy::Readable).build()
}

/// The links of `text` under the readable policy, checked against the `&[u8]` entry point.
fn found(text: &str) -> Vec<&str> {
    let finder = readable();
    let links: Vec<_> = finder.links(text).collect();
    assert_eq!(
        links.iter().map(|m| m.link()).collect::<Vec<_>>(),
        finder.links_bytes(text.as_bytes()).collect::<Vec<_>>(),
        "links and links_bytes differ on {text:?}"
    );
    links.iter().map(|l| l.as_str()).collect()
}

/// The links of `text` under the conformant default.
fn conformant(text: &str) -> Vec<&str> {
    LinkFinder::new().links(text).map(|l| l.as_str()).collect()
}

#[test]
fn conformant_is_the_default_and_equals_detection() {
    assert_eq!(LinkFinder::new().policy(), Policy::Conformant);
    assert_eq!(Policy::default(), Policy::Conformant);
    let text = "NEWS.md Proc.new tm.tm_year 冷水。AI `a.com/x`y";
    let fast: Vec<_> = LinkFinder::new().links(text).map(Link::from).collect();
    assert_eq!(fast, oracle::find_links(text.as_bytes(), &TldPolicy::Iana));
    assert_eq!(fast.len(), 5);
}

#[test]
fn real_links_stay() {
    for text in [
        "rubygems.org",
        "bit.ly",
        "character.ai",
        "bücher.de",
        "example.com/x.py",
        "doc.new",
        "think.ing",
        "www.example.so",
        "例子.com",
        "пример.рф",
        "x@example.com",
        "https://example.com/NEWS.md",
    ] {
        assert_eq!(found(text), [text], "{text}");
        assert_eq!(found(&format!("see {text}, and")), [text], "{text}");
    }
}

// Rule `closing_backtick`.

#[test]
fn closing_backtick_ends_a_link_that_follows_a_backtick() {
    assert_eq!(
        conformant("`slack.com/about`，但是"),
        ["slack.com/about`，但是"]
    );
    assert_eq!(found("`slack.com/about`，但是"), ["slack.com/about"]);
    assert_eq!(found("`https://x.com/a.`b"), ["https://x.com/a"]);
    assert_eq!(found("`https://x.com/(a)`"), ["https://x.com/(a)"]);
    // Kept: no backtick before the link, or none inside it.
    assert_eq!(found("x.com/a`b`"), ["x.com/a`b`"]);
    assert_eq!(found("`example.com`"), ["example.com"]);
}

// Rule `escaped_angle_bracket`.

#[test]
fn escaped_angle_brackets_end_a_link() {
    let text = "* [&lt;URL:https://x.org/a.tar.gz&gt;][3] and &quot;https://x.org/b&quot;.";
    assert_eq!(
        conformant(text),
        ["https://x.org/a.tar.gz&gt", "https://x.org/b&quot"]
    );
    assert_eq!(found(text), ["https://x.org/a.tar.gz", "https://x.org/b"]);
    assert_eq!(found("&lt;x.org/a&gt;"), ["x.org/a"]);
    // Kept: the entity inside the path, no `;` after it, a host alone.
    assert_eq!(found("x.org/a&gt;b"), ["x.org/a&gt;b"]);
    assert_eq!(found("x.org/a&gt"), ["x.org/a&gt"]);
    assert_eq!(found("x.org/?q=&quot x"), ["x.org/?q=&quot"]);
}

// Rule `empty_query_or_fragment`.

/// A question about a link: UTS #58 keeps the `?` (the query's initiator, with nothing
/// after it), the readable policy leaves it to the sentence; the same for a bare `#`.
#[test]
fn a_bare_question_mark_or_hash_ends_the_sentence_not_the_link() {
    let text = "Have you tried example.com? It works.";
    assert_eq!(conformant(text), ["example.com?"]);
    assert_eq!(found(text), ["example.com"]);
    let link = readable().links(text).next().unwrap();
    assert_eq!((link.start(), link.end()), (15, 26));
    assert_eq!(&text[link.range()], "example.com");
    for (text, detected, read) in [
        ("example.com?", "example.com?", "example.com"),
        ("example.com#", "example.com#", "example.com"),
        ("see x.com/? now", "x.com/?", "x.com/"),
        ("see x.com/a#\n", "x.com/a#", "x.com/a"),
        (
            "is it https://example.com/page?",
            "https://example.com/page?",
            "https://example.com/page",
        ),
        ("x.com:8080?", "x.com:8080?", "x.com:8080"),
        // Closing punctuation after it: the `?` is still the sentence's.
        ("(did you mean example.com?)", "example.com?", "example.com"),
        (
            "\u{201C}example.com?\u{201D}",
            "example.com?",
            "example.com",
        ),
        // Both initiators bare: both go.
        ("example.com?# x", "example.com?#", "example.com"),
        // A Soft character before the cut is dropped as termination drops it.
        ("x.com/a.? x", "x.com/a.?", "x.com/a"),
    ] {
        assert_eq!(conformant(text), [detected], "{text:?}");
        assert_eq!(found(text), [read], "{text:?}");
    }
    // Repeated marks: the first `?` starts the query and the others are Soft, so
    // detection keeps the first alone; a `?` inside a fragment is its content.
    for (text, detected) in [
        ("example.com?? x", "example.com?"),
        ("example.com?! x", "example.com?"),
        ("example.com#? x", "example.com#"),
        ("example.com?.", "example.com?"),
    ] {
        assert_eq!(conformant(text), [detected], "{text:?}");
        assert_eq!(found(text), ["example.com"], "{text:?}");
    }
    // Kept: a query or fragment with content, a `?` or `#` inside one.
    for text in [
        "example.com/?q=1",
        "x.com/#top",
        "x.com/?q=",
        "x.com?a",
        "x.com/#a?b",
        "https://example.com/?q=1",
    ] {
        assert_eq!(conformant(text), [text], "{text}");
        assert_eq!(found(text), [text], "{text}");
    }
    // Emails are not affected; a file name that only a `?` kept is a file name again.
    assert_eq!(found("mail me@example.com? ok"), ["me@example.com"]);
    assert_eq!(found("did you read NEWS.md?"), Vec::<&str>::new());
}

/// Generated: links followed by runs of `?`, `#` and sentence punctuation. The readable
/// link is the conformant one or a prefix of it, never ends with a `?` or `#` that starts
/// an empty query or fragment, and differs from it only where the conformant one does.
#[test]
fn no_readable_link_ends_with_an_empty_query_or_fragment() {
    let mut rng = common::rng::Rng::new(63);
    let links = [
        "example.com",
        "https://example.com",
        "x.com/a",
        "x.com/?q=1",
        "x.com/#top",
        "x.com:8080",
        "x.com/a.b",
        "x.com/(a)",
        "me@example.com",
    ];
    let marks = ["?", "#", "!", ".", ")", ",", "?", "#"];
    for _ in 0..3000 {
        let mut text = format!("see {}", rng.pick(&links));
        for _ in 0..rng.below(4) {
            let mark = *rng.pick(&marks);
            text.push_str(mark);
        }
        text.push_str(if rng.below(2) == 0 { " now" } else { "" });
        let (readable, detected) = (found(&text), conformant(&text));
        assert_eq!(readable.len(), detected.len(), "{text:?}");
        for (read, det) in readable.iter().zip(&detected) {
            assert!(det.starts_with(read), "{text:?}: {read:?} of {det:?}");
            if read != det {
                assert!(det.ends_with(['?', '#']), "{text:?}: {det:?}");
            }
            let after_host = read.find(['/', '?', '#']).unwrap_or(read.len());
            let rest = &read[after_host..];
            assert!(
                !rest.ends_with('#') || rest.find('#') != Some(rest.len() - 1),
                "{text:?}"
            );
            assert!(
                !rest.ends_with('?') || rest.find(['?', '#']) != Some(rest.len() - 1),
                "{text:?}"
            );
        }
    }
}

// Rule `ideographic_full_stop`.

#[test]
fn ideographic_full_stop_starts_a_new_sentence() {
    assert_eq!(
        conformant("去年取消了。亚马逊（中国）"),
        ["去年取消了。亚马逊"]
    );
    assert_eq!(found("去年取消了。亚马逊（中国）"), Vec::<&str>::new());
    // `例え。みんな` reads as two sentences ("For example. Everyone."), whatever the TLD.
    assert_eq!(conformant("例え。みんな"), ["例え。みんな"]);
    assert_eq!(found("例え。みんな"), Vec::<&str>::new());
    assert_eq!(
        found("ウェブ。cache.ruby-lang.org は"),
        ["cache.ruby-lang.org"]
    );
    // A trailing 。 is no separator, and a scheme keeps the host whole.
    assert_eq!(found("例子.com。/路径"), ["例子.com。/路径"]);
    assert_eq!(found("http://例子。com"), ["http://例子。com"]);
}

// Rule `script_boundary`.

#[test]
fn script_boundary_moves_the_start_out_of_ideographic_text() {
    // Spec section 8's example.
    assert_eq!(
        conformant("ウェブサイトはexample.com です。"),
        ["ウェブサイトはexample.com"]
    );
    assert_eq!(found("ウェブサイトはexample.com です。"), ["example.com"]);
    // The sentences: nothing is left of the host but its TLD.
    for text in [
        "但是我想泼一点冷水。AI",
        "价格比较贵。Godaddy",
        "表示されるようになりました。Tab",
    ] {
        assert_eq!(conformant(text), [text]);
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    assert_eq!(found("ราคาexample.com"), ["example.com"]);
    // The local part of an email.
    assert_eq!(found("联系我abc@example.com"), ["abc@example.com"]);
    // Kept: hosts of one kind of script, dots aside.
    assert_eq!(found("见中国政府网.中国"), ["见中国政府网.中国"]);
    assert_eq!(found("ουτοπία.δπθ.gr"), ["ουτοπία.δπθ.gr"]);
    // The price the spec names: a mixed host loses its start.
    assert_eq!(found("最高のSONY製品.com"), ["製品.com"]);
}

/// A hyphen joins the two sides of a label: the readable policy never starts a host after
/// one (that would be another, maybe real, domain). Alike sides keep the host whole;
/// a change of script across the hyphen drops the URL.
#[test]
fn script_boundary_never_cuts_a_host_at_a_hyphen() {
    for host in [
        "中文-测试.中国",
        "ตัวอย่าง-ทดสอบ.ไทย",
        "ສາກົນ-ການຍອມຮັບ-ທົດລອງ.ລາວ",
        "テスト-サイト.jp",
    ] {
        assert_eq!(conformant(host), [host]);
        assert_eq!(found(host), [host], "{host}");
        let text = format!("见 {host} 。");
        assert_eq!(found(&text), [host], "{text}");
    }
    for text in ["例子-example.com", "ウェブサイトはexample-テスト.com"] {
        assert_eq!(conformant(text).len(), 1, "{text}");
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    // Generated: labels of one script class joined by hyphens, after words of the other
    // class or a space: no link ever starts right after a hyphen, and hosts of one class
    // are kept whole.
    let mut rng = common::rng::Rng::new(58);
    let ideographic = [
        "中", "文", "测", "试", "ท", "ด", "ส", "อ", "ບ", "ລ", "カ", "ナ",
    ];
    let latin = ["a", "b", "x", "y", "z"];
    for _ in 0..2000 {
        let class = rng.below(2) == 0;
        let letters: &[&str] = if class { &ideographic } else { &latin };
        let other: &[&str] = if class { &latin } else { &ideographic };
        let mut label = String::new();
        for part in 0..1 + rng.below(3) {
            if part > 0 {
                label.push('-');
            }
            for _ in 0..1 + rng.below(4) {
                let letter = *rng.pick(letters);
                label.push_str(letter);
            }
        }
        let tld = if class { "中国" } else { "com" };
        let host = format!("{label}.{tld}");
        let before = match rng.below(3) {
            0 => " ".to_string(),
            1 => rng.pick(other).to_string(),
            _ => format!("{}-", rng.pick(other)),
        };
        let text = format!("{before}{host} ");
        for link in readable().links(&text) {
            assert_ne!(
                text.as_bytes()[link.start() - 1],
                b'-',
                "{text:?} gives {:?}",
                link.as_str()
            );
            assert!(host.ends_with(link.as_str()), "{text:?}");
            if before == " " {
                assert_eq!(link.as_str(), host, "{text:?}");
            }
        }
    }
}

/// Rule `abbreviation`: `M.Sc.`, the spec's own example, is not linked by the readable
/// policy; hosts that only look alike are.
#[test]
fn abbreviations_are_not_links() {
    for text in ["M.Sc.", "an M.Sc. in", "B.Sc", "B.Com", "Ph.Sc."] {
        assert_eq!(conformant(text).len(), 1, "{text}");
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    for text in [
        "x.com",
        "T.CO",
        "X.org",
        "ab.Com.au",
        "Mr.Bean.com",
        "https://M.Sc/",
    ] {
        assert_eq!(found(text), [text], "{text}");
    }
}

// Rule `code_neighbour`.

#[test]
fn code_neighbours_reject_the_name() {
    for (text, name) in [
        ("Regexp.new('^a')", "Regexp.new"),
        ("printf(\"%d\", tm.tm_year)", "tm.tm"),
        ("act.sa_flags = 0", "act.sa"),
        ("see ld.so(8)", "ld.so"),
        ("x = a.to[1]", "a.to"),
        ("scripts/remove_COLOPHON.sh", "COLOPHON.sh"),
        ("include lib/build.mk", "build.mk"),
        ("inet(&mss.sa);", "mss.sa"),
        ("s->sm.sb = 1", "sm.sb"),
        ("REXML::Document.new", "Document.new"),
        ("echo $foo.io", "foo.io"),
        ("c:\\dir\\x.com", "x.com"),
        ("Thread.report_on_exception", "Thread.report"),
    ] {
        let detected = conformant(text);
        assert!(
            detected.iter().any(|l| l.ends_with(name)),
            "{text}: {detected:?}"
        );
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    // Kept: brackets, quotes and sentence punctuation around a domain, and a path.
    assert_eq!(
        found("(example.com) [example.com] \"example.com\"."),
        ["example.com", "example.com", "example.com"]
    );
    assert_eq!(found("lib/example.com/x"), ["example.com/x"]);
    assert_eq!(found("<kernel.org>"), ["kernel.org"]);
}

// Rule `file_name`.

#[test]
fn file_extension_tlds_are_file_names() {
    for text in [
        "NEWS.md",
        "README.MD",
        "libc.so",
        "helpers.py",
        "checkpatch.pl",
        "lint-man.mk",
        "man.7.man.in",
        "configure.ac",
        "ruby-1.8.7.zip",
        "lint-man.mk:88",
    ] {
        assert_eq!(conformant(text), [text]);
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    // Kept: with a scheme, with `www.`, with a path.
    assert_eq!(found("https://notion.so"), ["https://notion.so"]);
    assert_eq!(found("www.example.pl"), ["www.example.pl"]);
    assert_eq!(found("example.pl/x"), ["example.pl/x"]);
}

// Rule `method_name`.

#[test]
fn method_name_tlds_are_calls() {
    for text in [
        "IO.select",
        "File.read",
        "block.call",
        "a.lazy.map",
        "x.report",
        "Dir.open",
        "Proc.new",
        "Thread.new",
    ] {
        assert_eq!(conformant(text), [text]);
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    // Kept: `new` after a lower-case name, a TLD in capitals, `www.`, a path.
    assert_eq!(found("doc.new"), ["doc.new"]);
    assert_eq!(found("EXAMPLE.MAP"), ["EXAMPLE.MAP"]);
    assert_eq!(found("www.example.open"), ["www.example.open"]);
    assert_eq!(found("example.call/x"), ["example.call/x"]);
}

#[test]
fn the_word_lists_hold_iana_tlds_only() {
    for tld in FILE_EXTENSION_TLDS.iter().chain(&METHOD_NAME_TLDS) {
        assert!(
            linkscan::internals::TLDS.binary_search(tld).is_ok(),
            "{tld} is no IANA TLD: the rule could never apply"
        );
    }
}

#[test]
fn the_cjk_cases_of_the_host_rules_are_right_under_both_policies() {
    for (text, expected) in [
        ("上面，think.ing", "think.ing"),
        ("文档：doc.new", "doc.new"),
        ("（yifeng.ruan@gmail.com）", "yifeng.ruan@gmail.com"),
        ("TinyURL、t.co", "t.co"),
        ("www.straße.de", "www.straße.de"),
    ] {
        assert_eq!(conformant(text), [expected], "{text}");
        assert_eq!(found(text), [expected], "{text}");
    }
}

/// A text with something for every rule, many times over, with spaces and line breaks.
fn mixed_text() -> String {
    let line = "See rubygems.org and NEWS.md, Proc.new(1) tm.tm_year https://x.org/a `a.com/b`c \
                ウェブサイトはexample.com 冷水。AI 联系我abc@example.com bit.ly/x?y=1\n";
    line.repeat(3000)
}

#[test]
fn every_entry_point_gets_the_policy() {
    let text = mixed_text();
    let finder = readable();
    let whole: Vec<_> = finder.links(&text).map(Link::from).collect();
    assert_eq!(whole.len(), 3000 * 6);
    assert_eq!(finder.par_links(text.as_bytes()), whole);
    let mut streamed = Vec::new();
    finder
        .scan_reader(text.as_bytes(), 4096, |offset, _piece, links| {
            streamed.extend(
                links
                    .iter()
                    .map(|l| (offset as usize + l.start(), l.kind())),
            );
            Ok(())
        })
        .expect("reading from memory");
    let expected: Vec<_> = whole.iter().map(|l| (l.start(), l.kind())).collect();
    assert_eq!(streamed, expected);

    let html = Linkifier::new()
        .finder(readable())
        .linkify("NEWS.md at rubygems.org");
    assert_eq!(
        html,
        "NEWS.md at <bdi dir=\"ltr\"><a href=\"https://rubygems.org\">rubygems.org</a></bdi>"
    );
}

/// The marked links of one snippet of `corpus/labelled/sample.txt`: the text without the
/// marks, and the byte ranges between them.
fn parse_marked(marked: &str) -> (String, Vec<(usize, usize)>) {
    let mut plain = String::new();
    let mut gold = Vec::new();
    let mut start = 0;
    for c in marked.chars() {
        match c {
            '⸠' => start = plain.len(),
            '⸡' => gold.push((start, plain.len())),
            _ => plain.push(c),
        }
    }
    (plain, gold)
}

/// The targets of the readable policy on the hand-labelled sample (the same figures as
/// `corpus/labelled/score.py`, through the library): it drops at least 80 % of the
/// scheme-less non-links that detection reports, and keeps at least 98 % of the real links
/// that detection bounds right, with the same bounds.
#[test]
fn labelled_sample_meets_the_targets() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/labelled/sample.txt");
    let sample = std::fs::read_to_string(path).expect("corpus/labelled/sample.txt");
    let lines: Vec<&str> = sample.lines().collect();
    assert!(
        lines.len() >= 600 && lines.len() % 2 == 0,
        "{} lines",
        lines.len()
    );
    let readable = readable();
    let (mut not_links, mut dropped, mut right, mut kept, mut marked) = (0, 0, 0, 0, 0);
    for pair in lines.chunks(2) {
        assert!(pair[0].starts_with("# "), "{:?}", pair[0]);
        let (text, gold) = parse_marked(pair[1]);
        marked += gold.len();
        let found: Vec<(usize, usize)> = readable
            .links(&text)
            .map(|l| (l.start(), l.end()))
            .collect();
        for link in LinkFinder::new().links(&text) {
            let span = (link.start(), link.end());
            let overlaps =
                |spans: &[(usize, usize)]| spans.iter().any(|&(s, e)| s < span.1 && span.0 < e);
            if gold.contains(&span) {
                right += 1;
                kept += usize::from(found.contains(&span));
            } else if !overlaps(&gold)
                && link.kind() == linkscan::LinkKind::Url
                && !link.has_scheme()
            {
                not_links += 1;
                dropped += usize::from(!overlaps(&found));
            }
        }
    }
    assert!(
        marked >= 280 && not_links >= 100,
        "{marked} marked, {not_links} non-links"
    );
    assert!(
        dropped * 100 >= not_links * 80,
        "dropped {dropped} of {not_links}"
    );
    assert!(kept * 100 >= right * 98, "kept {kept} of {right}");
}
