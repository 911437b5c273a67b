//! The official conformance files: parsing them and running them.
//!
//! `LinkDetectionTest.txt` holds lines of text with each expected link marked `⸠…⸡`;
//! a detector passes a line when marking its own links on the unmarked text gives the
//! line back. This module is shared by the test suite and by `linkscan conformance`, so a
//! user can check a build against any data folder.

use std::path::{Path, PathBuf};

use crate::link::Link;

/// The opening link mark of the test files.
pub const OPEN_MARK: char = '⸠';
/// The closing link mark of the test files.
pub const CLOSE_MARK: char = '⸡';

/// One test line of `LinkDetectionTest.txt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DetectionCase {
    /// 1-based line number in the file.
    pub line: usize,
    /// The line as written, with its marks.
    pub expected: String,
    /// The line with the marks removed: the detector's input.
    pub input: String,
}

/// Parses `LinkDetectionTest.txt`: every line that is neither empty (or only white space,
/// like line 109 of the 17.0.0 file) nor a comment.
pub fn parse_detection_tests(text: &str) -> Vec<DetectionCase> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(n, l)| DetectionCase {
            line: n + 1,
            expected: l.to_string(),
            input: l.replace([OPEN_MARK, CLOSE_MARK], ""),
        })
        .collect()
}

/// `text` with `⸠` and `⸡` around each link. Links must be in order and not overlap.
pub fn mark(text: &str, links: impl IntoIterator<Item = Link>) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut at = 0;
    for link in links {
        out.push_str(&text[at..link.start()]);
        out.push(OPEN_MARK);
        out.push_str(&text[link.range()]);
        out.push(CLOSE_MARK);
        at = link.end();
    }
    out.push_str(&text[at..]);
    out
}

/// A failed conformance case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// 1-based line number in the test file.
    pub line: usize,
    /// The input given to the implementation.
    pub input: String,
    /// What the file expects.
    pub expected: String,
    /// What the implementation produced.
    pub actual: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}:\n  input:    {}\n  expected: {}\n  actual:   {}",
            self.line, self.input, self.expected, self.actual
        )
    }
}

/// Runs every detection case through `detect` (which returns the marked line).
pub fn run_detection(
    cases: &[DetectionCase],
    mut detect: impl FnMut(&str) -> String,
) -> Vec<Failure> {
    cases
        .iter()
        .filter_map(|case| {
            let actual = detect(&case.input);
            (actual != case.expected).then(|| Failure {
                line: case.line,
                input: case.input.clone(),
                expected: case.expected.clone(),
                actual,
            })
        })
        .collect()
}

/// Reads a data file, with an error naming the file and where to get it.
pub fn read_data_file(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read {}: {e}\n(the UTS #58 data and test files are published in \
             https://www.unicode.org/Public/<version>/links/ ; point LINKSCAN_SHARED at a \
             folder holding unicode/<version>/ and iana/tlds-alpha-by-domain.txt)",
            path.display()
        )
    })
}

/// The shared data folder: `$LINKSCAN_SHARED`, else `../shared` beside `base`.
pub fn shared_dir(base: &Path) -> PathBuf {
    std::env::var_os("LINKSCAN_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| base.join("..").join("shared"))
}

// ---------------------------------------------------------------------------------------
// LinkFormattingTest.txt

use crate::format::UrlParts;

/// The ten pairs of the 17.0.0 `LinkFormattingTest.txt` whose expected line contradicts
/// section 4.1 (it leaves a final Soft character unescaped), named by their last path
/// segment. The 18.0.0 draft file corrects exactly these (see `initiation.md`).
///
/// ```
/// use linkscan::conformance::FORMATTING_ERRATA_17;
/// use linkscan::format::{escape_url_parts, UrlParts};
/// // Each ends in a Soft character, which section 4.1 escapes at the end of a URL.
/// let url = UrlParts::new("it.wikibooks.org").with_segment(FORMATTING_ERRATA_17[9]);
/// assert_eq!(escape_url_parts(&url), "it.wikibooks.org/Questo_è_l'ebraismo%21");
/// ```
pub const FORMATTING_ERRATA_17: [&str; 10] = [
    "སའི་གོ་ལ།",
    "ꯅ꯭ꯌꯨ_ꯌꯣꯔ꯭ꯛ_ꯁꯤꯇꯤꯒꯤ_ꯌꯨ.ꯑꯦꯁ.",
    "واشینقتن،_دی.سی.",
    "Tasè’",
    "Brüssel'",
    "植物とはどのような生き物か？",
    "विन्सेन्ट_भ्यान_ग:",
    "شارٕک۔",
    "«የሰብዓዊ_መብት_አቀፋዊ_መግለጽ»",
    "Questo_è_l'ebraismo!",
];

/// One pair of `LinkFormattingTest.txt`, with the structure comment above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormattingCase {
    /// 1-based line number of the expected (minimally escaped) line.
    pub line: usize,
    /// The structure comment as written, such as `{𝑺=https:// 𝑯=example.com 𝑷=α}`.
    pub structure: String,
    /// The structure comment parsed: the formatter's input.
    pub parts: UrlParts,
    /// 1-based line number of the fully escaped line.
    pub escaped_line: usize,
    /// The first line of the pair: the URL fully escaped (ambiguous: an unescaped `/`
    /// may be a separator or data).
    pub escaped: String,
    /// The second line of the pair: the URL minimally escaped.
    pub expected: String,
}

