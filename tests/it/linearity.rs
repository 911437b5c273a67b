//! Hostile inputs must scan in linear time.
//!
//! Each case is a pattern repeated `n` times whose links are known as a function of `n`.
//! At a small `n` the expectation is checked against the spec-literal oracle (which may be
//! quadratic, so it only sees small inputs); at a large `n` (megabytes) only the fast
//! finder runs and must report the same. There is no timing assertion: a scanner that
//! re-walks what it already walked needs on the order of n² steps here (about 10¹¹ for
//! `-x.com．` × 200 000), so a regression shows up as a test that does not finish, while
//! the linear scanner runs all of these in about a second in a debug build.

use linkscan::{oracle, Link, LinkFinder, LinkKind, TldPolicy};

/// Repetitions for the large runs: every input below is at least a megabyte.
const LARGE: usize = 200_000;
/// Repetitions for the oracle check.
const SMALL: usize = 40;

/// A hostile input family: `text(n)` and the links expected in it, as
/// `(count, first link, last link)` (texts, empty when there are none).
struct Case {
    name: &'static str,
    text: fn(usize) -> String,
    expect: fn(usize) -> Expected,
}

#[derive(Debug, PartialEq, Eq)]
struct Expected {
    count: usize,
    first: String,
    last: String,
}

fn none(_: usize) -> Expected {
    Expected {
        count: 0,
        first: String::new(),
        last: String::new(),
    }
}

fn one(link: String) -> Expected {
    Expected {
        count: 1,
        first: link.clone(),
        last: link,
    }
}

fn summarize(text: &str, links: &[linkscan::Link]) -> Expected {
    Expected {
        count: links.len(),
        first: links
            .first()
            .map(|l| l.as_str(text).to_string())
            .unwrap_or_default(),
        last: links
            .last()
            .map(|l| l.as_str(text).to_string())
            .unwrap_or_default(),
    }
}

const CASES: &[Case] = &[
    Case {
        // Every candidate passes the TLD and port steps and walks back over one long host
        // run to a bad first label.
        name: "-x.com．",
        text: |n| "-x.com．".repeat(n),
        expect: none,
    },
    Case {
        // The same run with an empty label at its start.
        name: "a..x.com．",
        text: |n| format!("a..{}", "x.com．".repeat(n)),
        expect: none,
    },
    Case {
        // A valid start: every repetition is a link, each walk stops at the previous end.
        name: "a + -x.com．",
        text: |n| format!("a{}", "-x.com．".repeat(n)),
        expect: |n| Expected {
            count: n,
            first: "a-x.com".into(),
            last: if n > 1 { "．-x.com" } else { "a-x.com" }.into(),
        },
    },
    Case {
        name: "a.",
        text: |n| "a.".repeat(n),
        expect: none,
    },
    Case {
        name: "a.com.",
        text: |n| format!("{}b", "a.com.".repeat(n)),
        expect: none,
    },
    Case {
        name: ".com",
        text: |n| ".com".repeat(n),
        expect: none,
    },
    Case {
        name: ".com + space",
        text: |n| ".com ".repeat(n),
        expect: none,
    },
    Case {
        name: "a@",
        text: |n| "a@".repeat(n),
        expect: none,
    },
    Case {
        name: "a@ then x.com",
        text: |n| format!("{}x.com", "a@".repeat(n)),
        expect: |_| one("a@x.com".into()),
    },
    Case {
        // One long local part, then domains whose local parts are empty (the floor).
        name: "a… @x.com@x.com…",
        text: |n| format!("{}{}", "a".repeat(n), "@x.com".repeat(n)),
        // Each host but the last stands right before '@': a local part, never a URL. The
        // last domain's local part is the host before it.
        expect: |n| {
            one(if n == 1 {
                "a@x.com".into()
            } else {
                "x.com@x.com".into()
            })
        },
    },
    Case {
        name: "a.b@x.com",
        text: |n| "a.b@x.com ".repeat(n),
        expect: |n| Expected {
            count: n,
            first: "a.b@x.com".into(),
            last: "a.b@x.com".into(),
        },
    },
    Case {
        name: "((((",
        text: |n| "(".repeat(n),
        expect: none,
    },
    Case {
        name: "x.com/((((",
        text: |n| format!("x.com/{}", "(".repeat(n)),
        expect: |n| one(format!("x.com/{}", "(".repeat(n.min(125)))),
    },
    Case {
        name: "x.com/()()",
        text: |n| format!("x.com/{}", "()".repeat(n)),
        expect: |n| one(format!("x.com/{}", "()".repeat(n))),
    },
    Case {
        name: "x.com/a.... and x.com/a....b",
        text: |n| format!("x.com/a{} x.com/a{}b", ".".repeat(n), ".".repeat(n)),
        expect: |n| Expected {
            count: 2,
            first: "x.com/a".into(),
            last: format!("x.com/a{}b", ".".repeat(n)),
        },
    },
    Case {
        // Host characters and dots but no TLD.
        name: "host chars without TLD",
        text: |n| "ab-cd.ef1".repeat(n),
        expect: none,
    },
    Case {
        name: "one huge label",
        text: |n| format!("{}.{}", "b".repeat(n), "q".repeat(n)),
        expect: none,
    },
    Case {
        name: "http:// repeated",
        text: |n| format!("{}x.com", "http://".repeat(n)),
        expect: |_| one("http://x.com".into()),
    },
    Case {
        name: "x.com:80x repeated",
        text: |n| "x.com:80x".repeat(n),
        expect: |n| Expected {
            count: n,
            first: "x.com:80".into(),
            last: if n > 1 { "xx.com:80" } else { "x.com:80" }.into(),
        },
    },
    Case {
        // Ignored code points (soft hyphens) inside a hostile host run: walked over, never
        // walked again.
        name: "-SHYx.com．",
        text: |n| "-\u{AD}x.com．".repeat(n),
        expect: none,
    },
    Case {
        // Hosts of Ignored code points alone: nothing before the dot.
        name: "SHY.com",
        text: |n| "\u{AD}.com".repeat(n),
        expect: none,
    },
    Case {
        // One long run of Ignored code points before a host: walked back over, then
        // forward, once.
        name: "SHY… x.com",
        text: |n| format!("{}x.com", "\u{200B}".repeat(n)),
        expect: |_| one("x.com".into()),
    },
    Case {
        // One huge host whose labels alternate with Ignored code points.
        name: "aSHYaSHY….com",
        text: |n| format!("{}.com", "a\u{AD}".repeat(n)),
        expect: |n| one(format!("{}.com", "a\u{AD}".repeat(n))),
    },
    Case {
        // Hosts right before '@', each rejected at once; the last domain gives the email.
        name: "x.li@ then x.com",
        text: |n| format!("{}x.com", "x.li@".repeat(n)),
        expect: |_| one("x.li@x.com".into()),
    },
    Case {
        // Hosts without a TLD, one after the other.
        name: "http://[::1] repeated",
        text: |n| "http://[::1]".repeat(n),
        expect: |n| Expected {
            count: n,
            first: "http://[::1]".into(),
            last: "http://[::1]".into(),
        },
    },
    Case {
        // Brackets never closed: each search for `]` is bounded.
        name: "http://[ repeated",
        text: |n| "http://[::".repeat(n),
        expect: none,
    },
    Case {
        // `://` everywhere, none of them a host without a TLD.
        name: "http://localhost repeated",
        text: |n| "http://localhost".repeat(n),
        // Each host runs into the next scheme, each scheme follows a letter.
        expect: |n| {
            if n == 1 {
                one("http://localhost".into())
            } else {
                none(n)
            }
        },
    },
];

