#!/usr/bin/env python3
"""Calibration rows whose reference is a cudaMalloc reading though an H200 has read the same probe in the heap (issue 19).

  heap_refs.py [--results DIR ...] [--work DIR] [--write-table FILE]

s29-heap's rule (docs/hw-accuracy.md, thirty-fifth pass (s29-heap)): a multi-warp row read with its window in the
symmetric heap (what the kernels run on) takes that reading as its reference, since a `cudaMalloc` window climbs over
the stored procedure's repetitions. That pass applied it to the 53 rows of its own question
(`hw/calib/results/h200-2026-12-05-s29-D1/heap_rows.md`). This tool finds every other calibration row it reaches:

- a row of calib_families.py's (hw_diff.py's CALIB_TABLES, first table wins, rows some set simulates) whose entry reads
  a `cudaMalloc` window (`heap` 0, `hot` not 4) and whose reference is not already a heap reading, and
- a result.json of an H200 (measured.device.name) under --results (folders and .tgz archives; default every
  `h200-*` folder of hw/diff/results/ and hw/calib/results/) of the same kernel, blocks and arguments but the
  placement (`heap` 1, or `hot` 4 = `hot` 3's bytes in the heap; heap_compare.py's rule).

Per row it prints the stored reference and every heap reading (its folder, last repetition, median, repetitions).
The reference it gives (--write-table: a calibration table under the rows' ids, to go in CALIB_TABLES) is, in order:
1. the reference a calibration row of the same probe in the heap already has: a `heapdata` row (hot 4), or the
   heap_rows.md reference of a row with the same arguments under another id: one probe, one reference;
2. else the heap reading of the one H200 call that read the probe in the heap, its last repetition (the statistic
   of every calib_probe row and of heap_rows.md). Several such calls and no row of (1): the tool stops (none today).
Only multi-warp rows (blocks x warps > 1): one warp reads alike in both placements (s29-heap), and keeps its value.
"""
import argparse
import collections
import glob
import json
import os
import statistics
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import hw_diff  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
HEAP_TABLES = ("heap_rows.md",)  # CALIB_TABLES files whose references are heap readings already
OWN_TABLE = "heap_refs.md"  # what --write-table writes: left out of the tables read, so that a run gives the same rows again


def probe_key(kernel, blocks, args):
    """(placement, configuration): placement 1 for the heap (`heap` 1 or `hot` 4), 0 for a cudaMalloc window."""
    a = {k: float(v) for k, v in args.items()}
    where = int(a.pop("heap", 0))
    if a.get("hot") == 4:
        a["hot"], where = 3.0, 1
    return where, (kernel, int(blocks), tuple(sorted(a.items())))


def calibration_rows():
    """Row -> (placement, configuration, reference, its table) for every row calib_families.py counts."""
    table_of = {}
    for path in hw_diff.CALIB_TABLES:
        if os.path.basename(path) in (OWN_TABLE, "heapmed_refs.md"):  # this rule's rows, and s35-near's medians of them
            continue
        for row, (v, _) in hw_diff.calib_rows([path]).items():
            table_of.setdefault(row, (v, path))
    out = {}
    for path in calib_families.sets():
        for e in hw_diff.load_set(path):
            if e.get("kind") != "micro" or e["row"] in out or e["row"] not in table_of:
                continue
            with open(os.path.join(ROOT, e["scenario"])) as f:
                kernel = json.load(f)["kernel"]
            args, blocks = dict(kernel.get("args", {})), kernel.get("blocks", 1)
            for s in e["sets"]:
                k, v = s.split("=", 1)
                if k.startswith("kernel.args."):
                    args[k[len("kernel.args."):]] = float(v)
                elif k == "kernel.blocks":
                    blocks = int(v)
            where, key = probe_key(kernel["name"], blocks, args)
            out[e["row"]] = (where, key) + table_of[e["row"]]
    return out


def result_files(folders, work):
    """(label, path) of every .json under the folders, .tgz archives unpacked under `work`."""
    for top in folders:
        for dp, _, files in sorted(os.walk(top)):
            for f in sorted(files):
                p = os.path.join(dp, f)
                if f.endswith(".json"):
                    yield os.path.relpath(p, ROOT), p
                elif f.endswith(".tgz"):
                    dest = os.path.join(work, os.path.relpath(p, ROOT).replace("/", "+"))
                    if not os.path.isdir(dest):
                        os.makedirs(dest)
                        with tarfile.open(p) as t:
                            t.extractall(dest)
                    for dp2, _, files2 in sorted(os.walk(dest)):
                        for f2 in sorted(files2):
                            if f2.endswith("result.json"):
                                q = os.path.join(dp2, f2)
                                yield os.path.relpath(p, ROOT) + ":" + os.path.relpath(q, dest), q


