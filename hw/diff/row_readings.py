#!/usr/bin/env python3
"""Every kept GPU reading of a calibration row's probe, and whether the GPU reproduces the row (issue 19).

  row_readings.py ROW [ROW ...] [--sim CALIB_OUT] [--results DIR ...] [--work DIR]

For each ROW (a calibration row id, as calib_families.py counts it): its probe (kernel, blocks, arguments: heap_refs.py's
key) and every passing result.json of that probe under --results (folders and .tgz archives; default every `h200-*` and
`h100-*` folder of hw/diff/results/ and hw/calib/results/), in either placement (`cudaMalloc` window, symmetric heap,
freed window). Per reading: the card, the call and run, the placement, every repetition kept (else the one stored
figure) and its first / median of 2..n / last.

Then, per card and placement (the row's own first), over the readings taken by the stored procedure (s22-window's read-out runs
`hw_new1` / `hw_new2` left out: another procedure, s24-window's README): every repetition kept (a run without kept
repetitions counts its one stored figure), min / median / max and max / min; the runs' medians (each run's median of
2..n, or its figure), min / max; how many of those repetitions lie within 10% of the row's reference; and, with --sim
(calib_families.py's --out), the model's figure against min / median / max and whether it lies inside the GPU's own
range. No figure is fitted and nothing is chosen here: it reads what the GPU did (docs/hw-accuracy.md, forty-fourth
pass (s38-step)).
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
TOLERANCE = 0.10
NOT_STORED_PROCEDURE = ("s24-window/R/hw.tgz:hw_new1/", "s24-window/R/hw.tgz:hw_new2/")
PLACEMENT = {0: "cudaMalloc", 1: "heap", 2: "freed"}


def readings(folders, work, keys):
    """Probe key -> [(card, label, placement, repetitions, figure)] of every passing reading of those probes."""
    out = collections.defaultdict(list)
    for label, path in heap_refs.result_files(folders, work):
        r = hw_diff.read(path)
        if not isinstance(r, dict) or r.get("status") != "pass":
            continue
        kernel = (r.get("config") or {}).get("kernel") or {}
        if "args" not in kernel:
            continue
        where, key = heap_refs.probe_key(kernel.get("name"), kernel.get("blocks", 1), kernel["args"])
        if key not in keys:
            continue
        v = hw_diff.probe_value(r)
        if v is None:
            continue
        card = ((r.get("measured") or {}).get("device") or {}).get("name", "?").replace("NVIDIA ", "")
        out[key].append((card, label, where, hw_diff.repetition_values(r), v))
    return out


def model_figures(sim_dir):
    """Row -> the simulated figure of calib_families.py's run in sim_dir."""
    return {row: sim for row, (_, _, sim, _) in calib_families.figures(sim_dir).items()} if sim_dir else {}


def fmt(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:.4g}"


def summary(card, reps, run_medians, ref, sim):
    lo, mid, hi = min(reps), statistics.median(reps), max(reps)
    inside = sum(1 for v in reps if abs(v / ref - 1) <= TOLERANCE)
    line = (f"| {card} | {len(run_medians)} | {len(reps)} | {fmt(lo)} / {fmt(mid)} / {fmt(hi)} | {hi / lo:.3f} | "
            f"{fmt(min(run_medians))} - {fmt(max(run_medians))} | {inside} of {len(reps)} |")
    if sim is not None:
        line += (f" {fmt(sim)}: {sim / lo:.3f} / {sim / mid:.3f} / {sim / hi:.3f} | "
                 f"{'yes' if lo <= sim <= hi else 'no'} |")
    return line


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rows", nargs="+")
    p.add_argument("--sim", help="calib_families.py's --out: the model's figures")
    p.add_argument("--results", nargs="*", help="folders of device results (default: every h200-* / h100-* stored)")
    p.add_argument("--work", default="/tmp/row_readings-unpacked", help="where .tgz archives are unpacked")
    a = p.parse_args()
    folders = a.results or sorted(glob.glob(os.path.join(ROOT, "hw", "diff", "results", "h[12]00-*"))
                                  + glob.glob(os.path.join(ROOT, "hw", "calib", "results", "h[12]00-*")))
    rows = heap_refs.calibration_rows()
    counted = {}  # row -> (reference, its table): the first CALIB_TABLES table holding it, as calib_families.py counts
    for path in hw_diff.CALIB_TABLES:
        for row, (v, _) in hw_diff.calib_rows([path]).items():
            counted.setdefault(row, (v, path))
    missing = [r for r in a.rows if r not in rows]
    if missing:
        sys.exit("not a calibration row: " + ", ".join(missing))
    found = readings(folders, a.work, {rows[r][1] for r in a.rows})
    sims = model_figures(a.sim)
    for row in a.rows:
        where, key = rows[row][:2]
        ref, table = counted[row]
        sim = sims.get(row)
        print(f"\n### `{row}`: reference {fmt(ref)} ({os.path.relpath(table, ROOT)}), placement "
              f"{PLACEMENT[where]}" + (f", model {fmt(sim)} ({sim / ref:.3f})" if sim is not None else "") + "\n")
        print("| card | call : run | placement | repetitions (ns, in order) | first | median 2..n | last |")
        print("| --- | --- | --- | --- | ---: | ---: | ---: |")
        by_card = collections.defaultdict(lambda: ([], []))
        for card, label, w, reps, v in sorted(found.get(key, []), key=lambda x: (x[0], x[1])):
            call = label.replace("hw/diff/results/", "").replace("hw/calib/results/", "").replace("/result.json", "")
            call = call.rsplit("/", 1)[0]
            other = any(s in label for s in NOT_STORED_PROCEDURE)
            shown = " ".join(fmt(x) for x in reps) if reps else f"(none kept; stored figure {fmt(v)})"
            med = statistics.median(reps[1:]) if len(reps) > 2 else v
            print(f"| {card} | `{call}`{' (s22-window procedure)' if other else ''} | {PLACEMENT[w]} | {shown} | "
                  f"{fmt(reps[0]) if reps else '-'} | {fmt(med)} | {fmt(reps[-1]) if reps else fmt(v)} |")
            if not other:
                by_card[(card, w)][0].extend(reps or [v])
                by_card[(card, w)][1].append(med)
        print(f"\nBy card and placement (the row's: {PLACEMENT[where]}), the stored procedure, every repetition kept:\n")
        head = "| card, placement | runs | repetitions | min / median / max | max / min | runs' medians | within 10% of the reference |"
        if sim is not None:
            head += " model: / min / median / max | model inside |"
        print(head)
        print("|" + " --- |" * (head.count("|") - 1))
        for (card, w), (reps, meds) in sorted(by_card.items(), key=lambda x: (x[0][1] != where, x[0])):
            print(summary(f"{card}, {PLACEMENT[w]}", reps, meds, ref, sim))


if __name__ == "__main__":
    main()
