#!/usr/bin/env python3
"""The reference of dispatch's phase rows in cold `cudaMalloc` windows: their median repetition on the H200 passes (issue 19).

  level_refs.py HW_DIR [HW_DIR ...] --evidence [--sim SIM_DIR]         the evidence (GPU readings; --sim: the model's
                                                                       fresh - l2 beside the GPU's)
  level_refs.py HW_DIR [HW_DIR ...] --patterns                         any call's mode-22 entries, repetition sides
  level_refs.py HW_DIR [HW_DIR ...] --written-what-if --sim SIM_DIR    the count with the written-before rows at theirs too
  level_refs.py HW_DIR [HW_DIR ...] [--names N,N,...]                  each row of the family
  level_refs.py HW_DIR [HW_DIR ...] [--names ...] --write-table FILE   and the table for hw_diff.CALIB_TABLES
  level_refs.py HW_DIR [HW_DIR ...] --sim SIM_DIR [--calib-md FILE ...]  and which rows reproduce under the rule

Why (docs/hw-accuracy.md, forty-first pass (s35-dispatch)): calib_probe mode 22 (intranode_dispatch's phases at one PE)
syncs its four CTAs through words of the `word` array and takes its slot counter there, and symsim-hw allocates that
array (and the window) anew at every repetition. Its rows read at two levels 8-15% apart, and every row of one window
size and state takes the same level at the same repetition within a pass (`--evidence`; at 8 and 64 tokens the
never-written and written-before rows too, at 128 tokens they take opposite levels): the level is what the repetition
allocated (the grid sync's word address groups of the thirty-fourth pass (s28-sync), the slot counter's of the
thirty-seventh (s31-pull), and at 128 tokens the window's own). A stored reading, one run's last repetition, is one draw;
the neutral statistic over the allocations is the median repetition, as the sync rows' (s33-sync, sync_refs.py).
The written-before windows of the family's shapes climb over a run and keep the climb rule's first repetition
(climb_refs.py); the never-written and pushed-out windows are cold already and climb by under 5% over a run
(`--evidence`), so the levels are what their repetitions spread by.

The rows (the family): every calibration row of calib_families.py's (CALIB_TABLES, first table wins) whose entry runs
mode 22 with more than one warp, reads a `cudaMalloc` window never written or pushed out before the kernel (`heap` 0,
`hot` 0, 2 or 5), has no rule reference yet (heap_rows.md, heap_refs.md, sync_refs.md, climb_refs.md) and that an
HW_DIR run read with 6 or more repetitions kept. The value: the median of repetitions 2..n over those runs (the
statistic of calib_reproduce.py --reps); the stored value and its table are cited beside it and stay where they are.
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
import climb_refs  # noqa: E402
import heap_refs  # noqa: E402
import hw_diff  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
RULE_TABLES = ("heapmed_refs.md", "heap_rows.md", "heap_refs.md", "sync_refs.md", "climb_refs.md")  # references another rule gives
OWN_TABLE = "level_refs.md"
MODE_DISPATCH_PHASES = 22.0
COLD = (0.0, 2.0, 5.0)  # `hot` 0 never written, 2 written then pushed out, 5 never written and pushed out
MIN_REPS = climb_refs.MIN_REPS


def family():
    """Row -> (configuration key, stored value, its table) of every row the rule reaches (but the runs)."""
    table_of = {}
    for path in hw_diff.CALIB_TABLES:
        if os.path.basename(path) != OWN_TABLE:
            for row, (v, _) in hw_diff.calib_rows([path]).items():
                table_of.setdefault(row, (v, path))
    tool = calib_reproduce.calib_tool_rows()
    out = {}
    for row, (where, key, _, _) in heap_refs.calibration_rows().items():
        value, table = table_of[row]
        if os.path.basename(table) in RULE_TABLES or row in tool:
            continue
        args = dict(key[2])
        if (where == 0 and heap_refs.warps(key) > 1 and args.get("mode") == MODE_DISPATCH_PHASES
                and args.get("hot", 1.0) in COLD):
            out[row] = (key, value, table)
    return out


def side(reps):
    """'H' / 'L' per repetition: above / below the run's median by more than 2% of it, '.' between."""
    m = statistics.median(reps)
    return "".join("H" if v > 1.02 * m else "L" if v < 0.98 * m else "." for v in reps)


def ns(v):
    """A figure as the table writes it: 0.1 ns under a microsecond, whole ns above."""
    return f"{v:.1f}" if v < 1000 else f"{v:.0f}"


