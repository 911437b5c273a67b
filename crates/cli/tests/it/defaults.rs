//! The defaults of `find` for someone who runs it for the first time, as ripgrep's: lines
//! for people (`[FILE:]LINE:COLUMN: LINK`, coloured on a terminal, escaped), `--json` for
//! programs; binary files skipped quietly in a walk (`--binary` scans them) and noted once
//! when named; `.gitignore` applied only inside a git repository (`--no-require-git`:
//! anywhere); the current folder searched when there is no input and standard input is a
//! terminal; and man pages whose title line names the plain version.
//!
//! The tests that need a terminal run the program under `script` (util-linux), and the one
//! that renders a page needs `man`: they are `#[ignore = "needs …"]`, run by
//! `cargo test -- --ignored` (as CI runs them).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::linkscan;

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh, empty folder under the system's temporary folder (outside any git repository).
fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("defaults", name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs `command` in a shell on a terminal (`script`), in `dir`, with `env` set; its
/// output as the terminal shows it (line feeds as CR LF, made LF again).
fn on_terminal(dir: &Path, command: &str, env: &[(&str, &str)]) -> Output {
    let mut script = Command::new("script");
    script
        .args(["-qec", command, "/dev/null"])
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null());
    for (key, value) in env {
        script.env(key, value);
    }
    let mut out = script.output().expect("script runs");
    out.stdout = stdout(&out).replace("\r\n", "\n").into_bytes();
    out
}

const TEXT: &str = "see example.com and\n  write to a@b.org\n";

#[test]
fn default_output_is_file_line_column_link_with_the_name_as_ripgrep_shows_it() {
    let dir = temp_dir("lines");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&a, TEXT).unwrap();
    std::fs::write(&b, "é https://x.example.com/\n").unwrap();
    // One input, file or stdin: no name.
    let want = "1:5: example.com\n2:12: a@b.org\n";
    for out in [
        linkscan(&["find", s(&a)], b""),
        linkscan(&["find"], TEXT.as_bytes()),
        linkscan(&["find", "-"], TEXT.as_bytes()),
    ] {
        assert_eq!((out.status.code(), stdout(&out)), (Some(0), want.into()));
    }
    // Several inputs, or a folder: the name, as given; columns count characters.
    let both = format!(
        "{a}:1:5: example.com\n{a}:2:12: a@b.org\n{b}:1:3: https://x.example.com/\n",
        a = s(&a),
        b = s(&b)
    );
    assert_eq!(stdout(&linkscan(&["find", s(&a), s(&b)], b"")), both);
    assert_eq!(stdout(&linkscan(&["find", s(&dir)], b"")), both);
    // -H names a single input (stdin as `-`), -I hides the names of several.
    let out = linkscan(&["find", "-H", s(&a)], b"");
    assert_eq!(
        stdout(&out),
        format!("{a}:1:5: example.com\n{a}:2:12: a@b.org\n", a = s(&a))
    );
    let out = linkscan(&["find", "--with-filename"], TEXT.as_bytes());
    assert_eq!(stdout(&out), "-:1:5: example.com\n-:2:12: a@b.org\n");
    let out = linkscan(&["find", "-I", s(&a), s(&b)], b"");
    assert_eq!(stdout(&out), format!("{want}1:3: https://x.example.com/\n"));
    let out = linkscan(&["find", "--no-filename", s(&dir)], b"");
    assert_eq!(stdout(&out), format!("{want}1:3: https://x.example.com/\n"));
    // -o follows the same rule; -n and --column add nothing to the text format.
    let out = linkscan(&["find", "-o", "-I", s(&a), s(&b)], b"");
    assert_eq!(
        stdout(&out),
        "example.com\na@b.org\nhttps://x.example.com/\n"
    );
    let out = linkscan(&["find", "-o", "-H", s(&a)], b"");
    assert_eq!(
        stdout(&out),
        format!("{a}:example.com\n{a}:a@b.org\n", a = s(&a))
    );
    let out = linkscan(&["find", "-n", "--column", s(&a)], b"");
    assert_eq!(stdout(&out), want);
    // --checks: the checks a link fails after it.
    let out = linkscan(&["find", "--checks"], "x.com/\u{202E}y\n".as_bytes());
    assert_eq!(stdout(&out), "1:1: x.com/\\u202Ey  [fails: bidi_control]\n");
    // The default is described.
    let help = stdout(&linkscan(&["find", "--help"], b""));
    assert!(help.contains("FILE:LINE:COLUMN: LINK"), "{help}");
    assert!(help.contains("--json"), "{help}");
}

