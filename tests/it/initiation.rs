//! One test per rule of `initiation.md` (host, TLD, port, trailing dot, labels, email,
//! scheme) and of spec section 3.5.1 (termination), through the public finder.
//!
//! Every text is also run through the spec-literal oracle (`linkscan::oracle`), and, when
//! it is valid UTF-8, through both the `&str` and the `&[u8]` entry points: all of them
//! must report exactly the same links (offsets, kind, scheme) before the expected strings
//! are compared.

use std::sync::Arc;

use linkscan::{oracle, Link, LinkFinder, LinkKind, TldPolicy, TldSet};

/// The links of `text` under `policy`, after checking that the finder (both entry points)
/// and the oracle agree on them.
fn scan(policy: &TldPolicy, text: &[u8]) -> Vec<Link> {
    let finder = LinkFinder::builder()
        .tld_policy(policy.clone())
        .max_link_len(None)
        .build();
    let fast: Vec<Link> = finder.links_bytes(text).collect();
    let slow = oracle::find_links(text, policy);
    assert_eq!(
        fast,
        slow,
        "finder (left) and oracle (right) differ on {:?} under {policy:?}",
        text.escape_ascii().to_string()
    );
    if let Ok(s) = std::str::from_utf8(text) {
        let from_str: Vec<Link> = finder.links(s).map(Link::from).collect();
        assert_eq!(
            from_str, fast,
            "links(&str) and links_bytes differ on {s:?}"
        );
    }
    fast
}

/// The link texts of `text` under `policy`.
fn found_with<'t>(policy: &TldPolicy, text: &'t str) -> Vec<&'t str> {
    scan(policy, text.as_bytes())
        .iter()
        .map(|l| l.as_str(text))
        .collect()
}

/// The link texts of `text` with the IANA list.
fn found(text: &str) -> Vec<&str> {
    found_with(&TldPolicy::Iana, text)
}

