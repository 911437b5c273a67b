//! `linkscan display` and the display form in HTML: what people see of a link, in every
//! script and paragraph direction (`linkscan::display`).

mod common;

use common::linkscan;

fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn display_shows_links_as_people_should_see_them() {
    let out = linkscan(
        &[
            "display",
            "https://xn--bcher-kva.de/b%C3%BCcher?q=%CE%B1#%CE%B2",
            "https://xn--80ak6aa92e.com/login",
            "https://example.com/\u{202E}fdp.exe",
            "σωκράτης@xn--bcher-kva.de",
            "john doe@example.com",
        ],
        b"",
    );
    assert_eq!(
        stdout(&out),
        "https://bücher.de/bücher?q=α#β\n\
         https://xn--80ak6aa92e.com/login\n\
         https://example.com/%E2%80%AEfdp.exe\n\
         σωκράτης@bücher.de\n\
         \"john doe\"@example.com\n"
    );
}

#[test]
fn display_with_bidi_isolates_the_link_and_each_field() {
    let out = linkscan(
        &[
            "display",
            "--bidi",
            "https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1?a=b#c",
        ],
        b"",
    );
    let marked = stdout(&out)
        .replace('\u{2066}', "⁅")
        .replace('\u{2069}', "⁆")
        .replace('\u{200E}', "|");
    assert_eq!(
        marked,
        "⁅|https|://|ar|.|wikipedia|.|org|/|wiki|/|مصر|?|a|=|b|#|c|⁆\n"
    );
}

#[test]
fn display_reads_stdin_lines_at_every_line_end_and_keeps_bad_bytes_escaped() {
    let out = linkscan(
        &["display"],
        b"example.com/%CE%B1\rexample.com/\xff\r\nx@xn--bcher-kva.de\n",
    );
    assert_eq!(
        stdout(&out),
        "example.com/α\nexample.com/%FF\nx@bücher.de\n"
    );
}

#[test]
fn escape_keeps_its_conformant_meaning() {
    // escape leaves a Bidi_Control character (section 4.1) and shows any valid host in
    // Unicode; display escapes it and keeps a spoofable host in Punycode.
    let url = "https://xn--80ak6aa92e.com/\u{202E}x";
    let escaped = stdout(&linkscan(&["escape", url], b""));
    let shown = stdout(&linkscan(&["display", url], b""));
    assert_eq!(escaped, "https://аррӏе.com/\u{202E}x\n");
    assert_eq!(shown, "https://xn--80ak6aa92e.com/%E2%80%AEx\n");
}
