//! # linkscan
//!
//! Finds URLs and email addresses in plain text exactly as Unicode UTS #58 (Unicode Link
//! Detection and Formatting, version 17.0) specifies, and formats URLs with its minimal
//! percent-escaping.
//!
//! * Detection: [`LinkFinder`] (URLs and emails; IANA, user-supplied or syntactic TLDs),
//!   over `&str` or over bytes that may be invalid UTF-8.
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
//! * A slow, spec-literal reference implementation used to test all of the above:
//!   [`oracle`].
//!
//! ```
//! let text = "See ⸠example.com/αβγ⸡ and (https://en.wikipedia.org/wiki/The_Lovemakers_(film)).";
//! let text = text.replace(['⸠', '⸡'], "");
//! let links: Vec<&str> = linkscan::LinkFinder::new()
//!     .links(&text)
//!     .map(|link| link.as_str(&text))
//!     .collect();
//! assert_eq!(links, ["example.com/αβγ", "https://en.wikipedia.org/wiki/The_Lovemakers_(film)"]);
//! ```

// `unsafe` is allowed only in the vector kernels of `prefilter`, each block with a SAFETY note.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod checks;
pub mod conformance;
mod finder;
pub mod format;
pub mod html;
#[cfg(feature = "mail")]
pub mod mail;
pub mod oracle;
mod policy;
mod prefilter;
mod props;
mod scanner;
mod split;
#[rustfmt::skip]
#[allow(missing_docs)]
pub mod tables;
mod terminate;
mod tld;
mod utf8;

pub use finder::{Link, LinkFinder, LinkFinderBuilder, LinkKind, Links, DEFAULT_MAX_LINK_LEN};
pub use format::{
    escape_url, escape_url_parts, escape_url_with, format_email, quote_local_part, FormatOptions,
    UrlParts,
};
pub use policy::{Policy, FILE_EXTENSION_TLDS, METHOD_NAME_TLDS};
pub use prefilter::Kernel;
pub use props::{
    is_bidi_control, is_dot, is_host_char, is_identifier_allowed, is_link_email, link_bracket,
    link_term, raw, LinkTerm,
};
pub use split::piece_end;
pub use terminate::{link_end, link_end_bytes, BRACKET_LIMIT};
pub use tld::{is_syntactic_tld, TldListError, TldPolicy, TldSet};

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
