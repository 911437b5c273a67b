//! The official conformance files: parsing them and running them.
//!
//! `LinkDetectionTest.txt` holds lines of text with each expected link marked `⸠…⸡`;
//! a detector passes a line when marking its own links on the unmarked text gives the
//! line back. This module is shared by the test suite and by `linkscan conformance`, so a
//! user can check a build against any data folder.

use std::path::{Path, PathBuf};

use crate::finder::Link;

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
