#!/usr/bin/env python3
"""Calibration rows read with the window in cudaMalloc memory and in the symmetric heap, against simulators (issue 19).

  heap_compare.py --rows ROWS.json [...] --hw DIR [...] --sim NAME=DIR [...] [--calib NAME=DIR ...]
                  [--stored-of A=B] [--proxy-rows Q.json ... --first-of HW_DIR ...] [--write-table FILE --card TEXT]

ROWS.json: a device question whose entries come in groups that differ only in the window's placement
(calib_probe's `heap` argument 0 / 1 / 2, or `hot` 3 against 4: written by heap_rows.py, or session 28's
s28phases2_rows.json). DIR: the device's `hw_diff.py hw` folders (every repetition kept). --sim NAME=DIR:
`hw_diff.py sim --set ROWS.json --kind micro --out DIR` of one binary (every ROWS file into the same DIR).
The stored calibration row of a group is its cudaMalloc entry's row; with --stored-of A=B, A replaced by B
in that row where it is not a calibration row itself (s28phases2's `l2data` rows stand for the stored `l2` ones).

Per group: stored (H200), this call's cudaMalloc reading (last repetition; first repetition), the
heap's (last; median of 2-11), a freed window's (last), heap / cudaMalloc, and per simulator its figure / the
heap's last (the simulator must give the same figure in every placement: a group where it does not is marked).
Then per simulator the groups within 10% of each reference. --calib NAME=DIR (calib_families.py's --out of
that binary): every calibration row counted with the stored reference, then with the heap's reading as the
reference of each row that has one ("replaced"), then with the heap rows added as rows of their own ("both");
rows of one warp in all keep their stored value (one warp reads alike in both placements, session 28's call D1).
--proxy-rows Q.json --first-of HW_DIR...: then also the multi-warp rows of a question not answered yet, each against
the median of its runs' first repetition in those folders (which D1 / D2 read within 0-6% of the heap's).
--write-table FILE: the multi-warp rows' heap readings as a calibration table under the stored rows' ids.
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
import hw_diff  # noqa: E402

TOL = calib_families.TOLERANCE


def placement(entry):
    """0 cudaMalloc kept, 1 the symmetric heap, 2 cudaMalloc given back; and the sets without it."""
    sets, where = [], 0
    for s in entry["sets"]:
        if s.startswith("kernel.args.heap="):
            where = int(s.split("=")[1])
        elif s == "kernel.args.hot=4":
            where, s = 1, "kernel.args.hot=3"  # hot 4 is hot 3's bytes in the heap
            sets.append(s)
        else:
            sets.append(s)
    return where, tuple(sorted(sets)) + (entry["scenario"],)


def groups(rows_files):
    """[{placement: entry}] in the files' order, one per configuration read in more than one placement."""
    by_config = collections.OrderedDict()
    for path in rows_files:
        for e in hw_diff.load_set(path):
            where, key = placement(e)
            by_config.setdefault(key, {})[where] = e
    return [g for g in by_config.values() if 0 in g and 1 in g]


def reps(dirs, entry_id):
    r = hw_diff.read_hw(dirs, entry_id)
    if not r or r.get("status") != "pass":
        return []
    return [v for v in (hw_diff.repetitions(r) or [hw_diff.probe_value(r)]) if v is not None]


def sim_value(sim_dir, entry):
    return hw_diff.probe_value(hw_diff.read(os.path.join(sim_dir, entry["id"], "result.json")))


def warps_in_all(entry):
    """kernel.blocks x kernel.args.warps of the entry's configuration."""
    sets = dict(x.split("=", 1) for x in entry["sets"])
    return int(sets.get("kernel.blocks", 1)) * int(sets.get("kernel.args.warps", 1))


def stored_row(group, table, stored_of):
    row = group[0]["row"]
    if row not in table and stored_of:
        a, b = stored_of.split("=")
        row = row.replace(a, b)
    return row if row in table else None


