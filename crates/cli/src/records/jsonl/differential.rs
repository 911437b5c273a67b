//! The fast scanner ([`scan`]) against `serde_json` ([`locate_by_serde`], [`raw_at`]): on
//! hand-made and random lines, the same span, text, id, or the same message, and the
//! scanner says yes to the ordinary lines.

use super::*;

fn path(dotted: &str) -> FieldPath {
    FieldPath::parse(dotted).unwrap()
}

/// Checks that `line` gives the same at `dotted` both ways; returns whether the scanner
/// was sure of it.
fn same(line: &[u8], dotted: &str) -> bool {
    let path = path(dotted);
    let fast = scan::field(line, &path.names);
    if let Some((span, raw)) = fast.clone() {
        let by_serde = raw_at(line, &path).unwrap_or_else(|e| {
            panic!(
                "the scanner took {:?} at {dotted}, serde refuses it: {e}",
                String::from_utf8_lossy(line)
            )
        });
        assert_eq!(
            raw,
            by_serde.get(),
            "{:?} at {dotted}",
            String::from_utf8_lossy(line)
        );
        assert_eq!(&line[span], raw.as_bytes());
    }
    let by_serde = format!("{:?}", locate_by_serde(line, &path));
    // Told the line is UTF-8 only when it is, as a chunk's check tells it.
    let utf8 = std::str::from_utf8(line).is_ok();
    for known in [false, utf8] {
        let both = format!("{:?}", locate(line, &path, known));
        assert_eq!(
            both,
            by_serde,
            "{:?} at {dotted} (known UTF-8: {known})",
            String::from_utf8_lossy(line)
        );
    }
    let (id, id_by_serde) = (id_of(line, &path), id_by_serde(line, &path));
    assert_eq!(
        (id.json, id.text),
        (id_by_serde.json, id_by_serde.text),
        "id of {:?} at {dotted}",
        String::from_utf8_lossy(line)
    );
    fast.is_some_and(|(_, raw)| !raw.starts_with('"') || scan::text(raw).is_some())
}

