//! Spec section 1.4: "Implementations must not linkify if a domain is not a registrable
//! domain", in the sense of the WHATWG URL standard (host representation), which takes
//! public suffixes from the Public Suffix List. A host that is itself a public suffix has
//! no registrable domain.
//!
//! The list has two sections, and the official test data tells them apart. Its ICANN
//! section holds the registries' own suffixes (`co.uk`, `gov.br`, `公司.cn`, `*.ck`); its
//! private section, names under which companies give out subdomains (`github.io`,
//! `blogspot.com`, `s3.amazonaws.com`). `LinkDetectionTest.txt` expects `a blogspot.com b`
//! to be linked, so the reference behaviour, which that file defines, treats private
//! entries as registrable; the conformant finder therefore drops a URL whose host is an
//! entry of the ICANN section ([`Suffix::Icann`]: `co.uk`, `https://co.uk/`), and the
//! readable policy also one of the private section without a scheme (`github.io`), as
//! browsers do. `bbc.co.uk` and `user.github.io` are registrable under both.
//!
//! Where it runs: in the scanner, once on each URL with a TLD it finds, where the host's
//! bounds are known (the backward walk's start and the TLD's end), before any reporting
//! policy; so every entry point that scans through a finder (`links`, counts, parallel and
//! streaming scans, HTML, mail, Python, the `conformance` command) follows it, and the
//! readable policy reads the same verdict. It is step 9 of `initiation.md` (the report), made
//! conditional: a URL whose host is a public suffix is not reported, and the floor moves
//! past it all the same, as after an invalid local part (step 6), so nothing inside it is
//! reported instead. The spec-literal oracle does the same at the same step. The TLD
//! policy does not change it: the syntactic and user-supplied TLD policies decide what a
//! TLD is, and this rule which domains may be linked.
//!
//! What counts as the host: the URL's text after `scheme://` (when a scheme was written)
//! up to the end of its TLD (before a trailing dot, a port, a path), ASCII case ignored. A
//! host with any non-ASCII byte (Unicode labels, `。`, fullwidth letters, the Ignored
//! code points that a host walk passes over) is first mapped to its ASCII form by UTS #46
//! (the `idna` crate), as the WHATWG host parser does; one that UTS #46 refuses is left
//! linked (this rule only ever removes a domain it can name). The list knows both the
//! Unicode and the Punycode form of its entries.
//!
//! What it leaves alone, and why:
//!
//! * Emails. An email becomes a `mailto:` URL, which has no host in the WHATWG URL model
//!   (its address is an opaque path), so the registrable-domain rule, defined on hosts,
//!   does not reach it; and real addresses live at public suffixes
//!   (`jarkko.sakkinen@iki.fi`, `iki.fi` being a suffix of the list's private section).
//! * Hosts without a TLD (`localhost`, IPv4 and IPv6 addresses): an address is not a
//!   domain, and `localhost` is not on the list; the list lookup says so without a special
//!   case.
//!
//! Invariants: the rule only ever drops a whole URL, never moves its bounds; it reads only
//! the link's own bytes (so piece-by-piece scans agree with whole ones); it does not
//! allocate for an ASCII host. Filters generated from the list's own rules
//! (`src/psl_filter.rs`) answer for most hosts, which no rule can match, with a few
//! hashes of the host's first and last words and no loop ([`may_be_listed`]): they only
//! ever send a host on, never decide that one is listed. The few they send on (the
//! list's entries, the hosts under a wildcard rule's tail, and about one in 40 besides)
//! are looked up in a small per-thread cache of recent verdicts, then the list; and the
//! scanner keeps the verdict on the host it saw last ([`LastHost`]), for text that names
//! one host link after link. A conformant finder, which only drops the ICANN section's
//! entries and reads no other verdict, does not even probe the filters for a host under a
//! TLD with no ICANN entry below it ([`icann_entries_below`], a generated filter of about
//! 200 TLDs): `.com`, `.org`, `.net` and most others, 94 % of the URL hosts of
//! `email-intl.txt` and 96 % of those of `email-en.mbox`.

