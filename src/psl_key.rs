//! The keys of the public-suffix filter (`src/psl_filter.rs`): how a host or a rule is
//! hashed, and which two bits of the filter a hash sets. One definition, compiled by the
//! library (`crate::registrable`, which reads the filter) and by the generator
//! (`gen/src/psl.rs`, which writes it, including this file by path).
//!
//! Invariants: a host and a rule that are equal up to ASCII case have the same key; a
//! key is `None` exactly when a byte is not ASCII; nothing allocates.

/// Bits of the filter: 16 KiB, two bits a key; with 10,400 keys about one host in 50 that
/// is no entry is looked up all the same.
pub const FILTER_BITS: usize = 1 << 17;

/// The seed of a rule's key, and of a wildcard rule's (`*.ck` is keyed as `ck` with this
/// seed, and a host is looked up by its own key and by its rest after the first label's).
pub const SEED: u64 = 0x243F_6A88_85A3_08D3;
/// See [`SEED`].
pub const SEED_WILDCARD: u64 = 0x1319_8A2E_0370_7344;

/// The hash of `bytes` from `seed`, 8 bytes at a time, each byte OR `0x20` (the ASCII
/// lower case of host characters: `[A-Za-z0-9.-]`; a host with other bytes can only
/// collide, which makes it looked up); the last bytes in the word that ends with them,
/// overlapping the one before, and a host under 8 bytes in one word padded with zero
/// bytes before the OR; `None` when a byte is not ASCII.
#[inline(always)]
pub fn key_hash(seed: u64, bytes: &[u8]) -> Option<u64> {
    const LOWER: u64 = 0x2020_2020_2020_2020;
    let len = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
    let mut h = seed ^ (len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut seen = 0;
    let mut mix = |w: u64| {
        seen |= w;
        h = (h ^ (w | LOWER))
            .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
            .rotate_left(29);
    };
    if len < 8 {
        mix(bytes.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b)));
    } else {
        let mut at = 0;
        while at + 8 <= len {
            mix(word(at));
            at += 8;
        }
        if at < len {
            // The last bytes, in the word that ends with them (overlapping the one before).
            mix(word(len - 8));
        }
    }
    if seen & 0x8080_8080_8080_8080 != 0 {
        return None;
    }
    h ^= h >> 31;
    Some(h.wrapping_mul(0xC4CE_B9FE_1A85_EC53))
}

/// The two bit positions of a key's hash.
#[inline(always)]
pub fn key_bits(hash: u64) -> (usize, usize) {
    let m = hash.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((m >> 47) as usize, ((m >> 30) & 0x1_FFFF) as usize)
}
