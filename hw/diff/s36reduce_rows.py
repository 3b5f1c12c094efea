#!/usr/bin/env python3
"""A device question: is the wrapped reduce walk's gain on rows read once (no L1 cycle) a re-read of lines already read
since the host copy wrote them (the L2 side, any SM), or four warps of one SM on one line (the SM side)? (issue 19,
forty-second pass (s36-reduce)).

  s36reduce_rows.py --out hw/diff/s36reduce_rows.json

Mode 13 (combine's reduce, 7168 B rows), `hot` 1 (the window written by a host cudaMemcpy just before), the probe's
memory freed at each return (`heap` 2: no cudaMalloc climb). CopyWalk::next() sends every warp back to offset 0 once the
next step would leave the window's half, so after the wrap every warp reads rows warp 0 of CTA 0 read before, each once
(the rows this file picks are never re-read a second time: no cycle an L1 could hold):
- k = 8, 16 rows a warp: 4 x 4 at 16 MiB (the calibration row `reduce_row.l2.7k.k8.w16m.c4w4`, out at 1.225: 9 rows, then
  7 wrapped), and the same wrap (after 9 rows) at 1 x 4 and 4 x 1 (4 MiB window) and 1 x 1 (1 MiB); unwrapped controls
  1 x 4, 4 x 1, 1 x 1 at 16 MiB.
- k = 1, 128 rows a warp: 1 x 1 at 1 MiB (wraps after 73 rows: one warp re-reading its own lines 511 KiB later) and
  16 MiB (no wrap); 1 x 4 and 4 x 1 at 4 MiB (wrap after 73 rows) and 16 MiB (no wrap).
- k = 1, 64 rows a warp, 16 x 4 at 8, 11 and 13.5 MiB: the walk wraps and then cycles over 9, 12 and 15 rows (63, 84 and
  105 KiB an SM; session 35's D1 read 14, 63 and 126 KiB): where between 63 and 126 KiB the SM's L1 stops holding the cycle
  (the calibration row `reduce_row.l2.7k.k1.c16w4`, 126 KiB, reads as if it held little of it).
What it answers, on any card (an H100 is fine: shapes against shapes on one card): if the 1 x 1 and 4 x 1 wrapped
entries gain as much a wrapped row as 1 x 4 and 4 x 4, the gain is a line's re-read after its first read (the L2 side),
not the SM's warps sharing a line in flight; if only the shapes with four warps an SM gain, it is the SM's side.
Every repetition kept (SYMSIM_HW_KEEP_REPETITIONS=1).
"""
import argparse

import probe_rows


def reduce_entry(k, ctas, warps, count, window_kib):
    row = f"shim.reduce_row.l2.7k.k{k}.c{ctas}w{warps}.n{count}.win{window_kib}.freed_ns"
    return probe_rows.entry(row, ["kernel.args.mode=13", "kernel.args.bytes=7168", f"kernel.args.inflight={k}",
                                  f"kernel.args.warps={warps}", f"kernel.args.count={count}",
                                  f"kernel.args.window_kib={window_kib}", "kernel.args.hot=1", f"kernel.blocks={ctas}",
                                  "kernel.args.heap=2"],
                            f"micro_s36reduce_k{k}_c{ctas}w{warps}_n{count}_win{window_kib}_freed")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    entries = []
    for ctas, warps, window_kib in ((4, 4, 16384), (1, 4, 4096), (4, 1, 4096), (1, 1, 1024),
                                    (1, 4, 16384), (4, 1, 16384), (1, 1, 16384)):
        entries.append(reduce_entry(8, ctas, warps, 16, window_kib))
    for ctas, warps, window_kib in ((1, 1, 1024), (1, 1, 16384), (1, 4, 4096), (4, 1, 4096), (1, 4, 16384),
                                    (4, 1, 16384)):
        entries.append(reduce_entry(1, ctas, warps, 128, window_kib))
    for window_kib in (8192, 11264, 13824):
        entries.append(reduce_entry(1, 16, 4, 64, window_kib))
    doc = ("Issue 19, forty-second pass (s36-reduce): mode 13's reduce freed, walks that wrap onto rows read once before "
           "(k = 8 after 9 of 16 rows, k = 1 after 73 of 128) at one and four warps an SM, one and four SMs, with "
           "unwrapped controls; 16 x 4 cycles of 63-105 KiB an SM; every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
