//! A bound on how deeply the MIME parser would nest messages, computed before it runs.
//!
//! `mail-parser` builds a `message/rfc822` part as an owned message inside its parent.
//! It parses without recursion, but the tree it returns is freed recursively, and a
//! message nested inside a base64 or quoted-printable `message/rfc822` part is copied
//! recursively while parsing; a few thousand levels (a few bytes each, a 2 KB gzip file)
//! overflow a thread's stack, which aborts the process. This module bounds that depth from
//! the raw bytes, so that such a message is never handed to the parser.
//!
//! # Algorithm
//!
//! Every level of nesting is made by one part header that the parser reads as a message:
//! a Content-Type of `message/rfc822` or `message/global`, or no Content-Type inside a
//! `multipart/digest`. The parser takes the subtype from contiguous bytes of the header
//! that follow the `/` (it skips spaces, tabs, CRs, quotes, backslashes and comments in
//! between), so every such level has its own occurrence of `rfc822`, `global` or `digest`
//! (any case) preceded, past those skipped bytes, by `/` or by the `)` that ends a
//! comment. [`nesting_bound`] counts those occurrences, a count which is at least the depth
//! (siblings count too: a digest of 300 messages counts 300 although it is 2 deep).
//!
//! A `message/rfc822` part in base64 or quoted-printable (which RFC 2046 forbids, and the
//! parser accepts) is decoded and parsed by the parser on its own, up to 3 encodings
//! deep, so its decoded body hides further levels from a scan of the raw bytes. For each
//! `rfc822`/`global` occurrence whose header block (the lines around it up to a blank
//! line, a line that ends the parser's header block too) names a `transfer-encoding`, the
//! rest of the buffer after that block is decoded both as base64 (ignoring what is not
//! base64, as the parser's decoding is then a prefix of it) and as quoted-printable, and
//! both are counted in turn, up to 3 levels.
//!
//! The number of parts is bounded the same way: the parser starts a part at the message's
//! start, after each boundary delimiter it matches (`--` and the boundary, anywhere in a
//! line) and for each nested message, so it builds at most one part more than the
//! delimiters that the dashes of the input could make, plus the nested messages. Each
//! part costs the parser and the scanner a few hundred bytes whatever its size, so this
//! bounds memory on messages of thousands of tiny parts.
//!
//! The occurrences found in decoded bodies have a limit of their own, much lower: the parser
//! copies a decoded body whole for every message nested in it, so they bound its memory
//! (a multiple of the body's size) as well as the depth.
//!
//! # Invariants
//!
//! The result is `None` as soon as a count passes its limit; otherwise it is at least
//! the depth of the parser's tree of messages, and at least its number of parts. The work is linear in the input: one pass
//! per buffer, and the decoded buffers together are at most [`DECODE_BUDGET`] times the
//! input (past that the result is `None` too).

use super::base64;

/// How many times the input's length the decoded bodies of encoded `message/rfc822` parts
/// may add up to before the bound gives up (and the message is read as raw text).
pub(crate) const DECODE_BUDGET: usize = 4;

/// How many encodings deep the parser decodes nested messages (its `MAX_NESTED_ENCODED`).
const ENCODED_LEVELS: usize = 3;

/// A number at least the depth of nested messages that the MIME parser would build from
/// `raw`, or `None` when that number is over `limit`, when the occurrences inside encoded
/// message parts are more than `encoded_limit`, or when the decoding budget is spent.
pub(crate) fn nesting_bound(raw: &[u8], limits: Limits) -> Option<Bound> {
    let mut state = Count {
        total: 0,
        encoded: 0,
        parts: 1,
        limits,
        budget: raw.len().saturating_mul(DECODE_BUDGET),
    };
    state.count(raw, ENCODED_LEVELS, false)?;
    Some(Bound {
        nesting: state.total,
        parts: state.parts,
    })
}

