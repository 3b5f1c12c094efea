#!/usr/bin/env python3
"""Writes hw/diff/s32route_rows.json, session 32's device question on the multi-warp routing rows (issue 19,
thirty-eighth pass (s32-route)).

  python3 hw/diff/s32route_rows.py      (re)writes the rows file next to this script

The stored multi-warp `shim.dispatch_route.*` rows are of two kinds: the 4 x 4 rows of s29-heap took the symmetric heap's
reading (H200 call D1, session 29), the others (one SM's 2-4 warps, c2w4, c4w4 div / all_line, c8w4, c4w2) are stored
`cudaMalloc` readings. On an H100 (session 31's call D1, s30-phases' passes A and C) one SM's 4-warp rounds in the heap
read 0.86-0.91 of the H200's stored `cudaMalloc` c1w4 rows (ldg 946 against 1044, all 1079 against 1253) and at the
H200's 4 x 4 heap rows (957.6 / 1086): the GPU hides one warp's routing code under the engine queue at four warps, more
than the model's exponential closed queue does. Whether the H200 reads one SM's rows alike decides the references the
engine's variability can be fitted on. Entries, all calib_probe mode 29 (dispatch_route_probe.cu), 64 rounds a warp:
  every stored multi-warp routing row with `heap` 1 (23);
  one SM at 1, 2, 3 warps in the heap: none / ldg / shfl / all (one warp: and div) (13 less the stored ones);
  c1w4 none / ldg / shfl / all, c2w4 all and c8w4 none as stored (`cudaMalloc`), on the same card (6).
"""
import os

import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
ROUTE = {"none": 1, "ldg": 3, "div": 5, "shfl": 9, "all": 15, "ldg_line": 19, "all_line": 31, "ldl1": 35,
         "all_l1": 47, "ldl1_line": 51}
STORED = [(1, 2, "none"), (4, 2, "none"), (8, 4, "none")] + \
    [(1, 4, p) for p in ("none", "ldg", "ldg_line", "ldl1", "ldl1_line", "shfl", "all")] + \
    [(2, 4, p) for p in ("none", "shfl", "all")] + \
    [(4, 4, p) for p in ("none", "all", "all_line", "all_l1", "ldg", "ldg_line", "ldl1", "ldl1_line", "div", "shfl")]
ONE_SM = [(1, 1, p) for p in ("none", "ldg", "div", "shfl", "all")] + \
    [(1, w, p) for w in (2, 3) for p in ("none", "ldg", "shfl", "all")]
MALLOC = [(1, 4, "none"), (1, 4, "ldg"), (1, 4, "shfl"), (1, 4, "all"), (2, 4, "all"), (8, 4, "none")]


def entry(ctas, warps, part, heap):
    row = f"shim.dispatch_route.l2.7168.c{ctas}w{warps}.{part}_ns"
    sets = ["kernel.args.mode=29", "kernel.args.bytes=7168", "kernel.args.inflight=1", f"kernel.args.warps={warps}",
            "kernel.args.count=64", "kernel.args.window_kib=16384", "kernel.args.hot=1",
            f"kernel.args.stride={ROUTE[part] << 16}", f"kernel.blocks={ctas}"] + (["kernel.args.heap=1"] if heap else [])
    return probe_rows.entry(row, sets, "micro_" + row.replace(".", "_").replace("shim_", "") + ("_heap" if heap else ""))


def main():
    heap = list(dict.fromkeys(STORED + ONE_SM))
    entries = [entry(c, w, p, True) for c, w, p in heap] + [entry(c, w, p, False) for c, w, p in MALLOC]
    doc = ("Issue 19, thirty-eighth pass (s32-route): the multi-warp routing rows in the symmetric heap and, on the same "
           "card, six of them in cudaMalloc windows (hw/diff/s32route_rows.py)")
    probe_rows.write(os.path.join(HERE, "s32route_rows.json"), doc, entries)
    print(len(entries), "entries")


if __name__ == "__main__":
    main()
