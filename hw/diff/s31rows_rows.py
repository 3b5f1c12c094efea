#!/usr/bin/env python3
"""Writes hw/diff/s31rows_rows.json, session 31's device question (issue 19, thirty-seventh pass (s31-rows)).

  python3 hw/diff/s31rows_rows.py      (re)writes the rows file next to this script

Dispatch's send loop (calib_probe mode 22, phase 1: the send loop and the first grid sync, 7168 B tokens) by shape and
memory state: 1 x 1, 1 x 4, 4 x 1 and 4 x 4 warps (CTAs x warps a CTA) at 32 rounds a warp, and 1 x 1 / 4 x 4 at one
round a warp (the phase's fixed part: the grid sync and the loop's first load), each with the window in the symmetric
heap (`hot` 4: in L2, the same memory at every repetition), in `cudaMalloc` memory written just before (`hot` 3, the
stored l2data rows' procedure: new memory each repetition, the multi-SM rows climb over a run) and never written
(`hot` 0, fresh). The stored 4 x 4 rows at 512 tokens put the model's send round at 1.14-1.22 x the GPU's in-L2
rounds (the heap, and l2data's first repetitions) and its fresh increment at +219 ns a round against the GPU's
+166-245: which shape carries the model's long round (one warp's code, or the several warps' queue on the SM's TMA
engine), and whether the fresh increment is the same at every shape (s28-phases read it as hidden under one warp's
round; by the repetitions' levels it is not).
"""
import os

import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
HOT = {4: "heapdata", 3: "l2data", 0: "fresh"}
# (CTAs, warps a CTA, rounds a warp)
SHAPES = [(1, 1, 32), (1, 4, 32), (4, 1, 32), (4, 4, 32), (1, 1, 1), (4, 4, 1)]


def entry(hot, ctas, warps, rounds):
    tokens = ctas * warps * rounds
    row = f"shim.dispatch_phases.{HOT[hot]}.{tokens}tok.h7168.c{ctas}w{warps}.p1_ns"
    sets = ["kernel.args.mode=22", "kernel.args.bytes=7168", "kernel.args.inflight=1", f"kernel.args.warps={warps}",
            f"kernel.args.count={tokens}", "kernel.args.window_kib=1024", f"kernel.args.hot={hot}", f"kernel.blocks={ctas}"]
    return probe_rows.entry(row, sets)


def main():
    entries = [entry(hot, *shape) for shape in SHAPES for hot in HOT]
    doc = " ".join(__doc__.split("\n\n")[1:2]).replace("\n", " ")
    probe_rows.write(os.path.join(HERE, "s31rows_rows.json"), doc, entries)
    print(len(entries), "entries")


if __name__ == "__main__":
    main()
