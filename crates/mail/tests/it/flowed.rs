//! `format=flowed` (RFC 3676): the decoder against each rule of the RFC, and flowed parts
//! in MIME.
//!
//! * `rfc3676_*`: one test per rule of sections 4.1 to 4.5 (quote depth, space-stuffing,
//!   soft breaks with and without DelSp, the signature separator, quote-depth-wins), on
//!   the RFC's own kinds of lines; `rfc3676_abnf_*`: the productions of the RFC's ABNF
//!   (`quote`, `flowed-line-qt`, `stuffed-flowed`, `flow`, `paragraph`, `sig-sep`).
//! * Which parts are flowed, in every transfer encoding. The package's unit tests check
//!   flowed text on both parse paths, and the lines of the mail corpus broken by soft
//!   breaks at random places; the command line's (`cli_*`), through `find --mbox`, `find
//!   --maildir` and the HTML archive.

use linkscan_mail::flowed::{paragraphs, unflow};
use linkscan_mail::{MailScanner, ScannedMessage};

// ---------------------------------------------------------------------------------------
// The rules of RFC 3676, one by one.

#[test]
fn rfc3676_4_2_a_line_ending_in_a_space_goes_on_in_the_next() {
    // Section 4.2: a series of flowed lines and the fixed line that ends it is a paragraph.
    let text = "This is a paragraph that \r\nspans three \r\nlines.\r\nA fixed line.\r\n";
    assert_eq!(
        unflow(text, false),
        "This is a paragraph that spans three lines.\r\nA fixed line.\r\n"
    );
    // Trailing spaces are part of the content without DelSp: two spaces stay one.
    assert_eq!(unflow("two  \r\nspaces\r\n", false), "two  spaces\r\n");
}

#[test]
fn rfc3676_4_2_delsp_yes_deletes_the_space_of_a_soft_break() {
    // Sections 4.1 and 4.2: with DelSp=yes the last space of a flowed line is deleted
    // before the lines are joined, so a word (or a URL) may be broken anywhere.
    let text = "see https://example.com/very/long/pa \r\nth/to/doc\r\n";
    assert_eq!(
        unflow(text, true),
        "see https://example.com/very/long/path/to/doc\r\n"
    );
    assert_eq!(
        unflow(text, false),
        "see https://example.com/very/long/pa th/to/doc\r\n"
    );
    // Only one space is deleted.
    assert_eq!(unflow("a  \r\nb\r\n", true), "a b\r\n");
    // Japanese text without spaces, broken by the sender (the reason for DelSp).
    assert_eq!(
        unflow("日本語の文章は \r\n空白なしで続く\r\n", true),
        "日本語の文章は空白なしで続く\r\n"
    );
}

#[test]
fn rfc3676_4_3_the_signature_separator_is_fixed() {
    // Section 4.3: "-- " ends in a space but is not flowed, quoted or not.
    let text = "Bye \r\nnow\r\n-- \r\nAnn \r\nExample\r\n";
    assert_eq!(unflow(text, false), "Bye now\r\n-- \r\nAnn Example\r\n");
    assert_eq!(unflow(text, true), "Byenow\r\n-- \r\nAnnExample\r\n");
    assert_eq!(unflow(">-- \r\n>sig\r\n", false), "> -- \r\n> sig\r\n");
    // A line that merely starts with it is flowed as any other.
    assert_eq!(unflow("--  \r\nx\r\n", true), "-- x\r\n");
}

#[test]
fn rfc3676_4_3_the_signature_separator_ends_the_paragraph_before_it() {
    // Section 4.3: the separator line ends what comes before it, so a flowed line before
    // it is not joined with it; with DelSp=yes the link before the signature stays whole
    // and no `--` is glued to it.
    let text = "see https://example.com/docs \r\n-- \r\nAnn\r\n";
    for delsp in [true, false] {
        assert_eq!(unflow(text, delsp), text);
    }
    assert_eq!(
        unflow(">quoted \n>-- \n>sig\n", true),
        "> quoted \n> -- \n> sig\n"
    );
    let m = MailScanner::new().scan(
        b"Content-Type: text/plain; format=flowed; delsp=yes\r\n\r\n\
          see https://example.com/docs \r\n-- \r\nAnn\r\n",
    );
    let urls: Vec<&str> = m
        .parts()
        .iter()
        .flat_map(|p| p.links().iter().map(|l| l.text()))
        .collect();
    assert_eq!(urls, ["https://example.com/docs"]);
}

#[test]
fn rfc3676_4_4_space_stuffing_is_undone() {
    // Section 4.4: a sender stuffs a line that starts with a space, ">" or "From "; the
    // reader removes one leading space, after the quote marks.
    let text = " From here\r\n  indented\r\n plain\r\n";
    assert_eq!(unflow(text, false), "From here\r\n indented\r\nplain\r\n");
    // An unquoted line that starts with ">" once unstuffed keeps its space: it is no quote.
    let text = " >not a quote\r\n";
    assert_eq!(unflow(text, false), " >not a quote\r\n");
    let read: Vec<_> = paragraphs(" >not a quote\r\n").map(|p| p.depth).collect();
    assert_eq!(read, [0]);
    // Stuffed quoted lines.
    assert_eq!(
        unflow("> From x\r\n>  two\r\n", false),
        "> From x\r\n>  two\r\n"
    );
}

