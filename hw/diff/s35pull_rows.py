#!/usr/bin/env python3
"""A device question: does the 4 x 4 pull step's first steps pay its source words' wait behind the other warps' bulk
stores? (issue 19, forty-first pass (s35-pull)).

  s35pull_rows.py --out hw/diff/s35pull_rows.json

Mode 21 (pull's step per token) at 4 CTAs x 4 warps, the probe's memory freed at each return (`heap` 2: one level of the
slot counter, no climb), by steps a warp (`count` 1, 2, 4, 8, 16, 64):
- `inflight` 31 (`rtmapped`: routing, slot atomic, the two source words, `sym.map`, run-time divisions) and 27 (the
  same without the source words): the words' cost by steps. Main's model pays them +245 ns a step at 8 steps and +150
  at 64 (its warps start in step, and each warp's two 4 B words wait on the SM's write path behind the other warps'
  7 KiB bulk stores until the warps fall apart); with the plain stores in their own turn (s33-pull's write-path order)
  +73 / +83. The H200 references read the step flat in steps (`rtmapped.8steps` 1223 against `rtmapped` 1230).
- `inflight` 63 (`rtmapped.slots`: rows to their slots) at 8, 16, 32 steps: the three `slots.*steps` rows freed.
- Mode 13 (combine's reduce, k = 1, 7168 B rows, 64 rows a warp) freed, at 16 x 1, 1 x 4, 4 x 4 and 16 x 4 warps, with
  the window of the calibration rows (16 MiB: only 16 x 4 wraps, after 18 of 64 rows) and a 2 MiB one (every shape
  wraps: 16 x 1 and 4 x 4 after 9 rows, 1 x 4 after 36, 16 x 4 after 2). After the wrap every warp of the grid reads the
  same rows (CopyWalk::next() restarts at 0): `reduce_row.l2.7k.k1.c16w4` reads 3,220 ns on the H200 (first
  repetitions) and 3,137-3,178 in the H100's heap against 4,040-4,100 for the unwrapped shapes; the model reads 3,940
  for all. 16 x 1 wrapped shares lines across SMs only, 1 x 4 within one SM only: which of the two is fast says whether
  the GPU's gain is the SM's L1 (warps of one SM on one line) or the L2 side (many SMs on one line).
What it answers, on any card (an H100 is fine: differences between variants, step counts and shapes on one card):
whether the words cost the GPU more in the first steps (the model's mechanism) or the same at every step count, and
where the wrapped reduce's gain is.
Every repetition kept (SYMSIM_HW_KEEP_REPETITIONS=1).
"""
import argparse

import probe_rows

BASE = ["kernel.args.mode=21", "kernel.args.bytes=7168", "kernel.args.warps=4", "kernel.args.window_kib=16384",
        "kernel.args.hot=1", "kernel.blocks=4", "kernel.args.heap=2"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    entries = []
    for inflight, counts in ((31, (1, 2, 4, 8, 16, 64)), (27, (1, 2, 4, 8, 16, 64)), (63, (8, 16, 32))):
        for count in counts:
            # no calibration row reads these placements: each is a row of its own
            row = f"shim.pull_step.l2.7k.c4w4.i{inflight}.{count}steps.freed_ns"
            entries.append(probe_rows.entry(row, BASE + [f"kernel.args.inflight={inflight}", f"kernel.args.count={count}"],
                                            f"micro_s35pull_i{inflight}_{count}steps_freed"))
    for window_kib in (16384, 2048):
        for ctas, warps in ((16, 1), (1, 4), (4, 4), (16, 4)):
            row = f"shim.reduce_row.l2.7k.k1.c{ctas}w{warps}.win{window_kib}.freed_ns"
            entries.append(probe_rows.entry(row, ["kernel.args.mode=13", "kernel.args.bytes=7168", "kernel.args.inflight=1",
                                                  f"kernel.args.warps={warps}", "kernel.args.count=64",
                                                  f"kernel.args.window_kib={window_kib}", "kernel.args.hot=1",
                                                  f"kernel.blocks={ctas}", "kernel.args.heap=2"],
                                            f"micro_s35pull_reduce_c{ctas}w{warps}_win{window_kib}_freed"))
    doc = ("Issue 19, forty-first pass (s35-pull): mode 21 at 4 x 4 freed, by steps a warp, with and without the source "
           "words (inflight 31 / 27) and the slot rows (63); mode 13's k = 1 reduce freed at four shapes and two windows "
           "(the walk wrapping onto shared rows); every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
