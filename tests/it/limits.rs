//! Limits: the 125-deep bracket stack, the maximum link length, and 100 MB lines of
//! adversarial content that must scan in bounded time and memory.
//!
//! The 100 MB lines are the shapes that make naive link detectors slow or greedy: an
//! endless run of open brackets after a path, `a.a.a.…` (a dot every other byte, none of
//! them before a TLD), `@@@…`, host characters without a TLD, and one host of millions of
//! labels. Each must give the links known for it, in linear time (the dev profile builds
//! with `opt-level = 1`, where all of them together take a few seconds; a quadratic scan
//! would not finish), and the scan must not allocate in
//! proportion to its input: the peak resident memory of the process (reset just before
//! the scan) may grow by no more than a few megabytes while it scans. `benches/adversarial.rs` measures their
//! throughput.

use linkscan::format::{escape_url_parts, minimal_escape, FormatOptions, UrlPart, UrlParts};
use linkscan::{oracle, LinkFinder, TldPolicy, BRACKET_LIMIT};

#[test]
fn the_bracket_stack_is_125_deep_in_detection_and_in_formatting() {
    assert_eq!(BRACKET_LIMIT, 125);
    for depth in [124, 125, 126, 200] {
        let text = format!(
            "see example.com/{}{} now",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        let links: Vec<_> = LinkFinder::new().links(&text).collect();
        assert_eq!(
            links.iter().map(|m| m.link()).collect::<Vec<_>>(),
            oracle::find_links(text.as_bytes(), &TldPolicy::Iana)
        );
        let link = links[0].as_str();
        if depth <= BRACKET_LIMIT {
            assert_eq!(
                link.len(),
                "example.com/".len() + 2 * depth,
                "depth {depth}"
            );
        } else {
            // The 126th open bracket ends the link, before it.
            assert_eq!(link, format!("example.com/{}", "(".repeat(BRACKET_LIMIT)));
        }
    }

    // Formatting escapes the 126th open bracket (and the close brackets left unmatched),
    // so that the whole URL is detected again.
    let segment = format!("{}{}", "(".repeat(200), ")".repeat(200));
    let mut out = String::new();
    minimal_escape(
        UrlPart::Path,
        &segment,
        true,
        &FormatOptions::default(),
        &mut out,
    );
    assert_eq!(
        out,
        format!(
            "/{}{}{}{}",
            "(".repeat(125),
            "%28".repeat(75),
            ")".repeat(125),
            "%29".repeat(75)
        )
    );
    let url = escape_url_parts(&UrlParts::new("example.com").with_segment(segment));
    let text = format!("({url})");
    let links: Vec<&str> = LinkFinder::new().links(&text).map(|l| l.as_str()).collect();
    assert_eq!(links, [url.as_str()]);
}

/// Resets the peak resident memory of this process to its current size (Linux: writing
/// 5 to `/proc/self/clear_refs`); `false` where that is not possible.
#[cfg(target_os = "linux")]
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

#[cfg(not(target_os = "linux"))]
fn reset_peak_rss() -> bool {
    false
}

/// The peak resident memory of this process, in bytes (Linux).
#[cfg(target_os = "linux")]
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(not(target_os = "linux"))]
fn peak_rss() -> Option<usize> {
    None
}

const MB: usize = 1_000_000;

/// Held by the tests that build 100 MB texts: the peak memory of the process is measured
/// while one of them scans, so no other may allocate its text meanwhile.
static LARGE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// One adversarial line: its text at a given size, and the links expected in it as
/// `(count, first link's range)`.
struct Line {
    name: &'static str,
    text: fn(usize) -> String,
    expect: fn(usize) -> (usize, Option<std::ops::Range<usize>>),
}

const LINES: &[Line] = &[
    Line {
        name: "example.com/(((…",
        text: |size| format!("example.com/{}", "(".repeat(size - 12)),
        expect: |_| (1, Some(0..12 + BRACKET_LIMIT)),
    },
    Line {
        name: "a.a.a.…",
        text: |size| "a.".repeat(size / 2),
        expect: |_| (0, None),
    },
    Line {
        name: "@@@…",
        text: |size| "@".repeat(size),
        expect: |_| (0, None),
    },
    Line {
        name: "host characters without a TLD",
        text: |size| "ab-cd.ef-gh.ij".repeat(size / 14),
        expect: |_| (0, None),
    },
    Line {
        name: "x@x@x@…",
        text: |size| "x@".repeat(size / 2),
        expect: |_| (0, None),
    },
    Line {
        // One host of millions of labels: a single link over the whole line.
        name: "a.com.a.com.…",
        text: |size| "a.com.".repeat(size / 6),
        expect: |size| (1, Some(0..size / 6 * 6 - 1)),
    },
    Line {
        // Every position starts a link: one per repetition.
        name: "x.com x.com …",
        text: |size| "x.com ".repeat(size / 6),
        expect: |size| (size / 6, Some(0..5)),
    },
];

