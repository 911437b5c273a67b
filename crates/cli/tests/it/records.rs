//! `find --field` and `redact --field`: records of JSON Lines (plain and gzip) and Parquet
//! (written here with the `parquet` crate). The same links from both formats, with their
//! record numbers and ids; every other field, the schema and the row groups kept by
//! `redact`; bad records reported with their numbers and passed through; nested fields;
//! and the records rebuilt from the redacted ones and the links `find` reports.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray, StructArray};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use proptest::prelude::*;
use serde_json::Value;

use crate::common;

/// A replacement that no record holds.
const MARKER: &str = "\u{F8FF}";

/// Texts of records: links in several scripts, none, escapes, a quote, a control.
const TEXTS: [&str; 6] = [
    "See fr.wikipedia.org/wiki/Paris_(France), or write to σωκράτης@example.gr.",
    "no link here",
    "詳細は https://ja.wikipedia.org/wiki/東京都 をご覧ください。連絡先：（info@例え.jp）",
    "a \"quoted\" www.straße.de/ü?q=1! and a\ttab",
    "",
    "two: example.com x@example.org\nsecond line example.net",
];

fn temp_dir(name: &str) -> PathBuf {
    crate::common::temp_dir("records", name)
}

/// Runs `linkscan ARGS` on `stdin`: the exit code, stdout and stderr.
fn run(args: &[&str], stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let out = common::linkscan(args, stdin);
    (
        out.status.code(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The JSON string of `text`.
fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// The JSON Lines of [`TEXTS`]: `{"id": 100+N, "meta": {"body": TEXT}, "text": TEXT}`,
/// spaced and ordered unusually, so that kept bytes show.
fn jsonl() -> String {
    TEXTS
        .iter()
        .enumerate()
        .map(|(i, text)| {
            format!(
                "{{\"id\": {} ,\"meta\":{{ \"body\" : {} }}, \"text\":{},\"x\":1.50e0}}\n",
                100 + i,
                json(text),
                json(text)
            )
        })
        .collect()
}

/// The Parquet of [`TEXTS`]: `id` (int64), `meta` (struct of `body`), `text`, in
/// `groups` row groups, snappy.
fn parquet_file(file: &Path, groups: usize) {
    let body = Field::new("body", DataType::Utf8, true);
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new(
            "meta",
            DataType::Struct(Fields::from(vec![body.clone()])),
            true,
        ),
        Field::new("text", DataType::Utf8, true),
    ]));
    let properties = WriterProperties::builder()
        .set_compression(parquet::basic::Compression::SNAPPY)
        .build();
    let mut writer = ArrowWriter::try_new(
        std::fs::File::create(file).unwrap(),
        schema.clone(),
        Some(properties),
    )
    .unwrap();
    let per = TEXTS.len().div_ceil(groups);
    for (g, texts) in TEXTS.chunks(per).enumerate() {
        let ids =
            Int64Array::from_iter_values((0..texts.len()).map(|i| (100 + g * per + i) as i64));
        let text: ArrayRef = Arc::new(StringArray::from_iter_values(texts));
        let meta = StructArray::new(Fields::from(vec![body.clone()]), vec![text.clone()], None);
        let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(ids), Arc::new(meta), text])
            .unwrap();
        writer.write(&batch).unwrap();
        writer.flush().unwrap();
    }
    writer.close().unwrap();
}

/// A link as `find --json` reports it: (start, end, kind, text).
type Found = (u64, u64, String, String);

/// A link of a record: (record, id, link).
type InRecord = (u64, Value, Found);

/// The links `find --json` reports in `text` alone.
fn links_of(text: &str) -> Vec<Found> {
    let (_, out, _) = run(&["find", "--json"], text.as_bytes());
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            (
                v["start"].as_u64().unwrap(),
                v["end"].as_u64().unwrap(),
                v["kind"].as_str().unwrap().to_owned(),
                v["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// `find --field FIELD --json ARGS FILE`, which must succeed: (record, id, link) per line.
fn found(file: &Path, field: &str, args: &[&str]) -> Vec<InRecord> {
    let mut all = vec!["find", "--json", "--field", field];
    all.extend_from_slice(args);
    all.push(path(file));
    let (code, out, err) = run(&all, b"");
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["file"], path(file));
            (
                v["record"].as_u64().unwrap(),
                v["id"].clone(),
                (
                    v["start"].as_u64().unwrap(),
                    v["end"].as_u64().unwrap(),
                    v["kind"].as_str().unwrap().to_owned(),
                    v["text"].as_str().unwrap().to_owned(),
                ),
            )
        })
        .collect()
}

