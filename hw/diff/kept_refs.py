#!/usr/bin/env python3
"""Heap rows whose kernel writes kept `cudaMalloc` memory: their repetitions 2-5 on the H200 passes (issue 19; a
reference rule, no model change; docs/hw-accuracy.md, forty-third pass (s37-pull)).

  kept_refs.py HW_DIR [HW_DIR ...] [--names N,N,...]                   each row: stored value, every run's repetitions
  kept_refs.py HW_DIR [HW_DIR ...] [--names ...] --write-table FILE    and the table for hw_diff.CALIB_TABLES (first)
  kept_refs.py HW_DIR [HW_DIR ...] --sim SIM_DIR [--calib-md FILE ...]  and which rows move in / out, reproducing rows
  kept_refs.py HW_DIR [HW_DIR ...] --sim SIM_DIR --window 2-4            what-if: another window of repetitions (no table)

Why: calib_probe's pull rows (mode 26, `hot` 4, `inflight` 2: the application's pull loop) read their tokens from the
symmetric heap (the same memory every repetition) but write them to slot rows `cudaMalloc`ed at every repetition and
kept (`args.out`, kernels/nvlink/calib/calib_probe_host.cpp). Over the stored procedure's run the kept slot rows pile
up: on every H200 pass the two 512-token shapes (3.5 MiB of slot rows a repetition) read flat over repetitions 2-5 and
climb from repetition 6 (`hw_base` 46,160 -> 53,030, the stored 53,010 is such a climbed last repetition), the smaller
shapes (at most 1.75 MiB a repetition) do not climb, and the heap rows that write no kept memory do not climb at 512
rows (`fresh.bulk_store_data.heapdata.7168.512r.c4w4`, `fresh.bulk_load.heapdata.7168.512r.c4w4`). With the slot rows
given back at each return (`heap` 2, session 34's H100 calls D2 / D3) every shape reads flat. The first repetition is
high for another reason: a run's first launches read 6-13% high at 8-128 tokens in both placements (D3). So neither
s34-route's statistic (the first repetition) nor s35-near's (the median of repetitions 2..n) measures what the row
names over the family; the repetitions after the first launch and before the kept memory's climb do: on D3 / D2 their
median is within 5% of the freed run's median in 8 of the 9 stored runs and within 6.0% in all (the first repetition 4
of 9 within 5%, the median of 2..n 6, of the first three 5). Repetition 5 is the last before the earliest climb any
H200 run of the family shows.

The rows (the family): every calibration row of calib_families.py's whose window is in the heap (`hot` 4; `heap` 1
puts the slot rows there too) and whose kernel writes memory `cudaMalloc`ed at every repetition and kept (`heap` 0): the
pull modes 25 / 26 with their slot rows in `out` (`inflight` bit 0 clear) and mode 21's slot rows (`inflight` bit 5); and
that an HW_DIR run read with 6 or more repetitions kept. The value: the median over those runs of each run's median of repetitions 2-5; the
stored value and its table are cited beside it and stay where they are.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import climb_refs  # noqa: E402
import heap_refs  # noqa: E402
import hw_diff  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
OWN_TABLE = "kept_refs.md"
PULL_MODES = (25.0, 26.0)  # kProbeAppPull, kProbePullPhases
SLOT_MODE = 21.0  # kProbePullStep, its slot rows with `inflight` bit 5
FIRST, LAST = 2, 5  # 1-based: after the first launch, before the earliest climb of the family's H200 runs


def writes_kept_memory(args):
    """The kernel writes memory `cudaMalloc`ed at each repetition and kept (calib_probe_host.cpp's `args.out`)."""
    inflight, placement = int(args.get("inflight", 0)), int(args.get("heap", 0))
    if placement != 0:  # 1: the slot rows in the heap too; 2: given back at each return
        return False
    mode = args.get("mode")
    return (mode in PULL_MODES and not inflight & 1) or (mode == SLOT_MODE and bool(inflight & 32))


def raw_args(rows):
    """Row -> its entry's kernel arguments as given (heap_refs.probe_key folds `heap` and `hot` 4 into the placement)."""
    out = {}
    for path in calib_families.sets():
        for e in hw_diff.load_set(path):
            if e.get("kind") != "micro" or e["row"] in out or e["row"] not in rows:
                continue
            with open(os.path.join(ROOT, e["scenario"])) as f:
                args = {k: float(v) for k, v in json.load(f)["kernel"].get("args", {}).items()}
            for s in e["sets"]:
                k, v = s.split("=", 1)
                if k.startswith("kernel.args."):
                    args[k[len("kernel.args."):]] = float(v)
            out[e["row"]] = args
    return out


def family():
    """Row -> (configuration key, stored value, its table) of every row the rule reaches (but the runs)."""
    table_of = {}
    for path in hw_diff.CALIB_TABLES:
        if os.path.basename(path) != OWN_TABLE:
            for row, (v, _) in hw_diff.calib_rows([path]).items():
                table_of.setdefault(row, (v, path))
    heap_rows = {row: key for row, (where, key, _, _) in heap_refs.calibration_rows().items() if where == 1}
    args = raw_args(heap_rows)
    return {row: (key,) + table_of[row] for row, key in heap_rows.items() if writes_kept_memory(args[row])}


def statistic(reps, first=FIRST, last=LAST):
    return statistics.median(reps[first - 1:last])


def main():
    p = climb_refs.reference_parser(__doc__)
    p.add_argument("--window", default=f"{FIRST}-{LAST}", help="1-based repetitions FIRST-LAST (what-if; not with --write-table)")
    a = p.parse_args()
    first, last = (int(x) for x in a.window.split("-"))
    if a.write_table and (first, last) != (FIRST, LAST):
        sys.exit("--write-table takes the rule's window only")
    stat = lambda reps: statistic(reps, first, last)  # noqa: E731
    names = climb_refs.pass_names(a)
    rows = family()
    runs = climb_refs.kept_runs(a.hw, rows)
    refs = hw_diff.calib_rows(hw_diff.CALIB_TABLES)  # what calib_families.ratios divides by (with or without the rule)
    sim = {row: r * refs[row][0] for row, r in calib_families.ratios(a.sim).items()} if a.sim else {}
    lines, moved = [], [0, 0]
    print(f"{len(rows)} rows in the family; {len(runs)} with runs of {climb_refs.MIN_REPS}+ repetitions kept")
    for row in sorted(runs):
        key, old, table = rows[row]
        rs = runs[row]
        per_run = [stat(r) for _, r in rs]
        value = statistics.median(per_run)
        line = f"{row:42s} stored {old:9.4g} rule {value:9.4g} ({value / old:.3f}); runs {' '.join(f'{v:.4g}' for v in per_run)}"
        if row in sim:
            before, after = sim[row] / old, sim[row] / value
            in_before, in_after = abs(before - 1) <= calib_families.TOLERANCE, abs(after - 1) <= calib_families.TOLERANCE
            moved[0] += in_after and not in_before
            moved[1] += in_before and not in_after
            line += f"; sim {sim[row]:.4g}: {before:.3f} -> {after:.3f}" + (
                " IN" if in_after and not in_before else " OUT" if in_before and not in_after else "")
        print(line)
        for d, r in rs:
            print(f"    {names[d]:10s} {' '.join(f'{v:.4g}' for v in r)}")
        where = ", ".join(names[d] for d, _ in rs)
        lines.append(f"| `{row}` | the row's probe, its repetitions {FIRST}-{LAST} on the H200 passes | {value:.4g} | ns | median "
                     f"over {len(rs)} runs ({where}) of each run's median of repetitions {FIRST}-{LAST}: "
                     f"{', '.join(f'{v:.4g}' for v in per_run)} (their first repetitions {', '.join(f'{r[0]:.4g}' for _, r in rs)}, "
                     f"last {', '.join(f'{r[-1]:.4g}' for _, r in rs)}); the stored reading {old:.4g} "
                     f"({os.path.relpath(table, ROOT)}) |")
    if sim:
        print(f"with the rule: {moved[0]} in, {moved[1]} out")
        climb_refs.reproduce(a, runs, stat, f"repetitions {first}-{last}")
    if a.write_table:
        head = ("# Heap rows whose kernel writes kept `cudaMalloc` memory, referenced to their repetitions 2-5 on the H200 "
                "passes (issue 19, forty-third pass (s37-pull), 2026-12-06)\n\n"
                "The rule and why: `hw/diff/kept_refs.py` and docs/hw-accuracy.md, forty-third pass (s37-pull): the pull rows\n"
                "read their tokens in the heap but write slot rows `cudaMalloc`ed and kept at every repetition; the 512-token\n"
                "shapes climb from repetition 6 on every H200 pass, a run's first launch reads high at 8-128 tokens, and with\n"
                "the slot rows given back (H100, session 34's D2 / D3) every shape reads flat at the median of repetitions 2-5.\n"
                "Written by `python3 hw/diff/kept_refs.py HW_DIR ... --write-table FILE` over the nine H200 passes; the stored\n"
                "values stay in their tables.\n\n")
        climb_refs.write_table(a.write_table, head, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
