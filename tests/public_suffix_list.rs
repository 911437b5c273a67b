//! Every rule of the Public Suffix List that the `psl` package was generated from (its
//! `data/rules.txt`, the version `Cargo.lock` resolves) is a public suffix through the
//! public API, in its Unicode and its ASCII form: the generated filter in front of the
//! list's lookup (`src/psl_filter.rs`, `gen/src/psl.rs`) never hides an entry. A wildcard
//! rule is tried with a label in its place.

use std::path::Path;

#[test]
fn every_rule_of_the_list_is_a_public_suffix() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (path, version) = linkscan_gen::psl::locate_rules(workspace)
        .unwrap_or_else(|e| panic!("the psl package's rules file: {e}"));
    let rules = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let (mut checked, mut ascii_forms) = (0, 0);
    let mut missed = Vec::new();
    for rule in rules.lines().map(str::trim) {
        if rule.is_empty() || rule.starts_with("//") || rule.starts_with('!') {
            continue;
        }
        let host = match rule.strip_prefix("*.") {
            Some(rest) => format!("zz-probe.{rest}"),
            None => rule.to_string(),
        };
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
