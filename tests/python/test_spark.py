"""A PySpark local[2] job over email-intl.txt: its links equal `linkscan find`'s.

Runs Spark from the pyspark package (its own jars; nothing downloaded), with Java on the
PATH or at $JAVA_HOME.
"""

from __future__ import annotations


import pytest

from conftest import lines_with_offsets, require

pyspark = require("pyspark", program="java")

from linkscan.spark import LINK_FIELDS, find_links, links_pandas_udf


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("linkscan-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def lines_df(spark, intl_bytes):
    import pandas as pd

    offsets, lines = lines_with_offsets(intl_bytes)
    frame = pd.DataFrame({"offset": offsets, "value": lines})
    return spark.createDataFrame(frame).repartition(4)


def test_map_in_arrow_job_equals_the_command_line(lines_df, cli_links):
    links = find_links(lines_df, "value", keep=["offset"])
    assert links.columns == ["offset"] + [name for name, _ in LINK_FIELDS]
    rows = links.collect()
    got = sorted(
        (r["offset"] + r["byte_start"], r["offset"] + r["byte_end"], r["kind"], r["text"])
        for r in rows
    )
    assert len(got) == len(cli_links)
    assert got == [(c["start"], c["end"], c["kind"], c["text"]) for c in cli_links]


def test_pandas_udf_gives_each_row_its_links(lines_df, cli_links):
    from pyspark.sql import functions as F

    links = links_pandas_udf()
    per_row = lines_df.select("offset", "value", links("value").alias("links"))
    total = per_row.select(F.sum(F.size("links"))).first()[0]
    assert total == len(cli_links)
    flat = per_row.select("offset", "value", F.explode("links").alias("l")).collect()
    got = sorted(
        (r["offset"] + r["l"]["byte_start"], r["offset"] + r["l"]["byte_end"], r["l"]["text"])
        for r in flat
    )
    assert got == [(c["start"], c["end"], c["text"]) for c in cli_links]
    for r in flat[:2000]:
        assert r["value"][r["l"]["start"] : r["l"]["end"]] == r["l"]["text"]


def test_pandas_udf_null_and_empty_rows(spark):
    df = spark.createDataFrame([("x.com y.com",), (None,), ("",)], "body string")
    links = links_pandas_udf(emails=False)
    got = [r["links"] for r in df.select(links("body").alias("links")).collect()]
    assert [[l["text"] for l in row] for row in got] == [["x.com", "y.com"], [], []]
