//! The table generator behind `src/tables.rs`.
//!
//! Reads the UTS #58 property files of one Unicode version (`LinkTerm.txt`, `LinkEmail.txt`,
//! `LinkBracket.txt`), the UTS #46 `IdnaMappingTable.txt`, `PropList.txt` (Bidi_Control),
//! the UTS #39 `IdentifierStatus.txt` and the IANA root zone list, and renders them as Rust
//! source:
//!
//! * one property byte per code point (see [`bits`]), stored as a two-level table: the code
//!   point's high bits select an entry of `PROPS_INDEX`, which names a deduplicated block of
//!   [`BLOCK_LEN`] bytes in `PROPS_BLOCKS`;
//! * the Link_Bracket pairs, sorted by the closing bracket;
//! * the TLD set: every IANA entry in lower case, plus the Punycode-decoded Unicode form of
//!   each `XN--` entry.
//!
//! Invariants: every code point 0..=0x10FFFF has exactly one property byte; values that a
//! file does not list take the file's documented default (`@missing`): Hard for Link_Term,
//! No for the binary properties. The rendering is deterministic, so `--check` can compare
//! the committed file byte for byte.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// Code points per block of the two-level table.
pub const BLOCK_LEN: usize = 128;
/// Number of code points (0..=0x10FFFF).
pub const CODE_POINTS: usize = 0x11_0000;

/// The meaning of each bit of a property byte.
pub mod psl;

pub mod bits {
    /// Mask of the Link_Term value (the low three bits).
    pub const LINK_TERM_MASK: u8 = 0b0000_0111;
    /// Link_Term=Include.
    pub const INCLUDE: u8 = 0;
    /// Link_Term=Hard.
    pub const HARD: u8 = 1;
    /// Link_Term=Soft.
    pub const SOFT: u8 = 2;
    /// Link_Term=Open.
    pub const OPEN: u8 = 3;
    /// Link_Term=Close.
    pub const CLOSE: u8 = 4;
    /// Link_Email=Yes.
    pub const LINK_EMAIL: u8 = 1 << 3;
    /// HostChar as `initiation.md` defines it: UTS #46 `valid` or `deviation` without the
    /// NV8/XV8 marker, `mapped` to nothing but `[a-z0-9.-]` among ASCII, ASCII
    /// `[-a-zA-Z0-9.]`, U+FF0E and U+3002.
    pub const HOST_CHAR: u8 = 1 << 4;
    /// IDNA2008-valid: UTS #46 status `valid` without the NV8 or XV8 marker.
    pub const IDNA2008_VALID: u8 = 1 << 5;
    /// Identifier_Status=Allowed (UTS #39).
    pub const IDENTIFIER_ALLOWED: u8 = 1 << 6;
    /// Bidi_Control=Yes.
    pub const BIDI_CONTROL: u8 = 1 << 7;
}

/// Where the input files are.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// Folder with `LinkTerm.txt`, `LinkEmail.txt`, `LinkBracket.txt`.
    pub unicode_dir: PathBuf,
    /// `IdnaMappingTable.txt` (default: in `unicode_dir`).
    pub idna_table: PathBuf,
    /// `PropList.txt` (default: in `unicode_dir`).
    pub prop_list: PathBuf,
    /// `IdentifierStatus.txt` (default: `unicode_dir/security`).
    pub identifier_status: PathBuf,
    /// The IANA TLD list.
    pub tlds: PathBuf,
    /// The Unicode version to record (default: the name of `unicode_dir`).
    pub unicode_version: String,
}

impl Inputs {
    /// The default file locations inside a Unicode data folder.
    pub fn from_dirs(unicode_dir: &Path, tlds: &Path) -> Inputs {
        let version = unicode_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Inputs {
            unicode_dir: unicode_dir.to_path_buf(),
            idna_table: unicode_dir.join("IdnaMappingTable.txt"),
            prop_list: unicode_dir.join("PropList.txt"),
            identifier_status: unicode_dir.join("security").join("IdentifierStatus.txt"),
            tlds: tlds.to_path_buf(),
            unicode_version: version,
        }
    }
}

/// An error while reading or parsing the data.
#[derive(Debug)]
pub struct GenError(pub String);

impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenError {}

type Result<T> = std::result::Result<T, GenError>;

/// The data read from the input files, before rendering.
#[derive(Clone, Debug)]
pub struct Data {
    /// One property byte per code point.
    pub props: Vec<u8>,
    /// (close, open) pairs of Link_Bracket, sorted by close.
    pub brackets: Vec<(u32, u32)>,
    /// The `ignored` code points of `IdnaMappingTable.txt` (class Ignored of
    /// `initiation.md`), as sorted, merged, inclusive ranges.
    pub ignored: Vec<(u32, u32)>,
    /// Every TLD: lower-case ASCII entries and decoded Unicode forms, sorted, deduplicated.
    pub tlds: Vec<String>,
    /// The Unicode version recorded in the output.
    pub unicode_version: String,
    /// The version line of the TLD list.
    pub tld_version: String,
    /// `(file name, date line)` of each input, for the provenance comment.
    pub sources: Vec<(String, String)>,
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| {
        GenError(format!(
            "cannot read {}: {e} (the Unicode data files are published at \
             https://www.unicode.org/Public/<version>/ and the TLD list at \
             https://data.iana.org/TLD/tlds-alpha-by-domain.txt)",
            path.display()
        ))
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The `# Date:` (or `# Version`) line of a data file, for provenance.
fn date_line(text: &str) -> String {
    text.lines()
        .take(10)
        .find_map(|l| {
            let l = l.trim_start_matches('#').trim();
            (l.starts_with("Date:") || l.starts_with("Version")).then(|| l.to_string())
        })
        .unwrap_or_else(|| "(no date line)".to_string())
}

/// One data line of a UCD-style file: the code point range and its fields after the first,
/// trimmed, with the comment removed.
struct Line<'a> {
    lo: u32,
    hi: u32,
    fields: Vec<&'a str>,
}

fn parse_lines<'a>(text: &'a str, file: &str) -> Result<Vec<Line<'a>>> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let data = raw.split('#').next().unwrap_or("").trim();
        if data.is_empty() {
            continue;
        }
        let mut fields = data.split(';').map(str::trim);
        let range = fields.next().unwrap_or("");
        let bad = || GenError(format!("{file}:{}: bad code point range {range:?}", n + 1));
        let (lo, hi) = match range.split_once("..") {
            Some((a, b)) => (parse_hex(a).ok_or_else(bad)?, parse_hex(b).ok_or_else(bad)?),
            None => {
                let c = parse_hex(range).ok_or_else(bad)?;
                (c, c)
            }
        };
        if lo > hi || hi as usize >= CODE_POINTS {
            return Err(bad());
        }
        out.push(Line {
            lo,
            hi,
            fields: fields.collect(),
        });
    }
    Ok(out)
}

fn parse_hex(s: &str) -> Option<u32> {
    u32::from_str_radix(s.trim(), 16).ok()
}