def heap_readings(folders, work):
    """Configuration -> [(label, last repetition, every repetition)] of the H200's passing heap readings."""
    out = collections.defaultdict(list)
    for label, path in result_files(folders, work):
        r = hw_diff.read(path)
        if not isinstance(r, dict) or r.get("status") != "pass":
            continue
        m = r.get("measured") or {}
        kernel = (r.get("config") or {}).get("kernel") or {}
        if "H200" not in (m.get("device") or {}).get("name", "") or "args" not in kernel:
            continue
        where, key = probe_key(kernel.get("name"), kernel.get("blocks", 1), kernel["args"])
        v = hw_diff.probe_value(r)
        if where == 1 and v is not None:
            out[key].append((label, v, hw_diff.repetition_values(r)))
    return out


def warps(key):
    args = dict(key[2])
    return key[1] * int(args.get("warps", 1))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", nargs="*", help="folders of device results (default: every h200-* folder stored)")
    p.add_argument("--work", default="/tmp/heap_refs-unpacked", help="where .tgz archives are unpacked")
    p.add_argument("--write-table", metavar="FILE")
    a = p.parse_args()
    folders = a.results or sorted(glob.glob(os.path.join(ROOT, "hw", "diff", "results", "h200-*"))
                                  + glob.glob(os.path.join(ROOT, "hw", "calib", "results", "h200-*")))
    rows = calibration_rows()
    heap = heap_readings(folders, a.work)

    # (1): references a heap reading of a probe already has, under any row id.
    held = {}
    for row, (where, key, value, table) in sorted(rows.items()):
        if where == 1 or os.path.basename(table) in HEAP_TABLES:
            held.setdefault(key, (row, value, table))

    found = []
    for row, (where, key, value, table) in sorted(rows.items()):
        if where != 0 or os.path.basename(table) in HEAP_TABLES or key not in heap or warps(key) < 2:
            continue
        if key in held:
            ref, how = held[key][1], f"the reference of `{held[key][0]}` (the same probe in the heap, " \
                                     f"{os.path.relpath(held[key][2], ROOT)})"
        else:
            calls = heap[key]
            if len({lab.split(":")[0] for lab, _, _ in calls}) > 1:
                sys.exit(f"{row}: heap readings from several calls and no stored heap reference: " +
                         ", ".join(lab for lab, _, _ in calls))
            lab, ref, reps = calls[0]
            how = f"{lab}: last of {len(reps)} repetitions (their median {statistics.median(reps[1:]):.4g}, repetitions 2-{len(reps)})" if reps \
                else f"{lab}: its last repetition"
        found.append((row, value, table, ref, how))
        print(f"{row}: stored {value:.4g} ({os.path.relpath(table, ROOT)}), heap reference {ref:.4g} = {how}; "
              f"heap / stored {ref / value:.3f}")
        for lab, v, reps in heap[key]:
            rep = f"median of 2-{len(reps)} {statistics.median(reps[1:]):.4g}, repetitions {' '.join(f'{x:.4g}' for x in reps)}" if reps \
                else "no repetitions kept"
            print(f"    {lab}: last {v:.4g}; {rep}")
    print(f"\n{len(found)} rows with an H200 heap reading and a cudaMalloc reference.")

    if a.write_table:
        os.makedirs(os.path.dirname(os.path.abspath(a.write_table)), exist_ok=True)
        with open(a.write_table, "w") as f:
            f.write(TABLE_HEAD)
            f.write("| id | quantity | value | unit | method |\n| --- | --- | ---: | --- | --- |\n")
            for row, value, table, ref, how in found:
                f.write(f"| `{row}` | the row with its window in the symmetric heap | {ref:.4g} | ns | {how}; "
                        f"the stored cudaMalloc reading {value:.4g} ({os.path.relpath(table, ROOT)}) |\n")


TABLE_HEAD = """# Every other multi-warp row with an H200 heap reading, referenced to it (issue 19, thirty-eighth pass (s32-heapref), 2026-12-06)

s29-heap's rule (docs/hw-accuracy.md, thirty-fifth pass (s29-heap); `../h200-2026-12-05-s29-D1/heap_rows.md`): a
multi-warp row read with its window in the symmetric heap (what the kernels run on) takes the heap reading as its
reference; the stored procedure's `cudaMalloc` window climbs over the run's repetitions. These are the calibration rows
that rule reaches beyond session 29's question: every row whose entry reads a `cudaMalloc` window and for which an
H200 stored in hw/diff/results/ or hw/calib/results/ has read the same probe (kernel, blocks, arguments) in the heap
(`heap` 1, or `hot` 4: `hot` 3's bytes in the heap). The value: the reference the same probe in the heap already has
under another id (a `heapdata` row, or heap_rows.md's row of the same arguments), else the one H200 call's heap
reading, its last repetition (the statistic of every calib_probe row and of heap_rows.md). The stored values stay in
their tables. Written by `python3 hw/diff/heap_refs.py --write-table FILE` (docs/hw-accuracy.md, thirty-eighth pass
(s32-heapref)).

"""


if __name__ == "__main__":
    main()
