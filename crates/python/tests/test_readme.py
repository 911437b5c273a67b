"""The recipes of README.md and GUIDE.md, run as written, as a newcomer would run them.

The convention of the two documents' fenced blocks:

* ```` ```sh ```` and ```` ```python ```` blocks run; ```` ```sh no-run ```` and
  ```` ```python no-run ```` blocks are shown but not run (the test command itself, a
  command that writes into your home): the tag says so, the text is for readers;
* a ```` ```text ```` block right after an ``sh`` block is that block's expected standard
  output, compared exactly;
* ``rust`` blocks are doctests (``cargo test --doc``), other blocks are illustrations.

Shell blocks run in document order (README, then the guide), each in ``bash -e`` (without
``pipefail``: ``| head`` ends its writer early, as in a terminal), in a fresh ``git clone``
of this repository (in ``target/readme-newcomer/``) that lies beside a link named
``shared`` to the data folder, so that
``../shared`` works as on a newcomer's machine; the README's quick start runs in a clone
with nothing beside it (``target/readme-bare/``), as on the machine of someone who cloned
the repository from its home. Nothing a recipe needs is set for it: the
build is only cached, through ``CARGO_TARGET_DIR`` (this repository's ``target/``);
``cargo install`` installs into a folder of the test (``CARGO_INSTALL_ROOT``, first on the
PATH), and ``HOME`` is a folder of the test (``CARGO_HOME`` and ``RUSTUP_HOME`` keep the
toolchain). Python blocks run each in a new process of this interpreter (the venv's own,
``target/python-venv/bin/python``) in the clone, without activation: no ``VIRTUAL_ENV``,
the venv not on the PATH, and no ``PYSPARK_PYTHON``, ``PYSPARK_DRIVER_PYTHON`` or
``SPARK_LOCAL_IP``. The clone holds the last commit; the blocks are read from the working
tree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import REPO, require, shared

DOCUMENTS = ["README.md", "GUIDE.md"]
RUN = {"sh", "python"}
SHOWN = {"sh no-run", "python no-run"}
# Variables a recipe must not find set for it by the harness.
UNSET = ["PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "SPARK_LOCAL_IP", "VIRTUAL_ENV", "PYTHONPATH"]


@dataclass
class Block:
    document: str
    line: int
    info: str
    code: str
    expected: str | None = None

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line}"


FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks_of(document: str, text: str) -> list[Block]:
    """The fenced blocks of ``text`` with their info strings; a ``text`` block right after
    an ``sh`` block becomes its ``expected`` output."""
    blocks: list[Block] = []
    last_end = 0
    for match in FENCE.finditer(text):
        info = match.group(1).strip()
        follows = not text[last_end : match.start()].strip()
        if info == "text" and blocks and blocks[-1].info == "sh" and follows:
            if blocks[-1].expected is None:
                blocks[-1].expected = match.group(2)
                last_end = match.end()
                continue
        line = text.count("\n", 0, match.start()) + 1
        blocks.append(Block(document, line, info, match.group(2)))
        last_end = match.end()
    return blocks


def all_blocks() -> list[Block]:
    found = []
    for document in DOCUMENTS:
        found += blocks_of(document, (REPO / document).read_text("utf-8"))
    return found


BLOCKS = all_blocks()
RUNNABLE = [b for b in BLOCKS if b.info in RUN]


def quick_start_lines() -> range:
    """The lines of the README's quick start: its blocks run with nothing beside the clone."""
    lines = (REPO / "README.md").read_text("utf-8").splitlines()
    start = lines.index("## Quick start") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return range(start, end + 1)


def in_quick_start(block: Block) -> bool:
    return block.document == "README.md" and block.line in quick_start_lines()


