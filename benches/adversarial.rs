//! Throughput on 100 MB lines of adversarial content (the lines of `tests/limits.rs`),
//! and the cost of the security checks of section 8 on a real corpus.
//!
//! * `adversarial/<line>`: the default finder over 100 MB built to make link detectors
//!   slow, one line of: open brackets after a path, `a.a.a.…`, `@@@…`, host characters
//!   without a TLD, `x@x@…`, one host of millions of labels; and link-dense text: a URL
//!   every six bytes, an email or a URL with a port every eight (one line each), a URL
//!   per line.
//!   A linear scanner shows a throughput of the same order as on ordinary text.
//! * `checks/<corpus>`: `LinkFinder::links_bytes` against `checks::checked_links` (the
//!   same links, each checked) on the shared corpora.
//!
//! `cargo bench --bench adversarial`; criterion reports MB/s.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use linkscan::{checks, LinkFinder};

const SIZE: usize = 100_000_000;

fn lines() -> Vec<(&'static str, String)> {
    vec![
        (
            "open_brackets",
            format!("example.com/{}", "(".repeat(SIZE - 12)),
        ),
        ("a_dot_a_dot", "a.".repeat(SIZE / 2)),
        ("at_signs", "@".repeat(SIZE)),
        ("hosts_without_tld", "ab-cd.ef-gh.ij".repeat(SIZE / 14)),
        ("x_at_x_at", "x@".repeat(SIZE / 2)),
        ("one_long_host", "a.com.".repeat(SIZE / 6)),
        ("link_every_6_bytes", "x.com ".repeat(SIZE / 6)),
        ("email_every_8_bytes", "a@b.com ".repeat(SIZE / 8)),
        ("port_every_8_bytes", "x.com:1 ".repeat(SIZE / 8)),
        ("link_per_line", "x.com\n".repeat(SIZE / 6)),
    ]
}

fn adversarial(c: &mut Criterion) {
    let finder = LinkFinder::new();
    let mut group = c.benchmark_group("adversarial");
    group.sample_size(10);
    for (name, text) in lines() {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| finder.links_bytes(black_box(text.as_bytes())).count())
        });
    }
    group.finish();
}

fn checks_cost(c: &mut Criterion) {
    let finder = LinkFinder::new();
    let dir = linkscan::conformance::shared_dir(env!("CARGO_MANIFEST_DIR").as_ref()).join("corpus");
    for name in ["email-intl.txt"] {
        let path = dir.join(name);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("skipping {}: {e}", path.display());
                continue;
            }
        };
        let mut group = c.benchmark_group(format!("checks/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(20);
        group.bench_function("links", |b| {
            b.iter(|| finder.links_bytes(black_box(&bytes)).count())
        });
        group.bench_function("checked_links", |b| {
            b.iter(|| {
                checks::checked_links(&finder, black_box(&bytes))
                    .filter(|(_, check)| check.passed())
                    .count()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, adversarial, checks_cost);
criterion_main!(benches);
