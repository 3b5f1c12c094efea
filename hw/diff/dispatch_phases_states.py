#!/usr/bin/env python3
"""Dispatch's phases by memory state (calib_probe mode 22, hw/diff/s27phases_rows.json): send (p1), p2 - p1 and
receive (p3 - p2) at 128 and 512 tokens for fresh / evicted / l2data / heapdata memory, GPU against simulator runs.

  dispatch_phases_states.py --gpu NAME=HW_DIR [...] SIM_DIR [SIM_DIR ...]

HW_DIR: a symsim-hw folder of s27phases_rows.json (session 27's call C: hw_s27phases in
hw/diff/results/{h200,h100}-2026-12-05-s27-C/hwC.tgz); the first is the reference: its last repetition, and in
brackets its median repetition (2..11). SIM_DIR: `hw_diff.py sim --set hw/diff/s27phases_rows.json --kind micro`
output; each printed with its ratio to the first GPU's last repetition.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hw_diff  # noqa: E402

STATES = ("fresh", "evicted", "l2data", "heapdata")
NAMES = {"p1": "send (p1)", "p2": "p2 - p1", "p3": "receive (p3 - p2)"}


def value(folder, state, tokens, phase, median=False):
    r = hw_diff.read(os.path.join(folder, f"micro_shim_dispatch_phases_{state}_{tokens}tok_h7168_{phase}_ns", "result.json"))
    if not r or r.get("status") != "pass":
        return None
    if not median:
        return hw_diff.probe_value(r)
    reps = [v for v in hw_diff.repetitions(r)[1:] if v is not None]
    return statistics.median(reps) if reps else None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gpu", action="append", required=True, metavar="NAME=HW_DIR")
    p.add_argument("sims", nargs="*")
    a = p.parse_args()
    gpus = [g.split("=", 1) for g in a.gpu]
    print("| memory | tokens | phase | " + " | ".join(n for n, _ in gpus) + " | "
          + " | ".join(f"sim {i + 1}" for i in range(len(a.sims))) + " |")
    print("| --- | ---: | --- | " + " | ".join("---:" for _ in gpus + a.sims) + " |")
    for state in STATES:
        for tokens in (128, 512):
            prev = None
            for phase in ("p1", "p2", "p3"):
                cur = ([value(d, state, tokens, phase) for _, d in gpus] + [value(gpus[0][1], state, tokens, phase, True)]
                       + [value(s, state, tokens, phase) for s in a.sims])
                shown = cur if prev is None else [None if x is None or y is None else x - y for x, y in zip(cur, prev)]
                prev = cur
                ref = shown[0]
                cols = [f"{v:,.0f}" if v is not None else "-" for v in shown[:len(gpus)]]
                cols[0] += f" ({shown[len(gpus)]:,.0f})" if shown[len(gpus)] is not None else ""
                cols += [f"{v:,.0f} ({v / ref:.2f})" if v is not None and ref else "-" for v in shown[len(gpus) + 1:]]
                print(f"| {state} | {tokens} | {NAMES[phase]} | " + " | ".join(cols) + " |")


if __name__ == "__main__":
    main()
