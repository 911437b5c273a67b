//! The generator against the data: the committed `src/tables.rs` never drifts from it,
//! the next Unicode version's draft folder can be rendered by pointing the generator at
//! it, and `--check` tells an up-to-date file from a stale one by its exit status.
//!
//! Data comes from `$LINKSCAN_SHARED`, else `../shared` beside the workspace.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use linkscan_gen::{bits, load, lookup, parse_rendered, render, Inputs, RenderedTables};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("gen/ lives inside the workspace")
        .to_path_buf()
}

fn shared() -> PathBuf {
    std::env::var_os("LINKSCAN_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("..").join("shared"))
}

/// `path`, or a panic naming it and where the data is published.
fn data_file(path: PathBuf) -> PathBuf {
    assert!(
        path.is_file(),
        "missing data file {}: the Unicode files are published at \
         https://www.unicode.org/Public/<version>/ and the TLD list at \
         https://data.iana.org/TLD/tlds-alpha-by-domain.txt; set LINKSCAN_SHARED to the \
         folder holding unicode/ and iana/",
        path.display()
    );
    path
}

fn unicode(version: &str) -> PathBuf {
    let dir = shared().join("unicode").join(version);
    data_file(dir.join("LinkTerm.txt"));
    dir
}

fn tld_list() -> PathBuf {
    data_file(shared().join("iana").join("tlds-alpha-by-domain.txt"))
}

fn committed_tables() -> PathBuf {
    workspace().join("src").join("tables.rs")
}

/// A file in the temporary folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!(
            "linkscan-gen-test-{}-{name}.rs",
            std::process::id()
        )))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs the generator binary with `args`.
fn gen(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_linkscan-gen"))
        .args(args)
        .output()
        .expect("run linkscan-gen")
}

fn describe(out: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The arguments that render the 18.0.0 draft: its own property files and IDNA table, and
/// PropList.txt and IdentifierStatus.txt from 17.0.0 (the draft folder has none).
fn draft_args(out: &Path) -> Vec<PathBuf> {
    let draft = unicode("18.0.0-draft");
    let v17 = unicode("17.0.0");
    [
        "--unicode".into(),
        draft,
        "--proplist".into(),
        data_file(v17.join("PropList.txt")),
        "--identifier-status".into(),
        data_file(v17.join("security").join("IdentifierStatus.txt")),
        "--tlds".into(),
        tld_list(),
        "--out".into(),
        out.to_path_buf(),
    ]
    .into()
}

fn refs(args: &[PathBuf]) -> Vec<&Path> {
    args.iter().map(PathBuf::as_path).collect()
}

fn link_term(tables: &RenderedTables, cp: u32) -> u8 {
    lookup(&tables.0, &tables.1, cp) & bits::LINK_TERM_MASK
}

fn host_char(tables: &RenderedTables, cp: u32) -> bool {
    lookup(&tables.0, &tables.1, cp) & bits::HOST_CHAR != 0
}

fn read_rendered(path: &Path) -> (String, RenderedTables) {
    let src = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let tables = parse_rendered(&src)
        .unwrap_or_else(|| panic!("{} does not hold the generated arrays", path.display()));
    (src, tables)
}

#[test]
fn tables_never_drift_from_data() {
    let inputs = Inputs::from_dirs(&unicode("17.0.0"), &tld_list());
    let data = load(&inputs).unwrap_or_else(|e| panic!("{e}"));
    let expected = render(&data);
    let path = committed_tables();
    let committed = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    if committed != expected {
        let line = committed
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(expected.lines().count()));
        panic!(
            "{} is out of date with the data in {} (first difference at line {}): \
             run `cargo run -p linkscan-gen` and commit the result",
            path.display(),
            shared().display(),
            line + 1
        );
    }
}

