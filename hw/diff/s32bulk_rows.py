#!/usr/bin/env python3
"""Writes hw/diff/s32bulk_rows.json, session 32's device question (issue 19, thirty-eighth pass (s32-bulk)).

  python3 hw/diff/s32bulk_rows.py      (re)writes the rows file next to this script

What a load pays for the dirty lines its misses push out of L2 (calib_probe mode 23, rows read once, one bulk load or
one warp's plain 16 B loads at a time a warp), the window never written (`hot` 0: the L2 holds clean lines of earlier
repetitions), written and then pushed out by a 160 MiB memset elsewhere (`hot` 2: the L2 full of the memset's dirty
lines) or never written and then the memset (`hot` 5: the same L2, the window as 0). The model (l2.dirty_victim_gbytes_per_s
215) charges a miss the write-back of the dirty lines it pushes out at 215 GB/s a request: +4.8 / +19 / +33 / +76 ns a
bulk row of 1 / 4 / 7 / 16 KiB, the same at every shape, ~0.6 ns a plain 16 B load's line.
- By size (one warp, 32 rows): does the extra follow the row's bytes (a rate) or is it one figure a load (a turnaround)?
- By shape (7168 B, 4 warps on one SM / one warp on each of 4 SMs, 128 rows): per request, per SM, or the GPU's?
- Plain loads (one warp, 32 rows of 7168 B): the stored rows say +47 ns a row, the model ~+2.5.
"""
import os

import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
HOT = {0: "fresh", 2: "evicted", 5: "freshout"}
OP = {3: "bulk_load", 4: "plain_load"}


def entry(op, hot, nbytes, ctas, warps, rows):
    return probe_rows.entry(f"fresh.{OP[op]}.{HOT[hot]}.{nbytes}.{rows}r.c{ctas}w{warps}_ns",
                            ["kernel.args.mode=23", f"kernel.args.bytes={nbytes}", f"kernel.args.inflight={op}",
                             f"kernel.args.warps={warps}", f"kernel.args.count={rows}", "kernel.args.window_kib=1024",
                             f"kernel.args.hot={hot}", f"kernel.blocks={ctas}"],
                            f"micro_s32bulk_{OP[op]}_{HOT[hot]}_{nbytes}_{rows}r_c{ctas}w{warps}_ns")


def entries():
    out = []
    for nbytes in (1024, 4096, 7168, 16384):
        for hot in (0, 2, 5):
            out.append(entry(3, hot, nbytes, 1, 1, 32))
    for ctas, warps in ((1, 4), (4, 1)):
        for hot in (0, 2):
            out.append(entry(3, hot, 7168, ctas, warps, 128))
    for hot in (0, 2):
        out.append(entry(4, hot, 7168, 1, 1, 32))
    return out


if __name__ == "__main__":
    probe_rows.write(os.path.join(HERE, "s32bulk_rows.json"),
                     "  python3 hw/diff/s32bulk_rows.py      (re)writes the rows file next to this script", entries())
