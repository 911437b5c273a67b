"""The same job through Ray Data (local, num_cpus=2): links equal `linkscan find`'s."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from conftest import lines_with_offsets, require

ray = require("ray")


@pytest.fixture(scope="module")
def ray_local():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ray_data_job_equals_the_command_line(ray_local, intl_bytes, cli_links):
    # Defined here so that Ray ships the function itself, not a reference to this module.
    def links_of_batch(batch: pa.Table) -> pa.Table:
        import linkscan

        found = linkscan.find_arrow(batch.column("value"))
        offsets = batch.column("offset").take(found.column("row"))
        return pa.table(
            {
                "byte_start": pc.add(offsets, found.column("byte_start")),
                "byte_end": pc.add(offsets, found.column("byte_end")),
                "kind": found.column("kind"),
                "text": found.column("text"),
            }
        )

    offsets, lines = lines_with_offsets(intl_bytes)
    table = pa.table({"offset": pa.array(offsets, pa.int64()), "value": lines})
    ds = ray.data.from_arrow(table).repartition(8)
    links = ds.map_batches(links_of_batch, batch_format="pyarrow", batch_size=4096)
    rows = links.take_all()
    got = sorted((r["byte_start"], r["byte_end"], r["kind"], r["text"]) for r in rows)
    assert len(got) == len(cli_links)
    assert got == [(c["start"], c["end"], c["kind"], c["text"]) for c in cli_links]
