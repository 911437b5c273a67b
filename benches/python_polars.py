#!/usr/bin/env python3
"""The polars namespace against a typical URL regex, and ``redact_arrow`` against
``find_arrow``, on the lines of one file.

    python benches/python_polars.py [FILE] [--runs 7]

FILE defaults to the shared corpus email-intl.txt; each line is a row of a polars
``String`` column (and of one pyarrow ``string`` array). Reports, as best of --runs (wall
clock and CPU time of this process):

* ``pl.col("text").linkscan.find()`` (``import linkscan.polars``) against
  ``pl.col("text").str.extract_all(r"https?://\\S+")``, and ``linkscan.redact()`` in the
  same namespace;
* ``find_arrow`` and ``redact_arrow`` on the pyarrow array of the lines;

then what each finds: the links of linkscan (URLs with and without a scheme, emails), the
regex's matches, how many of those are exactly a link of linkscan, how many run past the
end of one (trailing punctuation, CJK full stops: the regex takes every non-space), and
the first few examples of each difference.
"""

from __future__ import annotations

import argparse
import re
import resource
import sys
import time
from pathlib import Path

import polars as pl
import pyarrow as pa

import linkscan
import linkscan.polars  # noqa: F401  (registers the namespace)

REPO = Path(__file__).resolve().parents[1]
REGEX = r"https?://\S+"


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def best(runs: int, fn) -> tuple[float, float]:
    """The least wall-clock time and the least CPU time of `runs` calls of fn."""
    wall, cpu = [], []
    for _ in range(runs):
        c0, t0 = cpu_seconds(), time.perf_counter()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(cpu_seconds() - c0)
    return min(wall), min(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=str(REPO.parent / "shared/corpus/email-intl.txt"))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--examples", type=int, default=5)
    args = parser.parse_args()

    data = Path(args.file).read_bytes()
    lines = data.decode("utf-8").split("\n")
    mb = len(data) / 1e6
    df = pl.DataFrame({"text": lines}, schema={"text": pl.String})
    array = pa.array(lines, pa.string())

    find_expr = pl.col("text").linkscan.find().alias("links")
    regex_expr = pl.col("text").str.extract_all(REGEX).alias("matches")
    redact_expr = pl.col("text").linkscan.redact().alias("redacted")
    timings = [
        ("polars: linkscan.find()", best(args.runs, lambda: df.select(find_expr))),
        (f"polars: str.extract_all({REGEX})", best(args.runs, lambda: df.select(regex_expr))),
        ("polars: linkscan.redact()", best(args.runs, lambda: df.select(redact_expr))),
        ("find_arrow (pyarrow array)", best(args.runs, lambda: linkscan.find_arrow(array))),
        ("redact_arrow (pyarrow array)", best(args.runs, lambda: linkscan.redact_arrow(array))),
    ]
    print(f"{args.file}: {mb:.1f} MB, {len(lines)} lines; best of {args.runs}")
    print(f"{'':42} {'wall s':>8} {'MB/s':>6} {'CPU s':>8}")
    for name, (w, c) in timings:
        print(f"{name:42} {w:8.4f} {mb / w:6.0f} {c:8.4f}")

    found = df.select(find_expr, regex_expr)
    links = found["links"].to_list()
    matches = found["matches"].to_list()
    counts = {"url, with a scheme": 0, "url, without": 0, "email": 0}
    exact = past = inside = missed_with_scheme = 0
    past_by_char: dict[str, int] = {}
    examples: dict[str, list[str]] = {"runs past the link": [], "no link there": [], "missed, with a scheme": []}
    scheme = re.compile(r"https?://", re.I)
    for row_links, row_matches in zip(links, matches):
        texts = {l["text"] for l in row_links}
        for l in row_links:
            if l["kind"] == "email":
                counts["email"] += 1
            elif scheme.match(l["text"]):
                counts["url, with a scheme"] += 1
                if not any(m.startswith(l["text"]) for m in row_matches):
                    missed_with_scheme += 1
                    examples["missed, with a scheme"].append(l["text"])
            else:
                counts["url, without"] += 1
        for m in row_matches:
            if m in texts:
                exact += 1
            elif any(m.startswith(t) for t in texts):
                past += 1
                link = max((t for t in texts if m.startswith(t)), key=len)
                char = m[len(link)]
                past_by_char[char] = past_by_char.get(char, 0) + 1
                examples["runs past the link"].append(f"{m!r} (link: {link!r})")
            else:
                inside += 1
                examples["no link there"].append(repr(m))
    print()
    print(f"linkscan: {sum(counts.values())} links: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    print(
        f"regex: {sum(map(len, matches))} matches: {exact} exactly a link, {past} run past a link's end, "
        f"{inside} no link there; linkscan's URLs with a scheme that no match starts with: {missed_with_scheme}; "
        f"links the regex cannot find (no scheme, emails): {counts['url, without'] + counts['email']}"
    )
    by_char = sorted(past_by_char.items(), key=lambda kv: -kv[1])
    print("  the character after the link in a match that runs past it: " + ", ".join(f"{c!r} {n}" for c, n in by_char))
    for what, items in examples.items():
        print(f"  {what}: " + "; ".join(items[: args.examples]))
    for text in ["「https://ja.wikipedia.org/wiki/東京都」を見て。", "https://ja.wikipedia.org/wiki/東京都。", "σωκράτης@example.gr", "(https://example.com/a_(b))."]:
        row = pl.DataFrame({"text": [text]})
        got = row.select(find_expr, regex_expr)
        print(f"  {text!r}: linkscan {[l['text'] for l in got['links'][0]]}, regex {got['matches'][0].to_list()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
