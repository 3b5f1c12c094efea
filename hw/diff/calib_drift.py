#!/usr/bin/env python3
"""Calibration rows whose GPU reading moves with the repetition index of symsim-hw's procedure (issue 19).

  calib_drift.py --sim SIM_DIR HW_DIR [HW_DIR ...] [--early 3] [--drift 0.10] [--rows]

HW_DIR: symsim-hw results written with SYMSIM_HW_KEEP_REPETITIONS=1 (`measured.checks_by_repetition`: every
repetition's value=..., in order; the stored rows' procedure takes the last one). Per row: the median of the first
--early repetitions ("early") against the last one, in each folder holding it. A row drifts when the last reading is
more than --drift away from the early one in at least one folder. SIM_DIR: calib_families.py's --out folder; the
simulator is compared with the stored value, the last reading and the early one.

Printed: per family, rows read with repetitions, rows that drift, and the simulator within 10% of the stored value /
of the median last reading / of the median early reading over those rows; then (--rows) every drifting row.
"""
import argparse
import collections
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import calib_reproduce  # noqa: E402
import hw_diff  # noqa: E402


def readings(hw_dirs, early_n):
    """Row -> [(folder, early median, last)] over the folders holding it with all its repetitions."""
    ids, out = calib_reproduce.entry_rows(), collections.defaultdict(list)
    for d in hw_dirs:
        for name in sorted(os.listdir(d)):
            row = ids.get(name)
            reps = hw_diff.repetition_values(hw_diff.read(os.path.join(d, name, "result.json")))
            if row and len(reps) > early_n:
                out[row].append((os.path.basename(os.path.normpath(d)), statistics.median(reps[:early_n]), reps[-1]))
    return out


def within(x):
    return abs(x - 1) <= 0.10


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sim", required=True, help="calib_families.py's --out folder")
    p.add_argument("hw", nargs="+", help="symsim-hw result folders with kept repetitions")
    p.add_argument("--early", type=int, default=3, help="repetitions whose median is the early reading")
    p.add_argument("--drift", type=float, default=0.10, help="last / early beyond 1 +- this: the row drifts")
    p.add_argument("--rows", action="store_true", help="and every drifting row")
    a = p.parse_args()
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    sim = {row: r * table[row][0] for row, r in calib_families.ratios(a.sim).items()}
    reads = readings(a.hw, a.early)
    fam = collections.defaultdict(lambda: [0, 0, 0, 0, 0])  # read, drift, sim~stored, sim~last, sim~early (drifting rows)
    drifting = []
    for row, rs in sorted(reads.items()):
        if row not in sim:
            continue
        f = fam[calib_families.family(row)]
        f[0] += 1
        if not any(abs(last / early - 1) > a.drift for _, early, last in rs):
            continue
        last = statistics.median(x[2] for x in rs)
        early = statistics.median(x[1] for x in rs)
        s = sim[row]
        f[1] += 1
        f[2] += within(s / table[row][0])
        f[3] += within(s / last)
        f[4] += within(s / early)
        drifting.append((row, s, table[row][0], rs))
    print("| family | rows read with repetitions | drifting | of those, sim within 10% of: stored | last | early |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    tot = [0] * 5
    for name, f in sorted(fam.items()):
        tot = [x + y for x, y in zip(tot, f)]
        if f[1]:
            print(f"| `{name}` | {f[0]} | {f[1]} | {f[2]} | {f[3]} | {f[4]} |")
    print(f"| all | {tot[0]} | {tot[1]} | {tot[2]} | {tot[3]} | {tot[4]} |")
    if a.rows:
        print()
        print("| row | sim | stored | early -> last, per folder | sim / stored | sim / early |")
        print("| --- | ---: | ---: | --- | ---: | ---: |")
        for row, s, stored, rs in drifting:
            early = statistics.median(x[1] for x in rs)
            per = "; ".join(f"{d} {e:.4g} -> {l:.4g}" for d, e, l in rs)
            print(f"| `{row}` | {s:.4g} | {stored:.4g} | {per} | {s / stored:.3f} | {s / early:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