use crate::psl_filter::{PSL_FILTER, PSL_ICANN_PARENT_BITS, PSL_TAIL_FILTER, PSL_TAIL_LENGTHS};
use crate::psl_key::{
    host_words, key_bits, name_hash, tail_hash, tld_bit, ICANN_TLD_BITS_LOG2, OWN_WORDS_LOG2,
    SEED_OWN, SEED_REST, TAIL_WORDS_LOG2,
};

// The generated filters have the words the keys' definition addresses.
const _: () = assert!(PSL_FILTER.len() == 1 << OWN_WORDS_LOG2);
const _: () = assert!(PSL_TAIL_FILTER.len() == 1 << TAIL_WORDS_LOG2);
const _: () = assert!(PSL_ICANN_PARENT_BITS.len() * 64 == 1 << ICANN_TLD_BITS_LOG2);

/// Whether the list's ICANN section may have an entry under the TLD `packed` (an ASCII TLD
/// of at most 8 bytes, packed as `crate::tld` packs it): false for most TLDs (`com`,
/// `org`, `net`: the list's entries under them are all private), under which no host is
/// an ICANN entry, so a finder that only drops those need not look the host up. One bit
/// of a generated filter (`src/psl_filter.rs`), which may be set for a TLD that has none.
#[inline(always)]
pub(crate) fn icann_entries_below(packed: u64) -> bool {
    let bit = tld_bit(packed);
    PSL_ICANN_PARENT_BITS[bit / 64] >> (bit % 64) & 1 == 1
}

/// The longest domain name, in bytes, without its trailing dot (RFC 1035).
const MAX_HOST: usize = 253;

/// Which section of the Public Suffix List a host is an entry of, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Suffix {
    /// Not an entry: a registrable domain, or a name the list does not know.
    No,
    /// An entry of the ICANN section (`co.uk`): not linked by any finder.
    Icann,
    /// An entry of the private section (`github.io`): not linked by the readable policy.
    Private,
}

/// Which section `host` is an entry of, on bytes that need not be UTF-8 (a host the
/// scanner found always is; anything else is no suffix). The filters of
/// [`may_be_listed`] answer for most hosts; the few they let through are looked up (a host
/// of at most [`CACHED_HOST`] bytes in the thread's cache of recent verdicts first).
#[inline]
pub(crate) fn suffix(host: &[u8]) -> Suffix {
    let host = host.strip_suffix(b".").unwrap_or(host);
    let key = Key::of(host);
    if key.is_ascii(host) && !may_be_listed(host, key) {
        return Suffix::No;
    }
    looked_up(host, key)
}

/// [`suffix`] of a host the filters let through (`key` is its key): from the cache, or
/// the list. Out of line: the scanner's loop keeps only the call.
#[inline(never)]
fn looked_up(host: &[u8], key: Key) -> Suffix {
    if host.len() > CACHED_HOST {
        return look_up(host);
    }
    cached(host, key)
}

/// [`suffix`] of a host of at most [`CACHED_HOST`] bytes, whose key is `key`.
#[inline]
fn cached(host: &[u8], key: Key) -> Suffix {
    let hit = CACHE.try_with(|cache| {
        let cache = cache.borrow();
        let entry = &cache[key.slot()];
        (entry.key == key
            && (key.len <= 16 || entry.middle[..key.len - 16] == host[8..key.len - 8]))
            .then_some(entry.verdict)
    });
    match hit {
        Ok(Some(verdict)) => verdict,
        _ => remember(host, key),
    }
}

/// The verdict on the host looked up last by one scan, before the filters of
/// [`suffix`]: link-dense text names the same host link after link (`x.com:1x.com:1…`, a
/// list's own site), and the compare of the key that the filters need anyway costs less
/// than their probes.
#[derive(Clone, Copy)]
pub(crate) struct LastHost {
    key: Key,
    verdict: Suffix,
}

impl LastHost {
    /// Nothing looked up yet: the empty host, whose verdict is [`Suffix::No`].
    pub(crate) const fn new() -> LastHost {
        LastHost {
            key: Key::EMPTY,
            verdict: Suffix::No,
        }
    }

