/// The command-line tool's output for `text` given on stdin.
fn cli(args: &[&str], text: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkscan"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the linkscan binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("linkscan ends");
    assert!(out.status.success(), "linkscan {args:?}: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn cli_links_keep_ignored_code_points_and_targets_drop_them() {
    let text = "see www.exam\u{AD}ple.com and pay\u{200B}pal.com\n";
    assert_eq!(
        cli(&["find", "-o"], text),
        "www.exam\u{AD}ple.com\npay\u{200B}pal.com\n"
    );
    let html = cli(&["linkify"], text);
    assert!(html.contains("href=\"https://www.example.com\""), "{html}");
    assert!(html.contains("href=\"https://paypal.com\""), "{html}");
    assert!(
        !html.contains("\"https://ple.com") && !html.contains("\"https://pal.com"),
        "{html}"
    );
}

#[test]
fn cli_finds_emails_whose_local_part_ends_in_a_tld() {
    let text = "mail xiao.li@example.com or lei.wang@example.cn or min.kim@corp.kr\n";
    assert_eq!(
        cli(&["find", "--format", "marked"], text),
        "mail ⸠xiao.li@example.com⸡ or ⸠lei.wang@example.cn⸡ or ⸠min.kim@corp.kr⸡\n"
    );
    assert_eq!(
        cli(
            &["find", "-c", "--kind", "email", "--tld-policy", "syntactic"],
            text
        ),
        "3\n"
    );
}

#[test]
fn cli_finds_hosts_without_a_tld() {
    let text =
        "http://localhost:8080/ http://192.168.0.1/admin http://[::1]:3000/ http://999.1.1.1/\n";
    assert_eq!(
        cli(&["find", "-o"], text),
        "http://localhost:8080/\nhttp://192.168.0.1/admin\nhttp://[::1]:3000/\n"
    );
    assert_eq!(cli(&["find", "-c"], text), "3\n");
}

#[test]
fn cli_does_not_link_public_suffixes() {
    let text = "see co.uk and github.io, but bbc.co.uk and user.github.io\n";
    assert_eq!(
        cli(&["find", "-o"], text),
        "github.io\nbbc.co.uk\nuser.github.io\n"
    );
    assert_eq!(cli(&["find", "-c"], text), "3\n");
    assert_eq!(
        cli(&["find", "-o", "--tld-policy", "syntactic"], text),
        "github.io\nbbc.co.uk\nuser.github.io\n"
    );
    assert_eq!(
        cli(&["find", "-o", "--policy", "readable"], text),
        "bbc.co.uk\nuser.github.io\n"
    );
}
