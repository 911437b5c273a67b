//! HTML text extraction: any bytes read as an HTML part, and the same bytes built into
//! deep and wide markup, must give text whose anchors are ranges of character boundaries
//! of it, on a thread with a worker's 2 MiB stack, without a panic.
//!
//! The first two bytes choose a shape and a repetition count (up to 65,280 copies): the
//! next 64 bytes at most as one attribute repeated in one tag (`<p x="…" x="…" …>`, the shape that
//! overflowed the tokenizer's stack), as nested elements (`<div><div>…`), as nested
//! anchors, or as raw-text elements opened and left open (`<xmp>`, `<script/>`,
//! `<plaintext>`). Use the dictionary `fuzz/dict/html.dict`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use linkscan_mail::html_text;

fn check(html: String) {
    let result = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let page = html_text(&html);
            for a in &page.anchors {
                assert!(a.start <= a.end && a.end <= page.text.len(), "{a:?}");
                assert!(page.text.is_char_boundary(a.start) && page.text.is_char_boundary(a.end));
            }
            // The character that breaks long runs of attributes never shows.
            if !html.contains('\u{FDD0}') && !html.to_ascii_lowercase().contains("fdd0") {
                assert!(!page.text.contains('\u{FDD0}'));
            }
        })
        .expect("thread starts")
        .join();
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

fuzz_target!(|data: &[u8]| {
    check(String::from_utf8_lossy(data).into_owned());
    let Some((&[shape, count], rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    // At most 64 bytes repeated at most 65,280 times: a few MB, fast enough per run.
    let unit = String::from_utf8_lossy(&rest[..rest.len().min(64)]);
    let reps = usize::from(count) << ((shape >> 4) % 9);
    let html = match shape % 4 {
        0 => format!(
            "<p{}>tail.example.com</p>",
            format!(" x=\"{unit}\"").repeat(reps)
        ),
        1 => format!("{}{unit}", "<div>".repeat(reps)),
        2 => format!(
            "{}{unit}",
            "<a href=\"https://a.example.com/\">".repeat(reps)
        ),
        _ => format!(
            "{}{unit}",
            ["<xmp>", "<script/>", "<plaintext>", "<title/>"][reps % 4].repeat(reps.min(64))
        ),
    };
    check(html);
});
