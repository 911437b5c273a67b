"""Find URLs and email addresses in plain text exactly as Unicode UTS #58 specifies.

The API follows Python's ``re``::

    >>> import linkscan
    >>> [l.text for l in linkscan.find("Voir exemple.fr/été ou écrire à zoë@exemple.fr.")]
    ['exemple.fr/été', 'zoë@exemple.fr']

For a ``str``, ``Link.start`` and ``Link.end`` are code-point offsets, so
``text[link.start:link.end] == link.text``. ``find_bytes`` takes bytes (which need not be
valid UTF-8) and gives byte offsets. ``find_arrow`` scans an Arrow string array in one call
and returns a ``pyarrow.RecordBatch`` of the links (``linkscan.spark`` builds on it), and
``linkscan.mail.scan_mbox`` reads mail archives. ``redact`` replaces each link of a text
(``<URL>``, ``<EMAIL>`` or a template with ``{kind}``, ``{host}`` and a keyed ``{hash}``,
as ``linkscan redact``), ``redact_arrow`` every row of an Arrow string array, and
``import linkscan.polars`` adds ``pl.col(...).linkscan.find()`` and ``.redact()``. Scans
release the GIL.

``find``, ``finditer``, ``count``, ``find_bytes`` and ``find_arrow`` report every link the
standard detects (the ``"conformant"`` policy), as ``linkscan find`` does. ``linkify``
writes HTML for people and, as ``linkscan linkify`` does, uses the ``"readable"`` policy
unless told otherwise: file and code names such as ``README.md`` or ``Proc.new`` are not
linked::

    >>> linkscan.linkify("see README.md")
    'see README.md'
    >>> linkscan.linkify("see README.md", policy="conformant")
    'see <bdi dir="ltr"><a href="https://README.md">README.md</a></bdi>'

A ``LinkFinder`` holds other options (kinds, TLD list, policy, length limit); its methods
are those of the module.
"""

# No `from __future__ import annotations` and no public `typing` names: the module's
# namespace holds its API (`__all__`) and nothing else.
import collections.abc as _abc
import typing as _typing

from ._linkscan import (
    DEFAULT_MAX_LINK_LEN,
    TLD_LIST_VERSION,
    UNICODE_VERSION,
    Link,
    LinkFinder,
    __version__,
    check,
    display,
    escape_url,
)

if _typing.TYPE_CHECKING:  # pragma: no cover
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
    "redact",
    "redact_arrow",
]

# The finders of the module-level functions: the library's defaults, and the same with
# the readable policy for `linkify`.
_CONFORMANT = LinkFinder()
_READABLE = LinkFinder(policy="readable")


def find(text: str) -> list[Link]:
    """The links of ``text`` (URLs and emails, IANA TLDs), in order, without overlap.

    Offsets are code points: ``text[link.start:link.end] == link.text``. Every link the
    standard detects is reported (the conformant policy); ``LinkFinder(policy="readable")``
    leaves out code and file names.
    """
    return _CONFORMANT.find(text)


def finditer(text: str) -> _abc.Iterator[Link]:
    """An iterator over the links of ``text``, as ``find`` gives them (the scan runs once,
    at the call)."""
    return _CONFORMANT.finditer(text)


def count(text: str) -> int:
    """The number of links in ``text``, as ``find`` would give them, without building
    them."""
    return _CONFORMANT.count(text)


def find_bytes(data: bytes | bytearray) -> list[Link]:
    """The links of ``data``, which need not be valid UTF-8; offsets are bytes:
    ``data[link.start:link.end]`` is the link, UTF-8 encoded."""
    return _CONFORMANT.find_bytes(data)


def linkify(text: str, *, policy: _typing.Literal["readable", "conformant"] = "readable") -> str:
    """``text`` as HTML, escaped, with each link in an ``<a href>`` (``https://`` before a
    URL written without a scheme, ``mailto:`` before an email).

    ``policy``: ``"readable"`` (the default, as for ``linkscan linkify``: what a reader
    would link; file and code names such as ``README.md`` or ``Proc.new`` stay text) or
    ``"conformant"`` (every link UTS #58 detects).
    """
    if policy == "readable":
        finder = _READABLE
    elif policy == "conformant":
        finder = _CONFORMANT
    else:
        finder = LinkFinder(policy=policy)  # raises the ValueError that names the choices
    return finder.linkify(text)


def find_arrow(array: object) -> "pyarrow.RecordBatch":
    """The links of every row of an Arrow string array, as one ``pyarrow.RecordBatch``.

    ``array``: a pyarrow ``Array`` or ``ChunkedArray`` of ``string``, ``large_string`` or
    ``string_view`` (or any object with ``__arrow_c_array__``). Columns of the result:
    ``row`` (index of the row), ``start``, ``end`` (code points), ``byte_start``,
    ``byte_end`` (UTF-8 bytes), ``kind`` (``"url"``/``"email"``) and ``text``. Needs
    pyarrow (``pip install 'linkscan[arrow]'``).
    """
    return _CONFORMANT.find_arrow(array)


def _finder_of(options: dict) -> LinkFinder:
    """The module's conformant finder, or one of ``LinkFinder``'s keyword ``options``."""
    return LinkFinder(**options) if options else _CONFORMANT


def redact(text: str, *, replace: str = "<{kind}>", hash_key: str = "", **finder_options: _typing.Any) -> str:
    """``text`` with each link replaced by ``replace`` and every other character kept, as
    ``linkscan redact`` writes it.

    ``replace``: a template with ``{kind}`` (``URL``/``EMAIL``), ``{host}`` (a URL's host,
    an email's domain) and ``{hash}`` (32 hex digits: SipHash-2-4-128 of the link's text
    keyed by ``hash_key``, the command's ``--hash-key``: the same digits for the same key);
    ``{{`` and ``}}`` write braces. ``finder_options`` are ``LinkFinder``'s (``urls``,
    ``emails``, ``tld_policy``, ``max_link_len``, ``policy``, ``public_suffix_hosts``);
    without them every link the standard detects is replaced.
    """
    return _finder_of(finder_options).redact(text, replace=replace, hash_key=hash_key)


def redact_arrow(
    array: object, *, replace: str = "<{kind}>", hash_key: str = "", **finder_options: _typing.Any
) -> "pyarrow.Array":
    """Every row of an Arrow string array redacted as ``redact`` does, in one call.

    ``array`` is what ``find_arrow`` takes; the result is a ``pyarrow`` string array of the
    same length (``large_string`` for a ``large_string`` input, else ``string``), null rows
    kept null. Needs pyarrow (``pip install 'linkscan[arrow]'``).
    """
    return _finder_of(finder_options).redact_arrow(array, replace=replace, hash_key=hash_key)