/// The link texts with their kind and whether a scheme was written.
fn detailed(text: &str) -> Vec<(&str, LinkKind, bool)> {
    scan(&TldPolicy::Iana, text.as_bytes())
        .iter()
        .map(|l| (l.as_str(text), l.kind(), l.has_scheme()))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Step 1: the candidate TLD is the maximal run of HostCharNoDot after a Dot.

#[test]
fn tld_is_the_maximal_run_after_the_dot() {
    assert_eq!(found("see example.com now"), ["example.com"]);
    assert_eq!(found("see example.comx now"), Vec::<&str>::new());
    assert_eq!(found("see example.com-x now"), Vec::<&str>::new());
    assert_eq!(found("see example.community now"), ["example.community"]);
    assert_eq!(found("see example.c now"), Vec::<&str>::new());
    assert_eq!(found("a dot. then com"), Vec::<&str>::new());
}

// Step 2: a dot after the TLD is taken unless another label follows; dropped at the end.

#[test]
fn inner_labels_are_not_tlds() {
    assert_eq!(found("see example.co.uk now"), ["example.co.uk"]);
    assert_eq!(found("see a.com.b.com now"), ["a.com.b.com"]);
}

#[test]
fn trailing_dot_dropped_before_space_and_at_end_kept_before_path() {
    assert_eq!(found("Visit example.com."), ["example.com"]);
    assert_eq!(found("Visit example.com. Then"), ["example.com"]);
    assert_eq!(
        found("See http://foo.example.com. on"),
        ["http://foo.example.com"]
    );
    assert_eq!(found("example.com./path"), ["example.com./path"]);
    assert_eq!(found("example.com.?q"), ["example.com.?q"]);
    assert_eq!(found("example.com.#top"), ["example.com.#top"]);
    assert_eq!(found("example.co.uk."), ["example.co.uk"]);
    assert_eq!(found("example.com.."), ["example.com"]);
}

// Step 3: the port.

#[test]
fn ports() {
    assert_eq!(found("at example.com:443 now"), ["example.com:443"]);
    assert_eq!(
        found("at example.com:443/path now"),
        ["example.com:443/path"]
    );
    assert_eq!(found("at example.com:65535 now"), ["example.com:65535"]);
    assert_eq!(found("at example.com:0 now"), ["example.com:0"]);
    assert_eq!(found("at example.com:00080 now"), ["example.com:00080"]);
    assert_eq!(
        found("at https://example.com:8080/a?b#c now"),
        ["https://example.com:8080/a?b#c"]
    );
}

#[test]
fn port_out_of_range_or_too_long_rejects_the_candidate() {
    assert_eq!(found("at example.com:65536 now"), Vec::<&str>::new());
    assert_eq!(found("at example.com:99999/x now"), Vec::<&str>::new());
    assert_eq!(found("at example.com:123456 now"), Vec::<&str>::new());
    assert_eq!(found("at example.com:000443 now"), Vec::<&str>::new());
    // A rejected candidate does not hide later links.
    assert_eq!(
        found("at example.com:65536 or example.org"),
        ["example.org"]
    );
}

#[test]
fn colon_without_digits_ends_before_the_colon() {
    assert_eq!(found("example.com: see"), ["example.com"]);
    assert_eq!(found("example.com:"), ["example.com"]);
    assert_eq!(found("example.com:x/y"), ["example.com"]);
    assert_eq!(found("example.com:/path"), ["example.com"]);
    assert_eq!(found("example.com.: see"), ["example.com"]);
}

// Step 4: the host start.

#[test]
fn host_walks_back_over_host_chars() {
    assert_eq!(found("See .fr on"), Vec::<&str>::new());
    assert_eq!(found("(example.com)"), ["example.com"]);
    assert_eq!(found("[пример.рф]"), ["пример.рф"]);
    assert_eq!(found("x,example.com"), ["example.com"]);
    assert_eq!(found("a-b.example.com"), ["a-b.example.com"]);
    // The fullwidth dot is a host character but does not start a TLD.
    assert_eq!(found("a．example.com"), ["a．example.com"]);
    assert_eq!(found("example．com"), Vec::<&str>::new());
}

// HostChar (initiation.md, 2026-11): IDNA valid and deviation without NV8/XV8, mapped
// only when the mapping holds no ASCII outside [a-z0-9.-].

#[test]
fn fullwidth_punctuation_mapped_to_ascii_punctuation_ends_a_host() {
    // `，` maps to ',' and `：` to ':': no longer part of the host before them.
    assert_eq!(found("上面，think.ing"), ["think.ing"]);
    assert_eq!(found("文档：doc.new"), ["doc.new"]);
    // `（` `）` map to '(' ')': the email inside them is found, the `）` no longer glued
    // to its TLD.
    assert_eq!(
        detailed("联系（yifeng.ruan@gmail.com）"),
        [("yifeng.ruan@gmail.com", LinkKind::Email, false)]
    );
    assert_eq!(found("见（example.com）。"), ["example.com"]);
    // `／` maps to '/': a host stops there (termination starts only at an ASCII '/').
    assert_eq!(found("路径／example.com"), ["example.com"]);
}

#[test]
fn characters_mapped_to_a_space_end_a_host() {
    for space in ['\u{00A0}', '\u{2000}', '\u{2005}', '\u{200A}', '\u{3000}'] {
        let text = format!("Visit{space}example.com");
        assert_eq!(found(&text), ["example.com"], "{:?}", text);
    }
}

#[test]
fn fullwidth_letters_mapped_to_ascii_letters_stay_host_chars() {
    assert_eq!(found("ｅxample.com"), ["ｅxample.com"]);
    assert_eq!(found("ｅｘａｍｐｌｅ.com"), ["ｅｘａｍｐｌｅ.com"]);
    assert!(linkscan::is_host_char('ｅ'));
    assert!(!linkscan::is_host_char('，'));
    assert!(!linkscan::is_host_char('\u{00A0}'));
}

#[test]
fn nv8_characters_separate_hosts() {
    // `、` U+3001 is UTS #46 valid but NV8 (not IDNA2008): a list separator, not a label.
    assert_eq!(found("TinyURL、t.co、bit.ly"), ["t.co", "bit.ly"]);
    assert!(!linkscan::is_host_char('、'));
}

#[test]
fn deviation_characters_are_host_chars() {
    // Nontransitional UTS #46 processing keeps ß, ς, ZWJ and ZWNJ.
    assert_eq!(found("www.straße.de"), ["www.straße.de"]);
    assert_eq!(found("faß.de"), ["faß.de"]);
    assert_eq!(found("see ς.gr"), ["ς.gr"]);
    assert_eq!(found("a\u{200C}b.com"), ["a\u{200C}b.com"]);
    assert_eq!(found("a\u{200D}b.com"), ["a\u{200D}b.com"]);
}

#[test]
fn ideographic_full_stop_separates_labels() {
    assert_eq!(found("普遍适用测试。我爱你"), ["普遍适用测试。我爱你"]);
    assert_eq!(
        found("Lorem 普遍适用测试.我爱你 dolor"),
        ["普遍适用测试.我爱你"]
    );
    assert_eq!(found("例子。com。"), ["例子。com"]);
    assert_eq!(found("例子。com。/路径"), ["例子。com。/路径"]);
    assert_eq!(found("例子。。com"), Vec::<&str>::new());
}

// Step 5: the labels.

#[test]
fn empty_or_hyphenated_labels_reject_the_host() {
    assert_eq!(found("http://.foo.example.com"), Vec::<&str>::new());
    assert_eq!(found("foo..example.com"), Vec::<&str>::new());
    assert_eq!(found("-foo.example.com"), Vec::<&str>::new());
    assert_eq!(found("foo-.example.com"), Vec::<&str>::new());
    assert_eq!(found("foo.-example.com"), Vec::<&str>::new());
    assert_eq!(found("foo.example-.com"), Vec::<&str>::new());
    assert_eq!(found("-foo.example-.com"), Vec::<&str>::new());
    assert_eq!(found("foo.example.-com"), Vec::<&str>::new());
    assert_eq!(found("foo.example.com-"), Vec::<&str>::new());
    assert_eq!(found("fo-o.exa--mple.com"), ["fo-o.exa--mple.com"]);
}

// TLD matching: case, Punycode, Unicode.

#[test]
fn upper_case_tlds_and_schemes() {
    assert_eq!(
        detailed("HTTPS://EXAMPLE.COM"),
        [("HTTPS://EXAMPLE.COM", LinkKind::Url, true)]
    );
    assert_eq!(
        detailed("Http://Example.Com/Path"),
        [("Http://Example.Com/Path", LinkKind::Url, true)]
    );
    assert_eq!(
        detailed("see EXAMPLE.COM."),
        [("EXAMPLE.COM", LinkKind::Url, false)]
    );
    assert_eq!(found("x.CoM"), ["x.CoM"]);
}

#[test]
fn punycode_and_unicode_tlds() {
    assert_eq!(found("пример.рф"), ["пример.рф"]);
    assert_eq!(found("example.xn--p1ai"), ["example.xn--p1ai"]);
    assert_eq!(found("example.XN--P1AI"), ["example.XN--P1AI"]);
    assert_eq!(found("example.Xn--P1ai/x"), ["example.Xn--P1ai/x"]);
    assert_eq!(found("例子.香港"), ["例子.香港"]);
    assert_eq!(found("example.xn--p1aj"), Vec::<&str>::new());
}

// TLD policies.

#[test]
fn iana_policy() {
    assert_eq!(found("example.invalid"), Vec::<&str>::new());
    assert_eq!(found("example.museum"), ["example.museum"]);
}

#[test]
fn list_policy() {
    let set = TldSet::from_list(["invalid", "XN--P1AI"]).expect("valid list");
    let policy = TldPolicy::List(Arc::new(set));
    assert_eq!(found_with(&policy, "example.invalid"), ["example.invalid"]);
    assert_eq!(found_with(&policy, "EXAMPLE.INVALID"), ["EXAMPLE.INVALID"]);
    assert_eq!(found_with(&policy, "пример.рф"), ["пример.рф"]);
    assert_eq!(found_with(&policy, "пример.xn--p1ai"), ["пример.xn--p1ai"]);
    assert_eq!(found_with(&policy, "example.com"), Vec::<&str>::new());
    assert_eq!(
        found_with(&policy, "a@example.invalid, x@example.com"),
        ["a@example.invalid"]
    );
    // The builder shorthand gives the same finder.
    let finder = LinkFinder::builder()
        .tld_set(TldSet::from_list(["invalid"]).expect("valid list"))
        .build();
    assert_eq!(finder.links("x.invalid y.com").count(), 1);
}

#[test]
fn syntactic_policy() {
    let policy = TldPolicy::Syntactic;
    assert_eq!(found_with(&policy, "example.invalid"), ["example.invalid"]);
    assert_eq!(found_with(&policy, "example.com"), ["example.com"]);
    assert_eq!(found_with(&policy, "example.c0m"), Vec::<&str>::new());
    assert_eq!(found_with(&policy, "example.😎"), Vec::<&str>::new());
    assert_eq!(found_with(&policy, "example.c"), Vec::<&str>::new());
    assert_eq!(found_with(&policy, "example.a-b"), Vec::<&str>::new());
    assert_eq!(
        found_with(&policy, "пример.испытание"),
        ["пример.испытание"]
    );
    assert_eq!(
        found_with(&policy, "example.xn--p1ai"),
        ["example.xn--p1ai"]
    );
    assert_eq!(found_with(&policy, "example.xn--abc"), Vec::<&str>::new());
    assert_eq!(found_with(&policy, "v1.2"), Vec::<&str>::new());
}

// Step 6: email.

#[test]
fn email_local_parts() {
    assert_eq!(
        detailed("Contact x.abcd@example.com."),
        [("x.abcd@example.com", LinkKind::Email, false)]
    );
    assert_eq!(
        detailed("Contact アルベルト.アルベルト@example.com"),
        [("アルベルト.アルベルト@example.com", LinkKind::Email, false)]
    );
    assert_eq!(found("σωκράτης@example.com"), ["σωκράτης@example.com"]);
    assert_eq!(found("a+tag@example.com"), ["a+tag@example.com"]);
    // An email never takes the trailing dot, the port or a path.
    assert_eq!(found("x@example.com:25 y"), ["x@example.com"]);
    assert_eq!(found("x@example.com/path"), ["x@example.com"]);
    assert_eq!(found("x@example.com./path"), ["x@example.com"]);
}

#[test]
fn invalid_local_part_skips_the_whole_domain() {
    assert_eq!(found("Contact .a@x.com"), Vec::<&str>::new());
    assert_eq!(found("Contact a.@x.com"), Vec::<&str>::new());
    assert_eq!(found("Contact a..b@x.com"), Vec::<&str>::new());
    assert_eq!(found("Contact @example.com"), Vec::<&str>::new());
    assert_eq!(found("@example.com"), Vec::<&str>::new());
    assert_eq!(
        found("See mailto:αβγ..δεζ@example.com on"),
        Vec::<&str>::new()
    );
    // ...but not what follows it.
    assert_eq!(found("a..b@x.com and y.org"), ["y.org"]);
}

#[test]
fn mailto_prefix_in_any_case() {
    for prefix in ["mailto:", "MAILTO:", "MailTo:"] {
        let text = format!("write {prefix}a.b@example.com.");
        let expected = format!("{prefix}a.b@example.com");
        assert_eq!(
            detailed(&text),
            [(expected.as_str(), LinkKind::Email, true)],
            "{text}"
        );
    }
    // ':' ends the local part, and "mailto:" right before it is taken whatever precedes.
    assert_eq!(
        detailed("xmailto:a@example.com"),
        [("mailto:a@example.com", LinkKind::Email, true)]
    );
    assert_eq!(
        detailed("mailto a@example.com"),
        [("a@example.com", LinkKind::Email, false)]
    );
}

#[test]
fn userinfo_is_not_an_email() {
    assert_eq!(found("http://user@example.com"), Vec::<&str>::new());
    assert_eq!(found("https://user@example.com/path"), Vec::<&str>::new());
    // Without the scheme's colon the slashes are ordinary local-part characters.
    assert_eq!(found("//user@example.com"), ["//user@example.com"]);
}

#[test]
fn password_of_userinfo_is_not_an_email() {
    // The password would otherwise become a `mailto:` link.
    assert_eq!(
        found("https://user:secret@example.com/x"),
        Vec::<&str>::new()
    );
    assert_eq!(
        found("ftp://anonymous:me@ftp.example.org"),
        Vec::<&str>::new()
    );
    assert_eq!(found("http://u.s-er:p~w@example.com and b.org"), ["b.org"]);
    // Only `scheme://user:` before the local part rejects it: an ordinary colon does not.
    assert_eq!(found("mail me:secret@example.com"), ["secret@example.com"]);
    assert_eq!(found("//user:secret@example.com"), ["secret@example.com"]);
    assert_eq!(found("x:user:secret@example.com"), ["secret@example.com"]);
}

#[test]
fn two_at_signs() {
    assert_eq!(
        detailed("a@b@example.com"),
        [("b@example.com", LinkKind::Email, false)]
    );
    // A host right before '@' is a local part, never a URL nor an email's domain.
    assert_eq!(found("a@b.com@c.com"), ["b.com@c.com"]);
    // After an email the floor is past its domain: nothing before it is a local part.
    assert_eq!(found("a@b.com x@c.com"), ["a@b.com", "x@c.com"]);
}

// Step 2's rule for '@': a host right before '@' is an email's local part.

#[test]
fn local_parts_named_like_tlds_give_the_email() {
    // `.li`, `.wang`, `.kim` are TLDs and common family names.
    assert_eq!(
        detailed("mail xiao.li@example.com or lei.wang@example.cn or min.kim@corp.kr"),
        [
            ("xiao.li@example.com", LinkKind::Email, false),
            ("lei.wang@example.cn", LinkKind::Email, false),
            ("min.kim@corp.kr", LinkKind::Email, false),
        ]
    );
    // VERP bounce addresses carry a whole address in the local part.
    assert_eq!(
        found("Return-Path: <list+bounces-1234-user=lfdr.de@vger.kernel.org>"),
        ["list+bounces-1234-user=lfdr.de@vger.kernel.org"]
    );
    assert_eq!(
        found("mailto:a.b.co.uk@example.org"),
        ["mailto:a.b.co.uk@example.org"]
    );
    // A trailing dot before '@' is taken and the host still rejected; the local part then
    // ends with a dot, so the whole domain is skipped.
    assert_eq!(found("x.com.@example.org y.net"), ["y.net"]);
    // Userinfo stays unlinked, whatever the user name looks like.
    assert_eq!(found("http://john.smith@example.com"), Vec::<&str>::new());
    assert_eq!(found("https://a.b.org@example.com/x"), Vec::<&str>::new());
    // Only '@' right after the host (or its trailing dot) counts: a port or a space
    // between leaves the URL.
    assert_eq!(found("see x.org @example"), ["x.org"]);
    assert_eq!(found("x.org:80@example"), ["x.org:80"]);
}

#[test]
fn local_parts_named_like_tlds_under_every_policy() {
    let list = TldSet::from_list(["li", "com", "de", "org"]).expect("valid list");
    for policy in [
        TldPolicy::Iana,
        TldPolicy::Syntactic,
        TldPolicy::List(Arc::new(list)),
    ] {
        assert_eq!(
            found_with(&policy, "xiao.li@example.com, u=lfdr.de@x.org"),
            ["xiao.li@example.com", "u=lfdr.de@x.org"],
            "{policy:?}"
        );
    }
    // The syntactic rule takes any word of letters as a TLD: every dotted local part.
    assert_eq!(
        found_with(&TldPolicy::Syntactic, "john.smith@example.com"),
        ["john.smith@example.com"]
    );
}

// Step 7: the scheme.

#[test]
fn http_and_https_schemes_are_included() {
    assert_eq!(
        detailed("see https://example.com/"),
        [("https://example.com/", LinkKind::Url, true)]
    );
    assert_eq!(
        detailed("see http://example.com"),
        [("http://example.com", LinkKind::Url, true)]
    );
    assert_eq!(
        detailed("see http:/example.com"),
        [("example.com", LinkKind::Url, false)]
    );
    // `https://` wins over a longer run of scheme characters before it.
    assert_eq!(
        detailed("A8https://example.com"),
        [("https://example.com", LinkKind::Url, true)]
    );
}

#[test]
fn other_schemes_are_included_with_the_link() {
    assert_eq!(
        detailed("get ftp://ftp.example.org/pub/f.txt now"),
        [("ftp://ftp.example.org/pub/f.txt", LinkKind::Url, true)]
    );
    assert_eq!(
        detailed("git+ssh://git.example.org/repo.git"),
        [("git+ssh://git.example.org/repo.git", LinkKind::Url, true)]
    );
    assert_eq!(
        detailed("(RSYNC://mirror.example.net/x)"),
        [("RSYNC://mirror.example.net/x", LinkKind::Url, true)]
    );
    // A scheme starts with a letter: digits before it are not part of it.
    assert_eq!(
        detailed("8ftp://example.org"),
        [("ftp://example.org", LinkKind::Url, true)]
    );
    // No letter, no scheme.
    assert_eq!(
        detailed("1-2://example.org"),
        [("example.org", LinkKind::Url, false)]
    );
    // Not before the floor: the previous link ends the scheme.
    assert_eq!(
        found("a.com/x.b,ftp://example.org"),
        ["a.com/x.b,ftp://example.org"]
    );
    assert_eq!(
        found("a.com ftp://example.org"),
        ["a.com", "ftp://example.org"]
    );
}

#[test]
fn script_schemes_skip_the_domain() {
    // Followed, these would run script: the domain is not linked at all, and the scan
    // goes on after it.
    for text in [
        "javascript://example.com/%0Aalert(1)",
        "JavaScript://example.com",
        "vbscript://example.com",
        "data://example.com/x",
    ] {
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    assert_eq!(found("javascript://example.com b.org"), ["b.org"]);
    assert_eq!(
        detailed("xjavascript://example.com"),
        [("xjavascript://example.com", LinkKind::Url, true)]
    );
}

// Step 8 / section 3.5.1: termination.

#[test]
fn soft_characters_end_a_link_only_before_hard_or_end() {
    assert_eq!(found("example.com/a."), ["example.com/a"]);
    assert_eq!(found("example.com/a.b"), ["example.com/a.b"]);
    assert_eq!(found("example.com/a?!"), ["example.com/a?"]);
    assert_eq!(found("example.com/a!?, x"), ["example.com/a!?"]);
    assert_eq!(found("example.com/a'b'."), ["example.com/a'b"]);
    assert_eq!(found("example.com/a'b'c"), ["example.com/a'b'c"]);
}

#[test]
fn brackets_match_within_a_part() {
    assert_eq!(
        found("(see example.com/wiki/Ракь_(планета))."),
        ["example.com/wiki/Ракь_(планета)"]
    );
    assert_eq!(found("example.com/a)"), ["example.com/a"]);
    assert_eq!(found("example.com/a(b]"), ["example.com/a(b"]);
    assert_eq!(found("example.com/「a」"), ["example.com/「a」"]);
    // '/' clears the stack of the path, so a bracket cannot close across it.
    assert_eq!(found("example.com/(a/b)"), ["example.com/(a/b"]);
    assert_eq!(found("example.com/?a=(b&c)"), ["example.com/?a=(b&c"]);
}

#[test]
fn fragment_directives() {
    assert_eq!(
        found("see https://example.com/#a:~:text=x,y&text=z now"),
        ["https://example.com/#a:~:text=x,y&text=z"]
    );
    assert_eq!(
        found("example.com/#:~:text=a:~:text=b"),
        ["example.com/#:~:text=a:~:text=b"]
    );
    // In a directive ',' and '&' clear the bracket stack; in a plain fragment nothing does.
    assert_eq!(
        found("example.com/#:~:text=(a,b)"),
        ["example.com/#:~:text=(a,b"]
    );
    assert_eq!(
        found("example.com/#:~:text=(a)&text=b"),
        ["example.com/#:~:text=(a)&text=b"]
    );
    assert_eq!(found("example.com/#(a&b)"), ["example.com/#(a&b)"]);
    // ':~:' ends the fragment part, so a bracket opened before it cannot close after it.
    assert_eq!(
        found("example.com/#(a:~:text=b)"),
        ["example.com/#(a:~:text=b"]
    );
}

#[test]
fn directive_outside_a_fragment_is_not_special() {
    // In a path or query ':~:' is just ':' (Soft), '~' (Include), ':' (Soft).
    assert_eq!(
        found("example.com/(a:~:text=b)"),
        ["example.com/(a:~:text=b)"]
    );
    assert_eq!(found("example.com/?q=(a:~:b)"), ["example.com/?q=(a:~:b)"]);
    assert_eq!(found("example.com/a:~:"), ["example.com/a:~"]);
    // Right after the host it cannot start a part.
    assert_eq!(found("example.com:~:text=a"), ["example.com"]);
}

#[test]
fn bracket_stack_holds_125() {
    let deep = |n: usize| format!("x.com/{}a{}", "(".repeat(n), ")".repeat(n));
    let text = deep(125);
    assert_eq!(found(&text), [text.as_str()]);
    let text = deep(126);
    let expected = format!("x.com/{}", "(".repeat(125));
    assert_eq!(found(&text), [expected.as_str()]);
    // Each path segment has its own stack.
    let text = format!("x.com/{}/{}", "(".repeat(125), "(".repeat(125));
    assert_eq!(found(&text), [text.as_str()]);
    // Mixed kinds count together.
    let text = format!("x.com/{}「a」{}", "[".repeat(124), "]".repeat(124));
    assert_eq!(found(&text), [text.as_str()]);
    let text = format!("x.com/{}「a」{}", "[".repeat(125), "]".repeat(125));
    let expected = format!("x.com/{}", "[".repeat(125));
    assert_eq!(found(&text), [expected.as_str()]);
}

// Bytes.

#[test]
fn invalid_utf8_acts_as_hard_and_offsets_are_into_the_bytes() {
    let ranges = |text: &[u8]| -> Vec<(usize, usize)> {
        scan(&TldPolicy::Iana, text)
            .iter()
            .map(|l| (l.start(), l.end()))
            .collect()
    };
    assert_eq!(ranges(b"old \xFFexample.com\xFE/path"), [(5, 16)]);
    assert_eq!(ranges(b"example.com/pa\xFFth"), [(0, 14)]);
    assert_eq!(ranges(b"exa\xFFmple.com"), [(4, 12)]);
    assert_eq!(ranges(b"a\xC3@example.com"), Vec::new());
    assert_eq!(ranges(b"example.c\x80om"), Vec::new());
    assert_eq!(ranges(b"example.com\xC3"), [(0, 11)]);
    // Non-ASCII before the link: offsets count bytes, not characters.
    assert_eq!(ranges("αβγ 😀 example.com".as_bytes()), [(12, 23)]);
    // A surrogate encoded in UTF-8 is invalid too.
    assert_eq!(ranges(b"x.com/a\xED\xA0\x80b"), [(0, 7)]);
    // An overlong '.' is not a dot.
    assert_eq!(ranges(b"example\xC0\xAEcom"), Vec::new());
}

#[test]
fn no_byte_anywhere_makes_the_finder_panic_or_disagree() {
    let template = b"a@x.com mailto:b@y.org http://z.com:80/(p)?q=1#f:~:t=1,2 w.co.uk.";
    for at in 0..=template.len() {
        for byte in 0..=255u8 {
            let mut text = template.to_vec();
            text.insert(at, byte);
            scan(&TldPolicy::Iana, &text);
            // Truncations of multi-byte sequences, too.
            text.truncate(at + 1);
            scan(&TldPolicy::Iana, &text);
        }
    }
}

// The API.

#[test]
fn kind_filters_do_not_change_other_links() {
    let text = "mail a@x.com or see x.com/p, mailto:b@y.org and http://z.org/ — c@d.com/e";
    let all: Vec<Link> = LinkFinder::new().links(text).map(Link::from).collect();
    let strs: Vec<&str> = all.iter().map(|l| l.as_str(text)).collect();
    assert_eq!(
        strs,
        [
            "a@x.com",
            "x.com/p",
            "mailto:b@y.org",
            "http://z.org/",
            "c@d.com"
        ]
    );
    let urls: Vec<Link> = LinkFinder::builder()
        .emails(false)
        .build()
        .links(text)
        .map(Link::from)
        .collect();
    let emails: Vec<Link> = LinkFinder::builder()
        .urls(false)
        .build()
        .links(text)
        .map(Link::from)
        .collect();
    let none = LinkFinder::builder()
        .urls(false)
        .emails(false)
        .build()
        .links(text)
        .count();
    let want = |kind| -> Vec<Link> { all.iter().copied().filter(|l| l.kind() == kind).collect() };
    assert_eq!(urls, want(LinkKind::Url));
    assert_eq!(emails, want(LinkKind::Email));
    assert_eq!(none, 0);
    // The domain of an email is not reported as a URL when emails are off.
    let finder = LinkFinder::builder().emails(false).build();
    assert_eq!(finder.links("a@example.com").count(), 0);
}

/// Every text of up to two bytes, and every three-byte text over an alphabet of the bytes
/// that matter to the scanner: the edges of the input (empty text, a dot or a UTF-8 lead
/// byte at the very end) never panic and agree with the oracle.
#[test]
fn tiny_texts_at_the_edges() {
    let policy = TldPolicy::Syntactic;
    assert!(scan(&policy, b"").is_empty());
    for a in 0..=255u8 {
        scan(&policy, &[a]);
        for b in 0..=255u8 {
            scan(&policy, &[a, b]);
        }
    }
    let alphabet = b".:/@-aZ9\xE3\x80\x82\xC3 ";
    for &a in alphabet {
        for &b in alphabet {
            for &c in alphabet {
                scan(&policy, &[a, b, c]);
                scan(&TldPolicy::Iana, &[b'x', a, b, c, b'o', b'm']);
            }
        }
    }
}

// The class Ignored (UTS #46 `ignored`): the host walk passes over it.

#[test]
fn ignored_code_points_inside_a_host_are_passed_over() {
    // A soft hyphen from hyphenated web text, a zero width space: the reader sees
    // www.example.com and paypal.com, and the link is the whole host as written.
    assert_eq!(
        found("see www.exam\u{AD}ple.com and pay\u{200B}pal.com"),
        ["www.exam\u{AD}ple.com", "pay\u{200B}pal.com"]
    );
    assert_eq!(
        found("ruby\u{200B}\u{200B}-lang.org"),
        ["ruby\u{200B}\u{200B}-lang.org"]
    );
    // Right after a dot, with a scheme, a port and a path, in an email's domain.
    assert_eq!(
        detailed("https://a.\u{2060}b.com:8080/x and x@exam\u{FEFF}ple.org"),
        [
            ("https://a.\u{2060}b.com:8080/x", LinkKind::Url, true),
            ("x@exam\u{FEFF}ple.org", LinkKind::Email, false),
        ]
    );
    // Variation selectors (BMP and supplementary) and a Mongolian one.
    assert_eq!(
        found("中文\u{FE0F}网.中国 a\u{E0100}b.com x\u{180B}y.com"),
        ["中文\u{FE0F}网.中国", "a\u{E0100}b.com", "x\u{180B}y.com"]
    );
}

#[test]
fn a_host_never_starts_with_an_ignored_code_point() {
    assert_eq!(found("\u{AD}example.com"), ["example.com"]);
    assert_eq!(found("x \u{200B}\u{200B}example.com"), ["example.com"]);
    // Nothing but Ignored before the dot: no host at all.
    assert_eq!(
        found("see \u{AD}.com and \u{200B}\u{2060}.org"),
        Vec::<&str>::new()
    );
    // The scheme must stand right before the host: an Ignored code point between them
    // leaves the host alone.
    assert_eq!(
        detailed("http://\u{AD}example.com"),
        [("example.com", LinkKind::Url, false)]
    );
    // The same for '@': the domain is linked as a URL.
    assert_eq!(
        detailed("a@\u{200B}example.com"),
        [("example.com", LinkKind::Url, false)]
    );
}

#[test]
fn labels_are_judged_without_ignored_code_points() {
    // An empty label made of Ignored code points, a hyphen at a label's edge behind one.
    assert_eq!(
        found("a.\u{AD}.com b-\u{AD}.com \u{AD}-c.com"),
        Vec::<&str>::new()
    );
    assert_eq!(found("a.\u{AD}-b.com"), Vec::<&str>::new());
    // A hyphen inside a label stays fine.
    assert_eq!(found("a-\u{AD}b.com"), ["a-\u{AD}b.com"]);
}

#[test]
fn ignored_code_points_inside_the_tld_are_passed_over_and_no_host_characters_elsewhere() {
    // Inside the TLD run (step 1) an Ignored code point is passed over, as in the rest of
    // the host: the reader sees example.com, and the link is not example.co.
    assert_eq!(found("example.co\u{AD}m"), ["example.co\u{AD}m"]);
    assert_eq!(
        found("see www.example.c\u{200B}\u{2060}om/x and a@b.o\u{AD}rg."),
        ["www.example.c\u{200B}\u{2060}om/x", "a@b.o\u{AD}rg"]
    );
    // Not a TLD without them: no link (`co` alone is one, but the run is `cox`).
    assert_eq!(found("example.co\u{AD}x"), Vec::<&str>::new());
    // At the run's end, or before a dot, they are not part of it.
    assert_eq!(
        found("example.com\u{AD} x.org\u{200B}."),
        ["example.com", "x.org"]
    );
    assert_eq!(found("example.co\u{AD}.uk"), ["example.co\u{AD}.uk"]);
    // A character that is neither HostChar nor Ignored still ends the host.
    assert_eq!(found("pay\u{200C}pal.com"), ["pay\u{200C}pal.com"]); // ZWNJ: deviation
    assert_eq!(found("pay\u{00A0}pal.com"), ["pal.com"]); // NBSP maps to a space
                                                          // Long runs of Ignored code points are walked once (see tests/linearity.rs too).
    let text = format!("{}x.com", "\u{AD}".repeat(1000));
    assert_eq!(found(&text), ["x.com"]);
}

// Hosts without a TLD after `http://` or `https://`.

#[test]
fn localhost_and_ip_literals_after_a_scheme() {
    assert_eq!(
        detailed("see http://localhost:8080/ and http://192.168.0.1/admin or http://[::1]:3000/."),
        [
            ("http://localhost:8080/", LinkKind::Url, true),
            ("http://192.168.0.1/admin", LinkKind::Url, true),
            ("http://[::1]:3000/", LinkKind::Url, true),
        ]
    );
    assert_eq!(
        found("HTTPS://LocalHost, https://10.0.0.255?q=1#f https://[2001:db8::7]"),
        [
            "HTTPS://LocalHost",
            "https://10.0.0.255?q=1#f",
            "https://[2001:db8::7]"
        ]
    );
    assert_eq!(
        found("(http://127.0.0.1:5000/api) <https://[::ffff:192.0.2.1]/x>"),
        ["http://127.0.0.1:5000/api", "https://[::ffff:192.0.2.1]/x"]
    );
    // A colon without digits is no port.
    assert_eq!(found("http://localhost: up"), ["http://localhost"]);
}

#[test]
fn what_is_not_a_host_without_a_tld() {
    for text in [
        "http://999.1.1.1/",
        "http://1.2.3.4.5/",
        "http://01.2.3.4/",
        "http://1.2.3/",
        "http://1.2.3.4a/",
        "http://localhost2/",
        "http://localhost.x/",
        "http://localhost\u{AD}x/",
        "http://[::1/",
        "http://[1:2:3:4:5:6:7:8:9]/",
        "http://[::1::]/",
        "http://[fe80::1%25eth0]/",
        "http://[12345::]/",
        "xhttp://localhost/",
        "a.http://localhost/",
        "1https://localhost/",
        "ftp://localhost/",
        "http:/localhost/",
        "http://localhost:99999/",
        "http://localhost:123456/",
        // Userinfo: the host is after the `@`, and the whole is not linked (step 6).
        "http://localhost@evil.com/",
        "http://[::1]@evil.com/",
        "http://192.168.0.1:8080@evil.com/",
    ] {
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    // A host with a TLD is found as before, literal or not.
    assert_eq!(found("http://localhost.com/x"), ["http://localhost.com/x"]);
    assert_eq!(found("http://127.0.0.1.example/x"), Vec::<&str>::new());
    assert_eq!(
        found("http://127.0.0.1.nip.io/x"),
        ["http://127.0.0.1.nip.io/x"]
    );
}

#[test]
fn hosts_without_a_tld_and_the_floor() {
    // Inside a link: part of it, not another link.
    assert_eq!(
        found("example.com/?next=http://localhost/ and then http://localhost/"),
        ["example.com/?next=http://localhost/", "http://localhost/"]
    );
    // Dots inside the literal's path are not candidates of their own.
    assert_eq!(
        found("http://localhost/a.com x.org"),
        ["http://localhost/a.com", "x.org"]
    );
    // Right after another link (an ASCII letter before `http`: not a start).
    assert_eq!(found("ahttp://localhost x.com"), ["x.com"]);
    assert_eq!(
        found("x.com/http://localhost http://[::1]http://[::1]"),
        ["x.com/http://localhost", "http://[::1]", "http://[::1]"]
    );
    // Under every policy.
    for policy in [TldPolicy::Syntactic, TldPolicy::Iana] {
        assert_eq!(
            found_with(&policy, "go http://127.0.0.1:80 now"),
            ["http://127.0.0.1:80"]
        );
    }
}

// Step 9 and spec section 1.4: a URL whose host is itself a public suffix (an entry of the
// Public Suffix List's ICANN section) is not reported; the floor moves past it all the same.

#[test]
fn public_suffix_hosts_are_not_links() {
    assert_eq!(
        found("see co.uk and gov.uk, but bbc.co.uk and www.gov.uk"),
        ["bbc.co.uk", "www.gov.uk"]
    );
    // The official file links `blogspot.com`: the private section is registrable here
    // (the readable policy drops it).
    assert_eq!(
        found("github.io user.github.io blogspot.com"),
        ["github.io", "user.github.io", "blogspot.com"]
    );
    // With a scheme, a path, a port, a trailing dot, in any case.
    for text in [
        "https://co.uk/",
        "http://CO.UK/a?b#c",
        "co.uk/path",
        "co.uk:8080/x",
        "see co.uk. now",
        "co.uk./path",
        "ftp://co.uk/file",
        "Co.Uk",
    ] {
        assert_eq!(found(text), Vec::<&str>::new(), "{text}");
    }
    assert_eq!(found("https://bbc.co.uk/news"), ["https://bbc.co.uk/news"]);
    // Wildcard entries and their exceptions (`*.ck`, `!www.ck`), second levels of
    // country TLDs.
    assert_eq!(found("x.ck www.ck a.x.ck"), ["www.ck", "a.x.ck"]);
    assert_eq!(found("com.au ac.jp x.com.au"), ["x.com.au"]);
}

#[test]
fn public_suffix_hosts_in_unicode_and_punycode() {
    // The list holds both forms; a mixed or mapped host is judged by its UTS #46 form.
    for text in [
        "公司.cn",
        "xn--55qx5d.cn",
        "XN--55QX5D.CN",
        "公司。cn",
        "ＣＯ.uk",
        "co\u{AD}.uk",
        "c\u{200B}o.uk",
        "\u{AD}co.uk",
    ] {
        assert_eq!(found(text), Vec::<&str>::new(), "{text:?}");
    }
    assert_eq!(found("例子.公司.cn"), ["例子.公司.cn"]);
    assert_eq!(
        found("xn--fsqu00a.xn--55qx5d.cn"),
        ["xn--fsqu00a.xn--55qx5d.cn"]
    );
    assert_eq!(found("bb\u{AD}c.co.uk"), ["bb\u{AD}c.co.uk"]);
    // An IDN TLD alone is a suffix too, but a host always has a label before its TLD.
    assert_eq!(found("пример.рф"), ["пример.рф"]);
}

#[test]
fn public_suffix_rule_leaves_emails_and_literal_hosts() {
    // An email's domain is not a URL host (a `mailto:` URL has none): real addresses
    // live at suffixes, `iki.fi` among them.
    assert_eq!(
        found("a@co.uk, mailto:b@gov.uk, jarkko@iki.fi"),
        ["a@co.uk", "mailto:b@gov.uk", "jarkko@iki.fi"]
    );
    assert_eq!(
        found("http://localhost/ http://127.0.0.1/"),
        ["http://localhost/", "http://127.0.0.1/"]
    );
}

#[test]
fn a_dropped_public_suffix_still_moves_the_floor() {
    // Nothing inside the dropped link is reported instead, as after an invalid local part.
    assert_eq!(found("co.uk/x.com co.uk/?q=y.org z.org"), ["z.org"]);
    assert_eq!(found("co.uk x.com"), ["x.com"]);
    // The email found from the same domain is not affected.
    assert_eq!(found("co.uk@example.com"), ["co.uk@example.com"]);
}

#[test]
fn public_suffix_rule_under_every_tld_policy() {
    let list = TldPolicy::List(Arc::new(
        TldSet::from_list(["uk", "cn", "io"]).expect("valid list"),
    ));
    for policy in [TldPolicy::Iana, TldPolicy::Syntactic, list] {
        assert_eq!(
            found_with(&policy, "co.uk bbc.co.uk 公司.cn x.公司.cn"),
            ["bbc.co.uk", "x.公司.cn"],
            "{policy:?}"
        );
    }
    // A TLD the list does not know makes no suffix: the syntactic policy links it.
    assert_eq!(
        found_with(&TldPolicy::Syntactic, "x.internal"),
        ["x.internal"]
    );
}

#[test]
fn public_suffix_hosts_can_be_asked_for() {
    let text = "see co.uk, bbc.co.uk, https://gov.uk/ and a@co.uk";
    let every = LinkFinder::builder()
        .public_suffix_hosts(true)
        .max_link_len(None)
        .build();
    let found: Vec<&str> = every.links(text).map(|l| l.as_str()).collect();
    assert_eq!(found, ["co.uk", "bbc.co.uk", "https://gov.uk/", "a@co.uk"]);
    // Counting takes the scanner's own loop with the rule off, one link at a time with it
    // on: both count what they would report.
    assert_eq!(every.links_bytes(text.as_bytes()).count(), 4);
    assert_eq!(LinkFinder::new().links_bytes(text.as_bytes()).count(), 2);
}