def tokens_of(key):
    return int(dict(key[2]).get("count", 0))


def state(key):
    return "cold" if dict(key[2]).get("hot", 1.0) in COLD else "written before"


def evidence(hw_dirs, names):
    """GPU readings only: each mode-22 row's spread and level pattern by pass, and how the rows of one window size agree
    (every mode-22 row with runs, written-before ones included: the level is the allocation's, not the state's)."""
    mode22 = {row: k for row, (w, k, _, _) in heap_refs.calibration_rows().items()
              if w == 0 and dict(k[2]).get("mode") == MODE_DISPATCH_PHASES and heap_refs.warps(k) > 1}
    runs = climb_refs.kept_runs(hw_dirs, mode22)
    by_pass = collections.defaultdict(dict)  # (folder, tokens) -> row -> pattern
    print("| row | runs | repetitions 2..n: range / median | first -> last (medians over runs) | pattern by run |")
    print("| --- | ---: | --- | --- | --- |")
    for row in sorted(runs, key=lambda r: (tokens_of(mode22[r]), r)):
        rs = runs[row]
        later = [v for _, r in rs for v in r[1:]]
        med = statistics.median(later)
        first = statistics.median(r[0] for _, r in rs)
        last = statistics.median(r[-1] for _, r in rs)
        for d, r in rs:
            by_pass[(d, tokens_of(mode22[row]), state(mode22[row]))][row] = side(r)
        print(f"| `{row}` | {len(rs)} | {min(later) / med:.3f}-{max(later) / med:.3f} / {med:.0f} | "
              f"{first / med:.3f} -> {last / med:.3f} | {' '.join(side(r) for _, r in rs)} |")
    print("\nAgreement within a pass (rows of one window size, i.e. one token count, and one window state): repetitions "
          "where every row that is H or L there takes the same side, of the repetitions where two or more rows do")
    for (d, tokens, st), pats in sorted(by_pass.items(), key=lambda x: (x[0][1], x[0][2], x[0][0])):
        if len(pats) < 2:
            continue
        n = min(len(p) for p in pats.values())
        decided = agree = 0
        for i in range(n):
            marks = {p[i] for p in pats.values() if p[i] != "."}
            if sum(p[i] != "." for p in pats.values()) >= 2:
                decided += 1
                agree += len(marks) == 1
        print(f"  {tokens} tokens, {st}, {names.get(d, d).split(' ')[0]}, {len(pats)} rows: {agree} of {decided}")


def patterns(folders):
    """Every mode-22 entry of other calls (any row set, e.g. the H100's s33phases_rows.json answers): its repetitions'
    sides, so that two calls of one entry can be set side by side."""
    for d in folders:
        print(f"{d}:")
        for name in sorted(os.listdir(d)):
            r = hw_diff.read(os.path.join(d, name, "result.json"))
            reps = hw_diff.repetitions(r)
            if "dispatch_phases" in name and len(reps) >= MIN_REPS and None not in reps:
                print(f"  {name:58s} {side(reps)}  median {statistics.median(reps[1:]):.0f}  {' '.join(f'{v:.0f}' for v in reps)}")


def pairs(hw_dirs, sim):
    """Fresh memory's cost with the level held: each never-written (`fresh`) row less its written-before twin (`l2`,
    the same window size, so the same allocations) repetition by repetition within a pass; the model's difference."""
    print("| tokens, phase | by pass: median of repetition-by-repetition fresh - l2 (2..n) | all | model |")
    print("| --- | --- | ---: | ---: |")
    ratio = calib_families.ratios(sim) if sim else {}
    ref = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    for tokens in (8, 64, 128, 512):
        for phase in ("p3", "p0p3"):
            fresh, l2 = (f"shim.dispatch_phases.{s}.{tokens}tok.h7168.{phase}_ns" for s in ("fresh", "l2"))
            rf, rl = (dict(climb_refs.kept_runs(hw_dirs, {row: 1}).get(row, [])) for row in (fresh, l2))
            by, every = [], []
            for d in hw_dirs:
                if d in rf and d in rl:
                    diff = [x - y for x, y in zip(rf[d][1:], rl[d][1:])]
                    by.append(f"{os.path.basename(d)} {statistics.median(diff):.0f}")
                    every += diff
            if not every:
                continue
            model = ratio[fresh] * ref[fresh][0] - ratio[l2] * ref[l2][0] if fresh in ratio and l2 in ratio else None
            print(f"| {tokens}, {phase} | {', '.join(by)} | {statistics.median(every):.0f} | "
                  f"{'-' if model is None else f'{model:.0f}'} |")


