//! The readable policy through the mail scanner.

use linkscan::{LinkFinder, Policy};

/// A finder with the readable policy.
fn readable() -> LinkFinder {
    LinkFinder::builder().policy(Policy::Readable).build()
}
#[test]
fn mail_scans_get_the_policy() {
    use linkscan_mail::MailScanner;
    let raw =
        b"Subject: see NEWS.md\r\nContent-Type: text/plain\r\n\r\nProc.new at rubygems.org\r\n";
    let message = MailScanner::new().finder(readable()).scan(raw);
    let texts: Vec<&str> = message
        .parts()
        .iter()
        .flat_map(|p| p.links().iter().map(|l| l.text()))
        .collect();
    assert_eq!(texts, ["rubygems.org"]);
    assert_eq!(MailScanner::new().scan(raw).link_count(), 3);
}
