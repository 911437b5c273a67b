//! The habits of grep and ripgrep that `linkscan` keeps: `-l` and `--files-without-match`,
//! `-c` without the inputs that have no link (unless `--include-zero`), directories walked
//! by `linkify` as by `find`, a man page with every option, and errors that say what is
//! wrong and where to look.

use crate::common;

use common::linkscan;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 errors")
}

/// A fresh folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("grep", name)
}

/// Files `f00.txt`… in `dir`, file `i` with `links(i)` links among generated words; returns
/// the paths (as strings) and the link counts.
fn generated_files(dir: &Path, n: usize, links: impl Fn(usize) -> usize) -> Vec<(String, usize)> {
    let mut rng = common::rng::Rng::new(0x6c69_6e6b);
    (0..n)
        .map(|i| {
            let mut text = String::new();
            for j in 0..links(i) {
                text.push_str(&format!(
                    "word {} host{i}-{j}.example.com\n",
                    rng.below(1000)
                ));
            }
            text.push_str("no link on this line\n");
            let path = dir.join(format!("f{i:02}.txt"));
            std::fs::write(&path, text).expect("write");
            (path.to_str().expect("UTF-8 path").to_string(), links(i))
        })
        .collect()
}

fn find(args: &[&str], files: &[(String, usize)]) -> Output {
    let mut all: Vec<&str> = vec!["find"];
    all.extend_from_slice(args);
    all.extend(files.iter().map(|(path, _)| path.as_str()));
    linkscan(&all, b"")
}