def test_the_convention_holds():
    """Every shell or Python block is either run or says why not; the README keeps its two
    quick-start commands, and CI runs the README's own test and install commands."""
    for block in BLOCKS:
        language = block.info.split()[0] if block.info else ""
        if language in ("sh", "python", "bash", "console", "shell"):
            assert block.info in RUN | SHOWN, f"{block.id}: info string {block.info!r}"
        if block.info in SHOWN or block.info in RUN:
            words = block.code.lower()
            assert "readme test" not in words and "harness" not in words, (
                f"{block.id}: a block speaks to its readers, not to the test that runs it"
            )
    readme = [b for b in BLOCKS if b.document == "README.md"]
    quick = re.search(r"^## Quick start\n(.*?)^## ", (REPO / "README.md").read_text("utf-8"), re.S | re.M)
    assert quick, "README has no Quick start section"
    commands = [
        line
        for code in re.findall(r"^```sh[^\n]*\n(.*?)^```", quick.group(1), re.S | re.M)
        for line in code.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(commands) == 2, f"the quick start has {len(commands)} commands: {commands}"
    assert "corpus/sample.mbox" in commands[0], "the first command runs on the shipped sample"
    assert "../shared" not in commands[0], "the quick start needs nothing beside the clone"
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert commands[1] in ci.splitlines(), f"CI does not run the README's {commands[1]!r}"
    install = [
        line
        for b in readme
        if b.info == "sh no-run"
        for line in b.code.splitlines()
        if "pip install" in line and "[test]" in line
    ]
    assert install, "README has no Python install command for the tests"
    venv, pip = install[0].split(" && ")
    ci = ci.replace(" --quiet", "")
    assert venv in ci and pip in ci, f"CI does not make its venv with the README's {install[0]!r}"
    assert len(readme) >= 10 and len(RUNNABLE) >= 15, "fewer recipes than documented"


def test_the_harness_reads_expected_output():
    text = "x\n```sh\necho a\n```\n\n```text\na\n```\n```text\nshown\n```\n"
    blocks = blocks_of("X", text)
    assert [(b.info, b.code, b.expected) for b in blocks] == [
        ("sh", "echo a\n", "a\n"),
        ("text", "shown\n", None),
    ]


@pytest.fixture(scope="module")
def newcomer():
    """A fresh clone beside a ``shared`` link, and the environment the recipes run in.

    The clones build into this repository's ``target/`` (the dependencies are compiled
    once), where their builds of the workspace's own packages replace this checkout's
    under the same names, with fingerprints of the clones' files: afterwards those
    fingerprints are removed, so that the next build here compiles this checkout's
    sources again instead of taking the clone's build of the last commit for fresh."""
    data = shared()
    assert data.is_dir(), f"no data folder at {data}: set LINKSCAN_SHARED"
    if not shutil.which("git") or not (REPO / ".git").exists():
        pytest.fail("the README test clones the repository: it needs git and a git checkout")
    # A fixed place under target/ (ignored by git), made afresh each run: the clone's own
    # build units keep one path, so cargo reuses and replaces them instead of adding more.
    root = REPO / "target" / "readme-newcomer"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    (root / "shared").symlink_to(data.resolve(), target_is_directory=True)
    clone = root / "linkscan"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    bare_root = REPO / "target" / "readme-bare"
    if bare_root.exists():
        shutil.rmtree(bare_root)
    bare_root.mkdir(parents=True)
    bare = bare_root / "linkscan"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(bare)], check=True)
    home = root / "home"
    home.mkdir()
    installed = root / "installed"
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.pop("LINKSCAN_SHARED", None)  # the recipes find ../shared as a newcomer's would
    real_home = Path(os.environ.get("HOME", str(Path.home())))
    env.setdefault("CARGO_HOME", str(real_home / ".cargo"))
    env.setdefault("RUSTUP_HOME", str(real_home / ".rustup"))
    venv_bin = str(Path(sys.executable).parent)
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != venv_bin]
    if not any(shutil.which("cargo", path=p) for p in path):
        path.append(str(Path(env["CARGO_HOME"]) / "bin"))
    env.update(
        HOME=str(home),
        CARGO_TARGET_DIR=str(REPO / "target"),
        CARGO_INSTALL_ROOT=str(installed),
        PATH=os.pathsep.join([str(installed / "bin"), *path]),
    )
    yield {"clone": clone, "bare": bare, "env": env}
    for fingerprint in (REPO / "target").glob("*/.fingerprint/linkscan-*"):
        shutil.rmtree(fingerprint, ignore_errors=True)


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_recipe_runs_as_written(block: Block, newcomer: dict):
    clone, env = newcomer["bare" if in_quick_start(block) else "clone"], newcomer["env"]
    if block.info == "sh":
        command = ["bash", "-e", "-c", block.code]
    else:
        if "pyspark" in block.code:
            require("pyspark", program="java")
        if "import ray" in block.code:
            require("ray")
        if "import polars" in block.code:
            require("polars")
        command = [sys.executable, "-c", block.code]
    done = subprocess.run(
        command, cwd=clone, env=env, capture_output=True, text=True, timeout=1800
    )
    assert done.returncode == 0, (
        f"{block.id} failed with status {done.returncode}\n--- block\n{block.code}"
        f"--- stdout (end)\n{done.stdout[-3000:]}\n--- stderr (end)\n{done.stderr[-6000:]}"
    )
    if in_quick_start(block) and "sample.mbox" in block.code:
        assert "https://ja.wikipedia.org/wiki/東京都" in done.stdout, "the sample's links are printed"
        assert "sample-archive/index.html" in done.stderr, "the page to open is named"
        assert (clone / ".." / "shared").exists() is False, "the quick start ran with the data beside it"
    if block.expected is not None:
        assert done.stdout == block.expected, f"{block.id}: the output differs from the document's"
