"""linkscan.mail.scan_archive (the parallel pipeline) and build_archive on it, against
scan_mbox and the command on the same archive."""

from __future__ import annotations

import json
import subprocess

import pytest

from linkscan import LinkFinder
from linkscan.mail import ArchiveScan, Message, build_archive, scan_archive, scan_mbox


def test_parallel_scan_equals_the_serial_scan_and_the_command(archive, linkscan_bin):
    scan = scan_archive(archive)
    assert isinstance(scan, ArchiveScan)
    parallel = list(scan)
    serial = list(scan_mbox(archive))
    assert all(isinstance(m, Message) for m in parallel)
    assert len(parallel) == len(serial) > 300
    assert [m.index for m in parallel] == [m.index for m in serial]
    assert all(m.offset is None and m.path is None for m in parallel)
    for p, s in zip(parallel, serial):
        assert (p.message_id, p.from_, p.date, p.subject, p.warnings) == (
            s.message_id, s.from_, s.date, s.subject, s.warnings
        )
        assert p.links == s.links
    out = subprocess.run(
        [str(linkscan_bin), "find", "--format", "jsonl", "--no-progress", "--mbox", str(archive)],
        check=True,
        capture_output=True,
    ).stdout
    assert [link for m in parallel for link in m.links] == [json.loads(l) for l in out.splitlines()]


def test_several_inputs_a_finder_and_a_maildir(archive, tmp_path):
    urls = LinkFinder(emails=False)
    twice = list(scan_archive([archive, str(archive)], urls))
    once = list(scan_archive(archive, finder=urls))
    assert len(twice) == 2 * len(once)
    assert all(l["kind"] == "url" for m in twice for l in m.links)
    maildir = tmp_path / "md"
    (maildir / "cur").mkdir(parents=True)
    (maildir / "new").mkdir()
    (maildir / "tmp").mkdir()
    (maildir / "cur" / "1:2,S").write_bytes(b"Subject: a\n\nsee example.com\n")
    (maildir / "cur" / "2:2,S").write_bytes(b"Subject: b\n\nand x.org/y\n")
    found = [(m.index, [l["text"] for l in m.links]) for m in scan_archive(maildir, maildir=True)]
    assert found == [(1, ["example.com"]), (2, ["x.org/y"])]
    (m,) = [m for m in scan_archive(maildir, maildir=True) if m.index == 1]
    assert m.path.name == "1:2,S" and m.path.parent.name == "cur"


def test_stopping_early_and_errors(archive):
    scan = scan_archive(archive)
    first = next(scan)
    assert first.index == 1
    del scan  # stops the run
    with pytest.raises(FileNotFoundError):
        scan_archive("/nonexistent/archive.mbox")
    with pytest.raises(FileNotFoundError):
        scan_archive("/nonexistent/maildir", maildir=True)


def test_pieces_of_a_message_over_the_limit(tmp_path):
    # 3.6 MB: pieces of about 1 MiB.
    body = b"see example.com/a " * 200_000 + b"\n"
    path = tmp_path / "big.mbox"
    path.write_bytes(b"From a@example.com Mon Jan  1 00:00:00 2024\nSubject: x\n\n" + body)
    pieces = list(scan_archive(path, max_message_size=64 * 1024))
    assert len(pieces) > 1 and {m.index for m in pieces} == {1}
    assert sum(len(m.links) for m in pieces) == 200_000
    assert "larger than the limit of 65536 bytes" in pieces[0].warnings[0]


def test_build_archive_from_a_path_equals_the_command(archive, linkscan_bin, tmp_path):
    ours = tmp_path / "py"
    theirs = tmp_path / "cli"
    got = build_archive(archive, ours)
    subprocess.run(
        [str(linkscan_bin), "linkify", "--mbox", str(archive), "--out", str(theirs), "--no-progress"],
        check=True,
        capture_output=True,
    )
    assert got["messages"] > 300
    files = sorted(p.relative_to(theirs) for p in theirs.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(ours) for p in ours.rglob("*") if p.is_file())
    different = [f for f in files if (ours / f).read_bytes() != (theirs / f).read_bytes()]
    # The pages name the input as it was given: the same path here.
    assert different == []
