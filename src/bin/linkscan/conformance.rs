//! `linkscan conformance`: runs the official test files of a data folder through this
//! build and prints pass/fail counts — a user's way to check a build or new data.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use linkscan::conformance::{
    mark, parse_detection_tests, read_data_file, run_detection, shared_dir, Failure,
};
use linkscan::{oracle, LinkFinder, TldPolicy};

use crate::{ConformanceArgs, Outcome};

fn default_dir() -> PathBuf {
    shared_dir(Path::new("")).join("unicode").join("17.0.0")
}

fn report(
    out: &mut impl Write,
    what: &str,
    total: usize,
    failures: &[Failure],
    verbose: bool,
) -> io::Result<()> {
    writeln!(
        out,
        "{what}: {} passed, {} failed (of {total})",
        total - failures.len(),
        failures.len()
    )?;
    if verbose {
        for f in failures {
            writeln!(out, "{f}")?;
        }
    }
    Ok(())
}

pub(crate) fn run(args: &ConformanceArgs, out: &mut impl Write) -> io::Result<Outcome> {
    let dir = args.dir.clone().unwrap_or_else(default_dir);
    let detection = read_data_file(&dir.join("LinkDetectionTest.txt"))
        .map_err(|e| io::Error::new(io::ErrorKind::NotFound, e))?;
    let cases = parse_detection_tests(&detection);
    let finder = LinkFinder::new();
    let fast = run_detection(&cases, |s| mark(s, finder.links(s)));
    let reference = run_detection(&cases, |s| {
        mark(s, oracle::find_links(s.as_bytes(), &TldPolicy::Iana))
    });
    writeln!(out, "{}", dir.join("LinkDetectionTest.txt").display())?;
    report(
        out,
        "  detection (finder)",
        cases.len(),
        &fast,
        args.verbose,
    )?;
    report(
        out,
        "  detection (oracle)",
        cases.len(),
        &reference,
        args.verbose,
    )?;
    let failed = !fast.is_empty() || !reference.is_empty();
    Ok(if failed { Outcome::Failed } else { Outcome::Ok })
}
