//! The public-suffix filter: which last two labels of a host can make it an entry of the
//! Public Suffix List, as a Bloom filter of `src/psl_filter.rs`.
//!
//! The list itself is the `psl` crate's (compiled into linkscan as code); its lookup costs
//! about 300 ns for a host it has not seen, most of `linkscan`'s time on text with many
//! distinct hosts. A host is an entry only if a rule matches it label for label: the rule
//! is the host itself, or a wildcard rule is `*.` and the host without its first label
//! (the list has wildcards only as a rule's first label). So this module takes the rules
//! the `psl` crate was generated from (`data/rules.txt` in its package, found with `cargo
//! metadata`, the version of `Cargo.lock`), keys each rule by the hash of its ASCII form
//! (Unicode labels by UTS #46, as the library looks a host up), and sets two bits per key
//! in a Bloom filter of [`FILTER_BITS`] bits (a wildcard rule by its rest after `*.`, with
//! another seed). A host both of whose keys (itself, and its rest after the first label
//! with the wildcard seed) have a bit clear is no entry, and the lookup is skipped;
//! anything else is looked up. Exceptions (`!www.ck`) only take entries away, and are not keyed.
//!
//! The keys ([`key_hash`], [`key_bits`]) are defined once, in `src/psl_key.rs`, which
//! the library and this generator both compile; the generated file carries the hashes of
//! a few keys, which a unit test of the library recomputes.

use crate::{GenError, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

// The key's definition, shared with the library, which reads the filter with it.
#[path = "../../src/psl_key.rs"]
mod psl_key;
pub use psl_key::{key_bits, key_hash, FILTER_BITS, SEED, SEED_WILDCARD};

/// The rules file of the `psl` package that `Cargo.lock` resolves, and its version:
/// `cargo metadata` run in `workspace`.
pub fn locate_rules(workspace: &Path) -> Result<(PathBuf, String)> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(workspace)
        .output()
        .map_err(|e| GenError(format!("cannot run cargo metadata: {e}")))?;
    if !out.status.success() {
        return Err(GenError(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let json = String::from_utf8_lossy(&out.stdout);
    // Each package's `"manifest_path":"…/psl-<version>/Cargo.toml"`.
    for piece in json.split("\"manifest_path\":\"").skip(1) {
        let Some(path) = piece.split('"').next() else {
            continue;
        };
        let manifest = PathBuf::from(path.replace("\\\\", "\\"));
        let Some(dir) = manifest.parent() else {
            continue;
        };
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if let Some(version) = name.as_deref().and_then(|n| n.strip_prefix("psl-")) {
            if version.starts_with(|c: char| c.is_ascii_digit()) {
                return Ok((dir.join("data").join("rules.txt"), format!("psl {version}")));
            }
        }
    }
    Err(GenError("cargo metadata names no psl package".into()))
}

/// The ASCII form of one label (UTS #46 for a Unicode one); `*` stays.
fn ascii_label(label: &str) -> Result<String> {
    if label == "*" || label.is_ascii() {
        return Ok(label.to_ascii_lowercase());
    }
    idna::domain_to_ascii(label).map_err(|e| GenError(format!("label {label:?}: {e:?}")))
}

/// The keys of the rules in `rules` (one rule a line; `//` comments and blank lines
/// skipped): the hash of each rule but an exception, in ASCII; a wildcard rule's rest
/// after `*.`, with [`SEED_WILDCARD`].
pub fn rule_keys(rules: &str) -> Result<Vec<u64>> {
    let mut keys = Vec::new();
    for line in rules.lines() {
        let rule = line.split_whitespace().next().unwrap_or("");
        if rule.is_empty() || rule.starts_with("//") || rule.starts_with('!') {
            continue;
        }
        let labels: Vec<String> = rule.split('.').map(ascii_label).collect::<Result<_>>()?;
        let key = match labels.split_first() {
            Some((first, rest)) if first == "*" => {
                key_hash(SEED_WILDCARD, rest.join(".").as_bytes())
            }
            _ => key_hash(SEED, labels.join(".").as_bytes()),
        };
        keys.push(key.ok_or_else(|| GenError(format!("rule {rule:?} is not ASCII")))?);
    }
    keys.sort_unstable();
    keys.dedup();
    Ok(keys)
}

/// The filter's words with the bits of `keys` set.
pub fn filter(keys: &[u64]) -> Vec<u64> {
    let mut words = vec![0u64; FILTER_BITS / 64];
    for &k in keys {
        let (a, b) = key_bits(k);
        words[a / 64] |= 1 << (a % 64);
        words[b / 64] |= 1 << (b % 64);
    }
    words
}

/// `src/psl_filter.rs` for the rules `rules` of `version`.
pub fn render_filter(rules: &str, version: &str) -> Result<String> {
    let keys = rule_keys(rules)?;
    let words = filter(&keys);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// @generated by `cargo run -p linkscan-gen` — do not edit by hand.\n\
         // Regenerate with `cargo run -p linkscan-gen`; `--check` fails when this file is\n\
         // out of date with the rules of the `psl` package in Cargo.lock. Source:\n\
         //   data/rules.txt of {version}: {} keys\n\
         \n\
         //! Generated public-suffix filter (see `gen/src/psl.rs`).\n\
         \n\
         /// The `psl` package whose rules the filter holds.\n\
         pub const PSL_VERSION: &str = {version:?};\n\
         \n\
         /// Keys and their hashes, for a test that the library hashes as the generator does.\n\
         pub const PSL_KEY_SAMPLES: [(u64, &str, u64); 3] = [\n    ({SEED:#018x}, \"co.uk\", {:#018x}),\n    ({SEED:#018x}, \"S3.amazonaws.COM\", {:#018x}),\n    ({SEED_WILDCARD:#018x}, \"ck\", {:#018x}),\n];\n\
         \n\
         /// The filter: bit `i` is bit `i % 64` of word `i / 64`.\n\
         pub static PSL_FILTER: [u64; {}] = [",
        keys.len(),
        key_hash(SEED, b"co.uk").unwrap_or(0),
        key_hash(SEED, b"s3.amazonaws.com").unwrap_or(0),
        key_hash(SEED_WILDCARD, b"ck").unwrap_or(0),
        words.len(),
    );
    for chunk in words.chunks(4) {
        s.push_str("   ");
        for w in chunk {
            let _ = write!(s, " {w:#018x},");
        }
        s.push('\n');
    }
    s.push_str("];\n");
    Ok(s)
}
