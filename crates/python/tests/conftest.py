"""Shared fixtures of the Python tests: the data folder, the command-line tool, corpora.

The data folder is ``$LINKSCAN_SHARED``, else ``../shared`` beside the repository (as for
the Rust tests). The command-line tool that the engines are compared with is
``$LINKSCAN_BIN``, else ``target/release/linkscan``, else ``target/debug/linkscan``; a
missing one fails the tests that need it, with the command that builds it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

# Spark's Python workers run `python3` from the PATH unless told otherwise; linkscan.spark
# makes them run this interpreter on the local master, which the tests rely on (they set no
# PYSPARK_PYTHON). Spark binds to the loopback address, as the machine may have no other.
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")


def shared() -> Path:
    return Path(os.environ.get("LINKSCAN_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    path = shared()
    assert path.is_dir(), f"no data folder at {path}: set LINKSCAN_SHARED"
    return path


@pytest.fixture(scope="session")
def archive(shared_dir, tmp_path_factory):
    """The first ~4 MB of email-en.mbox, cut before a From_ line (the mail tests' archive)."""
    data = (shared_dir / "corpus" / "email-en.mbox").read_bytes()
    cut = data.index(b"\nFrom ", 4_000_000) + 1
    path = tmp_path_factory.mktemp("mbox") / "part.mbox"
    path.write_bytes(data[:cut])
    return path


@pytest.fixture(scope="session")
def linkscan_bin() -> Path:
    candidates = [REPO / "target" / "release" / "linkscan", REPO / "target" / "debug" / "linkscan"]
    if "LINKSCAN_BIN" in os.environ:
        candidates = [Path(os.environ["LINKSCAN_BIN"])]
    for path in candidates:
        if path.is_file():
            return path
    pytest.fail(f"no linkscan binary at {candidates}: run `cargo build --release --bin linkscan`")


@pytest.fixture(scope="session")
def intl_path(shared_dir: Path) -> Path:
    return shared_dir / "corpus" / "email-intl.txt"


@pytest.fixture(scope="session")
def intl_bytes(intl_path: Path) -> bytes:
    return intl_path.read_bytes()


@pytest.fixture(scope="session")
def cli_links(linkscan_bin: Path, intl_path: Path) -> list[dict]:
    """``linkscan find --format jsonl`` on email-intl.txt: the reference for the engines."""
    out = subprocess.run(
        [str(linkscan_bin), "find", "--format", "jsonl", str(intl_path)],
        check=True,
        capture_output=True,
    ).stdout
    links = [json.loads(line) for line in out.splitlines()]
    assert len(links) > 40_000, f"only {len(links)} links from the command line"
    return links


def lines_with_offsets(data: bytes) -> tuple[list[int], list[str]]:
    """The lines of ``data`` (split at ``\\n`` only, as the scanner sees them) and the byte
    offset of each; links never contain a line break, so scanning lines one by one finds
    the links of the whole text."""
    offsets, lines = [], []
    at = 0
    for line in data.split(b"\n"):
        offsets.append(at)
        lines.append(line.decode("utf-8"))
        at += len(line) + 1
    return offsets, lines


def require(module: str, program: str | None = None):
    """Imports ``module`` for an engine test; without it (or without ``program`` on the
    PATH) the test is skipped with the reason, or fails when ``$LINKSCAN_REQUIRE_ENGINES``
    is set, as in CI, where a missing engine is a broken setup."""
    import importlib
    import shutil

    strict = bool(os.environ.get("LINKSCAN_REQUIRE_ENGINES"))
    if program and not shutil.which(program) and not os.environ.get("JAVA_HOME"):
        if strict:
            pytest.fail(f"{program} is not installed", pytrace=False)
        pytest.skip(f"needs {program}", allow_module_level=True)
    if strict:
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"needs {module} (pip install '.[test]')")