    /// [`suffix`] of `host`, remembered for the next call. `ascii`: whether the host is
    /// known to be all ASCII (the scanner learns it on its walks; false when unknown).
    #[inline(always)]
    pub(crate) fn suffix(&mut self, host: &[u8], ascii: bool) -> Suffix {
        // (A host the scanner found never ends with a dot.)
        debug_assert!(!host.ends_with(b"."));
        debug_assert!(!ascii || host.is_ascii());
        let key = Key::of(host);
        // The key is the whole host up to 16 bytes; a longer one is looked at again.
        if key == self.key && key.len <= 16 {
            return self.verdict;
        }
        let verdict = if (ascii || key.is_ascii(host)) && !may_be_listed(host, key) {
            Suffix::No
        } else {
            looked_up(host, key)
        };
        self.key = key;
        self.verdict = verdict;
        verdict
    }
}

/// A verdict the cache did not hold: the list's, put in the host's slot (no cache while
/// the thread's locals are being torn down).
#[inline(never)]
fn remember(host: &[u8], key: Key) -> Suffix {
    let verdict = look_up(host);
    let _ = CACHE.try_with(|cache| {
        let mut cache = cache.borrow_mut();
        let entry = &mut cache[key.slot()];
        entry.key = key;
        if key.len > 16 {
            entry.middle[..key.len - 16].copy_from_slice(&host[8..key.len - 8]);
        }
        entry.verdict = verdict;
    });
    verdict
}

/// Whether the two bits of a hash are set in its word of `filter` (of `2^words_log2`
/// words).
#[inline(always)]
fn in_filter(filter: &[u64], hash: u64, words_log2: u32) -> bool {
    let (word, a, b) = key_bits(hash, words_log2);
    filter
        .get(word)
        .is_some_and(|w| (w >> a) & (w >> b) & 1 == 1)
}

/// False when the ASCII `host`, whose [`Key`] is `key`, is certainly no entry of the
/// list: its own key is not in the generated filter of the list's rules, and none of its
/// tails is in the filter of its wildcard rules' tails, or its rest is not in the first
/// (`src/psl_filter.rs`, built from the rules of the `psl` package by `gen/src/psl.rs`;
/// the keys are defined in `src/psl_key.rs`). Three hashes of the key's words and three
/// loads, with no loop over the host and no branch on the probes' answers. It answers for
/// all but one URL host in 100 of `email-intl.txt` and one in 14 of `email-en.mbox` (the
/// list's entries, hosts under a wildcard rule's tail, and about one host in 40 besides:
/// there the commonest host, `linux-man.vger.kernel.org`, is one), which need neither the
/// cache nor the list's lookup (about 300 ns for a host not seen before). True (look it
/// up) for one whose keys the filters hold.
#[inline(always)]
fn may_be_listed(host: &[u8], key: Key) -> bool {
    let own = in_filter(
        &PSL_FILTER,
        name_hash(SEED_OWN, key.first, key.last, key.len),
        OWN_WORDS_LOG2,
    );
    let mut tail = false;
    for m in PSL_TAIL_LENGTHS {
        tail |= in_filter(&PSL_TAIL_FILTER, tail_hash(key.last, m), TAIL_WORDS_LOG2);
    }
    own || tail && rest_may_be_listed(host)
}

/// Whether the ASCII `host`, one of whose tails is a wildcard rule's, may match such a
/// rule: whether the key of its rest after the first label is in the filter. Out of line:
/// few hosts come here (on `email-en.mbox`, one in 13: the relays of large mail hosts,
/// under wildcard rules' tails such as `*.bc.googleusercontent.com`'s).
#[inline(never)]
fn rest_may_be_listed(host: &[u8]) -> bool {
    let Some(dot) = memchr::memchr(b'.', host) else {
        return false;
    };
    let rest = &host[dot + 1..];
    let (first, last) = host_words(rest);
    in_filter(
        &PSL_FILTER,
        name_hash(SEED_REST, first, last, rest.len()),
        OWN_WORDS_LOG2,
    )
}

/// Hosts this long or shorter (most hosts) are remembered by [`suffix`]'s cache.
const CACHED_HOST: usize = 32;

/// Entries of the cache: a power of two.
const CACHE_SLOTS: usize = 256;

