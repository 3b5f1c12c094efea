#!/usr/bin/env python3
"""Reads s32-route's device question (hw/diff/s32route_rows.json) against the model and the stored references (issue 19,
thirty-eighth pass (s32-route)).

  s32route_read.py --hw HW_DIR --sim SIM_DIR [--calib CALIB_DIR]

HW_DIR: `hw_diff.py hw --set hw/diff/s32route_rows.json` output (every repetition kept, SYMSIM_HW_KEEP_REPETITIONS=1);
SIM_DIR: `hw_diff.py sim` of the same rows. Per entry: the GPU's median repetition and its last, the stored reference of
its row (hw_diff.CALIB_TABLES) and the model, model / GPU median. With --calib (a `calib_families.py` folder): the count
within 10% with every stored multi-warp routing row's reference taken from this call's heap entry (its median
repetition) in place of the stored one, beside the count with the stored references: what the heap reading as
reference would do (s29-heap did it for 53 rows of an H200 call; an H100's reading is not an h200 reference).
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hw", required=True)
    p.add_argument("--sim", required=True)
    p.add_argument("--calib", default=None)
    a = p.parse_args()
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    heap = {}
    print("| entry | GPU median (last) | stored reference | model | model / GPU median |\n|---|---:|---:|---:|---:|")
    for e in hw_diff.load_set(os.path.join(HERE, "s32route_rows.json")):
        r = hw_diff.repetition_values(hw_diff.read(os.path.join(a.hw, e["id"], "result.json")))
        sim = hw_diff.probe_value(hw_diff.read(os.path.join(a.sim, e["id"], "result.json")))
        ref = table.get(e["row"], (None, ""))[0]
        med = statistics.median(r) if r else None
        if med and e["id"].endswith("_heap") and ref is not None and ".c1w1." not in e["row"]:
            heap[e["row"]] = med
        g = lambda v: f"{v:.4g}" if v is not None else "-"  # noqa: E731
        ratio = f"{sim / med:.3f}" if sim and med else "-"
        print(f"| `{e['id']}` | {g(med)} ({g(r[-1] if r else None)}) | {g(ref)} | {g(sim)} | {ratio} |")
    if a.calib:
        import calib_families  # noqa: E402
        found = calib_families.ratios(a.calib)
        before = sum(abs(v - 1) <= calib_families.TOLERANCE for v in found.values())
        for row, med in heap.items():
            if row in found:
                found[row] = found[row] * table[row][0] / med
        after = sum(abs(v - 1) <= calib_families.TOLERANCE for v in found.values())
        print(f"\nWithin 10%: {before} of {len(found)} with the stored references, {after} with this call's heap medians "
              f"for the {len(heap)} stored multi-warp routing rows.")


if __name__ == "__main__":
    main()
