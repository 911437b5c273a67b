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
//! * Redaction: [`LinkFinder::redact`] (a `Cow<str>`) and [`LinkFinder::redact_to`] (bytes
//!   into a `Write`) replace each link and keep every other byte.
//! * Termination alone (section 3.5.1, for the migration path of section 10): [`link_end`].
//! * Properties: [`link_term`], [`link_bracket`], [`is_link_email`].
//! * Formatting (section 4 minimal escaping, section 5.3 email quoting): [`escape_url`],
//!   [`escape_url_parts`], [`format_email`] and the rest of [`format`](mod@format).
//! * A readable policy (section 8's higher level) that leaves out code and file names
//!   and keeps hosts out of the ideographic text before them: [`Policy`].
//! * Security checks of section 8 over detected links (TLD syntax, Identifier_Status,
//!   Bidi_Control), an optional layer that leaves detection conformant: [`checks`].
//! * The cut rule that lets a text be scanned in independent windows: [`window`].
//! * Scans of one large text on the rayon thread pool (feature `parallel`, on by
//!   default): [`LinkFinder::par_links`].
//!
//! The library depends on `memchr`, `idna`, `unicode-security` and `psl` (the Public
//! Suffix List), and on `rayon` with `parallel`. Email archives are the package
//! `linkscan-mail`, the command-line tool `linkscan-cli` and the Python module
//! `linkscan-py`, beside this one in the workspace (`ARCHITECTURE.md`).
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
#[cfg(feature = "__internals")]
mod read;
mod redact;
mod registrable;
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

/// What the workspace's other packages (`linkscan-mail`) use of the engine's insides: the
/// vector kernels for header fields and base64, and the keys that say what a finder
/// finds. Not part of the API and under no semver promise: those packages depend on this
/// one at an exact version (`=`), as `serde` and `serde_derive` do, so that `unsafe` code
/// stays in this crate alone.
#[doc(hidden)]
pub mod __private {
    pub use crate::vector::Kernel;

    /// What decides the links `finder` finds, as text: two finders with the same key
    /// find the same links.
    pub fn finder_key(finder: &crate::LinkFinder) -> String {
        finder.options_key()
    }

    /// What decides the HTML `linkifier` writes, as text.
    pub fn linkifier_key(linkifier: &crate::html::Linkifier) -> String {
        linkifier.options_key()
    }
}

/// The README's Rust examples, compiled and run as doctests. (`sh no-run` marks a shell
/// block that the README test shows but does not run, not a Rust attribute.)
#[cfg(doctest)]
#[allow(rustdoc::invalid_codeblock_attributes)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
