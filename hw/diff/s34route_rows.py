#!/usr/bin/env python3
"""A device question: is a row's climb over a run the stored procedure's kept allocations? (issue 19, fortieth pass (s34-route)).

  s34route_rows.py --out hw/diff/s34route_rows.json

Three calibration rows whose stored value is a late repetition of a run that climbs and that no card has read freed,
each as stored (`heap` 0: the probe's `cudaMalloc` memory kept to the run's end), with the probe's memory in the heap
(`heap` 1) and given back at every return (`heap` 2):
- `pull_phases.heap.512tok.h7168` (mode 26, `hot` 4): its window is in the heap already, yet it climbs (H200 `hw_base`
  46,160 -> 53,030; session 31's H100 D1 42,770 -> 50,250); what it still takes from `cudaMalloc` each repetition and
  keeps is the 3.5 MiB of slot rows (`out`, never written), the stamps and the word (calib_probe_host.cpp): with
  `heap` 1 the rows are in the heap, with `heap` 2 they are freed;
- `dispatch_route.l2.7168.c4w4.all_line` and `pull_step.l2.7k.c4w4.rtmapped.slots.32steps`: climbed `cudaMalloc`
  rows never read in the heap or freed on any card.
What it answers, on any card (an H100 is fine: a difference between placements on one card): if the rows read flat
with `heap` 1 and 2 at the stored procedure's first repetition, their climb is the procedure's, as s29-heap's 53 rows
(H200) and s31-read's reduce rows (H100). Every repetition kept (SYMSIM_HW_KEEP_REPETITIONS=1).
"""
import argparse
import os

import hw_diff
import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = ("shim.pull_phases.heap.512tok.h7168", "shim.dispatch_route.l2.7168.c4w4.all_line_ns",
        "shim.pull_step.l2.7k.c4w4.rtmapped.slots.32steps_ns")


def stored_sets():
    """Row -> the sets of the first set file's entry that probes it."""
    out = {}
    for name in sorted(os.listdir(HERE)):
        if name.endswith("_set.json"):
            for e in hw_diff.load_set(os.path.join(HERE, name)):
                if e.get("kind") == "micro" and e["row"] in ROWS:
                    out.setdefault(e["row"], e["sets"])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    sets = stored_sets()
    entries = []
    for row in ROWS:
        base = [s for s in sets[row] if not s.startswith("kernel.args.heap=")]
        short = row.replace("shim.", "").replace("_ns", "").replace(".", "_")
        for heap in (0, 1, 2):
            # heap 0 is the stored row; the other placements are rows of their own (no calibration row reads them)
            name = row if heap == 0 else f"{row}.heap{heap}"
            entries.append(probe_rows.entry(name, base + [f"kernel.args.heap={heap}"], f"micro_s34route_{short}_heap{heap}"))
    doc = ("Issue 19, fortieth pass (s34-route): three climbing rows as stored (heap 0), in the heap (1) and freed (2); "
           "every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
