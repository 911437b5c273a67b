use crate::common::linkscan;
use linkscan::checks::{self, Check};
use linkscan::{LinkFinder, LinkKind};

#[test]
fn find_checks_adds_an_array_to_jsonl_and_a_column_to_tsv() {
    let out = linkscan(&["find", "--json", "--checks"], SAMPLE.as_bytes());
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let checks: Vec<serde_json::Value> = lines.iter().map(|l| l["checks"].clone()).collect();
    assert_eq!(checks, sample_checks());
    // Without the option there is no such field.
    let out = linkscan(&["find", "--json"], SAMPLE.as_bytes());
    assert!(!String::from_utf8(out.stdout).unwrap().contains("checks"));

    let out = linkscan(&["find", "--checks", "--format", "tsv"], SAMPLE.as_bytes());
    let tsv = String::from_utf8(out.stdout).unwrap();
    let last_columns: Vec<&str> = tsv
        .lines()
        .map(|l| l.split('\t').nth(5).expect("six columns"))
        .collect();
    assert_eq!(
        last_columns,
        [
            "identifier_status",
            "bidi_control",
            "",
            "identifier_status,bidi_control"
        ]
    );
}

#[test]
fn find_checks_rejects_formats_without_room_for_them() {
    let out = linkscan(&["find", "--checks", "--format", "marked"], b"example.com");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--checks"));
    let out = linkscan(&["find", "--checks", "--count"], b"example.com");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn linkify_checks_leaves_failing_links_as_text() {
    let out = linkscan(&["linkify", "--checks"], SAMPLE.as_bytes());
    let html = String::from_utf8(out.stdout).unwrap();
    assert_eq!(html.matches("<a href").count(), 1, "{html}");
    assert!(html.contains("<a href=\"mailto:x@example.com\">"));
    assert!(html.contains("a ｅxample.com b"));
    let out = linkscan(&["linkify"], SAMPLE.as_bytes());
    let html = String::from_utf8(out.stdout).unwrap();
    assert_eq!(html.matches("<a href").count(), 4, "{html}");
}

#[test]
fn escape_checks_escapes_bidi_controls() {
    let url = "https://example.com/%E2%80%AEfdp.exe";
    let out = linkscan(&["escape", "--checks", url], b"");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{url}\n"));
    let out = linkscan(&["escape", url], b"");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "https://example.com/\u{202E}fdp.exe\n"
    );
    let out = linkscan(
        &["escape", "--checks"],
        "example.com/\u{200F}x\n".as_bytes(),
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "example.com/%E2%80%8Fx\n"
    );
}

