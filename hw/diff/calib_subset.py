#!/usr/bin/env python3
"""The calibration rows whose id matches a pattern, simulated alone (issue 19; a quick look before
calib_families.py's whole run).

  calib_subset.py --symsim build/bin/symsim --rows 'grid_sync|dispatch_phases' [--set KEY=V ...]
                  [--hw HW_DIR ...] [--calib-md FILE ...]

Each row is run with the first set's entry that probes it (as calib_families.py counts it), two at
a time, plus every --set. Printed per row: simulated, stored, the median reading (the stored value
and every re-measurement in the --hw / --calib-md folders, as calib_reproduce.py reads them), and
sim / stored, sim / median; then the counts within 10%.
"""
import argparse
import concurrent.futures
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import calib_reproduce  # noqa: E402
import hw_diff  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--symsim", required=True)
    p.add_argument("--rows", required=True, help="a regular expression on the row id")
    p.add_argument("--set", action="append", default=[], metavar="KEY=V")
    p.add_argument("--hw", action="append", default=[], help="symsim-hw result folders (calib_reproduce.py's)")
    p.add_argument("--calib-md", action="append", default=[])
    a = p.parse_args()
    table, pattern, entries = hw_diff.calib_rows(hw_diff.CALIB_TABLES), re.compile(a.rows), {}
    for path in calib_families.sets():
        for e in hw_diff.load_set(path):
            if e.get("kind") == "micro" and e["row"] in table and e["row"] not in entries and pattern.search(e["row"]):
                entries[e["row"]] = e
    got = calib_reproduce.readings(a.hw, a.calib_md, calib_reproduce.calib_tool_rows())
    out_dir = tempfile.mkdtemp(prefix="calib_subset.")

    def run(row):
        e = entries[row]
        out = os.path.join(out_dir, e["id"])
        cmd = [a.symsim, "run", os.path.join(ROOT, e["scenario"]), "--out", out]
        for s in e.get("sets", []) + a.set:
            cmd += ["--set", s]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        return row, hw_diff.probe_value(hw_diff.read(os.path.join(out, "result.json")))

    n_stored = n_median = 0
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for row, v in sorted(pool.map(run, sorted(entries))):
            s = table[row][0]
            med = statistics.median([s] + got.get(row, []))
            if v is None:
                print(f"{row} failed")
                continue
            n_stored += abs(v / s - 1) <= calib_families.TOLERANCE
            n_median += abs(v / med - 1) <= calib_families.TOLERANCE
            print(f"{row:58s} sim {v:9.1f} stored {s:9.1f} median {med:9.1f}  sim/stored {v / s:.3f}  sim/median {v / med:.3f}")
    print(f"within 10%: {n_stored} of {len(entries)} (stored), {n_median} (median reading)")


if __name__ == "__main__":
    main()
