#!/usr/bin/env python3
"""A device question: do the pull-phase rows read flat with their slot rows freed? (issue 19, fortieth pass (s34-route)).

  s34route2_rows.py --out hw/diff/s34route2_rows.json

Session 34's call D2 (H100) read `pull_phases.heap.512tok.h7168` (calib_probe mode 26, window in the heap) climb as stored
(`heap` 0: its 3.5 MiB of slot rows `cudaMalloc`ed each repetition and kept, 43,330 -> 50,360 ns) and flat with them
given back at each return (`heap` 2: 42,190-43,140, the first repetition's figure). Every multi-warp `pull_phases.heap`
calibration row, as stored (`heap` 0) and freed (`heap` 2): whether each row's first repetition as stored is its freed
figure (the statistic climb_refs.py takes for the climbing `cudaMalloc` rows) where the rows with fewer tokens read their
first repetitions 3-6% over their later ones on the H200 passes. Any card. Every repetition kept.
"""
import argparse
import os

import hw_diff
import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    entries = []
    for e in hw_diff.load_set(os.path.join(HERE, "s16_set.json")):
        if e.get("kind") != "micro" or not e["row"].startswith("shim.pull_phases.heap.") or ".c1w1." in e["row"]:
            continue
        base = [s for s in e["sets"] if not s.startswith("kernel.args.heap=")]
        for heap in (0, 2):
            name = e["row"] if heap == 0 else f"{e['row']}.heap{heap}"
            entries.append(probe_rows.entry(name, base + [f"kernel.args.heap={heap}"],
                                            f"{e['id'].replace('micro_', 'micro_s34route2_')}_heap{heap}"))
    doc = ("Issue 19, fortieth pass (s34-route): the multi-warp pull-phase rows as stored (heap 0) and with their slot rows "
           "freed (heap 2); every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
