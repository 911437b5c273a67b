//! Throughput on the shared corpora, side by side in one run:
//!
//! * `linkscan` — the default finder (URLs and emails, IANA TLDs), counting links;
//! * `linkify` — the `linkify` crate 0.11 with scheme-less URLs and emails on, counting links;
//! * `memchr3_floor` — only finding every `.`, `@` and `:` with `memchr3`: a floor no
//!   detector that looks at those bytes can beat.
//!
//! Criterion reports MB/s for each; since all three run in the same process on the same
//! bytes, their ratios are meaningful even on a noisy machine. The corpora are read from
//! `$LINKSCAN_SHARED/corpus` (default `../shared/corpus`); a missing file is skipped with
//! a message.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn corpus_dir() -> PathBuf {
    linkscan::conformance::shared_dir(env!("CARGO_MANIFEST_DIR").as_ref()).join("corpus")
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = Vec::new();
    for name in ["email-en.mbox", "email-intl.txt"] {
        let path = corpus_dir().join(name);
        match std::fs::read(&path) {
            Ok(bytes) => inputs.push((name.to_string(), bytes)),
            Err(e) => eprintln!("skipping {}: {e}", path.display()),
        }
    }
    inputs
}

fn throughput(c: &mut Criterion) {
    let finder = linkscan::LinkFinder::new();
    let mut linkify_finder = linkify::LinkFinder::new();
    linkify_finder.url_must_have_scheme(false);
    for (name, bytes) in inputs() {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(20);
        group.bench_function("linkscan", |b| {
            b.iter(|| finder.links_bytes(black_box(&bytes)).count())
        });
        group.bench_function("linkify", |b| {
            b.iter(|| linkify_finder.links(black_box(&text)).count())
        });
        group.bench_function("memchr3_floor", |b| {
            b.iter(|| memchr::memchr3_iter(b'.', b'@', b':', black_box(&bytes)).count())
        });
        group.finish();
    }
}

criterion_group!(benches, throughput);
criterion_main!(benches);
