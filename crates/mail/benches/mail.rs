//! Mail archive throughput, in MB of mbox per second, on the shared mbox corpus
//! (`$LINKSCAN_SHARED/corpus/email-en.mbox`, default `../shared/corpus`; skipped with a
//! message when missing):
//!
//! * `split` — only splitting the archive into messages ([`MboxReader`]);
//! * `scan_j1`, `scan_j2` — split, then parse, decode and scan every message on a rayon
//!   pool of one or two threads, results collected in archive order (what
//!   `linkscan find --mbox -j N` does, less the output);
//! * `scan_gz_j2` — the same from the gzip-compressed archive (decompressed as it is read).
//!
//! The command line's own figures (with output, peak memory) are measured with
//! `/usr/bin/time -v linkscan find --mbox -j N …`; see the README.

use std::hint::black_box;
use std::io::Write;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use linkscan_mail::{open_mbox, MailScanner, MboxReader};
use rayon::prelude::*;

/// Splits and scans like the command line: batches of about 1 MiB, each scanned in
/// parallel, results kept in order. Returns the number of links.
fn scan(archive: &[u8], pool: &rayon::ThreadPool, scanner: &MailScanner) -> usize {
    let reader = MboxReader::new(open_mbox(archive).expect("in-memory archive"));
    let mut links = 0;
    let mut batch = Vec::new();
    let mut bytes = 0;
    let run = |batch: &mut Vec<Vec<u8>>| {
        let counts: Vec<usize> = pool.install(|| {
            batch
                .par_iter()
                .map(|m| scanner.scan(m).link_count())
                .collect()
        });
        batch.clear();
        counts.iter().sum::<usize>()
    };
    for message in reader {
        let message = message.expect("in-memory reads cannot fail");
        let message = message.into_bytes();
        bytes += message.len();
        batch.push(message);
        if bytes >= 1 << 20 {
            links += run(&mut batch);
            bytes = 0;
        }
    }
    links + run(&mut batch)
}

fn mail(c: &mut Criterion) {
    let dir = linkscan::conformance::shared_dir(env!("CARGO_MANIFEST_DIR").as_ref()).join("corpus");
    let path = dir.join("email-en.mbox");
    let archive = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("skipping the mail benchmarks: {}: {e}", path.display());
            return;
        }
    };
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&archive).expect("compress in memory");
    let gz = gz.finish().expect("compress in memory");
    let scanner = MailScanner::new();
    let pools: Vec<_> = [1, 2]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("a pool")
        })
        .collect();

    let mut group = c.benchmark_group("email-en.mbox");
    group.throughput(Throughput::Bytes(archive.len() as u64));
    group.sample_size(10);
    group.bench_function("split", |b| {
        b.iter(|| MboxReader::new(black_box(&archive[..])).count())
    });
    group.bench_function("scan_j1", |b| {
        b.iter(|| scan(black_box(&archive), &pools[0], &scanner))
    });
    group.bench_function("scan_j2", |b| {
        b.iter(|| scan(black_box(&archive), &pools[1], &scanner))
    });
    group.bench_function("scan_gz_j2", |b| {
        b.iter(|| scan(black_box(&gz), &pools[1], &scanner))
    });
    group.finish();
}

criterion_group!(benches, mail);
criterion_main!(benches);
