#!/usr/bin/env python3
"""A device question: calibration rows with their window in cudaMalloc memory and in the symmetric heap (issue 19).

  heap_rows.py --out hw/diff/s29heap_rows.json --doc TEXT ROW [ROW ...] [--freed ROW ...] [--control ROW ...]

Each ROW (a calibration row id, `shim.dispatch_route.l2.7168.c4w1.none_ns`) is taken from the first set
that probes it, as calib_families.py counts it, and written twice: as stored (its entry id and row, so
calib_reproduce.py reads the answer as a re-measurement of the row) and with `kernel.args.heap=1`, the
window in the symmetric heap, the same bytes (entry `<id>_heap`, row `<row less _ns>.heap_ns`). A --freed
row is written a third time with `kernel.args.heap=2` (cudaMalloc memory given back when the probe
returns: `.freed_ns`); a --control row only as stored, before the others. calib_probe's `heap` argument:
kernels/nvlink/calib/calib_probe_host.cpp; docs/hw-accuracy.md, thirty-fifth pass (s29-heap).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import hw_diff  # noqa: E402

PLACEMENTS = {1: "heap", 2: "freed"}


def stored_entries():
    """Row id -> the entry of the first set that probes it (calib_families.py's choice)."""
    table, found = hw_diff.calib_rows(hw_diff.CALIB_TABLES), {}
    for path in calib_families.sets():
        for e in hw_diff.load_set(path):
            if e.get("kind") == "micro" and e["row"] in table and e["row"] not in found:
                found[e["row"]] = e
    return found


def placed(entry, heap):
    """The entry with its window placed by calib_probe's `heap` argument (0 leaves it as stored)."""
    if heap == 0:
        return dict(entry)
    name = PLACEMENTS[heap]
    row = entry["row"][:-len("_ns")] if entry["row"].endswith("_ns") else entry["row"]
    sets = [s for s in entry["sets"] if not s.startswith("kernel.args.heap=")] + [f"kernel.args.heap={heap}"]
    return {"id": f"{entry['id']}_{name}", "kind": "micro", "row": f"{row}.{name}_ns", "scenario": entry["scenario"],
            "sets": sets}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rows", nargs="+")
    p.add_argument("--out", required=True)
    p.add_argument("--doc", required=True)
    p.add_argument("--freed", nargs="*", default=[])
    p.add_argument("--control", nargs="*", default=[])
    a = p.parse_args()
    known = stored_entries()
    missing = [r for r in a.rows + a.freed + a.control if r not in known]
    if missing:
        sys.exit("not a calibration row some set simulates: " + " ".join(missing))
    entries = [placed(known[row], 0) for row in a.control]  # first: a pass cut short still has them
    for row in a.rows:
        entries += [placed(known[row], 0), placed(known[row], 1)] + ([placed(known[row], 2)] if row in a.freed else [])
    with open(a.out, "w") as f:
        json.dump({"doc": a.doc, "entries": entries}, f, indent=1)
        f.write("\n")
    print(f"{a.out}: {len(entries)} entries ({len(a.rows)} rows in two placements, {len(a.freed)} freed, "
          f"{len(a.control)} controls)")


if __name__ == "__main__":
    main()
