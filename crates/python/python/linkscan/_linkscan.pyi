"""Type stubs of the compiled module ``linkscan._linkscan`` (re-exported by ``linkscan``)."""

import os
from pathlib import Path
from typing import Iterable, Iterator, Literal, Sequence, final

import pyarrow

__version__: str
DEFAULT_MAX_LINK_LEN: int
TLD_LIST_VERSION: str
UNICODE_VERSION: str

@final
class Link:
    """A link found in a text. Immutable, hashable; equal when all fields are equal."""

    @property
    def start(self) -> int:
        """Offset of the first character: code points for a ``str``, bytes for ``find_bytes``."""
    @property
    def end(self) -> int:
        """Offset just past the link, in the unit of ``start``."""
    @property
    def kind(self) -> Literal["url", "email"]: ...
    @property
    def text(self) -> str:
        """The link as written."""
    @property
    def has_scheme(self) -> bool:
        """Whether the text spelled ``http://``, ``https://`` or ``mailto:``."""
    @property
    def href(self) -> str:
        """The target: the text, after ``https://`` or ``mailto:`` when it has no scheme."""

@final
class LinkFinder:
    """Finds URLs and email addresses as Unicode UTS #58 specifies.

    ``tld_policy``: ``"iana"`` (the built-in IANA list), ``"syntactic"`` (any label that
    could be a TLD) or an iterable of TLDs. ``max_link_len``: the longest link reported, in
    UTF-8 bytes; ``None`` for no limit. ``policy``: ``"conformant"`` (every link the
    standard detects) or ``"readable"`` (section 8 rules that leave out code and file names).
    ``public_suffix_hosts``: also report URLs whose host is itself a public suffix
    (``co.uk``), which section 1.4 says must not be linked (not conformant).
    """

    def __init__(
        self,
        *,
        urls: bool = True,
        emails: bool = True,
        tld_policy: Literal["iana", "syntactic"] | Iterable[str] = "iana",
        max_link_len: int | None = 65536,
        policy: Literal["conformant", "readable"] = "conformant",
        public_suffix_hosts: bool = False,
    ) -> None: ...
    def find(self, text: str) -> list[Link]: ...
    def finditer(self, text: str) -> Iterator[Link]: ...
    def count(self, text: str) -> int: ...
    def find_bytes(self, data: bytes | bytearray) -> list[Link]: ...
    def linkify(self, text: str) -> str:
        """``text`` as HTML with the links of this finder's policy in ``<a href>``."""
    def find_arrow(self, array: object) -> pyarrow.RecordBatch: ...
    def redact(self, text: str, *, replace: str = "<{kind}>", hash_key: str = "") -> str:
        """``text`` with each link replaced by the template ``replace`` (``{kind}``,
        ``{host}``, ``{hash}`` keyed by ``hash_key``), every other character kept."""
    def redact_arrow(
        self, array: object, *, replace: str = "<{kind}>", hash_key: str = ""
    ) -> pyarrow.Array:
        """Every row of an Arrow string array redacted; null rows kept null."""

@final
class ArrowLinks:
    """The links of ``find_arrow`` before pyarrow imports them (Arrow PyCapsule protocol)."""

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...
    def __len__(self) -> int: ...

@final
class ArrowStrings:
    """The rows of ``redact_arrow`` before pyarrow imports them (Arrow PyCapsule protocol)."""

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...
    def __len__(self) -> int: ...

@final
class Message:
    """One message of an mbox archive and its links."""

    @property
    def file(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def offset(self) -> int | None:
        """Where its ``From `` line is in the archive (``None`` from ``scan_archive``)."""
    @property
    def path(self) -> Path | None:
        """A Maildir message's file (``scan_archive``)."""
    @property
    def message_id(self) -> str | None: ...
    @property
    def from_(self) -> str | None: ...
    @property
    def date(self) -> str | None: ...
    @property
    def subject(self) -> str | None: ...
    @property
    def links(self) -> list[dict[str, object]]:
        """Dicts with the fields of ``linkscan find --mbox`` JSON lines."""
    @property
    def warnings(self) -> list[str]: ...

@final
class MboxScan(Iterator[Message]):
    def __iter__(self) -> MboxScan: ...
    def __next__(self) -> Message: ...

@final
class ArchiveScan(Iterator[Message]):
    def __iter__(self) -> ArchiveScan: ...
    def __next__(self) -> Message: ...

def escape_url(url: str) -> str:
    """``url`` with the minimal percent-escaping of UTS #58 section 4."""

def display(link: str | Link, *, bidi: bool = False) -> str:
    """The form of ``link`` to show people: minimally escaped, the host in Unicode unless
    spoofable, Bidi_Control characters escaped; ``bidi=True`` isolates it left to right."""

def check(link: str | Link, *, before: str = "", after: str = "") -> list[str]:
    """The names of the security checks ``link`` fails (``tld_syntax``,
    ``identifier_status``, ``bidi_control``, ``spoof``, ``invisible``); empty when it passes.
    ``before`` and ``after`` are the text around it (an invisible character right beside
    the link counts)."""

def scan_mbox(
    source: str | os.PathLike[str] | bytes | bytearray, finder: LinkFinder | None = None
) -> MboxScan: ...

def scan_archive(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    finder: LinkFinder | None = None,
    *,
    maildir: bool = False,
    max_message_size: int | None = None,
) -> ArchiveScan:
    """The messages of mbox archives (or Maildir folders), scanned in parallel on all
    cores as ``linkscan find --mbox`` does, in archive order."""

def build_archive(
    source: str | os.PathLike[str] | bytes | bytearray,
    out: str | os.PathLike[str],
    *,
    finder: LinkFinder | None = None,
    addresses: Literal["show", "obfuscate"] = "show",
    checks: bool = False,
    update: bool = False,
    attachments: Literal["inline", "link", "none"] = "inline",
    attachment_limit: int = 10485760,
    search: bool = False,
) -> dict[str, int | bool | str]:
    """Writes the HTML archive of an mbox into the folder ``out``, as
    ``linkscan linkify --mbox SOURCE --out OUT`` does; returns ``messages``, ``pages``,
    ``written``, ``removed`` (pages of an earlier archive there that this one does not
    have) and ``updated``. With ``update=True`` and a path, as ``--update``: only the
    messages appended since the last build are read and only the pages they change
    written; when that cannot be done the archive is built whole, and ``rebuilt`` says
    why. With ``search=True``, as ``--search``: searchable in the browser
    (``search.html``), indexed by Pagefind (``pip install 'pagefind[bin]'``), found
    before anything is written (``PAGEFIND``, ``pagefind`` on the ``PATH``, else
    ``python -m pagefind`` of this interpreter), else ``FileNotFoundError``."""