/// A host as the filters hash it and the cache compares it: its first and last 8 bytes
/// ([`host_words`]: overlapping on a host of 8 to 15; a shorter one whole in each) and
/// its length, which are the whole host up to 16 bytes; a longer one's bytes between its
/// first and last 8 are compared apart. A few loads and no loop or copy.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    first: u64,
    last: u64,
    len: usize,
}

impl Key {
    /// The key of the empty host.
    const EMPTY: Key = Key {
        first: 0,
        last: 0,
        len: 0,
    };

    #[inline(always)]
    fn of(host: &[u8]) -> Key {
        let (first, last) = host_words(host);
        Key {
            first,
            last,
            len: host.len(),
        }
    }

    /// Whether `host`, whose key this is, is all ASCII (the filters know ASCII names
    /// only). The key's words hold a host of up to 16 bytes; of one up to 32 bytes long,
    /// two more words (overlapping) are read, with no loop.
    #[inline(always)]
    fn is_ascii(&self, host: &[u8]) -> bool {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let len = self.len;
        let middle = match len {
            0..=16 => 0,
            17..=32 => {
                let word = |at: usize| {
                    host.get(at..at + 8).map_or(HIGH, |w| {
                        u64::from_le_bytes(w.try_into().unwrap_or([0x80; 8]))
                    })
                };
                word(8) | word(len - 16)
            }
            _ => u64::from(!host.is_ascii()) << 7,
        };
        (self.first | self.last | middle) & HIGH == 0
    }

    /// The slot: a multiplicative hash of the key's words.
    #[inline(always)]
    fn slot(&self) -> usize {
        let h = (self.first ^ self.last.rotate_left(29) ^ self.len as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - CACHE_SLOTS.trailing_zeros())) as usize
    }
}

/// One remembered verdict: the host's key, its bytes between the key's words (of a host
/// over 16 bytes), and the list's verdict. An empty slot holds the empty host, whose
/// verdict is [`Suffix::No`], the slot's initial one.
#[derive(Clone, Copy)]
struct Remembered {
    key: Key,
    middle: [u8; CACHED_HOST - 16],
    verdict: Suffix,
}

thread_local! {
    /// The verdicts on the hosts looked up last on this thread, direct-mapped by a hash of
    /// the host's bytes as written. Text names the same few hosts again and again (a mail
    /// archive's list and relay hosts, a page's own site: on the two corpora of the
    /// benchmarks, 2,792 distinct hosts among 115,456 URLs and 6,091 among 45,726), and the
    /// list lookup costs about 370 instructions a host (a match per label, from the
    /// right), a hit a hash and three compares. An entry is the list's answer for exactly
    /// those bytes, so the cache changes no verdict; it holds 256 × 48 bytes per thread.
    static CACHE: std::cell::RefCell<[Remembered; CACHE_SLOTS]> = const {
        std::cell::RefCell::new(
            [Remembered {
                key: Key::EMPTY,
                middle: [0; CACHED_HOST - 16],
                verdict: Suffix::No,
            }; CACHE_SLOTS],
        )
    };
}

/// [`suffix`] without the cache: the list's answer.
#[inline(never)]
fn look_up(host: &[u8]) -> Suffix {
    let host = host.strip_suffix(b".").unwrap_or(host);
    if host.is_empty() {
        return Suffix::No;
    }
    if host.is_ascii() {
        if host.len() > MAX_HOST {
            return Suffix::No;
        }
        // The list is in lower case. (Testing first whether the host has an upper-case
        // letter was a loop whose exit the CPU mispredicted.)
        let mut lower = [0u8; MAX_HOST];
        let lower = &mut lower[..host.len()];
        lower.copy_from_slice(host);
        lower.make_ascii_lowercase();
        return listed(lower);
    }
    // UTS #46 maps case, width and `。` and drops the Ignored code points; Punycode out.
    match idna::domain_to_ascii_cow(host, idna::AsciiDenyList::EMPTY) {
        Ok(ascii) => {
            let ascii = ascii.strip_suffix('.').unwrap_or(&ascii);
            if ascii.is_empty() || ascii.len() > MAX_HOST {
                return Suffix::No;
            }
            listed(ascii.as_bytes())
        }
        Err(_) => Suffix::No,
    }
}

