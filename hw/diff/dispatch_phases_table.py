#!/usr/bin/env python3
"""Dispatch's phases (calib_probe mode 22, the `shim.dispatch_phases.fresh.*` rows) one by one: phase 1 and
the differences p2 - p1, p3 - p2, GPU (stored, re-measured, median reading) against two simulator runs.

  dispatch_phases_table.py BASE_DIR BRANCH_DIR [--hw HW_DIR ...] [--calib-md FILE ...]

BASE_DIR, BRANCH_DIR: calib_families.py's --out folders; --hw / --calib-md as calib_reproduce.py's.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calib_families  # noqa: E402
import calib_reproduce  # noqa: E402
import hw_diff  # noqa: E402

NAMES = {"p1": "p1 (send loop + grid sync)", "p2": "p2 - p1 (count, signal and wait, grid sync)", "p3": "p3 - p2 (receive)"}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("base")
    p.add_argument("branch")
    p.add_argument("--hw", action="append", default=[])
    p.add_argument("--calib-md", action="append", default=[])
    a = p.parse_args()
    base, branch = calib_families.ratios(a.base), calib_families.ratios(a.branch)
    stored = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    got = calib_reproduce.readings(a.hw, a.calib_md, calib_reproduce.calib_tool_rows())
    print("| tokens | phase | GPU stored | GPU re-measured | GPU median | base | branch |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for tokens in (8, 64, 128, 512):
        prev = None
        for phase in ("p1", "p2", "p3"):
            row = f"shim.dispatch_phases.fresh.{tokens}tok.h7168.{phase}_ns"
            s = stored[row][0]
            vals = (s, statistics.median([s] + got.get(row, [])), base[row] * s, branch[row] * s)
            shown = vals if prev is None else tuple(v - w for v, w in zip(vals, prev))
            again = " / ".join(f"{v:.0f}" for v in got.get(row, [])) if prev is None else ""
            print(f"| {tokens} | {NAMES[phase]} | {shown[0]:.0f} | {again} | {shown[1]:.0f} | {shown[2]:.0f} | {shown[3]:.0f} |")
            prev = vals


if __name__ == "__main__":
    main()
