//! The keys of the public-suffix filters (`src/psl_filter.rs`): how a host or a rule is
//! hashed, and which bits of a filter a hash sets. One definition, compiled by the
//! library (`crate::registrable`, which reads the filters) and by the generator
//! (`gen/src/psl.rs`, which writes them, including this file by path).
//!
//! A host is an entry of the list only if a rule matches it label for label: the rule is
//! the host itself, or the rule is `*.` and the host without its first label. So a host
//! is first probed with no loop over its bytes: by its own key, the hash of its first and
//! last 8 bytes and its length ([`host_words`], [`name_hash`]: the whole host up to 16
//! bytes, so exact there), in the filter of every rule's own key; and by the last `m`
//! bytes of its last 8, for each length `m` that a wildcard rule `*.rest` is keyed by
//! (the last 8 bytes of `.rest`, or its last 3 when it is shorter: [`tail_hash`]), in a
//! second, small filter of those tails. A host that only a tail lets through
//! (`x.y.bc.googleusercontent.com` has the tail of `*.bc.googleusercontent.com`) is probed
//! once more, by the key of its rest after the first label, in the first filter, which
//! holds the wildcard rules' rests too (from another seed). Each key sets two bits of one
//! 64-bit word of its filter (a blocked Bloom filter: one load a probe).
//!
//!
//! A third, smaller filter holds the TLDs under which the list's ICANN section has an
//! entry (`co.uk`, `*.ck`, `kawasaki.jp`: about 200 of the 1,400 TLDs), keyed by the TLD
//! as the scanner packs it ([`tld_bit`]): a finder that only drops ICANN entries needs no
//! probe at all for a host under any other TLD (`.com`, `.org`, `.net`: most hosts).
//!
//! Invariants: a host and a rule that are equal up to ASCII case have the same keys (each
//! byte is read OR `0x20`, the lower case of the ASCII host characters `[A-Za-z0-9.-]`);
//! the keys of a host with a byte >= 0x80 mean nothing (the library looks such a host up
//! without the filters); nothing allocates.

/// Each byte OR this: the ASCII lower case of host characters.
const LOWER: u64 = 0x2020_2020_2020_2020;

/// Words of the filter of rules' own keys, as a power of two: 2^11 words, 16 KiB; with
/// the 9,800 keys of today's list about one host in 40 that is no entry is looked up all
/// the same.
pub const OWN_WORDS_LOG2: u32 = 11;
/// Words of the filter of wildcard rules' tails, as a power of two: 2^8 words, 2 KiB for
/// the 134 distinct tails of today's 312 wildcard rules.
pub const TAIL_WORDS_LOG2: u32 = 8;

/// The longest tail a wildcard rule is keyed by: the last 8 bytes of its `.rest`.
pub const TAIL_MAX: usize = 8;
/// The tail of a shorter `.rest` (`.ck`): its last 3 bytes, the shortest `.rest` of
/// today's list (a shorter one is keyed whole).
/// (The generator's: the library probes the lengths that the generated file lists.)
#[allow(dead_code)]
pub const TAIL_SHORT: usize = 3;

/// See [`name_hash`].
pub const SEED_OWN: u64 = 0x243F_6A88_85A3_08D3;
/// See [`name_hash`].
pub const SEED_REST: u64 = 0xA409_3822_299F_31D0;
const SEED_TAIL: u64 = 0x1319_8A2E_0370_7344;

/// The first 8 bytes of `host` and its last 8, little-endian (`first`'s lowest byte is
/// the host's first, `last`'s highest its last); a host under 8 bytes fills the low bytes
/// of `first` and the high bytes of `last`, the rest of each word zero. Equal hosts of at
/// most 16 bytes have equal words and length, and unequal ones unequal.
#[inline(always)]
pub fn host_words(host: &[u8]) -> (u64, u64) {
    let len = host.len();
    if let (Some(first), Some(last)) = (host.first_chunk::<8>(), host.last_chunk::<8>()) {
        return (u64::from_le_bytes(*first), u64::from_le_bytes(*last));
    }
    let whole = if let (Some(first), Some(last)) = (host.first_chunk::<4>(), host.last_chunk::<4>())
    {
        // Overlapping halves: the bytes they share are the same, so OR joins them.
        u64::from(u32::from_le_bytes(*first))
            | u64::from(u32::from_le_bytes(*last)) << (8 * (len - 4))
    } else {
        host.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b))
    };
    if len == 0 {
        return (0, 0);
    }
    (whole, whole << (8 * (8 - len)))
}

/// The key, from `seed`, of the name of length `len` whose [`host_words`] are `first` and
/// `last`: two multiplications (a filter's bits come from the high bits of the product).
/// A host's own key is from [`SEED_OWN`]; the rest of a wildcard rule (`ck` of `*.ck`)
/// is keyed from [`SEED_REST`], and so is a host without its first label.
#[inline(always)]
pub fn name_hash(seed: u64, first: u64, last: u64, len: usize) -> u64 {
    let h = ((first | LOWER) ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h ^ (last | LOWER) ^ len as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD)
}

/// The tail key of the last `m` bytes (`1 <= m <= 8`) of the host whose last 8 are `last`
/// (as [`host_words`] gives them): one multiplication.
#[inline(always)]
pub fn tail_hash(last: u64, m: usize) -> u64 {
    let tail = (last | LOWER) >> (8 * (TAIL_MAX - m));
    (tail ^ SEED_TAIL ^ (m as u64) << 59).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Bits of the filter of the TLDs under which the list's ICANN section has entries, as a
/// power of two: 2^12 bits, 512 bytes, for the about 200 such TLDs of today's list (ASCII
/// and at most 8 bytes long); about one TLD in 20 that has none is let through all the
/// same.
pub const ICANN_TLD_BITS_LOG2: u32 = 12;

/// The bit, in that filter, of a TLD packed as the scanner packs it (`crate::tld`: its
/// bytes little-endian, each OR `0x20`): the high bits of one product.
#[inline(always)]
pub fn tld_bit(packed: u64) -> usize {
    (packed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - ICANN_TLD_BITS_LOG2)) as usize
}

/// The word (of a filter of `2^words_log2` words) and the two bits in it of a hash: its
/// highest bits, where a product mixes its factors most.
#[inline(always)]
pub fn key_bits(hash: u64, words_log2: u32) -> (usize, u32, u32) {
    (
        (hash >> (64 - words_log2)) as usize,
        ((hash >> 40) & 63) as u32,
        ((hash >> 34) & 63) as u32,
    )
}
