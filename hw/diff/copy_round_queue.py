#!/usr/bin/env python3
"""The copy round's engine as a FIFO queue, simulated event by event (issue 19, thirty-eighth pass (s32-mode11)).

  copy_round_queue.py [--load-ns 37.9] [--store-ns 113.4] [--one-warp-ns 524.2] [--after-load-ns A ...]
                      [--service det|exp] [--warps 1,2,3,4,5,6,8]

N warps each run calib_probe mode 11's round on one SM's TMA engine: a bulk load holds the engine `--load-ns`, the
warp is away `--after-load-ns` (the load's bytes, the mbarrier wait, the code up to the store's arrival at the
engine), its store holds the engine `--store-ns`, then it is away the rest of its one-warp round (`--one-warp-ns`
minus the other three) until its next load arrives. The engine serves copies in arrival order, one at a time, with
fixed (`det`) or exponential (`exp`) service times. Prints the mean round per warp for each warp count and each
`--after-load-ns` (the split of the warp's time away between the two gaps, which a mean-value queue does not see).
The simulator's closed queue (models/nvidia/tma_engine_mva.cpp) is the `exp` column's kind, without the split.
"""
import argparse
import heapq
import random


def mean_round_ns(warps, load_ns, store_ns, after_load_ns, after_store_ns, service, rounds=1500, warmup=100, seed=1):
    rnd = random.Random(seed)

    def hold(ns):
        return ns if service == "det" else rnd.expovariate(1 / ns)

    events = [(0.0, w, w, "load") for w in range(warps)]  # (time, order, warp, copy)
    heapq.heapify(events)
    order = warps
    engine_free = 0.0
    done = [0] * warps
    first = [0.0] * warps
    last = [0.0] * warps
    while events:
        now, _, w, copy = heapq.heappop(events)
        start = max(now, engine_free)  # events pop in arrival order: a FIFO engine
        end = start + hold(load_ns if copy == "load" else store_ns)
        engine_free = end
        if copy == "load":
            nxt = (end + after_load_ns, "store")
        else:
            done[w] += 1
            if done[w] == warmup:
                first[w] = end
            last[w] = end
            if done[w] == rounds:
                continue
            nxt = (end + after_store_ns, "load")
        heapq.heappush(events, (nxt[0], order, w, nxt[1]))
        order += 1
    return sum((last[w] - first[w]) / (rounds - warmup) for w in range(warps)) / warps


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--load-ns", type=float, default=37.9, help="a 7168 B load's engine time (tma.load_gbytes_per_s 189)")
    p.add_argument("--store-ns", type=float, default=113.4, help="a 7168 B store's (sm.store_gbytes_per_s 63.2)")
    p.add_argument("--one-warp-ns", type=float, default=524.2, help="one warp's round (the model's mode 11 at 7168 B)")
    p.add_argument("--after-load-ns", type=float, nargs="+", default=[233.0, 260.0, 290.0, 307.0, 320.0])
    p.add_argument("--service", choices=("det", "exp"), default="det")
    p.add_argument("--warps", default="1,2,3,4,5,6,8")
    a = p.parse_args()
    warps = [int(x) for x in a.warps.split(",")]
    away = a.one_warp_ns - a.load_ns - a.store_ns
    print(f"| after load (ns) | after store (ns) | " + " | ".join(f"{n} warps" for n in warps) + " |")
    print("| ---: | ---: | " + " | ".join("---:" for _ in warps) + " |")
    for after_load in a.after_load_ns:
        rounds = [mean_round_ns(n, a.load_ns, a.store_ns, after_load, away - after_load, a.service) for n in warps]
        print(f"| {after_load:.0f} | {away - after_load:.0f} | " + " | ".join(f"{r:.1f}" for r in rounds) + " |")


if __name__ == "__main__":
    main()
