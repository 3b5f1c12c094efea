#!/usr/bin/env python3
"""Every GPU reading of some calibration rows, by card and placement, against the model (issue 19).

  climb_rows.py --passes HW_DIR [HW_DIR ...] --sim SIM_DIR [--results DIR ...] --rows ROW [ROW ...]

For each row (its probe: kernel, blocks, arguments with the placement taken out, heap_refs.py's key):
- the nine H200 passes (--passes, `hw_diff.py hw` folders of the stored procedure): each run's first, median
  (repetitions 2..n) and last repetition, their medians over the runs, and the range of every repetition;
- every stored device call (--results, default every h200-* and h100-* folder of hw/diff/results/, archives
  unpacked under /tmp/climb_rows-unpacked): each run of the same probe, its card, its placement (`cudaMalloc` 0,
  heap 1, freed 2), first / median 2..n / last repetition;
- the model (SIM_DIR: calib_families.py's --out) and its ratio to each of those figures.
Nothing is written. docs/hw-accuracy.md, fortieth pass (s34-route).
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
import heap_refs  # noqa: E402
import hw_diff  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
PLACE = {0: "cudaMalloc", 1: "heap", 2: "freed"}


def runs_of(path_iter):
    """(label, card, placement, key, repetitions) of every passing calib_probe run."""
    for label, path in path_iter:
        r = hw_diff.read(path)
        if not isinstance(r, dict) or r.get("status") != "pass":
            continue
        m = r.get("measured") or {}
        kernel = (r.get("config") or {}).get("kernel") or {}
        if "args" not in kernel:
            continue
        where, key = heap_refs.probe_key(kernel.get("name"), kernel.get("blocks", 1), kernel["args"])
        reps = hw_diff.repetition_values(r) or [hw_diff.probe_value(r)]
        card = "H200" if "H200" in (m.get("device") or {}).get("name", "") else \
            "H100" if "H100" in (m.get("device") or {}).get("name", "") else "?"
        yield label, card, where, key, reps


def pass_files(dirs):
    for d in dirs:
        for name in sorted(os.listdir(d)):
            yield f"{os.path.basename(d)}", os.path.join(d, name, "result.json")


def sim_values(sim_dir):
    """Row -> the model's figure (calib_families.py's first set holding the row)."""
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    out = {}
    for path in calib_families.sets():
        name = os.path.basename(path)[:-len("_set.json")]
        for e in hw_diff.load_set(path):
            if e.get("kind") == "micro" and e["row"] not in out and e["row"] in table:
                v = hw_diff.probe_value(hw_diff.read(os.path.join(sim_dir, name, e["id"], "result.json")))
                if v is not None:
                    out[e["row"]] = v
    return out


def stats(reps):
    mid = statistics.median(reps[1:]) if len(reps) > 1 else reps[0]
    return reps[0], mid, reps[-1]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--passes", nargs="+", required=True)
    p.add_argument("--sim", required=True)
    p.add_argument("--results", nargs="*")
    p.add_argument("--rows", nargs="+", required=True)
    a = p.parse_args()
    folders = a.results or sorted(glob.glob(os.path.join(ROOT, "hw", "diff", "results", "h200-*"))
                                  + glob.glob(os.path.join(ROOT, "hw", "diff", "results", "h100-*")))
    rows = heap_refs.calibration_rows()
    sim = sim_values(a.sim)
    want = {rows[r][1]: r for r in a.rows}
    passes = collections.defaultdict(list)
    for label, card, where, key, reps in runs_of(pass_files(a.passes)):
        if key in want and where == rows[want[key]][0]:
            passes[key].append((label, reps))
    calls = collections.defaultdict(list)
    for label, card, where, key, reps in runs_of(heap_refs.result_files(folders, "/tmp/climb_rows-unpacked")):
        if "s24-window/R/hw.tgz:hw_new" in label:  # s22-window's read-out procedure, not the stored one (its README)
            continue
        if key in want and len(reps) > 1:
            calls[key].append((label, card, where, reps))
    for row in a.rows:
        where, key, value, table = rows[row]
        s = sim.get(row)
        print(f"\n## `{row}` ({PLACE[where]} row) stored {value:.4g} ({os.path.relpath(table, ROOT)}); "
              f"model {s:.4g}: {s / value:.3f}")
        ps = [(lab, reps) for lab, reps in passes[key] if len(reps) >= 6]
        if ps:
            f, m, l = (statistics.median(x) for x in zip(*(stats(r) for _, r in ps)))
            every = [v for _, r in ps for v in r[1:]]
            print(f"  nine passes ({len(ps)} runs with repetitions; {len(passes[key])} readings, lasts "
                  f"{', '.join(f'{r[-1]:.4g}' for _, r in passes[key])}): first {f:.4g} (model {s / f:.3f}), "
                  f"median repetition {statistics.median(every):.4g} ({s / statistics.median(every):.3f}; "
                  f"{min(every):.4g}-{max(every):.4g}), last {l:.4g} ({s / l:.3f})")
            for lab, r in ps:
                print(f"    {lab}: " + " ".join(f"{v:.4g}" for v in r))
        for lab, card, w, reps in sorted(calls[key], key=lambda c: (c[1], c[0], c[2])):
            f, m, l = stats(reps)
            print(f"  {card} {PLACE[w]:10s} {lab[:70]}: first {f:.4g} median {m:.4g} last {l:.4g} "
                  f"(model {s / f:.3f} / {s / m:.3f} / {s / l:.3f}); " + " ".join(f"{v:.4g}" for v in reps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
