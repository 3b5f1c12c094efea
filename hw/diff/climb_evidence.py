#!/usr/bin/env python3
"""Which statistic of a `cudaMalloc` run reads what the heap reads: GPU readings only (issue 19, fortieth pass (s34-route)).

  climb_evidence.py [--results DIR ...] [--rows]

Every stored device call (default: every h200-* and h100-* folder of hw/diff/results/, archives unpacked under
/tmp/climb_evidence-unpacked) that read one multi-warp probe (kernel, blocks, arguments but the placement: heap_refs.py's
key) both in a kept `cudaMalloc` window (`heap` 0, the stored procedure) and in the symmetric heap (`heap` 1 or `hot` 4)
with 6 or more repetitions kept. Per call: against the heap run's median repetition (2..n), the `cudaMalloc` run's first
repetition, the median of its first three, its median repetition (2..n) and its last (the stored rows' statistic), and a
freed window's (`heap` 2) median repetition where the call read one: how many of the call's probes each is within 5% of
the heap and the range. --rows: every probe. No simulator figure is read: this chooses climb_refs.py's statistic
before any model is compared with it.
"""
import argparse
import collections
import glob
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import climb_rows  # noqa: E402
import heap_refs  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
MIN_REPS = 6
STATS = ("first", "early3", "median", "last", "freed")
# session 24's call ran s22-window's read-out procedure in these passes, not the stored one (its README): left out
NOT_STORED_PROCEDURE = ("s24-window/R:hw_new1", "s24-window/R:hw_new2")


def ratios(runs):
    """The `cudaMalloc` statistics over the heap's median repetition, for one probe of one call."""
    c, h = runs[0], runs[1]
    hm = statistics.median(h[1:])
    out = {"first": c[0] / hm, "early3": statistics.median(c[:3]) / hm,
           "median": statistics.median(c[1:]) / hm, "last": c[-1] / hm}
    if 2 in runs:
        out["freed"] = statistics.median(runs[2][1:]) / hm
    return hm, out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", nargs="*")
    p.add_argument("--rows", action="store_true")
    a = p.parse_args()
    folders = a.results or sorted(glob.glob(os.path.join(ROOT, "hw", "diff", "results", "h200-*"))
                                  + glob.glob(os.path.join(ROOT, "hw", "diff", "results", "h100-*")))
    by_call = collections.defaultdict(lambda: collections.defaultdict(dict))  # call -> key -> placement -> reps
    cards = {}
    for label, card, where, key, reps in climb_rows.runs_of(heap_refs.result_files(folders, "/tmp/climb_evidence-unpacked")):
        tgz, _, inner = label.partition(":")
        call = f"{os.path.relpath(os.path.dirname(tgz), 'hw/diff/results')}:{inner.split('/')[0]}" if inner \
            else os.path.dirname(label)
        if call.endswith(NOT_STORED_PROCEDURE):
            continue
        if len(reps) >= MIN_REPS and heap_refs.warps(key) > 1:
            by_call[call][key].setdefault(where, reps)
            cards[call] = card
    print("| call | card | probes | " + " | ".join(f"{s}: within 5% (range)" for s in STATS) + " |")
    print("| --- | --- | ---: | " + " | ".join("---" for _ in STATS) + " |")
    detail, per_card = [], collections.defaultdict(lambda: collections.defaultdict(list))
    for call in sorted(by_call):
        pairs = {k: v for k, v in by_call[call].items() if 0 in v and 1 in v}
        if not pairs:
            continue
        got = collections.defaultdict(list)
        for key, runs in sorted(pairs.items(), key=lambda kv: str(kv[0])):
            hm, r = ratios(runs)
            for s, v in r.items():
                got[s].append(v)
                per_card[cards[call]][s].append(v)
            args = dict(key[2])
            detail.append(f"{call} {key[0]} mode {args.get('mode', 0):.0f} blocks {key[1]} warps {args.get('warps', 1):.0f} "
                          f"inflight {args.get('inflight', 0):.0f} stride {args.get('stride', 0):.0f} bytes {args.get('bytes', 0):.0f} "
                          f"hot {args.get('hot', 1):.0f}: heap {hm:.4g}; " + " ".join(f"{s} {v:.3f}" for s, v in r.items()))
        cells = []
        for s in STATS:
            v = got.get(s)
            cells.append(f"{sum(abs(x - 1) <= 0.05 for x in v)} of {len(v)} ({min(v):.2f}-{max(v):.2f})" if v else "-")
        print(f"| {call} | {cards[call]} | {len(pairs)} | " + " | ".join(cells) + " |")
    for card, got in sorted(per_card.items()):
        cells = [f"{sum(abs(x - 1) <= 0.05 for x in got[s])} of {len(got[s])} ({min(got[s]):.2f}-{max(got[s]):.2f})"
                 if got.get(s) else "-" for s in STATS]
        print(f"| **every {card} call** | {card} | {len(got['first'])} | " + " | ".join(cells) + " |")
    if a.rows:
        print("\n" + "\n".join(detail))
    return 0


if __name__ == "__main__":
    sys.exit(main())
