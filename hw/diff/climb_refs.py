#!/usr/bin/env python3
"""The reference of the climbing `cudaMalloc` rows: their first repetition on the H200 passes (issue 19).

  climb_refs.py HW_DIR [HW_DIR ...] [--names N,N,...]                  each row: stored value, first / last repetitions
  climb_refs.py HW_DIR [HW_DIR ...] [--names ...] --write-table FILE   and the table for hw_diff.CALIB_TABLES
  climb_refs.py HW_DIR [HW_DIR ...] --sim SIM_DIR [--calib-md FILE ...]  and which rows reproduce under the rule

--sim (calib_families.py's --out) counts the rows that reproduce within 10% as calib_reproduce.py does (every reading
within 10% of the reference), but with a family row's readings taken at the rule's statistic (each run's first
repetition, not its last), and the simulator among them; the rest of the rows as calib_reproduce.py.

Why (docs/hw-accuracy.md, fortieth pass (s34-route); the evidence is `climb_evidence.py`'s, GPU readings only): the
stored procedure gives each repetition a new `cudaMalloc` window and keeps the old ones, and a multi-warp row's
figure climbs over the run from the heap's to the cold memory's (s29-heap); the heap (the same memory every
repetition, what the kernels run on) and a window freed at each return read flat, and in the same call the
`cudaMalloc` run's *first* repetition reads the heap's figure (H200, session 29's D1: 52 of 53 probes within 5% of the
heap's median repetition; every stored H200 call 70 of 78, the median of the first three 38, the median repetition 14,
the last 9). So the climb is the procedure's, and the first repetition is the statistic that measures what the row names.

The rows (the family): every calibration row of calib_families.py's (CALIB_TABLES, first table wins) whose entry
- runs more than one warp (blocks x warps > 1: one warp reads alike in both placements, s29-heap),
- reads a `cudaMalloc` window written just before the kernel (`heap` 0, `hot` 1 or 3: the states the evidence read
  in both placements; never-written or pushed-out windows are cold already and do not climb to anything),
- whose reference is not already a rule's (the heap tables heap_rows.md / heap_refs.md) and that is no sync row (the
  sync families keep s33-sync's rule, sync_refs.py: their word's address groups, not a window),
- and that an HW_DIR run read with 6 or more repetitions kept.
The value: the median over those runs of each run's first repetition; the stored value and its table are cited
beside it and stay where they are.
"""
import argparse
import collections
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import calib_reproduce  # noqa: E402
import heap_refs  # noqa: E402
import hw_diff  # noqa: E402
import sync_refs  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
RULE_TABLES = ("heapmed_refs.md", "heap_rows.md", "heap_refs.md", "sync_refs.md")  # references another rule already gives
OWN_TABLE = "climb_refs.md"
WRITTEN_BEFORE = (1.0, 3.0)  # `hot` 1 zeros, 3 varied bytes: the window in L2 at launch
MIN_REPS = 6


def family():
    """Row -> (configuration key, stored value, its table) of every row the rule reaches (but the runs)."""
    table_of = {}  # row -> (value, table): the first CALIB_TABLES file holding it, this rule's own left out
    for path in hw_diff.CALIB_TABLES:
        if os.path.basename(path) != OWN_TABLE:
            for row, (v, _) in hw_diff.calib_rows([path]).items():
                table_of.setdefault(row, (v, path))
    tool = calib_reproduce.calib_tool_rows()  # symsim-calib's own loop: calib_probe's runs do not read these rows
    out = {}
    for row, (where, key, _, _) in heap_refs.calibration_rows().items():
        value, table = table_of[row]
        if os.path.basename(table) in RULE_TABLES or row in tool or row.startswith(sync_refs.FAMILIES):
            continue
        args = dict(key[2])
        if where == 0 and heap_refs.warps(key) > 1 and args.get("hot", 1.0) in WRITTEN_BEFORE:
            out[row] = (key, value, table)
    return out


def kept_runs(hw_dirs, rows):
    """Row -> [(folder, repetitions)] of every passing run with MIN_REPS or more repetitions kept."""
    ids, out = calib_reproduce.entry_rows(), collections.defaultdict(list)
    for d in hw_dirs:
        for name in sorted(os.listdir(d)):
            row = ids.get(name)
            if row not in rows:
                continue
            r = hw_diff.read(os.path.join(d, name, "result.json"))
            if not r or r.get("status") != "pass":
                continue
            reps = hw_diff.repetitions(r)
            if len(reps) >= MIN_REPS and None not in reps:
                out[row].append((d, reps))
    return out


