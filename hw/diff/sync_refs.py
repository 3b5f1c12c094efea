#!/usr/bin/env python3
"""The reference of the sync rows: their median repetition on the H200 passes (issue 19).

  sync_refs.py HW_DIR [HW_DIR ...]                      each row: stored value, the passes' repetitions, the median
  sync_refs.py HW_DIR [HW_DIR ...] --write-table FILE   and the table for hw_diff.CALIB_TABLES

The rows: every calibration row of the sync families (`shim.grid_sync`, `shim.signal_wait`, `flag`) that an HW_DIR run
read with its repetitions kept (hw_diff.py hw with SYMSIM_HW_KEEP_REPETITIONS=1). Why (docs/hw-accuracy.md,
thirty-ninth pass (s33-sync)): their repetitions fall in two groups set by the repetition's index, the sync word's
address (thirty-fourth pass (s28-sync)), so a stored row, one run's last repetition, is a draw of one group; and session
19's pass (h200-2026-12-04-s19b-route2) read sync_probe's relaxed rows within 3 ns of their release twins, which no pass
since reproduces (every repetition splits them by 200-300 ns at GPU scope, 520-590 at system scope).
The value: the median of the repetitions 2..n of every HW_DIR run of the row's entry (the statistic of
calib_reproduce.py --reps); the row's stored value and table are cited beside it and stay where they are.
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_reproduce  # noqa: E402
import hw_diff  # noqa: E402

FAMILIES = ("shim.grid_sync.", "shim.signal_wait.", "flag.")
OWN_TABLE = "s33-syncref"


def runs(hw_dirs, entry):
    """(folder, repetitions) of every passing run of the entry that kept its repetitions."""
    out = []
    for d in hw_dirs:
        r = hw_diff.read(os.path.join(d, entry, "result.json"))
        if not r or r.get("status") != "pass":
            continue
        reps = hw_diff.repetition_values(r)
        if len(reps) >= 2:
            out.append((d, reps))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hw", nargs="+")
    p.add_argument("--names", help="comma-separated names for the HW_DIRs in the table (default: the paths)")
    p.add_argument("--write-table")
    a = p.parse_args()
    names = dict(zip(a.hw, a.names.split(","))) if a.names else {d: d for d in a.hw}
    stored = {}  # row -> (value, table): the first table holding it, this rule's own left out
    for path in hw_diff.CALIB_TABLES:
        if OWN_TABLE not in path:
            for row, (v, _) in hw_diff.calib_rows([path]).items():
                stored.setdefault(row, (v, os.path.relpath(path, os.path.join(HERE, "..", ".."))))
    entries = sorted((e, r) for e, r in calib_reproduce.entry_rows().items() if r.startswith(FAMILIES) and r in stored)
    lines, done = [], set()
    for entry, row in entries:
        rs = runs(a.hw, entry)
        if not rs or row in done:
            continue
        done.add(row)
        reps = [v for _, r in rs for v in r[1:]]
        med = statistics.median(reps)
        old, table = stored[row]
        print(f"{row:48s} stored {old:8.1f} median {med:8.1f} ({len(reps)} repetitions, {min(reps):.0f}-{max(reps):.0f}) "
              f"lasts {' '.join(f'{r[-1]:.1f}' for _, r in rs)}")
        where = ", ".join(names[d] for d, _ in rs)
        lines.append(f"| `{row}` | the row's probe, its median repetition on the H200 passes | {med:.1f} | ns | median of "
                     f"repetitions 2-n of {len(rs)} runs ({where}): {len(reps)} repetitions, {min(reps):.1f}-{max(reps):.1f}; "
                     f"the stored reading {old} ({table}) |")
    if a.write_table:
        head = ("# The sync rows, referenced to their median repetition on the H200 passes "
                "(issue 19, thirty-ninth pass (s33-sync), 2026-12-06)\n\n"
                "The rule and why: `hw/diff/sync_refs.py` and docs/hw-accuracy.md, thirty-ninth pass (s33-sync): the grid-sync,\n"
                "signal-wait and flag rows read in two groups set by the repetition (the sync word's address), so one run's last\n"
                "repetition is a draw of one group. Written by `python3 hw/diff/sync_refs.py HW_DIR ... --write-table FILE`\n"
                "over the nine H200 passes; the stored values stay in their tables.\n\n"
                "| id | quantity | value | unit | method |\n| --- | --- | ---: | --- | --- |\n")
        with open(a.write_table, "w") as f:
            f.write(head + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