/// Unicode 18.0 adds U+2E60..U+2E63 (wiggly exclamation marks and parentheses with middle
/// ring) to the link properties; in 17.0 they are unassigned, so Hard with no bracket.
#[test]
fn renders_the_18_draft_from_its_folder() {
    let tmp = TempFile::new("draft");
    let out = gen(&refs(&draft_args(&tmp.0)));
    assert!(out.status.success(), "{}", describe(&out));
    let (src, draft) = read_rendered(&tmp.0);
    assert!(
        src.contains("UNICODE_VERSION: &str = \"18.0.0-draft\""),
        "version not recorded"
    );

    assert_eq!(link_term(&draft, 0x2E60), bits::SOFT);
    assert_eq!(link_term(&draft, 0x2E61), bits::SOFT);
    assert_eq!(link_term(&draft, 0x2E62), bits::OPEN);
    assert_eq!(link_term(&draft, 0x2E63), bits::CLOSE);
    assert_eq!(draft.2.get(&0x2E63), Some(&0x2E62));
    assert_eq!(draft.2.get(&0x2E62), None, "an Open has no Link_Bracket");
    // The draft's own IdnaMappingTable.txt was used: U+0558 is new (mapped) in 18.0.
    assert!(host_char(&draft, 0x0558));
    // Unchanged entries stay.
    assert_eq!(draft.2.get(&u32::from(')')), Some(&u32::from('(')));
    assert_eq!(link_term(&draft, u32::from(' ')), bits::HARD);

    let (_, v17) = read_rendered(&committed_tables());
    for cp in 0x2E60..=0x2E63 {
        assert_eq!(link_term(&v17, cp), bits::HARD, "U+{cp:04X} in 17.0.0");
        assert_eq!(v17.2.get(&cp), None, "U+{cp:04X} in 17.0.0");
    }
    assert!(!host_char(&v17, 0x0558));
    assert_eq!(v17.2.get(&u32::from(')')), Some(&u32::from('(')));
}

#[test]
fn check_mode_exit_status() {
    let check = Path::new("--check");
    let out_flag = Path::new("--out");
    let unicode_flag = Path::new("--unicode");
    let tlds_flag = Path::new("--tlds");
    let v17 = unicode("17.0.0");
    let tlds = tld_list();

    // The committed file, with the default inputs: up to date.
    let committed = committed_tables();
    let out = gen(&[
        check,
        unicode_flag,
        &v17,
        tlds_flag,
        &tlds,
        out_flag,
        &committed,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));

    // A freshly rendered draft file is up to date for the draft inputs...
    let tmp = TempFile::new("check");
    let args = draft_args(&tmp.0);
    let out = gen(&refs(&args));
    assert!(out.status.success(), "{}", describe(&out));
    let rendered = std::fs::read(&tmp.0).expect("rendered file");
    let mut with_check = refs(&args);
    with_check.insert(0, check);
    let out = gen(&with_check);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));

    // ...and stale for the 17.0.0 data: exit 1, the file left as it was.
    let out = gen(&[
        check,
        unicode_flag,
        &v17,
        tlds_flag,
        &tlds,
        out_flag,
        &tmp.0,
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cargo run -p linkscan-gen"),
        "{}",
        describe(&out)
    );
    assert_eq!(std::fs::read(&tmp.0).expect("file"), rendered);

    // A hand edit makes it stale too.
    let mut edited = rendered.clone();
    let at = edited.len() - 3;
    edited.insert(at, b' ');
    std::fs::write(&tmp.0, &edited).expect("write");
    let out = gen(&with_check);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));

    // Missing data is an error of its own (exit 2) that names the file.
    let nowhere = std::env::temp_dir().join("linkscan-gen-test-no-such-folder");
    let out = gen(&[check, unicode_flag, &nowhere, out_flag, &tmp.0]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("LinkTerm.txt"),
        "{}",
        describe(&out)
    );
}

