"""The ``linkscan`` namespace of polars expressions: ``import linkscan.polars``, then
``pl.col("text").linkscan.find()`` and ``pl.col("text").linkscan.redact(...)``.

Each method is an elementwise ``Expr.map_batches`` over whole batches: polars hands over a
``Series`` (the whole column in memory, a morsel of it when streaming), which crosses to
the engine as one Arrow array (``Series.to_arrow``, through the Arrow C data interface),
is scanned by ``find_arrow`` or ``redact_arrow`` in one call with the GIL released, and
comes back as one Arrow array. No Python function runs per row or per link.

``find()`` gives each row a ``list[struct[start, end, kind, text]]`` (``start`` and ``end``
in code points, as ``linkscan.find``'s, so ``text[start:end]`` is the link); the list is
built from ``find_arrow``'s ``row`` column (sorted) by one ``search_sorted`` for the list
offsets. ``redact()`` gives each row its text with the links replaced (a ``String``).
A null row stays null; an empty one gives ``[]`` or ``""``.

Not a native expression plugin: a plugin links the polars crates of the exact release of
the polars package it is loaded into (polars 2.1 is the 0.55.1 crates, on PyO3 0.29),
while this package's module is built on PyO3 0.30, which one Cargo workspace cannot hold
beside 0.29; see the repository's ``benches/README.md`` for the facts and the figures.

Keyword arguments of both methods are ``LinkFinder``'s (``urls``, ``emails``,
``tld_policy``, ``max_link_len``, ``policy``, ``public_suffix_hosts``); the finder and the
template are made and checked when the expression is built, so a bad option is an error
there, not in the middle of a query.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pyarrow as pa

from ._linkscan import LinkFinder

__all__ = ["LINK_DTYPE", "LinkscanExpr"]

#: The type of each row of ``find()``: its links, with code-point offsets.
LINK_DTYPE = pl.List(pl.Struct({"start": pl.Int64, "end": pl.Int64, "kind": pl.String, "text": pl.String}))

_FIELDS = ["start", "end", "kind", "text"]


def _links(series: pl.Series, finder: LinkFinder) -> pl.Series:
    """Each row's links as a list of structs (null rows null)."""
    texts = series.to_arrow()
    found = finder.find_arrow(texts)
    rows = pl.Series(found.column("row"))
    # Rows are sorted: row i's links are [offsets[i], offsets[i + 1]).
    bounds = pl.int_range(0, len(texts) + 1, dtype=pl.Int64, eager=True)
    offsets = rows.search_sorted(bounds, side="left").cast(pl.Int64).to_arrow()
    links = pa.StructArray.from_arrays([found.column(name) for name in _FIELDS], names=_FIELDS)
    lists = pa.LargeListArray.from_arrays(offsets, links, mask=texts.is_null())
    return pl.Series(series.name, lists, dtype=LINK_DTYPE)


def _redacted(series: pl.Series, finder: LinkFinder, replace: str, hash_key: str) -> pl.Series:
    """Each row redacted (null rows null)."""
    out = finder.redact_arrow(series.to_arrow(), replace=replace, hash_key=hash_key)
    return pl.Series(series.name, out, dtype=pl.String)


@pl.api.register_expr_namespace("linkscan")
class LinkscanExpr:
    """``expr.linkscan``: links of a ``String`` expression, found or replaced."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def find(self, **finder_options: Any) -> pl.Expr:
        """Each row's links, in order: a ``list[struct[start, end, kind, text]]`` with
        code-point offsets, as ``linkscan.find`` gives them; a null row gives null."""
        finder = LinkFinder(**finder_options)
        return self._expr.map_batches(
            lambda s: _links(s, finder), return_dtype=LINK_DTYPE, is_elementwise=True
        )

    def redact(self, *, replace: str = "<{kind}>", hash_key: str = "", **finder_options: Any) -> pl.Expr:
        """Each row with its links replaced, as ``linkscan.redact`` does (``replace``:
        ``{kind}``, ``{host}``, ``{hash}`` keyed by ``hash_key``); a null row gives null."""
        finder = LinkFinder(**finder_options)
        finder.redact("", replace=replace, hash_key=hash_key)  # a bad template fails here
        return self._expr.map_batches(
            lambda s: _redacted(s, finder, replace, hash_key), return_dtype=pl.String, is_elementwise=True
        )