/// `--checks` with mail archives: the same checks on the links of each message.
#[test]
fn checks_apply_to_mail_archives() {
    let dir = std::env::temp_dir().join(format!("linkscan-checks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mbox = dir.join("list.mbox");
    std::fs::write(
        &mbox,
        format!(
            "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: links\n\
             Content-Type: text/plain; charset=utf-8\n\n{SAMPLE}\n"
        ),
    )
    .unwrap();
    let mbox = mbox.to_str().unwrap();

    let out = linkscan(&["find", "--json", "--mbox", "--checks", mbox], b"");
    assert!(out.status.success(), "{out:?}");
    let checks: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["checks"].clone())
        .collect();
    assert_eq!(checks, sample_checks());
    let out = linkscan(
        &["find", "--mbox", "--checks", "--format", "tsv", mbox],
        b"",
    );
    let tsv = String::from_utf8(out.stdout).unwrap();
    let last: Vec<&str> = tsv
        .lines()
        .map(|l| l.rsplit('\t').next().unwrap())
        .collect();
    assert_eq!(
        last,
        [
            "identifier_status",
            "bidi_control",
            "",
            "identifier_status,bidi_control"
        ]
    );

    let site = dir.join("site");
    let site_arg = site.to_str().unwrap();
    let out = linkscan(
        &["linkify", "--mbox", "--checks", "--out", site_arg, mbox],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    let page = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(|c: char| c.is_ascii_digit())
                && p.extension().is_some_and(|e| e == "html")
        })
        .expect("a message page");
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains("href=\"mailto:x@example.com\""), "{html}");
    assert!(!html.contains("href=\"https://ｅxample.com\""), "{html}");
    assert!(!html.contains("fdp.exe\""), "{html}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The spoof check is the display form's verdict: a host is flagged (`spoof`, or
/// `identifier_status` for a character that is not Allowed) exactly when `linkscan display`
/// shows it in ASCII, through the library, `find --checks` and `linkify --checks` alike.
#[test]
fn spoof_agrees_with_display_everywhere() {
    let hosts = [
        ("example.com", false),
        ("bücher.de", false),
        ("παράδειγμα.ελ", false),
        ("例え.みんな", false),
        ("\u{0440}aypal.com", true),
        ("\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}.com", true),
        ("xn--80ak6aa92e.com", true),
        ("g\u{043E}\u{043E}gle.com", true),
        ("ｅxample.com", true),
    ];
    for (host, spoof) in hosts {
        let link = format!("https://{host}/a");
        let result = checks::check(&link, LinkKind::Url);
        let flagged = result.fails(Check::Spoof) || result.fails(Check::IdentifierStatus);
        assert_eq!(flagged, spoof, "{host}");
        assert_eq!(linkscan::display::host_spoofable(host), spoof, "{host}");
        let shown = linkscan::display::display_url(&link, &Default::default());
        let in_ascii = shown.is_ascii() && !host.is_ascii() || shown.contains("xn--");
        assert_eq!(in_ascii, spoof, "{host}: {shown}");

        let out = linkscan(
            &["find", "--json", "--checks", "-"],
            format!("see {link} now").as_bytes(),
        );
        let line: serde_json::Value =
            serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
        let names = line["checks"].as_array().unwrap().clone();
        let flagged = names.contains(&serde_json::json!("spoof"))
            || names.contains(&serde_json::json!("identifier_status"));
        assert_eq!(flagged, spoof, "{host}");

        let out = linkscan(&["linkify", "--checks"], link.as_bytes());
        let html = String::from_utf8(out.stdout).unwrap();
        assert_eq!(!html.contains("<a "), spoof, "{host}: {html}");
    }
}

/// Invisible characters (Default_Ignorable_Code_Point) in a link or right before it, in
/// generated positions: each is flagged, by the library and `find --checks`.
#[test]
fn invisible_characters_are_flagged_wherever_they_are() {
    let invisible = [
        '\u{00AD}',
        '\u{200B}',
        '\u{2060}',
        '\u{FEFF}',
        '\u{034F}',
        '\u{E0020}',
    ];
    let host = "www.example.com";
    let finder = LinkFinder::new();
    for c in invisible {
        for at in 0..=host.len() {
            let text = format!("see {}{c}{}/x.", &host[..at], &host[at..]);
            let flagged: Vec<bool> = checks::checked_links(&finder, text.as_bytes())
                .map(|(_, check)| check.fails(Check::Invisible))
                .collect();
            // Whatever was found next to or around the invisible character is flagged.
            assert!(
                flagged.iter().all(|&f| f),
                "{c:?} at {at}: {text:?} gives {flagged:?}"
            );
            if (4..=10).contains(&at) {
                assert!(!flagged.is_empty(), "{c:?} at {at}: {text:?}");
            }
        }
    }
    let out = linkscan(
        &["find", "--checks", "--format", "tsv", "-"],
        "x\u{00AD}pal.com".as_bytes(),
    );
    let tsv = String::from_utf8(out.stdout).unwrap();
    assert!(tsv.trim_end().ends_with("\tinvisible"), "{tsv}");
}

/// The `checks` arrays of the links of [`SAMPLE`] in the JSON output, in order.
fn sample_checks() -> [serde_json::Value; 4] {
    [
        serde_json::json!(["identifier_status"]),
        serde_json::json!(["bidi_control"]),
        serde_json::json!([]),
        serde_json::json!(["identifier_status", "bidi_control"]),
    ]
}

/// One link per check, one that passes, and one that fails two.
const SAMPLE: &str = "a ｅxample.com b example.com/\u{202E}fdp.exe c x@example.com \
                      d ƿ.example.org/\u{2066} e example.c0m";
