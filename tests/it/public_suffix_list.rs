//! Every rule of the Public Suffix List that the `psl` package was generated from (its
//! `data/rules.txt`, the version `Cargo.lock` resolves) is a public suffix through the
//! public API, in its Unicode and its ASCII form: the generated filter in front of the
//! list's lookup (`src/psl_filter.rs`, `gen/src/psl.rs`) never hides an entry. A wildcard
//! rule is tried with a label in its place.

use std::path::{Path, PathBuf};

/// The rules file, its path and the package's version.
fn rules_file() -> (String, PathBuf, String) {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (path, version) = linkscan_gen::psl::locate_rules(workspace)
        .unwrap_or_else(|e| panic!("the psl package's rules file: {e}"));
    let rules = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    (rules, path, version)
}

/// A host that each rule but an exception matches: the rule itself, or a wildcard rule
/// with a label in place of its `*`.
fn rule_hosts(rules: &str) -> impl Iterator<Item = String> + '_ {
    rules
        .lines()
        .map(str::trim)
        .filter(|rule| !(rule.is_empty() || rule.starts_with("//") || rule.starts_with('!')))
        .map(|rule| match rule.strip_prefix("*.") {
            Some(rest) => format!("zz-probe.{rest}"),
            None => rule.to_string(),
        })
}

#[test]
fn every_rule_of_the_list_is_a_public_suffix() {
    let (rules, path, version) = rules_file();
    let (mut checked, mut ascii_forms) = (0, 0);
    let mut missed = Vec::new();
    for host in rule_hosts(&rules) {
        let mut forms = vec![host.clone(), host.to_uppercase()];
        if !host.is_ascii() {
            let ascii = idna::domain_to_ascii(&host)
                .unwrap_or_else(|e| panic!("{host:?} has no ASCII form: {e:?}"));
            forms.push(ascii);
            ascii_forms += 1;
        }
        for form in forms {
            if !linkscan::is_public_suffix(&form) {
                missed.push(form);
            }
        }
        checked += 1;
    }
    assert!(
        checked > 9_000,
        "only {checked} rules in {}",
        path.display()
    );
    assert!(ascii_forms > 300, "only {ascii_forms} Unicode rules");
    assert!(
        missed.is_empty(),
        "{} forms of the {checked} rules of {version} are no public suffix: {:?}",
        missed.len(),
        &missed[..missed.len().min(20)]
    );
}

/// Through the conformant finder, which drops a URL whose host is an entry of the list's
/// ICANN section and keeps one of its private section: every rule of the list (a wildcard
/// with a label in its place), as the host of `https://HOST/` and in upper case, is
/// dropped or kept as the `psl` package places it. The finder skips the lookup under the
/// TLDs that have no ICANN entry below them (a generated filter of TLDs); this holds it to
/// every entry of every TLD.
#[test]
fn the_conformant_finder_drops_every_icann_entry_and_no_private_one() {
    let (rules, _, _) = rules_file();
    let finder = linkscan::LinkFinder::new();
    let (mut icann, mut private) = (0, 0);
    let mut wrong = Vec::new();
    for host in rule_hosts(&rules) {
        if !host.contains('.') {
            continue; // a TLD alone is no host of a link
        }
        let ascii = idna::domain_to_ascii(&host).unwrap_or_else(|_| host.clone());
        let dropped = match psl::suffix(ascii.as_bytes()) {
            Some(s) if s.as_bytes() == ascii.as_bytes() => s.typ() == Some(psl::Type::Icann),
            _ => panic!("{host} is no entry of the psl package"),
        };
        if dropped {
            icann += 1;
        } else {
            private += 1;
        }
        // (Upper case in ASCII only: a TLD is matched ignoring ASCII case, so `РУС` is no
        // TLD and `https://БИЗ.РУС/` no link, whatever its section.)
        let mut forms = vec![host.clone()];
        if host.is_ascii() {
            forms.push(host.to_uppercase());
        }
        for form in forms {
            let text = format!("see https://{form}/ now");
            let linked = finder
                .links(&text)
                .any(|l| l.as_str() == format!("https://{form}/"));
            if linked == dropped {
                wrong.push(form);
            }
        }
    }
    assert!(
        icann > 5_000 && private > 3_000,
        "{icann} ICANN, {private} private"
    );
    assert!(
        wrong.is_empty(),
        "{} hosts linked against their section: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(20)]
    );
}
