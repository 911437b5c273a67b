#!/usr/bin/env python3
"""Scores the conformant and readable policies on the hand-labelled sample.

Usage (from the repository root, after `cargo build --release`):

    python3 corpus/labelled/score.py [--bin target/release/linkscan] [--check]

`sample.txt` holds one snippet of corpus text per entry, with the links a reader would
make marked ⸠like this⸡ (see README.md beside it). Each snippet is scanned with
`linkscan find --policy P`; a reported link counts as right only with exactly the marked
bounds. Printed per policy: precision (right / reported), recall (right / marked), and
the two figures the readable policy is held to: the share of the scheme-less "links"
detection reports that are not links (code and file names, sentences) that it drops, and
the share of the real links detection bounds right that it keeps with the same bounds.
`--check` exits 1 when the readable policy misses its targets (>= 80 % dropped, >= 98 %
kept). Standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

OPEN, CLOSE = '\u2e20', '\u2e21'
SCHEME = re.compile(r'^([A-Za-z][A-Za-z0-9+.-]*://|mailto:)', re.I)


def read_sample(path):
    """[(id, class, plain text, {(start, end) byte offsets of the marked links})]."""
    entries = []
    with open(path, encoding='utf-8') as f:
        lines = [l.rstrip('\n') for l in f]
    for head, marked in zip(lines[0::2], lines[1::2]):
        if not head.startswith('# '):
            sys.exit(f'{path}: expected a "# id class text" line, got {head!r}')
        _, id_, cls = head.split(' ', 3)[:3]
        plain, gold, at, start = b'', set(), 0, None
        for part in re.split(f'([{OPEN}{CLOSE}])', marked):
            if part == OPEN:
                start = len(plain)
            elif part == CLOSE:
                gold.add((start, len(plain)))
            else:
                plain += part.encode('utf-8')
        entries.append((id_, cls, plain, gold))
    return entries


def scan(binary, policy, entries):
    """The links reported in each snippet: [{(start, end): kind}]."""
    text = b'\n'.join(e[2] for e in entries) + b'\n'
    out = subprocess.run([binary, 'find', '--format', 'tsv', '--policy', policy, '-'],
                         input=text, capture_output=True, check=True).stdout
    bounds, at = [], 0
    for e in entries:
        bounds.append((at, at + len(e[2])))
        at += len(e[2]) + 1
    found = [dict() for _ in entries]
    line = 0
    for row in out.decode('utf-8').splitlines():
        _, start, end, kind, text = row.split('\t', 4)
        start, end = int(start), int(end)
        while bounds[line][1] < start:
            line += 1
        found[line][(start - bounds[line][0], end - bounds[line][0])] = (kind, text)
    return found


def overlaps(span, spans):
    return any(s < span[1] and span[0] < e for s, e in spans)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default='target/release/linkscan')
    ap.add_argument('--sample', default=os.path.join(here, 'sample.txt'))
    ap.add_argument('--check', action='store_true')
    args = ap.parse_args()
    entries = read_sample(args.sample)
    conformant = scan(args.bin, 'conformant', entries)
    readable = scan(args.bin, 'readable', entries)
    marked = sum(len(e[3]) for e in entries)

    # What detection reports, judged: real with the right bounds, real with other bounds,
    # or not a link at all (a scheme-less one of these is what readable should drop).
    judged = right = wrong_bounds = 0
    not_links = []  # (entry index, span) of scheme-less non-links detection reports
    for i, (e, found) in enumerate(zip(entries, conformant)):
        for span, (kind, text) in found.items():
            judged += 1
            if span in e[3]:
                right += 1
            elif overlaps(span, e[3]):
                wrong_bounds += 1
            elif kind == 'url' and not SCHEME.match(text):
                not_links.append((i, span))
    print(f'sample: {len(entries)} snippets, {marked} links marked by the reader; '
          f'detection reports {judged}: {right} right, {wrong_bounds} with other bounds, '
          f'{judged - right - wrong_bounds} not links ({len(not_links)} of them scheme-less URLs)')

    # The real links detection reports with the right bounds.
    detected_right = [(i, span) for i, (e, f) in enumerate(zip(entries, conformant))
                      for span in f if span in e[3]]
    results = {}
    for name, found in (('conformant', conformant), ('readable', readable)):
        reported = sum(len(f) for f in found)
        exact = sum(len(set(f) & e[3]) for f, e in zip(found, entries))
        dropped = sum(1 for i, span in not_links if not overlaps(span, found[i]))
        kept = sum(1 for i, span in detected_right if span in found[i])
        precision = exact / reported if reported else 1.0
        recall = exact / marked if marked else 1.0
        drop = dropped / len(not_links) if not_links else 1.0
        keep = kept / len(detected_right) if detected_right else 1.0
        results[name] = (drop, keep)
        print(f'{name:>10}: reported {reported}, right {exact}: precision {precision:.1%}, '
              f'recall {recall:.1%} ({exact}/{marked}); scheme-less non-links dropped '
              f'{dropped}/{len(not_links)} ({drop:.1%}); real links that detection bounds '
              f'right kept {kept}/{len(detected_right)} ({keep:.1%})')

    if args.check:
        drop, keep = results['readable']
        if drop < 0.80 or keep < 0.98:
            print('readable misses its targets (>= 80 % dropped, >= 98 % kept)', file=sys.stderr)
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
