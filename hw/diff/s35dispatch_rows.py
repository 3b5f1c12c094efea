#!/usr/bin/env python3
"""Writes hw/diff/s35dispatch_rows.json, session 35's device question (issue 19, forty-first pass (s35-dispatch)).

  python3 hw/diff/s35dispatch_rows.py      (re)writes the rows file next to this script

Dispatch's phases (calib_probe mode 22, 4 CTAs x 4 warps, 7168 B tokens) at 8, 64 and 128 tokens, to the end of phase
1 (the send loop and the first grid sync) and of phase 3 (the whole body), the window never written (`hot` 0, fresh) and
written just before (`hot` 1, l2), each as stored (`heap` 0: a new `cudaMalloc` window and word array every repetition,
the old ones kept) and given back at every return (`heap` 2: the same memory every repetition). On the nine H200 passes
the fresh and l2 rows of one window size sit at two levels ~8% apart at the same repetitions (the repetition's
allocation, e.g. the word array's address: the slot counter and the grid-sync words), and the four fresh 64-token
rows' stored values are the high level, the model the low one. Freed, the word is at one address: one level, which?
And the fresh cost at one address: a freed `hot` 0 run's first repetition is never-touched memory, its later ones read
lines the last repetition left in L2, so rep 1 - the median of reps 2..n is fresh memory's cost with the level held
(the model: 231 / 880 / 1,830 ns at 8 / 64 / 128 tokens, p3; the H200's paired per-repetition fresh - l2: 368 / 1,090 /
1,515).
"""
import os

import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
HOT = {0: "fresh", 1: "l2"}
TOKENS = [8, 64, 128]
PHASES = [1, 3]
PLACEMENT = {0: "", 2: ".freed"}


def entry(hot, tokens, phase, heap):
    row = f"shim.dispatch_phases.{HOT[hot]}.{tokens}tok.h7168{PLACEMENT[heap]}.p{phase}_ns"
    sets = ["kernel.args.mode=22", "kernel.args.bytes=7168", f"kernel.args.inflight={phase}", "kernel.args.warps=4",
            f"kernel.args.count={tokens}", "kernel.args.window_kib=1024", f"kernel.args.hot={hot}",
            f"kernel.args.heap={heap}", "kernel.blocks=4"]
    return probe_rows.entry(row, sets)


def main():
    entries = [entry(hot, tokens, phase, heap) for heap in PLACEMENT for hot in HOT for tokens in TOKENS
               for phase in PHASES]
    doc = " ".join(__doc__.split("\n\n")[1:2]).replace("\n", " ")
    probe_rows.write(os.path.join(HERE, "s35dispatch_rows.json"), doc, entries)
    print(len(entries), "entries")


if __name__ == "__main__":
    main()
