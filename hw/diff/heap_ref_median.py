#!/usr/bin/env python3
"""The calibration count with every heap reference at its median repetition instead of its last (issue 19).

  heap_ref_median.py --sim NAME=DIR [--sim NAME=DIR ...]

DIR: calib_families.py's --out folder of one binary. The heap references (hw_diff.py's first two CALIB_TABLES:
heap_rows.md, heap_refs.md) are each a run's last repetition, the statistic of every calib_probe row; their method
column also gives the median of repetitions 2-11 ("their median X"), or names the row whose reference they share.
Mode 22's and the slot-atomic rows read at two levels by the repetition (docs/hw-accuracy.md, thirty-seventh pass
(s31-pull)), so the last is one draw: per binary, the count within 10% against the last (as calib_families.py) and
against the median, and the rows that move. Nothing is written; the references stay the last repetition.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import hw_diff  # noqa: E402

HEAP_TABLES = ("heap_rows.md", "heap_refs.md")


def medians():
    """Row -> the median of its heap reading's repetitions 2-11, where the table gives one."""
    out = {}
    for path in hw_diff.CALIB_TABLES:
        if os.path.basename(path) not in HEAP_TABLES:  # heapmed_refs.md (s35-near) is these medians as a table
            continue
        with open(path) as f:
            for line in f:
                m = re.match(r"\| `([^`]+)` \|.*\| ns \| (.*)\|$", line)
                if not m:
                    continue
                median = re.search(r"their median ([0-9.e+]+)", m.group(2))
                twin = re.search(r"the reference of `([^`]+)`", m.group(2))
                if median:
                    out[m.group(1)] = float(median.group(1))
                elif twin and twin.group(1) in out:
                    out[m.group(1)] = out[twin.group(1)]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sim", action="append", required=True, metavar="NAME=DIR")
    a = p.parse_args()
    med, table = medians(), hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    tol = calib_families.TOLERANCE
    for spec in a.sim:
        name, d = spec.split("=", 1)
        last = calib_families.ratios(d)
        at_median = {r: v * table[r][0] / med.get(r, table[r][0]) for r, v in last.items()}
        moved = sorted(r for r in last if (abs(last[r] - 1) <= tol) != (abs(at_median[r] - 1) <= tol))
        print(f"{name}: {sum(abs(v - 1) <= tol for v in last.values())} of {len(last)} against the last repetition, "
              f"{sum(abs(v - 1) <= tol for v in at_median.values())} against the median ({len(med)} heap references "
              f"with one); moved: " + (", ".join(f"`{r}` {last[r]:.3f} -> {at_median[r]:.3f}" for r in moved) or "none"))


if __name__ == "__main__":
    main()
