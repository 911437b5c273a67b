//! [`MailWarning`]: what went wrong in a message that was still scanned, as data.
//!
//! Each variant holds the facts (the part's path, a count, a label, what was wrong with a
//! body as a [`BodyProblem`] or [`Base64Problem`]) and its `Display` is the sentence shown
//! to people, so a program can match on the kind of problem and a person reads the same
//! words as before. Invariant: a warning never means the message was
//! skipped; every variant says how its text was still read, except
//! [`MailWarning::LostPart`], a part the parser named but did not keep.

use std::fmt;

use super::{MAX_ENCODED_NESTED_MESSAGES, MAX_NESTED_MESSAGES, MAX_PARTS};

/// A problem met while scanning a message; the message was still scanned as well as it
/// could be. `part` fields hold the part's path in the MIME tree (`1`, `2.1`, …).
///
/// ```
/// use linkscan_mail::{MailScanner, MailWarning};
/// let raw = b"Content-Type: text/plain; charset=x-klingon\n\nsee example.com\n";
/// let scanned = MailScanner::new().scan(raw);
/// assert_eq!(
///     scanned.warnings(),
///     [MailWarning::UnknownCharset { part: "1".into(), label: "x-klingon".into() }]
/// );
/// assert_eq!(
///     scanned.warnings()[0].to_string(),
///     "part 1: unknown charset \"x-klingon\"; read as UTF-8"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MailWarning {
    /// The message has no bytes (or only white space).
    Empty,
    /// The message does not start with a header field; its raw bytes were scanned as text.
    NoHeaderStart,
    /// More parts or nested message parts than the parser's limits; the raw bytes were
    /// scanned as text.
    TooManyParts,
    /// No header could be parsed; the raw bytes were scanned as text.
    NoHeader,
    /// The MIME parser failed (`reason`); the raw bytes were scanned as text.
    ParserFailed {
        /// What the parser reported.
        reason: String,
    },
    /// Characters of a Subject that could not be decoded (replaced by U+FFFD).
    UndecodableSubject {
        /// `subject`, or `2.subject` for a nested message's.
        path: String,
        /// How many characters were replaced.
        replaced: usize,
    },
    /// A multipart body without its closing boundary (a truncated message?).
    MissingClosingBoundary {
        /// The multipart's path; empty for the top level.
        part: String,
        /// `mixed`, `alternative`, … (lower case).
        subtype: String,
    },
    /// The parser named a part it did not keep; nothing of it could be read.
    LostPart {
        /// The part's path.
        part: String,
    },
    /// The parser listed a part more than once; it was read once.
    DuplicatePart {
        /// The part's path.
        part: String,
    },
    /// Parts nested deeper than the scanner's limit; the raw bytes were scanned as text.
    TooDeep {
        /// The part's path.
        part: String,
        /// The limit.
        max_depth: usize,
    },
    /// An unknown Content-Transfer-Encoding; the body was read undecoded.
    UnknownTransferEncoding {
        /// The part's path.
        part: String,
        /// The encoding, lower case.
        encoding: String,
    },
    /// A body that could not be decoded; it was read undecoded.
    UndecodableBody {
        /// The part's path.
        part: String,
        /// `text/plain`, … (lower case).
        content_type: String,
        /// What was wrong.
        problem: BodyProblem,
    },
    /// A multipart without a usable boundary; read as text.
    NoBoundary {
        /// The part's path.
        part: String,
        /// `mixed`, … (lower case).
        subtype: String,
    },
    /// A message/* part that could not be parsed; read as text.
    UnparsableMessagePart {
        /// The part's path.
        part: String,
        /// `rfc822`, … (lower case).
        subtype: String,
    },
    /// A charset this program does not know; the part was read as UTF-8.
    UnknownCharset {
        /// The part's path.
        part: String,
        /// The charset label as written.
        label: String,
    },
    /// 8-bit text that is not UTF-8 in a part that declares no charset: read as
    /// windows-1252, as browsers read it.
    UndeclaredEightBit {
        /// The part's path.
        part: String,
    },
    /// Characters of a part that could not be decoded in its charset (replaced by U+FFFD).
    UndecodableText {
        /// The part's path.
        part: String,
        /// How many characters were replaced.
        replaced: usize,
        /// The charset label, or `UTF-8` when none was given.
        charset: String,
    },
    /// A base64 body that is not valid base64; what could be read was, leniently.
    InvalidBase64 {
        /// The part's path.
        part: String,
        /// `text/plain`, … (lower case).
        content_type: String,
        /// What was wrong and what was done about it (at least one).
        problems: Vec<Base64Problem>,
    },
    /// A Content-Type field that is not `type/subtype` (`text`, `text/`,
    /// `text/plain charset=utf-8`): the part was read as `text/plain`, as RFC 2045
    /// section 5.2 says.
    InvalidContentType {
        /// The part's path.
        part: String,
        /// The type as the parser read it.
        value: String,
    },
    /// A part with more than one Content-Type field: the first was used.
    DuplicateContentType {
        /// The part's path.
        part: String,
        /// How many Content-Type fields it has.
        count: usize,
    },
}

