//! The HTML archive as a browser sees it: `linkscan linkify --mbox` on test archives, then
//! headless Chromium loads pages and the DOM it built, and where links land on the
//! screen, are checked there.
//!
//! * `archive_pages_render_with_their_links`: the links, the decoded texts and the
//!   escaping of the sample archive and a hostile message.
//! * `links_read_left_to_right_in_every_direction`: Arabic, Hebrew and mixed lines with
//!   URLs holding right-to-left labels and path segments, queries, fragments, brackets and
//!   a U+202E, in an archive page and as `linkscan linkify` fragments in left-to-right and
//!   right-to-left paragraphs. JavaScript in the page measures each field of each link with a `Range`;
//!   the test asserts that the fields of every link read left to right, that the words
//!   around a link keep their places and their own order, and that the U+202E reverses
//!   nothing. Control paragraphs written the old way (a bare `<a>`, a raw U+202E) show
//!   that the measurement sees the reordering these rules prevent. A screenshot of the page
//!   is kept under Cargo's target folder (`target/tmp/browser/bidi.png`).
//!
//! * `flowed_paragraphs_wrap_and_message_ids_lead_to_their_pages`: a `format=flowed`
//!   paragraph is drawn wrapped by the browser (the sender's soft breaks gone), quoted
//!   paragraphs indented by their depth, and a cited Message-ID is a link that opens its
//!   message's page (screenshot: `target/tmp/browser/flowed.png`).
//!
//! They need `chromium` (Debian's package; `.ci/run` installs it), so they are
//! `#[ignore = "needs chromium"]`: a plain `cargo test` reports them as ignored, and
//! `cargo test -- --ignored` (as CI runs) fails with a message when chromium is missing.
#![cfg(feature = "mail")]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The browser on `PATH`; fails the test, with what to install, when there is none.
pub(crate) fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
        .expect(
            "this test needs chromium on PATH (apt-get install chromium); \
             without it, run the tests without --ignored",
        )
}

/// Chromium's common flags, its profile in `dir`.
pub(crate) fn chromium_command(browser: &Path, dir: &Path) -> Command {
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--window-size=1400,1000",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.join(".chromium-profile").display()
        ));
    command
}

/// The DOM of `page` after Chromium parsed and rendered it (and ran its scripts).
fn dump_dom(chromium: &Path, page: &Path) -> String {
    let out = chromium_command(chromium, page.parent().unwrap())
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {out:?}");
    String::from_utf8(out.stdout).expect("the DOM is UTF-8")
}

/// Writes an archive of `mboxes` to `out_dir` with `linkscan linkify --mbox`.
fn linkify_archive(out_dir: &Path, mboxes: &[&Path]) {
    let status = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--mbox", "--no-progress", "--out"])
        .arg(out_dir)
        .args(mboxes)
        .status()
        .expect("linkscan runs");
    assert!(status.success());
}

