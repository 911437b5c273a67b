"""The polars namespace: ``pl.col(...).linkscan.find()`` and ``.redact()`` give each row
what ``linkscan.find`` and ``linkscan.redact`` give it, nulls kept, in eager and lazy
frames and on the streaming engine."""

from __future__ import annotations

import pytest

import linkscan
from conftest import lines_with_offsets, require
from test_conformance import CLOSE, OPEN, cases

pl = require("polars")

import linkscan.polars  # noqa: E402  (registers the namespace)


@pytest.fixture(scope="module")
def rows(shared_dir) -> list[str | None]:
    lines = [e.replace(OPEN, "").replace(CLOSE, "") for _, e in cases(shared_dir, "17.0.0")]
    return [None, "", *lines[:100], None, *lines[100:]]


def links_of(text: str | None, **options) -> list[dict] | None:
    if text is None:
        return None
    finder = linkscan.LinkFinder(**options)
    return [{"start": l.start, "end": l.end, "kind": l.kind, "text": l.text} for l in finder.find(text)]


def test_find_gives_each_row_its_links(rows):
    df = pl.DataFrame({"text": rows}, schema={"text": pl.String})
    out = df.select(pl.col("text").linkscan.find().alias("links"))
    assert out.schema["links"] == linkscan.polars.LINK_DTYPE
    got = out["links"].to_list()
    assert got == [links_of(r) for r in rows]
    assert got[0] is None and got[1] == [] and sum(map(len, filter(None, got))) > 300
    for text, links in zip(rows, got):
        for link in links or []:
            assert text[link["start"] : link["end"]] == link["text"]


def test_find_takes_the_finders_options(rows):
    df = pl.DataFrame({"text": rows}, schema={"text": pl.String})
    got = df.select(pl.col("text").linkscan.find(emails=False, policy="readable"))["text"].to_list()
    assert got == [links_of(r, emails=False, policy="readable") for r in rows]
    with pytest.raises(ValueError, match="policy"):
        pl.col("text").linkscan.find(policy="lenient")


def test_redact_gives_each_row_its_redacted_text(rows):
    df = pl.DataFrame({"id": range(len(rows)), "text": rows}, schema={"id": pl.Int64, "text": pl.String})
    out = df.with_columns(
        pl.col("text").linkscan.redact().alias("plain"),
        pl.col("text").linkscan.redact(replace="{kind}:{hash}", hash_key="k", urls=False).alias("hashed"),
    )
    assert out.schema["plain"] == pl.String
    assert out["plain"].to_list() == [None if r is None else linkscan.redact(r) for r in rows]
    assert out["hashed"].to_list() == [
        None if r is None else linkscan.redact(r, replace="{kind}:{hash}", hash_key="k", urls=False) for r in rows
    ]
    assert out["plain"].null_count() == 2
    assert out["id"].to_list() == list(range(len(rows)))
    with pytest.raises(ValueError, match="unknown placeholder"):
        pl.col("text").linkscan.redact(replace="{url}")


def test_lazy_and_streaming_frames(rows):
    lf = pl.LazyFrame({"text": rows * 20}, schema={"text": pl.String})
    query = lf.with_columns(
        pl.col("text").linkscan.find().alias("links"),
        pl.col("text").linkscan.redact(replace="[{host}]").alias("redacted"),
    ).filter(pl.col("links").list.len() > 0)
    assert query.collect_schema()["links"] == linkscan.polars.LINK_DTYPE
    want = [
        (r, links_of(r), linkscan.redact(r, replace="[{host}]")) for r in rows * 20 if r and linkscan.find(r)
    ]
    for engine in ["in-memory", "streaming"]:
        got = query.collect(engine=engine)
        assert list(zip(got["text"], got["links"].to_list(), got["redacted"])) == want, engine


def test_the_corpus_lines_give_the_command_lines_links(intl_bytes, cli_links):
    offsets, lines = lines_with_offsets(intl_bytes)
    df = pl.DataFrame({"offset": offsets, "text": lines})
    links = df.select("offset", pl.col("text").linkscan.find().alias("l")).explode("l").drop_nulls("l").unnest("l")
    assert len(links) == len(cli_links)
    # Code-point offsets within the line: the command's byte offsets, measured in code points.
    first = [(c["kind"], c["text"]) for c in cli_links[:1000]]
    assert list(zip(links["kind"].head(1000), links["text"].head(1000))) == first


def test_a_column_that_is_not_text_is_an_error():
    df = pl.DataFrame({"n": [1, 2]})
    with pytest.raises(Exception, match="string array"):
        df.select(pl.col("n").linkscan.find())
