//! The options of `find` and `redact` for records (`--field`, `--id-field`, `--out`): JSON
//! Lines and Parquet inputs, where one field of each record is the text scanned.
//!
//! Invariant: a field is a dotted path (`meta.body`) of at least one non-empty name,
//! checked when the command line is parsed ([`FieldPath::parse`]), so the readers never
//! see an empty name; what the options mean is `crate::records`'s.

use std::path::PathBuf;

use clap::Args;

/// `--field`: the text of each record (shared by `find` and `redact`).
#[derive(Args, Debug, Clone)]
pub(crate) struct RecordArgs {
    /// Read the inputs as records (JSON Lines, plain or gzip, or Parquet) and scan only
    /// this field of each (a dotted path for nested fields: meta.body).
    #[arg(long, value_name = "NAME", value_parser = FieldPath::parse)]
    pub(crate) field: Option<FieldPath>,
}

/// A dotted field path, each name non-empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FieldPath {
    /// The path as given, for messages.
    pub(crate) dotted: String,
    pub(crate) names: Vec<String>,
}

impl FieldPath {
    /// Parses `a.b.c`; an empty name (`a..b`, `.a`) is refused.
    pub(crate) fn parse(value: &str) -> Result<FieldPath, String> {
        let names: Vec<String> = value.split('.').map(str::to_owned).collect();
        if names.iter().any(String::is_empty) {
            return Err(format!(
                "{value:?} is not a field: names joined by dots, none empty"
            ));
        }
        Ok(FieldPath {
            dotted: value.to_owned(),
            names,
        })
    }
}

/// Where `redact --field` writes.
#[derive(Args, Debug, Clone)]
pub(crate) struct RedactOut {
    /// With --field: write the redacted records to this file (default: standard output),
    /// in the input's format (JSON Lines, gzip again if the input was, or Parquet).
    #[arg(long, value_name = "FILE", requires = "field")]
    pub(crate) out: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_dotted_names() {
        assert_eq!(
            FieldPath::parse("meta.body").unwrap().names,
            ["meta", "body"]
        );
        assert_eq!(FieldPath::parse("text").unwrap().names, ["text"]);
        for bad in ["", ".", "a.", ".a", "a..b"] {
            assert!(FieldPath::parse(bad).is_err(), "{bad}");
        }
    }
}