#[test]
fn rfc3676_4_5_quote_depth_counts_the_marks_and_paragraphs_keep_it() {
    // Section 4.5: the quote marks are counted and removed before anything else; each
    // paragraph is written back at its depth, marks then one space.
    let text = ">>Nested quoted \r\n>>paragraph.\r\n>Quoted \r\n> paragraph.\r\nReply.\r\n";
    let unflowed = unflow(text, false);
    assert_eq!(
        unflowed,
        ">> Nested quoted paragraph.\r\n> Quoted paragraph.\r\nReply.\r\n"
    );
    let read: Vec<(usize, &str)> = paragraphs(&unflowed)
        .map(|p| (p.depth, &unflowed[p.content]))
        .collect();
    assert_eq!(
        read,
        [
            (2, "Nested quoted paragraph."),
            (1, "Quoted paragraph."),
            (0, "Reply.")
        ]
    );
    // "> >" is depth one with content ">": the space ends the quote marks.
    assert_eq!(unflow("> > x \r\n> > y\r\n", false), "> > x > y\r\n");
}

#[test]
fn rfc3676_4_5_quote_depth_wins_over_a_soft_break() {
    // Section 4.5: a flowed line followed by a line of another depth is fixed.
    let text = ">quoted and flowed \r\nnot quoted\r\n>>deeper \r\n>shallower\r\n";
    assert_eq!(
        unflow(text, false),
        "> quoted and flowed \r\nnot quoted\r\n>> deeper \r\n> shallower\r\n"
    );
}

#[test]
fn rfc3676_lines_end_with_crlf_or_lf_and_the_last_may_have_none() {
    assert_eq!(unflow("a \nb\nc \r\nd", false), "a b\nc d");
    assert_eq!(unflow("a \nb \n", true), "ab \n");
    assert_eq!(unflow("", true), "");
    assert_eq!(unflow("\r\n\r\n", true), "\r\n\r\n");
}

// ---------------------------------------------------------------------------------------
// The RFC's grammar (its ABNF section), production by production: each line below is
// written as the grammar builds it, and read back as the grammar reads it.

/// The paragraphs of `text` unflowed, as (depth, content).
fn read(text: &str, delsp: bool) -> Vec<(usize, String)> {
    let unflowed = unflow(text, delsp);
    paragraphs(&unflowed)
        .map(|p| (p.depth, unflowed[p.content].to_string()))
        .collect()
}

#[test]
fn rfc3676_4_1_quotes_then_stuffing_then_flow() {
    // Section 4.1: the quote marks are counted "before any other tests (that is, before
    // checking for space-stuffed and flowed)", and the stuffing space is deleted "before
    // examining the line further (that is, before checking for flowed)". So a line of one
    // space is a stuffed empty line, fixed: it ends the paragraph before it.
    assert_eq!(
        read("a \r\n \r\nb\r\n", false),
        [(0, "a ".to_string()), (0, "b".to_string())]
    );
    assert_eq!(
        read("a \r\n \r\nb\r\n", true),
        [(0, "a".to_string()), (0, "b".to_string())]
    );
    // After its quote mark and stuffing, "> " is an empty line: fixed, it ends the paragraph.
    assert_eq!(
        read(">a \r\n> \r\n>b\r\n", false),
        [(1, "a ".to_string()), (1, "b".to_string())]
    );
}

#[test]
fn rfc3676_abnf_quote_is_one_or_more_quote_marks() {
    // quote = 1*quote-mark; quote-mark = ">": the depth is the number of marks before
    // anything else, and a mark after the stuffing space is content.
    assert_eq!(read(">>>deep\r\n", false), [(3, "deep".to_string())]);
    assert_eq!(read(">> >x\r\n", false), [(2, ">x".to_string())]);
    // unstuffed-flowed = non-sp-quote *text-char: the first character after the quote
    // is neither a space nor a mark, so ">>x" is depth two, not depth one with ">x".
    assert_eq!(read(">>x\r\n", false), [(2, "x".to_string())]);
}

#[test]
fn rfc3676_abnf_flowed_line_quoted_and_stuffed() {
    // flowed-line-qt = quote ( ( stuffing stuffed-flowed ) / unstuffed-flowed ) flow CRLF
    // stuffed-flowed = *text-char: after the stuffing space, spaces are content.
    let text = ">  indented and \r\n>flowed\r\n";
    assert_eq!(read(text, false), [(1, " indented and flowed".to_string())]);
    assert_eq!(read(text, true), [(1, " indented andflowed".to_string())]);
    // The same paragraph written with and without stuffing reads the same.
    assert_eq!(
        read("> one \r\n>two\r\n", false),
        read(">one \r\n> two\r\n", false)
    );
}

