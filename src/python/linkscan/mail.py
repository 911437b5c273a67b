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
"""

from ._linkscan import MboxScan, Message, scan_mbox

__all__ = ["MboxScan", "Message", "scan_mbox"]
