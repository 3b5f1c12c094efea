#!/usr/bin/env python3
"""The one-SM routing rows of hw/diff/s25route_rows.json read against the engine's forms (issue 19, s27-route).

  route_one_sm_read.py --hw HW_DIR [--sim SIM_DIR] [--engine-ns E] [--per-rep]

HW_DIR: `hw_diff.py hw --set hw/diff/s25route_rows.json` output (ID/result.json, every repetition in
measured.checks_by_repetition). SIM_DIR: `hw_diff.py sim --set hw/diff/s25route_rows.json` output.
Each row: the last repetition's value (what the stored rows took) and the median of repetitions 2..n;
then, from the same call's one-warp row of the same routing (median), a warp's round for N warps by:
  fifo    the FIFO engine with warps in step, max(N x E, one warp)
  mva     the closed queue, exact MVA (exponential engine times: the model, tma.engine_mva)
  c2 0.5 / c2 0   approximate MVA with less variable engine times (route_mva_cv.py)
and the c2 that puts the approximate MVA on the GPU's median (where one does: N = 2, 3).
E = 235.4 ns (route_closed_queue.E_SHIFTED_NS: dispatch's shifted row and its 7184 B message), or
--engine-ns (on another GPU: the same call's c1w8 `none` median / 8, an engine-bound round).
--per-rep: then each several-warp row's repetitions against the exact closed queue from the same
repetition of its one-warp row (each row is its own run, so repetition k of each is at the same
point of the procedure).
"""
import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402
from route_closed_queue import E_SHIFTED_NS  # noqa: E402
from route_mva_cv import c2_fit, round_ns  # noqa: E402

ROUTES = ("none", "ldg", "shfl", "all")
WARPS = (1, 2, 3, 4, 8)


def row_id(w, route):
    return f"micro_dispatch_route_l2_7168_c1w{w}_{route}_ns"


def repetitions(path):
    """Every repetition's value of a result.json (measured.checks_by_repetition), or []."""
    r = hw_diff.read(path)
    if not r or r.get("status") != "pass":
        return []
    return hw_diff.repetition_values(r)


def values(path):
    """(last repetition, median of repetitions 2..n) of a result.json, or None."""
    r = hw_diff.read(path)
    if not r or r.get("status") != "pass":
        return None
    reps = repetitions(path)
    last = hw_diff.probe_value(r)
    if not reps:
        return (last, last) if last is not None else None
    return last, statistics.median(reps[1:] or reps)



def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hw", required=True)
    p.add_argument("--sim")
    p.add_argument("--engine-ns", type=float, default=E_SHIFTED_NS)
    p.add_argument("--per-rep", action="store_true")
    a = p.parse_args()
    e = a.engine_ns
    print("| row | GPU last / median | model | fifo | mva | c2 0.5 | c2 0 | c2 fitted |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for route in ROUTES:
        one = values(os.path.join(a.hw, row_id(1, route), "result.json"))
        for w in WARPS:
            got = values(os.path.join(a.hw, row_id(w, route), "result.json"))
            sim = hw_diff.probe_value(hw_diff.read(os.path.join(a.sim, row_id(w, route), "result.json"))) if a.sim else None
            if not got:
                print(f"| c1w{w}.{route} | (none) | {sim or ''} | | | | | |")
                continue
            g = got[1]
            cell = lambda x: f"{x:.0f} ({x / g:.2f})"
            model = cell(sim) if sim else ""
            if not one or w == 1:
                print(f"| c1w{w}.{route} | {got[0]:.1f} / {g:.1f} | {model} | | | | | |")
                continue
            o = one[1]
            fit = c2_fit(w, e, o, g)
            print(f"| c1w{w}.{route} | {got[0]:.1f} / {g:.1f} | {model} | {cell(max(w * e, o))} | {cell(round_ns(w, e, o, 1))} | "
                  f"{cell(round_ns(w, e, o, 0.5))} | {cell(round_ns(w, e, o, 0))} | {'' if fit is None else f'{fit:.2f}'} |")

    if not a.per_rep:
        return
    print("\n| row | GPU / exact closed queue, repetition 1 .. n (from the same repetition of the one-warp row) |")
    print("| --- | --- |")
    for route in ROUTES:
        one = repetitions(os.path.join(a.hw, row_id(1, route), "result.json"))
        for w in WARPS[1:]:
            many = repetitions(os.path.join(a.hw, row_id(w, route), "result.json"))
            if one and many:
                print(f"| c1w{w}.{route} | " + " ".join(f"{m / round_ns(w, e, o, 1):.2f}" for o, m in zip(one, many)) + " |")


if __name__ == "__main__":
    main()