/// A finder without the length limit, as the standard specifies detection.
fn unlimited() -> LinkFinder {
    LinkFinder::builder().max_link_len(None).build()
}

fn scan(line: &Line, size: usize) -> (usize, Option<std::ops::Range<usize>>, String) {
    let text = (line.text)(size);
    let finder = unlimited();
    let mut links = finder.links(&text);
    let first = links.next().map(|l| l.range());
    let count = first.iter().count() + links.count();
    (count, first, text)
}

#[test]
fn adversarial_lines_match_the_oracle_when_small() {
    for line in LINES {
        let text = (line.text)(600);
        let links = oracle::find_links(text.as_bytes(), &TldPolicy::Iana);
        let (count, first, _) = scan(line, 600);
        assert_eq!(count, links.len(), "{}", line.name);
        assert_eq!(first, links.first().map(|l| l.range()), "{}", line.name);
        assert_eq!((count, first), (line.expect)(600), "{}", line.name);
    }
}

#[test]
fn adversarial_100_mb_lines_finish_in_bounded_memory() {
    let _alone = LARGE.lock().unwrap_or_else(|e| e.into_inner());
    let size = 100 * MB;
    for line in LINES {
        let text = (line.text)(size);
        let before = reset_peak_rss().then(peak_rss).flatten();
        let finder = unlimited();
        let started = std::time::Instant::now();
        let mut links = finder.links(&text);
        let first = links.next().map(|l| l.range());
        let mut count = first.iter().count();
        for _ in links {
            count += 1;
        }
        let elapsed = started.elapsed();
        let (want_count, want_first) = (line.expect)(size);
        assert_eq!((count, first), (want_count, want_first), "{}", line.name);
        if let (Some(before), Some(after)) = (before, peak_rss()) {
            let grown = after.saturating_sub(before);
            assert!(
                grown < 16 * MB,
                "{}: peak memory grew by {grown} bytes while scanning",
                line.name
            );
        }
        eprintln!(
            "{}: {} MB, {count} links, {elapsed:?} ({:.0} MB/s)",
            line.name,
            text.len() / MB,
            text.len() as f64 / MB as f64 / elapsed.as_secs_f64()
        );
    }
}

#[test]
fn the_maximum_link_length_leaves_out_overlong_links_only() {
    assert_eq!(linkscan::DEFAULT_MAX_LINK_LEN, 64 * 1024);
    let _alone = LARGE.lock().unwrap_or_else(|e| e.into_inner());
    // A 100 MB "link" is left out by default; the links after it are still found, and
    // nothing inside it is taken for a link.
    let text = format!(
        "x.com/{} y.com a.com.{} z@example.org",
        "a".repeat(100 * MB),
        "b.com.".repeat(20_000)
    );
    let found: Vec<&str> = LinkFinder::new().links(&text).map(|l| l.as_str()).collect();
    assert_eq!(found, ["y.com", "z@example.org"]);
    let all: Vec<usize> = unlimited()
        .links(&text)
        .map(|l| l.end() - l.start())
        .collect();
    assert_eq!(all, [6 + 100 * MB, 5, 6 + 120_000 - 1, 13]);
    // Exactly at the limit a link is reported; one byte over it is not.
    for (len, reported) in [(64 * 1024, true), (64 * 1024 + 1, false)] {
        let text = format!("{} next.com", format_args!("x.com/{}", "a".repeat(len - 6)));
        let first = LinkFinder::new().links(&text).next().unwrap();
        assert_eq!(first.start() == 0, reported, "{len}");
    }
    // A limit of the user's own.
    let finder = LinkFinder::builder().max_link_len(Some(11)).build();
    let text = "example.com example.com/ a@example.com";
    let found: Vec<&str> = finder.links(text).map(|l| l.as_str()).collect();
    assert_eq!(found, ["example.com"]);
}
