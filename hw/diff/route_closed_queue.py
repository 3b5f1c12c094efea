#!/usr/bin/env python3
"""One SM's warps sharing its TMA engine as a closed queue (issue 19, thirty-first pass (s25-route)).

  route_closed_queue.py            the table of docs/hw-accuracy.md's thirty-first pass

Each warp of a one-SM row loops: its own work (the one-warp row less the engine's time, a delay
that does not queue) and its copies on the SM's engine (E ns a round: the bulk load's and the
store's hold). The simulator's engine is a FIFO calendar and its warps run in step, so its round
is max(N x E, one-warp row); a processor-sharing engine (or any engine whose service varies)
gives the mean-value analysis of a closed queue (exact for PS, BCMP). Rows are read from
hw_diff.py's CALIB_TABLES; nothing is simulated.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402

# Engine ns a warp's round (models/nvidia/tma.cpp at the h200 figures): dispatch's 7168 B row
# shifted 16 B into shared memory (tma.load_unaligned_gbytes_per_s 92.5) and its 7184 B message
# stored off the lines (tma.store_unaligned_gbytes_per_s 45.5); the aligned 7168 B round at
# tma.load_gbytes_per_s 189 and sm.store_gbytes_per_s 63.2.
E_SHIFTED_NS = 7168 / 92.5 + 7184 / 45.5
E_ALIGNED_NS = 7168 / 189 + 7168 / 63.2

# (one-warp row, several-warp row, warps, engine ns a round)
PAIRS = [
    ("shim.dispatch_route.l2.7168.c1w1.none_ns", "shim.dispatch_route.l2.7168.c1w2.none_ns", 2, E_SHIFTED_NS),
    ("shim.dispatch_route.l2.7168.c1w1.none_ns", "shim.dispatch_route.l2.7168.c1w4.none_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_route.l2.7168.c1w1.ldg_ns", "shim.dispatch_route.l2.7168.c1w4.ldg_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_route.l2.7168.c1w1.ldl1_ns", "shim.dispatch_route.l2.7168.c1w4.ldl1_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_route.l2.7168.c1w1.ldg_line_ns", "shim.dispatch_route.l2.7168.c1w4.ldg_line_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_route.l2.7168.c1w1.ldl1_line_ns", "shim.dispatch_route.l2.7168.c1w4.ldl1_line_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_route.l2.7168.c1w1.shfl_ns", "shim.dispatch_route.l2.7168.c1w4.shfl_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_route.l2.7168.c1w1.all_ns", "shim.dispatch_route.l2.7168.c1w4.all_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_step.l2.7168.c1w1.s0_ns", "shim.dispatch_step.l2.7168.c1w4.s0_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_step.l2.7168.c1w1.s7_ns", "shim.dispatch_step.l2.7168.c1w4.s7_ns", 4, E_SHIFTED_NS),
    ("shim.dispatch_step.l2.7168.c1w1.s7_ns", "shim.dispatch_step.l2.7168.c1w8.s7_ns", 8, E_SHIFTED_NS),
    ("shim.copy_round_warp.l2.7184.c1w1_ns", "shim.copy_round_warp.l2.7184.c1w4_ns", 4, E_SHIFTED_NS),
    ("shim.copy_round_warp.l2.7184.c1w1_ns", "shim.copy_round_warp.l2.7184.c1w8_ns", 8, E_SHIFTED_NS),
    ("shim.copy_round_warp.l2.7168.c1w1_ns", "shim.copy_round_warp.l2.7168.c1w4_ns", 4, E_ALIGNED_NS),
    ("shim.copy_round_warp.l2.7168.c1w1_ns", "shim.copy_round_warp.l2.7168.c1w8_ns", 8, E_ALIGNED_NS),
]


def closed_queue_ns(warps, engine_ns, one_warp_ns):
    """Round of `warps` warps by mean-value analysis: a delay of one_warp_ns - engine_ns, one queue."""
    delay, queued = one_warp_ns - engine_ns, 0.0
    for n in range(1, warps + 1):
        response = engine_ns * (1 + queued)
        throughput = n / (response + delay)
        queued = throughput * response
    return warps / throughput


def main():
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    print("| several-warp row | GPU | one-warp row (GPU) | in step, FIFO: max(N x E, one warp) | closed queue (PS) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for one, many, warps, engine_ns in PAIRS:
        g1, gn = table[one][0], table[many][0]
        step = max(warps * engine_ns, g1)
        ps = closed_queue_ns(warps, engine_ns, g1)
        print(f"| `{many}` | {gn:.1f} | {g1:.1f} | {step:.0f} ({step / gn:.2f}) | {ps:.0f} ({ps / gn:.2f}) |")


if __name__ == "__main__":
    main()
