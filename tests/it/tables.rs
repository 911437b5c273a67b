//! Every code point, every property: the generated tables against the data files.
//!
//! The files are parsed here by a small parser of its own (not the generator's), so a bug
//! in the generator or in the library's lookups cannot hide behind the same bug in the
//! test. One pass over U+0000..U+10FFFF, surrogates included, compares
//! `linkscan::internals::raw::*` with the values read straight from:
//!
//! * `LinkTerm.txt` (`@missing`: Hard), `LinkEmail.txt`, `LinkBracket.txt`;
//! * `IdnaMappingTable.txt` for HostChar (`valid` or `mapped` outside Basic Latin, plus
//!   ASCII `[-a-zA-Z0-9]` and the dots `.` U+FF0E U+3002, as `initiation.md` defines it);
//! * `PropList.txt` (Bidi_Control) and `security/IdentifierStatus.txt` (Allowed).

use crate::common;

use linkscan::internals::raw;
use linkscan::LinkTerm;

const CODE_POINTS: usize = 0x11_0000;

/// The data lines of a UCD-style file: `(first, last, fields after the range)`.
fn ranges(file: &str, text: &str) -> Vec<(u32, u32, Vec<String>)> {
    let hex = |s: &str, line: usize| {
        u32::from_str_radix(s.trim(), 16)
            .unwrap_or_else(|_| panic!("{file}:{line}: not a code point: {s:?}"))
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let data = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        if data.trim().is_empty() {
            continue;
        }
        let mut fields = data.split(';');
        let range = fields.next().unwrap_or_default().trim();
        let (lo, hi) = match range.split_once("..") {
            Some((a, b)) => (hex(a, n + 1), hex(b, n + 1)),
            None => (hex(range, n + 1), hex(range, n + 1)),
        };
        assert!(lo <= hi && (hi as usize) < CODE_POINTS, "{file}:{}", n + 1);
        out.push((lo, hi, fields.map(|f| f.trim().to_string()).collect()));
    }
    assert!(!out.is_empty(), "{file}: no data lines");
    out
}

/// One value per code point: `default` everywhere, then each listed range set by `value`
/// (which returns `None` for lines of other properties).
fn expand<T: Clone>(
    file: &str,
    text: &str,
    default: T,
    mut value: impl FnMut(&[String]) -> Option<T>,
) -> Vec<T> {
    let mut out = vec![default; CODE_POINTS];
    let mut listed = 0usize;
    for (lo, hi, fields) in ranges(file, text) {
        if let Some(v) = value(&fields) {
            out[lo as usize..=hi as usize].fill(v);
            listed += 1;
        }
    }
    assert!(listed > 0, "{file}: nothing listed for the property");
    out
}

fn link_term_value(name: &str) -> LinkTerm {
    match name {
        "Include" => LinkTerm::Include,
        "Hard" => LinkTerm::Hard,
        "Soft" => LinkTerm::Soft,
        "Open" => LinkTerm::Open,
        "Close" => LinkTerm::Close,
        other => panic!("LinkTerm.txt: unknown value {other:?}"),
    }
}

/// Collects the code points where the table and the data disagree, per property.
#[derive(Default)]
struct Mismatches {
    lines: Vec<String>,
    count: usize,
}

impl Mismatches {
    fn check<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, cp: u32, table: T, data: T) {
        if table != data {
            self.count += 1;
            if self.lines.len() < 40 {
                self.lines
                    .push(format!("U+{cp:04X} {what}: table {table:?}, data {data:?}"));
            }
        }
    }
}

#[test]
fn every_code_point_matches_the_data_files() {
    let dir = common::unicode("17.0.0");
    let read = |name: &str| common::read(dir.join(name));

    let link_term = expand("LinkTerm.txt", &read("LinkTerm.txt"), LinkTerm::Hard, |f| {
        Some(link_term_value(f.first()?))
    });
    let link_email = expand("LinkEmail.txt", &read("LinkEmail.txt"), false, |_| {
        Some(true)
    });
    let link_bracket = expand("LinkBracket.txt", &read("LinkBracket.txt"), None, |f| {
        Some(Some(u32::from_str_radix(f.first()?, 16).ok()?))
    });
    let mut host_char = expand(
        "IdnaMappingTable.txt",
        &read("IdnaMappingTable.txt"),
        false,
        |f| {
            // initiation.md: valid or deviation unless NV8/XV8; mapped only to letters,
            // digits, `.` and `-` (spec section 1.4: no forbidden domain code point).
            let status = f.first()?.as_str();
            let idna2008 = !f.iter().any(|x| x == "NV8" || x == "XV8");
            Some(match status {
                "valid" | "deviation" => idna2008,
                "mapped" => f.get(1)?.split_whitespace().all(|hex| {
                    u32::from_str_radix(hex, 16).is_ok_and(|c| {
                        c >= 0x80 || matches!(c as u8, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-')
                    })
                }),
                _ => false,
            })
        },
    );
    host_char[..0x80].fill(false);
    for cp in ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        .chain(['-', '.', '\u{FF0E}', '\u{3002}'])
    {
        host_char[cp as usize] = true;
    }
    let bidi_control = expand("PropList.txt", &read("PropList.txt"), false, |f| {
        (f.first()? == "Bidi_Control").then_some(true)
    });
    let allowed = expand(
        "IdentifierStatus.txt",
        &read("security/IdentifierStatus.txt"),
        false,
        |f| Some(f.first()? == "Allowed"),
    );

    let mut bad = Mismatches::default();
    for cp in 0..CODE_POINTS as u32 {
        let i = cp as usize;
        bad.check("Link_Term", cp, raw::link_term(cp), link_term[i]);
        bad.check("Link_Email", cp, raw::is_link_email(cp), link_email[i]);
        bad.check("Link_Bracket", cp, raw::link_bracket(cp), link_bracket[i]);
        bad.check("HostChar", cp, raw::is_host_char(cp), host_char[i]);
        bad.check(
            "Bidi_Control",
            cp,
            raw::is_bidi_control(cp),
            bidi_control[i],
        );
        bad.check(
            "Identifier_Status=Allowed",
            cp,
            raw::is_identifier_allowed(cp),
            allowed[i],
        );
    }
    assert!(
        bad.count == 0,
        "{} mismatches between src/tables.rs and {} (regenerate with `cargo run -p linkscan-gen`):\n{}",
        bad.count,
        dir.display(),
        bad.lines.join("\n")
    );
}

/// Past U+10FFFF (the scanner's stand-in for invalid UTF-8) everything reads as Hard:
/// no link character, no host or email character, no bracket.
#[test]
fn past_the_last_code_point_reads_as_hard() {
    for cp in [0x11_0000, 0x11_0001, 0x20_0000, u32::MAX] {
        assert_eq!(raw::link_term(cp), LinkTerm::Hard, "{cp:#X}");
        assert!(!raw::is_host_char(cp), "{cp:#X}");
        assert!(!raw::is_link_email(cp), "{cp:#X}");
        assert!(!raw::is_bidi_control(cp), "{cp:#X}");
        assert!(!raw::is_identifier_allowed(cp), "{cp:#X}");
        assert_eq!(raw::link_bracket(cp), None, "{cp:#X}");
    }
}
