//! The public-suffix filters: which hosts can be entries of the Public Suffix List, as
//! the two Bloom filters of `src/psl_filter.rs`.
//!
//! The list itself is the `psl` crate's (compiled into linkscan as code); its lookup costs
//! about 300 ns for a host it has not seen, most of `linkscan`'s time on text with many
//! distinct hosts. A host is an entry only if a rule matches it label for label: the rule
//! is the host itself, or a wildcard rule is `*.` and the host without its first label
//! (the list has wildcards only as a rule's first label). So this module takes the rules
//! the `psl` crate was generated from (`data/rules.txt` in its package, found with `cargo
//! metadata`, the version of `Cargo.lock`), in their ASCII form (Unicode labels by UTS
//! #46, as the library looks a host up), and keys each rule by its own key in one filter,
//! and each wildcard rule `*.rest` by the key of its rest in the same filter and by the
//! last (up to 8) bytes of its `.rest` in another ([`psl_key`] defines the keys, and the
//! lengths of those tails are written out, for the library to probe each). A host whose
//! keys are not in the filters is no entry, and the lookup is skipped; anything else is
//! looked up. Exceptions (`!www.ck`) only take entries away, and are not keyed.
//!
//! A third filter holds the TLDs under which the list's ICANN section has an entry
//! ([`icann_parents`]): the rules file has no sections, so each rule's section is the
//! `psl` package's own verdict on it (the package the library compiles, from the same
//! `Cargo.lock`); a rule it does not know as private counts as ICANN, so the filter can
//! only hold too many TLDs, never too few.
//!
//! The keys are defined once, in `src/psl_key.rs`, which the library and this generator
//! both compile; the generated file carries the hashes of a few keys, which a unit test of
//! the library recomputes.

