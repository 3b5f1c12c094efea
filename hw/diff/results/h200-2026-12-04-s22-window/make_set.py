#!/usr/bin/env python3
"""Writes hw/diff/s22w_rows.json: the rows s22-window re-measures with the fixed procedure.

Every calibration row as calib_families.py resolves it (the first hw/diff/*_set.json entry
holding it, in name order) that is multi-warp or multi-CTA (kernel.args.warps > 1 or
kernel.blocks > 1), every row of the shim families the brief names (their single-warp rows are
controls), and a few single-warp rows of other families as controls. The file is not named
*_set.json, so calib_families.py does not simulate these rows a second time.
"""
import glob
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "hw", "diff"))
import calib_families  # noqa: E402
import hw_diff  # noqa: E402

FAMILIES = ["shim." + f for f in ("dispatch_route", "dispatch_phases", "dispatch_step", "copy_round", "copy_round_2buf",
                                  "copy_round_other", "copy_round_read", "copy_round_warp", "pull_step", "pull_phases",
                                  "load_round_warp", "store_round_warp", "grid_sync", "signal_wait", "reduce_row")]
CONTROLS = ["mem.load_latency.ws_1mib_ns", "tma_sm.load_l2.16k.x1_gbps", "tma_mbar.load_l2.1k.k1.round_ns",
            "tma_code.load_l2.4k.k4.n0.round_ns", "tma_store_code.l2.16k.n0.round_ns", "fresh.bulk_store.l2.7168.32r.c1w1_ns",
            "fresh.plain_load.l2.7168.32r.c1w1_ns",
            # never-written memory (`hot` 0), single warp: must stay well above its .l2 row (L2 read out)
            "fresh.plain_load.fresh.7168.32r.c1w1_ns", "tma_sm.store.16k.x1_gbps"]


def multi(entry):
    s = dict(x.split("=", 1) for x in entry["sets"])
    return int(s.get("kernel.args.warps", 1)) > 1 or int(s.get("kernel.blocks", 1)) > 1


def main():
    os.chdir(ROOT)
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    first = {}
    for path in calib_families.sets():
        for e in hw_diff.load_set(path):
            if e.get("kind") == "micro" and e["row"] in table and e["row"] not in first:
                first[e["row"]] = e
    chosen = [e for row, e in first.items()
              if multi(e) or calib_families.family(row) in FAMILIES or row in CONTROLS]
    missing = [c for c in CONTROLS if c not in first]
    if missing:
        sys.exit(f"controls not found: {missing}")
    doc = ("Issue 19, s22-window: the calibration rows measured again with calib_probe's host reusing one block per "
           "allocation across symsim-hw's repetitions and reading L2 out before each (kernels/nvlink/calib/probe_memory.h). "
           "Written by hw/diff/results/h200-2026-12-04-s22-window/make_set.py: every multi-warp or multi-CTA row, every "
           "row of the shim families named in the brief, and single-warp controls; each entry as the first *_set.json "
           "entry holding its row.")
    with open(os.path.join("hw", "diff", "s22w_rows.json"), "w") as f:
        json.dump({"doc": doc, "entries": chosen}, f, indent=1)
        f.write("\n")
    print(f"{len(chosen)} entries: {sum(multi(e) for e in chosen)} multi-warp or multi-CTA, "
          f"{sum(not multi(e) for e in chosen)} single-warp")


if __name__ == "__main__":
    main()
