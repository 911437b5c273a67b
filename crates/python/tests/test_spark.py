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


def test_redact_pandas_udf_equals_the_command_line(lines_df, linkscan_bin, intl_path):
    import subprocess

    from linkscan.spark import redact_pandas_udf

    template, key = "<{kind} {host} {hash}>", "spark key"
    out = subprocess.run(
        [str(linkscan_bin), "redact", "--replace", template, "--hash-key", key, str(intl_path)],
        capture_output=True,
        check=True,
    ).stdout
    redact = redact_pandas_udf(replace=template, hash_key=key)
    rows = lines_df.select("offset", redact("value").alias("value")).orderBy("offset").collect()
    assert "\n".join(r["value"] for r in rows).encode() == out


def test_redact_pandas_udf_null_rows_and_options(spark):
    from linkscan.spark import redact_pandas_udf

    df = spark.createDataFrame([(1, "x.com or me@example.org"), (2, None), (3, "")], "id long, body string")
    redacted = df.withColumn("body", redact_pandas_udf(urls=False, replace="[{host}]")("body"))
    assert [(r.id, r.body) for r in redacted.orderBy("id").collect()] == [
        (1, "x.com or [example.org]"), (2, None), (3, "")]
    with pytest.raises(ValueError, match="unknown placeholder"):
        redact_pandas_udf(replace="{url}")


# A stand-in for the PATH's `python3`: Spark's workers run it unless told otherwise.
NOT_THIS_PYTHON = "#!/bin/sh\necho 'the workers ran python3 from the PATH' >&2\nexit 3\n"

JOB = """
from pyspark.sql import SparkSession
from linkscan.spark import find_links, links_pandas_udf

spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
df = spark.createDataFrame([(1, "see x.com and me@example.org"), (2, "none")], "id long, body string")
rows = find_links(df, "body", keep=["id"]).orderBy("start").collect()
assert [(r.id, r.text) for r in rows] == [(1, "x.com"), (1, "me@example.org")], rows
per_row = df.select(links_pandas_udf()("body").alias("l")).collect()
assert sorted(len(r.l) for r in per_row) == [0, 2]
spark.stop()
"""


def _job_env(tmp_path, **extra):
    import os

    fake = tmp_path / "bin"
    fake.mkdir()
    for name in ("python3", "python"):
        (fake / name).write_text(NOT_THIS_PYTHON)
        (fake / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK_")}
    env["PATH"] = os.pathsep.join([str(fake), env.get("PATH", "")])
    env.update(extra)
    return env


def test_workers_run_the_drivers_python_without_pyspark_python(tmp_path):
    """A driver started as `venv/bin/python job.py`, venv not activated, no PYSPARK_PYTHON,
    and a `python3` on the PATH that is not this one: the workers run this interpreter."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", JOB], env=_job_env(tmp_path), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-4000:]


LATE_IMPORT_JOB = """
from pyspark.sql import SparkSession

spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
df = spark.sql("select 1L as id, 'see x.com and me@example.org' as body")   # no Python worker
from linkscan.spark import find_links  # after the context was made with `python3`

rows = find_links(df, "body", keep=["id"]).orderBy("start").collect()
assert [(r.id, r.text) for r in rows] == [(1, "x.com"), (1, "me@example.org")], rows
spark.stop()
"""


def test_workers_run_the_drivers_python_when_imported_after_the_session(tmp_path):
    """A local context made before `linkscan.spark` was imported: the helpers' UDFs still
    run this interpreter."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", LATE_IMPORT_JOB], env=_job_env(tmp_path), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-4000:]


def test_pyspark_python_is_left_as_set(tmp_path):
    """An explicit PYSPARK_PYTHON wins: here the stand-in, so the job's workers fail."""
    import subprocess
    import sys

    env = _job_env(tmp_path)
    env["PYSPARK_PYTHON"] = str(tmp_path / "bin" / "python3")
    done = subprocess.run([sys.executable, "-c", JOB], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "the workers ran python3 from the PATH" in done.stderr + done.stdout
