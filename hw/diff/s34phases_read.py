#!/usr/bin/env python3
"""Reads the s34-phases device question (issue 19, fortieth pass (s34-phases)): dispatch's send round by part and shape.

  s34phases_read.py HW_DIR [--sim SIM_DIR ...]

HW_DIR: `hw_diff.py hw --set hw/diff/s34phases_rows.json` with SYMSIM_HW_KEEP_REPETITIONS=1 (session 34's call D2:
hw/diff/results/h100-2026-12-06-s34-D2-phases/hw_s34phases.tgz); SIM_DIR: `hw_diff.py sim` of the same set. The GPU's
figure is the median of repetitions 2-11 (the heap does not climb). Three tables: mode 29's step by part (rows) and
shape (columns) with each part's cost over the bare round; mode 29's routing round, packed and line-padded messages;
mode 22's send phase by SMs at 32 rounds a warp and by shape at one round.
"""
import argparse
import functools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402

SHAPES = ["c1w1", "c1w4", "c4w1", "c4w4"]
PARTS = ["s0", "s1", "s2", "s3", "s7"]


def cell(v, g):
    return "-" if v is None else f"{v:,.0f}" + ("" if g is None or v is g else f" ({v / g:.3f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hw")
    ap.add_argument("--sim", action="append", default=[])
    a = ap.parse_args()
    tags = [os.path.basename(s.rstrip("/")) for s in a.sim]
    src = [("gpu", functools.partial(hw_diff.median_repetition, a.hw))] + \
        [(t, functools.partial(hw_diff.probe_value_at, d)) for t, d in zip(tags, a.sim)]

    print("A. mode 29's step, ns a round (GPU; model and / GPU), and the part's cost over s0 (GPU / model)")
    print("| part | " + " | ".join(f"{s} {t}" for s in SHAPES for t, _ in src) + " |")
    print("|---|" + "---:|" * (len(SHAPES) * len(src)))
    val = {}
    for p in PARTS:
        for s in SHAPES:
            n = f"micro_dispatch_step_heap_7168_{s}_{p}_ns"
            for t, f in src:
                val[(t, s, p)] = f(n)
        print(f"| {p} | " + " | ".join(cell(val[(t, s, p)], val[("gpu", s, p)]) for s in SHAPES for t, _ in src) + " |")
    for p in PARTS[1:]:
        print(f"| {p} - s0 | " + " | ".join(f"{val[(t, s, p)] - val[(t, s, 's0')]:+,.0f}" for s in SHAPES for t, _ in src) + " |")

    print("\nB. mode 29's routing round (bare / all), messages packed and padded to whole lines, ns a round")
    print("| shape | part | " + " | ".join(f"{t} packed | {t} lines" for t, _ in src) + " |")
    print("|---|---|" + "---:|---:|" * len(src))
    for s in ("c1w4", "c4w4"):
        for p in ("none", "all"):
            cells = []
            for t, f in src:
                for suffix in ("", "_lines"):
                    n = f"micro_dispatch_route_heap_7168_{s}_{p}{suffix}_ns"
                    cells.append(cell(f(n), None if t == "gpu" else hw_diff.median_repetition(a.hw, n)))
            print(f"| {s} | {p} | " + " | ".join(cells) + " |")

    print("\nC. mode 22's send phase p1 in the heap, ns")
    print("| shape | tokens (rounds a warp) | " + " | ".join(t for t, _ in src) + " |")
    print("|---|---|" + "---:|" * len(src))
    for s, tok, rounds in [("c1w1", 1, 1), ("c1w4", 4, 1), ("c4w1", 4, 1), ("c4w4", 16, 1),
                           ("c1w4", 128, 32), ("c2w4", 256, 32), ("c4w4", 512, 32)]:
        n = f"micro_dispatch_phases_heapdata_{tok}tok_h7168_{s}_p1_ns"
        g = hw_diff.median_repetition(a.hw, n)
        print(f"| {s} | {tok} ({rounds}) | " + " | ".join(cell(f(n), None if t == "gpu" else g) for t, f in src) + " |")


if __name__ == "__main__":
    main()
