#!/usr/bin/env python3
"""Reads the s32-round device question (issue 19, thirty-eighth pass (s32-round)): mode 22's send round by top-k form.

  s32round_read.py HW_DIR [--sim SIM_DIR ...]

HW_DIR: `hw_diff.py hw --set hw/diff/s32round_rows.json` with SYMSIM_HW_KEEP_REPETITIONS=1; SIM_DIR: `hw_diff.py sim`
of the same set. A round = (p1 at 32 rounds a warp - p1 at one) / 31. One warp's rows read at two levels set by the
repetition (the slot atomic's word, s31-rows), the same repetitions in every variant (one run a variant, same windows):
each level's round (its median, against the one-round row's median), and each variant less the default repetition by
repetition (the level cancels). 4 x 4: medians.
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402
from rep_levels import levels, repetitions  # noqa: E402

VARIANTS = ["heapdata", "rttopk_heapdata", "rtexperts_heapdata", "rtranks_heapdata"]
SHAPES = {"1 x 1": ("32tok_h7168_c1w1", "1tok_h7168_c1w1"), "4 x 4": ("512tok_h7168_c4w4", "16tok_h7168_c4w4")}


def ident(variant, part):
    return f"micro_dispatch_phases_{variant}_{part}_p1_ns"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hw")
    ap.add_argument("--sim", action="append", default=[])
    ap.add_argument("--gap", type=float, default=0.05)
    args = ap.parse_args()
    print("| variant | shape | GPU round, ns (levels or median) | GPU - default, ns a round (by repetition) | "
          + " | ".join(f"model {os.path.basename(s.rstrip('/'))}" for s in args.sim) + " |")
    print("|---|---|---:|---:|" + "---:|" * len(args.sim))
    for shape, (many, one) in SHAPES.items():
        base = repetitions(args.hw, ident("heapdata", many))
        base_one = statistics.median(repetitions(args.hw, ident("heapdata", one)))
        for v in VARIANTS:
            reps = repetitions(args.hw, ident(v, many))
            one_ns = statistics.median(repetitions(args.hw, ident(v, one)))
            groups = levels(reps, args.gap) if shape == "1 x 1" else [reps]
            rounds = " / ".join(f"{(statistics.median(g) - one_ns) / 31:.0f} (x{len(g)})" for g in groups)
            diffs = [((a - one_ns) - (b - base_one)) / 31 for a, b in zip(reps, base)]
            diff = f"{statistics.median(diffs):+.0f} ({min(diffs):+.0f} to {max(diffs):+.0f})" if v != "heapdata" else "-"
            sims = []
            for s in args.sim:
                a = hw_diff.probe_value(hw_diff.read(os.path.join(s, ident(v, many), "result.json")))
                b = hw_diff.probe_value(hw_diff.read(os.path.join(s, ident(v, one), "result.json")))
                sims.append(f"{(a - b) / 31:.0f}")
            print(f"| {v} | {shape} | {rounds} | {diff} | " + " | ".join(sims) + " |")


if __name__ == "__main__":
    main()
