//! Inputs shared by the benchmarks.
//!
//! * The real corpora of the shared data folder (`$LINKSCAN_SHARED/corpus`, default
//!   `../shared/corpus`): `email-en.mbox`, `email-intl.txt`.
//! * Generated text (`corpus/make_samples.py`, cached in `target/bench-corpus/`): link-free
//!   prose in many scripts, and a link-dense multilingual text built from the official
//!   test lines.
//! * The adversarial set: single lines built to defeat a detector — repeated dots, `@`,
//!   brackets, host characters without a TLD, candidates whose host walks would overlap —
//!   at any size, for the linear-time claim.
#![allow(dead_code)] // each bench target uses a part of this module

use std::path::PathBuf;
use std::process::Command;

/// The shared data folder.
pub fn shared() -> PathBuf {
    linkscan::conformance::shared_dir(env!("CARGO_MANIFEST_DIR").as_ref())
}

/// A corpus file, or `None` (with a message) when it is missing.
pub fn corpus(name: &str) -> Option<Vec<u8>> {
    let path = shared().join("corpus").join(name);
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            eprintln!("skipping {}: {e}", path.display());
            None
        }
    }
}

/// A generated sample (`prose.txt` or `dense.txt`), made by `corpus/make_samples.py` on
/// first use.
pub fn sample(name: &str) -> Option<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target").join("bench-corpus");
    let path = dir.join(name);
    if !path.exists() {
        let status = Command::new("python3")
            .arg(root.join("corpus").join("make_samples.py"))
            .arg(&dir)
            .arg("--shared")
            .arg(shared())
            .status();
        if !matches!(status, Ok(s) if s.success()) {
            eprintln!("skipping {name}: corpus/make_samples.py failed ({status:?})");
            return None;
        }
    }
    std::fs::read(&path).ok()
}

/// An adversarial line: `unit` repeated to at least `size` bytes.
fn repeat(unit: &str, size: usize) -> Vec<u8> {
    unit.repeat(size.div_ceil(unit.len())).into_bytes()
}

/// The adversarial inputs of about `size` bytes, each one line: `(name, bytes)`.
pub fn adversarial(size: usize) -> Vec<(&'static str, Vec<u8>)> {
    let mut url_brackets = b"x.com/".to_vec();
    url_brackets.extend(repeat("(", size));
    vec![
        // Candidates whose host runs overlap: the reference implementation's quadratic case.
        ("host-runs -x.com．", repeat("-x.com．", size)),
        ("dots a.", repeat("a.", size)),
        ("ats a@", repeat("a@", size)),
        ("emails a@b.com", repeat("a@b.com", size)),
        ("brackets (", repeat("(", size)),
        ("path brackets x.com/(((", url_brackets),
        ("tlds .com", repeat(".com", size)),
        ("no tld ab-cd.ef1", repeat("ab-cd.ef1", size)),
        ("scripts a.α.中.", repeat("a.α.中.ا.", size)),
        // The pattern of linkify's issue #115 (quadratic there).
        ("linkify#115 a.a~", repeat("a.a~", size)),
        ("soft x.com/a!!!", {
            let mut v = b"x.com/a".to_vec();
            v.extend(repeat("!.,", size));
            v
        }),
    ]
}