/// Whether [`nesting_bound`] of `raw` is within `limits`, found without its pass where a
/// cheaper test shows it: when no `/` or `)` of `raw` is followed by a message subtype,
/// nothing is nested or decoded and every boundary match takes two dashes of its own, so
/// the parts are at most one more than half the dashes. Mail without nested messages
/// (nearly all of it) costs a search for `/` and `)` and a count of the dashes.
pub(crate) fn within_limits(raw: &[u8], limits: Limits) -> bool {
    plainly_within(raw, limits) || nesting_bound(raw, limits).is_some()
}

/// The cheaper test of [`within_limits`]: `true` only if [`nesting_bound`] is within
/// `limits`, with at most one part more than half the dashes of `raw`.
fn plainly_within(raw: &[u8], limits: Limits) -> bool {
    (raw.len() / 2 < limits.parts || dashes(raw) / 2 < limits.parts)
        && !memchr::memchr2_iter(b'/', b')', raw).any(|at| subtype_at(raw, at).is_some())
}

/// The number of `-` in `bytes` (a loop the compiler turns into vector compares).
fn dashes(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'-').count()
}

/// The limits [`nesting_bound`] checks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Of the occurrences of message subtypes.
    pub nesting: usize,
    /// Of those found in decoded bodies.
    pub encoded: usize,
    /// Of the parts.
    pub parts: usize,
}

/// What [`nesting_bound`] found: numbers at least the depth of nested messages and the
/// number of parts that the parser would build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    /// At least the depth of nested messages.
    pub nesting: usize,
    /// At least the number of parts.
    pub parts: usize,
}

struct Count {
    total: usize,
    /// Parts: one for the message, one per boundary the parser may match, one per nested
    /// message.
    parts: usize,
    limits: Limits,
    /// The occurrences found in decoded bodies: the parser copies the whole decoded body
    /// once per level nested in it, so these bound memory as well as depth.
    encoded: usize,
    budget: usize,
}

impl Count {
    fn count(&mut self, buf: &[u8], encoded_levels: usize, decoded: bool) -> Option<()> {
        // Whether the current block has a `rfc822`/`global` occurrence, and a
        // transfer-encoding header.
        let mut message_part = false;
        let mut transfer_encoding = false;
        // One pass of each vector search over the whole buffer: the line ends, and the
        // only bytes a line's count depends on (`/` and `)`, which a subtype may follow;
        // `-`, of boundary delimiters and of `transfer-encoding`). A line without any of
        // them costs only the blank-line test.
        let mut newlines = memchr::memchr_iter(b'\n', buf);
        let mut marks = memchr::memchr3_iter(b'/', b')', b'-', buf).peekable();
        let mut line_start = 0;
        while line_start < buf.len() {
            let line_end = newlines.next().map_or(buf.len(), |i| i + 1);
            let line = &buf[line_start..line_end];
            if ends_header_block(line) {
                if message_part && transfer_encoding && encoded_levels > 0 {
                    self.decoded(&buf[line_end..], encoded_levels - 1)?;
                }
                message_part = false;
                transfer_encoding = false;
            } else {
                // Dashes before this offset belong to a run already counted.
                let mut counted_to = line_start;
                while let Some(at) = marks.next_if(|&at| at < line_end) {
                    let at = at - line_start;
                    if line[at] != b'-' {
                        if let Some(message) = subtype_at(line, at) {
                            self.total += 1;
                            self.parts += 1;
                            self.encoded += usize::from(decoded);
                            message_part |= message;
                        }
                    } else if line_start + at >= counted_to {
                        let run = line[at..].iter().take_while(|&&b| b == b'-').count();
                        self.parts += boundary_matches(run);
                        counted_to = line_start + at + run;
                        transfer_encoding |= run == 1 && names_transfer_encoding(line, at);
                    }
                }
                if self.total > self.limits.nesting
                    || self.encoded > self.limits.encoded
                    || self.parts > self.limits.parts
                {
                    return None;
                }
            }
            line_start = line_end;
        }
        Some(())
    }

