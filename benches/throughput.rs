//! Throughput, side by side in one run (criterion reports MB/s; the ratios between rows
//! of one group are what to read, since they share the machine's state):
//!
//! * `linkscan` — the default finder (URLs and emails, IANA TLDs), counting links;
//! * `linkscan_readable` — the same with the readable policy (`Policy::Readable`);
//! * `linkify` — the `linkify` crate 0.11 with scheme-less URLs (`url_must_have_scheme(false)`)
//!   and emails, counting links;
//! * `memchr3_floor` — only finding every `.`, `@` and `:` with `memchr3`: a floor for any
//!   detector that has to look at those bytes;
//! * `aho_corasick_candidates` — only the candidate search of stage 1 (every `.`, `。`,
//!   `．` and `://`) done with the `aho-corasick` crate (its packed Teddy searcher), the
//!   general tool for such a multi-pattern search, against which the project's own
//!   kernel (`src/vector/`) is measured;
//! * `linkscan_par` — `par_links` on the global rayon pool (as many threads as CPUs).
//!
//! Groups: the two real corpora, link-free prose and a link-dense multilingual text
//! (`corpus/make_samples.py`), and the adversarial set at 1 MiB and 16 MiB per line
//! (linkify is left out there: some of these inputs are quadratic for it).
//!
//! `cargo bench --bench throughput` runs it all; add a filter such as `-- email-en` for
//! one group.

mod inputs;

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};

fn side_by_side(group: &mut BenchmarkGroup<'_, WallTime>, bytes: &[u8], with_linkify: bool) {
    let finder = linkscan::LinkFinder::new();
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("linkscan", |b| {
        b.iter(|| finder.links_bytes(black_box(bytes)).count())
    });
    let readable = linkscan::LinkFinder::builder()
        .policy(linkscan::Policy::Readable)
        .build();
    group.bench_function("linkscan_readable", |b| {
        b.iter(|| readable.links_bytes(black_box(bytes)).count())
    });
    if with_linkify {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let mut linkify_finder = linkify::LinkFinder::new();
        linkify_finder.url_must_have_scheme(false);
        group.bench_function("linkify", |b| {
            b.iter(|| linkify_finder.links(black_box(&text)).count())
        });
    }
    group.bench_function("memchr3_floor", |b| {
        b.iter(|| memchr::memchr3_iter(b'.', b'@', b':', black_box(bytes)).count())
    });
    let candidates = aho_corasick::AhoCorasick::new([".", "。", "．", "://"]).unwrap();
    group.bench_function("aho_corasick_candidates", |b| {
        b.iter(|| candidates.find_iter(black_box(bytes)).count())
    });
}

fn corpora(c: &mut Criterion) {
    let named = [
        ("email-en.mbox", inputs::corpus("email-en.mbox")),
        ("email-intl.txt", inputs::corpus("email-intl.txt")),
        ("prose", inputs::sample("prose.txt")),
        ("dense", inputs::sample("dense.txt")),
    ];
    for (name, bytes) in named {
        let Some(bytes) = bytes else { continue };
        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        side_by_side(&mut group, &bytes, true);
        if name == "email-en.mbox" {
            let finder = linkscan::LinkFinder::new();
            group.bench_function("linkscan_par", |b| {
                b.iter(|| finder.par_links(black_box(&bytes)).len())
            });
        }
        group.finish();
    }
}

fn adversarial(c: &mut Criterion) {
    // Unlimited length: these measure the scan itself, long "links" included.
    let finder = linkscan::LinkFinder::builder().max_link_len(None).build();
    for size in [1 << 20, 16 << 20] {
        let mut group = c.benchmark_group(format!("adversarial-{}MiB", size >> 20));
        group.sample_size(10);
        for (name, bytes) in inputs::adversarial(size) {
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.bench_function(name, |b| {
                b.iter(|| finder.links_bytes(black_box(&bytes)).count())
            });
        }
        group.finish();
    }
}

criterion_group!(benches, corpora, adversarial);
criterion_main!(benches);
