#!/usr/bin/env python3
"""Reads session 35's device answer to s35dispatch_rows.json (issue 19, forty-first pass (s35-dispatch)).

  s35dispatch_read.py HW_DIR [--sim SIM_DIR]

HW_DIR: hw_s35dispatch (the call's hw_s35dispatch.tgz unpacked); SIM_DIR: `hw_diff.py sim --set
hw/diff/s35dispatch_rows.json --kind micro` output. Per token count and phase, for fresh (`hot` 0) and l2 (`hot` 1):
kept (`heap` 0) and freed (`heap` 2) runs' repetitions as H / L sides (level_refs.side) with their medians of
repetitions 2..n and first repetitions; then fresh memory's cost three ways: kept fresh - l2 repetition by repetition
(the same allocations), freed fresh - freed l2 at the first repetition (one address, never-touched against written),
and a freed fresh run's first repetition less its later ones (they read what the previous repetition left in L2).
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402
import level_refs  # noqa: E402

TOKENS = (8, 64, 128)
PHASES = ("p1", "p3")


def entry(state, tokens, phase, freed):
    return f"micro_dispatch_phases_{state}_{tokens}tok_h7168{'_freed' if freed else ''}_{phase}_ns"


def reps(folder, name):
    r = hw_diff.read(os.path.join(folder, name, "result.json"))
    v = hw_diff.repetitions(r)
    return v if v and None not in v else []


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hw")
    p.add_argument("--sim")
    a = p.parse_args()
    sim = (lambda name: hw_diff.probe_value_at(a.sim, name)) if a.sim else (lambda name: None)
    print("| tokens, phase | state | kept: sides / median 2..n / first | freed: sides / median 2..n / first | model |")
    print("| --- | --- | --- | --- | ---: |")
    for tokens in TOKENS:
        for phase in PHASES:
            for state in ("fresh", "l2"):
                cells = []
                for freed in (False, True):
                    v = reps(a.hw, entry(state, tokens, phase, freed))
                    cells.append(f"{level_refs.side(v)} / {statistics.median(v[1:]):.0f} / {v[0]:.0f}" if len(v) > 2 else "-")
                m = sim(entry(state, tokens, phase, False))
                print(f"| {tokens}, {phase} | {state} | {cells[0]} | {cells[1]} | {'-' if m is None else f'{m:.0f}'} |")
    print("\n| tokens, phase | kept fresh - l2 by repetition (median 2..n) | freed fresh - l2, first repetition | "
          "freed fresh: first - median 2..n | freed l2: first - median 2..n | model fresh - l2 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for tokens in TOKENS:
        for phase in PHASES:
            kf, kl, ff, fl = (reps(a.hw, entry(s, tokens, phase, fr)) for fr in (False, True) for s in ("fresh", "l2"))
            if not (kf and kl and ff and fl):
                continue
            kept = statistics.median([x - y for x, y in zip(kf[1:], kl[1:])])
            mf, ml = sim(entry("fresh", tokens, phase, False)), sim(entry("l2", tokens, phase, False))
            model = f"{mf - ml:.0f}" if mf is not None and ml is not None else "-"
            print(f"| {tokens}, {phase} | {kept:.0f} | {ff[0] - fl[0]:.0f} | {ff[0] - statistics.median(ff[1:]):.0f} | "
                  f"{fl[0] - statistics.median(fl[1:]):.0f} | {model} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