/// Which section the lower-case ASCII `host` is exactly an entry of (a wildcard's match
/// included, an exception excluded). A name the list does not know, which its default
/// rule would make a one-label suffix (`localhost`, `invalidtld`), is none.
fn listed(host: &[u8]) -> Suffix {
    match psl::suffix(host) {
        Some(s) if s.is_known() && s.as_bytes() == host => match s.typ() {
            Some(psl::Type::Private) => Suffix::Private,
            _ => Suffix::Icann,
        },
        _ => Suffix::No,
    }
}

/// Whether `host` (a domain name, a trailing dot allowed, any case, Unicode or Punycode)
/// is itself a public suffix of the Public Suffix List, such as `co.uk`, `github.io` or
/// `com`, in either of its sections: a host that is not a registrable domain in the
/// WHATWG URL standard's sense, which spec section 1.4 says must not be linked.
/// `bbc.co.uk` and `user.github.io` are registrable; a host whose TLD the list does not
/// know is not a public suffix. The list is compiled in (the `psl` crate).
///
/// A [`LinkFinder`](crate::LinkFinder) does not report a URL whose host is an entry of the
/// list's ICANN section (`co.uk`); the readable policy ([`Policy::Readable`](crate::Policy))
/// not one of its private section either (`github.io`), unless a scheme was written. The
/// official test file links `blogspot.com`, a private entry.
///
/// ```
/// use linkscan::is_public_suffix;
/// assert!(is_public_suffix("co.uk") && is_public_suffix("GitHub.IO."));
/// assert!(is_public_suffix("公司.cn") && is_public_suffix("xn--55qx5d.CN"));
/// assert!(!is_public_suffix("bbc.co.uk") && !is_public_suffix("user.github.io"));
/// assert!(!is_public_suffix("example.invalidtld") && !is_public_suffix("localhost"));
/// ```
pub fn is_public_suffix(host: &str) -> bool {
    suffix(host.as_bytes()) != Suffix::No
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_and_registrable_domains() {
        for suffix in [
            "co.uk",
            "github.io",
            "com",
            "COM.",
            "s3.amazonaws.com",
            "公司.cn",
            "xn--55qx5d.cn",
            "公司.CN",
            "ＣＯ．ＵＫ",
            "co\u{AD}.uk",
            "co。uk",
            "x.ck",
            "рф",
            "РФ",
        ] {
            assert!(is_public_suffix(suffix), "{suffix}");
        }
        for domain in [
            "bbc.co.uk",
            "user.github.io",
            "example.com",
            "例子.公司.cn",
            "www.ck",
            "localhost",
            "127.0.0.1",
            "[::1]",
            "example.invalidtld",
            "invalidtld",
            "",
            ".",
            "xn--zz.uk",
            "a\u{200D}.uk",
        ] {
            assert!(!is_public_suffix(domain), "{domain}");
        }
        assert_eq!(suffix(b"co.uk\xFF"), Suffix::No);
        assert!(!is_public_suffix(&"a.".repeat(200)));
        for (host, section) in [
            ("co.uk", Suffix::Icann),
            ("公司.cn", Suffix::Icann),
            ("x.ck", Suffix::Icann),
            ("github.io", Suffix::Private),
            ("blogspot.com", Suffix::Private),
            ("iki.fi", Suffix::Private),
            ("bbc.co.uk", Suffix::No),
        ] {
            assert_eq!(suffix(host.as_bytes()), section, "{host}");
        }
    }

    /// The library hashes keys as the generator did when it wrote the filters, and the
    /// filters hold the keys of the list's entries.
    #[test]
    fn the_filters_are_the_generators() {
        use crate::psl_filter::{PSL_NAME_SAMPLES, PSL_TAIL_SAMPLE};
        for (seed, name, hash) in PSL_NAME_SAMPLES {
            let key = Key::of(name.as_bytes());
            assert_eq!(
                name_hash(seed, key.first, key.last, key.len),
                hash,
                "{name}"
            );
            assert!(in_filter(&PSL_FILTER, hash, OWN_WORDS_LOG2), "{name}");
        }
        let (rest, hash) = PSL_TAIL_SAMPLE;
        let dotted = format!(".{rest}");
        let key = Key::of(dotted.as_bytes());
        assert_eq!(tail_hash(key.last, dotted.len()), hash, "{rest}");
        assert!(PSL_TAIL_LENGTHS.contains(&dotted.len()));
        assert!(in_filter(&PSL_TAIL_FILTER, hash, TAIL_WORDS_LOG2), "{rest}");
        for host in ["co.uk", "CO.UK", "s3.amazonaws.com", "x.ck", "com"] {
            let key = Key::of(host.as_bytes());
            assert!(key.is_ascii(host.as_bytes()), "{host}");
            assert!(may_be_listed(host.as_bytes(), key), "{host}");
        }
        // A non-ASCII byte anywhere, past the words the key holds too, is seen.
        for host in [
            "公司.cn",
            "a-long-host-name-\u{AD}-here.co.uk",
            "a-longer-host-name-than-the-rest-\u{AD}-here.co.uk",
            "a\u{AD}.uk",
        ] {
            assert!(
                !Key::of(host.as_bytes()).is_ascii(host.as_bytes()),
                "{host}"
            );
        }
        // Most hosts are filtered out: the filters are no "always look it up".
        let out = (0..1000)
            .map(|i| format!("host{i}.example{i}.com"))
            .filter(|h| !may_be_listed(h.as_bytes(), Key::of(h.as_bytes())))
            .count();
        assert!(out > 900, "only {out} of 1000 hosts filtered out");
    }

    /// Every TLD under which the ICANN section has an entry (the generator's list, from
    /// the `psl` package) has its bit, packed as the scanner packs the TLDs it finds; and
    /// the hosts of a sample of ICANN entries are under such TLDs.
    #[test]
    fn icann_entries_are_under_the_flagged_tlds() {
        use crate::psl_filter::PSL_ICANN_PARENTS;
        use crate::tld::pack_short_from;
        let packed = |tld: &str| {
            let padded = format!("{tld}........");
            pack_short_from(padded.as_bytes(), 0, tld.len()).unwrap()
        };
        for tld in PSL_ICANN_PARENTS {
            assert!(icann_entries_below(packed(tld)), "{tld}");
            assert!(
                icann_entries_below(packed(&tld.to_ascii_uppercase())),
                "{tld}"
            );
        }
        for host in [
            "co.uk",
            "x.ck",
            "x.kawasaki.jp",
            "com.io",
            "gov.br",
            "aaa.pro",
        ] {
            assert_eq!(suffix(host.as_bytes()), Suffix::Icann, "{host}");
            let tld = host.rsplit('.').next().unwrap();
            assert!(PSL_ICANN_PARENTS.contains(&tld), "{host}");
        }
        for tld in ["com", "org", "net", "edu"] {
            assert!(!PSL_ICANN_PARENTS.contains(&tld), "{tld}");
        }
    }

    /// The verdict on the host seen last is the list's, whether or not the caller knows
    /// the host to be ASCII, for hosts of every length class of the key (up to 16 bytes,
    /// up to 32, longer), each asked twice in a row and after another.
    #[test]
    fn the_last_host_verdict_is_the_lists() {
        let hosts = [
            "co.uk",
            "bbc.co.uk",
            "github.io",
            "user.github.io",
            "higashimatsuyama.saitama.jp",
            "www.higashimatsuyama.saitama.jp",
            "s3.dualstack.ap-northeast-1.amazonaws.com",
            "x.s3.dualstack.ap-northeast-1.amazonaws.com",
            "x.ck",
            "www.ck",
            "example.com",
        ];
        for ascii in [true, false] {
            let mut last = LastHost::new();
            for host in hosts.iter().chain(hosts.iter().rev()) {
                for _ in 0..2 {
                    assert_eq!(
                        last.suffix(host.as_bytes(), ascii),
                        suffix(host.as_bytes()),
                        "{host} (ascii: {ascii})"
                    );
                }
            }
        }
    }

    /// An entry with an invisible code point anywhere in it (which UTS #46 drops) is the
    /// entry: the filters see the non-ASCII byte in the middle of a long host too, where
    /// the key's words do not reach, and send it to the lookup.
    #[test]
    fn entries_with_an_ignored_code_point_anywhere_are_entries() {
        for (entry, section) in [
            ("higashimatsuyama.saitama.jp", Suffix::Icann),
            ("accident-investigation.aero", Suffix::Icann),
            ("cloud.interhostsolutions.be", Suffix::Private),
            ("s3.amazonaws.com", Suffix::Private),
            ("co.uk", Suffix::Icann),
        ] {
            assert_eq!(suffix(entry.as_bytes()), section, "{entry}");
            for at in 1..entry.len() {
                let host = format!("{}\u{AD}{}", &entry[..at], &entry[at..]);
                let mut last = LastHost::new();
                assert_eq!(suffix(host.as_bytes()), section, "{host:?}");
                // (The scanner never calls a host with a non-ASCII byte ASCII.)
                assert_eq!(last.suffix(host.as_bytes(), false), section, "{host:?}");
            }
        }
    }

    /// The words of a key are the whole host up to 16 bytes, at every length: hosts that
    /// differ in one byte have different keys.
    #[test]
    fn keys_hold_short_hosts_whole() {
        let host = b"abcdefghijklmnopq";
        for len in 0..=16 {
            let key = Key::of(&host[..len]);
            for i in 0..len {
                let mut other = host[..len].to_vec();
                other[i] = b'z';
                assert!(Key::of(&other) != key, "{len} {i}");
            }
            assert!(len == 0 || Key::of(&host[1..=len]) != key, "{len}");
        }
    }

    /// The filter never hides an entry: the list's verdict with and without it agree on
    /// hosts made of the labels of entries, in every position.
    #[test]
    fn filtered_verdicts_are_the_lists() {
        let labels = [
            "co",
            "uk",
            "com",
            "github",
            "io",
            "s3",
            "amazonaws",
            "compute",
            "ck",
            "www",
            "blogspot",
            "jp",
            "tokyo",
            "xn--55qx5d",
            "cn",
            "gov",
            "br",
            "k12",
            "ak",
            "us",
            "appspot",
            "herokuapp",
            "example",
            "iki",
            "fi",
            "pages",
            "dev",
        ];
        let mut hosts = Vec::new();
        for a in labels {
            for b in labels {
                hosts.push(format!("{a}.{b}"));
                for c in labels {
                    hosts.push(format!("{a}.{b}.{c}"));
                    hosts.push(format!("x.{a}.{b}.{c}"));
                }
            }
        }
        let mut entries = 0;
        for host in &hosts {
            // The list's own verdict, without the filter (the hosts are lower-case ASCII).
            let listed = listed(host.as_bytes());
            entries += usize::from(listed != Suffix::No);
            assert_eq!(suffix(host.as_bytes()), listed, "{host}");
            assert_eq!(look_up(host.as_bytes()), listed, "{host}");
        }
        assert!(
            entries > 50,
            "only {entries} entries among the hosts tested"
        );
    }

    /// The cache gives the list's verdict whatever was looked up before: hosts that share
    /// a slot, hosts that differ only in case or length, long hosts past the cache.
    #[test]
    fn cached_verdicts_are_the_lists() {
        let hosts: Vec<String> = (0..300)
            .flat_map(|i| {
                [
                    format!("h{i}.co.uk"),
                    "co.uk".to_string(),
                    "CO.UK".to_string(),
                    "co.uk.".to_string(),
                    "bbc.co.uk".to_string(),
                    format!("{}.github.io", "x".repeat(i % 40)),
                    "github.io".to_string(),
                ]
            })
            .collect();
        for _ in 0..2 {
            for host in &hosts {
                assert_eq!(suffix(host.as_bytes()), look_up(host.as_bytes()), "{host}");
            }
        }
        assert_eq!(suffix(b""), Suffix::No);
        assert_eq!(suffix(b"co.uk"), Suffix::Icann);
        assert_eq!(suffix(b"co.u"), Suffix::No);
    }
}
