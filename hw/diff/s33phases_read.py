#!/usr/bin/env python3
"""Reads the s33-phases device question (issue 19, thirty-ninth pass (s33-phases)): dispatch's phases by rounds a warp.

  s33phases_read.py HW_DIR [--sim SIM_DIR ...]

HW_DIR: `hw_diff.py hw --set hw/diff/s33phases_rows.json` with SYMSIM_HW_KEEP_REPETITIONS=1; SIM_DIR: `hw_diff.py sim`
of the same set. The GPU's figure is the median of repetitions 2-11 (the heap does not climb; fresh memory is new
memory every repetition). Three tables: each row against the model; the cost of each added round (p1) and of phases 2
and 3 (p3 - p1), GPU and model, in the heap; fresh memory's increment over the heap (p1 and p3), GPU and model.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402

ROUNDS = [1, 2, 4, 8, 16, 32]


def ident(hot, tokens, phase):
    return f"micro_dispatch_phases_{hot}_{tokens}tok_h7168_c4w4_p{phase}_ns"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hw")
    ap.add_argument("--sim", action="append", default=[])
    a = ap.parse_args()
    tags = [os.path.basename(s.rstrip("/")) for s in a.sim]
    val = {}
    for hot in ("heapdata", "fresh"):
        for r in ROUNDS:
            for ph in (1, 3):
                n = ident(hot, 16 * r, ph)
                val[("gpu", hot, r, ph)] = hw_diff.median_repetition(a.hw, n)
                for t, d in zip(tags, a.sim):
                    val[(t, hot, r, ph)] = hw_diff.probe_value_at(d, n)
    src = ["gpu"] + tags
    print("| memory | rounds a warp | phase | GPU (median) | " + " | ".join(f"{t} (/ GPU)" for t in tags) + " |")
    print("|---|---:|---|---:|" + "---:|" * len(tags))
    for hot in ("heapdata", "fresh"):
        for ph in (1, 3):
            for r in ROUNDS:
                g = val[("gpu", hot, r, ph)]
                cells = [f"{val[(t, hot, r, ph)]:,.0f} ({val[(t, hot, r, ph)] / g:.3f})" for t in tags]
                print(f"| {hot} | {r} | p{ph} | {g:,.0f} | " + " | ".join(cells) + " |")
    print("\nHeap, ns: each added round's cost in phase 1 ((p1(r) - p1(r')) / (r - r')), and phases 2-3 (p3 - p1)")
    print("| rounds | " + " | ".join(f"{s} a round" for s in src) + " | " + " | ".join(f"{s} p3 - p1" for s in src) + " |")
    print("|---|" + "---:|" * (2 * len(src)))
    for i, r in enumerate(ROUNDS):
        per = [(val[(s, "heapdata", r, 1)] - val[(s, "heapdata", ROUNDS[i - 1], 1)]) / (r - ROUNDS[i - 1]) if i else None
               for s in src]
        rest = [val[(s, "heapdata", r, 3)] - val[(s, "heapdata", r, 1)] for s in src]
        print(f"| {r} | " + " | ".join("-" if v is None else f"{v:,.0f}" for v in per) + " | "
              + " | ".join(f"{v:,.0f}" for v in rest) + " |")
    print("\nFresh memory less the heap, ns (p1, p3; p1's a round)")
    print("| rounds | " + " | ".join(f"{s} p1 (a round)" for s in src) + " | " + " | ".join(f"{s} p3" for s in src) + " |")
    print("|---|" + "---:|" * (2 * len(src)))
    for r in ROUNDS:
        p1 = [val[(s, "fresh", r, 1)] - val[(s, "heapdata", r, 1)] for s in src]
        p3 = [val[(s, "fresh", r, 3)] - val[(s, "heapdata", r, 3)] for s in src]
        print(f"| {r} | " + " | ".join(f"{v:,.0f} ({v / r:,.0f})" for v in p1) + " | " + " | ".join(f"{v:,.0f}" for v in p3) + " |")


if __name__ == "__main__":
    main()
