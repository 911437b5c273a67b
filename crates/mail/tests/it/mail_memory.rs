//! `mail_memory`: the peak memory of scanning one message is at most
//! [`PEAK_PER_BYTE`] times the message's size, plus [`PEAK_PER_PART`] bytes per MIME part
//! (parts are at most `MAX_PARTS`, 10,000: past that the message is read as raw text),
//! plus [`PEAK_FIXED`] bytes, on messages built
//! to make the MIME parser and the scanner allocate: deep and wide nesting, nesting inside
//! an encoded message part at its limit, broken base64, thousands of tiny parts, dense
//! anchors, long lines.
//!
//! Memory is counted, not guessed from RSS: this test binary installs a global allocator
//! that forwards to the system allocator and keeps, for each thread, the bytes it has in
//! use and their peak. The scan runs on the test's thread (the other tests of the binary
//! run on theirs, and are not counted), so the peak over the scan, less the bytes in use
//! before it, is what the scan needed, its result included.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use linkscan_mail::message::{MAX_ENCODED_NESTED_MESSAGES, MAX_NESTED_MESSAGES};
use linkscan_mail::MailScanner;

/// The documented bound (README, "Limits"): peak bytes per byte of the message … The
/// densest text makes the most: a link can take 5 bytes (`a.co `), and each link found
/// is a record of about 90 bytes (offsets, its text, its href), held in a vector that
/// briefly has its old and new buffers as it grows (measured: 30x on such a line). The
/// other shapes here stay under 13x, besides their cost per part.
const PEAK_PER_BYTE: usize = 48;
/// … plus this much per MIME part (the parser's and the scanner's records of a part,
/// whatever its size) …
const PEAK_PER_PART: usize = 2048;
/// … plus this much, for the fixed costs of a scan (tables, small buffers).
const PEAK_FIXED: usize = 1 << 20;

struct Counting;

