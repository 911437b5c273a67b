//! Top-level domains: the embedded IANA set, user-supplied sets, and the syntactic check.
//!
//! A [`TldSet`] has two open-addressing hash tables. Most TLDs, and most words that follow
//! a dot in text, are ASCII and at most 8 bytes long: those are packed into a `u64`
//! (little-endian, zero-padded), lower-cased with one OR (for `[A-Za-z0-9-]`, OR-ing each
//! byte with `0x20` is exactly ASCII lower-casing), hashed with one multiplication and
//! compared as one integer. Longer or non-ASCII labels go to a second table over a byte
//! arena, folded into a stack buffer. Neither lookup allocates. Non-ASCII entries (the decoded form of `XN--` entries, such as
//! `рф`) are compared exactly, as the official test data expects.
//!
//! The [`TldPolicy::Syntactic`] mode accepts any label that could be a TLD by the rules of
//! UTS #58 section 8: ASCII labels of at least two letters; Punycode labels (`xn--…`) whose
//! decoded form passes the Unicode rule; other labels whose every character is
//! IDNA2008-valid, not a digit, not a hyphen and not CONTEXTJ/CONTEXTO.
//!
//! Whether a whole host is a public suffix (`co.uk`, spec section 1.4) is a question for
//! the Public Suffix List, not for TLDs: [`crate::registrable`].

use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::props;

/// Longest TLD in bytes that a set may hold (63 code points of at most 4 bytes).
const MAX_TLD_BYTES: usize = 252;

/// A set of top-level domains, matched ASCII-case-insensitively.
///
/// ```
/// use linkscan::TldSet;
/// let set = TldSet::from_list(["com", "XN--P1AI"]).unwrap();
/// assert!(set.contains("COM"));
/// assert!(set.contains("рф"));      // the decoded form of XN--P1AI
/// assert!(set.contains("xn--p1ai"));
/// assert!(!set.contains("org"));
/// ```
#[derive(Clone)]
pub struct TldSet {
    /// Packed short ASCII labels ([`pack_short`]); 0 marks an empty slot.
    short: Vec<u64>,
    /// Bit [`short_filter_bit`] of every packed short label: a key whose bit is clear is
    /// not in `short`, learnt from 1 KiB that stays in the L1 cache instead of a probe
    /// of the table (32 KiB for the IANA list). Most runs after a dot that are no TLD
    /// (`html`, `coma` in `a@b.coma@b.com…`) stop here.
    short_filter: Box<[u64; 128]>,
    /// Bit [`long_filter_bit`] of every longer entry whose first 8 bytes are ASCII: a
    /// longer label whose first 8 bytes are ASCII and whose bit is clear is not in the
    /// set, learnt without hashing the label byte by byte (`.signature`, `.preprocessor`:
    /// 22,000 such runs after a dot in `email-en.mbox`, about 190 instructions each).
    long_filter: Box<[u64; 64]>,
    arena: Vec<u8>,
    /// `(offset, len)` into `arena`; `len == 0` marks an empty slot.
    slots: Vec<(u32, u32)>,
    len: usize,
    max_len: usize,
    /// The length of the shortest entry in bytes (`usize::MAX` when empty).
    min_len: usize,
    /// Bit `cp % 4096` is set for the first code point of every entry that does not
    /// start with ASCII: a label starting with any other non-ASCII character is not in the
    /// set, which the scanner learns after decoding one character instead of the run.
    first_non_ascii: Box<[u64; 64]>,
    /// Some entry starts with an ASCII digit (none of the IANA list does).
    digit_first: bool,
}

