#!/usr/bin/env python3
"""Throughput of the Python package against the command line, on the same bytes.

    python benches/python.py [FILE] [--bin target/profiling/linkscan] [--runs 7]

FILE defaults to the shared corpus email-intl.txt. Reports, as best of --runs:

* ``linkscan find --count -j 1 FILE``: the whole process, single thread (the reference);
* ``find_arrow`` over FILE cut into 4 KB rows (cut at character boundaries) as one
  pyarrow string array, the array built beforehand, and ``redact_arrow`` on the same
  array (every link replaced by ``<URL>``/``<EMAIL>``, a new string array);
* ``find(str)`` over the whole file as one ``str``: a fresh ``str`` each run (decoded
  outside the timing), so the UTF-8 form that the scan reads is made inside it, as for a
  string that was just read; and ``find(str)`` again on the same ``str`` (UTF-8 cached);
* ``count(str)`` on the cached ``str``, the scan alone.

each as wall-clock and as CPU time (the latter steadier on a busy machine), and as a ratio
of the command's throughput (1.0: as fast as the command).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa

import linkscan

REPO = Path(__file__).resolve().parents[1]


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def best(runs: int, fn, prepare=lambda: None) -> tuple[float, float]:
    """The least wall-clock time and the least CPU time of `runs` calls of fn."""
    wall, cpu = [], []
    for _ in range(runs):
        arg = prepare()
        c0, t0 = cpu_seconds(), time.perf_counter()
        fn(arg)
        wall.append(time.perf_counter() - t0)
        cpu.append(cpu_seconds() - c0)
    return min(wall), min(cpu)


def rows_of(data: bytes, size: int) -> list[str]:
    rows, at = [], 0
    while at < len(data):
        end = min(at + size, len(data))
        while end < len(data) and (data[end] & 0xC0) == 0x80:  # not inside a character
            end -= 1
        rows.append(data[at:end].decode("utf-8"))
        at = end
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=str(REPO.parent / "shared/corpus/email-intl.txt"))
    parser.add_argument("--bin", default=str(REPO / "target/profiling/linkscan"))
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    data = Path(args.file).read_bytes()
    mb = len(data) / 1e6
    cmd = [args.bin, "find", "--count", "-j", "1", args.file]
    cli_count = int(subprocess.run(cmd, check=True, capture_output=True).stdout)
    cli = best(args.runs, lambda _: subprocess.run(cmd, check=True, capture_output=True))

    array = pa.array(rows_of(data, 4096), pa.string())
    arrow_links = linkscan.find_arrow(array).num_rows
    arrow = best(args.runs, lambda _: linkscan.find_arrow(array))
    redact_arrow = best(args.runs, lambda _: linkscan.redact_arrow(array))

    text = data.decode("utf-8")
    assert linkscan.count(text) == cli_count, "find(str) and the command disagree"
    fresh = best(args.runs, linkscan.find, prepare=lambda: data.decode("utf-8"))
    cached = best(args.runs, lambda _: linkscan.find(text))
    count = best(args.runs, lambda _: linkscan.count(text))

    print(f"{args.file}: {mb:.1f} MB, {cli_count} links ({arrow_links} in 4 KB rows)")
    print(f"{'':30} {'wall s':>8} {'MB/s':>6} {'x command':>9} {'CPU s':>8} {'x command':>9}")
    for name, seconds in [
        ("linkscan find --count -j 1", cli),
        ("find_arrow, 4 KB rows", arrow),
        ("redact_arrow, 4 KB rows", redact_arrow),
        ("find(str), fresh str", fresh),
        ("find(str), UTF-8 cached", cached),
        ("count(str), UTF-8 cached", count),
    ]:
        (w, c), (cli_w, cli_c) = seconds, cli
        print(f"{name:30} {w:8.4f} {mb / w:6.0f} {cli_w / w:9.2f} {c:8.4f} {cli_c / c:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
