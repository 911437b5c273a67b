use crate::common::{self};
use std::path::{Path, PathBuf};

#[test]
fn cli_find_mbox_gives_the_same_links_as_the_fixed_text() {
    let dir = temp_dir("mbox");
    let (flowed, fixed) = (write_mbox(&dir, true), write_mbox(&dir, false));
    for format in ["jsonl", "tsv"] {
        let run = |path: &Path| {
            let out = common::linkscan(
                &[
                    "find",
                    "--mbox",
                    "--no-progress",
                    "--format",
                    format,
                    path.to_str().unwrap(),
                ],
                b"",
            );
            assert!(out.status.success(), "{out:?}");
            String::from_utf8(out.stdout)
                .unwrap()
                .replace("flowed.mbox", "ARCHIVE")
                .replace("fixed.mbox", "ARCHIVE")
        };
        let (got, want) = (run(&flowed), run(&fixed));
        assert_eq!(got, want);
        assert!(got.contains("https://example.com/reports/2024/annual-report.pdf"));
        assert!(got.contains("https://old.example.com/a/b"));
        assert!(got.contains("example.com/in-a-multipart"));
        assert_eq!(got.lines().count(), 11, "{got}");
    }
}

#[test]
fn cli_find_maildir_gives_the_same_links_as_the_fixed_text() {
    let dir = temp_dir("maildir");
    let mut outputs = Vec::new();
    for flowed in [true, false] {
        let maildir = dir.join(if flowed { "flowed" } else { "fixed" });
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(maildir.join(sub)).unwrap();
        }
        for (i, m) in test_messages(flowed).iter().enumerate() {
            // A Maildir file has no From_ line.
            let m = m.split_once("\r\n").unwrap().1;
            std::fs::write(maildir.join("cur").join(format!("{i}.host:2,S")), m).unwrap();
        }
        let out = common::linkscan(
            &[
                "find",
                "--json",
                "--maildir",
                "--no-progress",
                maildir.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        outputs.push(text.replace(maildir.to_str().unwrap(), "MAILDIR"));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert!(outputs[0].contains("https://example.com/reports/2024/annual-report.pdf"));
}

#[test]
fn cli_archive_gives_the_same_links_as_the_fixed_text() {
    let dir = temp_dir("archive");
    let mut archives = Vec::new();
    for flowed in [true, false] {
        let mbox = write_mbox(&dir, flowed);
        let out_dir = dir.join(if flowed { "flowed-html" } else { "fixed-html" });
        let out = common::linkscan(
            &[
                "linkify",
                "--mbox",
                "--no-progress",
                "--out",
                out_dir.to_str().unwrap(),
                mbox.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success(), "{out:?}");
        archives.push(archive_links(&out_dir));
    }
    assert_eq!(archives[0], archives[1]);
    let all: Vec<&String> = archives[0].iter().flatten().collect();
    assert!(
        all.iter()
            .any(|h| *h == "https://example.com/reports/2024/annual-report.pdf"),
        "{all:?}"
    );
    assert!(
        all.iter().any(|h| *h == "https://old.example.com/a/b"),
        "{all:?}"
    );
}

#[test]
fn cli_archive_links_cited_message_ids_to_their_pages() {
    let dir = temp_dir("mids");
    let mbox = dir.join("mids.mbox");
    let message = |n: usize, body: &str, flowed: bool| {
        let format = if flowed { "; format=flowed" } else { "" };
        format!(
            "From x@example.org Mon Jan  1 00:00:0{n} 2024\nMessage-ID: <m{n}@example.org>\n\
             Subject: s{n}\nContent-Type: text/plain{format}\n\n{body}\n"
        )
    };
    let archive = [
        // A citation of a later message, in flowed text, quoted.
        message(
            1,
            "See \n<m2@example.org> soon.\n>As <m3@example.org> said",
            true,
        ),
        // A citation of an earlier one, one the archive lacks, and a forged marker.
        message(
            2,
            "In <m1@example.org> you wrote; <gone@example.org> is elsewhere.\n\
             <span class=\"mid\" data-mid=\"m1@example.org\">x</span><!--/mid-->",
            false,
        ),
        message(3, "Me: <m3@example.org>.", false),
    ]
    .concat();
    std::fs::write(&mbox, archive).unwrap();
    let out_dir = dir.join("web");
    let out = common::linkscan(
        &[
            "linkify",
            "--mbox",
            "--no-progress",
            "--out",
            out_dir.to_str().unwrap(),
            mbox.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    let page = |n: usize| std::fs::read_to_string(out_dir.join(format!("0000{n}.html"))).unwrap();
    let cited = |html: &str| -> Vec<String> {
        html.split("<a class=\"mid\" href=\"")
            .skip(1)
            .map(|rest| rest.split_once("</a>").unwrap().0.to_string())
            .collect()
    };
    assert_eq!(
        cited(&page(1)),
        [
            "00002.html\">&lt;m2@example.org&gt;",
            "00003.html\">&lt;m3@example.org&gt;"
        ]
    );
    let two = page(2);
    assert_eq!(cited(&two), ["00001.html\">&lt;m1@example.org&gt;"]);
    // The Message-ID the archive lacks keeps its detected link, and links nowhere else.
    assert!(two.contains("href=\"mailto:gone@example.org\""), "{two}");
    assert!(!two.contains("gone@example.org&gt;</a>"), "{two}");
    // The forged marker is text.
    assert!(two.contains("&lt;span class=&quot;mid&quot;"), "{two}");
    assert_eq!(cited(&page(3)), ["00003.html\">&lt;m3@example.org&gt;"]);
}

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("flowed", name)
}

fn write_mbox(dir: &Path, flowed: bool) -> PathBuf {
    let path = dir.join(if flowed { "flowed.mbox" } else { "fixed.mbox" });
    std::fs::write(&path, test_messages(flowed).concat()).unwrap();
    path
}

/// The test archive's messages, flowed (`true`) or the same texts fixed: DelSp yes and
/// no, quoted, space-stuffed, quoted-printable, base64, a flowed part in a multipart.
fn test_messages(flowed: bool) -> Vec<String> {
    let pick = |f: &str, x: &str| if flowed { f.to_string() } else { x.to_string() };
    let ct = |params: &str| {
        if flowed {
            format!("text/plain; charset=utf-8; {params}")
        } else {
            "text/plain; charset=utf-8".to_string()
        }
    };
    let head = |n: usize| {
        format!(
            "From sender@example.org Mon Jan  1 00:00:0{n} 2024\r\nMessage-ID: <m{n}@example.org>\r\n\
             From: Ann <ann@example.org>\r\nDate: Mon, 1 Jan 2024 00:00:0{n} +0000\r\nSubject: flowed {n}\r\n"
        )
    };
    vec![
        format!(
            "{}Content-Type: {}\r\n\r\n{}",
            head(1),
            ct("format=flowed; delsp=yes"),
            pick(
                "The report is at https://example.com/reports/2024/annual-re \r\nport.pdf and  \r\nthe data at ftp.example.org/da \r\nta.csv.\r\n",
                "The report is at https://example.com/reports/2024/annual-report.pdf and the data at ftp.example.org/data.csv.\r\n"
            )
        ),
        format!(
            "{}Content-Type: {}\r\n{}\r\n{}",
            head(2),
            ct("format=flowed"),
            // The fixed text's "From " line goes quoted-printable, or it would start a
            // message in the mbox.
            pick("", "Content-Transfer-Encoding: quoted-printable\r\n"),
            pick(
                "Write to help@example.org or see \r\nhttps://example.net/faq for the \r\nanswers.\r\n\r\n From here on, example.com/x.\r\n >not a quote: www.example.org\r\n",
                "Write to help@example.org or see https://example.net/faq for the answers.\r\n\r\n=46rom here on, example.com/x.\r\n >not a quote: www.example.org\r\n"
            )
        ),
        format!(
            "{}In-Reply-To: <m1@example.org>\r\nContent-Type: {}\r\n\r\n{}",
            head(3),
            ct("format=flowed; delsp=yes"),
            pick(
                "Ann wrote:\r\n>The report is at https://example.com/reports/2024/annual-re \r\n>port.pdf and \r\n>>older: https://old.example.com/a \r\n>>/b\r\n\r\nThanks!\r\n",
                "Ann wrote:\r\n> The report is at https://example.com/reports/2024/annual-report.pdf and \r\n>> older: https://old.example.com/a/b\r\n\r\nThanks!\r\n"
            )
        ),
        format!(
            "{}Content-Type: {}\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{}",
            head(4),
            ct("format=flowed; delsp=yes"),
            pick(
                "Caf=C3=A9 menu: https://example.com/caf=C3=A9/me=20\r\nnu?day=3Dmon=\r\nday\r\n",
                "Caf=C3=A9 menu: https://example.com/caf=C3=A9/menu?day=3Dmonday\r\n"
            )
        ),
        format!(
            "{}Content-Type: multipart/mixed; boundary=sep\r\n\r\n--sep\r\nContent-Type: {}\r\n\r\n{}--sep--\r\n",
            head(5),
            ct("format=flowed; delsp=no"),
            pick(
                "Mixed: see \r\nexample.com/in-a-multipart and \r\nmail x@example.com\r\n",
                "Mixed: see example.com/in-a-multipart and mail x@example.com\r\n"
            )
        ),
    ]
}

/// The `href`s and link texts of the message pages of an archive (the navigation and
/// Message-ID links left out), page by page.
fn archive_links(dir: &Path) -> Vec<Vec<String>> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(|c: char| c.is_ascii_digit())
                && p.extension().is_some_and(|e| e == "html")
        })
        .collect();
    pages.sort();
    pages
        .iter()
        .map(|page| {
            let html = std::fs::read_to_string(page).unwrap();
            html.split("<a href=\"")
                .skip(1)
                .map(|rest| rest.split_once("\"").unwrap().0.to_string())
                .filter(|href| !href.ends_with(".html"))
                .collect()
        })
        .collect()
}
