#!/usr/bin/env python3
"""A device question for the two pull_phases heap rows out of 10% (issue 19, forty-third pass (s37-pull)).

  s37pull_rows.py --out hw/diff/s37pull_rows.json

A. The kept slot rows' climb on the card that comes (an H200 decides the reference of kept_refs.py's family): the
   512-token 4 x 4 and 1 x 4 rows and the 256-token row (calib_probe mode 26, tokens in the heap) as stored (`heap` 0:
   slot rows `cudaMalloc`ed at every repetition and kept) and with their slot rows given back at each return (`heap` 2),
   kept_refs.py takes each stored run's median of repetitions 2-5; the freed run's median is what the
   row names (session 34's D2 / D3 read this on an H100 only).
B. The one-warp row's two levels (`pull_phases.heap.32tok.c1w1`: its step reads 1,100 ns in two H200 calls and 1,262 in
   four, flat in every run and alike in every run of one call): whether the level follows the heap words' offset (the
   routing table, `recv_counter` and the barrier workspace follow the window in the heap: `window_kib` moves them by
   4 KiB steps, bits 12-19 of their offset in the 2 MiB-aligned heap), which the model could know, or only the call.
   Ten offsets, each run twice (the second sweep after the first).
Any card; 11 repetitions an entry, every one kept.
"""
import argparse
import os

import hw_diff
import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
SHIFTS_KIB = (0, 4, 8, 12, 16, 32, 64, 128, 256, 512)  # the heap words' offset past the stored 1 MiB window


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    by_row = {e["row"]: e for e in hw_diff.load_set(os.path.join(HERE, "s16_set.json")) if e.get("kind") == "micro"}
    entries = []
    for row in ("shim.pull_phases.heap.512tok.h7168", "shim.pull_phases.heap.512tok.c1w4.h7168",
                "shim.pull_phases.heap.256tok.h7168"):
        e = by_row[row]
        base = [s for s in e["sets"] if not s.startswith("kernel.args.heap=")]
        for heap in (0, 2):
            entries.append(probe_rows.entry(f"{row}.s37.heap{heap}", base + [f"kernel.args.heap={heap}"],
                                            f"{e['id'].replace('micro_', 'micro_s37pull_')}_heap{heap}"))
    e = by_row["shim.pull_phases.heap.32tok.c1w1.h7168"]
    base = [s for s in e["sets"] if not s.startswith(("kernel.args.heap=", "kernel.args.window_kib="))]
    for sweep in (1, 2):
        for shift in SHIFTS_KIB:
            entries.append(probe_rows.entry(f"shim.pull_phases.heap.32tok.c1w1.h7168.s37.w{1024 + shift}",
                                            base + [f"kernel.args.window_kib={1024 + shift}", "kernel.args.heap=0"],
                                            f"micro_s37pull_pull_phases_heap_32tok_c1w1_w{1024 + shift}_run{sweep}"))
    doc = ("Issue 19, forty-third pass (s37-pull): A. the 512- and 256-token pull-phase rows as stored (heap 0) and with "
           "their slot rows freed (heap 2); B. the one-warp 32-token row with its heap words moved by 0-512 KiB, twice; "
           "every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