use crate::{GenError, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

// The key's definition, shared with the library, which reads the filter with it.
#[path = "../../src/psl_key.rs"]
mod psl_key;
pub use psl_key::{
    host_words, key_bits, name_hash, tail_hash, tld_bit, ICANN_TLD_BITS_LOG2, OWN_WORDS_LOG2,
    SEED_OWN, SEED_REST, TAIL_MAX, TAIL_SHORT, TAIL_WORDS_LOG2,
};

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
/// skipped), in ASCII: each rule's own key but an exception's and a wildcard rule's, and
/// each wildcard rule's rest's key ([`name_hash`] from [`SEED_OWN`] and [`SEED_REST`]), all
/// for the first filter; and each wildcard rule's tail key ([`tail_hash`]), for the second,
/// with the tails' lengths.
#[derive(Debug, Default)]
pub struct RuleKeys {
    pub names: Vec<u64>,
    pub tails: Vec<u64>,
    pub tail_lengths: Vec<usize>,
}

/// The key of an ASCII name from `seed`.
pub fn name_key(seed: u64, name: &[u8]) -> u64 {
    let (first, last) = host_words(name);
    name_hash(seed, first, last, name.len())
}

/// The tail key of a wildcard rule's rest (`ck` of `*.ck`), and the tail's length: the
/// last [`TAIL_MAX`] bytes of `.rest`, or its last [`TAIL_SHORT`] when it is shorter
/// (`.ck`, `.nom.br`: a few rules, so that a host is probed at two lengths only; a host
/// under `.br` that a tail lets through is probed again by its rest).
pub fn tail_key(rest: &[u8]) -> (u64, usize) {
    let mut dotted = b".".to_vec();
    dotted.extend_from_slice(rest);
    // (No `.rest` is shorter than 3 bytes; one would be keyed whole, a length the
    // library then probes too.)
    let m = if dotted.len() >= TAIL_MAX {
        TAIL_MAX
    } else {
        TAIL_SHORT.min(dotted.len())
    };
    let (_, last) = host_words(&dotted);
    (tail_hash(last, m), m)
}

/// See [`RuleKeys`].
pub fn rule_keys(rules: &str) -> Result<RuleKeys> {
    let mut keys = RuleKeys::default();
    for line in rules.lines() {
        let rule = line.split_whitespace().next().unwrap_or("");
        if rule.is_empty() || rule.starts_with("//") || rule.starts_with('!') {
            continue;
        }
        let labels: Vec<String> = rule.split('.').map(ascii_label).collect::<Result<_>>()?;
        let name = match labels.split_first() {
            Some((first, rest)) if first == "*" => rest.join("."),
            _ => labels.join("."),
        };
        if !name.is_ascii() || name.contains('*') {
            return Err(GenError(format!("rule {rule:?} has no ASCII form")));
        }
        if labels.first().is_some_and(|l| l == "*") {
            let (key, m) = tail_key(name.as_bytes());
            keys.tails.push(key);
            keys.tail_lengths.push(m);
            keys.names.push(name_key(SEED_REST, name.as_bytes()));
        } else {
            keys.names.push(name_key(SEED_OWN, name.as_bytes()));
        }
    }
    for v in [&mut keys.names, &mut keys.tails] {
        v.sort_unstable();
        v.dedup();
    }
    keys.tail_lengths.sort_unstable();
    keys.tail_lengths.dedup();
    Ok(keys)
}

/// The packed form of an ASCII TLD of 1 to 8 bytes, as the scanner packs the TLDs it
/// finds (`crate::tld` of the library: the bytes little-endian, each OR `0x20`); `None`
/// for any other label, which the scanner never packs.
pub fn pack_tld(label: &[u8]) -> Option<u64> {
    if label.is_empty() || label.len() > 8 || !label.is_ascii() {
        return None;
    }
    Some(
        label
            .iter()
            .rev()
            .fold(0u64, |word, &b| word << 8 | u64::from(b | 0x20)),
    )
}

/// The TLDs (lower case, sorted) under which the rules in `rules` have an entry of the
/// list's ICANN section: the last label of every rule of two labels or more (a wildcard
/// and an exception count) that the `psl` package does not place in the private section.
/// Only those the scanner packs ([`pack_tld`]); a longer or Unicode TLD is always looked
/// up.
pub fn icann_parents(rules: &str) -> Result<Vec<String>> {
    let mut parents = std::collections::BTreeSet::new();
    for line in rules.lines() {
        let rule = line.split_whitespace().next().unwrap_or("");
        if rule.is_empty() || rule.starts_with("//") {
            continue;
        }
        let exception = rule.starts_with('!');
        let labels: Vec<String> = rule
            .trim_start_matches('!')
            .split('.')
            .map(ascii_label)
            .collect::<Result<_>>()?;
        let Some(tld) = labels.last().filter(|_| labels.len() >= 2) else {
            continue;
        };
        // A name the rule matches, and whether the package places that very rule in the
        // private section.
        let name = labels
            .iter()
            .map(|l| if l == "*" { "x" } else { l.as_str() })
            .collect::<Vec<_>>()
            .join(".");
        let private = !exception
            && psl::suffix(name.as_bytes()).is_some_and(|s| {
                s.as_bytes() == name.as_bytes() && s.typ() == Some(psl::Type::Private)
            });
        if !private && pack_tld(tld.as_bytes()).is_some() {
            parents.insert(tld.clone());
        }
    }
    Ok(parents.into_iter().collect())
}

/// A filter of `2^words_log2` words with the bits of `keys` set.
pub fn filter(keys: &[u64], words_log2: u32) -> Vec<u64> {
    let mut words = vec![0u64; 1 << words_log2];
    for &k in keys {
        let (word, a, b) = key_bits(k, words_log2);
        words[word] |= 1 << a | 1 << b;
    }
    words
}

fn render_words(s: &mut String, words: &[u64]) {
    for chunk in words.chunks(4) {
        s.push_str("   ");
        for w in chunk {
            let _ = write!(s, " {w:#018x},");
        }
        s.push('\n');
    }
    s.push_str("];\n");
}

/// `src/psl_filter.rs` for the rules `rules` of `version`.
pub fn render_filter(rules: &str, version: &str) -> Result<String> {
    let keys = rule_keys(rules)?;
    let own = filter(&keys.names, OWN_WORDS_LOG2);
    let tails = filter(&keys.tails, TAIL_WORDS_LOG2);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// @generated by `cargo run -p linkscan-gen` — do not edit by hand.\n\
         // Regenerate with `cargo run -p linkscan-gen`; `--check` fails when this file is\n\
         // out of date with the rules of the `psl` package in Cargo.lock. Source:\n\
         //   data/rules.txt of {version}: {} keys, {} wildcard tails\n\
         \n\
         //! Generated public-suffix filters (see `gen/src/psl.rs` and `src/psl_key.rs`).\n\
         \n\
         /// The `psl` package whose rules the filters hold.\n\
         pub const PSL_VERSION: &str = {version:?};\n\
         \n\
         /// Seeds, names and their keys in the first filter, and a wildcard rule's rest and its\n\
         /// tail key, for a test that the library hashes as the generator does.\n\
         pub const PSL_NAME_SAMPLES: [(u64, &str, u64); 3] = [\n    ({SEED_OWN:#018x}, \"co.uk\", {:#018x}),\n    ({SEED_OWN:#018x}, \"S3.amazonaws.COM\", {:#018x}),\n    ({SEED_REST:#018x}, \"ck\", {:#018x}),\n];\n\
         pub const PSL_TAIL_SAMPLE: (&str, u64) = (\"ck\", {:#018x});\n\
         \n\
         /// The lengths of the wildcard rules' tails: the last (up to 8) bytes of `.rest`.\n\
         pub const PSL_TAIL_LENGTHS: [usize; {}] = {:?};\n\
         \n\
         /// The filter of the rules' own keys and the wildcard rules' rests' keys.\n\
         pub static PSL_FILTER: [u64; {}] = [",
        keys.names.len(),
        keys.tails.len(),
        name_key(SEED_OWN, b"co.uk"),
        name_key(SEED_OWN, b"s3.amazonaws.com"),
        name_key(SEED_REST, b"ck"),
        tail_key(b"ck").0,
        keys.tail_lengths.len(),
        keys.tail_lengths,
        own.len(),
    );
    render_words(&mut s, &own);
    let _ = writeln!(
        s,
        "\n/// The filter of the wildcard rules' tails.\npub static PSL_TAIL_FILTER: [u64; {}] = [",
        tails.len()
    );
    render_words(&mut s, &tails);
    let parents = icann_parents(rules)?;
    let mut bits = vec![0u64; 1 << (ICANN_TLD_BITS_LOG2 - 6)];
    for tld in &parents {
        let bit = pack_tld(tld.as_bytes()).map_or(0, tld_bit);
        bits[bit / 64] |= 1 << (bit % 64);
    }
    let _ = writeln!(
        s,
        "\n/// The TLDs (ASCII, at most 8 bytes) under which the list's ICANN section has an\n\
         /// entry.\n\
         pub const PSL_ICANN_PARENTS: [&str; {}] = [",
        parents.len()
    );
    for chunk in parents.chunks(10) {
        s.push_str("   ");
        for tld in chunk {
            let _ = write!(s, " {tld:?},");
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "];\n\n/// The filter of [`PSL_ICANN_PARENTS`], a bit per TLD (`crate::psl_key::tld_bit`).\n\
         pub static PSL_ICANN_PARENT_BITS: [u64; {}] = [",
        bits.len()
    );
    render_words(&mut s, &bits);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a filter of `2^words_log2` words holds a hash's two bits.
    fn holds(words: &[u64], hash: u64, words_log2: u32) -> bool {
        let (word, a, b) = key_bits(hash, words_log2);
        words[word] >> a & words[word] >> b & 1 == 1
    }

    /// The keys of a small list: every rule but an exception keyed by its ASCII form in
    /// the first filter, every wildcard by its rest there too and by its tail in the
    /// second, at the lengths a host is probed with; a host matched by a rule is found by
    /// its keys in any case.
    #[test]
    fn rules_are_keyed_as_hosts_are_probed() {
        let rules = "// a comment\n\nco.uk\n*.ck\n!www.ck\n*.x\n*.compute.amazonaws.com\n\
                     *.nom.br\n公司.cn\n";
        let keys = rule_keys(rules).unwrap();
        assert_eq!(
            keys.names.len(),
            6,
            "co.uk, 公司.cn and the four wildcards' rests"
        );
        assert_eq!(keys.tails.len(), 4);
        // `.x` is keyed whole; `.ck` and `.nom.br` by their last 3 bytes.
        assert_eq!(keys.tail_lengths, [2, 3, 8]);
        let names = filter(&keys.names, OWN_WORDS_LOG2);
        let tails = filter(&keys.tails, TAIL_WORDS_LOG2);
        for host in ["co.uk", "CO.UK", "xn--55qx5d.cn"] {
            assert!(
                holds(&names, name_key(SEED_OWN, host.as_bytes()), OWN_WORDS_LOG2),
                "{host}"
            );
        }
        for (host, rest) in [
            ("a.ck", "ck"),
            ("a.x", "x"),
            ("ec2-1-2-3-4.compute.amazonaws.com", "compute.amazonaws.com"),
            ("x.NOM.br", "nom.br"),
        ] {
            let (_, last) = host_words(host.as_bytes());
            assert!(
                keys.tail_lengths.iter().any(|&m| holds(
                    &tails,
                    tail_hash(last, m),
                    TAIL_WORDS_LOG2
                )),
                "{host}"
            );
            assert!(
                holds(&names, name_key(SEED_REST, rest.as_bytes()), OWN_WORDS_LOG2),
                "{rest}"
            );
        }
        assert!(rule_keys("a.*.b\n").is_err(), "a wildcard inside a rule");
    }

    /// The TLDs with ICANN entries below them: those of ICANN rules of two labels or more,
    /// wildcards and exceptions included, and not those with only private entries
    /// (`blogspot.com`), only themselves (`org`), or no short ASCII form.
    #[test]
    fn icann_parents_are_the_tlds_of_icann_rules_below_them() {
        let rules = "// c\ncom\nblogspot.com\norg\nco.uk\n*.ck\n!www.ck\n\
                     kawasaki.jp\n*.kawasaki.jp\n!city.kawasaki.jp\ngithub.io\ncom.io\n\
                     公司.cn\nxn--55qx5d.xn--fiqs8s\nsomething.verylongtld\n";
        assert_eq!(
            icann_parents(rules).unwrap(),
            ["ck", "cn", "io", "jp", "uk", "verylongtld"]
                .iter()
                .filter(|t| t.len() <= 8)
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
        );
        assert_eq!(pack_tld(b"Uk"), pack_tld(b"uk"));
        assert_eq!(
            pack_tld(b"uk"),
            Some(u64::from_le_bytes(*b"uk\0\0\0\0\0\0"))
        );
        assert_eq!(pack_tld(b"toolongtld"), None);
        assert_eq!(pack_tld("рф".as_bytes()), None);
    }
}
