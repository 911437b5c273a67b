#!/usr/bin/env python3
"""Whole-process cost per byte of hostile patterns against ordinary text.

    python3 benches/adversarial.py [-b BINARY] [-s MB[,MB...]] [-n RUNS] [-d DIR] [-p NAME]

For each pattern (the slow patterns of the engine's issue list, and every line of
`benches/adversarial.rs`) and each size, the pattern is repeated into a file of that
many MB (one line, no white space unless the pattern has some), and
`linkscan find --count -j 1 FILE` is run RUNS times, alternated with the same command on
`email-intl.txt` repeated to the same size ("ordinary text"). Printed per pattern and
size: the median CPU time (user + system, the kernel's accounting of the finished child,
as `/usr/bin/time -f '%U %S'` reports it but to the microsecond) of each, and the ratio
of the pattern's CPU time per byte to ordinary text's, median of the pairs. The target
of the engine is a ratio of at most 4 for every pattern at every size.

  -b BIN   the linkscan binary (default: target/profiling/linkscan, built first with
           `cargo build --profile profiling` when it is missing)
  -s MB    sizes, comma-separated (default 16,64)
  -n RUNS  runs of each command, alternated (default 5)
  -d DIR   where the inputs are written (default: $TMPDIR or /tmp, then
           linkscan-adversarial)
  -p NAME  only the patterns whose name contains NAME (repeatable)

The corpus is read from $LINKSCAN_SHARED/corpus (default ../shared/corpus beside the
repository). The inputs are made once and kept in DIR.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

# (name, unit): the unit is repeated to the size. The first group is the list of
# patterns that cost most per byte; the second the lines of `benches/adversarial.rs`.
PATTERNS = [
    ("mixed dots a。b.", "a。b."),
    ("path brackets x.com/([{<", "x.com/([{<"),
    ("port no space x.com:1", "x.com:1"),
    ("open brackets x.com/(((((", "x.com/((((("),
    ("soft path x.com/a.,;:!?", "x.com/a.,;:!?"),
    ("double dot email a..b@x.co", "a..b@x.co"),
    ("cyrillic dot пример.", "пример."),
    ("open_brackets example.com/((((", None),
    ("a_dot_a_dot a.", "a."),
    ("at_signs @", "@"),
    ("hosts_without_tld ab-cd.ef-gh.ij", "ab-cd.ef-gh.ij"),
    ("x_at_x_at x@", "x@"),
    ("one_long_host a.com.", "a.com."),
    ("link_every_6_bytes x.com ", "x.com "),
    ("email_every_8_bytes a@b.com ", "a@b.com "),
    ("port_every_8_bytes x.com:1 ", "x.com:1 "),
    ("link_per_line x.com\\n", "x.com\n"),
]


def make(path, size, unit, source=None):
    """Writes `size` bytes (cut at a unit's end) of `unit` repeated, or of `source`."""
    if os.path.exists(path) and os.path.getsize(path) >= size * 0.99:
        return
    with open(path + ".part", "wb") as out:
        if source is not None:
            data = open(source, "rb").read()
            written = 0
            while written < size:
                piece = data[: size - written]
                # Cut at a line end, so that no character is cut in two.
                if len(piece) < len(data):
                    piece = piece[: piece.rfind(b"\n") + 1] or piece
                out.write(piece)
                written += len(piece)
                if len(piece) < len(data):
                    break
        elif unit is None:
            head = b"example.com/"
            out.write(head + b"(" * (size - len(head)))
        else:
            b = unit.encode()
            out.write(b * (size // len(b)))
    os.replace(path + ".part", path)


def cpu_seconds(cmd):
    """User + system seconds of one run of `cmd`, its output thrown away."""
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(cmd, stdout=null, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        err = proc.stderr.read()
        proc.stderr.close()
        proc.returncode = os.waitstatus_to_exitcode(status)
    # As grep's: 1 when no link was found.
    if proc.returncode not in (0, 1):
        sys.exit(f"adversarial.py: {' '.join(cmd)} failed: {err.decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-b", dest="binary", default=None)
    parser.add_argument("-s", dest="sizes", default="16,64")
    parser.add_argument("-n", dest="runs", type=int, default=5)
    parser.add_argument(
        "-d",
        dest="dir",
        default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "linkscan-adversarial"),
    )
    parser.add_argument("-p", dest="only", action="append", default=[])
    args = parser.parse_args()

    shared = os.environ.get("LINKSCAN_SHARED", os.path.join(root, "..", "shared"))
    corpus = os.path.join(shared, "corpus", "email-intl.txt")
    if not os.path.isfile(corpus):
        sys.exit(f"adversarial.py: {corpus} is missing")
    binary = args.binary
    if binary is None:
        binary = os.path.join(root, "target", "profiling", "linkscan")
        if not os.path.exists(binary):
            subprocess.run(
                ["cargo", "build", "--profile", "profiling", "--quiet"], cwd=root, check=True
            )
    if not os.access(binary, os.X_OK):
        sys.exit(f"adversarial.py: {binary} is not an executable")
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        sys.exit(f"adversarial.py: -s takes sizes in MB, not {args.sizes!r}")
    if args.runs < 1 or any(s < 1 for s in sizes):
        sys.exit("adversarial.py: -n and -s take numbers of 1 or more")
    os.makedirs(args.dir, exist_ok=True)

    patterns = [p for p in PATTERNS if not args.only or any(o in p[0] for o in args.only)]
    print(f"{'pattern':<36} {'MB':>4} {'ms':>8} {'text ms':>8} {'x text':>7}")
    worst = 0.0
    for size_mb in sizes:
        size = size_mb * 1_000_000
        text = os.path.join(args.dir, f"text-{size_mb}.txt")
        make(text, size, None, source=corpus)
        text_bytes = os.path.getsize(text)
        for name, unit in patterns:
            path = os.path.join(args.dir, f"pattern-{PATTERNS.index((name, unit))}-{size_mb}.txt")
            make(path, size, unit)
            pattern_bytes = os.path.getsize(path)
            command = [binary, "find", "--count", "-j", "1"]
            mine, base, ratios = [], [], []
            cpu_seconds(command + [path])  # warm the page cache
            cpu_seconds(command + [text])
            for _ in range(args.runs):
                a = cpu_seconds(command + [path])
                b = cpu_seconds(command + [text])
                mine.append(a)
                base.append(b)
                ratios.append((a / pattern_bytes) / (b / text_bytes))
            ratio = statistics.median(ratios)
            worst = max(worst, ratio)
            print(
                f"{name:<36} {size_mb:>4} {statistics.median(mine) * 1e3:>8.1f} "
                f"{statistics.median(base) * 1e3:>8.1f} {ratio:>7.2f}",
                flush=True,
            )
    print(f"worst: {worst:.2f}x ordinary text per byte")


if __name__ == "__main__":
    start = time.time()
    main()
    print(f"({time.time() - start:.0f} s)", file=sys.stderr)
