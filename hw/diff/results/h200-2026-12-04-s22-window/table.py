#!/usr/bin/env python3
"""s22-window's tables from the device call's folders (run.sh: hw_new1, hw_base, hw_new2).

  table.py HW_DIR ROWS_MD [SET]   HW_DIR: where R/hw.tgz was unpacked; prints the comparison table
                            (markdown) and writes ROWS_MD, the calibration table of the re-measured
                            multi-warp / multi-CTA rows (hw_diff.py's CALIB_TABLES reads it first)

A pass's reading of a row: the median of repetitions 2-11 (each repetition now starts from the same
memory and L2, so repetition 1, which loads the code, is the only one set apart); `last`: the
repetition the stored rows took. The new value: the median of both new passes' repetitions 2-11.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "hw", "diff"))
import hw_diff  # noqa: E402


def readings(hw_dir, entry_id):
    """Every repetition's value=..., in order (None when the entry did not run or failed)."""
    r = hw_diff.read(os.path.join(hw_dir, entry_id, "result.json"))
    if not r or r.get("status") != "pass":
        return None
    out = []
    for rep in r["measured"].get("checks_by_repetition", []):
        v = hw_diff.probe_value({"checks": rep})
        if v is not None:
            out.append(v)
    return out or None


# Tables written by symsim-calib (hw/calib/*.cu, its own loops and memory), not by symsim-hw's calib_probe: their
# rows are measured here as controls of the other procedure, not replaced.
SYMSIM_CALIB = ("h200-2026-12-02/run2.md", "h200-2026-12-02/tma_sm-16warps-run2.md",
                "h200-2026-12-02-code-cold/code-cold-run2.md", "h200-2026-12-02-code-cold/tma-mbar-run2.md")


def sources():
    """Row -> the calibration table its stored value comes from (hw_diff.py's order: the first wins)."""
    out = {}
    for path in hw_diff.CALIB_TABLES:
        for row in hw_diff.calib_rows([path]):
            out.setdefault(row, path)
    return out


def multi(entry):
    s = dict(x.split("=", 1) for x in entry["sets"])
    return int(s.get("kernel.args.warps", 1)) > 1 or int(s.get("kernel.blocks", 1)) > 1


def main():
    hw, rows_md = sys.argv[1], sys.argv[2]
    entries = hw_diff.load_set(sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "hw", "diff", "s22w_rows.json"))
    stored, where = hw_diff.calib_rows(hw_diff.CALIB_TABLES), sources()
    g = lambda v: f"{v:.4g}" if v is not None else "-"
    print("| row | kind | stored (from) | base: last / median 2-11 | new 1: last / median 2-11 | new 2: last / median 2-11 "
          "| new (both passes, 2-11) | new / stored | new: spread 2-11 |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    kept = []
    for e in entries:
        ref, unit = stored.get(e["row"], (None, "ns"))
        got = {p: readings(os.path.join(hw, "hw_" + p), e["id"]) for p in ("base", "new1", "new2")}
        cell = lambda v: f"{g(v[-1])} / {g(statistics.median(v[1:]))}" if v and len(v) > 1 else "-"
        pool = [x for p in ("new1", "new2") if got[p] for x in got[p][1:]]
        new = statistics.median(pool) if pool else None
        spread = f"{(max(pool) - min(pool)) / new * 100:.1f}%" if pool else "-"
        src = where.get(e["row"], "")
        calib_tool = src.endswith(SYMSIM_CALIB)
        kind = "symsim-calib" if calib_tool else ("multi" if multi(e) else "single")
        print(f"| `{e['row']}` | {kind} | {g(ref)} ({os.path.basename(os.path.dirname(src))}/{os.path.basename(src)}) | {cell(got['base'])} | "
              f"{cell(got['new1'])} | {cell(got['new2'])} | {g(new)} | {f'{new / ref:.3f}' if new and ref else '-'} | {spread} |")
        if new and ref and multi(e) and not calib_tool:  # rows of no table stay out (calib_families counts table rows)
            kept.append((e["row"], new, unit, len(pool), ref))
    with open(rows_md, "w") as f:
        f.write("# Multi-warp / multi-CTA calibration rows measured again with one block per allocation (s22-window)\n\n"
                "Written by hw/diff/results/h200-2026-12-04-s22-window/table.py from that folder's R/hw.tgz (README there: "
                "GPU, driver, command). value: the median of repetitions 2-11 of both passes of the fixed procedure; "
                "`before`: the value the earlier tables hold (kept there as history).\n\n"
                "| row | value | unit | readings | before |\n| --- | ---: | --- | ---: | ---: |\n")
        for row, new, unit, n, ref in kept:
            f.write(f"| `{row}` | {new:.4g} | {unit} | {n} | {g(ref)} |\n")
    print(f"\n{len(kept)} rows written to {rows_md}", file=sys.stderr)


if __name__ == "__main__":
    main()
