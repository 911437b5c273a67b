"""`linkscan.arrow`: the links of a table's column, joined to their rows by kept columns."""

from __future__ import annotations

import pytest

from conftest import require

pa = require("pyarrow")

from linkscan.arrow import LINK_COLUMNS, links_table, map_batches_fn


def test_kept_columns_name_each_links_row():
    batch = pa.table({"id": [7, 8, 9], "name": ["a", "b", "c"], "body": ["x.com y.org", None, "me@example.org"]})
    links = links_table(batch, "body", keep=["name", "id"])
    assert links.column_names == ["name", "id", *LINK_COLUMNS]
    assert [(r["name"], r["id"], r["text"], r["kind"]) for r in links.to_pylist()] == [
        ("a", 7, "x.com", "url"),
        ("a", 7, "y.org", "url"),
        ("c", 9, "me@example.org", "email"),
    ]


def test_rows_of_a_table_of_many_chunks_are_global():
    """A table whose column has several chunks: `row` counts across the chunks, and the
    kept values are those of the right chunk."""
    chunks = [pa.table({"id": list(range(k, k + 5)), "body": [f"see h{i}.com" for i in range(k, k + 5)]}) for k in (0, 5, 10)]
    table = pa.concat_tables(chunks)
    assert table.column("body").num_chunks == 3
    links = links_table(table, "body", keep=["id"])
    assert [(r["id"], r["text"]) for r in links.to_pylist()] == [(i, f"h{i}.com") for i in range(15)]


def test_a_record_batch_and_code_point_offsets():
    batch = pa.RecordBatch.from_pydict({"id": [1], "body": ["日本 example.com/東京"]})
    (link,) = links_table(batch, "body", keep=["id"]).to_pylist()
    assert (link["start"], link["end"], link["byte_start"], link["byte_end"]) == (3, 17, 7, 25)


def test_a_missing_column_is_named():
    batch = pa.table({"body": ["x.com"]})
    with pytest.raises(KeyError, match="'id'"):
        links_table(batch, "body", keep=["id"])
    with pytest.raises(KeyError, match="'text'"):
        links_table(batch, "text")


def test_no_links_gives_an_empty_table_with_the_columns():
    batch = pa.table({"id": [1, 2], "body": ["nothing", None]})
    links = links_table(batch, "body", keep=["id"])
    assert links.num_rows == 0 and links.column_names == ["id", *LINK_COLUMNS]


def test_map_batches_fn_returns_a_table_and_passes_finder_options():
    fn = map_batches_fn("body", keep=["id"], emails=False)
    batch = pa.table({"id": [1], "body": ["x.com me@example.org"]})
    assert fn(batch).column("text").to_pylist() == ["x.com"]
    assert isinstance(fn(batch), pa.Table)
