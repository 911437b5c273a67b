//! Hostile messages on archive pages, round 4: addresses that survive obfuscation, and
//! messages whose pages grew past the memory bound (link-dense bodies, long address
//! fields, flowed parts), each measured against the bound the guide states.

#![cfg(feature = "mail")]

use crate::common;

use std::fs;
use std::path::PathBuf;

use common::memory::{assert_under, run_measured, MIB};

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("pages", name)
}

/// One message of `body` in an mbox of its own, in a fresh folder.
fn one_message(dir: &std::path::Path, headers: &str, body: &str) -> PathBuf {
    let mbox = dir.join("list.mbox");
    fs::write(
        &mbox,
        format!(
            "From a@example.com Mon Jan  1 00:00:00 2024\nMessage-ID: <1@example.com>\n\
             {headers}Subject: dense\n\n{body}"
        ),
    )
    .unwrap();
    mbox
}

/// `linkify` of `mbox` into `dir/web`, measured: its peak memory.
fn linkify_measured(mbox: &std::path::Path, dir: &std::path::Path) -> usize {
    let out = dir.join("web");
    let (mbox, out) = (mbox.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "linkify",
        "--no-progress",
        "-j",
        "1",
        "--mbox",
        mbox,
        "--out",
        out,
    ];
    let (peak, code, stderr) = run_measured(&args, None, |_| {});
    assert_eq!(code, Some(0), "{stderr}");
    peak
}

/// A message with a link every 5 bytes (4 MiB, some 840,000 links): the page is written
/// with the part's links borrowed, never copied once more for each range of text it
/// writes, and goes to its file as it is made (it is over ten times the message). It used
/// to take 91 times the message; the bound is the 48 times the guide states.
#[test]
fn a_link_dense_message_is_written_without_copying_its_links() {
    let dir = temp_dir("dense");
    let size = 4 * MIB;
    let body = format!("{}\n", "x.io ".repeat(16)).repeat(size / 81);
    let mbox = one_message(&dir, "", &body);
    let peak = linkify_measured(&mbox, &dir);
    assert_under("a link every 5 bytes", peak, 48 * size);
    fs::remove_dir_all(&dir).unwrap();
}
