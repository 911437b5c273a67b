"""The same job through Ray Data (local, num_cpus=2): links equal `linkscan find`'s."""

from __future__ import annotations

import pyarrow as pa
import pytest

from conftest import lines_with_offsets, require

ray = require("ray")


@pytest.fixture(scope="module")
def ray_local():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ray_data_job_equals_the_command_line(ray_local, intl_bytes, cli_links):
    """`map_batches_fn` returns what Ray takes (a `pyarrow.Table`), and the kept `offset`
    column joins each link to its line: the byte offsets in the file are the command's."""
    from linkscan.arrow import LINK_COLUMNS, map_batches_fn

    offsets, lines = lines_with_offsets(intl_bytes)
    table = pa.table({"offset": pa.array(offsets, pa.int64()), "value": lines})
    ds = ray.data.from_arrow(table).repartition(8)
    links = ds.map_batches(map_batches_fn("value", keep=["offset"]), batch_format="pyarrow", batch_size=4096)
    rows = links.take_all()
    assert list(rows[0]) == ["offset", *LINK_COLUMNS]
    got = sorted(
        (r["offset"] + r["byte_start"], r["offset"] + r["byte_end"], r["kind"], r["text"])
        for r in rows
    )
    assert len(got) == len(cli_links)
    assert got == [(c["start"], c["end"], c["kind"], c["text"]) for c in cli_links]


def test_ray_data_ids_join_back_across_batches(ray_local):
    """Small batches, so `find_arrow`'s own `row` restarts many times: the kept id still
    names each link's row."""
    from linkscan.arrow import map_batches_fn

    items = [{"id": 10 * i, "body": f"a{i}.com or b{i}@example.org" if i % 3 else None} for i in range(500)]
    ds = ray.data.from_items(items)
    rows = ds.map_batches(map_batches_fn("body", keep=["id"], emails=False), batch_format="pyarrow", batch_size=7).take_all()
    assert sorted((r["id"], r["text"]) for r in rows) == sorted(
        (10 * i, f"a{i}.com") for i in range(500) if i % 3
    )


def test_ray_data_redaction_equals_the_command_line(ray_local, intl_bytes, intl_path, linkscan_bin):
    """`redact_batches_fn` replaces the column in every batch and keeps the others: the
    lines, put back in order by their offsets, are what `linkscan redact` writes."""
    import subprocess

    from linkscan.arrow import redact_batches_fn

    template, key = "<{kind} {hash}>", "ray key"
    out = subprocess.run(
        [str(linkscan_bin), "redact", "--replace", template, "--hash-key", key, str(intl_path)],
        capture_output=True,
        check=True,
    ).stdout
    offsets, lines = lines_with_offsets(intl_bytes)
    table = pa.table({"offset": pa.array(offsets, pa.int64()), "value": lines})
    ds = ray.data.from_arrow(table).repartition(8)
    fn = redact_batches_fn("value", replace=template, hash_key=key)
    rows = ds.map_batches(fn, batch_format="pyarrow", batch_size=4096).take_all()
    assert len(rows) == len(lines) and list(rows[0]) == ["offset", "value"]
    assert "\n".join(r["value"] for r in sorted(rows, key=lambda r: r["offset"])).encode() == out


def test_redact_batches_fn_nulls_and_errors():
    from linkscan.arrow import redact_batches_fn

    batch = pa.record_batch({"id": [1, 2], "body": ["mail me@example.org", None]})
    out = redact_batches_fn("body")(batch)
    assert out.to_pylist() == [{"id": 1, "body": "mail <EMAIL>"}, {"id": 2, "body": None}]
    with pytest.raises(KeyError, match="text"):
        redact_batches_fn("text")(batch)
    with pytest.raises(ValueError, match="unknown placeholder"):
        redact_batches_fn("body", replace="{url}")
