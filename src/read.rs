//! An I/O error in words ([`describe`]), for the mail pipeline and the command line.

use std::io;

/// An I/O error in words, without the `(os error N)` suffix.
pub fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
