#!/usr/bin/env python3
"""One entry against another by the levels of their repetitions (issue 19, thirty-seventh pass (s31-rows)).

  rep_levels.py HW_DIR --pair ENTRY_A ENTRY_B [--pair ...] [--gap 0.05] [--first K]

HW_DIR: a `hw_diff.py hw` folder written with SYMSIM_HW_KEEP_REPETITIONS=1. A row whose step takes the probe's slot
atomic reads at two (or three) levels set by the repetition (the word is new memory each repetition; docs/hw-accuracy.md,
thirty-sixth pass (s30-reduce) section 3), so the difference of two such rows' medians mixes the state's cost with
which levels each run drew. Per pair: each entry's repetitions split into levels where sorted neighbours differ by more
than --gap of the median, each level's median and count, then A - B level by level (lowest with lowest) and of the plain
medians; with --first K also the median of each entry's first K repetitions (before a run's climb) and their difference.
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402


def repetitions(folder, entry):
    r = hw_diff.read(os.path.join(folder, entry, "result.json"))
    return hw_diff.repetition_values(r)


def levels(values, gap):
    """Sorted values cut where neighbours differ by more than gap x the median: [[v, ...], ...] low to high."""
    s = sorted(values)
    cut = gap * statistics.median(s)
    out = [[s[0]]]
    for a, b in zip(s, s[1:]):
        if b - a > cut:
            out.append([])
        out[-1].append(b)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hw")
    p.add_argument("--pair", nargs=2, action="append", required=True, metavar=("A", "B"))
    p.add_argument("--gap", type=float, default=0.05)
    p.add_argument("--first", type=int, default=0)
    a = p.parse_args()
    for ea, eb in a.pair:
        ra, rb = repetitions(a.hw, ea), repetitions(a.hw, eb)
        if not ra or not rb:
            print(f"{ea} / {eb}: no repetitions")
            continue
        la, lb = levels(ra, a.gap), levels(rb, a.gap)
        text = lambda ls: " | ".join(f"{statistics.median(l):.0f} (x{len(l)})" for l in ls)  # noqa: E731
        print(f"{ea}: levels {text(la)}")
        print(f"{eb}: levels {text(lb)}")
        diffs = [statistics.median(x) - statistics.median(y) for x, y in zip(la, lb)]
        line = (f"  A - B level by level: {' / '.join(f'{d:+.0f}' for d in diffs)}; "
                f"medians {statistics.median(ra):.0f} - {statistics.median(rb):.0f} = {statistics.median(ra) - statistics.median(rb):+.0f}")
        if a.first:
            fa, fb = statistics.median(ra[:a.first]), statistics.median(rb[:a.first])
            line += f"; first {a.first}: {fa:.0f} - {fb:.0f} = {fa - fb:+.0f}"
        print(line)


if __name__ == "__main__":
    main()
