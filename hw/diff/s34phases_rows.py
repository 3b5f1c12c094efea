#!/usr/bin/env python3
"""Writes hw/diff/s34phases_rows.json, session 34's device question (issue 19, fortieth pass (s34-phases)).

  python3 hw/diff/s34phases_rows.py      (re)writes the rows file next to this script

Dispatch's send round by part and by shape, in the symmetric heap (no climb over a run), on one card in one call.
The H100's readings so far (session 31's D1 / D2, session 33's D2 / D6) put the model's send-round error in two places
that cancel in part at 4 x 4: one SM's four warps (the model's round 1.13-1.14 of the GPU's when latency-bound work
sits between load and store: mode 22 at 1 x 4, mode 29's routing round c1w4 `all`, mode 29's step c1w4 s7) and a cost
the GPU pays when more SMs run the round that the model lacks (mode 22: 4 x 1 over 1 x 1 +30 ns a round, 4 x 4 over
1 x 4 +88; the model's rounds equal). A: mode 29's step (dispatch_step_probe.cu: the bare round s0, + routing s1,
+ the slot atomic on one shared word s2, both s3, all three s7) at 1 x 1, 1 x 4, 4 x 1, 4 x 4: which part carries
each shape's growth. B: mode 29's routing round bare / all at 1 x 4 and 4 x 4, messages packed (neighbours share a
128 B line) and padded to whole lines: whether the SMs' cost is their stores' shared lines. C: mode 22's send phase
(p1) at 32 rounds a warp on 1, 2 and 4 SMs of 4 warps: the growth by SMs in the kernel itself; and at one round a
warp at 1 x 1, 1 x 4, 4 x 1, 4 x 4: the fixed part by shape (the model's 4 x 4 one-round figure is ~220 ns under
the H100's, its 1 x 1 one-token figure within 1%).
"""
import os

import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES = [(1, 1), (1, 4), (4, 1), (4, 4)]
STEP = {"s0": 0, "s1": 1, "s2": 2, "s3": 3, "s7": 7}
ROUTE = {"none": 1, "all": 15}
PADDED = 64


def step(ctas, warps, part):
    row = f"shim.dispatch_step.heap.7168.c{ctas}w{warps}.{part}_ns"
    sets = ["kernel.args.mode=29", "kernel.args.bytes=7168", "kernel.args.inflight=1", f"kernel.args.warps={warps}",
            "kernel.args.count=64", "kernel.args.window_kib=16384", "kernel.args.hot=1", f"kernel.args.stride={STEP[part]}",
            f"kernel.blocks={ctas}", "kernel.args.heap=1"]
    return probe_rows.entry(row, sets)


def route(ctas, warps, part, padded):
    bits = ROUTE[part] | (PADDED if padded else 0)
    row = f"shim.dispatch_route.heap.7168.c{ctas}w{warps}.{part}{'_lines' if padded else ''}_ns"
    sets = ["kernel.args.mode=29", "kernel.args.bytes=7168", "kernel.args.inflight=1", f"kernel.args.warps={warps}",
            "kernel.args.count=64", "kernel.args.window_kib=16384", "kernel.args.hot=1", f"kernel.args.stride={bits << 16}",
            f"kernel.blocks={ctas}", "kernel.args.heap=1"]
    return probe_rows.entry(row, sets)


def phases(ctas, warps, rounds):
    tokens = rounds * warps * ctas
    row = f"shim.dispatch_phases.heapdata.{tokens}tok.h7168.c{ctas}w{warps}.p1_ns"
    sets = ["kernel.args.mode=22", "kernel.args.bytes=7168", "kernel.args.inflight=1", f"kernel.args.warps={warps}",
            f"kernel.args.count={tokens}", "kernel.args.window_kib=1024", "kernel.args.hot=4", f"kernel.blocks={ctas}"]
    return probe_rows.entry(row, sets)


def main():
    entries = [step(c, w, p) for c, w in SHAPES for p in STEP]
    entries += [route(c, 4, p, pad) for c in (1, 4) for p in ROUTE for pad in (False, True)]
    entries += [phases(c, 4, 32) for c in (1, 2, 4)]
    entries += [phases(c, w, 1) for c, w in SHAPES]
    doc = " ".join(__doc__.split("\n\n")[1:2]).replace("\n", " ")
    probe_rows.write(os.path.join(HERE, "s34phases_rows.json"), doc, entries)
    print(len(entries), "entries")


if __name__ == "__main__":
    main()
