//! The buffer splitter ([`MboxSplitter`]) against the line reader ([`MboxReader`](crate::MboxReader)): the
//! same messages (index, offset, From_ line, bytes once unescaped, warnings) on both
//! corpora and on generated archives, at any buffer size, and with the positions of
//! `From ` found by the caller ([`MboxSplitter::split_found`]) as by its own search.

use proptest::prelude::*;

use super::data::{corpus, intl_documents, mbox_messages, message, wrap};
use crate::splitter::{find_from, unescape, MboxSplitter, Split};
use crate::MboxWarning;

/// Two messages in one buffer; the second's escaped `From ` line is undone by [`unescape`].
#[test]
fn an_archive_splits_into_ranges_of_its_buffer() {
    let mbox = b"From a Mon Jan  1 00:00:00 2024\nSubject: one\n\nbody\n\
                 From b Mon Jan  1 00:00:01 2024\nSubject: two\n\n>From x\n";
    let mut splitter = MboxSplitter::new(u64::MAX);
    let mut out = Vec::new();
    let consumed = splitter.split(mbox, true, &mut out);
    assert_eq!(consumed, mbox.len());
    let Split::Message(second) = &out[1] else {
        panic!("{out:?}")
    };
    assert_eq!(second.index, 2);
    assert!(second.escaped);
    assert_eq!(
        unescape(&mbox[second.range.clone()]).as_ref(),
        b"Subject: two\n\nFrom x\n"
    );
}

/// The positions of `From ` found by the caller split as the splitter's own search does.
#[test]
fn positions_found_by_the_caller_split_alike() {
    let mbox = b"From a\nA: 1\n\nx\nFrom b\nB: 2\n\ny\n";
    let mut found = Vec::new();
    find_from(mbox, 0, &mut found);
    assert_eq!(found, [0, 15]);
    let (mut here, mut given) = (Vec::new(), Vec::new());
    MboxSplitter::new(u64::MAX).split(mbox, true, &mut here);
    MboxSplitter::new(u64::MAX).split_found(mbox, Some(&found), true, &mut given);
    assert_eq!(here, given);
}

/// A message as (index, offset, From_ line, unescaped bytes, warnings).
type Flat = (usize, u64, String, Vec<u8>, Vec<MboxWarning>);

/// `mbox` split by `MboxSplitter` fed `step` bytes at a time, flattened as the line reader
/// gives messages; checked on the way against a twin given the positions of `From `
/// found beforehand (`split_found`, as the command line splits archive files).
fn split_in_steps(mbox: &[u8], step: usize) -> Vec<Flat> {
    let mut splitter = MboxSplitter::new(u64::MAX);
    let mut twin = MboxSplitter::new(u64::MAX);
    let mut found = Vec::new();
    let mut buf = Vec::new();
    let mut fed = 0;
    let mut result = Vec::new();
    loop {
        let next = (fed + step).min(mbox.len());
        buf.extend_from_slice(&mbox[fed..next]);
        fed = next;
        let at_end = fed == mbox.len();
        let mut out = Vec::new();
        let consumed = splitter.split(&buf, at_end, &mut out);
        found.clear();
        find_from(&buf, 0, &mut found);
        let mut given = Vec::new();
        let twin_consumed = twin.split_found(&buf, Some(&found), at_end, &mut given);
        assert_eq!(
            (twin_consumed, &given),
            (consumed, &out),
            "split_found differs"
        );
        for split in out {
            let Split::Message(m) = split else {
                panic!("no limit, so no chunks")
            };
            // Unescaped only where the splitter saw an escape: a missed one shows as a
            // difference from the line reader.
            let bytes = match m.escaped {
                true => unescape(&buf[m.range.clone()]).into_owned(),
                false => buf[m.range.clone()].to_vec(),
            };
            result.push((m.index, m.offset, m.from_line, bytes, m.warnings));
        }
        buf.drain(..consumed);
        if at_end {
            return result;
        }
    }
}

fn flatten(mbox: &[u8]) -> Vec<Flat> {
    mbox_messages(mbox)
        .into_iter()
        .map(|m| {
            let (index, offset, from_line) = (m.index(), m.offset(), m.from_line().to_string());
            let warnings = m.warnings().to_vec();
            (index, offset, from_line, m.into_bytes(), warnings)
        })
        .collect()
}

#[test]
fn the_buffer_splitter_equals_the_line_reader_on_the_corpora() {
    let en = corpus("email-en.mbox");
    let want = flatten(&en);
    for step in [64 << 10, 1 << 20, en.len()] {
        assert!(
            split_in_steps(&en, step) == want,
            "email-en.mbox in steps of {step}"
        );
    }
    // The multilingual documents as an archive, with unescaped and escaped From lines.
    let mut mbox = Vec::new();
    for (i, doc) in intl_documents().iter().enumerate().take(600) {
        mbox.extend_from_slice(
            format!("From doc{i}@example.org Mon Jan  1 00:00:00 2024\n").as_bytes(),
        );
        mbox.extend_from_slice(&wrap(i, doc));
        if i % 7 == 0 {
            mbox.extend_from_slice(b"\nFrom the desk of nobody\n>From here\n");
        }
        mbox.push(b'\n');
    }
    let want = flatten(&mbox);
    assert_eq!(want.len(), 600);
    for step in [4096, 100_003, mbox.len()] {
        assert!(
            split_in_steps(&mbox, step) == want,
            "intl archive in steps of {step}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn the_buffer_splitter_equals_the_line_reader_on_generated_archives(
        messages in prop::collection::vec(
            (prop_oneof![Just("From a Mon Jan  1 00:00:00 2024\n"), Just("From \n"), Just("")],
             message()),
            0..6),
        lead in prop_oneof![Just(""), Just("\n \n"), Just("stray text\n")],
        step in 1usize..300,
    ) {
        let mut mbox = lead.as_bytes().to_vec();
        for (from, m) in &messages {
            mbox.extend_from_slice(from.as_bytes());
            mbox.extend_from_slice(m);
        }
        prop_assert_eq!(split_in_steps(&mbox, step), flatten(&mbox));
    }
}