/// Whether a `mapped` entry's mapping (space-separated hex code points) holds no ASCII
/// character outside `[a-z0-9.-]`: spec section 1.4, a host must not contain a forbidden
/// domain code point, so characters that map to a space (NBSP, U+3000) or to ASCII
/// punctuation (`，` `：` `（` `）` `／`) are not HostChar, while fullwidth letters are.
fn maps_to_host_ascii(mapping: &str, cp: u32) -> Result<bool> {
    for hex in mapping.split_whitespace() {
        let c = parse_hex(hex).ok_or_else(|| {
            GenError(format!(
                "IdnaMappingTable.txt: bad mapping {mapping:?} of U+{cp:04X}"
            ))
        })?;
        let allowed = c >= 0x80 || matches!(c as u8, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-');
        if !allowed {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Reads every input and builds the per-code-point data.
pub fn load(inputs: &Inputs) -> Result<Data> {
    let mut props = vec![bits::HARD; CODE_POINTS];
    let mut sources = Vec::new();

    // Link_Term (the @missing value is Hard, already set).
    let path = inputs.unicode_dir.join("LinkTerm.txt");
    let text = read(&path)?;
    sources.push((file_name(&path), date_line(&text)));
    for line in parse_lines(&text, "LinkTerm.txt")? {
        let value = match line.fields.first().copied() {
            Some("Include") => bits::INCLUDE,
            Some("Hard") => bits::HARD,
            Some("Soft") => bits::SOFT,
            Some("Open") => bits::OPEN,
            Some("Close") => bits::CLOSE,
            other => return Err(GenError(format!("LinkTerm.txt: unknown value {other:?}"))),
        };
        for cp in line.lo..=line.hi {
            let p = &mut props[cp as usize];
            *p = (*p & !bits::LINK_TERM_MASK) | value;
        }
    }

    // Link_Email (binary: listed means Yes).
    let path = inputs.unicode_dir.join("LinkEmail.txt");
    let text = read(&path)?;
    sources.push((file_name(&path), date_line(&text)));
    for line in parse_lines(&text, "LinkEmail.txt")? {
        for cp in line.lo..=line.hi {
            props[cp as usize] |= bits::LINK_EMAIL;
        }
    }

    // Link_Bracket.
    let path = inputs.unicode_dir.join("LinkBracket.txt");
    let text = read(&path)?;
    sources.push((file_name(&path), date_line(&text)));
    let mut brackets = Vec::new();
    for line in parse_lines(&text, "LinkBracket.txt")? {
        let open = line
            .fields
            .first()
            .and_then(|f| parse_hex(f))
            .ok_or_else(|| GenError("LinkBracket.txt: missing open bracket".into()))?;
        for cp in line.lo..=line.hi {
            brackets.push((cp, open));
        }
    }
    brackets.sort_unstable();

    // HostChar from the IDNA mapping table (`initiation.md`), and IDNA2008 validity.
    let text = read(&inputs.idna_table)?;
    sources.push((file_name(&inputs.idna_table), date_line(&text)));
    let mut ignored: Vec<(u32, u32)> = Vec::new();
    for line in parse_lines(&text, "IdnaMappingTable.txt")? {
        let status = line.fields.first().copied().unwrap_or("");
        if status == "ignored" {
            match ignored.last_mut() {
                Some(last) if last.1 + 1 == line.lo => last.1 = line.hi,
                _ => ignored.push((line.lo, line.hi)),
            }
        }
        let idna2008_marker = line
            .fields
            .iter()
            .skip(1)
            .any(|f| *f == "NV8" || *f == "XV8");
        let mapping = line.fields.get(1).copied().unwrap_or("");
        let (host, strict) = match status {
            "valid" => (!idna2008_marker, !idna2008_marker),
            // Nontransitional processing (the UTS #46 default) keeps ß, ς, ZWJ and ZWNJ.
            "deviation" => (!idna2008_marker, false),
            "mapped" => (maps_to_host_ascii(mapping, line.lo)?, false),
            "disallowed" | "ignored" => (false, false),
            other => {
                return Err(GenError(format!(
                    "IdnaMappingTable.txt: unknown status {other:?}"
                )))
            }
        };
        for cp in line.lo..=line.hi {
            // Basic Latin is left out of the IDNA derivation and set explicitly below.
            if cp < 0x80 {
                continue;
            }
            if host {
                props[cp as usize] |= bits::HOST_CHAR;
            }
            if strict {
                props[cp as usize] |= bits::IDNA2008_VALID;
            }
        }
    }
    for cp in (b'a'..=b'z')
        .chain(b'A'..=b'Z')
        .chain(b'0'..=b'9')
        .chain([b'-'])
    {
        props[cp as usize] |= bits::HOST_CHAR;
        if !cp.is_ascii_uppercase() {
            props[cp as usize] |= bits::IDNA2008_VALID;
        }
    }
    for cp in [0x2E, 0xFF0E, 0x3002] {
        props[cp as usize] |= bits::HOST_CHAR;
    }

    // Bidi_Control from PropList.txt.
    let text = read(&inputs.prop_list)?;
    sources.push((file_name(&inputs.prop_list), date_line(&text)));
    let mut seen_bidi = false;
    for line in parse_lines(&text, "PropList.txt")? {
        if line.fields.first() == Some(&"Bidi_Control") {
            seen_bidi = true;
            for cp in line.lo..=line.hi {
                props[cp as usize] |= bits::BIDI_CONTROL;
            }
        }
    }
    if !seen_bidi {
        return Err(GenError("PropList.txt: no Bidi_Control entries".into()));
    }

    // Identifier_Status=Allowed (the @missing value is Restricted).
    let text = read(&inputs.identifier_status)?;
    sources.push((file_name(&inputs.identifier_status), date_line(&text)));
    for line in parse_lines(&text, "IdentifierStatus.txt")? {
        match line.fields.first().copied() {
            Some("Allowed") => {
                for cp in line.lo..=line.hi {
                    props[cp as usize] |= bits::IDENTIFIER_ALLOWED;
                }
            }
            Some("Restricted") => {}
            other => {
                return Err(GenError(format!(
                    "IdentifierStatus.txt: unknown value {other:?}"
                )))
            }
        }
    }

    // TLDs.
    let text = read(&inputs.tlds)?;
    let tld_version = text
        .lines()
        .next()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .unwrap_or_default();
    sources.push((file_name(&inputs.tlds), tld_version.clone()));
    let tlds = parse_tld_list(&text)?;

    ignored.sort_unstable();
    if ignored.iter().any(|&(lo, _)| lo < 0x80) {
        return Err(GenError(
            "IdnaMappingTable.txt: an ignored code point in Basic Latin (the scanner's ASCII \
             paths assume none)"
                .into(),
        ));
    }

    Ok(Data {
        props,
        brackets,
        ignored,
        tlds,
        unicode_version: inputs.unicode_version.clone(),
        tld_version,
        sources,
    })
}

/// Parses the IANA list format: one TLD per line, `#` comments. Returns the lower-case
/// entries plus the decoded Unicode form of each `XN--` entry, sorted and deduplicated.
pub fn parse_tld_list(text: &str) -> Result<Vec<String>> {
    let mut set = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        let entry = line.trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        if !entry
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return Err(GenError(format!(
                "TLD list line {}: {entry:?} is not an ASCII label",
                n + 1
            )));
        }
        let lower = entry.to_ascii_lowercase();
        if let Some(ace) = lower.strip_prefix("xn--") {
            let unicode = idna::punycode::decode_to_string(ace).ok_or_else(|| {
                GenError(format!("TLD list line {}: bad Punycode {entry:?}", n + 1))
            })?;
            set.insert(unicode);
        }
        set.insert(lower);
    }
    Ok(set.into_iter().collect())
}

/// The two-level form of the property bytes: `(index, blocks)`.
pub fn two_level(props: &[u8]) -> (Vec<u16>, Vec<u8>) {
    let mut index = Vec::with_capacity(props.len() / BLOCK_LEN);
    let mut blocks: Vec<u8> = Vec::new();
    let mut seen: HashMap<&[u8], u16> = HashMap::new();
    for block in props.chunks(BLOCK_LEN) {
        let id = *seen.entry(block).or_insert_with(|| {
            let id = (blocks.len() / BLOCK_LEN) as u16;
            blocks.extend_from_slice(block);
            id
        });
        index.push(id);
    }
    (index, blocks)
}

/// Looks a code point up in a two-level table, as the library does.
pub fn lookup(index: &[u16], blocks: &[u8], cp: u32) -> u8 {
    let block = index[cp as usize / BLOCK_LEN] as usize;
    blocks[block * BLOCK_LEN + cp as usize % BLOCK_LEN]
}

/// Renders the Rust source of `src/tables.rs`.
pub fn render(data: &Data) -> String {
    let (index, blocks) = two_level(&data.props);
    let mut s = String::new();
    s.push_str("// @generated by `cargo run -p linkscan-gen` — do not edit by hand.\n");
    s.push_str(
        "// Regenerate with `cargo run -p linkscan-gen`; `cargo run -p linkscan-gen -- --check`\n",
    );
    s.push_str("// fails when this file is out of date with the data. Sources:\n");
    for (file, date) in &data.sources {
        let _ = writeln!(s, "//   {file}: {date}");
    }
    s.push_str(
        "\n//! Generated Unicode and IANA tables (see `gen/src/lib.rs` for the layout).\n\n",
    );
    let _ = writeln!(
        s,
        "/// The Unicode version of the property data.\npub const UNICODE_VERSION: &str = {:?};\n",
        data.unicode_version
    );
    let _ = writeln!(
        s,
        "/// The version line of the IANA TLD list.\npub const TLD_LIST_VERSION: &str = {:?};\n",
        data.tld_version
    );
    let _ = writeln!(
        s,
        "/// Code points per block of the two-level property table.\npub const BLOCK_LEN: usize = {BLOCK_LEN};\n"
    );
    let _ = writeln!(
        s,
        "/// Block number of each run of `BLOCK_LEN` code points.\npub static PROPS_INDEX: [u16; {}] = [",
        index.len()
    );
    push_numbers(&mut s, index.iter().map(|&v| v as u32), 16);
    s.push_str("];\n\n");
    let _ = writeln!(
        s,
        "/// Deduplicated blocks of property bytes (bit layout: `crate::props`).\npub static PROPS_BLOCKS: [u8; {}] = [",
        blocks.len()
    );
    push_numbers(&mut s, blocks.iter().map(|&v| v as u32), 24);
    s.push_str("];\n\n");
    let _ = writeln!(
        s,
        "/// Link_Bracket: `(closing, opening)` pairs, sorted by the closing bracket.\npub static LINK_BRACKETS: [(char, char); {}] = [",
        data.brackets.len()
    );
    for (close, open) in &data.brackets {
        let _ = writeln!(s, "    ('\\u{{{close:04X}}}', '\\u{{{open:04X}}}'),");
    }
    s.push_str("];\n\n");
    let _ = writeln!(
        s,
        "/// The `ignored` code points of UTS #46 (class Ignored of `initiation.md`): sorted,\n/// disjoint, inclusive ranges, none in Basic Latin.\npub static IDNA_IGNORED: [(u32, u32); {}] = [",
        data.ignored.len()
    );
    for (lo, hi) in &data.ignored {
        let _ = writeln!(s, "    (0x{lo:04X}, 0x{hi:04X}),");
    }
    s.push_str("];\n\n");
    let _ = writeln!(
        s,
        "/// Every TLD of the list: lower-case ASCII entries and the decoded Unicode form of\n/// each `XN--` entry, sorted.\npub static TLDS: [&str; {}] = [",
        data.tlds.len()
    );
    for tld in &data.tlds {
        let _ = writeln!(s, "    {tld:?},");
    }
    s.push_str("];\n");
    s
}

fn push_numbers(s: &mut String, values: impl Iterator<Item = u32>, per_line: usize) {
    let values: Vec<u32> = values.collect();
    for chunk in values.chunks(per_line) {
        s.push_str("   ");
        for v in chunk {
            let _ = write!(s, " {v},");
        }
        s.push('\n');
    }
}

/// The arrays of a rendered file: `(PROPS_INDEX, PROPS_BLOCKS, LINK_BRACKETS as close → open)`.
pub type RenderedTables = (Vec<u16>, Vec<u8>, BTreeMap<u32, u32>);

/// Reads the arrays back out of rendered source: `(index, blocks, brackets)`. Used by the
/// tests to check that a rendered file encodes the data it was made from.
pub fn parse_rendered(src: &str) -> Option<RenderedTables> {
    fn array<'a>(src: &'a str, name: &str) -> Option<&'a str> {
        let start = src.find(&format!("pub static {name}:"))?;
        let body = &src[start..];
        let open = body.find("= [")? + 3;
        let close = body[open..].find("];")? + open;
        Some(&body[open..close])
    }
    let numbers = |body: &str| -> Option<Vec<u32>> {
        body.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().ok())
            .collect()
    };
    let index = numbers(array(src, "PROPS_INDEX")?)?
        .into_iter()
        .map(|v| v as u16)
        .collect();
    let blocks = numbers(array(src, "PROPS_BLOCKS")?)?
        .into_iter()
        .map(|v| v as u8)
        .collect();
    let mut brackets = BTreeMap::new();
    for line in array(src, "LINK_BRACKETS")?.lines() {
        let hex: Vec<u32> = line
            .split("\\u{")
            .skip(1)
            .filter_map(|p| parse_hex(p.split('}').next()?))
            .collect();
        if let [close, open] = hex[..] {
            brackets.insert(close, open);
        }
    }
    Some((index, blocks, brackets))
}
