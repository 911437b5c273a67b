"""The whole corpora through Python: code-point offsets slice out every link, and the
links equal those of the command-line tool."""

from __future__ import annotations

import linkscan


def check_offsets(text: str) -> int:
    links = linkscan.find(text)
    assert links, "no links found"
    for link in links:
        assert text[link.start : link.end] == link.text, link
    assert linkscan.count(text) == len(links)
    return len(links)


def test_intl_corpus_offsets_and_links_equal_the_command_line(intl_bytes, cli_links):
    text = intl_bytes.decode("utf-8")
    links = linkscan.find(text)
    for link in links:
        assert text[link.start : link.end] == link.text, link
    assert len(links) == len(cli_links)
    # The command line gives byte offsets; so does find_bytes on the same bytes.
    from_bytes = linkscan.find_bytes(intl_bytes)
    assert [(l.start, l.end, l.kind, l.text) for l in from_bytes] == [
        (c["start"], c["end"], c["kind"], c["text"]) for c in cli_links
    ]
    assert [l.text for l in links] == [c["text"] for c in cli_links]


def test_english_mbox_offsets(shared_dir):
    # The mbox holds bytes that are not UTF-8: as a str they become U+FFFD, a Hard
    # character like the invalid byte itself, so the links are those of the bytes.
    data = (shared_dir / "corpus" / "email-en.mbox").read_bytes()
    text = data.decode("utf-8", errors="replace")
    assert check_offsets(text) > 10_000
    assert [l.text for l in linkscan.find(text)] == [l.text for l in linkscan.find_bytes(data)]
