#!/usr/bin/env python3
"""A device question: what a lone warp's dispatch round pays for a bulk store whose partial edge line no store of its SM
continues (issue 19, forty-second pass (s36-steps)).

  s36steps_rows.py --out hw/diff/s36steps_rows.json

`shim.dispatch_route.l2.7168.c4w1.none_ns` reads 588-595 ns on every H200 pass against `c1w1.none` 536-543: +50 a round
at one warp an SM, flat in the run, the same with routing (`shfl`, `all`); the model reads both 515. The H200 readings
of session 21 (s21-dev) put it on the message's edge lines: one warp whose next message starts where its last ended
(packed c1w1) reads 540, one whose messages each start a fresh line (padded c1w1, `stride` bit 64 << 16) 584, four
SMs of one warp 590 packed or padded; mode 12's round at 7184 B (rows 16 B off their lines) c1w1 / c4w1 452 / 524,
at 7168 B 442 / 450. The model has no such cost; s30-route's floor prototype (the thread's next bulk load no sooner
than 228 ns after such a store's issue) brings c4w1 in but puts 4-warp 1040 B rows (`copy_round_warp.l2.1040.c1w4`)
30% over, where the GPU pays nothing. Entries, the memory freed at each return (`heap` 2: one level, no climb), 64
rounds, every repetition kept:
- mode 29's bare round (`dispatch_route` `none`): packed at 1 x 1, 2 x 1, 4 x 1, 1 x 2, 1 x 4; padded at 1 x 1, 4 x 1,
  1 x 4; and with 7152 B rows (messages of 7168 B: every store whole lines, no partial line anywhere) at 1 x 1, 4 x 1;
- mode 12's copy round (loads and stores one `bytes` row each, 1 left in flight): 7184 B at 1 x 1, 4 x 1, 1 x 4;
  7168 B at 1 x 1, 4 x 1; 1040 B at 1 x 1, 4 x 1, 1 x 4; 1024 B at 1 x 1, 1 x 4.
What it answers, on any card (differences between variants and shapes on one card): whether the cost comes with a
partial edge line that the warp's own next store does not continue (padded 1 x 1 slow, whole-line 4 x 1 as fast as
1 x 1), whether a partial line another warp of the same SM continues is free (packed 1 x 4 and 1040 B 1 x 4 against
their aligned forms), and its size at 1040 B and 7184 B (a fixed cost a store, or a floor from its issue).
"""
import argparse

import probe_rows

COMMON = ["kernel.args.inflight=1", "kernel.args.count=64", "kernel.args.window_kib=16384", "kernel.args.hot=1",
          "kernel.args.heap=2"]
PAD = 65 << 16  # mode 29's dispatch_route kernel (bit 1) with each message from a line start (bit 64)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    entries = []

    def add(name, sets):
        # no calibration row reads these placements: each is a row of its own
        entries.append(probe_rows.entry(f"shim.{name}.freed_ns", sets + COMMON, f"micro_s36steps_{name.replace('.', '_')}"))

    for variant, stride, bytes_, shapes in (("none", 1 << 16, 7168, ((1, 1), (2, 1), (4, 1), (1, 2), (1, 4))),
                                            ("none_pad", PAD, 7168, ((1, 1), (4, 1), (1, 4))),
                                            ("none_whole", 1 << 16, 7152, ((1, 1), (4, 1)))):
        for ctas, warps in shapes:
            add(f"dispatch_route.l2.{bytes_}.c{ctas}w{warps}.{variant}",
                ["kernel.args.mode=29", f"kernel.args.bytes={bytes_}", f"kernel.args.stride={stride}",
                 f"kernel.args.warps={warps}", f"kernel.blocks={ctas}"])
    for bytes_, shapes in ((7184, ((1, 1), (4, 1), (1, 4))), (7168, ((1, 1), (4, 1))),
                           (1040, ((1, 1), (4, 1), (1, 4))), (1024, ((1, 1), (1, 4)))):
        for ctas, warps in shapes:
            add(f"copy_round_warp.l2.{bytes_}.c{ctas}w{warps}",
                ["kernel.args.mode=12", f"kernel.args.bytes={bytes_}", f"kernel.args.warps={warps}", f"kernel.blocks={ctas}"])
    doc = ("Issue 19, forty-second pass (s36-steps): mode 29's bare round packed / padded / whole-line and mode 12's "
           "copy round at 7184 / 7168 / 1040 / 1024 B, one warp on 1, 2 or 4 SMs and 2-4 warps of one SM, freed; "
           "every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
