"""PySpark helpers: the links of a string column, on the executors, through Arrow.

Two ways in, both running ``LinkFinder.find_arrow`` on each Arrow batch:

* ``find_links(df, column, keep=...)`` (``df.mapInArrow(links_udf(...), links_schema(...))``):
  one output row per link, with the ``keep`` columns of its input row, and ``start``,
  ``end`` (code points), ``byte_start``, ``byte_end``, ``kind``, ``text``. No Python object
  is made per row or per link.
* ``links_pandas_udf()``: a ``pandas_udf`` returning, for each row, an
  ``array<struct<start, end, byte_start, byte_end, kind, text>>``, for ``select`` and
  ``withColumn``.
* ``redact_pandas_udf(replace=..., hash_key=...)``: a ``pandas_udf`` returning each row
  with its links replaced (``redact_arrow`` on the batch), a null row null.

``finder_options`` are the keyword arguments of ``LinkFinder`` (``urls``, ``emails``,
``tld_policy``, ``max_link_len``); the finder is made on each executor, so nothing
unpicklable crosses to it.

Spark's Python workers run ``$PYSPARK_PYTHON``, else ``python3`` from the PATH: not the
driver's interpreter, so a driver started as ``venv/bin/python job.py`` without activating
the venv would get workers that cannot import ``linkscan``. When ``PYSPARK_PYTHON`` is not
set, importing this module sets it to the driver's own interpreter (``sys.executable``),
for the Spark contexts made after it; for a context on the ``local`` master made before
(its workers run on this machine), the helpers make the UDFs they create run that
interpreter. On a cluster, set ``PYSPARK_PYTHON`` to the executors' Python (or ship a
venv) as Spark's documentation describes: an explicit setting is never changed.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

import pyarrow as pa
import pyarrow.compute as pc

from ._linkscan import LinkFinder

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from pyspark.sql import Column, DataFrame
    from pyspark.sql.types import StructType

__all__ = [
    "LINK_FIELDS",
    "LINKS_ARRAY_DDL",
    "find_links",
    "links_pandas_udf",
    "links_schema",
    "links_udf",
    "redact_pandas_udf",
]

#: The per-link columns, as (name, Spark SQL type).
LINK_FIELDS: tuple[tuple[str, str], ...] = (
    ("start", "bigint"),
    ("end", "bigint"),
    ("byte_start", "bigint"),
    ("byte_end", "bigint"),
    ("kind", "string"),
    ("text", "string"),
)

#: The return type of ``links_pandas_udf``.
LINKS_ARRAY_DDL = "array<struct<{}>>".format(
    ", ".join(f"{name}: {kind}" for name, kind in LINK_FIELDS)
)

_LINK_COLUMNS = [name for name, _ in LINK_FIELDS]


# Whether PYSPARK_PYTHON was set by the user (or the environment) before this module.
_PYTHON_WAS_SET = bool(os.environ.get("PYSPARK_PYTHON"))
if not _PYTHON_WAS_SET and sys.executable:
    # A context reads it when it is made: every Python worker of the contexts made from now
    # on (those of createDataFrame's local data too) runs this interpreter.
    os.environ["PYSPARK_PYTHON"] = sys.executable


def _workers_run_this_python() -> None:
    """For a context on the local master made before this module set ``PYSPARK_PYTHON``,
    the Python workers of UDFs made from now on run ``sys.executable``: Spark reads the
    interpreter from its context when a UDF is made, so every helper calls this before it
    makes its UDF."""
    if _PYTHON_WAS_SET or not sys.executable:
        return
    from pyspark import SparkContext

    context = SparkContext._active_spark_context
    if context is not None and context.master.startswith("local"):
        context.pythonExec = sys.executable


def _finder(options: dict[str, Any]) -> LinkFinder:
    return LinkFinder(**options)


def links_schema(df: "DataFrame", keep: Sequence[str] = ()) -> "StructType":
    """The schema of ``find_links``: the ``keep`` fields of ``df``, then ``LINK_FIELDS``."""
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    types = {"bigint": LongType(), "string": StringType()}
    fields = [df.schema[name] for name in keep]
    fields += [StructField(name, types[kind], False) for name, kind in LINK_FIELDS]
    return StructType(fields)


def links_udf(
    column: str = "value", keep: Sequence[str] = (), **finder_options: Any
) -> Callable[[Iterable[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """A function for ``DataFrame.mapInArrow``: the links of ``column`` in each batch.

    Each output batch has the ``keep`` columns of the link's row, then ``LINK_FIELDS``;
    its schema is ``links_schema(df, keep)``.
    """
    keep = list(keep)
    _workers_run_this_python()

    def links(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        finder = _finder(finder_options)
        for batch in batches:
            found = finder.find_arrow(batch.column(column))
            rows = found.column(0)
            arrays = [pc.take(batch.column(name), rows) for name in keep]
            arrays += [found.column(name) for name in _LINK_COLUMNS]
            yield pa.RecordBatch.from_arrays(arrays, names=keep + _LINK_COLUMNS)

    return links


def find_links(
    df: "DataFrame", column: str = "value", keep: Sequence[str] = (), **finder_options: Any
) -> "DataFrame":
    """One row per link of ``df[column]``: the ``keep`` columns, then ``LINK_FIELDS``."""
    return df.mapInArrow(links_udf(column, keep, **finder_options), links_schema(df, keep))


def _links_lists(texts: pa.Array, finder: LinkFinder) -> pa.ListArray:
    """For each row of ``texts``, the list of its links as structs."""
    found = finder.find_arrow(texts)
    rows = found.column(0).to_numpy()
    import numpy as np

    offsets = np.searchsorted(rows, np.arange(len(texts) + 1), side="left").astype(np.int32)
    links = pa.StructArray.from_arrays(
        [found.column(name) for name in _LINK_COLUMNS], names=_LINK_COLUMNS
    )
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), links)


def links_pandas_udf(**finder_options: Any) -> Callable[["Column"], "Column"]:
    """A ``pandas_udf`` giving each row's links as ``LINKS_ARRAY_DDL``.

    ``df.select(links_pandas_udf()("body").alias("links"))``; a null row gives an empty
    array.
    """
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    _workers_run_this_python()

    def links(texts: pd.Series) -> pd.Series:
        finder = _finder(finder_options)
        lists = _links_lists(pa.array(texts, type=pa.large_string(), from_pandas=True), finder)
        return lists.to_pandas()

    # Spark reads the type hints to choose the UDF type; this module's annotations are
    # strings (postponed evaluation), so give it the classes.
    links.__annotations__ = {"texts": pd.Series, "return": pd.Series}
    return pandas_udf(links, LINKS_ARRAY_DDL)  # type: ignore[call-overload]


def redact_pandas_udf(
    *, replace: str = "<{kind}>", hash_key: str = "", **finder_options: Any
) -> Callable[["Column"], "Column"]:
    """A ``pandas_udf`` giving each row of a string column with its links replaced, as
    ``linkscan.redact`` does (``replace``: ``{kind}``, ``{host}``, ``{hash}`` keyed by
    ``hash_key``); a null row stays null.

    ``df.withColumn("body", redact_pandas_udf(replace="{hash}", hash_key=key)("body"))``.
    The template is checked here, on the driver.
    """
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    _finder(finder_options).redact("", replace=replace, hash_key=hash_key)  # a bad template fails here
    _workers_run_this_python()

    def redacted(texts: pd.Series) -> pd.Series:
        finder = _finder(finder_options)
        array = pa.array(texts, type=pa.large_string(), from_pandas=True)
        return finder.redact_arrow(array, replace=replace, hash_key=hash_key).to_pandas()

    redacted.__annotations__ = {"texts": pd.Series, "return": pd.Series}
    return pandas_udf(redacted, "string")  # type: ignore[call-overload]
