//! Instruction counts (iai-callgrind, under valgrind): the same scan on small fixed inputs,
//! repeatable to the instruction whatever else the machine is doing, so two commits can be
//! compared anywhere. Needs `valgrind` and `iai-callgrind-runner` 0.16.1
//! (`cargo install iai-callgrind-runner --version 0.16.1`); run with
//! `cargo bench --bench instructions`.

mod inputs;

use std::hint::black_box;

use iai_callgrind::{library_benchmark, library_benchmark_group, main};

/// 256 KiB from the middle of a corpus file, cut at line ends.
fn corpus_slice(name: &str) -> Vec<u8> {
    let bytes = inputs::corpus(name).unwrap_or_default();
    let mid = bytes.len() / 2;
    let start = bytes[..mid]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = (start + (256 << 10)).min(bytes.len());
    bytes[start..end].to_vec()
}

fn sample_slice(name: &str) -> Vec<u8> {
    let mut bytes = inputs::sample(name).unwrap_or_default();
    bytes.truncate(256 << 10);
    bytes
}

/// A finder ready to scan: built, and its TLD set initialised, so that the measured
/// function counts the scan alone.
fn ready(text: Vec<u8>) -> (linkscan::LinkFinder, Vec<u8>) {
    let finder = linkscan::LinkFinder::builder().max_link_len(None).build();
    assert_eq!(finder.links("warm up example.com").count(), 1);
    (finder, text)
}

fn adversarial(name: &str) -> Vec<u8> {
    inputs::adversarial(64 << 10)
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| bytes)
        .unwrap_or_else(|| panic!("no adversarial input named {name:?}"))
}

#[library_benchmark]
#[bench::email_en(ready(corpus_slice("email-en.mbox")))]
#[bench::email_intl(ready(corpus_slice("email-intl.txt")))]
#[bench::prose(ready(sample_slice("prose.txt")))]
#[bench::dense(ready(sample_slice("dense.txt")))]
#[bench::host_runs(ready(adversarial("host-runs -x.com．")))]
#[bench::dots(ready(adversarial("dots a.")))]
#[bench::linkify_115(ready(adversarial("linkify#115 a.a~")))]
#[bench::scripts(ready(adversarial("scripts a.α.中.")))]
#[bench::emails(ready(adversarial("emails a@b.com")))]
#[bench::tlds(ready(adversarial("tlds .com")))]
#[bench::no_tld(ready(adversarial("no tld ab-cd.ef1")))]
fn linkscan_count((finder, text): (linkscan::LinkFinder, Vec<u8>)) -> usize {
    black_box(finder.links_bytes(black_box(&text)).count())
}

// The same scan through the `&str` entry point (`LinkFinder::links`), which must cost what
// the bytes scan costs.
#[library_benchmark]
#[bench::email_en(ready_str(corpus_slice("email-en.mbox")))]
#[bench::email_intl(ready_str(corpus_slice("email-intl.txt")))]
fn linkscan_count_str((finder, text): (linkscan::LinkFinder, String)) -> usize {
    black_box(finder.links(black_box(&text)).count())
}

fn ready_str(text: Vec<u8>) -> (linkscan::LinkFinder, String) {
    let (finder, text) = ready(text);
    (finder, String::from_utf8_lossy(&text).into_owned())
}

#[library_benchmark]
#[bench::email_en(corpus_slice("email-en.mbox"))]
#[bench::email_intl(corpus_slice("email-intl.txt"))]
#[bench::prose(sample_slice("prose.txt"))]
#[bench::dense(sample_slice("dense.txt"))]
fn linkify_count(text: Vec<u8>) -> usize {
    let text = String::from_utf8_lossy(&text).into_owned();
    let mut finder = linkify::LinkFinder::new();
    finder.url_must_have_scheme(false);
    black_box(finder.links(black_box(&text)).count())
}

library_benchmark_group!(name = scan; benchmarks = linkscan_count, linkscan_count_str, linkify_count);
main!(library_benchmark_groups = scan);