#[test]
fn hand_made_lines_are_read_alike() {
    // (line, path, whether the scanner is sure of it: of the value, if not a string)
    let cases: &[(&[u8], &str, bool)] = &[
        (br#"{"id": 7, "text": "see x.org"}"#, "text", true),
        (b"{\"id\": 7, \"text\": \"see x.org\"}\n", "text", true),
        (b" \t{ \"text\" :\"a\" , \"n\":1 }\r\n", "text", true),
        (br#"{"text": "a \"b\" \\ c\/d \b\f\n\r\t"}"#, "text", true),
        (br#"{"text": "\u00e9t\u00C9 \ud83d\ude00"}"#, "text", true),
        (br#"{"text": "lone \ud800 here"}"#, "text", false),
        (br#"{"text": "lone \udc00"}"#, "text", false),
        (br#"{"text": "two leads \ud800\ud800"}"#, "text", false),
        (
            br#"{"x": "lone \ud800 skipped", "text": "t"}"#,
            "text",
            true,
        ),
        (br#"{"text": "bad \x escape"}"#, "text", false),
        (br#"{"text": "short \u12"}"#, "text", false),
        (b"{\"text\": \"raw\ttab\"}", "text", false),
        (b"{\"x\": \"raw\x01\", \"text\": \"t\"}", "text", false),
        (
            br#"{"a": {"b": "}]\"{[", "c": [1, "]", {"d": "}"}]}, "text": "t"}"#,
            "text",
            true,
        ),
        (
            br#"{"a": [[[[]]], {}, [{}], ""], "text": "t"}"#,
            "text",
            true,
        ),
        (br#"{"a": [1,], "text": "t"}"#, "text", false),
        (br#"{"a": {"b":1,}, "text": "t"}"#, "text", false),
        (br#"{"a": [1 2], "text": "t"}"#, "text", false),
        (br#"{"a": {"b" 1}, "text": "t"}"#, "text", false),
        (br#"{"a": {1: 2}, "text": "t"}"#, "text", false),
        (
            br#"{"a": -0, "b": 1e5, "c": -1.25E-3, "d": 0.0, "e": 1E+2, "text": "t"}"#,
            "text",
            true,
        ),
        (br#"{"a": 01, "text": "t"}"#, "text", false),
        (br#"{"a": 1., "text": "t"}"#, "text", false),
        (br#"{"a": .5, "text": "t"}"#, "text", false),
        (br#"{"a": -, "text": "t"}"#, "text", false),
        (br#"{"a": 1e, "text": "t"}"#, "text", false),
        (br#"{"a": +1, "text": "t"}"#, "text", false),
        (br#"{"a": 1x, "text": "t"}"#, "text", false),
        (
            br#"{"a": true, "b": false, "c": null, "text": "t"}"#,
            "text",
            true,
        ),
        (br#"{"a": nul, "text": "t"}"#, "text", false),
        (br#"{"a": truex, "text": "t"}"#, "text", false),
        (br#"{"a": True, "text": "t"}"#, "text", false),
        (br#"{"text": "first", "text": "last"}"#, "text", true),
        (br#"{"text": "first", "text": 2}"#, "text", true),
        (br#"{"text": 1, "text": "last"}"#, "text", true),
        (
            br#"{"meta": {"text": "a"}, "meta": {"x": 1}}"#,
            "meta.text",
            false,
        ),
        (
            br#"{"meta": {"x": 1}, "meta": {"text": "b", "text": "c"}}"#,
            "meta.text",
            true,
        ),
        (
            br#"{"id": 1, "meta": {"body": {"text": "deep"}}}"#,
            "meta.body.text",
            true,
        ),
        (br#"{"meta": [1], "text": "t"}"#, "meta.text", false),
        (br#"{"meta": "s"}"#, "meta.text", false),
        (br#"{"te\u0078t": "escaped name"}"#, "text", false),
        (br#"{"text": "t", "n\u00e9": 1}"#, "text", false),
        (br#"{"text": "a""#, "text", false),
        (br#"{"text": "a"#, "text", false),
        (br#"{"text": "a", "#, "text", false),
        (br#"{"text""#, "text", false),
        (b"{", "text", false),
        (b"", "text", false),
        (b"\xef\xbb\xbf{\"text\": \"bom\"}", "text", false),
        (br#"{"text": "a"} x"#, "text", false),
        (br#"{"text": "a"}{}"#, "text", false),
        (br#"{"text": "a"},"#, "text", false),
        (b"{\"x\": \"\xff\xfe\", \"text\": \"t\"}", "text", true),
        (b"{\"x\": {\"\xff\": 1}, \"text\": \"t\"}", "text", true),
        (b"{\"text\": \"bad \xff\"}", "text", false),
        (b"{\"text\": \"\xff\", \"text\": \"t\"}", "text", false),
        (
            b"{\"meta\": [\"\xff\"], \"meta\": {\"text\": \"t\"}}",
            "meta.text",
            false,
        ),
        (b"{\"text\": \"t\", \"x\": \"\xff\"}", "text", true),
        (b"{\"text\": \"cut \xc3\"}", "text", false),
        (b"{\"\xff\": 1, \"text\": \"t\"}", "text", false),
        (
            b"{\"meta\": {\"x\": \"\xff\", \"text\": \"t\"}}",
            "meta.text",
            false,
        ),
        (br#"{"text": null}"#, "text", true),
        (br#"{"text": {"a": 1}}"#, "text", true),
        (br#"{"id": "r-1", "text": "t"}"#, "id", true),
        (br#"{"id": 12.5, "text": "t"}"#, "id", true),
        (br#"{"id": [1, {"a": null}], "text": "t"}"#, "id", true),
        (br#"{}"#, "text", false),
        (br#"[1]"#, "text", false),
        (br#""text""#, "text", false),
        (br#"{"text": ""}"#, "text", true),
        (br#"{"text": "\\"}"#, "text", true),
        (br#"{"text": "\""}"#, "text", true),
    ];
    for &(line, dotted, sure) in cases {
        assert_eq!(
            same(line, dotted),
            sure,
            "is the scanner sure of {:?} at {dotted}?",
            String::from_utf8_lossy(line)
        );
    }
    // Skipped values nested deeper than the scanner goes are still read (by serde).
    let mut deep = b"{\"a\": ".to_vec();
    deep.extend(std::iter::repeat_n(b'[', 100));
    deep.extend(std::iter::repeat_n(b']', 100));
    deep.extend_from_slice(b", \"text\": \"t\"}");
    assert!(!same(&deep, "text"));
    assert!(locate(&deep, &path("text"), true).is_ok());
}

/// A small deterministic random generator (SplitMix64).
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[self.below(from.len())]
    }
}

/// Random JSON-like lines: mostly valid records, with bad pieces and cuts now and then.
struct Lines {
    random: Random,
    /// The line being made has something the scanner leaves to serde whatever it is.
    hard: bool,
}

const STRING_PIECES: &[&[u8]] = &[
    b"a",
    b"see https://x.org/a?b=1 ",
    b"x@example.org",
    b" ",
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    br#"\""#,
    br"\\",
    br"\/",
    br"\n",
    br"\t",
    br"\u00e9",
    br"\u20AC",
    br"\ud83d\ude00",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"'",
];
/// Pieces that are bad in a string, or decode badly: serde decides.
const BAD_STRING_PIECES: &[&[u8]] = &[
    br"\ud800",
    br"\udc00",
    br"\x",
    br"\u12",
    b"\t",
    b"\x01",
    b"\xff",
    b"\xc3",
    br"\ud800\u0041",
];
const NUMBERS: &[&[u8]] = &[
    b"0",
    b"-0",
    b"7",
    b"1e5",
    b"1E+5",
    b"-1.5e-3",
    b"0.25",
    b"123456789012345678901234567890",
];
const BAD_NUMBERS: &[&[u8]] = &[
    b"01", b"1.", b"-", b".5", b"1e", b"+1", b"1e+", b"--1", b"0x1",
];
const LITERALS: &[&[u8]] = &[b"true", b"false", b"null"];
const BAD_LITERALS: &[&[u8]] = &[b"nul", b"truex", b"True", b"nan"];
const NAMES: &[&[u8]] = &[b"text", b"id", b"meta", b"a", b"b", b"", b"t\xc3\xa9xt"];
const SPACE: &[&[u8]] = &[b"", b"", b"", b" ", b"\t", b"\r\n ", b"  "];

impl Lines {
    fn space(&mut self, out: &mut Vec<u8>) {
        let space = *self.random.pick(SPACE);
        out.extend_from_slice(space);
    }

    fn string(&mut self, out: &mut Vec<u8>) {
        out.push(b'"');
        for _ in 0..self.random.below(6) {
            let piece = if self.random.below(40) == 0 {
                *self.random.pick(BAD_STRING_PIECES)
            } else {
                *self.random.pick(STRING_PIECES)
            };
            out.extend_from_slice(piece);
        }
        out.push(b'"');
    }

    fn name(&mut self, out: &mut Vec<u8>) {
        match self.random.below(30) {
            0 => {
                self.hard = true;
                out.extend_from_slice(br#""te\u0078t""#);
            }
            1 => {
                // Maybe with escapes, which the scanner leaves to serde.
                self.hard = true;
                self.string(out);
            }
            _ => {
                out.push(b'"');
                let name = *self.random.pick(NAMES);
                out.extend_from_slice(name);
                out.push(b'"');
            }
        }
    }

    fn value(&mut self, out: &mut Vec<u8>, depth: usize) {
        let kinds = if depth > 3 { 4 } else { 7 };
        match self.random.below(kinds) {
            0 | 1 => self.string(out),
            2 => {
                let bad = self.random.below(30) == 0;
                let number = *self.random.pick(if bad { BAD_NUMBERS } else { NUMBERS });
                out.extend_from_slice(number);
            }
            3 => {
                let bad = self.random.below(30) == 0;
                let literal = *self.random.pick(if bad { BAD_LITERALS } else { LITERALS });
                out.extend_from_slice(literal);
            }
            4 | 5 => self.object(out, depth + 1),
            _ => {
                out.push(b'[');
                for i in 0..self.random.below(4) {
                    if i > 0 {
                        out.push(b',');
                    }
                    self.space(out);
                    self.value(out, depth + 1);
                    self.space(out);
                }
                out.push(b']');
            }
        }
    }

    fn object(&mut self, out: &mut Vec<u8>, depth: usize) {
        out.push(b'{');
        self.space(out);
        for i in 0..self.random.below(5) {
            if i > 0 {
                out.push(b',');
                self.space(out);
            }
            self.name(out);
            self.space(out);
            out.push(b':');
            self.space(out);
            self.value(out, depth);
            self.space(out);
        }
        out.push(b'}');
    }

    /// A record: an object with members `text` (a string, most of the time) and `meta`
    /// (an object with one), among others.
    fn record(&mut self) -> Vec<u8> {
        self.hard = false;
        let mut out = Vec::new();
        self.space(&mut out);
        out.push(b'{');
        let members = 1 + self.random.below(5);
        for i in 0..members {
            if i > 0 {
                out.push(b',');
            }
            self.space(&mut out);
            match self.random.below(5) {
                0 | 1 => {
                    out.extend_from_slice(b"\"text\":");
                    self.space(&mut out);
                    if self.random.below(8) == 0 {
                        self.value(&mut out, 1);
                    } else {
                        self.string(&mut out);
                    }
                }
                2 => {
                    out.extend_from_slice(b"\"meta\": ");
                    self.object(&mut out, 1);
                }
                _ => {
                    self.name(&mut out);
                    out.push(b':');
                    self.space(&mut out);
                    self.value(&mut out, 1);
                }
            }
            self.space(&mut out);
        }
        out.push(b'}');
        self.space(&mut out);
        if self.random.below(2) == 0 {
            out.push(b'\n');
        }
        if self.random.below(6) == 0 {
            self.hard = true;
            self.spoil(&mut out);
        }
        out
    }

    /// Cuts, adds to, or changes one byte of `line`.
    fn spoil(&mut self, line: &mut Vec<u8>) {
        let at = self.random.below(line.len() + 1);
        match self.random.below(6) {
            0 => line.truncate(at),
            1 => {
                let byte = *self.random.pick(b"\"\\{}[],: x\x01\xff0-e.");
                line.insert(at, byte);
            }
            2 if at < line.len() => {
                line.remove(at);
            }
            3 => {
                let mut with_bom = b"\xef\xbb\xbf".to_vec();
                with_bom.append(line);
                *line = with_bom;
            }
            4 => {
                let garbage = *self.random.pick(&[&b" x"[..], b"{}", b",", b"\"", b"]"]);
                line.extend_from_slice(garbage);
            }
            _ => {
                let byte = *self.random.pick(b"\"\\{}[],: x\x01\xff0");
                if let Some(b) = line.get_mut(at) {
                    *b = byte;
                }
            }
        }
    }
}

#[test]
fn random_lines_are_read_alike() {
    let mut lines = Lines {
        random: Random(0x005e_ed0f_1e57),
        hard: false,
    };
    let (mut sure, mut accepted) = (0, 0);
    for _ in 0..40_000 {
        let line = lines.record();
        let dotted = *lines
            .random
            .pick(&["text", "text", "meta.text", "meta", "id", "a.b"]);
        let is_sure = same(&line, dotted);
        sure += usize::from(is_sure);
        if !lines.hard && locate_by_serde(&line, &path(dotted)).is_ok() {
            accepted += 1;
            // A line serde takes, not spoiled, without an escaped name: the scanner
            // takes it too.
            assert!(is_sure, "not sure of {:?}", String::from_utf8_lossy(&line));
        }
    }
    // Most of the lines serde reads are read by the scanner.
    assert!(sure * 10 > accepted * 8, "{sure} sure of {accepted}");
}

/// A chunk of records of a few layouts, as datasets have them (the same names in the same
/// order with the same white space, the values drawn anew for each line), with other
/// lines, spoiled lines and blank lines among them; or, when `clean`, records of the
/// layouts and blank lines alone, UTF-8, most of them valid.
fn chunk_of_layouts(lines: &mut Lines, clean: bool) -> Vec<u8> {
    let lead = *lines.random.pick(&["", "", " ", "\t "]);
    let layouts: Vec<(Vec<&str>, &str, &str)> = (0..1 + lines.random.below(3) / 2)
        .map(|_| {
            let mut names: Vec<&str> = (0..lines.random.below(4))
                .map(|_| *lines.random.pick(&["id", "text", "n", "meta"]))
                .collect();
            if lines.random.below(5) > 0 {
                let at = lines.random.below(names.len() + 1);
                names.insert(at, "text");
            }
            let colon = *lines.random.pick(&[":", ": ", " : ", "\t:\t"]);
            let end = *lines.random.pick(&["}\n", "}\n", " }\r\n", "}\t\n"]);
            (names, colon, end)
        })
        .collect();
    let mut chunk = Vec::new();
    for _ in 0..1 + lines.random.below(200) {
        match lines.random.below(20) {
            0 if !clean => chunk.extend_from_slice(&lines.record()),
            1 => chunk.extend_from_slice(b" \n"),
            _ => {
                let (names, colon, end) = lines.random.pick(&layouts);
                let mut line = lead.as_bytes().to_vec();
                line.push(b'{');
                for (i, name) in names.iter().enumerate() {
                    if i > 0 {
                        line.extend_from_slice(b", ");
                    }
                    line.extend_from_slice(format!("\"{name}\"{colon}").as_bytes());
                    match lines.random.below(8) {
                        0 if clean => {
                            let nested = [&b"[]"[..], b"{\"a\": [1, \"b\"]}", b"[1,\n2]"];
                            let nested: &&[u8] = lines.random.pick(&nested);
                            line.extend_from_slice(nested);
                        }
                        0 => lines.value(&mut line, 1),
                        1 => {
                            let number: &&[u8] = lines.random.pick(NUMBERS);
                            line.extend_from_slice(number);
                        }
                        2 if !clean => lines.string(&mut line),
                        _ => {
                            // A string of good pieces, so that most chunks are UTF-8.
                            line.push(b'"');
                            for _ in 0..lines.random.below(6) {
                                let piece: &&[u8] = lines.random.pick(STRING_PIECES);
                                line.extend_from_slice(piece);
                            }
                            // Now and then past the eight words read before `memchr2`.
                            if lines.random.below(8) == 0 {
                                line.extend_from_slice(&[b'x'; 70]);
                            }
                            line.push(b'"');
                        }
                    }
                }
                line.extend_from_slice(end.as_bytes());
                if !clean && lines.random.below(10) == 0 {
                    lines.spoil(&mut line);
                }
                chunk.extend_from_slice(&line);
            }
        }
    }
    chunk
}

#[test]
fn records_of_a_chunk_are_read_as_each_line_alone() {
    let mut lines = Lines {
        random: Random(0x0c4a_a5e5),
        hard: false,
    };
    // Of the clean chunks' records at "text": how many, how many read by a shape.
    let (mut records, mut by_shape, mut runs) = (0, 0, 0);
    for round in 0..600 {
        let clean = round % 2 == 0;
        // The chunk lies after a line of the batch that is not its own.
        let mut bytes = b"{\"text\": \"before x.org\"}\n".to_vec();
        let first = bytes.len();
        bytes.extend(chunk_of_layouts(&mut lines, clean));
        let dotted = *lines.random.pick(&["text", "text", "text", "meta.text"]);
        let path = path(dotted);
        let chunk = Chunk {
            first: 10,
            span: first..bytes.len(),
        };
        let utf8 = std::str::from_utf8(&bytes).is_ok();
        let id_path = [None, Some(self::path("id")), Some(self::path("meta.id"))]
            [lines.random.below(3)]
        .clone();
        let mut walk = Records::new(&bytes, &chunk, &path, id_path.as_ref(), utf8);
        let (mut at, mut number) = (first, 10);
        loop {
            // Now and then the records' run first (as a count or a listing reads them),
            // taking a few of its records, then refusing one, which `next` then gives.
            if lines.random.below(2) == 0 {
                let take = lines.random.below(6);
                let mut given = Vec::new();
                let start = walk.at;
                walk.run(|run| {
                    if given.len() == take {
                        return false;
                    }
                    // As the scans take them: only a string that decodes.
                    let mut text = Vec::new();
                    if !scan::decode_into(run.raw, &mut text) {
                        return false;
                    }
                    given.push((run.number, run.line, run.span, run.id, text));
                    true
                });
                assert_eq!(
                    walk.at,
                    given.last().map_or(start, |(_, line, ..)| line.end)
                );
                for (record, range, span, id, text) in given {
                    let end =
                        memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
                    let line = &bytes[at..end];
                    let context = format!("{:?} at {dotted}, run", String::from_utf8_lossy(line));
                    assert_eq!((record, range), (number, at..end), "{context}");
                    let alone =
                        locate_by_serde(line, &path).expect("a record of a run has its field");
                    assert_eq!((span, &text[..]), (alone.span, &*alone.text), "{context}");
                    let id_alone = id_path.as_ref().map(|id_path| id_by_serde(line, id_path));
                    assert_eq!(
                        id.map(|id| (id.json, id.text)),
                        id_alone.map(|id| (id.json, id.text)),
                        "id of {context}"
                    );
                    if clean && dotted == "text" {
                        runs += 1;
                    }
                    (at, number) = (end, number + 1);
                }
            }
            let shaped = walk
                .shapes
                .iter()
                .find_map(|shape| shape.read(&bytes[at..]));
            let Some(Record {
                number: record,
                line: range,
                field: located,
                id,
            }) = walk.next()
            else {
                break;
            };
            // The line as cut by its line feed, and located alone by serde.
            let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
            let line = &bytes[at..end];
            let context = format!(
                "{:?} at {dotted}, shape {:?}, read as {:?}",
                String::from_utf8_lossy(line),
                walk.shapes,
                String::from_utf8_lossy(&bytes[range.clone()])
            );
            assert_eq!((record, range), (number, at..end), "{context}");
            let alone = (!blank(line)).then(|| locate_by_serde(line, &path));
            assert_eq!(format!("{located:?}"), format!("{alone:?}"), "{context}");
            // The id, asked for a record whose field is found, is the one serde finds.
            let id_alone = match (&id_path, alone) {
                (Some(id_path), Some(Ok(_))) => Some(id_by_serde(line, id_path)),
                _ => None,
            };
            assert_eq!(
                id.map(|id| (id.json, id.text)),
                id_alone.map(|id| (id.json, id.text)),
                "id of {context}"
            );
            if clean && dotted == "text" {
                by_shape += usize::from(shaped.is_some());
                records += 1;
            }
            (at, number) = (end, number + 1);
        }
        assert_eq!(at, bytes.len());
    }
    // Most of the clean records were read by their shape, and many in runs.
    assert!(by_shape * 2 > records, "{by_shape} of {records} by shape");
    assert!(runs * 5 > records, "{runs} of {records} in runs");
}

/// Walks `bytes` (UTF-8) as one chunk at `text` with the id `k`, checks each record
/// against its line read alone, and gives the walk's state at its end.
fn walk_alike(bytes: &[u8]) -> Records<'_, 'static> {
    static PATHS: std::sync::OnceLock<(FieldPath, FieldPath)> = std::sync::OnceLock::new();
    let (text, id_field) = PATHS.get_or_init(|| (path("text"), path("k")));
    let chunk = Chunk {
        first: 0,
        span: 0..bytes.len(),
    };
    let mut walk = Records::new(bytes, &chunk, text, Some(id_field), true);
    for (number, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let record = walk.next().unwrap();
        assert_eq!(record.number, number as u64);
        let alone = locate_by_serde(line, text);
        assert_eq!(format!("{:?}", record.field), format!("{:?}", Some(alone)));
        let (id, alone) = (record.id.unwrap(), id_by_serde(line, id_field));
        assert_eq!((id.json, id.text), (alone.json, alone.text));
    }
    assert!(walk.next().is_none());
    walk
}

#[test]
fn shapes_that_compare_more_in_vain_than_they_read_are_given_up() {
    let lines = |layouts: usize| -> Vec<u8> {
        (0..300)
            .flat_map(|i| {
                format!(
                    "{{\"text\": \"see x.org {i}\", \"k\": {i}, \"m{}\": 0}}\n",
                    i % layouts
                )
                .into_bytes()
            })
            .collect()
    };
    // One layout: one shape, which reads every line but the first.
    let one = lines(1);
    let walk = walk_alike(&one);
    assert_eq!((walk.shapes.len(), walk.wasted, walk.off), (1, 0, false));
    assert_eq!(
        walk.read,
        one.len() - one.iter().position(|&b| b == b'\n').unwrap() - 1
    );
    // Six in turn, which differ only at their end: the shapes compare most of a line
    // in vain for each they read, and are given up.
    let six = lines(6);
    let walk = walk_alike(&six);
    assert!(walk.off && walk.shapes.is_empty());
    assert!(walk.wasted >= GIVE_UP_AFTER && walk.wasted > walk.read);
    // Six that differ at their start: what the shapes compare in vain is little.
    let six_early: Vec<u8> = (0..300)
        .flat_map(|i| {
            format!(
                "{{\"m{}\": 0, \"text\": \"see x.org {i}\", \"k\": {i}}}\n",
                i % 6
            )
            .into_bytes()
        })
        .collect();
    let walk = walk_alike(&six_early);
    assert!(
        !walk.off && walk.wasted < walk.read,
        "{} {}",
        walk.wasted,
        walk.read
    );
}