#[test]
#[ignore = "needs chromium"]
fn archive_pages_render_with_their_links() {
    let browser = chromium();
    let dir = std::env::temp_dir().join(format!("linkscan-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sample = crate::common::root().join("crates/mail/tests/data/mail/sample.mbox");
    // A hostile message after the sample: markup in the Subject and the body must stay text.
    let hostile = dir.join("hostile.mbox");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        &hostile,
        "From x@example.com Mon Jan  1 00:00:00 2024\n\
         From: <script>alert(1)</script> <x@example.com>\n\
         Subject: <script>document.title='pwned'</script> https://evil.example.com/?a=<b>\n\
         Message-ID: <hostile@example.com>\n\
         Content-Type: text/html; charset=utf-8\n\n\
         <p>Hi <img src=x onerror=\"document.title='pwned'\"> \
         <a href=\"javascript:alert(1)\">js</a> &lt;script&gt; https://ok.example.com</p>\n",
    )
    .unwrap();
    let out_dir = dir.join("web");
    linkify_archive(&out_dir, &[&sample, &hostile]);

    // The HTML message: links from the text and from href attributes, entities decoded.
    let dom = dump_dom(&browser, &out_dir.join("00009.html"));
    for expected in [
        "<bdi><a href=\"https://shop.example.com/?a=1&amp;b=2\" rel=\"nofollow\">our shop</a></bdi>",
        "<bdi dir=\"ltr\"><a href=\"https://text.example.org/page\" rel=\"nofollow\">\
         https://text.example.org/page</a></bdi>",
        "<bdi><a href=\"mailto:sales@example.com\" rel=\"nofollow\">sales</a></bdi>",
        // The display form in the text (each field isolated), the ASCII form in the href.
        "<bdi dir=\"ltr\"><a href=\"https://xn--caf-dma.example.com/x\" rel=\"nofollow\">\
         <bdi>https</bdi>://<bdi>café</bdi>.<bdi>example</bdi>.<bdi>com</bdi>/<bdi>x</bdi></a></bdi>",
        "<bdi dir=\"ltr\"><a href=\"mailto:ivan@example.com\">ivan@example.com</a></bdi>",
    ] {
        assert!(dom.contains(expected), "missing {expected:?} in\n{dom}");
    }
    assert!(
        !dom.contains("script.example.com"),
        "script text leaked:\n{dom}"
    );

    // Decoded legacy charsets and subjects reach the page as UTF-8.
    let dom = dump_dom(&browser, &out_dir.join("00005.html"));
    assert!(
        dom.contains(
            "<a href=\"https://example.jp/%E8%A9%B3%E7%B4%B0\" rel=\"nofollow\">\
             <bdi>https</bdi>://<bdi>example</bdi>.<bdi>jp</bdi>/<bdi>詳細</bdi></a>"
        ),
        "{dom}"
    );
    assert!(
        dom.contains("<title>お知らせ https://example.jp/お知らせ</title>"),
        "{dom}"
    );

    // The hostile message: everything is text, nothing runs, no javascript: link.
    let dom = dump_dom(&browser, &out_dir.join("00013.html"));
    assert!(
        dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"),
        "{dom}"
    );
    assert!(!dom.contains("<title>pwned</title>"), "{dom}");
    assert!(
        !dom.contains("<img") && !dom.contains("javascript:"),
        "{dom}"
    );
    assert!(
        dom.contains("<a href=\"https://ok.example.com\" rel=\"nofollow\">"),
        "{dom}"
    );
    assert!(
        dom.contains("<a href=\"https://evil.example.com/?a=&lt;b&gt;\" rel=\"nofollow\">"),
        "{dom}"
    );
    assert_eq!(dom.matches("<script").count(), 0, "{dom}");

    // The month pages the front page lists have every message, linked to its page.
    let front = dump_dom(&browser, &out_dir.join("index.html"));
    let months: String = front
        .split("<td><a href=\"")
        .skip(1)
        .map(|rest| dump_dom(&browser, &out_dir.join(&rest[..rest.find('"').unwrap()])))
        .collect();
    for n in 1..=13 {
        assert!(
            months.contains(&format!("<a href=\"{n:05}.html\">")),
            "page {n} not listed"
        );
    }
    assert!(months.contains(">Fwd: Original</bdi></a>"), "{months}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The lines of the right-to-left test message: each is its own paragraph (the archive's
/// `<pre>` takes each line's direction from its first strong character), with its
/// direction and the link it holds, as detected.
const BIDI_LINES: [(&str, Direction); 9] = [
    (
        "See https://ar.wikipedia.org/wiki/القاهرة_(مدينة) for the city",
        Direction::Ltr,
    ),
    (
        "انظر https://ar.wikipedia.org/wiki/القاهرة_(مدينة) للمدينة",
        Direction::Rtl,
    ),
    (
        "ראו https://he.wikipedia.org/wiki/ירושלים?שפה=עברית#היסטוריה עכשיו",
        Direction::Rtl,
    ),
    (
        "زوروا https://مثال.مصر/مسار/صفحة?بحث=كتاب&لغة=عربي#قسم اليوم",
        Direction::Rtl,
    ),
    (
        "Mixed https://דוגמה.קום/a/שלום?x=1 and שלום here",
        Direction::Ltr,
    ),
    (
        "(راجع https://example.com/ملف_(نسخة)/[1] ثم عد)",
        Direction::Rtl,
    ),
    (
        "Beware https://example.com/\u{202E}fdp.exe and more words",
        Direction::Ltr,
    ),
    (
        "احذر https://example.com/\u{202E}fdp.exe ثم تابع",
        Direction::Rtl,
    ),
    ("راسلوا ali@مثال.مصر شكرا", Direction::Rtl),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Ltr,
    Rtl,
}

/// Measures, for every link of the page (`<bdi dir="ltr">` in a `<pre>`, and the `<a>`
/// of the control paragraphs): the box of each field (the `<bdi>` of each, or for an
/// ASCII or control link the runs between `. : / ? = & # @`), and the box of each
/// character of the word before and the word after the link. The JSON goes into
/// `<pre id="measured">`.
const MEASURE: &str = r#"<script>
const box = r => { const b = r.getBoundingClientRect(); return [b.left, b.right, b.top]; };
const range = (node, start, end) => {
  const r = document.createRange(); r.setStart(node, start); r.setEnd(node, end); return r;
};
// One box per character of `text` (a UTF-16 pair is one character).
const chars = (node, start, text) => {
  const boxes = []; let at = start;
  for (const c of text) { boxes.push(box(range(node, at, at + c.length))); at += c.length; }
  return { text, boxes };
};
const word = (node, last) => {
  if (!node || node.nodeType !== Node.TEXT_NODE) return null;
  const s = node.data;
  const m = last ? /(\S+)\s*$/.exec(s) : /^\s*(\S+)/.exec(s);
  if (!m) return null;
  const start = last ? m.index : m.index + m[0].length - m[1].length;
  return chars(node, start, m[1]);
};
const links = [];
const measure = (outer, a) => {
  const fields = [];
  const inner = a.querySelectorAll('bdi');
  if (inner.length) {
    for (const b of inner) { const r = document.createRange(); r.selectNodeContents(b); fields.push([r.toString(), box(r)]); }
  } else {
    const t = a.firstChild; const re = /[^.:\/?=&#@]+/g; let m;
    while ((m = re.exec(t.data))) fields.push([m[0], box(range(t, m.index, m.index + m[0].length))]);
  }
  links.push({
    text: a.textContent, href: a.getAttribute('href'), fields,
    before: word(outer.previousSibling, true), after: word(outer.nextSibling, false),
  });
};
for (const outer of document.querySelectorAll('pre bdi[dir=ltr]')) measure(outer, outer.querySelector('a'));
for (const outer of document.querySelectorAll('p.fragment > bdi[dir=ltr]')) measure(outer, outer.querySelector('a'));
for (const a of document.querySelectorAll('p.control a')) measure(a, a);
document.getElementById('measured').textContent = JSON.stringify(links);
</script>"#;

/// Control paragraphs, written the way links were written before: a bare `<a>` in a
/// right-to-left paragraph, and a raw U+202E in a link.
const CONTROLS: &str = "<p class=\"control\" dir=\"rtl\">انظر \
    <a href=\"https://ar.wikipedia.org/\">https://ar.wikipedia.org/wiki/القاهرة_(مدينة)</a> للمدينة</p>\n\
    <p class=\"control\" dir=\"ltr\">Beware <a href=\"https://example.com/\">https://example.com/\u{202E}fdp.exe</a> and more words</p>\n";

#[derive(Debug)]
struct Measured {
    text: String,
    href: String,
    /// (text, [left, right, top])
    fields: Vec<(String, [f64; 3])>,
    before: Option<Word>,
    after: Option<Word>,
}

#[derive(Debug)]
struct Word {
    text: String,
    boxes: Vec<[f64; 3]>,
}

fn parse_measured(json: &str) -> Vec<Measured> {
    let value: serde_json::Value = serde_json::from_str(json).expect("the page's JSON");
    let f3 = |v: &serde_json::Value| -> [f64; 3] {
        let a = v.as_array().expect("a box");
        [0, 1, 2].map(|i| a[i].as_f64().expect("a number"))
    };
    let word = |v: &serde_json::Value| -> Option<Word> {
        (!v.is_null()).then(|| Word {
            text: v["text"].as_str().unwrap().to_string(),
            boxes: v["boxes"].as_array().unwrap().iter().map(f3).collect(),
        })
    };
    value
        .as_array()
        .expect("a list of links")
        .iter()
        .map(|l| Measured {
            text: l["text"].as_str().unwrap().to_string(),
            href: l["href"].as_str().unwrap().to_string(),
            fields: l["fields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| (f[0].as_str().unwrap().to_string(), f3(&f[1])))
                .collect(),
            before: word(&l["before"]),
            after: word(&l["after"]),
        })
        .collect()
}

/// Half a pixel of slack for sub-pixel layout.
const SLACK: f64 = 0.5;

/// Whether `boxes` run left to right (each starts at or after the end of the one before).
fn left_to_right(boxes: &[[f64; 3]]) -> bool {
    boxes.windows(2).all(|w| w[0][1] <= w[1][0] + SLACK)
}

/// Whether `boxes` run right to left.
fn right_to_left(boxes: &[[f64; 3]]) -> bool {
    boxes.windows(2).all(|w| w[1][1] <= w[0][0] + SLACK)
}

/// Whether `word` is written in a right-to-left script (Hebrew, Arabic).
fn is_rtl_word(word: &str) -> bool {
    word.chars().any(|c| ('\u{0590}'..='\u{08FF}').contains(&c))
}

/// The words around a link keep their places (before it on the paragraph's starting side,
/// after it on the other) and their own order of characters.
fn check_words_around(link: &Measured, direction: Direction) -> Result<(), String> {
    let left = link
        .fields
        .iter()
        .map(|f| f.1[0])
        .fold(f64::INFINITY, f64::min);
    let right = link
        .fields
        .iter()
        .map(|f| f.1[1])
        .fold(f64::NEG_INFINITY, f64::max);
    for (word, is_before) in [(&link.before, true), (&link.after, false)] {
        let word = word.as_ref().ok_or("no word next to the link")?;
        let word_left = word
            .boxes
            .iter()
            .map(|b| b[0])
            .fold(f64::INFINITY, f64::min);
        let word_right = word
            .boxes
            .iter()
            .map(|b| b[1])
            .fold(f64::NEG_INFINITY, f64::max);
        let on_the_left = word_right <= left + SLACK;
        let on_the_right = word_left >= right - SLACK;
        let placed = match (direction, is_before) {
            (Direction::Ltr, true) | (Direction::Rtl, false) => on_the_left,
            (Direction::Ltr, false) | (Direction::Rtl, true) => on_the_right,
        };
        if !placed {
            return Err(format!("{:?} is on the wrong side of the link", word.text));
        }
        let ordered = if is_rtl_word(&word.text) {
            right_to_left(&word.boxes)
        } else {
            left_to_right(&word.boxes)
        };
        if !ordered {
            return Err(format!(
                "the characters of {:?} are out of order",
                word.text
            ));
        }
    }
    Ok(())
}

#[test]
#[ignore = "needs chromium"]
fn links_read_left_to_right_in_every_direction() {
    let browser = chromium();
    let dir = std::env::temp_dir().join(format!("linkscan-bidi-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mbox = dir.join("bidi.mbox");
    let body: String = BIDI_LINES
        .iter()
        .map(|(line, _)| format!("{line}\n"))
        .collect();
    let body_file = dir.join("lines.txt");
    std::fs::write(&body_file, &body).unwrap();
    std::fs::write(
        &mbox,
        format!(
            "From x@example.com Mon Jan  1 00:00:00 2024\n\
             From: x@example.com\nSubject: روابط\nMessage-ID: <bidi@example.com>\n\
             Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n{body}"
        ),
    )
    .unwrap();
    let out_dir = dir.join("web");
    linkify_archive(&out_dir, &[&mbox]);
    let page = std::fs::read_to_string(out_dir.join("00001.html")).unwrap();

    // What reaches the page: no raw Bidi_Control character in any link's text or href,
    // a <pre dir="auto">.
    assert!(page.contains("<pre dir=\"auto\">"), "{page}");
    for (start, _) in page.match_indices("<a ") {
        let link = &page[start..start + page[start..].find("</a>").unwrap()];
        assert!(!link.contains('\u{202E}'), "a raw U+202E in {link}");
    }

    // The screenshot, kept for people to look at.
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join("bidi.png");
    let _ = std::fs::remove_file(&shot);
    let status = chromium_command(&browser, &dir)
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", out_dir.join("00001.html").display()))
        .output()
        .expect("chromium runs");
    assert!(status.status.success(), "{status:?}");
    assert!(std::fs::metadata(&shot)
        .map(|m| m.len() > 0)
        .unwrap_or(false));

    // The same lines through `linkscan linkify` (an HTML fragment), each put in a
    // paragraph of its direction.
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .arg("linkify")
        .arg(&body_file)
        .output()
        .expect("linkscan runs");
    assert!(out.status.success(), "{out:?}");
    let fragment = String::from_utf8(out.stdout).expect("UTF-8 HTML");
    let paragraphs: String = fragment
        .lines()
        .zip(BIDI_LINES)
        .map(|(html, (_, direction))| {
            let dir = if direction == Direction::Rtl {
                "rtl"
            } else {
                "ltr"
            };
            format!("<p class=\"fragment\" dir=\"{dir}\">{html}</p>\n")
        })
        .collect();

    // The page with those paragraphs, the controls and the measuring script at its end.
    let measured_page = out_dir.join("measured.html");
    let instrumented = page.replace(
        "</body>",
        &format!("{paragraphs}{CONTROLS}<pre id=\"measured\" hidden></pre>{MEASURE}</body>"),
    );
    std::fs::write(&measured_page, instrumented).unwrap();
    let dom = dump_dom(&browser, &measured_page);
    let json_start = dom
        .find("<pre id=\"measured\" hidden=\"\">")
        .expect("the results")
        + "<pre id=\"measured\" hidden=\"\">".len();
    let json = &dom[json_start..json_start + dom[json_start..].find("</pre>").unwrap()];
    let json = json
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let links = parse_measured(&json);
    assert_eq!(links.len(), 2 * BIDI_LINES.len() + 2, "{links:#?}");

    let (tested, controls) = links.split_at(2 * BIDI_LINES.len());
    for (link, (line, direction)) in tested.iter().zip(BIDI_LINES.iter().chain(&BIDI_LINES)) {
        let (line, direction) = (*line, *direction);
        assert!(link.fields.len() >= 3, "{line}: {link:?}");
        assert!(
            link.fields
                .iter()
                .all(|f| (f.1[2] - link.fields[0].1[2]).abs() < 2.0),
            "{line}: the link wraps, its fields cannot be compared: {link:?}"
        );
        let boxes: Vec<[f64; 3]> = link.fields.iter().map(|f| f.1).collect();
        assert!(
            left_to_right(&boxes),
            "{line} ({direction:?}): the fields of the link are not left to right: {:#?}",
            link.fields
        );
        check_words_around(link, direction).unwrap_or_else(|e| panic!("{line}: {e}: {link:#?}"));
        assert!(link.href.is_ascii(), "{line}: {}", link.href);
        assert!(!link.text.contains('\u{202E}'), "{line}");
    }
    // The links with a U+202E show it escaped, and the words after them read in order.
    for k in [6, 7, BIDI_LINES.len() + 6, BIDI_LINES.len() + 7] {
        assert!(tested[k].text.contains("%E2%80%AE"), "{:?}", tested[k]);
    }
    assert_eq!(tested[6].after.as_ref().unwrap().text, "and");
    assert_eq!(
        tested[BIDI_LINES.len() + 6].after.as_ref().unwrap().text,
        "and"
    );

    // The controls: without isolation the fields of the same URL are out of order in a
    // right-to-left paragraph, and a raw U+202E reverses the word after the link. So the
    // measurement above would see what the display rules prevent.
    let bare: Vec<[f64; 3]> = controls[0].fields.iter().map(|f| f.1).collect();
    assert!(!left_to_right(&bare), "control: {:#?}", controls[0].fields);
    let after = controls[1]
        .after
        .as_ref()
        .expect("the word after the control");
    assert_eq!(after.text, "and");
    assert!(right_to_left(&after.boxes), "control: {after:?}");
    eprintln!("screenshot: {}", shot.display());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `linkify --standalone` opens in a browser as it is: read as UTF-8 (its `<meta charset>`,
/// where a `file://` page without one would be read as windows-1252), line breaks and
/// blank lines kept (`white-space: pre-wrap`), and each input's block laid out in the
/// direction of its first strong character (`dir="auto"`).
#[test]
#[ignore = "needs chromium"]
fn standalone_page_keeps_lines_charset_and_direction() {
    let browser = chromium();
    let dir = std::env::temp_dir().join(format!("linkscan-standalone-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let latin = dir.join("notes.txt");
    std::fs::write(
        &latin,
        "one example.com\n\nthree example.org\nfour example.net\n",
    )
    .unwrap();
    let arabic = dir.join("arabic.txt");
    let arabic_text = "انظر ar.wikipedia.org/wiki/مصر للمزيد\n";
    std::fs::write(&arabic, arabic_text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["linkify", "--standalone"])
        .arg(&latin)
        .arg(&arabic)
        .output()
        .expect("linkscan runs");
    assert!(out.status.success(), "{out:?}");
    let page = String::from_utf8(out.stdout).expect("UTF-8 HTML");
    const MEASURE_PAGE: &str = "<script>\
        const pres = [...document.querySelectorAll('pre.text')];\
        const r = {charset: document.characterSet,\
          whiteSpace: getComputedStyle(pres[0]).whiteSpace,\
          directions: pres.map(p => getComputedStyle(p).direction),\
          tops: [...pres[0].querySelectorAll('a')].map(a => a.getBoundingClientRect().top),\
          lineHeight: pres[0].querySelector('a').getBoundingClientRect().height,\
          arabic: pres[1].textContent};\
        const o = document.createElement('pre'); o.id = 'measured';\
        o.textContent = JSON.stringify(r); document.body.appendChild(o);\
        </script>";
    let measured_page = dir.join("measured.html");
    std::fs::write(
        &measured_page,
        page.replace("</body>", &format!("{MEASURE_PAGE}</body>")),
    )
    .unwrap();
    let dom = dump_dom(&browser, &measured_page);
    let start = dom.find("<pre id=\"measured\">").expect("the script ran") + 19;
    let json = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    let r: serde_json::Value = serde_json::from_str(json).expect("the measurements");
    assert_eq!(r["charset"], "UTF-8", "{r}");
    assert_eq!(r["whiteSpace"], "pre-wrap", "{r}");
    assert_eq!(r["directions"], serde_json::json!(["ltr", "rtl"]), "{r}");
    assert_eq!(r["arabic"], arabic_text, "{r}");
    let tops: Vec<f64> = r["tops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    let line = r["lineHeight"].as_f64().unwrap();
    assert_eq!(tops.len(), 3, "{r}");
    // Lines 1, 3 and 4: the blank line between the first two is kept.
    let (gap1, gap2) = (tops[1] - tops[0], tops[2] - tops[1]);
    assert!(line > 0.0 && gap2 > 0.5 * line, "{r}");
    assert!(gap1 > 1.5 * gap2 && gap1 < 2.5 * gap2, "{r}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A flowed message (RFC 3676, DelSp=yes) and a reply that cites it by Message-ID, in an
/// archive: the sender's soft breaks are gone and the browser wraps the paragraph at the
/// page's width (measured: the word after the sender's first soft break sits on the first
/// drawn line, and the paragraph takes several drawn lines, as wide as the text column);
/// quoted paragraphs are drawn indented by their depth; the cited Message-ID is a link to
/// the page of its message. A screenshot is kept (`target/tmp/browser/flowed.png`).
#[test]
#[ignore = "needs chromium"]
fn flowed_paragraphs_wrap_and_message_ids_lead_to_their_pages() {
    let browser = chromium();
    let dir = std::env::temp_dir().join(format!("linkscan-flowed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A paragraph of about 1200 characters, broken every few words by the sender.
    let words: Vec<String> = (0..200).map(|i| format!("word{i}")).collect();
    let mut flowed = String::new();
    for chunk in words.chunks(6) {
        flowed.push_str(&chunk.join(" "));
        flowed.push_str("  \n"); // DelSp=yes: the last space is the soft break's
    }
    flowed.push_str("see https://example.com/a/very/long/pa \nth/to/the/doc.\n\n");
    flowed.push_str(">quoted and flowed  \n>on two lines\n>>quoted twice\n\n");
    let mbox = dir.join("flowed.mbox");
    std::fs::write(
        &mbox,
        format!(
            "From x@example.com Mon Jan  1 00:00:00 2024\n\
             From: x@example.com\nSubject: flowed\nMessage-ID: <flowed.1@example.com>\n\
             Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\n{flowed}\
             From y@example.com Mon Jan  1 00:00:01 2024\n\
             From: y@example.com\nSubject: re: flowed\nMessage-ID: <reply.2@example.com>\n\
             Content-Type: text/plain; charset=utf-8\n\n\
             In <flowed.1@example.com> you wrote; <elsewhere.3@example.com> is not here.\n"
        ),
    )
    .unwrap();
    let out_dir = dir.join("web");
    linkify_archive(&out_dir, &[&mbox]);

    // The screenshot, kept for people to look at.
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join("flowed.png");
    let _ = std::fs::remove_file(&shot);
    let status = chromium_command(&browser, &dir)
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", out_dir.join("00001.html").display()))
        .output()
        .expect("chromium runs");
    assert!(status.status.success(), "{status:?}");

    const MEASURE_FLOWED: &str = "<script>\
        const ps = [...document.querySelectorAll('.flowed p')];\
        const first = ps[0], text = first.firstChild;\
        const at = (word) => { const i = text.data.indexOf(word); const r = document.createRange();\
          r.setStart(text, i); r.setEnd(text, i + word.length); return r.getBoundingClientRect(); };\
        const tops = new Set([...(() => { const r = document.createRange(); r.selectNodeContents(first);\
          return r.getClientRects(); })()].map(b => Math.round(b.top)));\
        const quoted = ps.filter(p => p.closest('blockquote'));\
        const r = {paragraphs: ps.length,\
          word0: at('word0 ').top, word6: at('word6 ').top, word6left: at('word6 ').left,\
          word0left: at('word0 ').left, lines: tops.size,\
          width: first.getBoundingClientRect().width, column: document.querySelector('.flowed').getBoundingClientRect().width,\
          link: ps.map(p => [...p.querySelectorAll('a')].map(a => a.href)).flat(),\
          plain: ps[0].getBoundingClientRect().left,\
          quoted: quoted.map(p => [p.textContent, p.getBoundingClientRect().left])};\
        const o = document.createElement('pre'); o.id = 'measured';\
        o.textContent = JSON.stringify(r); document.body.appendChild(o);\
        </script>";
    let page = std::fs::read_to_string(out_dir.join("00001.html")).unwrap();
    let measured_page = out_dir.join("measured-flowed.html");
    std::fs::write(
        &measured_page,
        page.replace("</body>", &format!("{MEASURE_FLOWED}</body>")),
    )
    .unwrap();
    let dom = dump_dom(&browser, &measured_page);
    let start = dom.find("<pre id=\"measured\">").expect("the script ran") + 19;
    let json = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    let r: serde_json::Value = serde_json::from_str(json).expect("the measurements");
    let f = |k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
    // The word after the sender's first soft break is drawn on the first line, to the
    // right of the first word: the sender's line breaks are gone.
    assert_eq!(f("word0"), f("word6"), "{r}");
    assert!(f("word6left") > f("word0left"), "{r}");
    // The browser wraps the paragraph: several lines, as wide as the column.
    assert!(f("lines") >= 4.0, "{r}");
    assert!(f("width") > 0.9 * f("column"), "{r}");
    // The URL broken by a DelSp soft break is one link.
    assert_eq!(
        r["link"],
        serde_json::json!(["https://example.com/a/very/long/path/to/the/doc"]),
        "{r}"
    );
    // Quoted paragraphs: indented by their depth.
    let quoted = r["quoted"].as_array().unwrap();
    assert_eq!(quoted.len(), 2, "{r}");
    assert_eq!(quoted[0][0], "quoted and flowed on two lines", "{r}");
    assert_eq!(quoted[1][0], "quoted twice", "{r}");
    let (depth1, depth2) = (
        quoted[0][1].as_f64().unwrap(),
        quoted[1][1].as_f64().unwrap(),
    );
    assert!(f("plain") < depth1 && depth1 < depth2, "{r}");

    // The reply's page: the cited Message-ID is a link to the first page, which the
    // browser opens on that message; the one the archive lacks is no link to a page.
    const MEASURE_REPLY: &str = "<script>\
        const r = {mids: [...document.querySelectorAll('a.mid')].map(a => [a.textContent, a.href,\
          a.getBoundingClientRect().width])};\
        const o = document.createElement('pre'); o.id = 'measured';\
        o.textContent = JSON.stringify(r); document.body.appendChild(o);\
        </script>";
    let page = std::fs::read_to_string(out_dir.join("00002.html")).unwrap();
    let measured_page = out_dir.join("measured-reply.html");
    std::fs::write(
        &measured_page,
        page.replace("</body>", &format!("{MEASURE_REPLY}</body>")),
    )
    .unwrap();
    let dom = dump_dom(&browser, &measured_page);
    let start = dom.find("<pre id=\"measured\">").expect("the script ran") + 19;
    let json = dom[start..start + dom[start..].find("</pre>").unwrap()]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let r: serde_json::Value = serde_json::from_str(&json).expect("the measurements");
    let mids = r["mids"].as_array().unwrap();
    assert_eq!(mids.len(), 1, "{r}");
    assert_eq!(mids[0][0], "<flowed.1@example.com>", "{r}");
    assert!(mids[0][2].as_f64().unwrap() > 0.0, "{r}");
    let target = mids[0][1].as_str().unwrap();
    assert_eq!(
        target,
        format!("file://{}", out_dir.join("00001.html").display())
    );
    let opened = dump_dom(&browser, &out_dir.join("00001.html"));
    assert!(opened.contains("flowed.1@example.com"), "{opened}");
    assert!(opened.contains("<title>flowed</title>"), "{opened}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Measures an archive page in the browser: the left edge of each list item's link
/// (`li HREF LEFT`), the top and left of each month row's label and count
/// (`row LABEL TOP TOP LEFT LEFT`), and the left edge of each word of each subject in a
/// link (`word HREF K LEFT`), written into a `<pre id="measured">` that `--dump-dom` shows.
const MEASURE_ARCHIVE: &str = r#"<script>
const out = [];
const f = x => x.toFixed(1);
document.querySelectorAll('li').forEach(li => {
  const a = li.querySelector('a');
  if (a) out.push(['li', a.getAttribute('href'), f(a.getBoundingClientRect().left)].join(' '));
});
document.querySelectorAll('table.months tr').forEach(tr => {
  const td = tr.querySelectorAll('td');
  if (td.length < 2) return;
  const r = document.createRange();
  r.selectNodeContents(td[1]);
  const a = td[0].querySelector('a').getBoundingClientRect(), b = r.getBoundingClientRect();
  out.push(['row', td[0].textContent, f(a.top), f(b.top), f(a.left), f(b.left)].join(' '));
});
document.querySelectorAll('a > bdi').forEach(bdi => {
  const text = bdi.firstChild;
  if (!text || text.nodeType !== 3) return;
  let at = 0;
  text.data.split(' ').forEach((w, k) => {
    const r = document.createRange();
    r.setStart(text, at); r.setEnd(text, at + w.length);
    out.push(['word', bdi.parentElement.getAttribute('href'), k, f(r.getBoundingClientRect().left)].join(' '));
    at += w.length + 1;
  });
});
document.getElementById('measured').textContent = out.join('\n');
</script>"#;

/// The measurements of `page` ([`MEASURE_ARCHIVE`]); `bare` drops its style sheet first.
fn measure_archive(browser: &Path, page: &Path, bare: bool) -> Vec<Vec<String>> {
    measure_with(browser, page, MEASURE_ARCHIVE, bare)
}

/// What `script` writes into `#measured` when Chromium draws `page` (a copy of it with the
/// script added): a row of words per line. `bare` drops the page's style sheet first.
pub(crate) fn measure_with(
    browser: &Path,
    page: &Path,
    script: &str,
    bare: bool,
) -> Vec<Vec<String>> {
    let mut html = std::fs::read_to_string(page).unwrap();
    if bare {
        let (start, end) = (
            html.find("<style>").unwrap(),
            html.find("</style>").unwrap(),
        );
        html.replace_range(start..end + "</style>".len(), "");
    }
    let html = html.replace(
        "</body>",
        &format!("<pre id=\"measured\" hidden></pre>{script}</body>"),
    );
    let measured = page.with_file_name(format!(
        "measured-{}",
        page.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&measured, html).unwrap();
    let dom = dump_dom(browser, &measured);
    let start = dom
        .find("<pre id=\"measured\" hidden=\"\">")
        .expect("the results")
        + "<pre id=\"measured\" hidden=\"\">".len();
    dom[start..start + dom[start..].find("</pre>").unwrap()]
        .lines()
        .map(|l| l.split(' ').map(str::to_string).collect())
        .collect()
}

/// The left edge of the list item that links `href`.
fn left_of(measured: &[Vec<String>], href: &str) -> f64 {
    measured
        .iter()
        .find(|m| m[0] == "li" && m[1] == href)
        .unwrap_or_else(|| panic!("no item for {href}: {measured:?}"))[2]
        .parse()
        .unwrap()
}

/// What is drawn, not the markup: in a month page and a thread page a reply's left edge
/// is right of its parent's, with the style sheet and without it; on the front page each
/// month's label and count are on one line; a right-to-left thread reads right to left
/// and is indented as any other. Screenshots at 1280 px of the front page, a month, a
/// thread and a message are kept under Cargo's target folder (`target/tmp/browser/`).
/// The replies whose subject is their parent's are links labelled by author and date:
/// they are indented all the same.
#[test]
#[ignore = "needs chromium"]
fn archive_threads_and_months_are_drawn() {
    let browser = chromium();
    let dir = std::env::temp_dir().join(format!("linkscan-browser-threads-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mbox = dir.join("list.mbox");
    let message = |id: &str, parent: Option<&str>, day: u32, subject: &str| {
        let parent = parent
            .map(|p| format!("In-Reply-To: <{p}@example.com>\nReferences: <{p}@example.com>\n"))
            .unwrap_or_default();
        format!(
            "From x@example.com Mon Jan  1 00:00:00 2024\nFrom: Ann <ann@example.com>\n\
             To: list@example.com\nMessage-ID: <{id}@example.com>\n{parent}\
             Date: Mon, {day} Jan 2024 10:00:00 +0100\nSubject: {subject}\n\
             Content-Type: text/plain; charset=utf-8\n\nsee example.com\n\n"
        )
    };
    let archive = [
        message("root", None, 1, "Plans for the release"),
        message("r1", Some("root"), 2, "Re: Plans for the release"),
        message("r11", Some("r1"), 3, "Re: Plans for the release"),
        message("ar", None, 4, "مرحبا بالعالم"),
        message("ar1", Some("ar"), 5, "رد مرحبا بالعالم"),
        message("other", None, 6, "Something else"),
    ]
    .concat();
    std::fs::write(&mbox, archive).unwrap();
    let out_dir = dir.join("web");
    linkify_archive(&out_dir, &[&mbox]);

    for bare in [false, true] {
        let month = measure_archive(&browser, &out_dir.join("2024-01.html"), bare);
        let (root, r1, r11) = (
            left_of(&month, "00001.html"),
            left_of(&month, "00002.html"),
            left_of(&month, "00003.html"),
        );
        assert!(
            r1 > root + 10.0 && r11 > r1 + 10.0,
            "bare {bare}: {month:?}"
        );
        assert!(
            left_of(&month, "00005.html") > left_of(&month, "00004.html") + 10.0,
            "bare {bare}: {month:?}"
        );
        assert_eq!(left_of(&month, "00006.html"), root, "{month:?}");
        let thread = measure_archive(&browser, &out_dir.join("t00001.html"), bare);
        // The thread page's tree leads to each text on the page.
        assert!(left_of(&thread, "#m3") > left_of(&thread, "#m2") + 10.0);
    }

    // The front page: each month's label and count on the same line, the count after it.
    let front = measure_archive(&browser, &out_dir.join("index.html"), false);
    let rows: Vec<&Vec<String>> = front.iter().filter(|m| m[0] == "row").collect();
    assert_eq!(rows.len(), 1, "{front:?}");
    for row in rows {
        let n: Vec<f64> = row[2..].iter().map(|x| x.parse().unwrap()).collect();
        assert!(
            (n[0] - n[1]).abs() < 2.0,
            "label and count on two lines: {row:?}"
        );
        assert!(n[3] > n[2], "{row:?}");
    }

    // The right-to-left subject reads right to left: its first word right of its second.
    let thread = measure_archive(&browser, &out_dir.join("t00004.html"), false);
    let word = |href: &str, k: &str| -> f64 {
        thread
            .iter()
            .find(|m| m[0] == "word" && m[1] == href && m[2] == k)
            .unwrap_or_else(|| panic!("{href} word {k}: {thread:?}"))[3]
            .parse()
            .unwrap()
    };
    assert!(word("#m4", "0") > word("#m4", "1"), "{thread:?}");
    assert!(word("#m5", "0") > word("#m5", "2"), "{thread:?}");
    assert!(left_of(&thread, "#m5") > left_of(&thread, "#m4") + 10.0);

    // Screenshots at 1280 px, for people to look at.
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&shots).unwrap();
    for (page, name) in [
        ("index.html", "archive-front.png"),
        ("2024-01.html", "archive-month.png"),
        ("t00001.html", "archive-thread.png"),
        ("00002.html", "archive-message.png"),
    ] {
        let shot = shots.join(name);
        let out = chromium_command(&browser, &dir)
            .arg("--window-size=1280,900")
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("file://{}", out_dir.join(page).display()))
            .output()
            .expect("chromium runs");
        assert!(out.status.success(), "{out:?}");
        assert!(std::fs::metadata(&shot).is_ok_and(|m| m.len() > 0));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A sender with a right-to-left name is drawn as `NAME <ADDRESS>` left to right, its
/// name isolated: on the message page (From row) and in a month's list, the address is
/// right of the name, not pulled into the name's right-to-left run (where the brackets
/// would be mirrored and the address land on the name's left).
#[test]
#[ignore = "needs chromium"]
fn a_right_to_left_sender_keeps_the_address_on_its_side() {
    let browser = chromium();
    let dir = std::env::temp_dir().join(format!("linkscan-browser-sender-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mbox = dir.join("list.mbox");
    std::fs::write(
        &mbox,
        "From x@example.com Mon Jan  1 00:00:00 2024\nFrom: أمل منصور <amal@example.org>\n\
         To: list@example.com\nMessage-ID: <ar@example.com>\n\
         Date: Mon, 1 Jan 2024 10:00:00 +0100\nSubject: مرحبا\n\
         Content-Type: text/plain; charset=utf-8\n\nsee example.com\n",
    )
    .unwrap();
    let out_dir = dir.join("web");
    linkify_archive(&out_dir, &[&mbox]);
    const MEASURE: &str = r#"<script>
const out = [];
for (const cell of document.querySelectorAll('table.headers td, span.from')) {
  const name = cell.querySelector('bdi');
  if (!name || !name.textContent.includes('أمل')) continue;
  const range = document.createRange();
  const text = [...cell.childNodes].find(n => n.nodeType === 3 && n.textContent.includes('<'));
  range.setStart(text, text.textContent.indexOf('<'));
  range.setEnd(text, text.textContent.indexOf('<') + 1);
  const open = range.getBoundingClientRect();
  const address = [...cell.querySelectorAll('a, bdi')].find(e => e.textContent.includes('amal@')) || text;
  const a = address.getBoundingClientRect ? address.getBoundingClientRect() : open;
  out.push([cell.tagName, name.getBoundingClientRect().right, open.left, a.left, getComputedStyle(cell).direction].join(' '));
}
document.getElementById('measured').textContent = out.join('\n');
</script>"#;
    // The lists show the name alone: its address is on the message page.
    let month = std::fs::read_to_string(out_dir.join("2024-01.html")).unwrap();
    assert!(month.contains("<bdi>أمل منصور</bdi>"), "{month}");
    assert!(!month.contains("amal@"), "{month}");
    let page = "00001.html";
    let rows = measure_with(&browser, &out_dir.join(page), MEASURE, false);
    assert!(!rows.is_empty(), "{page}: no sender drawn");
    for row in rows {
        let n: Vec<f64> = row[1..4].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(row[4], "ltr", "{page}: {row:?}");
        assert!(
            n[1] >= n[0] - 1.0 && n[2] >= n[1],
            "{page}: the name ends at {}, `<` at {}, the address at {}: {row:?}",
            n[0],
            n[1],
            n[2]
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A 40-line quote of plain mail is folded: its lines are not drawn until opened; a
/// 3-line quote is drawn indented right of the text, with the quote bar.
#[test]
#[ignore = "needs chromium"]
fn plain_quotes_are_drawn_folded_or_indented() {
    let browser = chromium();
    let dir = std::env::temp_dir().join(format!("linkscan-browser-quotes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let long: String = (1..=40).map(|i| format!("> long {i}\n")).collect();
    let mbox = dir.join("list.mbox");
    std::fs::write(
        &mbox,
        format!(
            "From x@example.com Mon Jan  1 00:00:00 2024\nFrom: Ann <ann@example.com>\n\
             Message-ID: <q@example.com>\nDate: Mon, 1 Jan 2024 10:00:00 +0100\nSubject: q\n\n\
             Bob wrote:\n> short 1\n> short 2\n> short 3\nmine\n\nCarol wrote:\n{long}end\n"
        ),
    )
    .unwrap();
    let out_dir = dir.join("web");
    linkify_archive(&out_dir, &[&mbox]);
    const MEASURE: &str = r#"<script>
const div = document.querySelector('div.plain').getBoundingClientRect();
const quotes = document.querySelectorAll('div.plain > blockquote');
const short = quotes[0];
const long = document.querySelector('details blockquote');
const s = short.getBoundingClientRect(), l = long.getBoundingClientRect();
document.getElementById('measured').textContent = [div.left, s.left, s.height,
  getComputedStyle(short).borderLeftWidth, getComputedStyle(short).borderLeftStyle,
  l.height, long.checkVisibility ? long.checkVisibility() : 'none'].join(' ');
</script>"#;
    let rows = measure_with(&browser, &out_dir.join("00001.html"), MEASURE, false);
    let row = rows.first().expect("the quotes are measured");
    let n = |i: usize| row[i].parse::<f64>().unwrap();
    assert!(n(1) > n(0), "the short quote is not indented: {row:?}");
    assert!(
        n(2) > 30.0,
        "the short quote's three lines are not drawn: {row:?}"
    );
    assert_eq!(
        (row[3].as_str(), row[4].as_str()),
        ("2px", "solid"),
        "{row:?}"
    );
    // A closed <details> keeps its content's layout box (row[5]) but does not draw it.
    assert_eq!(
        row[6].as_str(),
        "false",
        "the folded quote is drawn: {row:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Measures how wide a page is drawn in `window`: the document's scroll width and the
/// window's, and the computed styles that make it fit (`style SELECTOR PROPERTY VALUE`);
/// and the feed its head announces, as Chromium reads it (`feed URL ENTRIES ERRORS
/// FIRST-ENTRY-LINK`, the URLs resolved by the browser).
const MEASURE_WIDTH: &str = r#"
const out = ['width ' + document.documentElement.scrollWidth + ' ' + window.innerWidth];
const style = (selector, property) => {
  const e = document.querySelector(selector);
  if (e) out.push(['style', selector.replace(/ /g, '_'), property, window.getComputedStyle(e)[property]].join(' '));
};
style('body', 'maxWidth');
style('body', 'paddingLeft');
style('ul.threads ul', 'paddingLeft');
style('article.d6', 'marginLeft');
style('pre', 'whiteSpace');
const feed = document.querySelector('link[rel=alternate][type="application/atom+xml"]');
if (feed) {
  try {
    const x = new XMLHttpRequest();
    x.open('GET', feed.href, false);
    x.send();
    const d = new DOMParser().parseFromString(x.responseText, 'application/xml');
    const entries = d.getElementsByTagName('entry');
    const link = entries.length ? entries[0].getElementsByTagName('link')[0].getAttribute('href') : '';
    out.push(['feed', feed.href, entries.length, d.getElementsByTagName('parsererror').length,
      new URL(link, feed.href).href].join(' '));
  } catch (e) {
    out.push('feed-error ' + feed.href + ' ' + String(e).replace(/\s/g, '_'));
  }
}
return out.join('\n');
"#;

/// [`MEASURE_WIDTH`] of `page` drawn `width` pixels wide: in a frame of that width (a
/// headless window is 500 px wide at least), from a page beside it.
fn measure_width(browser: &Path, page: &Path, width: u32) -> Vec<Vec<String>> {
    let name = page.file_name().unwrap().to_string_lossy();
    let frame = page.with_file_name(format!("frame-{width}-{name}"));
    std::fs::write(
        &frame,
        format!(
            "<!DOCTYPE html><html><body style=\"margin:0\">\
             <iframe id=\"f\" src=\"{name}\" style=\"width:{width}px;height:900px;border:0\">\
             </iframe><pre id=\"measured\"></pre><script>\
             document.getElementById('f').onload = () => {{\
             const f = document.getElementById('f');\
             const measure = new Function('window', 'document', {script:?});\
             document.getElementById('measured').textContent = \
             measure(f.contentWindow, f.contentWindow.document); }};</script></body></html>",
            script = MEASURE_WIDTH
        ),
    )
    .unwrap();
    let out = chromium_command(browser, page.parent().unwrap())
        .args([
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
        ])
        .arg("--dump-dom")
        .arg(format!("file://{}", frame.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {out:?}");
    let dom = String::from_utf8(out.stdout).expect("the DOM is UTF-8");
    std::fs::remove_file(&frame).unwrap();
    let start =
        dom.find("<pre id=\"measured\">").expect("the results") + "<pre id=\"measured\">".len();
    dom[start..start + dom[start..].find("</pre>").unwrap()]
        .lines()
        .map(|l| l.split(' ').map(str::to_string).collect())
        .collect()
}

/// Every kind of page fits a small screen (400 px) without sideways scrolling: a month
/// and a thread 40 replies deep, a thread page with their texts, a message with a long
/// subject, long addresses, a long Message-ID and long URLs, the front page (with its
/// feed link), the links pages and the search page; each has the viewport `<meta>`. At 1280 px the layout is as before: the body
/// 62em wide at most with its 1em margins, replies indented by 1.6em.
#[test]
#[ignore = "needs chromium"]
fn every_page_fits_a_small_screen() {
    let browser = chromium();
    let dir = std::env::temp_dir().join(format!("linkscan-browser-small-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let long = "a".repeat(150);
    let mut mbox = String::new();
    for k in 0..40 {
        let parent = if k > 0 {
            format!("In-Reply-To: <{}@example.com>\n", k - 1)
        } else {
            String::new()
        };
        mbox.push_str(&format!(
            "From x@example.com Mon Jan  1 00:00:00 2024\n\
             From: {long} <{long}@{long}.example.com>\nTo: {long}@example.org\n\
             Message-ID: <{k}@example.com>\n{parent}\
             Date: Mon, 1 Jan 2024 10:00:00 +0000\nSubject: Subject{long}{k}\n\
             Content-Type: text/plain; charset=utf-8\n\n\
             see https://example.com/{long}/{long}?q={long} and {long}@example.net\n\
             and <{long}@example.com> and a fixed line of words {}\n\n",
            "word ".repeat(60)
        ));
    }
    let path = dir.join("list.mbox");
    std::fs::write(&path, mbox).unwrap();
    let out_dir = dir.join("web");
    linkify_archive(&out_dir, &[&path]);
    let hosts: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('h') && n.ends_with(".html"))
        .collect();
    assert!(!hosts.is_empty());
    // The search page as the archive writes it with `--search`: Pagefind, which a build
    // with search runs, is not needed to draw it (its box is drawn by Pagefind's script).
    std::fs::write(
        out_dir.join("search.html"),
        linkscan_mail::archive::search_page("Mail archive"),
    )
    .unwrap();
    let mut pages = vec![
        "search.html".to_string(),
        "index.html".to_string(),
        "2024-01.html".to_string(),
        "t00001.html".to_string(),
        "00001.html".to_string(),
        "00040.html".to_string(),
        "links.html".to_string(),
    ];
    pages.extend(hosts);
    let value = |measured: &[Vec<String>], selector: &str, property: &str| {
        measured
            .iter()
            .find(|m| m[0] == "style" && m[1] == selector && m[2] == property)
            .map(|m| m[3..].join(" "))
    };
    for page in &pages {
        let html = std::fs::read_to_string(out_dir.join(page)).unwrap();
        assert!(
            html.contains("<meta name=\"viewport\" content=\"width=device-width\">"),
            "{page}"
        );
        let small = measure_width(&browser, &out_dir.join(page), 400);
        // The feed of the front page and of a thread page: linked beside the downloads,
        // announced in the head, read by Chromium, its entries' links resolved to pages
        // of the folder.
        if page == "index.html" || page == "t00001.html" {
            assert!(
                html.contains("type=\"application/atom+xml\">Feed</a>"),
                "{page}"
            );
            let feed = small
                .iter()
                .find(|m| m[0].starts_with("feed"))
                .unwrap_or_else(|| panic!("{page}: no feed: {small:?}"));
            assert_eq!(feed[0], "feed", "{page}: {feed:?}");
            let file = |url: &str| PathBuf::from(url.strip_prefix("file://").unwrap());
            assert!(file(&feed[1]).is_file(), "{page}: {feed:?}");
            assert!(feed[2].parse::<usize>().unwrap() > 0, "{page}: {feed:?}");
            assert_eq!(feed[3], "0", "{page}: {feed:?}");
            assert!(file(&feed[4]).is_file(), "{page}: {feed:?}");
            assert_eq!(file(&feed[4]).parent(), Some(out_dir.as_path()), "{feed:?}");
        }
        let width: Vec<u32> = small[0][1..]
            .iter()
            .map(|x| x.parse().unwrap_or_else(|_| panic!("{page}: {small:?}")))
            .collect();
        assert_eq!(width[1], 400, "{page}: {small:?}");
        assert!(
            width[0] <= 400,
            "{page} scrolls sideways at 400 px: {small:?}"
        );
        assert_eq!(
            value(&small, "body", "paddingLeft").as_deref(),
            Some("8px"),
            "{page}"
        );
        let wide = measure_width(&browser, &out_dir.join(page), 1280);
        assert_eq!(wide[0][2], "1280", "{page}: {wide:?}");
        assert!(
            wide[0][1].parse::<u32>().unwrap() <= 1280,
            "{page}: {wide:?}"
        );
        assert_eq!(
            value(&wide, "body", "maxWidth").as_deref(),
            Some("992px"),
            "{page}"
        );
        assert_eq!(
            value(&wide, "body", "paddingLeft").as_deref(),
            Some("16px"),
            "{page}"
        );
        if page == "2024-01.html" || page == "t00001.html" {
            assert_eq!(
                value(&wide, "ul.threads_ul", "paddingLeft").as_deref(),
                Some("25.6px")
            );
            assert_eq!(
                value(&small, "ul.threads_ul", "paddingLeft").as_deref(),
                Some("6.4px")
            );
        }
        if page == "t00001.html" {
            assert_eq!(
                value(&wide, "article.d6", "marginLeft").as_deref(),
                Some("64px")
            );
            assert_eq!(
                value(&small, "article.d6", "marginLeft").as_deref(),
                Some("12.8px")
            );
            assert_eq!(
                value(&small, "pre", "whiteSpace").as_deref(),
                Some("pre-wrap")
            );
        }
    }
    // Screenshots at 400 px, for people to look at.
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&shots).unwrap();
    for page in ["2024-01.html", "t00001.html", "00001.html"] {
        let shot = shots.join(format!("small-{page}.png"));
        let out = chromium_command(&browser, &dir)
            .arg("--window-size=400,900")
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("file://{}", out_dir.join(page).display()))
            .output()
            .expect("chromium runs");
        assert!(out.status.success(), "{out:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
