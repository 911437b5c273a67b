"""Every line of the official LinkDetectionTest.txt, through Python, with code-point
offsets: marking the links found with ⸠…⸡ must give the line back."""

from __future__ import annotations

from pathlib import Path

import linkscan

OPEN, CLOSE = "\u2e20", "\u2e21"


def cases(shared_dir: Path, version: str) -> list[tuple[int, str]]:
    text = (shared_dir / "unicode" / version / "LinkDetectionTest.txt").read_text("utf-8")
    # Lines as the Rust parser takes them: split at \n only, never at U+2028 and the like.
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    return [
        (n + 1, line)
        for n, line in enumerate(lines)
        if line.strip() and not line.startswith("#")
    ]


def mark(text: str, links: list[linkscan.Link]) -> str:
    out, at = [], 0
    for link in links:
        assert text[link.start : link.end] == link.text
        out += [text[at : link.start], OPEN, link.text, CLOSE]
        at = link.end
    out.append(text[at:])
    return "".join(out)


def failures(shared_dir: Path, version: str, finder: linkscan.LinkFinder) -> tuple[int, list[str]]:
    all_cases = cases(shared_dir, version)
    failed = []
    for line_no, expected in all_cases:
        given = expected.replace(OPEN, "").replace(CLOSE, "")
        actual = mark(given, finder.find(given))
        if actual != expected:
            failed.append(f"line {line_no}: expected {expected!r}, got {actual!r}")
    return len(all_cases), failed


def test_every_line_of_the_17_0_test_file(shared_dir):
    count, failed = failures(shared_dir, "17.0.0", linkscan.LinkFinder())
    assert count == 344
    assert failed == []


def test_every_line_through_bytes_and_arrow(shared_dir):
    import pyarrow as pa

    all_cases = cases(shared_dir, "17.0.0")
    inputs = [e.replace(OPEN, "").replace(CLOSE, "") for _, e in all_cases]
    batch = linkscan.find_arrow(pa.array(inputs))
    by_row: dict[int, list[tuple[int, int, str]]] = {}
    for row, start, end, b0, b1, text in zip(
        *(batch.column(c).to_pylist() for c in ["row", "start", "end", "byte_start", "byte_end", "text"])
    ):
        by_row.setdefault(row, []).append((start, end, text))
        assert inputs[row].encode()[b0:b1].decode() == text
    for i, (line_no, expected) in enumerate(all_cases):
        from_bytes = [(l.start, l.end) for l in linkscan.find_bytes(inputs[i].encode())]
        from_str = linkscan.find(inputs[i])
        assert [(l.text) for l in from_str] == [t for _, _, t in by_row.get(i, [])], line_no
        assert [(l.start, l.end) for l in from_str] == [(s, e) for s, e, _ in by_row.get(i, [])]
        encoded = inputs[i].encode()
        assert [encoded[s:e].decode() for s, e in from_bytes] == [l.text for l in from_str]


def test_every_line_of_the_18_draft(shared_dir):
    count, failed = failures(shared_dir, "18.0.0-draft", linkscan.LinkFinder())
    assert count > 300
    assert failed == []


def test_public_suffixes_are_not_links():
    # Spec section 1.4: a host that is itself a public suffix (the list's ICANN section)
    # is not a registrable domain and is not linked, by every entry point; the readable
    # policy also leaves out the private section's (github.io) without a scheme.
    text = "see co.uk and github.io, but bbc.co.uk and user.github.io; https://gov.uk/ a@co.uk"
    assert [l.text for l in linkscan.find(text)] == ["github.io", "bbc.co.uk", "user.github.io", "a@co.uk"]
    assert linkscan.LinkFinder().count(text) == 4
    assert [text.encode()[l.start : l.end].decode() for l in linkscan.find_bytes(text.encode())] == [
        "github.io",
        "bbc.co.uk",
        "user.github.io",
        "a@co.uk",
    ]
    readable = linkscan.LinkFinder(policy="readable")
    assert [l.text for l in readable.find(text)] == ["bbc.co.uk", "user.github.io", "a@co.uk"]
    syntactic = linkscan.LinkFinder(tld_policy="syntactic")
    assert [l.text for l in syntactic.find("co.uk 公司.cn x.公司.cn")] == ["x.公司.cn"]


def test_public_suffix_hosts_is_the_way_back():
    # LinkFinderBuilder::public_suffix_hosts(true): every host the scan detects, not
    # conformant; the readable policy still drops the private section's without a scheme.
    text = "see co.uk and github.io, but bbc.co.uk and user.github.io; https://gov.uk/ a@co.uk"
    every = linkscan.LinkFinder(public_suffix_hosts=True)
    assert [l.text for l in every.find(text)] == [
        "co.uk",
        "github.io",
        "bbc.co.uk",
        "user.github.io",
        "https://gov.uk/",
        "a@co.uk",
    ]
    assert every.count(text) == 6
    assert "public_suffix_hosts=True" in repr(every)
    assert "public_suffix_hosts" not in repr(linkscan.LinkFinder())
    readable = linkscan.LinkFinder(policy="readable", public_suffix_hosts=True)
    assert [l.text for l in readable.find(text)] == ["bbc.co.uk", "user.github.io", "https://gov.uk/", "a@co.uk"]