#[test]
fn rfc3676_abnf_flow_is_one_space() {
    // flow = SP ("if DelSp=yes, space was added on generation and is deleted on
    // reception"): exactly one space is the flow; the others are text-char.
    assert_eq!(read("a   \r\nb\r\n", true), [(0, "a  b".to_string())]);
    assert_eq!(read("a   \r\nb\r\n", false), [(0, "a   b".to_string())]);
    // A flowed line may hold nothing but its stuffing and its flow (stuffed-flowed =
    // *text-char, empty here).
    assert_eq!(read("a \r\n  \r\nb\r\n", true), [(0, "ab".to_string())]);
    assert_eq!(read("a \r\n  \r\nb\r\n", false), [(0, "a  b".to_string())]);
}

#[test]
fn rfc3676_abnf_paragraph_is_flowed_lines_and_one_fixed_line() {
    // paragraph = 1*flowed-line fixed-line; fixed-line ends in non-sp.
    let text = "one \r\ntwo \r\nthree\r\nfour\r\n";
    assert_eq!(
        read(text, false),
        [(0, "one two three".to_string()), (0, "four".to_string())]
    );
    // "all lines in paragraph MUST be unquoted or have same quote depth".
    let text = "one \r\n>two \r\n>three\r\n";
    assert_eq!(
        read(text, false),
        [(0, "one ".to_string()), (1, "two three".to_string())]
    );
}

#[test]
fn rfc3676_abnf_signature_separator_quoted_and_stuffed() {
    // sig-sep = [ quote [stuffing] ] "--" SP CRLF: never flowed, quoted or not, with the
    // stuffing space after the quote or without it.
    for text in ["-- \r\nsig\r\n", ">-- \r\n>sig\r\n", "> -- \r\n> sig\r\n"] {
        let depth = usize::from(text.starts_with('>'));
        assert_eq!(
            read(text, true),
            [(depth, "-- ".to_string()), (depth, "sig".to_string())],
            "{text:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// MIME: which parts are flowed, in every encoding.

fn scan(raw: &str) -> ScannedMessage {
    MailScanner::new().scan(raw.as_bytes())
}

/// `(text, href, start, end)` of every link of every part but the Subject.
fn body_links(m: &ScannedMessage) -> Vec<(String, String, usize, usize)> {
    m.parts()
        .iter()
        .filter(|p| p.path() != "subject")
        .flat_map(|p| {
            p.links()
                .iter()
                .map(|l| (l.text().into(), l.href().into(), l.start(), l.end()))
        })
        .collect()
}

#[test]
fn mime_parameters_say_which_parts_are_flowed() {
    let body = "go to https://example.com/a/b \r\nc/d today\r\n";
    let m = scan(&format!(
        "Content-Type: text/plain; FORMAT=\"Flowed\"; DelSp=YES\r\n\r\n{body}"
    ));
    assert!(m.parts()[0].is_flowed());
    assert_eq!(m.parts()[0].links()[0].text(), "https://example.com/a/bc/d");
    for fixed in [
        "Content-Type: text/plain\r\n\r\n",
        "Content-Type: text/plain; format=fixed; delsp=yes\r\n\r\n",
        "Content-Type: text/html; format=flowed; delsp=yes\r\n\r\n",
        "\r\n",
    ] {
        let m = scan(&format!("Subject: x\r\n{fixed}{body}"));
        let part = m.parts().iter().find(|p| p.path() != "subject").unwrap();
        assert!(!part.is_flowed(), "{fixed}");
        assert_eq!(part.links()[0].text(), "https://example.com/a/b", "{fixed}");
    }
}

#[test]
fn flowed_parts_are_unflowed_after_their_transfer_encoding() {
    let want = "see https://example.com/very/long/path/to/doc\r\n";
    // Quoted-printable: the soft break's space written =20, and a QP soft break too.
    let qp = "Content-Type: text/plain; format=flowed; delsp=yes\r\n\
              Content-Transfer-Encoding: quoted-printable\r\n\r\n\
              see https://example.com/very/long/pa=20\r\nth/to/d=\r\noc\r\n";
    // Base64 of "see https://example.com/very/long/pa \r\nth/to/doc\r\n".
    let b64 = "Content-Type: text/plain; format=flowed; delsp=yes\r\n\
               Content-Transfer-Encoding: base64\r\n\r\n\
               c2VlIGh0dHBzOi8vZXhhbXBsZS5jb20vdmVyeS9sb25nL3BhIA0KdGgvdG8vZG9jDQo=\r\n";
    for raw in [qp, b64] {
        let m = scan(raw);
        assert_eq!(m.parts()[0].text(), want, "{raw}");
        assert_eq!(
            body_links(&m),
            [(
                "https://example.com/very/long/path/to/doc".into(),
                "https://example.com/very/long/path/to/doc".into(),
                4,
                45
            )]
        );
    }
}
