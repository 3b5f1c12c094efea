#!/usr/bin/env python3
"""Every repetition of every entry of device answers (issue 19): a row's climb or its levels at a glance.

  heap_reps.py HW_DIR [HW_DIR ...] [--match TEXT]

HW_DIR: `hw_diff.py hw` folders written with SYMSIM_HW_KEEP_REPETITIONS=1. Per entry: its repetitions in order (ns or the
row's unit), then first / last and the median. A row read in the heap whose repetitions take two levels by the
repetition's index (docs/hw-accuracy.md, thirty-sixth pass (s30-reduce)) shows here where heap_compare.py gives the last.
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hw", nargs="+")
    p.add_argument("--match", default="")
    a = p.parse_args()
    print("| entry | repetitions | first / last | median |\n|---|---|---:|---:|")
    for d in a.hw:
        for name in sorted(os.listdir(d)):
            r = hw_diff.read(os.path.join(d, name, "result.json"))
            if a.match not in name or not r:
                continue
            reps = hw_diff.repetition_values(r)
            if reps:
                print(f"| `{name}` | {' '.join(f'{v:.4g}' for v in reps)} | {reps[0] / reps[-1]:.2f} | "
                      f"{statistics.median(reps):.4g} |")


if __name__ == "__main__":
    main()
