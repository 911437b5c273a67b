"""The links of an Arrow table's string column, as a table that joins back to its rows.

``LinkFinder.find_arrow`` returns one row per link with ``row``, the index of the link's
row *within the array it was given*. An engine that hands over its data batch by batch
(Ray Data's ``map_batches``, Spark's ``mapInArrow``, a loop over Parquet row groups)
restarts that index at 0 in every batch, so it cannot join the links back to the input.
``links_table`` carries the input's own columns instead: each link's row gets the values
of the ``keep`` columns of its input row (an id, a file name, an offset), taken with
``pyarrow.compute.take``. No Python object is made per row or per link.

``links_table`` returns a ``pyarrow.Table``, which Ray Data (2.9 and later, whose check of
what ``map_batches`` returns is strict: a ``pyarrow.Table`` or a dict of arrays, not a
``RecordBatch``) and every other Arrow consumer take. ``map_batches_fn`` wraps it as the
one-argument function ``map_batches`` calls; the finder is made where the function runs,
so nothing unpicklable is shipped.

``redact_batches_fn(column, replace=..., hash_key=...)`` is the same for redaction: the
batch with ``column`` replaced by its rows redacted (``redact_arrow``), every other column
as it was.

Invariant: the output's rows are the links in input order (row, then offset); its columns
are the ``keep`` columns, then ``LINK_COLUMNS``. A redacted batch has the input's rows and
columns, in order.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence, Union

import pyarrow as pa
import pyarrow.compute as pc

from ._linkscan import LinkFinder

__all__ = ["LINK_COLUMNS", "links_table", "map_batches_fn", "redact_batches_fn"]

#: The per-link columns of ``links_table``, after the ``keep`` columns: code-point
#: offsets, byte offsets (UTF-8), ``"url"``/``"email"``, the link's text.
LINK_COLUMNS: tuple[str, ...] = ("start", "end", "byte_start", "byte_end", "kind", "text")

Batch = Union[pa.Table, pa.RecordBatch]


def links_table(
    batch: Batch,
    column: str,
    keep: Sequence[str] = (),
    finder: LinkFinder | None = None,
) -> pa.Table:
    """One row per link of ``batch[column]``: the ``keep`` columns of its row, then
    ``LINK_COLUMNS``. A null row has no links.

    ``keep`` names columns of ``batch`` (an id, a file name, a byte offset) that identify
    the row; a name that is not a column is a ``KeyError`` naming it, as is ``column``.
    """
    names = batch.schema.names
    for name in [column, *keep]:
        if name not in names:
            raise KeyError(f"no column {name!r} in the batch (its columns: {names})")
    found = (finder or LinkFinder()).find_arrow(batch.column(column))
    rows = found.column("row")
    arrays: list[Any] = [pc.take(batch.column(name), rows) for name in keep]
    arrays += [found.column(name) for name in LINK_COLUMNS]
    return pa.Table.from_arrays(arrays, names=[*keep, *LINK_COLUMNS])


def map_batches_fn(
    column: str, keep: Sequence[str] = (), **finder_options: Any
) -> Callable[[Batch], pa.Table]:
    """A function for ``ray.data.Dataset.map_batches(fn, batch_format="pyarrow")``:
    ``links_table(batch, column, keep)`` with a ``LinkFinder(**finder_options)`` made where
    it runs."""
    keep = list(keep)

    def links(batch: Batch) -> pa.Table:
        # Made here, on the worker: a finder is cheap to make and is not pickled.
        return links_table(batch, column, keep, LinkFinder(**finder_options))

    return links


def redact_batches_fn(
    column: str, *, replace: str = "<{kind}>", hash_key: str = "", **finder_options: Any
) -> Callable[[Batch], pa.Table]:
    """A function for ``ray.data.Dataset.map_batches(fn, batch_format="pyarrow")``: the
    batch as a ``pyarrow.Table`` with ``column`` redacted as ``linkscan.redact`` does (null
    rows null), every other column kept. The template is checked here; the finder is made
    where the function runs."""
    LinkFinder(**finder_options).redact("", replace=replace, hash_key=hash_key)  # fails early

    def redacted(batch: Batch) -> pa.Table:
        table = batch if isinstance(batch, pa.Table) else pa.Table.from_batches([batch])
        names = table.schema.names
        if column not in names:
            raise KeyError(f"no column {column!r} in the batch (its columns: {names})")
        finder = LinkFinder(**finder_options)
        out = finder.redact_arrow(table.column(column), replace=replace, hash_key=hash_key)
        return table.set_column(names.index(column), column, out)

    return redacted
