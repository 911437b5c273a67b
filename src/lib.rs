//! # linkscan
//!
//! Finds URLs and email addresses in plain text exactly as Unicode UTS #58 (Unicode Link
//! Detection and Formatting, version 17.0) specifies, and formats URLs with its minimal
//! percent-escaping.
//!
//! * Detection: [`LinkFinder`] (URLs and emails; IANA, user-supplied or syntactic TLDs),
//!   over `&str` (each link a [`Match`] bound to its text) or over bytes that may be
//!   invalid UTF-8 (each an offset-only [`Link`]); [`LinkFinder::spans`] cuts a text into
//!   links and the text between them.
//! * Termination alone (section 3.5.1, for the migration path of section 10): [`link_end`].
//! * Properties: [`link_term`], [`link_bracket`], [`is_link_email`].
//! * Formatting (section 4 minimal escaping, section 5.3 email quoting): [`escape_url`],
//!   [`escape_url_parts`], [`format_email`] and the rest of [`format`](mod@format).
//! * A readable policy (section 8's higher level) that leaves out code and file names
//!   and keeps hosts out of the ideographic text before them: [`Policy`].
//! * Security checks of section 8 over detected links (TLD syntax, Identifier_Status,
//!   Bidi_Control), an optional layer that leaves detection conformant: [`checks`].
//! * Email archives (feature `mail`, on by default): mbox, gzip, Maildir, MIME decoding,
//!   HTML parts: [`mail`].
//! * Scans of one large text on the rayon thread pool (feature `parallel`, on by
//!   default): [`LinkFinder::par_links`].
//!
//! The default features also build the `linkscan` command-line tool (feature `cli`); a
//! library user who does not want its dependencies writes `default-features = false`
//! and names the features above. Without any, the library depends on `memchr`, `idna`,
//! `unicode-security` and `psl` (the Public Suffix List) alone.
//!
//! ```
//! let text = "See ⸠example.com/αβγ⸡ and (https://en.wikipedia.org/wiki/The_Lovemakers_(film)).";
//! let text = text.replace(['⸠', '⸡'], "");
//! let links: Vec<&str> = linkscan::LinkFinder::new()
//!     .links(&text)
//!     .map(|link| link.as_str())
//!     .collect();
//! assert_eq!(links, ["example.com/αβγ", "https://en.wikipedia.org/wiki/The_Lovemakers_(film)"]);
//! ```

// `unsafe` is allowed only in the vector kernels of `vector`, each block with a SAFETY note.
#![deny(unsafe_code)]
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

mod ascii;
pub mod checks;
#[cfg(feature = "__internals")]
#[doc(hidden)]
pub mod conformance;
pub mod display;
mod finder;
pub mod format;
pub mod html;
mod invisible;
mod link;
#[cfg(feature = "mail")]
pub mod mail;
mod matches;
#[cfg(feature = "__internals")]
#[doc(hidden)]
pub mod oracle;
mod parts;
mod policy;
mod props;
#[rustfmt::skip]
#[allow(dead_code)] // the samples and the version serve the tests
mod psl_filter;
mod psl_key;
#[cfg(any(all(feature = "mail", feature = "parallel"), feature = "__internals"))]
mod read;
mod registrable;
// The Python classes are shown to Python through their `__repr__`, and are not part of
// the Rust API (the module is private).
#[cfg(feature = "python")]
#[allow(missing_debug_implementations)]
mod python;
mod scanner;
mod spans;
mod split;
#[rustfmt::skip]
#[allow(missing_docs, dead_code)]
mod tables;
mod terminate;
mod tld;
mod utf8;
mod vector;
pub mod window;

pub use finder::{LinkFinder, LinkFinderBuilder, Links, DEFAULT_MAX_LINK_LEN};
pub use format::{
    escape_url, escape_url_parts, escape_url_with, format_email, quote_local_part, FormatOptions,
    UrlParts,
};
pub use link::{Link, LinkKind};
pub use matches::{Match, Matches};
pub use policy::{Policy, FILE_EXTENSION_TLDS, METHOD_NAME_TLDS};
pub use props::{
    is_bidi_control, is_dot, is_host_char, is_host_ignored, is_identifier_allowed, is_link_email,
    link_bracket, link_term, LinkTerm,
};
pub use registrable::is_public_suffix;
pub use spans::{Span, Spans};
pub use tables::{TLD_LIST_VERSION, UNICODE_VERSION};
pub use terminate::{link_end, link_end_bytes, BRACKET_LIMIT};
pub use tld::{is_syntactic_tld, TldListError, TldPolicy, TldSet};
pub use window::piece_end;

/// What this crate's tests, benchmarks, fuzz targets and command-line tool look at inside
/// the library (feature `__internals`): not part of the API, under no semver promise.
#[cfg(feature = "__internals")]
#[doc(hidden)]
pub mod internals {
    pub use crate::props::raw;
    pub use crate::read::describe;
    pub use crate::tables::{TLDS, TLD_LIST_VERSION, UNICODE_VERSION};
    pub use crate::vector::Kernel;
}

/// The README's Rust examples, compiled and run as doctests. (`sh no-run` marks a shell
/// block that the README test shows but does not run, not a Rust attribute.)
#[cfg(doctest)]
#[allow(rustdoc::invalid_codeblock_attributes)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The guide's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[allow(rustdoc::invalid_codeblock_attributes)]
#[doc = include_str!("../GUIDE.md")]
struct GuideDoctests;
