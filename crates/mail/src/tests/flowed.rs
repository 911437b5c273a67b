//! Flowed text (RFC 3676) on both parse paths: a flowed part of a multipart, and the
//! lines of the mail corpus broken by soft breaks at random places (anywhere with
//! DelSp=yes, after a space without it), space-stuffed where they must be and quoted at
//! random depths, sent as flowed messages: the scan gives back the same text and the same
//! links as the lines sent fixed, on the general and the flat path.

use super::common;
use common::rng::Rng;

use crate::flowed::unflow;
use crate::{MailScanner, ScannedMessage};

/// `(text, href, start, end)` of every link of every part but the Subject.
fn body_links(m: &ScannedMessage) -> Vec<(String, String, usize, usize)> {
    m.parts()
        .iter()
        .filter(|p| p.path() != "subject")
        .flat_map(|p| {
            p.links()
                .iter()
                .map(|l| (l.text().into(), l.href().into(), l.start(), l.end()))
        })
        .collect()
}

#[test]
fn flowed_parts_of_a_multipart_on_both_paths() {
    let raw = "Subject: x\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n\
               --b\r\nContent-Type: text/plain; format=flowed; delsp=yes\r\n\r\n\
               > see https://example.com/pa \r\n> th\r\n--b\r\n\
               Content-Type: text/plain\r\n\r\nsee https://example.com/pa \r\nth\r\n--b--\r\n";
    let fast = MailScanner::new();
    assert!(fast.takes_flat_path(raw.as_bytes()));
    let general = MailScanner::new().parse_all_headers();
    for scanner in [fast, general] {
        let m = scanner.scan(raw.as_bytes());
        let [_, flowed, fixed] = m.parts() else {
            panic!("{m:?}")
        };
        assert!(flowed.is_flowed() && !fixed.is_flowed());
        assert_eq!(flowed.text(), "> see https://example.com/path");
        assert_eq!(flowed.links()[0].text(), "https://example.com/path");
        assert_eq!(fixed.links()[0].text(), "https://example.com/pa");
    }
}

// ---------------------------------------------------------------------------------------
// Generated soft breaks in the corpus's own lines.

/// Lines of the mail corpus (the shared `email-en.mbox`, and the multilingual text),
/// without trailing white space: every line with a link-like character, and some others.
fn corpus_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for (name, most) in [("email-en.mbox", 6000), ("email-intl.txt", 2000)] {
        let path = common::shared().join("corpus").join(name);
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("cannot read corpus {}: {e}", path.display()));
        let text = String::from_utf8_lossy(&bytes);
        let mut taken = 0;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end();
            let linky = line.contains(['@', '.', ':']);
            if (linky || i % 50 == 0) && !line.contains('\t') {
                lines.push(line.to_string());
                taken += 1;
                if taken == most {
                    break;
                }
            }
        }
    }
    lines
}

/// `line` as flowed lines at quote depth `depth`: broken at random char boundaries (with
/// `delsp`, a space added before each soft break) or after random spaces (without),
/// each line stuffed where RFC 3676 says it must be. Never a piece that would read as
/// the signature separator.
fn flow_line(line: &str, depth: usize, delsp: bool, rng: &mut Rng, out: &mut String) {
    let cuts: Vec<usize> = (1..line.len())
        .filter(|&i| line.is_char_boundary(i))
        .filter(|&i| delsp || line.as_bytes()[i - 1] == b' ')
        .filter(|_| rng.below(4) == 0)
        .collect();
    let mut start = 0;
    let mut pieces = Vec::new();
    for cut in cuts {
        let piece = &line[start..cut];
        let shown = if delsp {
            format!("{piece} ")
        } else {
            piece.to_string()
        };
        if shown == "-- " {
            continue;
        }
        pieces.push(shown);
        start = cut;
    }
    pieces.push(line[start..].to_string());
    for piece in pieces {
        out.push_str(&">".repeat(depth));
        if depth > 0 || piece.starts_with([' ', '>']) || piece.starts_with("From ") {
            out.push(' ');
        }
        out.push_str(&piece);
        out.push_str("\r\n");
    }
}

/// `line` as unflowing its flowed form at `depth` gives it back.
fn fixed_line(line: &str, depth: usize, out: &mut String) {
    out.push_str(&">".repeat(depth));
    if (depth > 0 && !line.is_empty()) || (depth == 0 && line.starts_with('>')) {
        out.push(' ');
    }
    out.push_str(line);
    out.push_str("\r\n");
}

/// Messages of `lines`, a few dozen lines each, flowed (with `delsp`) and fixed.
fn flowed_and_fixed(lines: &[String], delsp: bool, seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed);
    lines
        .chunks(40)
        .map(|chunk| {
            let (mut flowed, mut fixed) = (String::new(), String::new());
            for line in chunk {
                let depth = [0, 0, 0, 1, 2][rng.below(5)];
                flow_line(line, depth, delsp, &mut rng, &mut flowed);
                fixed_line(line, depth, &mut fixed);
            }
            (flowed, fixed)
        })
        .collect()
}

fn message(body: &str, flowed: Option<bool>) -> String {
    let format = match flowed {
        Some(true) => "; format=flowed; delsp=yes",
        Some(false) => "; format=flowed",
        None => "",
    };
    format!(
        "Subject: t\r\nContent-Type: text/plain; charset=utf-8{format}\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{body}"
    )
}

fn check_generated(delsp: bool, seed: u64) {
    let lines = corpus_lines();
    assert!(lines.len() > 4000, "the corpus gave {} lines", lines.len());
    let scanners = [MailScanner::new(), MailScanner::new().parse_all_headers()];
    let mut links = 0;
    for (flowed, fixed) in flowed_and_fixed(&lines, delsp, seed) {
        assert_eq!(unflow(&flowed, delsp), fixed);
        let want = scanners[0].scan(message(&fixed, None).as_bytes());
        for scanner in &scanners {
            let got = scanner.scan(message(&flowed, Some(delsp)).as_bytes());
            assert!(got.parts()[1].is_flowed());
            assert_eq!(got.parts()[1].text(), want.parts()[1].text());
            assert_eq!(body_links(&got), body_links(&want), "{flowed}");
        }
        links += body_links(&want).len();
    }
    assert!(links > 1000, "only {links} links in the generated messages");
}

#[test]
fn generated_soft_breaks_with_delsp_give_back_the_same_links() {
    check_generated(true, 0x3676);
}

#[test]
fn generated_soft_breaks_without_delsp_give_back_the_same_links() {
    check_generated(false, 0x2646);
}
