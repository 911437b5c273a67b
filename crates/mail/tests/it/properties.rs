//! The mail property that the `mail_no_panic` fuzz target (`fuzz/fuzz_targets/`) and the
//! proptest below both check: one definition, two input generators. The property returns
//! `Err(message)` instead of panicking, so that proptest can shrink a failing case and
//! the fuzz target can print the input before it aborts.
#![allow(dead_code)]

/// Reading `data` as one raw message, as an mbox archive
/// (plain, or gzip when it starts with the gzip magic bytes) and as an HTML part must
/// never panic or hang, and what comes out must hold together: anchors lie inside the
/// visible text on character boundaries, and every link found in a part is text of
/// that part.
pub fn mail_no_panic(data: &[u8]) -> Result<usize, String> {
    use linkscan_mail::{
        html_text, open_mbox, LinkSource, MailScanner, MboxReader, ScannedMessage,
    };

    fn consistent(scanned: &ScannedMessage) -> Result<usize, String> {
        for part in scanned.parts() {
            for link in part.links() {
                let inside = part.text().get(link.start()..link.end());
                let ok = match link.source() {
                    LinkSource::Text => inside == Some(link.text()),
                    LinkSource::Href => inside.is_some() && !link.text().is_empty(),
                    other => {
                        return Err(format!("a link source this test does not know: {other:?}"))
                    }
                };
                if !ok {
                    return Err(format!(
                        "{link:?} is not text of its part {:?}",
                        part.text()
                    ));
                }
            }
        }
        Ok(scanned.link_count())
    }

    let scanner = MailScanner::new();
    let mut produced = consistent(&scanner.scan(data))?;
    if let Ok(reader) = open_mbox(data) {
        for message in MboxReader::new(reader).take(256) {
            match message {
                Ok(message) => produced += consistent(&scanner.scan(message.bytes()))?,
                Err(_) => break,
            }
        }
    }
    let html = html_text(&String::from_utf8_lossy(data));
    for anchor in &html.anchors {
        if anchor.start > anchor.end || html.text.get(anchor.start..anchor.end).is_none() {
            return Err(format!(
                "anchor {anchor:?} outside a text of {} bytes",
                html.text.len()
            ));
        }
    }
    Ok(produced + html.text.len())
}

#[cfg(test)]
mod generated {
    use super::mail_no_panic;
    use proptest::prelude::*;

    /// Detection tokens mixed into the mail text: dots, TLDs, schemes, `@`, brackets,
    /// Bidi_Control, invalid UTF-8.
    const TOKENS: &[&[u8]] = &[
        b"example.com",
        b"x.co",
        b"https://",
        b"www.",
        b"@",
        b"a.b",
        b"(",
        b")",
        b"\xe3\x80\x82",
        b"\xe2\x80\xae",
        b"\xff",
        b" ",
        b"\n",
        b"/",
        b"?q=1",
        b"#",
        b"mailto:",
        b"xn--p1ai",
    ];

    /// Mail text: header lines, MIME boundaries, transfer encodings, mbox separators and
    /// HTML mixed with the detection tokens.
    fn mail_bytes() -> impl Strategy<Value = Vec<u8>> {
        const MAIL: &[&[u8]] = &[
            b"From a@example.com Mon Jan  1 00:00:00 2024\n",
            b">From x\n",
            b"Subject: =?utf-8?B?aMOpbGxv?= example.com\n",
            b"Subject: =?iso-8859-1?Q?caf=E9?=\n",
            b"Content-Type: text/plain; charset=utf-8\n",
            b"Content-Type: text/html; charset=windows-1252\n",
            b"Content-Type: multipart/alternative; boundary=\"b\"\n",
            b"--b\n",
            b"--b--\n",
            b"Content-Transfer-Encoding: quoted-printable\n",
            b"Content-Transfer-Encoding: base64\n",
            b"\n",
            b"=\n",
            b"=3D",
            b"=E9",
            b"aHR0cHM6Ly9leGFtcGxlLmNvbS8K",
            b"<a href=\"https://example.com/x\">",
            b"</a>",
            b"<p>",
            b"<script>",
            b"&amp;",
            b"&#x202E;",
            b"\x1f\x8b",
        ];
        let piece = prop_oneof![
            2 => proptest::sample::select(MAIL).prop_map(|t| t.to_vec()),
            3 => proptest::sample::select(TOKENS).prop_map(|t| t.to_vec()),
        ];
        proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(5000)))]

        #[test]
        fn mail_reading_never_panics(data in mail_bytes()) {
            mail_no_panic(&data).map_err(TestCaseError::fail)?;
        }
    }

    /// `n` cases, or `PROPTEST_CASES` when it is set.
    fn cases(n: u32) -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(n)
    }
}