/// Why a body could not be decoded ([`MailWarning::UndecodableBody`]); `Display` says it
/// in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BodyProblem {
    /// The base64 body is invalid or truncated.
    Base64,
    /// The quoted-printable body is invalid or truncated.
    QuotedPrintable,
    /// The nested message (a `message/*` part) could not be parsed.
    NestedMessage,
    /// The body could not be decoded, for another reason.
    Other,
}

impl fmt::Display for BodyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BodyProblem::Base64 => "the base64 body is invalid or truncated",
            BodyProblem::QuotedPrintable => "the quoted-printable body is invalid or truncated",
            BodyProblem::NestedMessage => "the nested message could not be parsed",
            BodyProblem::Other => "the body could not be decoded",
        })
    }
}

/// What was wrong with a base64 body that was decoded leniently
/// ([`MailWarning::InvalidBase64`]), and what was done about it; `Display` says it in
/// words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Base64Problem {
    /// The body holds no base64 data at all: it was read as text.
    NoData,
    /// Characters outside the base64 alphabet were ignored (RFC 2045 section 6.8).
    IgnoredCharacters {
        /// How many.
        count: usize,
    },
    /// Lines of text after the base64 data (a footer) were scanned as text.
    TextAfterData {
        /// How many lines (not counting blank ones).
        lines: usize,
    },
    /// The data is cut short: decoded as far as it goes.
    Truncated,
}

impl fmt::Display for Base64Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Base64Problem::NoData => f.write_str("it holds no base64 data, read as text"),
            Base64Problem::IgnoredCharacters { count } => write!(
                f,
                "{count} character(s) outside the base64 alphabet were ignored (RFC 2045 \
                 section 6.8)"
            ),
            Base64Problem::TextAfterData { lines } => write!(
                f,
                "{lines} line(s) of text after the base64 data were scanned as text"
            ),
            Base64Problem::Truncated => f.write_str("it is truncated; decoded as far as it goes"),
        }
    }
}

