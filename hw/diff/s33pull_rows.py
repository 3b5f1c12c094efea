#!/usr/bin/env python3
"""A device question: one warp's pull step (calib_probe mode 21) part by part at one level (issue 19, thirty-ninth pass (s33-pull)).

  s33pull_rows.py --out hw/diff/s33pull_rows.json

Mode 21's `inflight` bits keep the routing load (1), the slot atomic (2) and the two source words (4); 0 is the bare
step. One CTA of one warp, every combination 0-7 freed (`heap` 2: the probe's word, whose first int is the slot counter,
is the same memory at every repetition, so the slot atomic reads one level, session 31's call D2) and the words alone
and the whole step in the heap (`heap` 1, the stored row's placement). What it answers: the two source words' cost at
one warp, alone (4 - 0) and beside each other part (5 - 1, 6 - 2, 7 - 3), against the model's +102 / +164 / +161 / +163
ns (main `9f5091c`: the words wait behind the bulk store's bytes on the SM's write path and then for their landing at
the `__syncwarp`) and the GPU's +20 implied by session 31's D2 (one warp: `full` 918 against bare + routing + atomic
898, H100 heap low level). Every repetition kept (SYMSIM_HW_KEEP_REPETITIONS=1).
"""
import argparse

import probe_rows

STEP = ["kernel.args.mode=21", "kernel.args.bytes=7168", "kernel.args.count=64", "kernel.args.window_kib=16384",
        "kernel.args.hot=1", "kernel.blocks=1", "kernel.args.warps=1"]
NAMES = {0: "bare", 1: "route_only", 2: "atomic_only", 3: "no_src", 4: "src_only", 5: "no_atomic", 6: "no_route",
         7: "full"}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    entries = []
    for bits, name in NAMES.items():
        entries.append(probe_rows.entry(f"shim.pull_step.l2.7k.c1w1.{name}.freed_ns",
                                        STEP + [f"kernel.args.inflight={bits}", "kernel.args.heap=2"],
                                        f"micro_s33pull_c1w1_{name}_freed"))
    for bits in (4, 7):
        name = NAMES[bits]
        entries.append(probe_rows.entry(f"shim.pull_step.l2.7k.c1w1.{name}.heap_ns",
                                        STEP + [f"kernel.args.inflight={bits}", "kernel.args.heap=1"],
                                        f"micro_s33pull_c1w1_{name}_heap"))
    doc = ("Issue 19, thirty-ninth pass (s33-pull): calib_probe mode 21 (pull's step) at one warp, every part "
           "combination freed (one level) and the words alone / the whole step in the heap; every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
