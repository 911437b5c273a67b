"""``redact`` and ``redact_arrow``: every script of the official test file, the text
rebuilt from the redacted text and the links taken out, the keyed ``{hash}`` equal to the
command line's, Arrow nulls and types kept."""

from __future__ import annotations

import subprocess

import pytest

import linkscan
from test_conformance import CLOSE, OPEN, cases

# A replacement that occurs in no input line: the redacted text splits at it.
MARK = "\ue000"


def inputs(shared_dir) -> list[str]:
    lines = []
    for version in ("17.0.0", "18.0.0-draft"):
        lines += [e.replace(OPEN, "").replace(CLOSE, "") for _, e in cases(shared_dir, version)]
    assert all(MARK not in line for line in lines)
    return lines


def expected(text: str, links: list[linkscan.Link], replace) -> str:
    """``text`` with each link replaced by ``replace(link)``, built from ``find``."""
    out, at = [], 0
    for link in links:
        out += [text[at : link.start], replace(link)]
        at = link.end
    return "".join(out + [text[at:]])


def test_every_line_of_the_test_files_is_redacted_as_find_marks_it(shared_dir):
    lines = inputs(shared_dir)
    redacted_some = 0
    for line in lines:
        links = linkscan.find(line)
        got = linkscan.redact(line)
        assert got == expected(line, links, lambda l: f"<{l.kind.upper()}>"), line
        redacted_some += got != line
    assert redacted_some > 300


def test_the_redacted_text_and_the_links_rebuild_the_input(shared_dir):
    """Cut the redacted text at the replacements and put the links back: the input, for
    every line of every script (nothing outside a link is changed, dropped or moved)."""
    for line in inputs(shared_dir):
        links = linkscan.find(line)
        pieces = linkscan.redact(line, replace=MARK).split(MARK)
        assert len(pieces) == len(links) + 1, line
        rebuilt = pieces[0] + "".join(l.text + piece for l, piece in zip(links, pieces[1:]))
        assert rebuilt == line


def test_placeholders_and_options():
    text = "Voir https://ja.wikipedia.org/wiki/東京都。 Écrire à σωκράτης@example.gr, README.md."
    assert linkscan.redact(text) == "Voir <URL>。 Écrire à <EMAIL>, <URL>."
    assert linkscan.redact(text, policy="readable") == "Voir <URL>。 Écrire à <EMAIL>, README.md."
    assert (
        linkscan.redact(text, replace="[{kind} {host}]", emails=False)
        == "Voir [URL ja.wikipedia.org]。 Écrire à σωκράτης@example.gr, [URL README.md]."
    )
    assert linkscan.redact(text, replace="{{{kind}}}", urls=False) == (
        "Voir https://ja.wikipedia.org/wiki/東京都。 Écrire à {EMAIL}, README.md."
    )
    finder = linkscan.LinkFinder(tld_policy=["gr"])
    assert finder.redact(text, replace="") == "Voir https://ja.wikipedia.org/wiki/東京都。 Écrire à , README.md."
    assert linkscan.redact("no link here") == "no link here"
    assert linkscan.redact("") == ""
    for bad in ["{name}", "{", "}", "a{kind", "{KIND}"]:
        with pytest.raises(ValueError, match="replace"):
            linkscan.redact(text, replace=bad)
    with pytest.raises(ValueError, match="policy"):
        linkscan.redact(text, policy="lenient")
    with pytest.raises(TypeError):
        linkscan.redact(text, "<x>")


def test_the_hash_is_keyed_and_stable():
    text = "write to σωκράτης@example.gr or x@example.org"
    once = linkscan.redact(text, replace="{hash}", hash_key="k1")
    hashes = once.split()[2::2]
    assert len(hashes) == 2 and all(len(h) == 32 and int(h, 16) >= 0 for h in hashes)
    assert hashes[0] != hashes[1]
    assert linkscan.redact(text, replace="{hash}", hash_key="k1") == once
    assert linkscan.LinkFinder().redact(text, replace="{hash}", hash_key="k1") == once
    assert linkscan.redact(text, replace="{hash}", hash_key="k2") != once
    assert linkscan.redact(text, replace="{hash}") != once
    # The same link has the same hash wherever it is.
    again = linkscan.redact("x@example.org", replace="{hash}", hash_key="k1")
    assert again == hashes[1]


def test_the_hash_equals_the_command_lines(linkscan_bin):
    text = "Voir https://ja.wikipedia.org/wiki/東京都。 σωκράτης@example.gr x.com/𝄞 مثال.مصر\n"
    for key in ["", "k", "secret key ünïcode"]:
        args = ["redact", "--replace", "<{kind}|{host}|{hash}>", "--hash-key", key, "-"]
        out = subprocess.run(
            [str(linkscan_bin), *args], input=text.encode(), capture_output=True, check=True
        ).stdout.decode()
        assert out == linkscan.redact(text, replace="<{kind}|{host}|{hash}>", hash_key=key), key
        assert out.count("|") == 8


def test_redact_arrow_equals_the_command_line_on_the_corpus(linkscan_bin, intl_path, intl_bytes):
    """The whole of email-intl.txt: the command's output, and ``redact_arrow`` on its
    lines joined by ``\\n``."""
    import pyarrow as pa

    template, key = "<{kind} {host} {hash}>", "corpus key"
    out = subprocess.run(
        [str(linkscan_bin), "redact", "--replace", template, "--hash-key", key, str(intl_path)],
        capture_output=True,
        check=True,
    ).stdout
    lines = intl_bytes.decode().split("\n")
    redacted = linkscan.redact_arrow(pa.array(lines), replace=template, hash_key=key)
    assert "\n".join(redacted.to_pylist()).encode() == out
    assert out.count(b"<URL ") + out.count(b"<EMAIL ") > 40_000


def test_redact_arrow_keeps_nulls_types_and_rows(shared_dir):
    import pyarrow as pa

    lines = inputs(shared_dir)
    rows = [None, "", *lines[:50], None, *lines[50:]]
    want = [None if r is None else linkscan.redact(r, replace="<{kind} {host}>") for r in rows]
    for kind, out_type in [
        (pa.string(), pa.string()),
        (pa.large_string(), pa.large_string()),
        (pa.string_view(), pa.string()),
    ]:
        got = linkscan.redact_arrow(pa.array(rows, kind), replace="<{kind} {host}>")
        assert got.type == out_type
        assert got.null_count == 2
        assert got.to_pylist() == want
    chunked = pa.chunked_array([rows[:7], rows[7:8], [], rows[8:]])
    got = linkscan.LinkFinder().redact_arrow(chunked, replace="<{kind} {host}>")
    assert got.to_pylist() == want
    # Sliced arrays read from their offset.
    assert linkscan.redact_arrow(pa.array(rows)[3:9]).to_pylist() == [
        linkscan.redact(r) if r is not None else None for r in rows[3:9]
    ]
    empty = linkscan.redact_arrow(pa.array([], pa.string()))
    assert len(empty) == 0 and empty.type == pa.string()


def test_redact_arrow_errors():
    import pyarrow as pa

    with pytest.raises(TypeError, match="redact_arrow needs a string array"):
        linkscan.redact_arrow(pa.array([1, 2]))
    with pytest.raises(TypeError, match="redact_arrow needs an Arrow string array"):
        linkscan.redact_arrow(["a list"])
    with pytest.raises(ValueError, match="unknown placeholder"):
        linkscan.redact_arrow(pa.array(["x.com"]), replace="{url}")