def reproduce(a, runs, statistic=lambda reps: reps[0], what="first repetitions"):
    """The reproducing rows with the family's readings at the rule's statistic (of each run's repetitions), and the
    simulator among them."""
    ratio = calib_families.ratios(a.sim)  # row -> sim / reference (the tables as they are, this rule's included)
    ref = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    got = calib_reproduce.readings(a.hw, a.calib_md, calib_reproduce.calib_tool_rows())
    for row, rs in runs.items():
        got[row] = [statistic(r) for _, r in rs]
    dev = {row: max(abs(v / ref[row][0] - 1) for v in got[row]) for row in ratio if got.get(row)}
    fam = [r for r in ratio if r in runs]
    both = [r for r in ratio if dev.get(r, 1) <= 0.10]
    sim_in = [r for r in both if abs(ratio[r] - 1) <= calib_families.TOLERANCE]
    fam_rep = [r for r in fam if dev.get(r, 1) <= 0.10]
    print(f"\nFamily rows with runs: {len(fam)}; their {what} reproduce within 10%: {len(fam_rep)}, the simulator "
          f"within 10% among them {sum(abs(ratio[r] - 1) <= 0.10 for r in fam_rep)}.")
    print(f"All rows: {len(ratio)}; reproducing within 10% (family rows by their {what}): {len(both)}; "
          f"the simulator within 10% among them: {len(sim_in)}.")


def write_table(path, head, lines):
    """A rule's reference table for hw_diff.CALIB_TABLES: HEAD (title and why), then the rows."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(head + "| id | quantity | value | unit | method |\n| --- | --- | ---: | --- | --- |\n" + "\n".join(lines) + "\n")


def reference_parser(doc):
    """The arguments every reference-rule script takes: the passes, their names, the table to write, the runs."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hw", nargs="+")
    p.add_argument("--names", help="comma-separated names for the HW_DIRs in the table (default: the paths)")
    p.add_argument("--write-table")
    p.add_argument("--sim")
    p.add_argument("--calib-md", action="append", default=[])
    return p


def pass_names(a):
    return dict(zip(a.hw, a.names.split(","))) if a.names else {d: d for d in a.hw}


def main():
    a = reference_parser(__doc__).parse_args()
    names = pass_names(a)
    rows = family()
    runs = kept_runs(a.hw, rows)
    lines = []
    print(f"{len(rows)} rows in the family; {len(runs)} with runs of {MIN_REPS}+ repetitions kept")
    for row in sorted(runs):
        key, old, table = rows[row]
        rs = runs[row]
        first = statistics.median(r[0] for _, r in rs)
        last = statistics.median(r[-1] for _, r in rs)
        print(f"{row:60s} stored {old:9.4g} first {first:9.4g} ({first / old:.3f}) last {last:9.4g} ({last / old:.3f}) "
              f"firsts {' '.join(f'{r[0]:.4g}' for _, r in rs)}")
        where = ", ".join(names[d] for d, _ in rs)
        lines.append(f"| `{row}` | the row's probe, its first repetition on the H200 passes | {first:.4g} | ns | median of "
                     f"the first repetitions of {len(rs)} runs ({where}): {', '.join(f'{r[0]:.4g}' for _, r in rs)} "
                     f"(their last repetitions {', '.join(f'{r[-1]:.4g}' for _, r in rs)}); the stored reading {old:.4g} "
                     f"({os.path.relpath(table, ROOT)}) |")
    if a.sim:
        reproduce(a, runs)
    if a.write_table:
        head = ("# The climbing `cudaMalloc` rows, referenced to their first repetition on the H200 passes "
                "(issue 19, fortieth pass (s34-route), 2026-12-06)\n\n"
                "The rule and why: `hw/diff/climb_refs.py` and docs/hw-accuracy.md, fortieth pass (s34-route): a multi-warp\n"
                "row's `cudaMalloc` window climbs over the stored procedure's run (each repetition's window kept), and in one\n"
                "call the run's first repetition reads what the heap and a freed window read (`hw/diff/climb_evidence.py`).\n"
                "Written by `python3 hw/diff/climb_refs.py HW_DIR ... --write-table FILE` over the nine H200 passes; the\n"
                "stored values stay in their tables.\n\n")
        write_table(a.write_table, head, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