#[test]
fn files_with_matches_and_files_without_match_list_names() {
    let dir = temp_dir("list");
    let files = generated_files(&dir, 12, |i| i % 3);
    let with: String = files
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(path, _)| format!("{path}\n"))
        .collect();
    let without: String = files
        .iter()
        .filter(|(_, n)| *n == 0)
        .map(|(path, _)| format!("{path}\n"))
        .collect();
    for flag in ["-l", "--files-with-matches"] {
        let out = find(&[flag], &files);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert_eq!(stdout(&out), with);
    }
    let out = find(&["--files-without-match"], &files);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(stdout(&out), without);

    // Nothing to list: exit 1, as grep.
    let linked: Vec<(String, usize)> = files.iter().filter(|f| f.1 > 0).cloned().collect();
    let out = find(&["--files-without-match"], &linked);
    assert_eq!((out.status.code(), stdout(&out)), (Some(1), String::new()));
    let unlinked: Vec<(String, usize)> = files.iter().filter(|f| f.1 == 0).cloned().collect();
    let out = find(&["-l"], &unlinked);
    assert_eq!((out.status.code(), stdout(&out)), (Some(1), String::new()));

    // A single input is named too; standard input is `-`.
    let out = find(&["-l"], &linked[..1]);
    assert_eq!(stdout(&out), format!("{}\n", linked[0].0));
    let out = linkscan(&["find", "-l"], b"see example.com\n");
    assert_eq!(stdout(&out), "-\n");

    // A walked directory lists its files.
    let out = linkscan(&["find", "-l", dir.to_str().unwrap()], b"");
    assert_eq!(stdout(&out), with);

    // They are listings, not counts or links.
    for other in ["-c", "-o", "-q", "--checks", "-n", "--format=tsv"] {
        let out = find(&["-l", other], &files);
        assert_eq!(out.status.code(), Some(2), "-l {other}: {out:?}");
        let out = find(&["--files-without-match", other], &files);
        assert_eq!(out.status.code(), Some(2), "--files-without-match {other}");
    }
    let out = find(&["-l", "--files-without-match"], &files);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn counts_leave_out_inputs_without_links_unless_include_zero() {
    let dir = temp_dir("count");
    let files = generated_files(&dir, 10, |i| (i * 7) % 4);
    let out = find(&["-c"], &files);
    assert_eq!(out.status.code(), Some(0));
    let nonzero: String = files
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(path, n)| format!("{path}:{n}\n"))
        .collect();
    assert_eq!(stdout(&out), nonzero);
    let out = find(&["-c", "--include-zero"], &files);
    let all: String = files
        .iter()
        .map(|(path, n)| format!("{path}:{n}\n"))
        .collect();
    assert_eq!(stdout(&out), all);

    // One input: its count is the total, 0 included (exit 1: no link).
    let empty: Vec<(String, usize)> = files.iter().filter(|f| f.1 == 0).cloned().collect();
    let out = find(&["-c"], &empty[..1]);
    assert_eq!(
        (out.status.code(), stdout(&out)),
        (Some(1), "0\n".to_string())
    );
    // Several inputs, none with a link: nothing printed, exit 1 (as ripgrep).
    let out = find(&["-c"], &empty);
    assert_eq!((out.status.code(), stdout(&out)), (Some(1), String::new()));
    // --include-zero means nothing without --count.
    let out = find(&["--include-zero"], &files);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn linkify_walks_directories_as_find_does() {
    let dir = temp_dir("linkify");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.txt"), "see a.example.com\n").unwrap();
    std::fs::write(dir.join("sub").join("b.txt"), "and b.example.org\n").unwrap();
    std::fs::write(dir.join(".hidden.txt"), "not h.example.net\n").unwrap();
    let out = linkscan(&["linkify", dir.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let html = stdout(&out);
    let a = html.find("https://a.example.com").expect("a.txt linkified");
    let b = html
        .find("https://b.example.org")
        .expect("sub/b.txt linkified");
    assert!(a < b, "files in path order:\n{html}");
    assert!(
        !html.contains("h.example.net"),
        "hidden files are skipped:\n{html}"
    );
    let out = linkscan(&["linkify", "--hidden", dir.to_str().unwrap()], b"");
    assert!(stdout(&out).contains("https://h.example.net"));
    // The same as the files given one by one.
    let files = linkscan(
        &[
            "linkify",
            dir.join("a.txt").to_str().unwrap(),
            dir.join("sub").join("b.txt").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(stdout(&files), html);
    // An empty directory: nothing, and no error.
    let empty = temp_dir("linkify-empty");
    let out = linkscan(&["linkify", empty.to_str().unwrap()], b"");
    assert_eq!((out.status.code(), stdout(&out)), (Some(0), String::new()));
}

#[test]
fn man_page_holds_the_options_of_every_subcommand() {
    let out = linkscan(&["man"], b"");
    assert!(out.status.success(), "{out:?}");
    let page = stdout(&out);
    for (section, option) in [
        ("LINKSCAN FIND", "\\-\\-files\\-with\\-matches"),
        ("LINKSCAN FIND", "\\-\\-tld\\-policy"),
        ("LINKSCAN LINKIFY", "\\-\\-standalone"),
        ("LINKSCAN ESCAPE", "\\-\\-checks"),
        ("LINKSCAN DISPLAY", "\\-\\-bidi"),
        ("LINKSCAN CONFORMANCE", "\\-\\-verbose"),
    ] {
        let start = page
            .find(&format!(".SH \"{section}\""))
            .unwrap_or_else(|| panic!("no {section} section in\n{page}"));
        let end = page[start + 4..]
            .find("\n.SH ")
            .map_or(page.len(), |at| start + 4 + at);
        assert!(
            page[start..end].contains(option),
            "{option} not in {section}"
        );
    }
    // One page: the top command's title once.
    assert_eq!(page.matches(".TH ").count(), 1);
}

#[test]
#[ignore = "needs man"]
fn man_page_renders_with_man() {
    let dir = temp_dir("man-render");
    let path = dir.join("linkscan.1");
    std::fs::write(&path, linkscan(&["man"], b"").stdout).unwrap();
    let out = Command::new("man")
        .arg("-l")
        .arg(&path)
        .env("MANWIDTH", "100")
        .env("MAN_KEEP_FORMATTING", "0")
        .output()
        .expect("man runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    // Rendered text may hold backspace overstrikes for bold; drop them.
    let plain: String = text
        .split('\u{8}')
        .enumerate()
        .map(|(i, s)| {
            if i == 0 {
                s
            } else {
                &s[s.chars().next().map_or(0, char::len_utf8)..]
            }
        })
        .collect();
    for want in [
        "LINKSCAN FIND",
        "--files-with-matches",
        "--files-without-match",
        "--include-zero",
        "--default-scheme",
    ] {
        assert!(plain.contains(want), "{want} not in\n{plain}");
    }
}

#[test]
fn out_that_is_a_file_is_not_a_folder() {
    let dir = temp_dir("out-file");
    let mbox = dir.join("list.mbox");
    std::fs::write(
        &mbox,
        "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: x\n\nsee a.example.com\n",
    )
    .unwrap();
    let file = dir.join("taken");
    std::fs::write(&file, "a file").unwrap();
    let out = linkscan(
        &[
            "linkify",
            "--mbox",
            mbox.to_str().unwrap(),
            "--out",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("not a folder"), "{err}");
    assert!(!err.contains("File exists"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), b"a file", "left as it was");
}

#[test]
fn conformance_without_a_folder_uses_linkscan_shared_or_says_where_the_files_are() {
    let elsewhere = temp_dir("conformance");
    let run = |shared: Option<&Path>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_linkscan"));
        command.arg("conformance").current_dir(&elsewhere);
        match shared {
            Some(shared) => command.env("LINKSCAN_SHARED", shared),
            None => command.env_remove("LINKSCAN_SHARED"),
        };
        command.output().expect("linkscan runs")
    };
    // Outside the repository, with LINKSCAN_SHARED: the files are found.
    let out = run(Some(&common::shared()));
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("finder: 344 passed, 0 failed"));
    // Outside the repository, without it: where the files come from, and how to point at
    // them.
    let out = run(None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    for hint in [
        "LinkDetectionTest.txt",
        "https://www.unicode.org/Public/17.0.0/linkification/",
        "LINKSCAN_SHARED",
        "DIR",
    ] {
        assert!(err.contains(hint), "no {hint} in {err}");
    }
    let out = run(Some(&elsewhere));
    assert!(stderr(&out).contains("LINKSCAN_SHARED"), "{out:?}");
}

/// grep -q: a link on standard input ends the run at once, even when the writer then
/// sends nothing more and keeps the pipe open (each read is scanned as it comes, and the
/// reader blocked on the next is not waited for).
#[test]
fn find_quiet_exits_at_the_first_link_of_a_stalled_stream() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(["find", "-q", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("linkscan runs");
    let mut input = child.stdin.take().expect("stdin");
    // No link yet: it reads on.
    input.write_all(b"nothing here\n").unwrap();
    input.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        child.try_wait().unwrap().is_none(),
        "linkscan -q ended before its input held a link"
    );
    // A link, then nothing: the pipe stays open (`input` is held to the end).
    input.write_all(b"see example.com\n").unwrap();
    input.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if status.is_none() {
        let _ = child.kill();
    }
    drop(input);
    let out = child.wait_with_output().expect("linkscan ends");
    let status = status.expect("linkscan -q still ran a minute after the link, input open");
    assert_eq!(status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
}
