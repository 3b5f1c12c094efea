#!/usr/bin/env python3
"""Every calibration row re-simulated, counted by family (issue 19: each within 10%).

  calib_families.py --symsim build/bin/symsim --out DIR   simulate the micro rows of every set
                                                          (hw/diff/*_set.json) into DIR/<set>/,
                                                          then print the table
  calib_families.py ... --extra-set platform.sim.quantum_ns=20   every row with one more --set
  calib_families.py --out DIR [--rows]                    the table from the runs in DIR (--rows:
                                                          and every row outside 10%)

A row is a row of hw_diff.py's calibration tables (the first table holding it wins); a row probed
by several sets counts once, with the first set's run (sets in name order). Its family is its
id's first two dot-separated parts (`fresh.plain_load`, `shim.dispatch_phases`).
"""
import argparse
import collections
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402

TOLERANCE = 0.10


def sets():
    return sorted(glob.glob(os.path.join(HERE, "*_set.json")))


def simulate(symsim, out, platform, extra_sets=(), set_paths=None):
    for path in sets() if set_paths is None else set_paths:
        name = os.path.basename(path)[:-len("_set.json")]
        if not any(e.get("kind") == "micro" for e in hw_diff.load_set(path)):
            continue
        subprocess.run([sys.executable, os.path.join(HERE, "hw_diff.py"), "sim", "--set", path, "--kind", "micro",
                        "--symsim", symsim, "--platform", platform, "--out", os.path.join(out, name)]
                       + [x for s in extra_sets for x in ("--extra-set", s)],
                       stdout=subprocess.DEVNULL, check=True)


def figures(out, set_paths=None, tables=None):
    """Row id -> (calibration value, unit, sim, the run's folder under OUT), each distinct row once (the sets
    and calibration tables: the project's unless given)."""
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES if tables is None else tables)
    found = {}
    for path in sets() if set_paths is None else set_paths:
        name = os.path.basename(path)[:-len("_set.json")]
        for e in hw_diff.load_set(path):
            if e.get("kind") != "micro" or e["row"] in found or e["row"] not in table:
                continue
            sim = hw_diff.probe_value(hw_diff.read(os.path.join(out, name, e["id"], "result.json")))
            if sim is not None:
                found[e["row"]] = table[e["row"]] + (sim, os.path.join(name, e["id"]))
    return found


def ratios(out):
    """Row id -> sim / calibration value, each distinct row once."""
    return {row: sim / ref for row, (ref, _, sim, _) in figures(out).items()}


def family(row):
    return ".".join(row.split(".")[:2])


def report(found, show_rows):
    by_family = collections.defaultdict(list)
    for row, r in found.items():
        by_family[family(row)].append((row, r))
    print("| family | rows | within 10% | sim / calibration outside |")
    print("| --- | ---: | ---: | --- |")
    for fam in sorted(by_family):
        rows = by_family[fam]
        outside = sorted(r for _, r in rows if abs(r - 1) > TOLERANCE)
        span = f"{outside[0]:.2f}-{outside[-1]:.2f}" if outside else ""
        print(f"| `{fam}` | {len(rows)} | {len(rows) - len(outside)} | {span} |")
    within = sum(abs(r - 1) <= TOLERANCE for r in found.values())
    errs = sorted(abs(r - 1) for r in found.values())
    print(f"\nCalibration rows re-simulated: {len(found)}; within 10%: {within}; outside: {len(found) - within}; "
          f"median |error| {errs[len(errs) // 2] * 100:.1f}%." if errs else "\nNo rows.")
    if show_rows:
        print()
        for row, r in sorted(found.items()):
            if abs(r - 1) > TOLERANCE:
                print(f"{row} {r:.3f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--symsim", help="simulate first, with this binary")
    p.add_argument("--platform", default="h200")
    p.add_argument("--rows", action="store_true")
    p.add_argument("--extra-set", action="append", default=[], metavar="KEY=V",
                   help="one more --set for every row (e.g. platform.sim.quantum_ns=20)")
    a = p.parse_args()
    if a.symsim:
        simulate(a.symsim, a.out, a.platform, a.extra_set)
    report(ratios(a.out), a.rows)


if __name__ == "__main__":
    main()