#[test]
fn small_inputs_agree_with_the_oracle() {
    // No length limit: these cases test the scan itself, including very long links.
    let finder = LinkFinder::builder().max_link_len(None).build();
    for case in CASES {
        for n in [1, 2, 3, SMALL] {
            let text = (case.text)(n);
            let fast: Vec<Link> = finder.links(&text).map(Link::from).collect();
            let slow = oracle::find_links(text.as_bytes(), &TldPolicy::Iana);
            assert_eq!(fast, slow, "{} × {n}: finder and oracle differ", case.name);
            assert_eq!(
                summarize(&text, &fast),
                (case.expect)(n),
                "{} × {n}",
                case.name
            );
        }
    }
}

#[test]
fn large_hostile_inputs_finish_with_the_expected_links() {
    // No length limit: these cases test the scan itself, including very long links.
    let finder = LinkFinder::builder().max_link_len(None).build();
    for case in CASES {
        let text = (case.text)(LARGE);
        assert!(text.len() >= LARGE, "{}: input too small", case.name);
        let links: Vec<Link> = finder.links(&text).map(Link::from).collect();
        assert_eq!(
            summarize(&text, &links),
            (case.expect)(LARGE),
            "{} × {LARGE}",
            case.name
        );
    }
}

/// The same hostile host run once per policy and through the bytes entry point with
/// invalid bytes mixed in.
#[test]
fn large_hostile_inputs_under_every_policy_and_as_bytes() {
    let text = "-x.com．".repeat(LARGE);
    for policy in [TldPolicy::Iana, TldPolicy::Syntactic] {
        let finder = LinkFinder::builder().tld_policy(policy).build();
        assert_eq!(finder.links(&text).count(), 0);
    }
    let mut bytes = "a@".repeat(LARGE).into_bytes();
    bytes.extend_from_slice(b"\xFFb@x.com\xFE");
    let links: Vec<_> = LinkFinder::new().links_bytes(&bytes).collect();
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].kind(), LinkKind::Email);
    assert_eq!(&bytes[links[0].range()], b"b@x.com");
}