/// Why a TLD list was rejected: an entry that is not a TLD (with its line), or a file that
/// could not be read (the I/O error is its [`source`](std::error::Error::source), not
/// flattened into text).
///
/// ```
/// use std::error::Error;
/// let e = linkscan::TldSet::from_file("no/such/list.txt").unwrap_err();
/// assert_eq!(e.to_string(), "cannot read TLD list no/such/list.txt");
/// let io = e.source().unwrap().downcast_ref::<std::io::Error>().unwrap();
/// assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
/// assert_eq!(e.io_error().map(|e| e.kind()), Some(std::io::ErrorKind::NotFound));
///
/// let e = linkscan::TldSet::from_list_text("com\nnot a tld\n").unwrap_err();
/// assert_eq!(e.line(), Some(2));
/// assert!(e.source().is_none());
/// ```
#[derive(Debug)]
pub struct TldListError {
    line: usize,
    message: String,
    /// The file, when the list was read from one.
    path: Option<std::path::PathBuf>,
    /// Why the file could not be read.
    io: Option<std::io::Error>,
}

impl TldListError {
    /// The line (from 1) of the entry that is not a TLD; `None` for a read error.
    pub fn line(&self) -> Option<usize> {
        (self.line > 0).then_some(self.line)
    }

    /// The error reading the list file, if that is what went wrong.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.io.as_ref()
    }
}

impl fmt::Display for TldListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(path), None) = (&self.path, &self.io) {
            write!(f, "{}: ", path.display())?;
        }
        if self.line > 0 {
            write!(f, "TLD list line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for TldListError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io.as_ref().map(|e| e as _)
    }
}

impl fmt::Debug for TldSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TldSet").field("len", &self.len).finish()
    }
}

/// Longest label kept in the packed table.
const SHORT_MAX: usize = 8;

/// `label` packed into a lower-cased `u64`, if it is ASCII `[A-Za-z0-9-]`-like and at
/// most 8 bytes long (the caller guarantees host characters, so only ASCII-ness and length
/// are checked here).
#[inline]
fn pack_short(label: &[u8]) -> Option<u64> {
    if label.is_empty() || label.len() > SHORT_MAX {
        return None;
    }
    let word = label
        .iter()
        .rev()
        .fold(0u64, |word, &b| (word << 8) | b as u64);
    if word & 0x8080_8080_8080_8080 != 0 {
        return None;
    }
    // OR 0x20 into the bytes that are present only.
    let present = u64::MAX >> (8 * (SHORT_MAX - label.len()));
    Some(word | (0x2020_2020_2020_2020 & present))
}

/// The packed form of the ASCII label `text[at..at + len]` (`1 <= len <= 8`, host
/// characters), read with one unaligned load; `None` when fewer than 8 bytes remain from
/// `at`, in which case [`TldSet::contains_bytes`] does the work.
#[inline]
pub(crate) fn pack_short_from(text: &[u8], at: usize, len: usize) -> Option<u64> {
    debug_assert!((1..=SHORT_MAX).contains(&len));
    let word = u64::from_le_bytes(text.get(at..at + SHORT_MAX)?.try_into().ok()?);
    let present = u64::MAX >> (8 * (SHORT_MAX - len));
    Some((word & present) | (0x2020_2020_2020_2020 & present))
}

