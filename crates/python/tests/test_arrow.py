"""find_arrow: the Arrow batch path, its types, nulls, chunks and errors."""

from __future__ import annotations

import pyarrow as pa
import pytest

import linkscan
from conftest import lines_with_offsets

ROWS = ["x.com y.com", None, "", "é a@b.com", "日本 https://ja.wikipedia.org/wiki/東京"]
COLUMNS = ["row", "start", "end", "byte_start", "byte_end", "kind", "text"]


def expected(rows):
    out = []
    for i, text in enumerate(rows):
        if text is None:
            continue
        for link in linkscan.find(text):
            b0 = len(text[: link.start].encode())
            out.append((i, link.start, link.end, b0, b0 + len(link.text.encode()), link.kind, link.text))
    return out


def as_tuples(batch: pa.RecordBatch):
    return list(zip(*(batch.column(c).to_pylist() for c in COLUMNS)))


def test_schema_and_values():
    batch = linkscan.find_arrow(pa.array(ROWS))
    assert isinstance(batch, pa.RecordBatch)
    assert batch.schema.names == COLUMNS
    assert [f.type for f in batch.schema] == [pa.int64()] * 5 + [pa.string()] * 2
    assert as_tuples(batch) == expected(ROWS)
    assert as_tuples(batch)[2] == (3, 2, 9, 3, 10, "email", "a@b.com")


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string(), pa.string_view()])
def test_every_string_type(kind):
    assert as_tuples(linkscan.find_arrow(pa.array(ROWS, type=kind))) == expected(ROWS)


def test_chunked_arrays_number_rows_across_chunks():
    chunked = pa.chunked_array([pa.array(ROWS[:2]), pa.array(ROWS[2:])])
    assert as_tuples(linkscan.find_arrow(chunked)) == expected(ROWS)
    table = pa.table({"body": chunked})
    assert as_tuples(linkscan.find_arrow(table.column("body"))) == expected(ROWS)
    batch = pa.record_batch({"body": pa.array(ROWS)})
    assert as_tuples(linkscan.find_arrow(batch.column("body"))) == expected(ROWS)


def test_sliced_arrays_respect_their_offset():
    sliced = pa.array(ROWS).slice(3)
    assert as_tuples(linkscan.find_arrow(sliced)) == expected(ROWS[3:])


def test_empty_and_all_null():
    assert linkscan.find_arrow(pa.array([], pa.string())).num_rows == 0
    assert linkscan.find_arrow(pa.array([None, None], pa.string())).num_rows == 0


def test_finder_options_apply():
    finder = linkscan.LinkFinder(emails=False)
    assert [t[-1] for t in as_tuples(finder.find_arrow(pa.array(ROWS)))] == [
        "x.com",
        "y.com",
        "https://ja.wikipedia.org/wiki/東京",
    ]


def test_wrong_types_are_errors():
    with pytest.raises(TypeError, match="string array"):
        linkscan.find_arrow(pa.array([1, 2]))
    with pytest.raises(TypeError, match="Arrow string array"):
        linkscan.find_arrow(["x.com"])


def test_invalid_utf8_from_a_producer_is_scanned_as_bytes():
    # A binary array relabelled as string breaks the format's UTF-8 rule: its rows are
    # scanned as find_bytes scans them, nothing is lost and nothing crashes.
    raw = [b"\xffx.com \xc3\xa9 y.com\xfe/a", b"ok.com"]
    bad = pa.Array.from_buffers(pa.string(), 2, pa.array(raw).buffers())
    batch = linkscan.find_arrow(bad)
    assert batch.column("text").to_pylist() == [
        l.text for row in raw for l in linkscan.find_bytes(row)
    ] == ["x.com", "y.com", "ok.com"]
    assert batch.column("byte_start").to_pylist() == [1, 10, 0]
    # \xff counts as one code point (as U+FFFD would), é as one: 1 and 9.
    assert batch.column("start").to_pylist() == [1, 9, 0]


def test_offsets_that_go_backwards_are_an_error():
    # pyarrow checks only the span of the offsets; the values buffer then holds 2 bytes
    # (the last offset), so row 0 (bytes 0..5) runs past it.
    values = pa.py_buffer(b"x.comy.com")
    offsets = pa.py_buffer(pa.array([0, 5, 2], pa.int32()).buffers()[1].to_pybytes())
    bad = pa.Array.from_buffers(pa.string(), 2, [None, offsets, values])
    with pytest.raises(ValueError, match="invalid Arrow string array: row 0 is out of bounds"):
        linkscan.find_arrow(bad)


def test_intl_corpus_in_4k_rows_equals_the_command_line(intl_bytes, cli_links):
    # Rows of about 4 KB, cut at line breaks so that the rows' links are the file's (a
    # cut inside a link would split it).
    offsets, lines = lines_with_offsets(intl_bytes)
    chunks, starts, current, current_start = [], [], [], 0
    for offset, line in zip(offsets, lines):
        if sum(len(x) for x in current) > 4096:
            chunks.append("\n".join(current))
            starts.append(current_start)
            current, current_start = [], offset
        current.append(line)
    chunks.append("\n".join(current))
    starts.append(current_start)
    assert len(chunks) > 2000
    batch = linkscan.find_arrow(pa.array(chunks))
    got = [
        (starts[row] + b0, starts[row] + b1, kind, text)
        for row, b0, b1, kind, text in zip(
            *(batch.column(c).to_pylist() for c in ["row", "byte_start", "byte_end", "kind", "text"])
        )
    ]
    assert got == [(c["start"], c["end"], c["kind"], c["text"]) for c in cli_links]
    for row, start, end, text in zip(
        *(batch.column(c).to_pylist() for c in ["row", "start", "end", "text"])
    ):
        assert chunks[row][start:end] == text
