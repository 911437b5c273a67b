//! Reading whole buffers, for the mail pipeline and the command line's readers: a `read`
//! loop that fills a buffer to its end or the input's ([`fill`]), the same with positioned
//! reads of a file ([`read_full`]), and an I/O error in words ([`describe`]).
//!
//! Invariants: a short count means the end of the input or the error returned with it
//! (never a lost error); `Interrupted` is retried; nothing allocates but [`describe`].

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;

/// Reads into all of `buf`, or up to the end of the input. Returns the bytes read and the
/// error that stopped it (fewer bytes than `buf` holds: the end, or that error).
pub fn fill(reader: &mut impl Read, buf: &mut [u8]) -> (usize, Option<io::Error>) {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (got, Some(e)),
        }
    }
    (got, None)
}

/// [`fill`] with positioned reads of `file` from `offset`: `buf.len()` bytes, or up to the
/// end of the file.
pub fn read_full(file: &File, offset: u64, buf: &mut [u8]) -> (usize, Option<io::Error>) {
    let mut got = 0;
    while got < buf.len() {
        match file.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (got, Some(e)),
        }
    }
    (got, None)
}

/// An I/O error in words, without the `(os error N)` suffix.
pub fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