    /// Counts the levels inside `body` decoded both ways.
    fn decoded(&mut self, body: &[u8], encoded_levels: usize) -> Option<()> {
        let cost = body.len().saturating_mul(2);
        self.budget = self.budget.checked_sub(cost)?;
        let base64 = base64::decode(body).bytes;
        self.count(&base64, encoded_levels, true)?;
        drop(base64);
        let qp = quoted_printable(body);
        self.count(&qp, encoded_levels, true)
    }
}

/// Whether the parser ends a header block at `line`: a line whose first byte is not a
/// space or tab (which would fold it into the previous field) and which holds only white
/// space.
fn ends_header_block(line: &[u8]) -> bool {
    !matches!(line.first(), Some(b' ' | b'\t'))
        && line
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0C'))
}

/// Whether the `/` or `)` at `line[at]` is followed by a subtype that makes a nested
/// message (past the bytes the parser skips there): `Some(true)` for `rfc822`/`global`
/// (a message part), `Some(false)` for `digest`.
fn subtype_at(line: &[u8], at: usize) -> Option<bool> {
    let skipped = line[at + 1..]
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r' | b'"' | b'\\'))
        .count();
    let word = line.get(at + 1 + skipped..at + 7 + skipped)?;
    if word.eq_ignore_ascii_case(b"rfc822") || word.eq_ignore_ascii_case(b"global") {
        Some(true)
    } else {
        word.eq_ignore_ascii_case(b"digest").then_some(false)
    }
}

/// The most boundary delimiters the parser may match in a run of `run` dashes. It looks
/// for `--` followed by the boundary anywhere (not only at a line start), and a match
/// takes at least 3 bytes (`--` and a boundary of at least one byte, which may itself be
/// dashes): a run of `n` dashes holds at most `(n - 1) / 3` rounded up.
fn boundary_matches(run: usize) -> usize {
    if run >= 2 {
        (run - 1).div_ceil(3)
    } else {
        0
    }
}

/// Whether the `-` at `line[at]` is the one of `transfer-encoding`, in any case.
fn names_transfer_encoding(line: &[u8], at: usize) -> bool {
    at >= 8
        && line[at - 8..at].eq_ignore_ascii_case(b"transfer")
        && line
            .get(at + 1..at + 9)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"encoding"))
}