/// What `found` must give for [`TEXTS`] (ids 100+N).
fn expected() -> Vec<InRecord> {
    let mut all = Vec::new();
    for (i, text) in TEXTS.iter().enumerate() {
        for link in links_of(text) {
            all.push((i as u64, Value::from(100 + i as u64), link));
        }
    }
    all
}

#[test]
fn jsonl_and_parquet_give_the_same_links_with_record_numbers_and_ids() {
    let dir = temp_dir("same");
    let (j, p) = (dir.join("r.jsonl"), dir.join("r.parquet"));
    std::fs::write(&j, jsonl()).unwrap();
    parquet_file(&p, 2);
    let expected = expected();
    assert!(expected.len() >= 8, "{expected:?}");
    for file in [&j, &p] {
        for field in ["text", "meta.body"] {
            assert_eq!(
                found(file, field, &["--id-field", "id"]),
                expected,
                "{file:?} {field}"
            );
        }
        // Without --id-field, no "id".
        assert!(found(file, "text", &[])
            .iter()
            .all(|(_, id, _)| id.is_null()));
    }
    // The text format and TSV, with ids; --count.
    let (code, out, _) = run(
        &["find", "--field", "text", "--id-field", "id", path(&p)],
        b"",
    );
    assert_eq!(code, Some(0));
    let first = &expected[0];
    assert_eq!(
        String::from_utf8(out).unwrap().lines().next().unwrap(),
        format!("#0:100:{}: {}", first.2 .0, first.2 .3)
    );
    let (_, out, _) = run(
        &[
            "find",
            "--field",
            "text",
            "--format",
            "tsv",
            path(&j),
            path(&p),
        ],
        b"",
    );
    let out = String::from_utf8(out).unwrap();
    let line = out.lines().find(|l| l.contains("example.net")).unwrap();
    let link = expected.iter().find(|l| l.2 .3 == "example.net").unwrap();
    assert_eq!(
        line,
        format!(
            "{}\t5\t{}\t{}\turl\texample.net",
            path(&j),
            link.2 .0,
            link.2 .1
        )
    );
    let (_, out, _) = run(&["find", "--field", "text", "-c", path(&j), path(&p)], b"");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("{}:{n}\n{}:{n}\n", path(&j), path(&p), n = expected.len())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gzip_and_standard_input_read_as_the_plain_file() {
    let dir = temp_dir("gzip");
    let (j, gz) = (dir.join("r.jsonl"), dir.join("r.jsonl.gz"));
    std::fs::write(&j, jsonl()).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(jsonl().as_bytes()).unwrap();
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
    let plain = found(&j, "text", &["--id-field", "id"]);
    assert_eq!(found(&gz, "text", &["--id-field", "id"]), plain);
    let (code, out, _) = run(&["find", "--field", "text", "-c"], jsonl().as_bytes());
    assert_eq!(
        (code, String::from_utf8(out).unwrap()),
        (Some(0), format!("{}\n", plain.len()))
    );
    // redact keeps gzip.
    let out = dir.join("out.jsonl.gz");
    let (code, _, err) = run(
        &["redact", "--field", "text", "--out", path(&out), path(&gz)],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    let mut unzipped = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&out).unwrap()),
        &mut unzipped,
    )
    .unwrap();
    let (_, direct, _) = run(&["redact", "--field", "text", path(&j)], b"");
    assert_eq!(unzipped.as_bytes(), direct);
    assert_ne!(unzipped, jsonl());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `text` redacted as plain text is.
fn redacted(text: &str, args: &[&str]) -> String {
    let mut all = vec!["redact"];
    all.extend_from_slice(args);
    let (_, out, _) = run(&all, text.as_bytes());
    String::from_utf8(out).unwrap()
}

#[test]
fn redact_jsonl_keeps_every_other_byte() {
    let (code, out, err) = run(&["redact", "--field", "meta.body"], jsonl().as_bytes());
    assert_eq!(code, Some(0), "{err}");
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.split_inclusive('\n').collect();
    assert_eq!(lines.len(), TEXTS.len());
    for ((line, input), text) in lines.iter().zip(jsonl().split_inclusive('\n')).zip(TEXTS) {
        let new = redacted(text, &[]);
        if new == text {
            assert_eq!(*line, input, "a record without links is kept as it is");
            continue;
        }
        // Everything but the body's string, byte for byte: the text field too.
        let (before, after) = input.split_once(&json(text)).unwrap();
        assert_eq!(*line, format!("{before}{}{after}", json(&new)));
    }
}