def within(v, ref):
    return v is not None and ref and abs(v / ref - 1) <= TOL


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", nargs="+", required=True)
    p.add_argument("--hw", nargs="+", required=True)
    p.add_argument("--sim", action="append", default=[], metavar="NAME=DIR")
    p.add_argument("--calib", action="append", default=[], metavar="NAME=DIR")
    p.add_argument("--stored-of", default="", metavar="A=B")
    p.add_argument("--proxy-rows", nargs="*", default=[], metavar="ROWS.json",
                   help="a question not answered yet: its multi-warp rows without a heap reading take --first-of's")
    p.add_argument("--first-of", nargs="*", default=[], metavar="HW_DIR",
                   help="GPU folders (calib_reproduce.py's): the median of each run's first repetition")
    p.add_argument("--write-table", metavar="FILE", help="the multi-warp rows' heap readings as a calibration table "
                   "(hw_diff.py's format, under the stored rows' ids), for hw_diff.CALIB_TABLES")
    p.add_argument("--card", default="", help="the GPU the --hw folders ran on, for --write-table's method column")
    a = p.parse_args()
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    sims = [s.split("=", 1) for s in a.sim]
    found = []
    for g in groups(a.rows):
        m, h = reps(a.hw, g[0]["id"]), reps(a.hw, g[1]["id"])
        if not m or not h:
            continue
        fr = reps(a.hw, g[2]["id"]) if 2 in g else []
        found.append((g, stored_row(g, table, a.stored_of), m, h, fr))

    names = " | ".join(f"{n} / heap" for n, _ in sims)
    print(f"| row | stored | cudaMalloc last (first) | heap last (median 2-11) | freed last | heap / cudaMalloc | {names} |")
    print("|---|---:|---:|---:|---:|---:|" + "---:|" * len(sims))
    counts = {n: collections.Counter() for n, _ in sims}
    heap_ref = {}
    for g, row, m, h, fr in found:
        stored = table[row][0] if row else None
        if warps_in_all(g[0]) > 1:  # one warp reads alike in both placements (call D1): it keeps its stored value
            heap_ref[row or g[0]["row"]] = (h[-1], g[1])
        cells = []
        for n, d in sims:
            vs = {where: sim_value(d, e) for where, e in g.items()}
            v = vs[1]
            same = len({round(x, 3) for x in vs.values() if x is not None}) == 1
            cells.append(f"{v / h[-1]:.3f}{'' if same else ' (differs by placement)'}" if v else "-")
            c = counts[n]
            c["groups"] += 1
            c["same"] += same
            c["stored"] += within(v, stored)
            c["malloc_last"] += within(v, m[-1])
            c["malloc_first"] += within(v, m[0])
            c["heap_last"] += within(v, h[-1])
            c["heap_median"] += within(v, statistics.median(h[1:] or h))
        print(f"| `{row or g[0]['row']}` | {stored if stored else '-'} | {m[-1]:.0f} ({m[0]:.0f}) | "
              f"{h[-1]:.0f} ({statistics.median(h[1:] or h):.0f}) | {f'{fr[-1]:.0f}' if fr else '-'} | "
              f"{h[-1] / m[-1]:.2f} | " + " | ".join(cells) + " |")
    print()
    for n, _ in sims:
        c = counts[n]
        print(f"{n}: {c['groups']} rows, the same figure in every placement for {c['same']}; within 10% of: stored "
              f"{c['stored']}, this call's cudaMalloc last {c['malloc_last']} (its first repetition {c['malloc_first']}), "
              f"heap last {c['heap_last']} (heap median {c['heap_median']})")

    if a.write_table:
        with open(a.write_table, "w") as f:
            f.write("| id | quantity | value | unit | method |\n| --- | --- | ---: | --- | --- |\n")
            for g, row, m, h, fr in found:
                if row and warps_in_all(g[0]) > 1:
                    f.write(f"| `{row}` | the row with its window in the symmetric heap (`{g[1]['id']}`) | {h[-1]:.4g} | ns | "
                            f"{a.card}: last of {len(h)} repetitions (their median {statistics.median(h):.4g}); the same "
                            f"call's cudaMalloc window {m[-1]:.4g} (first repetition {m[0]:.4g}) |\n")
        print(f"wrote {a.write_table}")

    proxy = {}  # stored row -> the first repetitions' median, for the question's rows not read in the heap yet
    if a.proxy_rows and a.first_of:
        first = calib_reproduce.repetitions(a.first_of, calib_reproduce.calib_tool_rows(), first=1)
        for g in groups(a.proxy_rows):
            row = stored_row(g, table, a.stored_of)
            if row and row not in heap_ref and warps_in_all(g[0]) > 1 and first.get(row):
                proxy[row] = statistics.median(first[row])

    for spec in a.calib:
        n, d = spec.split("=", 1)
        sim_dir = dict(sims).get(n)
        ratios = calib_families.ratios(d)  # sim / stored, every calibration row
        sim_of = {row: r * table[row][0] for row, r in ratios.items()}
        stored_in = sum(abs(r - 1) <= TOL for r in ratios.values())
        replaced = sum(within(v, heap_ref[row][0] if row in heap_ref else table[row][0]) for row, v in sim_of.items())
        extra = [(v, sim_value(sim_dir, e)) for row, (v, e) in heap_ref.items() if row in sim_of] if sim_dir else []
        both = stored_in + sum(within(s, v) for v, s in extra)
        moved = [row for row in sim_of if row in heap_ref]
        print(f"{n} calibration rows within 10%: stored {stored_in} of {len(ratios)}; the {len(moved)} rows with a heap "
              f"reading against it (replaced) {replaced} of {len(ratios)}"
              + (f"; heap rows added (both) {both} of {len(ratios) + len(extra)}" if extra else ""))
        if proxy:
            ref = {row: heap_ref[row][0] if row in heap_ref else proxy.get(row, table[row][0]) for row in sim_of}
            print(f"{n}   and the {len(proxy)} other multi-warp rows of {' '.join(a.proxy_rows)} against their runs' "
                  f"first repetition (a stand-in for the heap): {sum(within(v, ref[row]) for row, v in sim_of.items())} "
                  f"of {len(ratios)}")


if __name__ == "__main__":
    main()
