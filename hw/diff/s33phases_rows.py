#!/usr/bin/env python3
"""Writes hw/diff/s33phases_rows.json, session 33's device question (issue 19, thirty-ninth pass (s33-phases)).

  python3 hw/diff/s33phases_rows.py      (re)writes the rows file next to this script

Dispatch's phases (calib_probe mode 22, 4 CTAs x 4 warps, 7168 B tokens) by rounds a warp: 1, 2, 4, 8, 16 and 32
(16-512 tokens), to the end of phase 1 (the send loop and the first grid sync) and of phase 3 (the whole body), with the
window in the symmetric heap (`hot` 4: in L2, the same memory at every repetition, no climb over a run) and never
written (`hot` 0, fresh `cudaMalloc` memory, new each repetition). The stored rows read the phases at 8, 64, 128 and
512 tokens only, from different calls and in `cudaMalloc` windows that climb: the model is fast at 64 tokens (fresh p1
/ p2 / p3 0.93-0.97 of their median readings) and slow at 128 and 512 tokens in the heap (p1 1.16-1.17 of the H200's
call-C medians). Each curve gives the phase's fixed part and its cost a round (send) or a message (receive) on one
card in one call: whether the model's error is the first rounds (a fixed part it lacks) or every round. Two more in
the heap, to the end of phase 1: 15 and 31 tokens (one warp a round short): the model's CTAs that run the same work
reached the grid sync in the same picosecond and none paid the poll loop (main: 15 tokens 2,780 ns against 16 tokens'
2,277, 31 tokens 4,027 against 32 tokens' 3,522; this pass's rule 2,845 / 2,936 and 4,088 / 4,191): on the GPU, whose
CTAs are never in step, 16 tokens should read about 15 tokens' figure, not ~500 ns under it.
"""
import os

import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
HOT = {4: "heapdata", 0: "fresh"}
ROUNDS = [1, 2, 4, 8, 16, 32]
PHASES = [1, 3]


def entry(hot, tokens, phase):
    row = f"shim.dispatch_phases.{HOT[hot]}.{tokens}tok.h7168.c4w4.p{phase}_ns"
    sets = ["kernel.args.mode=22", "kernel.args.bytes=7168", f"kernel.args.inflight={phase}", "kernel.args.warps=4",
            f"kernel.args.count={tokens}", "kernel.args.window_kib=1024", f"kernel.args.hot={hot}", "kernel.blocks=4"]
    return probe_rows.entry(row, sets)


def main():
    entries = [entry(hot, 16 * rounds, phase) for hot in HOT for phase in PHASES for rounds in ROUNDS]
    entries += [entry(4, tokens, 1) for tokens in (15, 31)]
    doc = " ".join(__doc__.split("\n\n")[1:2]).replace("\n", " ")
    probe_rows.write(os.path.join(HERE, "s33phases_rows.json"), doc, entries)
    print(len(entries), "entries")


if __name__ == "__main__":
    main()
