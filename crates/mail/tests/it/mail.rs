//! Mail archives: the library (`linkscan::mail`) and `linkscan find --mbox/--maildir`, on the
//! small archives in `tests/data/mail/` (see the README there for what each message holds)
//! and on the shared mbox corpus.

use std::path::{Path, PathBuf};

use linkscan_mail::{LinkSource, MailScanner, MailWarning, MboxReader, ScannedMessage};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/mail")
        .join(name)
}

/// The messages of an mbox file, scanned by the library, each with all its warnings in
/// words: the mbox reader's, then the scanner's.
fn scan_file(path: &Path) -> Vec<(ScannedMessage, Vec<String>)> {
    let bytes = std::fs::read(path).expect("test archive");
    let scanner = MailScanner::new();
    MboxReader::new(&bytes[..])
        .map(|m| {
            let m = m.expect("in-memory reads cannot fail");
            let scanned = scanner.scan(m.bytes());
            let mut warnings: Vec<String> = m.warnings().iter().map(|w| w.to_string()).collect();
            warnings.extend(scanned.warnings().iter().map(|w| w.to_string()));
            (scanned, warnings)
        })
        .collect()
}

/// `(part, source, text, href)` of every link of a message.
fn links(m: &ScannedMessage) -> Vec<(String, &'static str, String, String)> {
    m.parts()
        .iter()
        .flat_map(|p| {
            p.links().iter().map(move |l| {
                (
                    p.path().to_string(),
                    l.source().as_str(),
                    l.text().to_string(),
                    l.href().to_string(),
                )
            })
        })
        .collect()
}

fn texts(m: &ScannedMessage) -> Vec<(&str, &str)> {
    m.parts()
        .iter()
        .flat_map(|p| p.links().iter().map(move |l| (p.path(), l.text())))
        .collect()
}

fn sample() -> Vec<ScannedMessage> {
    let messages = scan_file(&data("sample.mbox"));
    assert_eq!(messages.len(), 12);
    for (i, (_, warnings)) in messages.iter().enumerate() {
        assert!(warnings.is_empty(), "message {}: {warnings:?}", i + 1);
    }
    messages.into_iter().map(|(m, _)| m).collect()
}

