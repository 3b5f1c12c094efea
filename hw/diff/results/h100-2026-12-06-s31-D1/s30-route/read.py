#!/usr/bin/env python3
"""Reads s30-route's device call (hw/diff/s30route_rows.json) beside a simulator's run of the same rows.

  python3 hw/diff/results/h100-2026-12-06-s31-D1/s30-route/read.py HW_DIR SIM_DIR [SIM_DIR ...]

HW_DIR: the call's hw_s30route folder (every repetition kept); SIM_DIR: `hw_diff.py sim --set
hw/diff/s30route_rows.json --kind micro --out SIM_DIR` of one binary / preset each. Per row: the GPU's last
repetition (the stored procedure's figure), its median and first, every repetition, and each simulator's figure.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))
import hw_diff  # noqa: E402


def repetitions(result):
    vals = []
    for rep in result.get("measured", {}).get("checks_by_repetition") or []:
        for c in rep:
            detail = c.get("detail", "") if isinstance(c, dict) else str(c)
            if "value=" in detail:
                vals.append(float(detail.split("value=")[1].split()[0]))
    return vals


def main():
    hw, sims = sys.argv[1], sys.argv[2:]
    rows = hw_diff.load_set(os.path.join(HERE, "..", "..", "..", "s30route_rows.json"))
    print("| row | GPU last | median | first | " + " | ".join(os.path.basename(s.rstrip("/")) for s in sims) + " | repetitions |")
    print("| --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in sims) + " | --- |")
    for e in rows:
        r = hw_diff.read(os.path.join(hw, e["id"], "result.json"))
        last = hw_diff.probe_value(r) if r else None
        reps = repetitions(r) if r else []
        sim = []
        for s in sims:
            v = hw_diff.probe_value(hw_diff.read(os.path.join(s, e["id"], "result.json")))
            sim.append(f"{v:.1f}" if v is not None else "-")
        med = f"{statistics.median(reps):.1f}" if reps else "-"
        first = f"{reps[0]:.1f}" if reps else "-"
        print(f"| `{e['row']}` | {last if last is None else round(last, 1)} | {med} | {first} | " + " | ".join(sim)
              + " | " + " ".join(f"{v:.0f}" for v in reps) + " |")


if __name__ == "__main__":
    main()