def written_before_what_if(hw_dirs, sim):
    """Not a rule: the count if mode 22's written-before rows (the climb rule's family, first repetition) took their
    median repetition too (docs/hw-accuracy.md, forty-first pass: their levels are the same allocations')."""
    rows = {r: v for r, v in climb_refs.family().items() if dict(v[0][2]).get("mode") == MODE_DISPATCH_PHASES}
    runs = climb_refs.kept_runs(hw_dirs, rows)
    ratio, ref = calib_families.ratios(sim), hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    count = sum(abs(x - 1) <= calib_families.TOLERANCE for x in ratio.values())
    for row in sorted(runs):
        med = statistics.median(v for _, r in runs[row] for v in r[1:])
        old, new = ratio[row], ratio[row] * ref[row][0] / med
        count += (abs(new - 1) <= calib_families.TOLERANCE) - (abs(old - 1) <= calib_families.TOLERANCE)
        print(f"{row:60s} first repetition {ref[row][0]:8.0f} ({old:.3f})  median repetition {med:8.0f} ({new:.3f})")
    print(f"calibration rows within 10% with these {len(runs)} at their median repetition too: {count} of {len(ratio)}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hw", nargs="+")
    p.add_argument("--names", help="comma-separated names for the HW_DIRs in the table (default: the paths)")
    p.add_argument("--evidence", action="store_true", help="the levels by row and pass (no simulator figure)")
    p.add_argument("--patterns", action="store_true", help="HW_DIRs of any mode-22 row set: each entry's sides")
    p.add_argument("--written-what-if", action="store_true",
                   help="with --sim: the count if mode 22's written-before rows took their median repetition too")
    p.add_argument("--write-table")
    p.add_argument("--sim")
    p.add_argument("--calib-md", action="append", default=[])
    a = p.parse_args()
    names = dict(zip(a.hw, a.names.split(","))) if a.names else {d: d for d in a.hw}
    if a.patterns:
        patterns(a.hw)
        return 0
    if a.written_what_if:
        written_before_what_if(a.hw, a.sim)
        return 0
    if a.evidence:
        evidence(a.hw, names)
        print()
        pairs(a.hw, a.sim)
        return 0
    rows = family()
    runs = climb_refs.kept_runs(a.hw, rows)
    lines = []
    print(f"{len(rows)} rows in the family; {len(runs)} with runs of {MIN_REPS}+ repetitions kept")
    for row in sorted(runs):
        key, old, table = rows[row]
        rs = runs[row]
        later = [v for _, r in rs for v in r[1:]]
        med = statistics.median(later)
        print(f"{row:52s} stored {old:9.4g} median repetition {med:9.4g} ({med / old:.3f}; {len(later)} repetitions "
              f"{min(later):.4g}-{max(later):.4g}) lasts {' '.join(f'{r[-1]:.4g}' for _, r in rs)}")
        where = ", ".join(names[d] for d, _ in rs)
        lines.append(f"| `{row}` | the row's probe, its median repetition on the H200 passes | {ns(med)} | ns | median of "
                     f"repetitions 2-n of {len(rs)} runs ({where}): {len(later)} repetitions, {ns(min(later))}-"
                     f"{ns(max(later))} (their last repetitions {', '.join(ns(r[-1]) for _, r in rs)}); the stored "
                     f"reading {ns(old)} ({os.path.relpath(table, ROOT)}) |")
    if a.sim:
        climb_refs.reproduce(a, runs, lambda reps: statistics.median(reps[1:]), "runs' median repetitions")
    if a.write_table:
        head = ("# Dispatch's phase rows in cold `cudaMalloc` windows, referenced to their median repetition on the H200 "
                "passes (issue 19, forty-first pass (s35-dispatch), 2026-12-06)\n\n"
                "The rule and why: `hw/diff/level_refs.py` and docs/hw-accuracy.md, forty-first pass (s35-dispatch): calib_probe\n"
                "mode 22's rows read at two levels set by what each repetition allocates (the `word` array of its grid syncs and\n"
                "slot counter), so one run's last repetition is a draw of one level. Written by\n"
                "`python3 hw/diff/level_refs.py HW_DIR ... --write-table FILE` over the nine H200 passes; the stored values stay\n"
                "in their tables.\n\n")
        climb_refs.write_table(a.write_table, head, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
