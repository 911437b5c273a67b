use crate::common::{self};
use linkscan::{LinkFinder, Policy};

/// Rule `invisible_cut`: an email whose local part starts right after an invisible
/// character is refused, wherever the character is in the generated local parts; the
/// conformant policy still reports it, and the `invisible` check flags it.
#[test]
fn emails_cut_at_an_invisible_character_are_refused() {
    for c in ['\u{00AD}', '\u{200B}', '\u{2060}', '\u{FEFF}', '\u{180E}'] {
        let local = "lei.wang";
        for at in 1..local.len() {
            let text = format!("mail {}{c}{}@example.cn now", &local[..at], &local[at..]);
            let conformant = conformant(&text);
            if conformant.iter().any(|l| l.contains('@')) {
                let emails: Vec<&str> = found(&text)
                    .into_iter()
                    .filter(|l| l.contains('@'))
                    .collect();
                assert!(emails.is_empty(), "{c:?} at {at}: {emails:?}");
            }
        }
    }
    // Joiners, which words need, do not cut.
    assert_eq!(found("a\u{200C}b@example.com"), ["a\u{200C}b@example.com"]);
    let out = common::linkscan(
        &["find", "-o", "--policy", "readable", "-"],
        "li\u{AD}wang@example.cn ok@example.cn".as_bytes(),
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok@example.cn\n");
}

#[test]
fn cli_policy_flag() {
    let input = "NEWS.md rubygems.org 冷水。AI\n";
    let out = common::linkscan(
        &["find", "--format", "tsv", "--policy", "readable", "-"],
        input.as_bytes(),
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let texts: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split('\t').nth(4))
        .collect();
    assert_eq!(texts, ["rubygems.org"]);

    let out = common::linkscan(&["find", "--count", "-"], input.as_bytes());
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "3");

    let out = common::linkscan(
        &["find", "--json", "--policy", "lenient", "-"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("readable"));
}

/// Rule `empty_query_or_fragment` through the command line: `find --policy readable` and
/// `linkify` (readable by default) leave a question's `?` to the sentence; `find` keeps
/// the standard's bounds.
#[test]
fn cli_readable_leaves_a_bare_question_mark_to_the_sentence() {
    let input = "Have you tried example.com? It works. See x.com/?q=1 and x.com/#top.\n";
    let out = common::linkscan(
        &["find", "-o", "--policy", "readable", "-"],
        input.as_bytes(),
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "example.com\nx.com/?q=1\nx.com/#top\n"
    );
    let out = common::linkscan(&["find", "-o", "-"], input.as_bytes());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "example.com?\nx.com/?q=1\nx.com/#top\n"
    );
    let out = common::linkscan(&["linkify", "-"], input.as_bytes());
    let html = String::from_utf8_lossy(&out.stdout);
    assert!(
        html.contains("<a href=\"https://example.com\">example.com</a></bdi>? It works"),
        "{html}"
    );
}

/// Spec section 1.4: a host that is itself a public suffix is not a registrable domain and
/// is not linked; one label more is. The conformant finder drops hosts of the Public Suffix
/// List's ICANN section (the official file links `blogspot.com`, a private entry), with or
/// without a scheme; the readable policy drops those of its private section too when no
/// scheme was written. Emails keep their domain: `x@co.uk` stays an email under both.
/// Generated from suffixes of several kinds (country second levels, wildcards, private
/// suffixes, IDN), alone and with a label, as URLs and as email domains.
#[test]
fn public_suffixes_alone_are_not_links() {
    let suffixes = [
        ("co.uk", true),
        ("com.au", true),
        ("ac.jp", true),
        ("公司.cn", true),
        ("xn--55qx5d.cn", true),
        ("x.ck", true),
        ("github.io", false),
        ("blogspot.com", false),
        ("s3.amazonaws.com", false),
    ];
    let finder = LinkFinder::builder().policy(Policy::Readable).build();
    for (suffix, icann) in suffixes {
        // (text, links under the readable policy, under the conformant one)
        for (text, readable, conformant_links) in [
            (format!("see {suffix} now"), 0, usize::from(!icann)),
            (format!("see {suffix}/path now"), 0, usize::from(!icann)),
            (format!("see user.{suffix} now"), 1, 1),
            (format!("see user.{suffix}/path now"), 1, 1),
            (format!("write to x@{suffix} now"), 1, 1),
            (format!("write to x@mail.{suffix} now"), 1, 1),
            (
                format!("see https://{suffix}/ now"),
                usize::from(!icann),
                usize::from(!icann),
            ),
        ] {
            let found: Vec<&str> = finder.links(&text).map(|l| l.as_str()).collect();
            assert_eq!(found.len(), readable, "{text}: {found:?}");
            assert_eq!(conformant(&text).len(), conformant_links, "{text}");
        }
    }
    // A start that a readable rule moved is looked up again.
    let moved = "ウェブサイトはco.uk です、ウェブサイトはbbc.co.uk です";
    let found: Vec<&str> = finder.links(moved).map(|l| l.as_str()).collect();
    assert_eq!(found, ["bbc.co.uk"]);
    // Through the command line: linkify (readable by default) and find --policy readable.
    let text = "see co.uk and github.io, but bbc.co.uk and user.github.io";
    let out = common::linkscan(&["find", "-o", "--policy", "readable"], text.as_bytes());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "bbc.co.uk\nuser.github.io\n"
    );
    let out = common::linkscan(&["find", "-o"], text.as_bytes());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "github.io\nbbc.co.uk\nuser.github.io\n"
    );
    let out = common::linkscan(&["linkify"], text.as_bytes());
    assert_eq!(
        String::from_utf8(out.stdout)
            .unwrap()
            .matches("<a href=")
            .count(),
        2
    );
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

fn readable() -> LinkFinder {
    LinkFinder::builder().policy(Policy::Readable).build()
}
