#!/usr/bin/env python3
"""Writes hw/diff/s32round_rows.json, session 32's device question (issue 19, thirty-eighth pass (s32-round)).

  python3 hw/diff/s32round_rows.py      (re)writes the rows file next to this script

Dispatch's send loop (calib_probe mode 22, phase 1, 7168 B tokens, the window in the symmetric heap: `hot` 4) with its
top-k a compile-time constant (the probe's default: the SASS unrolls the loop over the lanes' ranks, its 8 shuffles back
to back) and a run-time value (`inflight` + 32: the loop rolled, unrolled by 4 into one register, each compare waiting
for its shuffle), with the experts-per-rank division at run time (+ 64) and the rank count (+ 16) as two controls that
leave the shuffle loop as it is, at 1 x 1 and 4 x 4 warps (CTAs x warps a CTA), 32 rounds a warp and one. The stored
4 x 4 rows (H200, ninth pass) read the rolled loop +118-138 ns a round over the unrolled one; the model (main) read
+34 / +50, and -17 at one warp: which part of one warp's round the unrolled loop saves on the GPU.
"""
import os

import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
# inflight: 1 (phase 1) + the probe's run-time bits (kernels/nvlink/calib/dispatch_phases_probe.cu)
VARIANTS = {1: "heapdata", 33: "rttopk.heapdata", 65: "rtexperts.heapdata", 17: "rtranks.heapdata"}
# (CTAs, warps a CTA, rounds a warp)
SHAPES = [(1, 1, 32), (1, 1, 1), (4, 4, 32), (4, 4, 1)]


def entry(inflight, ctas, warps, rounds):
    tokens = ctas * warps * rounds
    row = f"shim.dispatch_phases.{VARIANTS[inflight]}.{tokens}tok.h7168.c{ctas}w{warps}.p1_ns"
    sets = ["kernel.args.mode=22", "kernel.args.bytes=7168", f"kernel.args.inflight={inflight}", f"kernel.args.warps={warps}",
            f"kernel.args.count={tokens}", "kernel.args.window_kib=1024", "kernel.args.hot=4", f"kernel.blocks={ctas}"]
    return probe_rows.entry(row, sets)


def main():
    entries = [entry(inflight, *shape) for shape in SHAPES for inflight in VARIANTS]
    doc = " ".join(__doc__.split("\n\n")[2:3]).replace("\n", " ")
    probe_rows.write(os.path.join(HERE, "s32round_rows.json"), doc, entries)
    print(len(entries), "entries")


if __name__ == "__main__":
    main()
