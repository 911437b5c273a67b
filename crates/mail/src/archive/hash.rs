//! XXH64 (seed 0), the hash of the archive's state file: of its input's bytes, of each
//! page, of the file itself, and of each Message-ID a row keeps (`text::id_hash`).
//!
//! # Algorithm
//!
//! The reference XXH64: four lanes of 64 bits take 32-byte stripes (a round each: add the
//! word times a prime, rotate, times another); at the end the lanes are merged, the total
//! length added, the last bytes (under 32) mixed in by 8, 4 and 1, and the result
//! avalanched. [`Hash64`] takes its input in pieces of any size and buffers a stripe.
//!
//! # Invariants
//!
//! * The value is that of the reference implementation (its test checks the reference
//!   values), so a state file written by one build is read by any other.
//! * Fed in pieces, the hash is that of the pieces joined: where they are cut does not
//!   matter.

/// XXH64 (seed 0), fed in pieces of any size.
#[derive(Clone, Debug)]
pub(crate) struct Hash64 {
    acc: [u64; 4],
    buf: [u8; 32],
    buffered: usize,
    total: u64,
}

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

fn round(acc: u64, input: u64) -> u64 {
    acc.wrapping_add(input.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

fn merge(acc: u64, v: u64) -> u64 {
    (acc ^ round(0, v)).wrapping_mul(P1).wrapping_add(P4)
}

fn word(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

impl Hash64 {
    pub(crate) fn new() -> Hash64 {
        Hash64 {
            acc: [P1.wrapping_add(P2), P2, 0, 0u64.wrapping_sub(P1)],
            buf: [0; 32],
            buffered: 0,
            total: 0,
        }
    }

    fn stripe(acc: &mut [u64; 4], s: &[u8]) {
        acc[0] = round(acc[0], word(&s[0..]));
        acc[1] = round(acc[1], word(&s[8..]));
        acc[2] = round(acc[2], word(&s[16..]));
        acc[3] = round(acc[3], word(&s[24..]));
    }

    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.buffered > 0 {
            let take = (32 - self.buffered).min(bytes.len());
            self.buf[self.buffered..self.buffered + take].copy_from_slice(&bytes[..take]);
            self.buffered += take;
            bytes = &bytes[take..];
            if self.buffered < 32 {
                return;
            }
            let buf = self.buf;
            Self::stripe(&mut self.acc, &buf);
            self.buffered = 0;
        }
        let mut stripes = bytes.chunks_exact(32);
        for s in &mut stripes {
            Self::stripe(&mut self.acc, s);
        }
        let rest = stripes.remainder();
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    pub(crate) fn finish(&self) -> u64 {
        let a = self.acc;
        let mut h = if self.total >= 32 {
            let h = a[0]
                .rotate_left(1)
                .wrapping_add(a[1].rotate_left(7))
                .wrapping_add(a[2].rotate_left(12))
                .wrapping_add(a[3].rotate_left(18));
            a.iter().fold(h, |h, &v| merge(h, v))
        } else {
            P5
        };
        h = h.wrapping_add(self.total);
        let mut rest = &self.buf[..self.buffered];
        while rest.len() >= 8 {
            h = (h ^ round(0, word(rest)))
                .rotate_left(27)
                .wrapping_mul(P1)
                .wrapping_add(P4);
            rest = &rest[8..];
        }
        if rest.len() >= 4 {
            let w = u64::from(u32::from_le_bytes(rest[..4].try_into().expect("4 bytes")));
            h = (h ^ w.wrapping_mul(P1))
                .rotate_left(23)
                .wrapping_mul(P2)
                .wrapping_add(P3);
            rest = &rest[4..];
        }
        for &b in rest {
            h = (h ^ u64::from(b).wrapping_mul(P5))
                .rotate_left(11)
                .wrapping_mul(P1);
        }
        h ^= h >> 33;
        h = h.wrapping_mul(P2);
        h ^= h >> 29;
        h = h.wrapping_mul(P3);
        h ^ (h >> 32)
    }
}

/// The XXH64 of `bytes`.
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    let mut h = Hash64::new();
    h.update(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference values of XXH64 with seed 0, at every path of the code (the stripes,
    /// the 8-, 4- and 1-byte tails), and the same when fed a byte at a time.
    #[test]
    fn xxh64_gives_the_reference_values() {
        assert_eq!(hash(b""), 0xEF46_DB37_51D8_E999);
        assert_eq!(hash(b"a"), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(hash(b"abc"), 0x44BC_2CF5_AD77_0999);
        let long: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        let whole = hash(&long);
        let mut h = Hash64::new();
        for b in &long {
            h.update(std::slice::from_ref(b));
        }
        assert_eq!(h.finish(), whole);
        let mut h = Hash64::new();
        h.update(&long[..33]);
        h.update(&long[33..500]);
        h.update(&long[500..]);
        assert_eq!(h.finish(), whole);
    }
}
