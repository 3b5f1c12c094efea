#!/usr/bin/env python3
"""A device question: the 4 x 4 pull step (calib_probe mode 21) part by part (issue 19, thirty-seventh pass (s31-pull)).

  s31pull_rows.py --out hw/diff/s31pull_rows.json

Mode 21's `inflight` bits keep the routing load (1), the slot atomic (2) and the two source words (4); 0 is the bare
step (wait_group 0, load, wait, store, commit in the step's own loop), + 8 the pin's row (`mapped`). Every variant in
the symmetric heap (`heap` 1, the rows' reference placement since s29-heap) and freed (`heap` 2: the probe's word, whose
first int is the slot counter, is then the same memory at every repetition), the 4 x 4 and the one-warp shape; the same
call's copy rounds (mode 11, `wait_group` 0; mode 12, two buffers and `wait_group` 1) as controls. Read every
repetition (SYMSIM_HW_KEEP_REPETITIONS=1): the slot-atomic rows took two levels by the repetition on session 29's call
D1 (docs/hw-accuracy.md, thirty-sixth pass (s30-reduce), section 3).
"""
import argparse

import probe_rows

STEP = ["kernel.args.mode=21", "kernel.args.bytes=7168", "kernel.args.count=64", "kernel.args.window_kib=16384",
        "kernel.args.hot=1"]
NAMES = {0: "bare", 1: "route_only", 2: "atomic_only", 3: "no_src", 4: "src_only", 5: "no_atomic", 6: "no_route",
         7: "full", 15: "mapped"}
PLACEMENTS = {1: "heap", 2: "freed"}


def entry(eid, row, sets):
    return probe_rows.entry(row, sets, eid)


def shape(ctas, warps):
    return [f"kernel.blocks={ctas}", f"kernel.args.warps={warps}"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    entries = []
    for heap, place in PLACEMENTS.items():
        for bits, name in NAMES.items():
            row = f"shim.pull_step.l2.7k.c4w4.{name}.{place}_ns"
            entries.append(entry(f"micro_s31pull_c4w4_{name}_{place}", row,
                                 STEP + [f"kernel.args.inflight={bits}"] + shape(4, 4) + [f"kernel.args.heap={heap}"]))
    for bits in (0, 1, 2, 7):
        name = NAMES[bits]
        entries.append(entry(f"micro_s31pull_c1w1_{name}_heap", f"shim.pull_step.l2.7k.c1w1.{name}.heap_ns",
                             STEP + [f"kernel.args.inflight={bits}"] + shape(1, 1) + ["kernel.args.heap=1"]))
    copy = ["kernel.args.bytes=7168", "kernel.args.count=64", "kernel.args.window_kib=16384", "kernel.args.hot=1",
            "kernel.args.heap=1"]
    for mode, fam in ((11, "copy_round"), (12, "copy_round_warp")):
        for ctas, warps in ((1, 4), (4, 4), (1, 1)):
            entries.append(entry(f"micro_s31pull_{fam}_c{ctas}w{warps}_heap", f"shim.{fam}.l2.7k.c{ctas}w{warps}.heap_ns",
                                 [f"kernel.args.mode={mode}", "kernel.args.inflight=1"] + copy + shape(ctas, warps)))
    doc = ("Issue 19, thirty-seventh pass (s31-pull): calib_probe mode 21 (pull's step) part by part, 4 x 4 and one "
           "warp, in the heap and freed, with the same call's copy rounds (modes 11 and 12); every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
