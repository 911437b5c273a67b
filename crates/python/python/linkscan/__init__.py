"""Find URLs and email addresses in plain text exactly as Unicode UTS #58 specifies.

The API follows Python's ``re``::

    >>> import linkscan
    >>> [l.text for l in linkscan.find("Voir exemple.fr/été ou écrire à zoë@exemple.fr.")]
    ['exemple.fr/été', 'zoë@exemple.fr']

For a ``str``, ``Link.start`` and ``Link.end`` are code-point offsets, so
``text[link.start:link.end] == link.text``. ``find_bytes`` takes bytes (which need not be
valid UTF-8) and gives byte offsets. ``find_arrow`` scans an Arrow string array in one call
and returns a ``pyarrow.RecordBatch`` of the links (``linkscan.spark`` builds on it), and
``linkscan.mail.scan_mbox`` reads mail archives. Scans release the GIL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ._linkscan import (
    DEFAULT_MAX_LINK_LEN,
    TLD_LIST_VERSION,
    UNICODE_VERSION,
    Link,
    LinkFinder,
    check,
    display,
    escape_url,
)

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

__all__ = [
    "DEFAULT_MAX_LINK_LEN",
    "TLD_LIST_VERSION",
    "UNICODE_VERSION",
    "Link",
    "LinkFinder",
    "check",
    "count",
    "display",
    "escape_url",
    "find",
    "find_arrow",
    "find_bytes",
    "finditer",
    "linkify",
]

_DEFAULT = LinkFinder()


def find(text: str) -> list[Link]:
    """The links of ``text`` (URLs and emails, IANA TLDs), in order, without overlap.

    Offsets are code points: ``text[link.start:link.end] == link.text``.
    """
    return _DEFAULT.find(text)


def finditer(text: str) -> Iterator[Link]:
    """An iterator over the links of ``text`` (the scan runs once, at the call)."""
    return _DEFAULT.finditer(text)


def count(text: str) -> int:
    """The number of links in ``text``, without building them."""
    return _DEFAULT.count(text)


def find_bytes(data: bytes | bytearray) -> list[Link]:
    """The links of ``data``, which need not be valid UTF-8; offsets are bytes."""
    return _DEFAULT.find_bytes(data)


def linkify(text: str) -> str:
    """``text`` as HTML, escaped, with each link in an ``<a href>``."""
    return _DEFAULT.linkify(text)


def find_arrow(array: object) -> "pyarrow.RecordBatch":
    """The links of every row of an Arrow string array, as one ``pyarrow.RecordBatch``.

    ``array``: a pyarrow ``Array`` or ``ChunkedArray`` of ``string``, ``large_string`` or
    ``string_view`` (or any object with ``__arrow_c_array__``). Columns of the result:
    ``row`` (index of the row), ``start``, ``end`` (code points), ``byte_start``,
    ``byte_end`` (UTF-8 bytes), ``kind`` (``"url"``/``"email"``) and ``text``.
    """
    return _DEFAULT.find_arrow(array)
