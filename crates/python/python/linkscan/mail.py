"""Mail archives: the links of each message of an mbox (plain or gzip).

    >>> from linkscan.mail import scan_mbox
    >>> for message in scan_mbox("list.mbox.gz"):  # doctest: +SKIP
    ...     for link in message.links:
    ...         print(link["message"], link["part"], link["text"])

``scan_mbox(source, finder=None)`` takes a path or the archive's bytes and yields one
``Message`` per message (``index`` from 1, ``message_id``, ``from_``, ``date``, ``subject``,
``warnings``, ``links``). Each link is a dict with the fields of the JSON lines of
``linkscan find --mbox``: ``file``, ``message``, ``message_id``, ``part``,
``content_type``, ``source`` (``"text"`` or ``"href"``), ``start``, ``end`` (byte offsets
in the part's decoded text), ``kind``, ``text``, ``href``. The archive is read lazily, one
message at a time, with the GIL released.

``scan_archive(paths, finder=None, *, maildir=False, max_message_size=None)`` gives the
same messages from mbox files (or, with ``maildir=True``, Maildir folders), scanned in
parallel on all cores as ``linkscan find --mbox`` does and given in archive order, a
bounded number of them ahead; ``offset`` is then ``None``, and ``path`` is a Maildir
message's file.

``build_archive(source, out, *, finder=None, addresses="show", checks=False,
update=False, attachments="inline", attachment_limit=10485760)`` writes the HTML archive of the same archive into the folder ``out``, as
``linkscan linkify --mbox SOURCE --out OUT`` does (a page per message, thread and month,
and ``index.html``); ``addresses="obfuscate"`` writes addresses as ``name at example dot
com``, with no ``mailto:`` anywhere. ``update=True`` (a path only), as ``--update``, adds
the messages appended to the file since the last build and writes only the pages they
change, or builds the archive whole and says why in ``rebuilt``. ``attachments``
(``"inline"``, ``"link"`` or ``"none"``) and ``attachment_limit`` (bytes per message)
are ``--attachments`` and ``--attachment-limit``.
"""

from ._linkscan import ArchiveScan, MboxScan, Message, build_archive, scan_archive, scan_mbox

__all__ = ["ArchiveScan", "MboxScan", "Message", "build_archive", "scan_archive", "scan_mbox"]