impl FormattingCase {
    /// Whether this pair is one of [`FORMATTING_ERRATA_17`] (by its last path segment).
    ///
    /// ```
    /// let text = "# {𝑯=vep.wikipedia.org 𝑷=wiki 𝑷=Brüssel'}\nx\ny\n";
    /// let cases = linkscan::conformance::parse_formatting_tests(text).unwrap();
    /// assert!(cases[0].is_erratum_17());
    /// ```
    pub fn is_erratum_17(&self) -> bool {
        self.parts
            .path
            .last()
            .is_some_and(|s| FORMATTING_ERRATA_17.contains(&s.as_str()))
    }
}

/// The marks of a structure comment, in the order of [`UrlParts`].
const STRUCTURE_MARKS: [&str; 7] = ["𝑺=", "𝑯=", "𝑷=", "𝑸=", "𝑽=", "𝑭=", "𝑫="];

/// Parses a structure comment line, `# {𝑺=… 𝑯=… 𝑷=… 𝑸=… 𝑽=… 𝑭=… 𝑫=…}`. A value runs up
/// to the space before the next mark, so values may hold spaces (`𝑷=αβ γ`); `𝑽` gives
/// the value of the `𝑸` before it; `𝑺` may end in `://`.
///
/// ```
/// use linkscan::format::UrlParts;
/// let parts = linkscan::conformance::parse_structure("# {𝑺=https:// 𝑯=a.com 𝑷=β γ 𝑸= 𝑽=δ}");
/// let expected = UrlParts::new("a.com").with_scheme("https").with_segment("β γ").with_query("", Some("δ"));
/// assert_eq!(parts, Ok(expected));
/// ```
pub fn parse_structure(comment: &str) -> Result<UrlParts, String> {
    let body = comment
        .trim_end()
        .strip_prefix("# {")
        .and_then(|b| b.strip_suffix('}'))
        .ok_or_else(|| format!("not a structure comment: {comment}"))?;
    // (offset of the mark, the mark)
    let mut marks = Vec::new();
    for (i, _) in body.char_indices() {
        if i > 0 && !body[..i].ends_with(' ') {
            continue;
        }
        if let Some(mark) = STRUCTURE_MARKS.iter().find(|m| body[i..].starts_with(**m)) {
            marks.push((i, *mark));
        }
    }
    if marks.first().map(|m| m.0) != Some(0) {
        return Err(format!(
            "structure comment does not start with a mark: {comment}"
        ));
    }
    let mut parts = UrlParts::default();
    for (k, &(at, mark)) in marks.iter().enumerate() {
        let end = marks.get(k + 1).map_or(body.len(), |next| next.0 - 1);
        let value = &body[at + mark.len()..end];
        match mark {
            "𝑺=" => parts.scheme = Some(value.strip_suffix("://").unwrap_or(value).to_string()),
            "𝑯=" => parts.host = value.to_string(),
            "𝑷=" => parts.path.push(value.to_string()),
            "𝑸=" => parts.query.push((value.to_string(), None)),
            "𝑽=" => match parts.query.last_mut() {
                Some((_, v @ None)) => *v = Some(value.to_string()),
                _ => return Err(format!("𝑽 without a 𝑸 before it: {comment}")),
            },
            "𝑭=" => parts.fragment = Some(value.to_string()),
            _ => parts.fragment_directives.push(value.to_string()),
        }
    }
    Ok(parts)
}

