//! The fast finder agrees with the spec-literal oracle on arbitrary bytes, for every TLD
//! policy, and the `&str` entry point agrees with the bytes one on valid UTF-8.
#![no_main]

use libfuzzer_sys::fuzz_target;
use linkscan::{oracle, LinkFinder, TldPolicy};

fuzz_target!(|data: &[u8]| {
    for policy in [TldPolicy::Iana, TldPolicy::Syntactic] {
        let finder = LinkFinder::builder().tld_policy(policy.clone()).build();
        let fast: Vec<_> = finder.links_bytes(data).collect();
        assert_eq!(fast, oracle::find_links(data, &policy), "input {data:?}");
        if let Ok(text) = std::str::from_utf8(data) {
            assert!(finder.links(text).eq(fast.iter().copied()));
        }
    }
});