/// HostChar as `initiation.md` defines it since 2026-11, in the committed 17.0 tables.
#[test]
fn host_char_follows_the_idna2008_and_forbidden_code_point_rules() {
    let (_, v17) = read_rendered(&committed_tables());
    // `mapped` to a space or to ASCII punctuation: out (spec section 1.4).
    for cp in [
        0x00A0, 0x2000, 0x200A, 0x3000, 0xFF0C, 0xFF1A, 0xFF08, 0xFF09, 0xFF0F,
    ] {
        assert!(
            !host_char(&v17, cp),
            "U+{cp:04X} is mapped to a forbidden code point"
        );
    }
    // `mapped` to letters, digits or a dot: in.
    for cp in [0xFF45, 0xFF10, 0x00C0, 0x3002, 0xFF0E, 0x2160] {
        assert!(host_char(&v17, cp), "U+{cp:04X} maps to host characters");
    }
    // `valid` with NV8 or XV8: out; plain `valid`: in.
    assert!(!host_char(&v17, 0x3001), "IDEOGRAPHIC COMMA is NV8");
    assert!(!host_char(&v17, 0x00A7), "SECTION SIGN is NV8");
    assert!(host_char(&v17, 0x4E2D));
    assert!(host_char(&v17, 0x00FC));
    // `deviation` (nontransitional processing keeps them): in.
    for cp in [0x00DF, 0x03C2, 0x200C, 0x200D] {
        assert!(host_char(&v17, cp), "U+{cp:04X} is a deviation character");
    }
    // `disallowed` and `ignored`: out.
    assert!(!host_char(&v17, 0x2028));
    assert!(!host_char(&v17, 0x00AD), "SOFT HYPHEN is ignored");
    // ASCII: `[-a-zA-Z0-9.]` only.
    for b in 0u8..0x80 {
        let expected = b.is_ascii_alphanumeric() || b == b'-' || b == b'.';
        assert_eq!(host_char(&v17, u32::from(b)), expected, "{:?}", b as char);
    }
}

/// The class Ignored: every `ignored` line of the mapping table, merged into ranges, none
/// of them HostChar or ASCII, in the data and in the committed tables.
#[test]
fn ignored_ranges_are_the_ignored_lines_of_the_mapping_table() {
    let data = load(&Inputs::from_dirs(&unicode("17.0.0"), &tld_list())).expect("17.0 data");
    let table = std::fs::read_to_string(unicode("17.0.0").join("IdnaMappingTable.txt"))
        .expect("mapping table");
    let mut expected = std::collections::BTreeSet::new();
    for line in table.lines() {
        let fields: Vec<&str> = line.split('#').next().unwrap_or("").split(';').collect();
        if fields.len() < 2 || fields[1].trim() != "ignored" {
            continue;
        }
        let range = fields[0].trim();
        let (lo, hi) = range.split_once("..").unwrap_or((range, range));
        let (lo, hi) = (
            u32::from_str_radix(lo, 16).expect("hex"),
            u32::from_str_radix(hi, 16).expect("hex"),
        );
        expected.extend(lo..=hi);
    }
    let got: std::collections::BTreeSet<u32> =
        data.ignored.iter().flat_map(|&(lo, hi)| lo..=hi).collect();
    assert_eq!(got, expected);
    assert!(got.contains(&0xAD) && got.contains(&0x200B) && got.contains(&0xE01EF));
    for pair in data.ignored.windows(2) {
        assert!(
            pair[0].1 + 1 < pair[1].0,
            "ranges sorted, disjoint, merged: {pair:?}"
        );
    }
    let (_, v17) = read_rendered(&committed_tables());
    for &cp in &got {
        assert!(cp >= 0x80 && !host_char(&v17, cp), "U+{cp:04X}");
    }
    let src = std::fs::read_to_string(committed_tables()).expect("committed tables");
    assert!(
        src.contains(&format!(
            "pub static IDNA_IGNORED: [(u32, u32); {}]",
            data.ignored.len()
        )),
        "the committed tables hold the ranges"
    );
}