#[test]
fn redact_parquet_keeps_the_schema_row_groups_and_other_columns() {
    let dir = temp_dir("parquet");
    let (p, out) = (dir.join("r.parquet"), dir.join("out.parquet"));
    parquet_file(&p, 3);
    let (code, _, err) = run(
        &[
            "redact",
            "--field",
            "meta.body",
            "--replace",
            "[{kind}]",
            "--out",
            path(&out),
            path(&p),
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    let read = |file: &Path| {
        let builder =
            ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(file).unwrap()).unwrap();
        let metadata = builder.metadata().clone();
        let batches: Vec<RecordBatch> = builder.build().unwrap().map(Result::unwrap).collect();
        (metadata, batches)
    };
    let ((before, rows), (after, new_rows)) = (read(&p), read(&out));
    let (b, a) = (before.file_metadata(), after.file_metadata());
    assert_eq!(
        a.schema_descr().root_schema(),
        b.schema_descr().root_schema()
    );
    assert_eq!(after.num_row_groups(), 3);
    for (g, group) in after.row_groups().iter().enumerate() {
        assert_eq!(group.num_rows(), before.row_group(g).num_rows());
        for (c, column) in group.columns().iter().enumerate() {
            assert_eq!(
                column.compression(),
                before.row_group(g).column(c).compression()
            );
        }
    }
    let concat = |batches: &[RecordBatch], column: usize| -> Vec<ArrayRef> {
        batches.iter().map(|b| b.column(column).clone()).collect()
    };
    // id and text are the same arrays; meta.body is redacted.
    assert_eq!(concat(&rows, 0), concat(&new_rows, 0));
    assert_eq!(concat(&rows, 2), concat(&new_rows, 2));
    let bodies: Vec<String> = new_rows
        .iter()
        .flat_map(|b| {
            let meta = b.column(1).as_any().downcast_ref::<StructArray>().unwrap();
            let body = meta
                .column(0)
                .as_any()
                .downcast_ref::<StringArray>()
                .unwrap();
            (0..body.len())
                .map(|i| body.value(i).to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    let want: Vec<String> = TEXTS
        .iter()
        .map(|t| redacted(t, &["--replace", "[{kind}]"]))
        .collect();
    assert_eq!(bodies, want);
    assert!(
        bodies[0].contains("[URL]") && bodies[0].contains("[EMAIL]"),
        "{bodies:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_records_are_reported_with_their_numbers_and_passed_through() {
    let input = "{\"text\": \"a example.com\"}\n\
                 {not json example.org\n\
                 \n\
                 {\"body\": \"no text field x@example.org\"}\n\
                 {\"text\": 42}\n\
                 [\"text\"]\n\
                 {\"text\": null}\n\
                 {\"text\": \"last example.net\"}";
    let (code, out, err) = run(&["find", "--field", "text", "-o"], input.as_bytes());
    assert_eq!(code, Some(2), "-o is refused: {err}");
    assert!(out.is_empty());
    let (code, out, err) = run(&["find", "--field", "text"], input.as_bytes());
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "#0:2: example.com\n#7:5: example.net\n"
    );
    for (record, why) in [
        (1, "not a JSON object"),
        (3, "no field \"text\""),
        (4, "\"text\" is a number, not a string"),
        (5, "not a JSON object"),
        (6, "\"text\" is null, not a string"),
    ] {
        let line = format!("linkscan: -: record {record}: {why}");
        assert!(err.contains(&line), "{line} in {err}");
    }
    assert!(
        !err.contains("record 2"),
        "a blank line is no record: {err}"
    );
    assert_eq!(err.lines().count(), 5, "{err}");
    // redact: every line written, the bad ones unchanged.
    let (code, out, err) = run(&["redact", "--field", "text"], input.as_bytes());
    assert_eq!(code, Some(2), "{err}");
    let want = input
        .replace("a example.com", "a <URL>")
        .replace("last example.net", "last <URL>");
    assert_eq!(String::from_utf8(out).unwrap(), want);
    assert!(
        err.contains("record 4: \"text\" is a number, not a string; written unchanged"),
        "{err}"
    );
}

#[test]
fn parquet_nulls_and_wrong_columns() {
    let dir = temp_dir("nulls");
    let (p, out) = (dir.join("n.parquet"), dir.join("out.parquet"));
    let schema = Arc::new(Schema::new(vec![
        Field::new("n", DataType::Int64, false),
        Field::new("text", DataType::Utf8, true),
    ]));
    let mut writer =
        ArrowWriter::try_new(std::fs::File::create(&p).unwrap(), schema.clone(), None).unwrap();
    let text = StringArray::from(vec![Some("a example.com"), None, Some("b example.org")]);
    let batch = RecordBatch::try_new(
        schema,
        vec![Arc::new(Int64Array::from(vec![1, 2, 3])), Arc::new(text)],
    )
    .unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let (code, stdout, err) = run(&["find", "--field", "text", path(&p)], b"");
    assert_eq!(code, Some(2));
    assert_eq!(
        String::from_utf8(stdout).unwrap(),
        "#0:2: example.com\n#2:2: example.org\n"
    );
    assert!(
        err.contains("record 1: \"text\" is null, not a string; skipped"),
        "{err}"
    );
    let (code, _, err) = run(
        &["redact", "--field", "text", "--out", path(&out), path(&p)],
        b"",
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("record 1: \"text\" is null"), "{err}");
    let batch = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&out).unwrap())
        .unwrap()
        .build()
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let text = batch
        .column(1)
        .as_any()
        .downcast_ref::<StringArray>()
        .unwrap();
    assert_eq!(
        (text.value(0), text.is_null(1), text.value(2)),
        ("a <URL>", true, "b <URL>")
    );
    for (field, why) in [
        ("n", "column \"n\" is Int64, not text"),
        ("x", "no column \"x\""),
    ] {
        let (code, stdout, err) = run(&["find", "--field", field, path(&p)], b"");
        assert_eq!(code, Some(2));
        assert!(stdout.is_empty());
        assert!(err.contains(why), "{why} in {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Each record's text is rebuilt from its redacted text and the links `find` reports,
    /// and every other byte of each line is kept.
    #[test]
    fn records_are_rebuilt_from_redacted_text_and_links(
        texts in prop::collection::vec(
            prop::collection::vec(
                prop::sample::select(vec![
                    "example.com", "x@example.org", " ", "\n", "\"", "\\", "é", "東京",
                    "https://bücher.de/ü?q=1", "(", ")", ".", "\u{7}", "mailto:a@b.example",
                ]),
                0..12,
            ).prop_map(|parts| parts.concat()),
            1..20,
        )
    ) {
        let input: String = texts
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{{\"n\":{i},\"text\":{},\"after\":\"{i} x.org\"}}\n", json(t)))
            .collect();
        let (code, out, err) = run(&["redact", "--field", "text", "--replace", MARKER], input.as_bytes());
        prop_assert_eq!(code, Some(0), "{}", err);
        let (_, links, _) = run(&["find", "--json", "--field", "text"], input.as_bytes());
        let mut links: Vec<Value> = String::from_utf8(links)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        links.reverse();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        prop_assert_eq!(lines.len(), texts.len());
        for (i, (line, text)) in lines.iter().zip(&texts).enumerate() {
            let v: Value = serde_json::from_str(line).unwrap();
            prop_assert_eq!(&v["after"], &Value::from(format!("{i} x.org")));
            let red = v["text"].as_str().unwrap();
            let (before, after) = input.lines().nth(i).unwrap().split_once(&json(text)).unwrap();
            prop_assert!(line.starts_with(before) && line.ends_with(after));
            let mut rebuilt = String::new();
            let mut rest = red;
            let mut at = 0;
            while let Some(m) = rest.find(MARKER) {
                let link = links.pop().expect("a link per marker");
                prop_assert_eq!(link["record"].as_u64(), Some(i as u64));
                let (start, end) = (link["start"].as_u64().unwrap() as usize, link["end"].as_u64().unwrap() as usize);
                prop_assert_eq!(&rest[..m], &text[at..start]);
                rebuilt.push_str(&rest[..m]);
                rebuilt.push_str(link["text"].as_str().unwrap());
                rest = &rest[m + MARKER.len()..];
                at = end;
            }
            rebuilt.push_str(rest);
            prop_assert_eq!(&rebuilt, text);
        }
        prop_assert!(links.is_empty(), "links without a marker: {:?}", links);
    }
}

#[test]
fn bad_records_far_into_the_input_have_their_numbers_in_every_mode() {
    // Some 5 MB of records (many batches and chunks) with bad records and blank lines
    // here and there, and a record of links longer than a batch: a count and `redact`,
    // which number the records as they come, name the same records as a listing does
    // and as the input says.
    let mut input = String::new();
    let mut bad = Vec::new();
    for i in 0..60_000u64 {
        if i % 7919 == 5 {
            input.push_str(&format!("{{\"id\": {i}, \"text\": {i}}}\n"));
            bad.push(i);
        } else if i % 4001 == 9 {
            input.push('\n');
        } else if i == 31_337 {
            let long = "x.org a@b.org ".repeat(100_000);
            input.push_str(&format!("{{\"id\": {i}, \"text\": \"{long}\"}}\n"));
        } else {
            let text = "w".repeat((i % 120) as usize);
            input.push_str(&format!(
                "{{\"id\": {i}, \"text\": \"{text} see y.org\"}}\n"
            ));
        }
    }
    let want: Vec<String> = bad
        .iter()
        .map(|i| format!("linkscan: -: record {i}: \"text\" is a number, not a string; skipped"))
        .collect();
    for args in [
        &["find", "--field", "text", "--count"][..],
        &["find", "--field", "text", "--json"],
        &["redact", "--field", "text"],
    ] {
        let (code, _, err) = run(args, input.as_bytes());
        assert_eq!(code, Some(2), "{args:?}: {err}");
        let got: Vec<&str> = err.lines().collect();
        let want: Vec<String> = want
            .iter()
            .map(|line| match args[0] {
                "redact" => line.replace("skipped", "written unchanged"),
                _ => line.clone(),
            })
            .collect();
        assert_eq!(got, want, "{args:?}");
    }
}

#[test]
fn a_replacement_with_a_quote_or_a_backslash_is_escaped() {
    // Plain and escaped strings, with links and without, between many records of one
    // layout, so that the usual run reads them; the replacement holds a quote and a
    // backslash, which plain text around it does not.
    let texts = [
        "see x.org",
        "no link",
        "a \"q\" a@b.org\t",
        "x.org",
        "tab\there",
    ];
    let mut input = String::new();
    for i in 0..200 {
        let text = texts[i % texts.len()];
        input.push_str(&format!("{{\"id\": {i}, \"text\": {}}}\n", json(text)));
    }
    let (code, out, err) = run(
        &["redact", "--field", "text", "--replace", r#"<{kind}"\>"#],
        input.as_bytes(),
    );
    assert_eq!(code, Some(0), "{err}");
    let want = [
        r#"see <URL"\>"#,
        "no link",
        "a \"q\" <EMAIL\"\\>\t",
        r#"<URL"\>"#,
        "tab\there",
    ];
    let out = String::from_utf8(out).unwrap();
    assert_eq!(out.lines().count(), 200);
    for (i, line) in out.lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["text"], want[i % want.len()], "{line}");
        assert_eq!(v["id"], i, "{line}");
    }
}

#[test]
fn memory_is_a_few_batches_not_the_file() {
    // 128 MB of records, each with a link: `redact` holds a few batches of 4 MB, and its
    // output is read as it comes.
    let dir = temp_dir("memory");
    let file = dir.join("big.jsonl");
    let line = format!(
        "{{\"id\":1,\"text\":{}}}\n",
        json(&"see example.com and words ".repeat(40))
    );
    let records = 128_000_000 / line.len();
    std::fs::write(&file, line.repeat(records)).unwrap();
    let want = line.replace("example.com", "<URL>");
    let (peak, code, err) =
        common::memory::run_measured(&["redact", "--field", "text", path(&file)], None, |out| {
            let mut n = 0;
            let mut got = String::new();
            while std::io::BufRead::read_line(out, &mut got).unwrap() > 0 {
                assert_eq!(got, want, "record {n}");
                got.clear();
                n += 1;
            }
            assert_eq!(n, records);
        });
    assert_eq!(code, Some(0), "{err}");
    common::memory::assert_under("redact --field of 128 MB", peak, 96 * common::memory::MIB);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_of_links_longer_than_a_batch_is_found_whole_in_both_formats() {
    // Its links are written as they are found (in pieces), between the short records'.
    let dir = temp_dir("long-record");
    let long = "x.org a@b.org ".repeat(120_000);
    let texts = ["see y.org", long.as_str(), "z.org"];
    let jsonl_file = dir.join("long.jsonl");
    let lines: String = texts
        .iter()
        .enumerate()
        .map(|(i, text)| format!("{{\"id\": {i}, \"text\": {}}}\n", json(text)))
        .collect();
    std::fs::write(&jsonl_file, lines).unwrap();
    let parquet_file = dir.join("long.parquet");
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("text", DataType::Utf8, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int64Array::from_iter_values(0..3)),
            Arc::new(StringArray::from_iter_values(texts)),
        ],
    )
    .unwrap();
    let mut writer =
        ArrowWriter::try_new(std::fs::File::create(&parquet_file).unwrap(), schema, None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let mut want = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        for link in links_of(text) {
            want.push((i as u64, Value::from(i), link));
        }
    }
    assert_eq!(want.len(), 240_002);
    for file in [&jsonl_file, &parquet_file] {
        let got = found(file, "text", &["--id-field", "id"]);
        assert!(got == want, "{}: {} links", file.display(), got.len());
    }
}