impl fmt::Display for MailWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MailWarning::Empty => f.write_str("the message is empty"),
            MailWarning::InvalidContentType { part, value } => write!(
                f,
                "part {part}: invalid Content-Type {value:?}; read as text/plain \
                 (RFC 2045 section 5.2)"
            ),
            MailWarning::DuplicateContentType { part, count } => write!(
                f,
                "part {part}: {count} Content-Type fields; the first was used"
            ),
            MailWarning::NoHeaderStart => f.write_str(
                "the message does not start with a header field; the raw bytes were scanned \
                 as text",
            ),
            MailWarning::TooManyParts => write!(
                f,
                "more parts, or nested message parts (message/rfc822), than the limits \
                 ({MAX_PARTS} parts, {MAX_NESTED_MESSAGES} message parts, \
                 {MAX_ENCODED_NESTED_MESSAGES} inside encoded message parts); not parsed, \
                 the raw bytes were scanned as text"
            ),
            MailWarning::NoHeader => {
                f.write_str("no header could be parsed; the raw bytes were scanned as text")
            }
            MailWarning::ParserFailed { reason } => write!(
                f,
                "the MIME parser failed ({reason}); the raw bytes were scanned as text"
            ),
            MailWarning::UndecodableSubject { path, replaced } => write!(
                f,
                "{path}: {replaced} character(s) could not be decoded (replaced by U+FFFD)"
            ),
            MailWarning::MissingClosingBoundary { part, subtype } => {
                if !part.is_empty() {
                    write!(f, "part {part}: ")?;
                }
                write!(
                    f,
                    "the closing boundary of multipart/{subtype} is missing (truncated message?)"
                )
            }
            MailWarning::LostPart { part } => {
                write!(f, "part {part}: the MIME parser lost this part")
            }
            MailWarning::DuplicatePart { part } => write!(
                f,
                "part {part}: the MIME parser listed this part more than once; read once"
            ),
            MailWarning::TooDeep { part, max_depth } => write!(
                f,
                "part {part}: nested deeper than {max_depth} levels; its raw bytes were \
                 scanned as text"
            ),
            MailWarning::UnknownTransferEncoding { part, encoding } => write!(
                f,
                "part {part}: unknown Content-Transfer-Encoding {encoding:?}; read undecoded"
            ),
            MailWarning::UndecodableBody {
                part,
                content_type,
                problem,
            } => write!(f, "part {part} ({content_type}): {problem}; read undecoded"),
            MailWarning::NoBoundary { part, subtype } => write!(
                f,
                "part {part}: multipart/{subtype} without a usable boundary; read as text"
            ),
            MailWarning::UnparsableMessagePart { part, subtype } => write!(
                f,
                "part {part}: message/{subtype} could not be parsed; read as text"
            ),
            MailWarning::UnknownCharset { part, label } => {
                write!(f, "part {part}: unknown charset {label:?}; read as UTF-8")
            }
            MailWarning::UndeclaredEightBit { part } => write!(
                f,
                "part {part}: 8-bit text that is not UTF-8 and no charset declared; read as \
                 windows-1252"
            ),
            MailWarning::UndecodableText {
                part,
                replaced,
                charset,
            } => write!(
                f,
                "part {part}: {replaced} character(s) could not be decoded as {charset} \
                 (replaced by U+FFFD)"
            ),
            MailWarning::InvalidBase64 {
                part,
                content_type,
                problems,
            } => {
                write!(
                    f,
                    "part {part} ({content_type}): the base64 body is invalid: "
                )?;
                for (i, problem) in problems.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{problem}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences are those the command line has always printed; the problems of a
    /// body are typed, and their words are the same as before.
    #[test]
    fn body_problems_read_as_before() {
        let body = |problem| MailWarning::UndecodableBody {
            part: "2".into(),
            content_type: "text/plain".into(),
            problem,
        };
        assert_eq!(
            body(BodyProblem::Base64).to_string(),
            "part 2 (text/plain): the base64 body is invalid or truncated; read undecoded"
        );
        assert_eq!(
            body(BodyProblem::QuotedPrintable).to_string(),
            "part 2 (text/plain): the quoted-printable body is invalid or truncated; read \
             undecoded"
        );
        assert_eq!(
            body(BodyProblem::NestedMessage).to_string(),
            "part 2 (text/plain): the nested message could not be parsed; read undecoded"
        );
        assert_eq!(
            body(BodyProblem::Other).to_string(),
            "part 2 (text/plain): the body could not be decoded; read undecoded"
        );
        let base64 = |problems| MailWarning::InvalidBase64 {
            part: "1".into(),
            content_type: "text/html".into(),
            problems,
        };
        assert_eq!(
            base64(vec![
                Base64Problem::IgnoredCharacters { count: 3 },
                Base64Problem::TextAfterData { lines: 2 }
            ])
            .to_string(),
            "part 1 (text/html): the base64 body is invalid: 3 character(s) outside the base64 \
             alphabet were ignored (RFC 2045 section 6.8); 2 line(s) of text after the base64 \
             data were scanned as text"
        );
        assert_eq!(
            base64(vec![Base64Problem::NoData]).to_string(),
            "part 1 (text/html): the base64 body is invalid: it holds no base64 data, read as \
             text"
        );
        assert_eq!(
            base64(vec![Base64Problem::Truncated]).to_string(),
            "part 1 (text/html): the base64 body is invalid: it is truncated; decoded as far \
             as it goes"
        );
    }
}