/// The multiplicative hash of a packed short label: its bits from 40 up pick the slot,
/// its top 13 bits the filter bit (the two share one bit for the IANA list's 4,096
/// slots; more for larger tables, which costs the filter some selectivity, never a
/// wrong answer).
#[inline]
fn short_hash(key: u64) -> u64 {
    key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The bit of a packed short label in [`TldSet`]'s filter.
#[inline]
fn short_filter_bit(key: u64) -> usize {
    (short_hash(key) >> 51) as usize
}

/// The bit in [`TldSet`]'s filter of longer labels of a label of more than 8 bytes whose
/// first 8 bytes, little-endian and each OR `0x20`, are `head`: a product of the head and
/// the length.
#[inline]
fn long_filter_bit(head: u64, len: usize) -> usize {
    ((head ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize
}

/// The head of [`long_filter_bit`] of a label of more than 8 bytes: its first 8 bytes,
/// each OR `0x20`, when they are ASCII.
#[inline]
fn long_head(label: &[u8]) -> Option<u64> {
    let word = u64::from_le_bytes(*label.first_chunk::<8>()?);
    (word & 0x8080_8080_8080_8080 == 0).then_some(word | 0x2020_2020_2020_2020)
}

#[inline]
fn short_slot(key: u64, mask: usize) -> usize {
    (short_hash(key) >> 40) as usize & mask
}

/// FNV-1a of the ASCII-lower-cased bytes: short keys, good enough spread for a table kept
/// half empty.
#[inline]
fn hash_lowercase(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b.to_ascii_lowercase() as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Where the first character `cp` of an entry is in the filter of
/// [`TldSet::first_non_ascii`]: the word and the bit of bit `cp % 4096`.
#[inline(always)]
pub(crate) fn first_char_bit(cp: u32) -> (usize, u64) {
    let bit = cp as usize % 4096;
    (bit / 64, 1 << (bit % 64))
}

impl TldSet {
    /// Builds a set from entries such as `com`, `XN--P1AI` or `рф`. ASCII is folded to lower
    /// case; each `xn--` entry also adds its decoded Unicode form. An entry must be a single
    /// label of characters that could follow a dot in a host (no dots, spaces or
    /// punctuation) and must not start or end with `-`.
    pub fn from_list<I, S>(entries: I) -> Result<TldSet, TldListError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut labels: Vec<String> = Vec::new();
        for (i, entry) in entries.into_iter().enumerate() {
            let entry = entry.as_ref().trim();
            let err = |message: String| TldListError {
                line: i + 1,
                message,
                path: None,
                io: None,
            };
            if entry.is_empty() {
                return Err(err("empty entry".into()));
            }
            let lower = entry.to_ascii_lowercase();
            validate_label(&lower).map_err(|m| err(format!("{entry:?}: {m}")))?;
            if let Some(ace) = lower.strip_prefix("xn--") {
                let unicode = idna::punycode::decode_to_string(ace)
                    .ok_or_else(|| err(format!("{entry:?}: invalid Punycode")))?;
                validate_label(&unicode).map_err(|m| err(format!("{entry:?}: {m}")))?;
                labels.push(unicode);
            }
            labels.push(lower);
        }
        Ok(TldSet::build(labels))
    }

    /// Reads a list in the format of IANA's `tlds-alpha-by-domain.txt`: one TLD per line,
    /// lines starting with `#` ignored.
    pub fn from_list_text(text: &str) -> Result<TldSet, TldListError> {
        let mut entries = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            entries.push((n + 1, line));
        }
        TldSet::from_list(entries.iter().map(|(_, l)| l)).map_err(|mut e| {
            if e.line > 0 {
                e.line = entries[e.line - 1].0;
            }
            e
        })
    }

    /// Reads a list file in the IANA format (see [`TldSet::from_list_text`]).
    pub fn from_file(path: impl AsRef<Path>) -> Result<TldSet, TldListError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| TldListError {
            line: 0,
            message: format!("cannot read TLD list {}", path.display()),
            path: Some(path.to_path_buf()),
            io: Some(e),
        })?;
        TldSet::from_list_text(&text).map_err(|e| TldListError {
            path: Some(path.to_path_buf()),
            ..e
        })
    }

    /// The IANA root zone list embedded at build time (see [`crate::tables::TLD_LIST_VERSION`]).
    pub fn iana() -> &'static TldSet {
        static SET: OnceLock<TldSet> = OnceLock::new();
        SET.get_or_init(|| TldSet::build(crate::tables::TLDS.iter().map(|s| s.to_string())))
    }

    fn build(labels: impl IntoIterator<Item = String>) -> TldSet {
        let mut labels: Vec<String> = labels.into_iter().collect();
        labels.sort_unstable();
        labels.dedup();
        let short_count = labels
            .iter()
            .filter(|l| pack_short(l.as_bytes()).is_some())
            .count();
        let short_capacity = (short_count * 2).next_power_of_two().max(16);
        let capacity = ((labels.len() - short_count) * 2)
            .next_power_of_two()
            .max(16);
        let mut set = TldSet {
            short: vec![0; short_capacity],
            short_filter: Box::new([0; 128]),
            long_filter: Box::new([0; 64]),
            arena: Vec::new(),
            slots: vec![(0, 0); capacity],
            len: labels.len(),
            max_len: 0,
            min_len: usize::MAX,
            first_non_ascii: Box::new([0; 64]),
            digit_first: false,
        };
        let mask = capacity - 1;
        for label in labels {
            let bytes = label.as_bytes();
            set.max_len = set.max_len.max(bytes.len());
            set.min_len = set.min_len.min(bytes.len());
            set.digit_first |= bytes.first().is_some_and(u8::is_ascii_digit);
            if let Some(first) = label.chars().next().filter(|c| !c.is_ascii()) {
                let (word, bit) = first_char_bit(first as u32);
                set.first_non_ascii[word] |= bit;
            }
            if let Some(key) = pack_short(bytes) {
                let bit = short_filter_bit(key);
                set.short_filter[bit / 64] |= 1 << (bit % 64);
                let mut slot = short_slot(key, short_capacity - 1);
                while set.short[slot] != 0 {
                    slot = (slot + 1) & (short_capacity - 1);
                }
                set.short[slot] = key;
                continue;
            }
            if let Some(head) = long_head(bytes) {
                let bit = long_filter_bit(head, bytes.len());
                set.long_filter[bit / 64] |= 1 << (bit % 64);
            }
            let mut slot = hash_lowercase(bytes) as usize & mask;
            while set.slots[slot].1 != 0 {
                slot = (slot + 1) & mask;
            }
            set.slots[slot] = (set.arena.len() as u32, bytes.len() as u32);
            set.arena.extend_from_slice(bytes);
        }
        set
    }

    /// Number of entries (ASCII and decoded Unicode forms counted separately).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The length in bytes of the longest entry.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// The length of the shortest entry in bytes (`usize::MAX` for an empty set).
    pub(crate) fn min_len(&self) -> usize {
        self.min_len
    }

    /// Whether some entry starts with an ASCII digit.
    pub(crate) fn digit_first(&self) -> bool {
        self.digit_first
    }

    /// The filter of [`TldSet::may_start_with`]: bit `cp % 4096` is set for the first
    /// character `cp` of each non-ASCII entry.
    pub(crate) fn first_non_ascii(&self) -> &[u64; 64] {
        &self.first_non_ascii
    }

    /// Whether some entry may start with the non-ASCII code point `cp` (false: none does).
    #[inline]
    pub(crate) fn may_start_with(&self, cp: u32) -> bool {
        let (word, bit) = first_char_bit(cp);
        self.first_non_ascii[word] & bit != 0
    }

    /// Whether `label` is in the set (ASCII case-insensitive).
    pub fn contains(&self, label: &str) -> bool {
        self.contains_bytes(label.as_bytes())
    }

    /// Whether the UTF-8 `label` is in the set (ASCII case-insensitive). Never allocates.
    #[inline]
    pub fn contains_bytes(&self, label: &[u8]) -> bool {
        if label.is_empty() || label.len() > self.max_len {
            return false;
        }
        if let Some(key) = pack_short(label) {
            return self.contains_packed(key);
        }
        if let Some(head) = long_head(label) {
            let bit = long_filter_bit(head, label.len());
            if self.long_filter[bit / 64] & (1 << (bit % 64)) == 0 {
                return false;
            }
        }
        // Entries are stored in lower case, so hash the label lower-cased on the fly and
        // compare ignoring ASCII case: no copy.
        let mask = self.slots.len() - 1;
        let mut slot = hash_lowercase(label) as usize & mask;
        loop {
            let (offset, len) = self.slots[slot];
            if len == 0 {
                return false;
            }
            if len as usize == label.len()
                && self.arena[offset as usize..offset as usize + len as usize]
                    .eq_ignore_ascii_case(label)
            {
                return true;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Whether the packed short label `key` (see [`pack_short_from`]) is in the set.
    #[inline]
    pub(crate) fn contains_packed(&self, key: u64) -> bool {
        let bit = short_filter_bit(key);
        if self.short_filter[bit / 64] & (1 << (bit % 64)) == 0 {
            return false;
        }
        let mask = self.short.len() - 1;
        let mut slot = short_slot(key, mask);
        loop {
            match self.short[slot] {
                0 => return false,
                k if k == key => return true,
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// A digest of the entries, whatever their order: FNV-1a (64 bits) over the sorted
    /// entries, each followed by a line feed. Stable across builds and platforms, so that
    /// a key written to a file (an archive's state) still names the same list later.
    pub(crate) fn digest(&self) -> u64 {
        let mut entries: Vec<String> = self.iter().collect();
        entries.sort_unstable();
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in entries.iter().flat_map(|e| e.bytes().chain([b'\n'])) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash
    }

    /// Every entry, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = String> + '_ {
        let short = self.short.iter().filter(|&&k| k != 0).map(|&k| {
            let bytes = k.to_le_bytes();
            let len = bytes.iter().position(|&b| b == 0).unwrap_or(SHORT_MAX);
            String::from_utf8_lossy(&bytes[..len]).into_owned()
        });
        let long = self.slots.iter().filter(|s| s.1 != 0).map(|&(o, l)| {
            String::from_utf8_lossy(&self.arena[o as usize..(o + l) as usize]).into_owned()
        });
        short.chain(long)
    }
}

/// An entry must be one host label that could follow a dot: HostChar characters other than
/// the dots, all Link_Term=Include, not starting or ending with `-`, at most 63 code points.
fn validate_label(label: &str) -> Result<(), String> {
    if label.chars().count() > 63 || label.len() > MAX_TLD_BYTES {
        return Err("longer than 63 characters".into());
    }
    if label.starts_with('-') || label.ends_with('-') {
        return Err("starts or ends with '-'".into());
    }
    for c in label.chars() {
        let host = props::is_host_char(c) && !matches!(c, '.' | '\u{FF0E}' | '\u{3002}');
        if !host || props::link_term(c) != props::LinkTerm::Include {
            return Err(format!("{c:?} cannot be part of a TLD"));
        }
    }
    Ok(())
}

/// How the finder decides whether the label after a dot is a top-level domain.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub enum TldPolicy {
    /// The IANA root zone list embedded at build time (the default).
    #[default]
    Iana,
    /// A list supplied at run time.
    List(Arc<TldSet>),
    /// No list: any syntactically valid TLD (UTS #58 section 8).
    Syntactic,
}

impl TldPolicy {
    /// No label longer than this many bytes is a TLD under this policy (63 code points
    /// of at most 4 bytes for the syntactic rule).
    #[inline]
    pub fn max_len(&self) -> usize {
        match self {
            TldPolicy::Iana => TldSet::iana().max_len(),
            TldPolicy::List(set) => set.max_len(),
            TldPolicy::Syntactic => MAX_TLD_BYTES,
        }
    }

    /// Whether the UTF-8 label `label` (HostChar characters, no dots) is a TLD.
    #[inline]
    pub fn is_tld(&self, label: &[u8]) -> bool {
        match self {
            TldPolicy::Iana => TldSet::iana().contains_bytes(label),
            TldPolicy::List(set) => set.contains_bytes(label),
            TldPolicy::Syntactic => is_syntactic_tld(label),
        }
    }
}

/// CONTEXTO code points of RFC 5892 (and the CONTEXTJ joiners), never in a TLD.
fn is_context_rule(c: char) -> bool {
    matches!(
        c,
        '\u{00B7}'
            | '\u{0375}'
            | '\u{05F3}'
            | '\u{05F4}'
            | '\u{30FB}'
            | '\u{0660}'..='\u{0669}'
            | '\u{06F0}'..='\u{06F9}'
            | '\u{200C}'
            | '\u{200D}'
    )
}

fn is_syntactic_unicode_tld(label: &str) -> bool {
    !label.is_empty()
        && label.chars().all(|c| {
            if c.is_ascii() {
                // ASCII case does not matter in a TLD, here as in the ASCII-only path.
                c.is_ascii_alphabetic()
            } else {
                props::is_idna2008_valid(c) && !c.is_numeric() && !is_context_rule(c)
            }
        })
}

/// Whether `label` could be a TLD by the syntactic rules of UTS #58 section 8: at most 63
/// characters; ASCII letters only and at least two of them; `xn--` labels decoded and checked as Unicode;
/// Unicode labels of IDNA2008-valid characters without digits, hyphens or CONTEXTJ/CONTEXTO
/// characters.
///
/// ```
/// use linkscan::is_syntactic_tld;
/// assert!(is_syntactic_tld(b"com"));
/// assert!(is_syntactic_tld(b"Example"));
/// assert!(is_syntactic_tld("рф".as_bytes()));
/// assert!(is_syntactic_tld(b"XN--P1AI"));
/// assert!(!is_syntactic_tld(b"c"));
/// assert!(!is_syntactic_tld(b"co2"));
/// assert!(!is_syntactic_tld(b"a-b"));
/// assert!(!is_syntactic_tld("😎".as_bytes()));
/// ```
pub fn is_syntactic_tld(label: &[u8]) -> bool {
    let Ok(label) = std::str::from_utf8(label) else {
        return false;
    };
    // A DNS label has at most 63 octets (for an IDN, its ACE form, which is longer than
    // its code point count).
    if label.len() > MAX_TLD_BYTES || label.chars().count() > 63 {
        return false;
    }
    if label.is_ascii() {
        if label.len() > 4 && label[..4].eq_ignore_ascii_case("xn--") {
            let ace = label[4..].to_ascii_lowercase();
            return match idna::punycode::decode_to_string(&ace) {
                Some(unicode) => !unicode.is_ascii() && is_syntactic_unicode_tld(&unicode),
                None => false,
            };
        }
        return label.len() >= 2 && label.bytes().all(|b| b.is_ascii_alphabetic());
    }
    is_syntactic_unicode_tld(label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iana_set_holds_ascii_and_decoded_forms() {
        let set = TldSet::iana();
        for tld in [
            "com",
            "COM",
            "Com",
            "accountants",
            "香港",
            "рф",
            "xn--p1ai",
            "XN--P1AI",
        ] {
            assert!(set.contains(tld), "{tld}");
        }
        for not in ["", "c", "comm", "invalid", "😎", "example", "xn--"] {
            assert!(!set.contains(not), "{not}");
        }
        assert_eq!(set.len(), crate::tables::TLDS.len());
    }

    /// Both tables (packed short labels and the arena) hold exactly the entries, at the
    /// length boundary between them too.
    #[test]
    fn iter_gives_back_every_entry_and_lookups_find_them() {
        let set = TldSet::iana();
        let mut listed: Vec<String> = set.iter().collect();
        listed.sort();
        let expected: Vec<String> = crate::tables::TLDS.iter().map(|s| s.to_string()).collect();
        assert_eq!(listed, expected);
        for tld in crate::tables::TLDS {
            assert!(set.contains(tld), "{tld}");
            assert!(set.contains(&tld.to_ascii_uppercase()), "{tld}");
        }
        let set = TldSet::from_list(["abcdefgh", "abcdefghi", "a1-b"]).unwrap();
        for yes in ["abcdefgh", "ABCDEFGH", "abcdefghi", "AbcdefghI", "A1-B"] {
            assert!(set.contains(yes), "{yes}");
        }
        for no in [
            "abcdefg",
            "abcdefghij",
            "bcdefgh",
            "a1",
            "a1-",
            "a1-bc",
            "abcdefgh\u{e9}",
        ] {
            assert!(!set.contains(no), "{no}");
        }
    }

    /// The filter in front of the short table rules out most misses (it would be a mere
    /// cost if most of its bits were set): the IANA list sets about one bit in seven.
    #[test]
    fn short_filter_is_selective() {
        let set = TldSet::iana();
        let bits: u32 = set.short_filter.iter().map(|w| w.count_ones()).sum();
        let keys = set.short.iter().filter(|&&k| k != 0).count() as u32;
        assert!(
            bits <= keys && bits >= keys * 9 / 10,
            "{bits} bits for {keys} keys"
        );
        assert!(bits * 5 < 128 * 64, "{bits} of 8192 bits set");
    }

    /// Every entry longer than 8 bytes is found in any ASCII case (the filter of longer
    /// labels in front of the table hides none), and the filter rules out most labels
    /// that are none.
    #[test]
    fn long_filter_hides_no_entry_and_rules_out_most_others() {
        let set = TldSet::iana();
        let long: Vec<&str> = crate::tables::TLDS
            .iter()
            .copied()
            .filter(|t| t.len() > 8)
            .collect();
        assert!(long.len() > 100, "{} long entries", long.len());
        for tld in &long {
            assert!(set.contains(tld), "{tld}");
            assert!(set.contains(&tld.to_ascii_uppercase()), "{tld}");
        }
        let user = TldSet::from_list(["abcdefgh\u{e9}", "ABCDEFGHIJ"]).unwrap();
        assert!(user.contains("abcdefgh\u{e9}") && user.contains("abcdefghij"));
        let bits: u32 = set.long_filter.iter().map(|w| w.count_ones()).sum();
        assert!(bits * 8 < 64 * 64, "{bits} of 4096 bits set");
        let misses = [
            "signature",
            "preprocessor",
            "someverylongword",
            "ABCDEFGHIJKL",
        ];
        let passed = misses
            .iter()
            .filter(|m| {
                let head = long_head(m.as_bytes()).unwrap();
                let bit = long_filter_bit(head, m.len());
                set.long_filter[bit / 64] & (1 << (bit % 64)) != 0
            })
            .count();
        assert!(passed <= 1, "{passed} of {misses:?} passed");
    }

    #[test]
    fn user_lists_are_validated() {
        assert!(TldSet::from_list(["foo", "bar"]).is_ok());
        assert!(TldSet::from_list(["a.b"]).is_err());
        assert!(TldSet::from_list(["-ab"]).is_err());
        assert!(TldSet::from_list(["ab!"]).is_err());
        assert!(TldSet::from_list(["xn--zzzzzzzzzz-"]).is_err());
        let err = TldSet::from_list_text("# header\ncom\n\nbad label\n").unwrap_err();
        assert!(err.to_string().contains("line 4"), "{err}");
    }

    #[test]
    fn syntactic_rules() {
        assert!(is_syntactic_tld(b"xn--mgbah1a3hjkrd"));
        assert!(!is_syntactic_tld(b"xn-----ctdbabcfhu9c2b9l1acccr4c"));
        assert!(!is_syntactic_tld(b"xn--abc"), "decodes to ASCII or fails");
        assert!(!is_syntactic_tld("ab\u{200D}".as_bytes()));
        assert!(!is_syntactic_tld("١٢".as_bytes()), "Arabic-Indic digits");
        assert!(!is_syntactic_tld("१२".as_bytes()), "Devanagari digits");
        assert!(is_syntactic_tld("ευ".as_bytes()));
        assert!(is_syntactic_tld("みんな".as_bytes()));
        assert!(is_syntactic_tld("ευtest".as_bytes()));
        assert!(
            is_syntactic_tld("ευTest".as_bytes()),
            "ASCII case is ignored"
        );
        assert!(!is_syntactic_tld("ευ1".as_bytes()));
    }
}
