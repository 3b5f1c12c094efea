#!/usr/bin/env python3
"""s33-sync's device question (issue 19): the sync rows' probes as their sets run them, 11 repetitions each, on an H200.

  python3 hw/diff/s33sync_rows.py   writes hw/diff/s33sync_rows.json

Every calibration row of the sync families (`shim.grid_sync`, `shim.signal_wait`, `flag`) that
hw/calib/results/h200-2026-12-06-s33-syncref/sync_refs.md references to its median repetition on the H200 passes,
with the entry that pass ran (the first *_set.json holding the row): one more H200 pass of the same probes, read with
`python3 hw/diff/sync_refs.py` beside the nine (docs/hw-accuracy.md, thirty-ninth pass (s33-sync)). c64 / c128 (one
H200 call so far) and `shim.grid_sync.c8_ns` (no calibration row: two groups) come along.
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_rows  # noqa: E402

FAMILIES = ("shim.grid_sync.", "shim.signal_wait.", "flag.")


def main():
    seen, entries = set(), []
    for path in sorted(glob.glob(os.path.join(HERE, "*_set.json"))):
        with open(path) as f:
            d = json.load(f)
        for e in d["entries"] if isinstance(d, dict) else d:
            if e.get("kind") == "micro" and e.get("row", "").startswith(FAMILIES) and e["row"] not in seen:
                seen.add(e["row"])
                entries.append(e)
    probe_rows.write(os.path.join(HERE, "s33sync_rows.json"), __doc__.split("\n\n")[1].replace("\n", " "), entries)
    print(f"{len(entries)} entries")


if __name__ == "__main__":
    main()
