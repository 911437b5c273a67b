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
