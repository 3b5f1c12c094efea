#!/usr/bin/env python3
"""Rows read at two levels by the repetition, and the count against their low level (issue 19, thirty-seventh pass (s31-pull)).

  heap_levels.py --hw DIR [DIR ...] --high 1,6,8,9,11 [--calib C ...]

DIR: `hw_diff.py hw` folders with every repetition kept (session 29's call D1: `hw_s29heap`, `hw_s29heap2`). Each entry's
repetitions split into the --high ones (1-based; the slot-atomic rows' high repetitions on that call) and the rest: the
two medians and the gap. A row is two-level when the gap is over 4% of its low median. With --calib (calib_families.py
output folders): the count within 10% as stored, and with each two-level row that is a calibration row (named in
heap_rows.md) against its low median instead, the rows that move in or out listed. The reference stays the lead's:
this says only what a single-level reference would give.
"""
import argparse
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import hw_diff  # noqa: E402

HEAP_ROWS = os.path.join(HERE, "..", "calib", "results", "h200-2026-12-05-s29-D1", "heap_rows.md")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hw", nargs="+", required=True)
    p.add_argument("--high", required=True, help="the high repetitions, 1-based, comma-separated")
    p.add_argument("--calib", nargs="*", default=[])
    a = p.parse_args()
    high = {int(x) - 1 for x in a.high.split(",")}
    low = {}
    print("| entry | low (median, range) | high (median, range) | gap |\n|---|---:|---:|---:|")
    for d in a.hw:
        for name in sorted(os.listdir(d)):
            reps = hw_diff.repetition_values(hw_diff.read(os.path.join(d, name, "result.json")))
            hi = [v for i, v in enumerate(reps) if i in high]
            lo = [v for i, v in enumerate(reps) if i not in high]
            if not hi or not lo:
                continue
            gap = statistics.median(hi) - statistics.median(lo)
            print(f"| `{name}` | {statistics.median(lo):.1f} ({min(lo):.0f}-{max(lo):.0f}) | "
                  f"{statistics.median(hi):.1f} ({min(hi):.0f}-{max(hi):.0f}) | {gap:+.1f} |")
            if gap > 0.04 * statistics.median(lo):
                low[name] = statistics.median(lo)
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    rows = {}
    for line in open(HEAP_ROWS):
        m = re.match(r"\| `([^`]+)` \|.*\(`(micro_[^`]+)`\)", line)
        if m and m.group(2) in low and m.group(1) in table:
            rows[m.group(1)] = low[m.group(2)]
    for c in a.calib:
        found = calib_families.ratios(c)
        moved = {r: found[r] * table[r][0] / v for r, v in rows.items() if r in found}
        alt = dict(found, **moved)
        within = lambda d: sum(abs(x - 1) <= calib_families.TOLERANCE for x in d.values())  # noqa: E731
        print(f"\n{c}: {within(found)} of {len(found)} as stored; {within(alt)} with the {len(moved)} two-level rows at their low level")
        for r in sorted(moved):
            tag = ("in" if abs(moved[r] - 1) <= 0.1 < abs(found[r] - 1) else
                   "out" if abs(found[r] - 1) <= 0.1 < abs(moved[r] - 1) else "")
            print(f"  {r} {found[r]:.3f} -> {moved[r]:.3f} {tag}")


if __name__ == "__main__":
    main()