#[test]
fn json_is_the_old_default_jsonl() {
    let dir = temp_dir("json");
    let a = dir.join("a.txt");
    std::fs::write(&a, TEXT).unwrap();
    for extra in [&[][..], &["-n", "--column"], &["--checks"]] {
        for input in [s(&a), "-"] {
            let json = linkscan(
                &[&["find", "--json"], extra, &[input]].concat(),
                TEXT.as_bytes(),
            );
            let jsonl = linkscan(
                &[&["find", "--format", "jsonl"], extra, &[input]].concat(),
                TEXT.as_bytes(),
            );
            assert_eq!(json.status.code(), Some(0));
            assert_eq!(stdout(&json), stdout(&jsonl), "{extra:?} {input}");
        }
    }
    let first = stdout(&linkscan(&["find", "--json"], TEXT.as_bytes()));
    assert_eq!(
        first.lines().next().unwrap(),
        r#"{"file":"-","start":4,"end":15,"kind":"url","text":"example.com"}"#
    );
    // One format only.
    let out = linkscan(&["find", "--json", "--format", "tsv"], TEXT.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = linkscan(&["find", "--json", "-l", s(&a)], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn color_always_paints_the_link_by_its_kind_and_a_pipe_gets_none() {
    let out = linkscan(&["find", "--color", "always", "-H"], TEXT.as_bytes());
    assert_eq!(
        stdout(&out),
        "\x1b[35m-\x1b[0m:\x1b[32m1:5\x1b[0m: \x1b[1;34mexample.com\x1b[0m\n\
         \x1b[35m-\x1b[0m:\x1b[32m2:12\x1b[0m: \x1b[1;33ma@b.org\x1b[0m\n"
    );
    // auto (the default) in a pipe, and never: no colour.
    for args in [
        &["find"][..],
        &["find", "--color", "auto"],
        &["find", "--color", "never"],
    ] {
        let out = linkscan(args, TEXT.as_bytes());
        assert!(!stdout(&out).contains('\x1b'), "{args:?}");
    }
    // Colours are for the text format only.
    let out = linkscan(&["find", "--color", "always", "--json"], TEXT.as_bytes());
    assert!(!stdout(&out).contains('\x1b'));
}

#[test]
#[ignore = "needs script (util-linux)"]
fn color_auto_on_a_terminal_unless_no_color_is_set_and_not_empty() {
    let dir = temp_dir("color-tty");
    std::fs::write(dir.join("a.txt"), TEXT).unwrap();
    let command = format!("{} find a.txt", env!("CARGO_BIN_EXE_linkscan"));
    let colored = "\x1b[32m1:5\x1b[0m: \x1b[1;34mexample.com\x1b[0m\n\
                   \x1b[32m2:12\x1b[0m: \x1b[1;33ma@b.org\x1b[0m\n";
    let out = on_terminal(&dir, &command, &[]);
    assert_eq!(stdout(&out), colored, "{out:?}");
    // NO_COLOR empty is as unset (no-color.org).
    let out = on_terminal(&dir, &command, &[("NO_COLOR", "")]);
    assert_eq!(stdout(&out), colored, "{out:?}");
    let out = on_terminal(&dir, &command, &[("NO_COLOR", "1")]);
    assert_eq!(stdout(&out), "1:5: example.com\n2:12: a@b.org\n", "{out:?}");
    // --color always wins over NO_COLOR, never over a terminal.
    let always = format!("{command} --color always");
    let out = on_terminal(&dir, &always, &[("NO_COLOR", "1")]);
    assert_eq!(stdout(&out), colored, "{out:?}");
    let never = format!("{command} --color never");
    let out = on_terminal(&dir, &never, &[]);
    assert_eq!(stdout(&out), "1:5: example.com\n2:12: a@b.org\n", "{out:?}");
}

#[test]
fn default_format_escapes_bidi_and_control_characters() {
    let text = "see x.com/\u{202E}gnp.exe and y.com/\u{1B}]0;t\u{7}z\n";
    for color in ["never", "always"] {
        let out = linkscan(&["find", "--color", color], text.as_bytes());
        let shown = stdout(&out);
        assert!(
            !shown.contains(['\u{202E}', '\u{7}']) && !shown.contains("\x1b]"),
            "{shown:?}"
        );
        assert!(shown.contains("x.com/\\u202Egnp.exe"), "{shown:?}");
    }
    let out = linkscan(&["find"], text.as_bytes());
    assert_eq!(stdout(&out), "1:5: x.com/\\u202Egnp.exe\n1:24: y.com/\n");
    // A file name is escaped too.
    let dir = temp_dir("escape-name");
    let name = dir.join("a\u{202E}txt.exe");
    std::fs::write(&name, "x.com\n").unwrap();
    let out = linkscan(&["find", "-H", s(&name)], b"");
    assert_eq!(
        stdout(&out),
        format!("{}/a\\u202Etxt.exe:1:1: x.com\n", s(&dir))
    );
}

/// A folder with a text file and a binary one (a NUL byte, then a link).
fn with_binary(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    std::fs::write(dir.join("a.txt"), "see a.example.com\n").unwrap();
    let blob = dir.join("blob.bin");
    std::fs::write(&blob, b"\x00\x01\x02 see b.example.com\n").unwrap();
    (dir, blob)
}

#[test]
fn a_walk_skips_binary_files_quietly_and_binary_scans_them() {
    let (dir, blob) = with_binary("walk-binary");
    let a = dir.join("a.txt");
    let out = linkscan(&["find", s(&dir)], b"");
    assert_eq!(stdout(&out), format!("{}:1:5: a.example.com\n", s(&a)));
    assert_eq!(stderr(&out), "", "a skipped binary file is not reported");
    assert_eq!(out.status.code(), Some(0));
    // Only binary files: nothing found, quietly.
    std::fs::remove_file(&a).unwrap();
    let out = linkscan(&["find", s(&dir)], b"");
    assert_eq!((out.status.code(), stderr(&out)), (Some(1), String::new()));
    std::fs::write(&a, "see a.example.com\n").unwrap();
    // --binary: scanned as text, and quietly (they were asked for).
    for format in ["text", "jsonl"] {
        let out = linkscan(&["find", "--binary", "--format", format, s(&dir)], b"");
        let shown = stdout(&out);
        assert!(shown.contains("a.example.com"), "{shown}");
        assert!(shown.contains("b.example.com"), "{shown}");
        assert_eq!(stderr(&out), "", "{format}");
    }
    let out = linkscan(&["linkify", "--binary", s(&dir)], b"");
    assert!(stdout(&out).contains("b.example.com"));
    let out = linkscan(&["linkify", s(&dir)], b"");
    assert!(!stdout(&out).contains("b.example.com"));
    assert_eq!(stderr(&out), "");
    let _ = blob;
}

#[test]
fn a_binary_file_named_is_scanned_and_noted_once() {
    let (_dir, blob) = with_binary("named-binary");
    let note = format!(
        "linkscan: {}: binary file (a NUL byte in its first 8 KiB): scanned as text\n",
        s(&blob)
    );
    // The text format (read with line numbers), JSON (read by the workers), a count,
    // linkify: each reads the file and notes it once.
    for args in [
        &["find"][..],
        &["find", "--json"],
        &["find", "--count"],
        &["linkify"],
    ] {
        let out = linkscan(&[args, &[s(&blob)]].concat(), b"");
        assert_eq!(out.status.code(), Some(0), "{args:?} {out:?}");
        assert!(stdout(&out).contains("b.example.com") || args.contains(&"--count"));
        assert_eq!(stderr(&out), note, "{args:?}");
    }
    // A file of several windows is noted once, and standard input too (as `-`).
    let large = blob.with_file_name("large.bin");
    let mut bytes = b"\x00 x.example.com\n".to_vec();
    bytes.extend("line with y.example.com\n".repeat(100_000).as_bytes());
    std::fs::write(&large, &bytes).unwrap();
    for args in [&["find"][..], &["find", "--json", "-j", "4"]] {
        let out = linkscan(&[args, &[s(&large)]].concat(), b"");
        assert_eq!(stdout(&out).lines().count(), 100_001, "{args:?}");
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    }
    let out = linkscan(&["find"], &bytes);
    assert_eq!(
        stderr(&out),
        "linkscan: -: binary file (a NUL byte in its first 8 KiB): scanned as text\n"
    );
    // A text file gets no note.
    let out = linkscan(&["find"], b"plain x.com\n");
    assert_eq!(stderr(&out), "");
}

/// A folder whose `.gitignore` leaves out `ignored.txt`.
fn with_gitignore(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    std::fs::write(dir.join(".gitignore"), "ignored.txt\n").unwrap();
    std::fs::write(dir.join("ignored.txt"), "see ignored.example.com\n").unwrap();
    std::fs::write(dir.join("kept.txt"), "see kept.example.com\n").unwrap();
    dir
}

fn links_of(args: &[&str]) -> Vec<String> {
    let out = linkscan(args, b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    stdout(&out)
        .lines()
        .map(|l| l.rsplit(' ').next().unwrap().to_owned())
        .collect()
}

#[test]
fn gitignore_applies_inside_a_git_repository_or_with_no_require_git() {
    let dir = with_gitignore("gitignore-plain");
    // Not a git repository: .gitignore means nothing.
    assert_eq!(
        links_of(&["find", s(&dir)]),
        ["ignored.example.com", "kept.example.com"]
    );
    assert_eq!(
        links_of(&["find", "--no-require-git", s(&dir)]),
        ["kept.example.com"]
    );
    // --no-ignore wins.
    assert_eq!(
        links_of(&["find", "--no-require-git", "--no-ignore", s(&dir)]),
        ["ignored.example.com", "kept.example.com"]
    );
    // A .ignore file applies anywhere, as in ripgrep.
    std::fs::write(dir.join(".ignore"), "kept.txt\n").unwrap();
    assert_eq!(links_of(&["find", s(&dir)]), ["ignored.example.com"]);

    let repo = with_gitignore("gitignore-repo");
    let init = Command::new("git")
        .args(["init", "-q"])
        .arg(&repo)
        .output()
        .expect("git runs");
    assert!(init.status.success(), "{init:?}");
    assert_eq!(links_of(&["find", s(&repo)]), ["kept.example.com"]);
    assert_eq!(
        links_of(&["find", "--no-ignore", s(&repo)]),
        ["ignored.example.com", "kept.example.com"]
    );
    // For directories only, as the other walk options.
    let out = linkscan(&["find", "--no-require-git", "-"], b"x.com");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
#[ignore = "needs script (util-linux)"]
fn no_input_and_a_terminal_on_stdin_searches_the_current_folder() {
    let dir = temp_dir("no-input");
    std::fs::write(dir.join("a.txt"), "see a.example.com\n").unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/b.txt"), "see b.example.com\n").unwrap();
    let bin = env!("CARGO_BIN_EXE_linkscan");
    let out = on_terminal(&dir, &format!("{bin} find --color never"), &[]);
    assert!(out.status.success(), "{out:?}");
    // Named as ripgrep names them: without `./`.
    assert_eq!(
        stdout(&out),
        "a.txt:1:5: a.example.com\nsub/b.txt:1:5: b.example.com\n"
    );
    let out = on_terminal(&dir, &format!("{bin} find --count"), &[]);
    assert_eq!(stdout(&out), "a.txt:1\nsub/b.txt:1\n");
    // Standard input that is not a terminal is read, as before.
    let out = on_terminal(
        &dir,
        &format!("echo c.example.com | {bin} find --color never"),
        &[],
    );
    assert_eq!(stdout(&out), "1:1: c.example.com\n");
}

/// The `.TH` lines of a roff page.
fn title_lines(page: &str) -> Vec<&str> {
    page.lines().filter(|l| l.starts_with(".TH ")).collect()
}

#[test]
fn man_pages_title_line_holds_the_plain_version() {
    let version = env!("CARGO_PKG_VERSION");
    let page = stdout(&linkscan(&["man"], b""));
    assert_eq!(
        title_lines(&page),
        [format!(".TH linkscan 1  \"linkscan {version}\" ")]
    );
    let dir = temp_dir("man-pages");
    let out = linkscan(&["man", "--out-dir", s(&dir)], b"");
    assert!(out.status.success(), "{out:?}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.contains(&"linkscan-find.1".to_owned()), "{names:?}");
    assert!(names.len() >= 8, "{names:?}");
    for name in names {
        let page = std::fs::read_to_string(dir.join(&name)).unwrap();
        let title = name.trim_end_matches(".1");
        assert_eq!(
            title_lines(&page),
            [format!(".TH {title} 1  \"linkscan {version}\" ")],
            "{name}"
        );
        // The title line is the page's first, and the version text is not in it.
        assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{name}");
    }
}

/// Text that `man` rendered, without the backspace overstrikes of bold and underline.
fn plain(rendered: &str) -> String {
    let mut out = String::new();
    for c in rendered.chars() {
        if c == '\u{8}' {
            out.pop();
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
#[ignore = "needs man"]
fn man_renders_one_header_and_footer_line_with_the_version() {
    let version = env!("CARGO_PKG_VERSION");
    let dir = temp_dir("man-header");
    let out = linkscan(&["man", "--out-dir", s(&dir)], b"");
    assert!(out.status.success(), "{out:?}");
    std::fs::write(dir.join("whole.1"), linkscan(&["man"], b"").stdout).unwrap();
    for (file, title) in [
        ("whole.1", "linkscan"),
        ("linkscan.1", "linkscan"),
        ("linkscan-find.1", "linkscan-find"),
        ("linkscan-man.1", "linkscan-man"),
    ] {
        let out = Command::new("man")
            .arg("-l")
            .arg(dir.join(file))
            .env("MANWIDTH", "100")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .env("LC_ALL", "C.UTF-8")
            .output()
            .expect("man runs");
        assert!(out.status.success(), "{file}: {out:?}");
        let text = plain(&String::from_utf8_lossy(&out.stdout));
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let (header, footer) = (lines[0], lines[lines.len() - 1]);
        // Header: `TITLE(1)   General Commands Manual   TITLE(1)`.
        assert!(
            header.starts_with(&format!("{title}(1)")) && header.ends_with(&format!("{title}(1)")),
            "{file} header: {header:?}"
        );
        // Footer: `linkscan VERSION   TITLE(1)` (groff may centre the source), without the
        // other lines of --version.
        assert!(
            footer
                .trim_start()
                .starts_with(&format!("linkscan {version} ")),
            "{file} footer: {footer:?}"
        );
        assert!(
            footer.ends_with(&format!("{title}(1)")),
            "{file}: {footer:?}"
        );
        assert!(
            !footer.contains("Unicode") && !footer.contains("IANA"),
            "{footer:?}"
        );
        // The page starts right after the header: no version text spilled from it.
        assert!(
            !lines[1].contains("Unicode") && !lines[1].contains("IANA"),
            "{file}"
        );
    }
}

/// Mail archives: `[FILE:]MESSAGE/PART: LINK`, a link of an href marked so; one line per
/// line of --json, in the same order.
#[cfg(feature = "mail")]
#[test]
fn archives_give_message_and_part_lines_by_default() {
    let sample = crate::common::root().join("crates/mail/tests/data/mail/sample.mbox");
    let sample = s(&sample);
    let text = stdout(&linkscan(&["find", "--mbox", "--no-progress", sample], b""));
    let json = stdout(&linkscan(
        &["find", "--mbox", "--no-progress", "--json", sample],
        b"",
    ));
    let json: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), json.len());
    assert!(lines.len() > 10);
    for (line, record) in lines.iter().zip(&json) {
        let mut want = format!(
            "{}/{}: {}",
            record["message"],
            record["part"].as_str().unwrap(),
            record["text"].as_str().unwrap()
        );
        if record["source"] != "text" {
            want.push_str(&format!(" ({})", record["source"].as_str().unwrap()));
        }
        assert_eq!(*line, want);
    }
    assert!(text.contains(" (href)\n"), "{text}");
    // -H names the archive.
    let named = stdout(&linkscan(
        &["find", "--mbox", "--no-progress", "-H", sample],
        b"",
    ));
    assert_eq!(
        named.lines().next().unwrap(),
        format!("{sample}:{}", lines[0])
    );
}