/// Parses `LinkFormattingTest.txt`: pairs of non-comment lines (fully escaped, then
/// minimally escaped), each under a structure comment. Errors name the line.
///
/// ```
/// let text = "# Path only\n# {𝑺=https:// 𝑯=example.com 𝑷=α}\n\
///             https://example.com/%CE%B1\nhttps://example.com/α\n";
/// let cases = linkscan::conformance::parse_formatting_tests(text).unwrap();
/// assert_eq!(cases[0].parts.path, ["α"]);
/// assert_eq!((cases[0].escaped_line, cases[0].line), (3, 4));
/// assert_eq!(cases[0].expected, "https://example.com/α");
/// ```
pub fn parse_formatting_tests(text: &str) -> Result<Vec<FormattingCase>, String> {
    let mut cases = Vec::new();
    let mut structure: Option<(usize, String, UrlParts)> = None;
    let mut escaped: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        if line.starts_with("# {") {
            if escaped.is_some() {
                return Err(format!("line {line_no}: structure comment inside a pair"));
            }
            let parts = parse_structure(line).map_err(|e| format!("line {line_no}: {e}"))?;
            let written = line.trim_end().trim_start_matches("# ").to_string();
            structure = Some((line_no, written, parts));
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match escaped.take() {
            None => {
                if structure.is_none() {
                    return Err(format!("line {line_no}: pair without a structure comment"));
                }
                escaped = Some((line_no, line.to_string()));
            }
            Some((escaped_line, first)) => {
                let (_, written, parts) = structure.take().expect("checked at the first line");
                cases.push(FormattingCase {
                    line: line_no,
                    structure: written,
                    parts,
                    escaped_line,
                    escaped: first,
                    expected: line.to_string(),
                });
            }
        }
    }
    if escaped.is_some() {
        return Err("the last pair has no second line".to_string());
    }
    Ok(cases)
}

/// Runs every formatting case through `format` (which gets the parsed structure and
/// returns the formatted URL); a failure's `input` is the structure comment.
///
/// ```
/// use linkscan::conformance::{parse_formatting_tests, run_formatting};
/// let text = "# {𝑯=example.com 𝑷=α.}\nexample.com/%CE%B1.\nexample.com/α%2E\n";
/// let cases = parse_formatting_tests(text).unwrap();
/// assert!(run_formatting(&cases, linkscan::escape_url_parts).is_empty());
/// let failures = run_formatting(&cases, |_| String::new());
/// assert_eq!(failures[0].line, 3);
/// ```
pub fn run_formatting(
    cases: &[FormattingCase],
    mut format: impl FnMut(&UrlParts) -> String,
) -> Vec<Failure> {
    cases
        .iter()
        .filter_map(|case| {
            let actual = format(&case.parts);
            (actual != case.expected).then(|| Failure {
                line: case.line,
                input: case.structure.clone(),
                expected: case.expected.clone(),
                actual,
            })
        })
        .collect()
}

#[cfg(test)]
mod formatting_tests {
    use super::*;

    #[test]
    fn structure_comments_parse_with_spaces_and_empty_values() {
        let parts = parse_structure(
            "# {𝑺=https:// 𝑯=example.com 𝑷=αβ γ 𝑷=δ 𝑸=θ 𝑽=ικ λ 𝑸= 𝑽=γξο 𝑸=k 𝑭=πρ σ 𝑫=text=a,b}",
        )
        .unwrap();
        assert_eq!(
            parts,
            UrlParts::new("example.com")
                .with_scheme("https")
                .with_segment("αβ γ")
                .with_segment("δ")
                .with_query("θ", Some("ικ λ"))
                .with_query("", Some("γξο"))
                .with_query("k", None)
                .with_fragment("πρ σ")
                .with_directive("text=a,b")
        );
        assert!(parse_structure("# {𝑯=example.com 𝑽=x}").is_err());
        assert!(parse_structure("# {example.com}").is_err());
        assert!(parse_structure("# 𝑭 = a fragment").is_err());
    }

    #[test]
    fn pairs_need_a_structure_comment_and_two_lines() {
        let text = "# header\n\n# {𝑯=a.com 𝑷=α}\na.com/%CE%B1\na.com/α\n";
        let cases = parse_formatting_tests(text).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!((cases[0].escaped_line, cases[0].line), (4, 5));
        assert_eq!(cases[0].expected, "a.com/α");
        assert!(parse_formatting_tests("a.com/x\na.com/x\n").is_err());
        assert!(parse_formatting_tests("# {𝑯=a.com}\na.com\n").is_err());
        let failures = run_formatting(&cases, |_| "a.com/β".to_string());
        assert_eq!(failures.len(), 1);
        assert_eq!(failures[0].line, 5);
        assert_eq!(failures[0].actual, "a.com/β");
    }
}
