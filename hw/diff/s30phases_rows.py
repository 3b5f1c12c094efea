#!/usr/bin/env python3
"""Writes hw/diff/s30phases_rows.json, session 30's device question (issue 19, thirty-sixth pass (s30-phases)).

  python3 hw/diff/s30phases_rows.py      (re)writes the rows file next to this script

Pass A, the TMA engine's queue with the window in the symmetric heap (`heap` 1): calib_probe mode 29's
routing round (dispatch_route_probe.cu) at 1, 2, 3 and 4 warps of one SM, bare and with the ldg, the
shuffles and all three, and mode 29's dispatch round s1 / s7 at 1 and 4 warps: how far under the exact
(exponential) closed queue of its own one-warp rounds the GPU's several-warp round sits, undrifted
(tma.engine_mva_service_cv2). The stored one-SM rows are cudaMalloc windows whose repetitions drift
(s27-route); the 4 x 4 heap rows (s29-heap) sit 0.92-0.98 of that queue.
Pass B, a token load's HBM latency under one warp's dispatch round (s28-phases: fresh - l2 is +150-230 ns
at the bare round s0, +23-92 at s7): mode 29 at one warp, fresh (`hot` 0) against l2 (`hot` 1) memory,
bare (s0), each part alone (s1 routing, s2 slot atomic, s4 header), all (s7), and 16 / 32 iterations of
latency-bound code in their place (`stride` 256 / 512, no memory access): is the latency hidden by the
round's length or by one of its memory operations? Evicted memory (`hot` 2) at s0 / s7 / code32 too.

Pass C, the multi-warp rows that a less variable engine (tma.engine_mva_service_cv2 0.5-0.75) takes out and whose
reference is still the stored cudaMalloc reading (not read in the heap by s29-heap): dispatch_route c2w4 all / shfl /
none, c4w4 div, c8w4 none, copy_round.l2.7168.c1w4, copy_round_warp.l2.1k.c1w4, each as stored with `heap` 1.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROUTE = {"none": 65536, "ldg": 196608, "shfl": 589824, "all": 983040}
STEP = {"s0": 0, "s1": 1, "s2": 2, "s4": 4, "s7": 7, "code16": 256, "code32": 512}
HOT = {0: "fresh", 1: "l2", 2: "evicted"}


def entry(family, hot, warps, part, stride, heap):
    row = f"shim.{family}.{HOT[hot]}.7168.c1w{warps}.{part}_ns"
    sets = ["kernel.args.mode=29", "kernel.args.bytes=7168", "kernel.args.inflight=1", f"kernel.args.warps={warps}",
            "kernel.args.count=64", "kernel.args.window_kib=16384", f"kernel.args.hot={hot}", f"kernel.args.stride={stride}",
            "kernel.blocks=1"] + (["kernel.args.heap=1"] if heap else [])
    ident = "micro_" + row.replace(".", "_").replace("shim_", "") + ("_heap" if heap else "")
    return {"id": ident, "kind": "micro", "row": row, "scenario": "scenarios/nvidia/calib_probe.json", "sets": sets}


# Pass C: (family, warps, ctas, part, mode, bytes, stride) as the stored rows, read with `heap` 1.
STORED = [("dispatch_route", 4, 2, "all", 29, 7168, 983040), ("dispatch_route", 4, 2, "shfl", 29, 7168, 589824),
          ("dispatch_route", 4, 2, "none", 29, 7168, 65536), ("dispatch_route", 4, 4, "div", 29, 7168, 327680),
          ("dispatch_route", 4, 8, "none", 29, 7168, 65536), ("copy_round", 4, 1, None, 11, 7168, None),
          ("copy_round_warp", 4, 1, None, 12, 1024, None)]


def stored_in_heap(family, warps, ctas, part, mode, nbytes, stride):
    size = "1k" if nbytes == 1024 else str(nbytes)
    row = f"shim.{family}.l2.{size}.c{ctas}w{warps}" + (f".{part}" if part else "") + "_ns"
    prefix = "micro_" if family == "dispatch_route" else "micro_shim_"
    ident = prefix + row[len("shim."):].replace(".", "_") + "_heap"
    sets = [f"kernel.args.mode={mode}", f"kernel.args.bytes={nbytes}", "kernel.args.inflight=1", f"kernel.args.warps={warps}",
            "kernel.args.count=64", "kernel.args.window_kib=16384", "kernel.args.hot=1"]
    sets += ([f"kernel.args.stride={stride}"] if stride is not None else []) + [f"kernel.blocks={ctas}", "kernel.args.heap=1"]
    return {"id": ident, "kind": "micro", "row": row, "scenario": "scenarios/nvidia/calib_probe.json", "sets": sets}


def main():
    a = [entry("dispatch_route", 1, w, p, s, True) for p, s in ROUTE.items() for w in (1, 2, 3, 4)]
    a += [entry("dispatch_step", 1, w, p, STEP[p], True) for p in ("s1", "s7") for w in (1, 4)]
    b = [entry("dispatch_step", hot, 1, p, s, False) for p, s in STEP.items() for hot in (0, 1)]
    b += [entry("dispatch_step", 2, 1, p, STEP[p], False) for p in ("s0", "s7", "code32")]
    c = [stored_in_heap(*x) for x in STORED]
    doc = " ".join(__doc__.split("\n\n")[1:4]).replace("\n", " ")
    with open(os.path.join(HERE, "s30phases_rows.json"), "w") as f:
        json.dump({"doc": doc, "entries": a + b + c}, f, indent=1)
        f.write("\n")
    print(len(a), "+", len(b), "+", len(c), "entries")


if __name__ == "__main__":
    main()
