#!/usr/bin/env python3
"""Writes the lines of a text file as JSON Lines records, `{"id": N, "text": LINE}`, for
the figures of `find --field` and `redact --field` in benches/README.md.

    python3 benches/records.py TEXT OUT.jsonl [MB]

Each line of TEXT (decoded as UTF-8, an invalid byte as U+FFFD, its line feed dropped)
becomes one record; with MB, TEXT is read again and again until OUT holds at least MB
megabytes (the ids go on counting).
"""

import json
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    source, target = sys.argv[1], sys.argv[2]
    want = int(sys.argv[3]) * 1_000_000 if len(sys.argv) == 4 else 0
    n = written = 0
    with open(target, "w", encoding="utf-8", newline="\n") as out:
        while True:
            with open(source, encoding="utf-8", errors="replace", newline="\n") as text:
                for line in text:
                    record = json.dumps({"id": n, "text": line.rstrip("\n")}, ensure_ascii=False)
                    out.write(record + "\n")
                    written += len(record.encode("utf-8")) + 1
                    n += 1
            if written >= want:
                break


if __name__ == "__main__":
    main()
