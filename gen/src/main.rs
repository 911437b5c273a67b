//! `linkscan-gen`: writes (or checks) `src/tables.rs` from the Unicode and IANA data, and
//! `src/psl_filter.rs` from the `psl` package's rules.
//!
//! ```text
//! cargo run -p linkscan-gen                       # regenerate src/tables.rs
//! cargo run -p linkscan-gen -- --check            # fail if src/tables.rs is out of date
//! cargo run -p linkscan-gen -- --unicode ../shared/unicode/18.0.0-draft \
//!     --proplist ../shared/unicode/17.0.0/PropList.txt \
//!     --identifier-status ../shared/unicode/17.0.0/security/IdentifierStatus.txt \
//!     --out /tmp/tables.rs
//! ```
//!
//! Data is read from `../shared` beside the workspace, or from `$LINKSCAN_SHARED`.

use std::path::PathBuf;
use std::process::ExitCode;

use linkscan_gen::{load, psl, render, Inputs};

const USAGE: &str = "\
usage: linkscan-gen [--check] [--out FILE] [--unicode DIR] [--tlds FILE]
                    [--idna FILE] [--proplist FILE] [--identifier-status FILE]
                    [--unicode-version VERSION] [--psl-out FILE] [--psl-rules FILE]

Writes src/tables.rs from the UTS #58 property files of one Unicode version (DIR, default
<shared>/unicode/17.0.0), the UTS #46 IdnaMappingTable.txt, PropList.txt and the UTS #39
security/IdentifierStatus.txt (default: inside DIR) and the IANA TLD list (default
<shared>/iana/tlds-alpha-by-domain.txt). <shared> is $LINKSCAN_SHARED, or ../shared beside
the workspace. Also writes src/psl_filter.rs (--psl-out) from the rules of the `psl` package
that Cargo.lock resolves (its data/rules.txt, found with `cargo metadata`; --psl-rules FILE
instead). --check compares instead of writing and exits 1 when a file differs.";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("linkscan-gen: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .ok_or("no workspace folder")?;
    let shared = std::env::var_os("LINKSCAN_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("..").join("shared"));

    let mut check = false;
    let mut out = workspace.join("src").join("tables.rs");
    let mut psl_out = workspace.join("src").join("psl_filter.rs");
    let mut psl_rules = None;
    let mut unicode = shared.join("unicode").join("17.0.0");
    let mut tlds = shared.join("iana").join("tlds-alpha-by-domain.txt");
    let (mut idna, mut proplist, mut idstatus, mut version) = (None, None, None, None);

    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--check" => check = true,
            "--out" => out = value("--out")?.into(),
            "--psl-out" => psl_out = value("--psl-out")?.into(),
            "--psl-rules" => psl_rules = Some(PathBuf::from(value("--psl-rules")?)),
            "--unicode" => unicode = value("--unicode")?.into(),
            "--tlds" => tlds = value("--tlds")?.into(),
            "--idna" => idna = Some(PathBuf::from(value("--idna")?)),
            "--proplist" => proplist = Some(PathBuf::from(value("--proplist")?)),
            "--identifier-status" => idstatus = Some(PathBuf::from(value("--identifier-status")?)),
            "--unicode-version" => version = Some(value("--unicode-version")?),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }

    let mut inputs = Inputs::from_dirs(&unicode, &tlds);
    if let Some(p) = idna {
        inputs.idna_table = p;
    }
    if let Some(p) = proplist {
        inputs.prop_list = p;
    }
    if let Some(p) = idstatus {
        inputs.identifier_status = p;
    }
    if let Some(v) = version {
        inputs.unicode_version = v;
    }

    let data = load(&inputs).map_err(|e| e.to_string())?;
    let source = render(&data);
    let (rules_path, psl_version) = match psl_rules {
        Some(path) => (path, "psl (rules given)".to_string()),
        None => psl::locate_rules(&workspace).map_err(|e| e.to_string())?,
    };
    let rules = std::fs::read_to_string(&rules_path)
        .map_err(|e| format!("cannot read {}: {e}", rules_path.display()))?;
    let filter = psl::render_filter(&rules, &psl_version).map_err(|e| e.to_string())?;
    let mut code = ExitCode::SUCCESS;
    for (out, source) in [(out, source), (psl_out, filter)] {
        if check {
            let current = std::fs::read_to_string(&out).unwrap_or_default();
            if current == source {
                println!("{} is up to date", out.display());
            } else {
                eprintln!(
                    "{} is out of date with the data: run `cargo run -p linkscan-gen`",
                    out.display()
                );
                code = ExitCode::FAILURE;
            }
        } else {
            std::fs::write(&out, source)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            println!("wrote {}", out.display());
        }
    }
    Ok(code)
}
