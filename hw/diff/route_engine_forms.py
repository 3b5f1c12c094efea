#!/usr/bin/env python3
"""Forms of one SM's TMA engine shared by N warps, against the closed queue (issue 19, thirty-second pass (s26-route)).

  route_engine_forms.py        the table of docs/hw-accuracy.md's thirty-second pass

Each warp loops: its own work D (the one-warp row less E, a delay) and E ns on the engine. Forms,
each its mean round after 20 warm-up rounds (and over rounds 8-40, a short probe's window):
  fifo      the model before: a FIFO engine, warps starting in step (max(N x E, one warp))
  ps_step   exact processor sharing, warps starting in step: they stay in step (N x E + D)
  ps_1ns    the same, warps starting 1 ns apart: sharing keeps their offsets (no drift apart)
  mva       the closed queue's mean-value analysis (route_closed_queue.py; exact for PS when the
            phases vary, and for a FIFO engine with exponential service)
  seq       a FIFO engine whose service is E x the exponential quantile of frac(warp x 0.7549 +
            n x 0.618...) (hw/diff/unadopted/s26-route-engine-sequence.patch): deterministic, mean E, cv 1
  rnd       the same with pseudo-random exponential draws (s25-route's prototype), two streams
Nothing is read from the GPU but the one-warp rows' values (the s25 table).
"""
import heapq
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from route_closed_queue import E_SHIFTED_NS, closed_queue_ns  # noqa: E402

ROUNDS, WARM = 400, 20


def mean_round(done):
    d = done[0]
    return (d[-1] - d[WARM]) / (len(d) - 1 - WARM), (d[40] - d[8]) / 32


def ps(n, e, d, offsets):
    rem, wake, done, t = [None] * n, list(offsets), [[] for _ in range(n)], 0.0
    while min(len(x) for x in done) < ROUNDS:
        active = [i for i in range(n) if rem[i] is not None]
        k = len(active)
        te, i, kind = min((wake[j], j, 0) if rem[j] is None else (t + rem[j] * k, j, 1) for j in range(n))
        for j in active:
            rem[j] -= (te - t) / k
        t = te
        if kind == 0:
            rem[i] = e
        else:
            rem[i], wake[i] = None, t + d
            done[i].append(t)
    return mean_round(done)


def fifo(n, e, d, factor=lambda warp, copy: 1.0):
    free, done, copies = 0.0, [[] for _ in range(n)], [0] * n
    heap = [(0.0, i) for i in range(n)]
    while min(len(x) for x in done) < ROUNDS:
        t, i = heapq.heappop(heap)
        copies[i] += 1
        free = max(t, free) + e * factor(i, copies[i])
        done[i].append(free)
        heapq.heappush(heap, (free + d, i))
    return mean_round(done)


def seq(warp, copy):
    return -math.log1p(-math.fmod(warp * 0.7548776662466927 + copy * 0.6180339887498949, 1.0))


def rnd(seed):
    r = random.Random(seed)
    return lambda warp, copy: r.expovariate(1.0)


def main():
    e = E_SHIFTED_NS
    print("| one warp (GPU) | N | fifo | ps_step | ps_1ns | mva | seq (rounds 8-40) | rnd 1 / 2 (rounds 8-40) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for one in (540.6, 692.3, 721.3, 940.9, 1220.0):
        d = one - e
        for n in (2, 4, 8):
            f, s0, s1, m = fifo(n, e, d)[0], ps(n, e, d, [0.0] * n)[0], ps(n, e, d, [float(i) for i in range(n)])[0], closed_queue_ns(n, e, one)
            q, r1, r2 = fifo(n, e, d, seq), fifo(n, e, d, rnd(1)), fifo(n, e, d, rnd(2))
            print(f"| {one} | {n} | {f:.0f} | {s0:.0f} | {s1:.0f} | {m:.0f} | {q[0]:.0f} ({q[1]:.0f}) | "
                  f"{r1[0]:.0f} / {r2[0]:.0f} ({r1[1]:.0f} / {r2[1]:.0f}) |")


if __name__ == "__main__":
    main()