/// Quoted-printable decoding that keeps whatever it does not understand: `=XX` becomes the
/// byte, `=` before white space and a line break is a soft line break, any other `=` stays.
fn quoted_printable(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        if b != b'=' {
            out.push(b);
            i += 1;
            continue;
        }
        let hex = |c: u8| (c as char).to_digit(16);
        if let (Some(h), Some(l)) = (
            body.get(i + 1).and_then(|&c| hex(c)),
            body.get(i + 2).and_then(|&c| hex(c)),
        ) {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        let mut j = i + 1;
        while matches!(body.get(j), Some(b' ' | b'\t' | b'\r')) {
            j += 1;
        }
        if body.get(j) == Some(&b'\n') {
            i = j + 1;
        } else {
            out.push(b'=');
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(raw: &str) -> Option<usize> {
        let limits = Limits {
            nesting: 100,
            encoded: 4,
            parts: 1000,
        };
        nesting_bound(raw.as_bytes(), limits).map(|b| b.nesting)
    }

    #[test]
    fn the_cheaper_test_passes_only_what_the_bound_passes() {
        let limits = Limits {
            nesting: 0,
            encoded: 0,
            parts: 30,
        };
        let check = |raw: &[u8]| {
            let plain = plainly_within(raw, limits);
            let exact = nesting_bound(raw, limits);
            if plain {
                let exact = exact.unwrap_or_else(|| panic!("{:?}", String::from_utf8_lossy(raw)));
                assert!(exact.parts <= 1 + dashes(raw) / 2);
            }
            assert_eq!(within_limits(raw, limits), exact.is_some());
            plain
        };
        assert!(check(b"Subject: x\n\nbody"));
        assert!(check(b"------------------------------------"));
        assert!(!check(b"Content-Type: message/ \"RFC822\"\n\n"));
        assert!(!check(b"(c)digest"));
        assert!(!check(&b"-".repeat(80)));
        // Random texts of the pieces the bound looks at.
        let pieces: [&[u8]; 15] = [
            b"-", b"--", b"/", b")", b" ", b"\"", b"\\", b"rfc822", b"GLOBAL", b"digest", b"x",
            b"\n", b"\t", b"\r", b"message",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut passed, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let count = next() % 24;
            let raw: Vec<u8> = (0..count)
                .flat_map(|_| {
                    pieces[(next() % pieces.len() as u64) as usize]
                        .iter()
                        .copied()
                })
                .collect();
            if check(&raw) {
                passed += 1;
            } else {
                refused += 1;
            }
        }
        assert!(
            passed > 1000 && refused > 10,
            "{passed} passed, {refused} refused"
        );
    }

    #[test]
    fn bounds_the_parts() {
        // Runs of dashes: `--a` holds one delimiter, `------=_Part_1` two.
        for (run, most) in [
            (0, 0),
            (1, 0),
            (2, 1),
            (4, 1),
            (5, 2),
            (6, 2),
            (7, 2),
            (8, 3),
        ] {
            assert_eq!(boundary_matches(run), most, "{run} dashes");
        }
        let limits = Limits {
            nesting: 100,
            encoded: 4,
            parts: 10,
        };
        let parts = |raw: &[u8]| nesting_bound(raw, limits).map(|b| b.parts);
        assert_eq!(parts(b"Subject: x\n\nbody"), Some(1));
        // Runs of 1, 1, 2, 4 and 2 dashes in one line: 3 delimiters at most.
        assert_eq!(parts(b"- - -- ---- x--\n"), Some(4));
        assert_eq!(
            parts(b"Content-Transfer-Encoding: 7bit\n\n------=_Part_1\n"),
            Some(3)
        );
        let multipart = b"Content-Type: multipart/mixed; boundary=b\n\n--b\n\nx\n--b\n\ny\n--b--\n";
        assert_eq!(parts(multipart), Some(5));
        assert_eq!(parts(&b"--b\n".repeat(9)), Some(10));
        assert_eq!(parts(&b"--b\n".repeat(10)), None);
        // The parser's own count is never above the bound.
        let parsed = mail_parser::MessageParser::default()
            .parse(&multipart[..])
            .unwrap();
        assert!(parsed.parts.len() <= 5, "{}", parsed.parts.len());
    }

    #[test]
    fn counts_the_subtypes_the_parser_reads() {
        assert_eq!(
            bound("Subject: x\n\nno nesting, not even rfc822 or a digest\n"),
            Some(0)
        );
        assert_eq!(bound("Content-Type: message/rfc822\n\n"), Some(1));
        // Spaces, quotes, CRs, backslashes and comments between `/` and the subtype.
        assert_eq!(bound("Content-Type: MESSAGE/ \"RFC822\"\r\n\r\n"), Some(1));
        assert_eq!(bound("Content-Type: message/(c) Global\n\n"), Some(1));
        assert_eq!(
            bound("Content-Type: multipart/digest; boundary=b\n\n"),
            Some(1)
        );
        // A word elsewhere is not a subtype.
        assert_eq!(bound("Subject: global rfc822 digest\n\n"), Some(0));
        assert_eq!(
            bound("Content-Type: message/rfc822\n\n".repeat(100).as_str()),
            Some(100)
        );
        assert_eq!(
            bound("Content-Type: message/rfc822\n\n".repeat(101).as_str()),
            None
        );
    }

    #[test]
    fn looks_inside_encoded_message_parts() {
        let inner = "Content-Type: message/rfc822\n\n".repeat(3);
        // base64 of `inner`, as an encoded message part.
        let encoded: String = {
            let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            let mut out = String::new();
            for chunk in inner.as_bytes().chunks(3) {
                let n = chunk
                    .iter()
                    .enumerate()
                    .fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
                for k in 0..4 {
                    out.push(if k <= chunk.len() {
                        alphabet[(n >> (18 - 6 * k) & 63) as usize] as char
                    } else {
                        '='
                    });
                }
            }
            out
        };
        let raw = format!(
            "Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n{encoded}\n"
        );
        assert_eq!(bound(&raw), Some(4));
        // Without the transfer encoding the body is not decoded.
        let plain = format!("Content-Type: message/rfc822\n\n{encoded}\n");
        assert_eq!(bound(&plain), Some(1));
        // Quoted-printable hides a subtype behind `=XX` and soft line breaks.
        let qp = "Content-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\n\n\
                  Content-Type: message/rfc=38=\n22\n\n";
        assert_eq!(bound(qp), Some(2));
        // Over the limit of encoded occurrences.
        let inner5 = "Content-Type: message/rfc=\n822\n\n".repeat(5);
        let qp5 = format!(
            "Content-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\n\n{inner5}"
        );
        assert_eq!(bound(&qp5), None);
    }

    /// Parts and depth of nested messages of a parsed message.
    fn parsed_shape(message: &mail_parser::Message<'_>) -> (usize, usize) {
        let mut parts = message.parts.len();
        let mut depth = 0;
        for part in &message.parts {
            if let mail_parser::PartType::Message(nested) = &part.body {
                let (p, d) = parsed_shape(nested);
                parts += p;
                depth = depth.max(d + 1);
            }
        }
        (parts, depth)
    }

    /// Random messages made of the pieces that make structure (part headers of every
    /// kind, boundaries that match and that almost match, blank lines, text): the parser
    /// never builds more parts, or nests deeper, than the bound says.
    #[test]
    fn the_bound_is_never_below_what_the_parser_builds() {
        const PIECES: [&str; 16] = [
            "Content-Type: message/rfc822\n",
            "Content-Type: multipart/mixed; boundary=a\n",
            "Content-Type: multipart/digest; boundary=\"-\"\n",
            "Content-Type: Message/ (x) \"Global\"\n",
            "Content-Type: text/plain\n",
            "Content-Transfer-Encoding: base64\n",
            "Subject: x\n",
            "\n",
            "\r\n",
            "--a\n",
            "--a--\n",
            "-----\n",
            "--\n",
            "text -a- --a\n",
            " folded\n",
            "YWJj\n",
        ];
        let limits = Limits {
            nesting: usize::MAX,
            encoded: usize::MAX,
            parts: usize::MAX,
        };
        let parser = mail_parser::MessageParser::default();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let (mut checked, mut deepest, mut most_parts) = (0, 0, 0);
        for _ in 0..20_000 {
            let mut raw = String::from("From: a@example.com\n");
            let len = 1 + (state >> 60) as usize * 4;
            for _ in 0..len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                raw.push_str(PIECES[(state % PIECES.len() as u64) as usize]);
            }
            // With no limits, only the decoding budget can end the count (many encoded
            // message parts, each decoded to the end).
            let Some(bound) = nesting_bound(raw.as_bytes(), limits) else {
                continue;
            };
            let parsed =
                std::panic::catch_unwind(|| parser.parse(raw.as_bytes()).map(|m| parsed_shape(&m)));
            // The parser's debug assertions fire on some broken input (see
            // `tests/hostile.rs`); those inputs are read raw by the scanner.
            if let Ok(Some((parts, depth))) = parsed {
                assert!(
                    parts <= bound.parts,
                    "{parts} parts > {bound:?} for {raw:?}"
                );
                assert!(
                    depth <= bound.nesting,
                    "depth {depth} > {bound:?} for {raw:?}"
                );
                checked += 1;
                deepest = deepest.max(depth);
                most_parts = most_parts.max(parts);
            }
        }
        assert!(checked > 10_000, "only {checked} messages checked");
        // The generator makes real structure.
        assert!(
            deepest >= 4 && most_parts >= 8,
            "{deepest} deep, {most_parts} parts"
        );
    }

    #[test]
    fn quoted_printable_decoding() {
        assert_eq!(quoted_printable(b"a=3Db=\r\nc= \nd=zz="), b"a=bcd=zz=");
    }
}
