#!/usr/bin/env python3
"""Reads s31-pull's device answer (issue 19, thirty-seventh pass): the 4 x 4 pull step part by part.

  s31pull_read.py --hw DIR [--sim NAME=DIR ...]

DIR: `hw_diff.py hw` of hw/diff/s31pull_rows.json with every repetition kept (SYMSIM_HW_KEEP_REPETITIONS=1);
--sim: `hw_diff.py sim` of the same rows (e.g. main=S0 memset=S1). Per entry: every repetition, the median, and the
lower / upper half's medians (the slot-atomic rows took two levels by the repetition on session 29's call D1); then each
placement's parts: every variant's median less the bare step's (`inflight` 0), the GPU's beside the model's.
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hw", required=True)
    p.add_argument("--sim", action="append", default=[], metavar="NAME=DIR")
    a = p.parse_args()
    sims = [s.split("=", 1) for s in a.sim]
    entries = hw_diff.load_set(os.path.join(HERE, "s31pull_rows.json"))
    med, model = {}, {}
    print("| entry | repetitions (ns) | median | lower / upper half | " + " | ".join(f"{n} (/ median)" for n, _ in sims) + " |")
    print("|---|---|---:|---:|" + "---:|" * len(sims))
    for e in entries:
        reps = hw_diff.repetition_values(hw_diff.read(os.path.join(a.hw, e["id"], "result.json")))
        sim = [hw_diff.probe_value(hw_diff.read(os.path.join(d, e["id"], "result.json"))) for _, d in sims]
        model[e["id"]] = sim
        if not reps:
            continue
        s = sorted(reps)
        med[e["id"]] = statistics.median(reps)
        halves = f"{statistics.median(s[:len(s) // 2]):.1f} / {statistics.median(s[(len(s) + 1) // 2:]):.1f}" if len(s) > 1 else ""
        cells = " | ".join(f"{v:.1f} ({v / med[e['id']]:.3f})" if v else "-" for v in sim)
        print(f"| `{e['id'][len('micro_s31pull_'):]}` | {' '.join(f'{v:.0f}' for v in reps)} | {med[e['id']]:.1f} | {halves} | {cells} |")
    for place in ("heap", "freed"):
        bare = f"micro_s31pull_c4w4_bare_{place}"
        if bare not in med:
            continue
        print(f"\nParts, 4 x 4, {place}: median less the bare step's ({med[bare]:.1f} ns); model: the same difference")
        for e in entries:
            i = e["id"]
            if i.startswith("micro_s31pull_c4w4_") and i.endswith(place) and i != bare and i in med:
                m = " ".join(f"{x - y:+.1f}" for x, y in zip(model[i], model[bare]) if x and y)
                print(f"  {i[len('micro_s31pull_c4w4_'):-len(place) - 1]:12s} GPU {med[i] - med[bare]:+7.1f}   model {m}")


if __name__ == "__main__":
    main()
