#!/usr/bin/env python3
"""How well the stored calibration rows reproduce, and the simulator's count among those that do (issue 19).

  calib_reproduce.py --sim SIM_DIR HW_DIR [HW_DIR ...] [--calib-md FILE ...] [--rows] [--reps] [--early K]

SIM_DIR: calib_families.py's --out folder (the simulator's run of every row). HW_DIR: a folder of
symsim-hw results written by `hw_diff.py hw` (ID/result.json), measured with the procedure that made
the stored rows (a fresh window per repetition; symsim-hw of 9f48061 or main after s24-window). A
reading is the result's value=..., the last repetition, the one the stored rows took. --calib-md:
symsim-calib's own output (markdown tables): the re-measurement of rows stored from symsim-calib's
tables, which symsim-hw's calib_probe readings do not count for (another loop, other memory).

Rows: calib_families.py's (hw_diff.py's CALIB_TABLES, first table wins, rows some set simulates).
A row reproduces within X when every reading of it (one per HW_DIR or --calib-md holding it) is
within X of the stored value. Printed per family: rows, re-measured, within 5% / 10%; then the
simulator within 10% of the stored value, over all rows and over the rows that reproduce within 10%.
The last column and line: the simulator against each row's median reading (the stored value and every
re-measured one), a reference that one odd reading cannot move; rows not re-measured keep the stored value.
--reps (s27-route): one more line, the simulator against each row's median *repetition*: every
repetition but the first of every HW_DIR's run (measured.checks_by_repetition; symsim-hw keeps them
with SYMSIM_HW_KEEP_REPETITIONS=1), for rows whose last repetition is one draw of a wide spread
(the two-warp rows spread 20-34% over one run's repetitions); rows without repetitions as above.
--early K (s28-route): one more line, the simulator against each row's median of every HW_DIR run's first K
repetitions, before the procedure's climb over a run (multi-SM rows climb 10-30% by the 11th repetition, one-SM
rows later; docs/hw-accuracy.md, thirty-fourth pass); rows without repetitions against the stored value.
Nothing is written; stored rows and CALIB_TABLES stay as they are.
"""
import argparse
import collections
import glob
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import hw_diff  # noqa: E402

# Tables written by symsim-calib (hw/calib/*.cu), not by symsim-hw's calib_probe.
SYMSIM_CALIB = ("h200-2026-12-02/run2.md", "h200-2026-12-02/tma_sm-16warps-run2.md",
                "h200-2026-12-02-code-cold/code-cold-run2.md", "h200-2026-12-02-code-cold/tma-mbar-run2.md")


def entry_rows():
    """Entry id -> row, over every set that names micro entries."""
    out = {}
    for path in sorted(glob.glob(os.path.join(HERE, "*_set.json")) + glob.glob(os.path.join(HERE, "*_rows.json"))):
        for e in hw_diff.load_set(path):
            if e.get("kind") == "micro":
                out.setdefault(e["id"], e["row"])
    return out


def calib_tool_rows():
    """Rows whose stored value comes from a symsim-calib table."""
    first = {}
    for path in hw_diff.CALIB_TABLES:
        for row in hw_diff.calib_rows([path]):
            first.setdefault(row, path)
    return {row for row, path in first.items() if path.endswith(SYMSIM_CALIB)}


def readings(hw_dirs, calib_mds, tool_rows):
    """Row -> its re-measured values (one per folder or table holding it)."""
    ids, out = entry_rows(), collections.defaultdict(list)
    for d in hw_dirs:
        for name in sorted(os.listdir(d)):
            r = hw_diff.read(os.path.join(d, name, "result.json"))
            v = hw_diff.probe_value(r) if r and r.get("status") == "pass" else None  # a cut or failed run: no reading
            row = ids.get(name)
            if v is not None and row and row not in tool_rows:
                out[row].append(v)
    for path in calib_mds:
        for row, (v, _) in hw_diff.calib_rows([path]).items():
            if row in tool_rows:
                out[row].append(v)
    return out


