#!/usr/bin/env python3
"""Reads session 30's device question (hw/diff/s30phases_rows.json) against a simulator run (issue 19, s30-phases).

  s30phases_read.py --hw HW_DIR --sim SIM_DIR [--engine-ns 234]

HW_DIR: `hw_diff.py hw --set hw/diff/s30phases_rows.json` output (every repetition kept); SIM_DIR: `hw_diff.py sim` of
the same rows. Per entry: the GPU's last repetition and the median of repetitions 2-11, the model, and
  pass A: each several-warp row against the exact (exponential) closed queue of the same call's one-warp row of its
          routing (route_mva_cv.py's round_ns, E = --engine-ns) and the c2 that meets the median repetition;
  pass B: fresh - l2 and evicted - l2 by part of the round (GPU median repetitions, the model);
  pass C: the stored rows' heap reading against the stored value and the model.
"""
import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402
from route_mva_cv import c2_fit, round_ns  # noqa: E402


def reps(path):
    r = hw_diff.read(os.path.join(path, "result.json")) or {}
    vals = hw_diff.repetition_values(r)
    last = hw_diff.probe_value(r) if r else None
    return last, (statistics.median(vals[1:]) if len(vals) > 1 else last)


def c2_meeting(warps, engine_ns, one_ns, target_ns):
    """c2_fit clamped to [0, 1]: 0 when even c2 0 is slower than the target, 1 when even c2 1 is faster."""
    if round_ns(warps, engine_ns, one_ns, 0.0) >= target_ns:
        return 0.0
    if round_ns(warps, engine_ns, one_ns, 1.0) <= target_ns:
        return 1.0
    return c2_fit(warps, engine_ns, one_ns, target_ns)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hw", required=True)
    p.add_argument("--sim", required=True)
    p.add_argument("--engine-ns", type=float, default=234.0)
    a = p.parse_args()
    entries = json.load(open(os.path.join(HERE, "s30phases_rows.json")))["entries"]
    got = {}
    for e in entries:
        last, med = reps(os.path.join(a.hw, e["id"]))
        sim = hw_diff.probe_value(hw_diff.read(os.path.join(a.sim, e["id"], "result.json")) or {})
        got[e["id"]] = (last, med, sim)
    stored = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    print("| entry | GPU last | GPU median (2-11) | model | model / median |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for e in entries:
        last, med, sim = got[e["id"]]
        ratio = f"{sim / med:.3f}" if sim and med else "-"
        print(f"| `{e['id']}` | {last} | {med} | {sim} | {ratio} |")
    print("\nPass A: several warps against the exact closed queue of the same call's one-warp row (median repetitions)")
    for e in entries:
        i = e["id"]
        if not i.endswith("_heap") or "_c1w1_" in i or "c1w" not in i:
            continue
        one = i.replace(i[i.index("_c1w"):i.index("_c1w") + 5], "_c1w1")
        if one not in got or not got[one][1] or not got[i][1]:
            continue
        w = int(i[i.index("_c1w") + 4])
        mva = round_ns(w, a.engine_ns, got[one][1], 1.0)
        print(f"  {i}: {got[i][1]:.1f} / exact {mva:.1f} = {got[i][1] / mva:.3f}, c2 {c2_meeting(w, a.engine_ns, got[one][1], got[i][1]):.2f}")
    print("\nPass B: memory state minus l2, one warp's dispatch_step round (GPU median repetition / model)")
    for part in ("s0", "s1", "s2", "s4", "s7", "code16", "code32"):
        l2 = got.get(f"micro_dispatch_step_l2_7168_c1w1_{part}_ns")
        for state in ("fresh", "evicted"):
            x = got.get(f"micro_dispatch_step_{state}_7168_c1w1_{part}_ns")
            if x and l2 and x[1] and l2[1]:
                print(f"  {part} {state}: GPU {x[1] - l2[1]:+.0f} ns, model {x[2] - l2[2]:+.0f} ns")
    print("\nPass C: stored rows read in the heap (GPU last repetition / stored / model)")
    for e in entries[-7:]:
        last, med, sim = got[e["id"]]
        ref = stored.get(e["row"], (None,))[0]
        if last and ref:
            print(f"  {e['row']}: heap {last} (median {med}), stored {ref}, heap / stored {last / ref:.3f}, model / heap {sim / last:.3f}")


if __name__ == "__main__":
    main()
