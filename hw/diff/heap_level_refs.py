#!/usr/bin/env python3
"""The heap-referenced rows at their heap run's median repetition (issue 19; a reference rule, no model change).

  heap_level_refs.py HEAP_DIR [HEAP_DIR ...] [--sim SIM_DIR]          each row: stored, its run's repetitions, median
  heap_level_refs.py HEAP_DIR [HEAP_DIR ...] --write-table FILE      and the table for hw_diff.CALIB_TABLES (first)

HEAP_DIR: the unpacked heap runs the two heap tables cite: session 29's call D1 (`hw_s29heap`, `hw_s29heap2` of
hw/diff/results/h200-2026-12-05-s29-D1/hw_s29heap.tgz) and session 27's call C (`hw_s27phases` of
hw/diff/results/h200-2026-12-05-s27-C/hwC.tgz), all H200.

Why (docs/hw-accuracy.md, forty-first pass (s35-near)): the rows of heap_rows.md (s29-heap) and heap_refs.md
(s32-heapref) took the last of 11 repetitions of one H200 heap run. The heap keeps the window at one address, but the
run's repetitions still read at two levels (the pull step's slot counter, s31-pull; dispatch's `word` array, s35-dispatch:
what each repetition allocates), e.g. `shim.pull_step.l2.7k.c4w4.mapped_ns` 1009-1047 in six repetitions and
1119-1158 in five, `shim.dispatch_phases.l2data.512tok.h7168.p1_ns` 34,940-35,990 in five and 37,110-38,970 in six.
The last repetition is one draw of a level; the neutral statistic is the median of repetitions 2..n, as level_refs.py's
(s35-dispatch) and sync_refs.py's (s33-sync). The rows: every row whose first table is heap_rows.md or heap_refs.md
and whose cited heap run is in a HEAP_DIR (the run's last repetition must be the stored value). The stored values stay.
"""
import argparse
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import climb_refs  # noqa: E402
import hw_diff  # noqa: E402

HEAP_TABLES = [t for t in hw_diff.CALIB_TABLES if t.endswith(("heap_rows.md", "heap_refs.md"))]  # s29-heap, s32-heapref


def rows(heap_dirs):
    """Row -> (stored, table, run path, repetitions) for every heap-referenced row whose run is in a HEAP_DIR."""
    first = {}
    for path in [t for t in hw_diff.CALIB_TABLES if not t.endswith("heapmed_refs.md")]:  # the rows as before the rule
        for row in hw_diff.calib_rows([path]):
            first.setdefault(row, path)
    stored = hw_diff.calib_rows(HEAP_TABLES)
    out = {}
    for table in HEAP_TABLES:
        for line in open(table):
            m = re.match(r"\| `([^`]+)` \|", line)
            if not m or first.get(m.group(1)) != table:
                continue
            row = m.group(1)
            for run_id in re.findall(r"(micro_[a-z0-9_]+)", line):
                found = [os.path.join(d, run_id, "result.json") for d in heap_dirs
                         if os.path.exists(os.path.join(d, run_id, "result.json"))]
                if found:
                    reps = hw_diff.repetition_values(hw_diff.read(found[0]))
                    if abs(reps[-1] / stored[row][0] - 1) > 0.002:
                        sys.exit(f"{row}: the run's last repetition {reps[-1]} is not the stored {stored[row][0]}")
                    out[row] = (stored[row][0], table, found[0], reps)
                    break
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("heap", nargs="+")
    p.add_argument("--sim")
    p.add_argument("--write-table")
    a = p.parse_args()
    found = rows(a.heap)
    refs = hw_diff.calib_rows(hw_diff.CALIB_TABLES)  # what calib_families.ratios divides by (with or without the rule)
    sim = {row: r * refs[row][0] for row, r in calib_families.ratios(a.sim).items()} if a.sim else {}  # ns
    lines, moved = [], [0, 0]
    print(f"{len(found)} heap-referenced rows with their run")
    for row in sorted(found):
        value, table, path, reps = found[row]
        median = statistics.median(reps[1:])
        line = f"{row} stored {value:.4g} median of repetitions 2-{len(reps)} {median:.4g} ({min(reps[1:]):.4g}-{max(reps[1:]):.4g})"
        if row in sim:
            before, after = sim[row] / value, sim[row] / median
            in_before, in_after = abs(before - 1) <= calib_families.TOLERANCE, abs(after - 1) <= calib_families.TOLERANCE
            moved[0] += in_after and not in_before
            moved[1] += in_before and not in_after
            line += f" sim/stored {before:.3f} -> {after:.3f}" + (" IN" if in_after and not in_before else " OUT" if in_before and not in_after else "")
        print(line)
        run = os.path.relpath(path, os.path.dirname(os.path.dirname(os.path.dirname(path))))
        lines.append(f"| `{row}` | the row's heap run, its median repetition | {median:.4g} | ns | median of repetitions "
                     f"2-{len(reps)} of `{run}` ({min(reps[1:]):.4g}-{max(reps[1:]):.4g}; the last, {reps[-1]:.4g}, the stored "
                     f"value in {os.path.basename(table)}) |")
    if sim:
        print(f"with the rule: {moved[0]} in, {moved[1]} out")
    if a.write_table:
        head = ("# The heap-referenced rows at their heap run's median repetition (issue 19, forty-first pass (s35-near), "
                "2026-12-06)\n\nThe rule and why: `hw/diff/heap_level_refs.py` and docs/hw-accuracy.md, forty-first pass "
                "(s35-near). Written by\n`python3 hw/diff/heap_level_refs.py HEAP_DIR ... --write-table FILE` over session "
                "29's call D1 and session 27's call C (H200);\nthe stored values stay in heap_rows.md / heap_refs.md.\n\n")
        climb_refs.write_table(a.write_table, head, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
