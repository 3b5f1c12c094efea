#!/usr/bin/env python3
"""Each GPU row's repetitions and their two groups (issue 19, thirty-fourth pass (s28-sync)).

  sync_modes.py HW_DIR [HW_DIR ...] [--match REGEX]

For every entry folder (ID/result.json with `measured.checks_by_repetition`, symsim-hw run with
SYMSIM_HW_KEEP_REPETITIONS=1) prints the repetitions' values (ns), their median, and a pattern of
L / H per repetition: a row is bimodal when its largest gap between sorted values is over 10% of the
median; L / H are the two sides of that gap ('-' for every repetition when it is not). Rows whose
group comes from the sync word's address share one pattern in a pass.
"""
import argparse
import glob
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402

GAP = 0.10


def pattern(vs):
    """'L' / 'H' per repetition split at the largest gap, or '-' when no gap is over GAP x median."""
    s = sorted(vs)
    med = statistics.median(vs)
    gap, cut = max(((s[i + 1] - s[i], (s[i + 1] + s[i]) / 2) for i in range(len(s) - 1)), default=(0, 0))
    if gap <= GAP * med:
        return "-" * len(vs), None
    return "".join("H" if v > cut else "L" for v in vs), cut


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dirs", nargs="+")
    p.add_argument("--match", default="")
    a = p.parse_args()
    for d in a.dirs:
        print(f"== {d}")
        for path in sorted(glob.glob(os.path.join(d, "*", "result.json"))):
            entry = os.path.basename(os.path.dirname(path))
            if not re.search(a.match, entry):
                continue
            vs = hw_diff.repetition_values(hw_diff.read(path))
            if not vs:
                continue
            pat, cut = pattern(vs)
            groups = ""
            if cut is not None:
                lo = [v for v in vs if v <= cut]
                hi = [v for v in vs if v > cut]
                groups = f" L {statistics.median(lo):.0f} H {statistics.median(hi):.0f} (+{statistics.median(hi) - statistics.median(lo):.0f})"
            print(f"{entry:48s} {pat:24s} median {statistics.median(vs):7.1f} last {vs[-1]:7.1f}{groups}")
            print(f"{'':48s} {' '.join(f'{v:.0f}' for v in vs)}")


if __name__ == "__main__":
    main()
