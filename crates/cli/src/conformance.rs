//! `linkscan conformance`: runs the official test files of a data folder through this
//! build and prints pass/fail counts — a user's way to check a build or new data.
//!
//! Detection lines go through the fast finder and the oracle; formatting pairs through
//! the formatter and the oracle. A formatting failure on one of the ten known errata of
//! the 17.0.0 file is counted apart and does not fail the run; with `--verbose` the real
//! failures are listed first, under their own heading, and the errata after them under
//! theirs, each saying what the file expects and what the text of UTS #58 gives.
//!
//! Without a DIR argument the files are looked for in `$LINKSCAN_SHARED/unicode/17.0.0`,
//! else `../shared/unicode/17.0.0` (beside a checkout of this repository); when they are
//! not there, the error says where they come from (Unicode's data folder) and the two
//! ways to point at them.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use linkscan::conformance::{
    mark, parse_detection_tests, parse_formatting_tests, read_data_file, run_detection,
    run_formatting, shared_dir, Failure, FormattingCase,
};
use linkscan::{escape_url_parts, oracle, Link, LinkFinder, TldPolicy};

use crate::{ConformanceArgs, Outcome};

fn default_dir() -> PathBuf {
    shared_dir(Path::new("")).join("unicode").join("17.0.0")
}

/// Where the conformance files come from, for the error of a folder without them.
const WHERE_FROM: &str =
    "the files are Unicode's, in https://www.unicode.org/Public/17.0.0/linkification/ \
     (LinkDetectionTest.txt, LinkFormattingTest.txt): give their folder as DIR \
     (`linkscan conformance DIR`), or set LINKSCAN_SHARED to a folder that holds \
     unicode/17.0.0/ with them";

/// The error for a folder `dir` without `file` (`given`: named on the command line).
fn missing(dir: &Path, file: &Path, given: bool) -> io::Error {
    let default = if given {
        ""
    } else {
        " (the default folder: $LINKSCAN_SHARED/unicode/17.0.0, else ../shared/unicode/17.0.0)"
    };
    io::Error::new(
        io::ErrorKind::NotFound,
        format!(
            "no {} in {}{default}; {WHERE_FROM}",
            file.file_name().unwrap_or_default().to_string_lossy(),
            dir.display()
        ),
    )
}

fn read(path: &Path) -> io::Result<String> {
    read_data_file(path).map_err(|e| io::Error::new(io::ErrorKind::NotFound, e))
}

/// Prints one count line (and the failures when verbose); returns the failures that count.
fn report(
    out: &mut impl Write,
    what: &str,
    total: usize,
    failures: Vec<Failure>,
    errata: &[FormattingCase],
    verbose: bool,
) -> io::Result<usize> {
    let (known, real): (Vec<Failure>, Vec<Failure>) = failures
        .into_iter()
        .partition(|f| errata.iter().any(|c| c.line == f.line));
    let passed = total - known.len() - real.len();
    if known.is_empty() {
        writeln!(
            out,
            "  {what}: {passed} passed, {} failed (of {total})",
            real.len()
        )?;
    } else {
        writeln!(
            out,
            "  {what}: {passed} passed, {} known errata of the 17.0.0 file, {} failed (of {total})",
            known.len(),
            real.len()
        )?;
    }
    if verbose {
        if !real.is_empty() {
            writeln!(out, "  {what} failures:")?;
            for f in &real {
                writeln!(out, "{f}")?;
            }
        }
        if !known.is_empty() {
            writeln!(
                out,
                "  {what}, known errata of the 17.0.0 file (the file's expectation is \
                 wrong; not failures):"
            )?;
            for f in &known {
                writeln!(
                    out,
                    "erratum, line {}:\n  input:         {}\n  file expects:  {}\n  \
                     UTS #58 gives: {}",
                    f.line, f.input, f.expected, f.actual
                )?;
            }
        }
    }
    Ok(real.len())
}

pub(crate) fn run(args: &ConformanceArgs, out: &mut impl Write) -> io::Result<Outcome> {
    let dir = args.dir.clone().unwrap_or_else(default_dir);
    let detection_path = dir.join("LinkDetectionTest.txt");
    let formatting_path = dir.join("LinkFormattingTest.txt");
    for path in [&detection_path, &formatting_path] {
        if !path.exists() {
            return Err(missing(&dir, path, args.dir.is_some()));
        }
    }
    let detection = read(&detection_path)?;
    let formatting = read(&formatting_path)?;
    let mut failed = 0;

    let cases = parse_detection_tests(&detection);
    let finder = LinkFinder::new();
    writeln!(out, "{}: {} lines", detection_path.display(), cases.len())?;
    let fast = run_detection(&cases, |s| mark(s, finder.links(s).map(Link::from)));
    failed += report(out, "finder", cases.len(), fast, &[], args.verbose)?;
    let slow = run_detection(&cases, |s| {
        mark(s, oracle::find_links(s.as_bytes(), &TldPolicy::Iana))
    });
    failed += report(out, "oracle", cases.len(), slow, &[], args.verbose)?;

    let cases = parse_formatting_tests(&formatting).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {e}", formatting_path.display()),
        )
    })?;
    let errata: Vec<FormattingCase> = cases
        .iter()
        .filter(|c| c.is_erratum_17())
        .cloned()
        .collect();
    writeln!(out, "{}: {} pairs", formatting_path.display(), cases.len())?;
    let fast = run_formatting(&cases, escape_url_parts);
    failed += report(out, "formatter", cases.len(), fast, &errata, args.verbose)?;
    let slow = run_formatting(&cases, oracle::format_url_parts);
    failed += report(out, "oracle", cases.len(), slow, &errata, args.verbose)?;

    Ok(if failed > 0 {
        Outcome::Failed
    } else {
        Outcome::Ok
    })
}