def repetitions(hw_dirs, tool_rows, first=None):
    """Row -> every repetition but the first of every folder's run (measured.checks_by_repetition);
    with `first`: each run's first `first` repetitions instead (runs of fewer than 6 left out)."""
    ids, out = entry_rows(), collections.defaultdict(list)
    for d in hw_dirs:
        for name in sorted(os.listdir(d)):
            r = hw_diff.read(os.path.join(d, name, "result.json"))
            row = ids.get(name)
            if not r or r.get("status") != "pass" or not row or row in tool_rows:
                continue
            reps = hw_diff.repetitions(r)
            if first is None:
                out[row].extend(v for v in reps[1:] if v is not None)
            elif len(reps) >= 6:
                out[row].extend(v for v in reps[:first] if v is not None)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sim", required=True, help="calib_families.py's --out folder")
    p.add_argument("hw", nargs="*", help="symsim-hw result folders (stored rows' procedure)")
    p.add_argument("--calib-md", action="append", default=[], help="symsim-calib's output, for its rows")
    p.add_argument("--rows", action="store_true", help="and every re-measured row outside 10%%")
    p.add_argument("--reps", action="store_true",
                   help="and the simulator against each row's median repetition (repetitions 2..n of every folder)")
    p.add_argument("--early", type=int, metavar="K",
                   help="and the simulator against each row's median of every folder's first K repetitions")
    a = p.parse_args()

    sim = calib_families.ratios(a.sim)  # row -> sim / stored
    stored = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    got = readings(a.hw, a.calib_md, calib_tool_rows())
    dev = {row: max(abs(v / stored[row][0] - 1) for v in got[row]) for row in sim if got.get(row)}
    med = {row: sim[row] * stored[row][0] / statistics.median([stored[row][0]] + got.get(row, [])) for row in sim}
    fams = collections.defaultdict(list)
    for row in sim:
        fams[calib_families.family(row)].append(row)

    print("| family | rows | re-measured | within 5% | within 10% | sim within 10% of stored | "
          "sim within 10%, rows reproducing within 10% | sim within 10% of the median reading |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    tot = collections.Counter()
    for fam in sorted(fams):
        rows = fams[fam]
        c = collections.Counter(
            rows=len(rows), remeasured=sum(r in dev for r in rows),
            w5=sum(dev.get(r, 1) <= 0.05 for r in rows), w10=sum(dev.get(r, 1) <= 0.10 for r in rows),
            sim=sum(abs(sim[r] - 1) <= calib_families.TOLERANCE for r in rows),
            sim_rep=sum(dev.get(r, 1) <= 0.10 and abs(sim[r] - 1) <= calib_families.TOLERANCE for r in rows),
            sim_med=sum(abs(med[r] - 1) <= calib_families.TOLERANCE for r in rows))
        tot.update(c)
        print(f"| `{fam}` | {c['rows']} | {c['remeasured']} | {c['w5']} | {c['w10']} | {c['sim']} | {c['sim_rep']} of {c['w10']} | {c['sim_med']} |")
    print(f"| all | {tot['rows']} | {tot['remeasured']} | {tot['w5']} | {tot['w10']} | {tot['sim']} | "
          f"{tot['sim_rep']} of {tot['w10']} | {tot['sim_med']} |")
    devs = sorted(dev.values())
    print(f"\nRows: {tot['rows']}; re-measured: {tot['remeasured']} ({len(a.hw)} symsim-hw folder(s), "
          f"{len(a.calib_md)} symsim-calib table(s)); reproduce within 5%: {tot['w5']}, within 10%: {tot['w10']}"
          + (f"; median |re-measured / stored - 1| {devs[len(devs) // 2] * 100:.1f}%" if devs else "") + ".")
    print(f"Simulator within 10% of the stored value: {tot['sim']} of {tot['rows']}; among the {tot['w10']} rows "
          f"that reproduce within 10%: {tot['sim_rep']} ({tot['sim_rep'] / tot['w10'] * 100:.0f}%)."
          if tot["w10"] else "No row reproduces within 10%.")
    errs = sorted(abs(m - 1) for m in med.values())
    print(f"Simulator within 10% of the median reading: {tot['sim_med']} of {tot['rows']} "
          f"(median |error| {errs[len(errs) // 2] * 100:.1f}%).")
    if a.reps:
        reps = repetitions(a.hw, calib_tool_rows())
        med_rep = {row: sim[row] * stored[row][0] / statistics.median(reps[row]) if reps.get(row) else med[row]
                   for row in sim}
        errs = sorted(abs(m - 1) for m in med_rep.values())
        print(f"Simulator within 10% of the median repetition: "
              f"{sum(abs(m - 1) <= calib_families.TOLERANCE for m in med_rep.values())} of {len(sim)} "
              f"({sum(1 for r in sim if reps.get(r))} rows with repetitions; the rest as the median reading; "
              f"median |error| {errs[len(errs) // 2] * 100:.1f}%).")
    if a.early:
        early = repetitions(a.hw, calib_tool_rows(), first=a.early)
        med_early = {row: sim[row] * stored[row][0] / statistics.median(early[row]) if early.get(row)
                     else sim[row] for row in sim}
        errs = sorted(abs(m - 1) for m in med_early.values())
        print(f"Simulator within 10% of the median of each run's first {a.early} repetitions: "
              f"{sum(abs(m - 1) <= calib_families.TOLERANCE for m in med_early.values())} of {len(sim)} "
              f"({sum(1 for r in sim if early.get(r))} rows with repetitions; the rest against the stored value; "
              f"median |error| {errs[len(errs) // 2] * 100:.1f}%).")
    if a.rows:
        print()
        for row in sorted(r for r in dev if dev[r] > 0.10):
            vals = " ".join(f"{v:.4g}" for v in got[row])
            print(f"{row} stored {stored[row][0]:.4g} re-measured {vals} sim/stored {sim[row]:.3f} sim/median {med[row]:.3f}")


if __name__ == "__main__":
    main()