#[test]
fn offsets_are_bytes_of_the_decoded_part_text() {
    for file in ["sample.mbox", "broken.mbox"] {
        for (m, _) in scan_file(&data(file)) {
            for part in m.parts() {
                for link in part.links() {
                    assert!(link.start() <= link.end() && link.end() <= part.text().len());
                    assert!(part.text().is_char_boundary(link.start()));
                    assert!(part.text().is_char_boundary(link.end()));
                    if link.source() == LinkSource::Text {
                        assert_eq!(
                            &part.text()[link.start()..link.end()],
                            link.text(),
                            "{file}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn quoted_printable_soft_break_inside_a_url() {
    let m = &sample()[0];
    assert_eq!(
        texts(m),
        [(
            "1",
            "https://docs.example.com/guide/chapter-one/section-two/very-long-page-name.html"
        )]
    );
    // Scanning the raw bytes finds the URL cut at the soft break.
    let raw = std::fs::read(data("sample.mbox")).unwrap();
    let found: Vec<_> = linkscan::LinkFinder::new()
        .links_bytes(&raw)
        .map(|l| String::from_utf8_lossy(&raw[l.range()]).into_owned())
        .collect();
    assert!(
        !found
            .iter()
            .any(|l| l.ends_with("very-long-page-name.html")),
        "{found:?}"
    );
    assert!(found
        .iter()
        .any(|l| l.starts_with("https://docs.example.com/guide/chapter-one/section-two/very-lon")));
}

#[test]
fn quoted_printable_escapes_inside_urls() {
    assert_eq!(
        texts(&sample()[1]),
        [
            ("1", "https://www.example.org/search?q=links&lang=en"),
            ("1", "https://example.com/café/menü"),
        ]
    );
}

#[test]
fn base64_body() {
    assert_eq!(
        links(&sample()[2]),
        [
            (
                "1".into(),
                "text",
                "https://base64.example.net/path?x=1".into(),
                "https://base64.example.net/path?x=1".into()
            ),
            (
                "1".into(),
                "text",
                "help@base64.example.net".into(),
                "mailto:help@base64.example.net".into()
            ),
            (
                "1".into(),
                "text",
                "https://de.example.net/Grüße".into(),
                "https://de.example.net/Grüße".into()
            ),
        ]
    );
}

#[test]
fn rfc2047_subject_in_two_charsets() {
    let m = &sample()[3];
    assert_eq!(
        m.subject(),
        Some("Neue Seite: de.wikipedia.org/wiki/Straße – 日本語 example.jp")
    );
    assert_eq!(m.from(), Some("Davé <dave@example.com>"));
    assert_eq!(
        links(m),
        [
            (
                "subject".into(),
                "text",
                "de.wikipedia.org/wiki/Straße".into(),
                "https://de.wikipedia.org/wiki/Straße".into()
            ),
            (
                "subject".into(),
                "text",
                "example.jp".into(),
                "https://example.jp".into()
            ),
        ]
    );
    assert_eq!(m.parts()[0].content_type(), None);
}

#[test]
fn iso_2022_jp_body_and_subject() {
    assert_eq!(
        texts(&sample()[4]),
        [
            ("subject", "https://example.jp/お知らせ"),
            ("1", "https://example.jp/詳細"),
        ]
    );
}

#[test]
fn shift_jis_body() {
    assert_eq!(texts(&sample()[5]), [("1", "https://example.co.jp/ページ")]);
}

#[test]
fn windows_1252_body() {
    let m = &sample()[6];
    assert_eq!(
        texts(m),
        [("1", "https://example.com/café"), ("1", "info@example.fr")]
    );
    assert!(m.parts()[1]
        .text()
        .starts_with("“https://example.com/café” – "));
}

#[test]
fn non_ascii_wikipedia_urls_in_a_utf8_body() {
    assert_eq!(
        texts(&sample()[7]),
        [
            ("1", "https://ja.wikipedia.org/wiki/東京都"),
            ("1", "https://en.wikipedia.org/wiki/Kraków_(disambiguation)"),
        ]
    );
}

#[test]
fn html_part_links_in_text_and_in_href() {
    let m = &sample()[8];
    assert_eq!(
        links(m),
        [
            (
                "1".into(),
                "text",
                "https://shop.example.com/?a=1&b=2".into(),
                "https://shop.example.com/?a=1&b=2".into()
            ),
            (
                "2".into(),
                "text",
                "https://text.example.org/page".into(),
                "https://text.example.org/page".into()
            ),
            (
                "2".into(),
                "text",
                "https://café.example.com/x".into(),
                "https://café.example.com/x".into()
            ),
            (
                "2".into(),
                "href",
                "https://shop.example.com/?a=1&b=2".into(),
                "https://shop.example.com/?a=1&b=2".into()
            ),
            (
                "2".into(),
                "href",
                "mailto:sales@example.com".into(),
                "mailto:sales@example.com".into()
            ),
        ]
    );
    let html = &m.parts()[2];
    assert_eq!(html.content_type(), Some("text/html"));
    // Text content only: no tags, no attribute, no script or title.
    assert!(!html.text().contains('<') && !html.text().contains("script.example"));
    assert!(!html.text().contains("t.example.com"));
    let shop = &html.links()[2];
    assert_eq!(&html.text()[shop.start()..shop.end()], "our shop");
}

#[test]
fn nested_forwarded_message() {
    let m = &sample()[9];
    assert_eq!(
        links(m),
        [
            (
                "2.subject".into(),
                "text",
                "https://orig.example.com".into(),
                "https://orig.example.com".into()
            ),
            (
                "2.1".into(),
                "text",
                "https://nested.example.com/ab".into(),
                "https://nested.example.com/ab".into()
            ),
            (
                "2.2".into(),
                "href",
                "https://nested-href.example.com/".into(),
                "https://nested-href.example.com/".into()
            ),
        ]
    );
    let paths: Vec<_> = m.parts().iter().map(|p| p.path()).collect();
    assert_eq!(paths, ["subject", "1", "2.subject", "2.1", "2.2"]);
}

#[test]
fn mboxrd_from_escaping_is_undone() {
    let m = &sample()[10];
    let body = m.parts()[1].text();
    assert!(body.contains("\nFrom the archive: https://from.example.com/x\n>From quoted"));
    assert_eq!(
        texts(m),
        [
            ("1", "https://from.example.com/x"),
            ("1", "https://quoted.example.com")
        ]
    );
}

#[test]
fn euc_kr_gb18030_and_koi8_r_parts() {
    assert_eq!(
        texts(&sample()[11]),
        [
            ("1", "https://example.kr/경로"),
            ("2", "https://example.cn/路径"),
            ("3", "https://example.ru/путь"),
        ]
    );
}

#[test]
fn broken_messages_are_processed_and_reported() {
    let messages = scan_file(&data("broken.mbox"));
    assert_eq!(messages.len(), 10, "every message is counted");
    let expect: [(&str, &[&str]); 10] = [
        (
            "https://before.example.com",
            &["before the first `From `", "does not start with a header"],
        ),
        ("https://good1.example.com", &[]),
        (
            "https://trunc.example.com/x",
            &[
                "closing boundary of multipart/mixed is missing",
                "part 2 (text/plain): the base64 body is invalid",
            ],
        ),
        ("https://good2.example.com", &[]),
        (
            "https://raw.example.com/fallback",
            &["part 1 (text/plain): the base64 body is invalid"],
        ),
        (
            "https://charset.example.com/ü",
            &["unknown charset \"x-no-such-charset\""],
        ),
        (
            "https://wrong.example.com/page",
            &["1 character(s) could not be decoded as utf-8"],
        ),
        ("https://fromline.example.com", &["unescaped `From ` line"]),
        (
            "https://noboundary.example.com",
            &["multipart/mixed without a usable boundary"],
        ),
        ("https://good3.example.com", &[]),
    ];
    for (i, ((m, found_warnings), (link, warnings))) in messages.iter().zip(expect).enumerate() {
        let found: Vec<_> = texts(m).into_iter().map(|(_, t)| t).collect();
        assert!(found.contains(&link), "message {}: {found:?}", i + 1);
        assert_eq!(
            found_warnings.len(),
            warnings.len(),
            "message {}: {:?}",
            i + 1,
            found_warnings
        );
        for (w, expected) in found_warnings.iter().zip(warnings) {
            assert!(
                w.contains(expected),
                "message {}: {w:?} lacks {expected:?}",
                i + 1
            );
        }
    }
    // The unescaped `From ` line stayed in its message.
    assert!(messages[7].0.parts()[1]
        .text()
        .contains("\nFrom my point of view, "));
}

/// Undeclared 8-bit text that is not UTF-8 (quoted-printable or raw) is read as
/// windows-1252, as browsers read it, with a warning; declared charsets and UTF-8 stay as
/// they were.
#[test]
fn undeclared_8bit_text_is_read_as_windows_1252() {
    let scanner = MailScanner::new();
    for raw in [
        &b"Subject: s\nContent-Transfer-Encoding: quoted-printable\n\n\
           Espa=F1a y coraz=F3n: https://example.es/ma=F1ana =80 =\n\nfin\n"[..],
        b"Subject: s\nContent-Type: text/plain\nContent-Transfer-Encoding: 8bit\n\n\
          Espa\xf1a y coraz\xf3n: https://example.es/ma\xf1ana \x80 fin\n",
        b"Subject: s\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\
          Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n\
          Espa=F1a y coraz=F3n: https://example.es/ma=F1ana =80 fin\n--b--\n",
    ] {
        let m = scanner.scan(raw);
        let part = m.parts().iter().find(|p| p.path() != "subject").unwrap();
        assert!(
            part.text().contains("España y corazón"),
            "{:?}",
            part.text()
        );
        assert!(part.text().contains('€'), "{:?}", part.text());
        assert!(!part.text().contains('\u{FFFD}'), "{:?}", part.text());
        assert_eq!(part.links()[0].text(), "https://example.es/mañana");
        assert!(
            matches!(m.warnings(), [MailWarning::UndeclaredEightBit { .. }]),
            "{:?}",
            m.warnings()
        );
    }
    // Declared charsets are as before: bytes invalid in UTF-8 are still replaced.
    let m = scanner.scan(b"Subject: s\nContent-Type: text/plain; charset=utf-8\n\nEspa\xf1a\n");
    assert!(m.parts()[1].text().contains('\u{FFFD}'));
    assert!(matches!(
        m.warnings(),
        [MailWarning::UndecodableText { .. }]
    ));
    let m = scanner.scan("Subject: s\n\nEspaña\n".as_bytes());
    assert!(m.warnings().is_empty());
}

/// A scan that defers the links of the texts (`MailScanner::defer_text_links`, which
/// `find --mbox` uses) gives, through `MailScanner::text_links` then each part's kept
/// links, exactly the links of a scan that keeps them, in order; and resuming after any
/// link's end gives the links after it, as the writing thread of `find` does when a
/// worker left the rest of a message to it. Every message of the test archives, and raw
/// pieces of a message over the limit (valid UTF-8 and not).
#[test]
fn deferred_text_links_are_the_kept_links_from_any_link_on() {
    let kept = MailScanner::new();
    let deferred = MailScanner::new().defer_text_links(true);
    let mut raws: Vec<(Vec<u8>, Option<usize>)> = Vec::new();
    for entry in std::fs::read_dir(data("")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mbox") {
            let file = std::fs::File::open(&path).unwrap();
            for m in MboxReader::new(std::io::BufReader::new(file)) {
                raws.push((m.unwrap().bytes().to_vec(), None));
            }
        }
    }
    let piece = b"see a.co, b.org/x and (c.net) \xff d.com e@f.org ".repeat(50);
    raws.push((piece[..piece.len() / 2].to_vec(), Some(1000)));
    raws.push((
        b"see a.co, b.org/x and (c.net) d.com e@f.org ".repeat(50),
        Some(77),
    ));
    assert!(raws.len() > 20, "{}", raws.len());
    let mut resumed = 0;
    for (raw, piece_offset) in &raws {
        let (a, b) = match piece_offset {
            Some(offset) => (kept.scan_raw(raw, *offset), deferred.scan_raw(raw, *offset)),
            None => (kept.scan(raw), deferred.scan(raw)),
        };
        assert!(!a.text_links_deferred());
        assert_eq!(a.parts().len(), b.parts().len());
        for (i, (pa, pb)) in a.parts().iter().zip(b.parts()).enumerate() {
            let mut found: Vec<_> = deferred.text_links(&b, i, 0).collect();
            if b.text_links_deferred() {
                assert!(pb.links().iter().all(|l| l.source() == LinkSource::Href));
            } else {
                assert!(found.is_empty(), "nothing deferred, nothing found again");
            }
            found.extend(pb.links().iter().cloned());
            assert_eq!(found, pa.links(), "part {}", pa.path());
            let text_links: Vec<_> = (pa.links().iter())
                .filter(|l| l.source() == LinkSource::Text)
                .collect();
            for (k, link) in text_links.iter().enumerate() {
                let after: Vec<_> = deferred.text_links(&b, i, link.end()).collect();
                let expected: Vec<_> = if b.text_links_deferred() {
                    text_links[k + 1..].iter().map(|l| (*l).clone()).collect()
                } else {
                    Vec::new()
                };
                assert_eq!(after, expected, "part {} after {}", pa.path(), link.end());
                resumed += 1;
            }
        }
    }
    assert!(resumed > 100, "{resumed}");
}
