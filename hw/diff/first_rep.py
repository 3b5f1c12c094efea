#!/usr/bin/env python3
"""Rows by repetition over GPU passes: a run's first repetition against its last (issue 19).

  first_rep.py HW_DIR [HW_DIR ...] --rows ROW [ROW ...]

HW_DIR: symsim-hw folders of `hw_diff.py hw` (calib_reproduce.py's). Per row: the stored value, the median
over the folders of each run's first repetition (runs with every repetition kept, 6 or more) and of its last
(the value the stored rows took). A row whose first repetition sits below its last climbs over the run
(docs/hw-accuracy.md, thirty-fourth pass (s28-route) section 3; thirty-fifth pass (s29-heap)).
"""
import argparse
import statistics
import sys
import os

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_reproduce  # noqa: E402
import hw_diff  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hw", nargs="+")
    p.add_argument("--rows", nargs="+", required=True)
    a = p.parse_args()
    tool = calib_reproduce.calib_tool_rows()
    first = calib_reproduce.repetitions(a.hw, tool, first=1)
    last = calib_reproduce.readings(a.hw, [], tool)
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    print("| row | stored | first repetition (median, runs) | last repetition (median, runs) | first / last |")
    print("|---|---:|---:|---:|---:|")
    for row in a.rows:
        f, l = first.get(row, []), last.get(row, [])
        fm = statistics.median(f) if f else None
        lm = statistics.median(l) if l else None
        stored = table[row][0] if row in table else None
        print(f"| `{row}` | {stored if stored else '-'} | {f'{fm:.0f} ({len(f)})' if f else '-'} | "
              f"{f'{lm:.0f} ({len(l)})' if l else '-'} | {f'{fm / lm:.2f}' if f and l else '-'} |")


if __name__ == "__main__":
    main()
