"""linkscan.mail.scan_mbox against `linkscan find --mbox` on the same archive."""

from __future__ import annotations

import gzip
import json
import subprocess

import pytest

from linkscan import LinkFinder
from linkscan.mail import Message, scan_mbox


def cli(linkscan_bin, *args):
    out = subprocess.run(
        [str(linkscan_bin), "find", "--format", "jsonl", "--no-progress", *args], check=True, capture_output=True
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def test_links_equal_the_command_lines_json_lines(archive, linkscan_bin):
    expected = cli(linkscan_bin, "--mbox", str(archive))
    messages = list(scan_mbox(str(archive)))
    assert all(isinstance(m, Message) for m in messages)
    assert [m.index for m in messages] == list(range(1, len(messages) + 1))
    assert len(messages) > 300
    got = [link for m in messages for link in m.links]
    assert len(got) > 1000
    assert got == expected


def test_bytes_gzip_and_pathlike_give_the_same(archive, linkscan_bin):
    from_path = [link for m in scan_mbox(archive) for link in m.links]
    raw = archive.read_bytes()
    from_bytes = [link for m in scan_mbox(raw) for link in m.links]
    from_gzip = [link for m in scan_mbox(gzip.compress(raw)) for link in m.links]
    assert from_bytes == from_gzip
    assert all(link["file"] == "-" for link in from_bytes)
    strip = lambda links: [{k: v for k, v in l.items() if k != "file"} for l in links]
    assert strip(from_bytes) == strip(from_path)


def test_message_fields_and_finder():
    archive = (
        b"From a@example.com Mon Jan  1 00:00:00 2024\n"
        b"Message-ID: <m1@example.com>\nFrom: Ann <ann@example.com>\n"
        b"Subject: =?utf-8?q?see_x=2Ecom?=\nContent-Type: text/plain; charset=utf-8\n"
        b"Content-Transfer-Encoding: quoted-printable\n\n"
        b"https://example.com/very/long/pa=\nth and me@example.org\n"
    )
    (message,) = list(scan_mbox(archive))
    assert (message.index, message.offset, message.message_id) == (1, 0, "m1@example.com")
    assert message.from_ == "Ann <ann@example.com>"
    assert message.subject == "see x.com"
    assert [(l["part"], l["text"], l["href"]) for l in message.links] == [
        ("subject", "x.com", "https://x.com"),
        ("1", "https://example.com/very/long/path", "https://example.com/very/long/path"),
        ("1", "me@example.org", "mailto:me@example.org"),
    ]
    (urls_only,) = list(scan_mbox(archive, finder=LinkFinder(emails=False)))
    assert [l["kind"] for l in urls_only.links] == ["url", "url"]


def test_errors():
    with pytest.raises(FileNotFoundError):
        scan_mbox("/nonexistent/archive.mbox")
    with pytest.raises(TypeError):
        scan_mbox(42)
    # A truncated gzip stream: the read error is raised, not swallowed.
    broken = gzip.compress(b"From a Mon Jan  1 00:00:00 2024\nSubject: x\n\nbody x.com\n" * 50)[:-20]
    with pytest.raises(OSError):
        list(scan_mbox(broken))


def flowed_archive(flowed: bool) -> bytes:
    """Messages with format=flowed parts (DelSp yes and no, quoted, space-stuffed), or the
    same texts sent fixed."""

    def message(n, params, flowed_body, fixed_body):
        ct = f"text/plain; charset=utf-8; {params}" if flowed else "text/plain; charset=utf-8"
        body = flowed_body if flowed else fixed_body
        return (
            f"From a@example.com Mon Jan  1 00:00:0{n} 2024\r\nMessage-ID: <f{n}@example.com>\r\n"
            f"Subject: flowed {n}\r\nContent-Type: {ct}\r\n\r\n{body}"
        )

    return "".join(
        [
            message(
                1,
                "format=flowed; delsp=yes",
                "The report: https://example.com/reports/annual-re \r\nport.pdf and  \r\nftp.example.org/da \r\nta.csv\r\n",
                "The report: https://example.com/reports/annual-report.pdf and ftp.example.org/data.csv\r\n",
            ),
            message(
                2,
                "format=flowed",
                "Write to help@example.org or see \r\nhttps://example.net/faq today.\r\n >not a quote: www.example.org\r\n",
                "Write to help@example.org or see https://example.net/faq today.\r\n >not a quote: www.example.org\r\n",
            ),
            message(
                3,
                "format=flowed; delsp=yes",
                "Ann wrote:\r\n>see https://old.example.com/a \r\n>/b\r\n>>and x@exam \r\n>>ple.com\r\n",
                "Ann wrote:\r\n> see https://old.example.com/a/b\r\n>> and x@example.com\r\n",
            ),
        ]
    ).encode()


def test_flowed_parts_give_the_links_of_the_same_text_sent_fixed(tmp_path, linkscan_bin):
    flowed = [link for m in scan_mbox(flowed_archive(True)) for link in m.links]
    fixed = [link for m in scan_mbox(flowed_archive(False)) for link in m.links]
    assert flowed == fixed
    assert [l["text"] for l in flowed] == [
        "https://example.com/reports/annual-report.pdf",
        "ftp.example.org/data.csv",
        "help@example.org",
        "https://example.net/faq",
        "www.example.org",
        "https://old.example.com/a/b",
        "x@example.com",
    ]
    # The same through the command line.
    path = tmp_path / "flowed.mbox"
    path.write_bytes(flowed_archive(True))
    strip = lambda links: [{k: v for k, v in l.items() if k != "file"} for l in links]
    assert strip(cli(linkscan_bin, "--mbox", str(path))) == strip(flowed)


def files_of(folder):
    """Every file under `folder` (pages, downloads, attachments under `a/`), as paths
    relative to it, sorted."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_build_archive_equals_the_command_line(archive, linkscan_bin, tmp_path):
    """build_archive writes the same folder, byte for byte, as linkify --mbox --out."""
    from linkscan.mail import build_archive

    web_cli = tmp_path / "cli"
    subprocess.run(
        [str(linkscan_bin), "linkify", "--mbox", "--no-progress", str(archive), "--out", str(web_cli)],
        check=True,
        capture_output=True,
    )
    web_py = tmp_path / "py"
    done = build_archive(archive, web_py)
    assert done["messages"] > 300
    assert done["removed"] == 0
    names = files_of(web_cli)
    assert names == files_of(web_py)
    assert "index.html" in names and "t00001.html" in names
    for name in names:
        assert (web_cli / name).read_bytes() == (web_py / name).read_bytes(), name


def test_build_archive_update_equals_a_full_build(archive, tmp_path):
    """update=True adds the messages appended since the last build; the folder is then
    the one a full build makes, byte for byte. A rewritten file is rebuilt, and says so."""
    from linkscan.mail import build_archive

    data = archive.read_bytes()
    half = data.index(b"\nFrom ", len(data) // 2) + 1
    mbox = tmp_path / "up" / "list.mbox"
    mbox.parent.mkdir()
    mbox.write_bytes(data[:half])
    first = build_archive(mbox, tmp_path / "web", update=True)
    assert first["updated"] is False and "no .linkscan-archive" in first["rebuilt"]
    mbox.write_bytes(data)
    done = build_archive(mbox, tmp_path / "web", update=True)
    assert done["updated"] is True, done
    assert done["written"] < done["pages"]
    full = tmp_path / "full" / "list.mbox"
    full.parent.mkdir()
    full.write_bytes(data)
    build_archive(full, tmp_path / "web-full")
    names = files_of(tmp_path / "web")
    assert names == files_of(tmp_path / "web-full")
    for name in names:
        assert (tmp_path / "web" / name).read_bytes() == (tmp_path / "web-full" / name).read_bytes(), name
    mbox.write_bytes(data.replace(b"Subject:", b"Subject: x", 1))
    again = build_archive(mbox, tmp_path / "web", update=True)
    assert again["updated"] is False and "rewritten" in again["rebuilt"]


def test_build_archive_obfuscates_addresses(tmp_path):
    from linkscan.mail import build_archive

    raw = (
        b"From a@example.com Mon Jan  1 00:00:00 2024\n"
        b"Message-ID: <m1@example.com>\nFrom: Ann <ann@example.com>\nTo: bob@example.org\n"
        b"Subject: hi\n\nwrite to ann@example.com\n"
    )
    done = build_archive(raw, tmp_path / "web", addresses="obfuscate")
    assert done["messages"] == 1
    pages = "".join(p.read_text() for p in (tmp_path / "web").iterdir())
    assert "mailto:" not in pages and "ann@example.com" not in pages
    assert "ann at example dot com" in pages
    with pytest.raises(ValueError):
        build_archive(raw, tmp_path / "x", addresses="hide")


SEARCHED = (
    b"From a@example.com Mon Jan  1 00:00:00 2024\n"
    b"Message-ID: <m1@example.com>\nFrom: Ann <ann@example.com>\n"
    b"Date: Mon, 1 Jan 2024 10:00:00 +0000\nSubject: plans\n\nthe zeppelin report\n"
)


def test_build_archive_search_without_pagefind_writes_nothing(tmp_path, monkeypatch):
    """search=True with a PAGEFIND that is not there: FileNotFoundError with the install
    command, and no folder."""
    from linkscan.mail import build_archive

    monkeypatch.setenv("PAGEFIND", str(tmp_path / "no-such-pagefind"))
    with pytest.raises(FileNotFoundError, match=r"pip install 'pagefind\[bin\]'"):
        build_archive(SEARCHED, tmp_path / "web", search=True)
    assert not (tmp_path / "web").exists()


def test_build_archive_search_indexes_the_messages(tmp_path, linkscan_bin):
    """search=True writes search.html and the index, as linkify --search does (PAGEFIND
    as CI sets it, else pagefind of this interpreter)."""
    import os
    import sys

    from linkscan.mail import build_archive

    if not os.environ.get("PAGEFIND"):
        try:
            import pagefind  # noqa: F401
        except ImportError:
            if os.environ.get("LINKSCAN_REQUIRE_ENGINES"):
                pytest.fail("pagefind is not installed (pip install 'pagefind[bin]')", pytrace=False)
            pytest.skip("needs pagefind (pip install 'pagefind[bin]')")
    mbox = tmp_path / "list.mbox"
    mbox.write_bytes(SEARCHED)
    done = build_archive(mbox, tmp_path / "py", search=True)
    assert done["messages"] == 1
    web = tmp_path / "py"
    assert (web / "search.html").is_file()
    assert (web / "pagefind" / "pagefind-entry.json").is_file()
    assert "data-pagefind-body" in (web / "00001.html").read_text()
    env = dict(os.environ)
    env.setdefault("PAGEFIND", f"{sys.executable} -m pagefind")
    subprocess.run(
        [str(linkscan_bin), "linkify", "--mbox", "--no-progress", "--search", str(mbox), "--out", str(tmp_path / "cli")],
        check=True,
        capture_output=True,
        env=env,
    )
    names = sorted(p.name for p in web.iterdir() if p.is_file())
    assert names == sorted(p.name for p in (tmp_path / "cli").iterdir() if p.is_file())
    for name in names:
        assert (web / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