thread_local! {
    /// The bytes this thread has in use (allocated here, less those freed here: a thread
    /// may free what another allocated) and their peak. Constant-initialised cells, which
    /// allocate nothing and need no destructor, so the allocator may use them.
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grew(by: usize) {
    let _ = IN_USE.try_with(|in_use| {
        let now = in_use.get() + by as isize;
        in_use.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn shrank(by: usize) {
    let _ = IN_USE.try_with(|in_use| in_use.set(in_use.get() - by as isize));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// contract of `GlobalAlloc` is `System`'s; the counters are thread-local cells that never
// affect the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` are passed on to `System`.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` (through `alloc`) with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`; the caller guarantees
        // `new_size` is valid for it.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // The old and the new block may both exist during the move: count the new one
            // before releasing the old.
            grew(new_size);
            shrank(layout.size());
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak bytes that scanning `raw` allocated above what was in use before it.
fn scan_peak(scanner: &MailScanner, raw: &[u8]) -> (usize, usize) {
    let before = IN_USE.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    let scanned = scanner.scan(raw);
    let links = scanned.link_count();
    drop(scanned);
    let peak = PEAK.with(Cell::get) - before;
    (usize::try_from(peak).unwrap_or(0), links)
}

fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, chunk) in data.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push('\n');
        }
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
        for k in 0..4 {
            out.push(if k <= chunk.len() {
                ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    out.push('\n');
    out
}

fn nested(depth: usize, filler: usize) -> Vec<u8> {
    let mut raw = b"From: a@example.com\nSubject: deep\n".to_vec();
    for _ in 0..depth {
        raw.extend_from_slice(b"Content-Type: message/rfc822\n\n");
    }
    raw.extend_from_slice(b"Subject: inner\n\nhttps://deep.example.com/innermost\n");
    raw.extend(std::iter::repeat_n(b'x', filler));
    raw.push(b'\n');
    raw
}

/// The hostile messages, by name, with how many parts the parser makes of them (0 when
/// they are read as raw text).
fn messages() -> Vec<(&'static str, Vec<u8>, usize)> {
    let mut all = Vec::new();
    all.push((
        "nested 200,000 deep (over the limit)",
        nested(200_000, 0),
        0,
    ));
    all.push((
        "nested at the limit",
        nested(MAX_NESTED_MESSAGES - 1, 0),
        MAX_NESTED_MESSAGES,
    ));
    // Nesting inside a base64 message part at its limit, padded to 1 MB: the parser copies
    // the decoded body once per level.
    let mut encoded = b"From: a@example.com\nSubject: encoded\n\
                        Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n"
        .to_vec();
    encoded.extend_from_slice(base64(&nested(MAX_ENCODED_NESTED_MESSAGES, 1 << 20)).as_bytes());
    all.push(("nested in a base64 part, at its limit, 1 MB", encoded, 10));
    // Two encodings deep: a base64 message part inside one, the limit's worth of levels
    // inside the inner one.
    let mut inner = b"Subject: middle\nContent-Type: message/rfc822\n\
                      Content-Transfer-Encoding: base64\n\n"
        .to_vec();
    inner.extend_from_slice(
        base64(&nested(MAX_ENCODED_NESTED_MESSAGES / 2 - 1, 1 << 19)).as_bytes(),
    );
    let mut outer = b"From: a@example.com\nSubject: twice\n\
                      Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n"
        .to_vec();
    outer.extend_from_slice(base64(&inner).as_bytes());
    all.push(("nested in base64 twice, 1 MB", outer, 10));
    // A broken base64 body of 1 MB with a footer.
    let mut broken = b"From: a@example.com\nContent-Type: text/plain\n\
                       Content-Transfer-Encoding: base64\n\n"
        .to_vec();
    broken.extend_from_slice(base64(&b"see https://b64.example.com/x\n".repeat(35_000)).as_bytes());
    broken.extend_from_slice(b"-- \nhttps://footer.example.org/\n");
    all.push(("broken base64, 1 MB", broken, 1));
    // 20,000 tiny text parts in one multipart.
    let mut wide = b"From: a@example.com\nContent-Type: multipart/mixed; boundary=w\n\n".to_vec();
    for i in 0..20_000 {
        wide.extend_from_slice(format!("--w\n\nx{i}.example.com\n").as_bytes());
    }
    wide.extend_from_slice(b"--w--\n");
    all.push(("20,000 tiny parts (over the limit)", wide, 0));
    // Multiparts 5,000 deep.
    let mut deep = b"From: a@example.com\n".to_vec();
    for i in 0..5_000 {
        deep.extend_from_slice(
            format!("Content-Type: multipart/mixed; boundary=\"b{i}\"\n\n--b{i}\n").as_bytes(),
        );
    }
    deep.extend_from_slice(b"\nhttps://multi.example.com/\n");
    all.push(("multiparts 5,000 deep", deep, 5_001));
    // An HTML part dense with anchors.
    let mut html = b"From: a@example.com\nContent-Type: text/html\n\n".to_vec();
    html.extend_from_slice(&b"<a href=a.co>x</a>".repeat(50_000));
    all.push(("50,000 anchors", html, 1));
    // One line of 4 MB: a link every 5 bytes (each link found is a record of its own).
    let mut line = b"From: a@example.com\n\n".to_vec();
    line.extend_from_slice(&b"a.co ".repeat(800_000));
    all.push(("one 4 MB line, a link every 5 bytes", line, 1));
    // One link of 4 MB (over the length limit of links: reported as none).
    let mut long = b"From: a@example.com\n\nhttps://x.example.com/ ".to_vec();
    long.extend_from_slice(&b"a.com/b.com/".repeat(350_000));
    all.push(("one 4 MB link", long, 1));
    // 4 MB of short header fields (600,000 of them): a record of every field took 22 to
    // 45 times their bytes; fields the scan ignores are kept by no record now, and a block
    // keeps at most 1,000 of the others (checked below: under the message's size).
    for field in ["X-a: b\n", "Subject: a\n", "To: <a@b>\n", "X:a\n"] {
        let mut fields = b"From: a@example.com\n".to_vec();
        while fields.len() < 4 << 20 {
            fields.extend_from_slice(field.as_bytes());
        }
        fields.extend_from_slice(b"\nhttps://fields.example.com/\n");
        all.push(("4 MB of short header fields", fields, 1));
    }
    // The same fields in the header of a nested message, which the general MIME parse
    // reads (a record of every field took 45 times their bytes there): as the part of a
    // multipart, and as the whole body of a message.
    for field in ["X-a: b\n", "Subject: a\n", "X:a\n"] {
        for multipart in [true, false] {
            let mut raw = b"From: a@example.com\n".to_vec();
            if multipart {
                raw.extend_from_slice(b"Content-Type: multipart/mixed; boundary=b\n\n--b\n");
            }
            raw.extend_from_slice(b"Content-Type: message/rfc822\n\nFrom: b@example.com\n");
            while raw.len() < 4 << 20 {
                raw.extend_from_slice(field.as_bytes());
            }
            raw.extend_from_slice(b"\nhttps://nested.example.com/\n");
            if multipart {
                raw.extend_from_slice(b"--b--\n");
            }
            all.push(("4 MB of short header fields in a nested message", raw, 3));
        }
    }
    all
}

#[test]
fn peak_memory_of_a_scan_is_bounded_by_a_multiple_of_the_message() {
    let scanner = MailScanner::new();
    // A first scan, so that lazily built tables are not counted against a message.
    scan_peak(
        &scanner,
        b"From: a@example.com\n\nhttps://warm.example.com\n",
    );
    let mut report = Vec::new();
    for (name, raw, parts) in messages() {
        let (peak, links) = scan_peak(&scanner, &raw);
        assert!(links > 0, "{name}: no link found");
        let ratio = peak as f64 / raw.len() as f64;
        report.push(format!(
            "{name}: {} bytes, peak {peak} bytes ({ratio:.2}x), {links} links",
            raw.len()
        ));
        let bound = if name.contains("header fields") {
            raw.len()
        } else {
            PEAK_PER_BYTE * raw.len() + PEAK_PER_PART * parts + PEAK_FIXED
        };
        assert!(
            peak <= bound,
            "{name}: peak {peak} bytes for a message of {} bytes and {parts} parts is over \
             {bound}\n{}",
            raw.len(),
            report.join("\n")
        );
    }
    // Counting only (`find --count`): a line with a link every 6 bytes keeps no record
    // per link, and counts the same links.
    let mut dense = b"From: a@example.com\n\n".to_vec();
    dense.extend_from_slice(&b"ab.co ".repeat(700_000));
    let (kept, links) = scan_peak(&scanner, &dense);
    let (counted, count) = scan_peak(&MailScanner::new().count_only(true), &dense);
    assert_eq!(count, links);
    report.push(format!(
        "a link every 6 bytes, {} bytes: peak {kept} bytes kept, {counted} counted",
        dense.len()
    ));
    assert!(
        counted <= 3 * dense.len(),
        "counting {} links peaked at {counted} bytes\n{}",
        links,
        report.join("\n")
    );
    // The figures, with `--nocapture`.
    println!("{}", report.join("\n"));
}

/// One `To:` field of 3 million addresses (6 MB) and a `Cc:` of groups: the index keeps
/// the addresses of the field's first 16 KiB and a count of the rest, so the scan for an
/// archive stays within the bound of any message (the parser alone would hold an entry per
/// address, about 75 times the field).
#[test]
fn a_field_of_millions_of_addresses_is_cut_with_a_count() {
    let scanner = MailScanner::new().index_fields(true);
    scan_peak(
        &scanner,
        b"From: a@example.com\nTo: b@example.com\n\nx.com\n",
    );
    let mut raw = b"From: a@example.com\nTo: ".to_vec();
    raw.extend_from_slice(&b"a@b.co, ".repeat(750_000));
    raw.extend_from_slice(b"last@example.com\nCc: g: ");
    raw.extend_from_slice(&b"c@d.co, ".repeat(750_000));
    raw.extend_from_slice(b"z@example.com;\nSubject: see example.com\n\nhttps://example.org\n");
    let (peak, links) = scan_peak(&scanner, &raw);
    assert!(links > 0);
    let bound = PEAK_PER_BYTE * raw.len() + PEAK_FIXED;
    assert!(
        peak <= bound,
        "{} bytes of addresses: peak {peak} bytes, over {bound}",
        raw.len()
    );
    let scanned = scanner.scan(&raw);
    let to = scanned.to();
    assert!(to.len() < 3_000, "{} addresses kept", to.len());
    assert_eq!(to[0], "a@b.co");
    let more: usize = to
        .last()
        .and_then(|l| l.strip_prefix("… and "))
        .and_then(|l| l.strip_suffix(" more"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the last entry is a count: {:?}", to.last()));
    assert_eq!(
        to.len() - 1 + more,
        750_001,
        "kept and counted make every address"
    );
    let cc = scanned.cc();
    assert!(
        cc.len() < 3_000 && cc[0] == "c@d.co",
        "{:?}",
        &cc[..3.min(cc.len())]
    );
    assert!(cc.last().is_some_and(|l| l.starts_with("… and ")));
}
