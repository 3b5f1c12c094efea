#!/usr/bin/env python3
"""One SM's closed queue on its TMA engine with a less variable engine time (issue 19, thirty-third pass (s27-route)).

  route_mva_cv.py            the table of docs/hw-accuracy.md's thirty-third pass (s27-route)

route_closed_queue.py's exact MVA assumes exponential engine times (cv 1): a copy arriving behind
the one in service waits that one's whole time E. With engine times of squared coefficient of
variation c2 (a fixed-size copy's time varies little: c2 near 0), the copy in service has on average
only (1 + c2) / 2 x E left (the residual time); the standard approximate MVA for a FIFO station with
general service (Reiser) charges the waiting copies E each and the one in service its residual:
    R_k = E x (1 + Q_{k-1} - U_{k-1} + U_{k-1} (1 + c2) / 2),  X_k = k / (R_k + D),  Q_k = X_k R_k,
    U_k = X_k E; where the approximation puts U_k at 1 or more (it can for c2 < 1), X_k = 1 / E and
    Q_k = k - X_k D (Little's law on the threads away from the engine).
c2 = 1 is route_closed_queue.py's. Rows are read from hw_diff.py's CALIB_TABLES; nothing is simulated.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402
from route_closed_queue import PAIRS, E_SHIFTED_NS  # noqa: E402

# The two-warp rows (s26-mva's out row and s25-route's c1w2), then route_closed_queue.py's pairs.
PAIRS_2 = [
    ("shim.dispatch_route.l2.7168.c1w1.none_ns", "shim.dispatch_route.l2.7168.c1w2.none_ns", 2, E_SHIFTED_NS),
    ("shim.copy_round_warp.l2.7k.c1w1_ns", "shim.copy_round_warp.l2.7k.c1w2_ns", 2, E_SHIFTED_NS),
    ("shim.copy_round_warp.l2.7k.c1w1_ns", "shim.copy_round_warp.l2.7k.c1w4_ns", 4, E_SHIFTED_NS),
    ("shim.copy_round_warp.l2.7k.c1w1_ns", "shim.copy_round_warp.l2.7k.c1w8_ns", 8, E_SHIFTED_NS),
]
C2S = (1.0, 0.5, 0.25, 0.0)


def round_ns(warps, engine_ns, one_warp_ns, c2):
    """A warp's mean round for `warps` warps, engine time `engine_ns` of squared cv `c2`."""
    delay = one_warp_ns - engine_ns
    q = u = 0.0
    for n in range(1, warps + 1):
        response = engine_ns * (1 + q - u * (1 - c2) / 2)
        x = n / (response + delay)
        if c2 < 1 and x * engine_ns >= 1:  # the engine busy all the time: the rest are away (Little)
            x = 1 / engine_ns
            q, u = n - delay / engine_ns, 1.0
        else:
            q, u = x * response, x * engine_ns
    return warps / x


def c2_fit(n, e, one, target_ns):
    """The c2 in [0, 1] whose round_ns(n, e, one, c2) meets target_ns (bisection), or None outside that range."""
    lo, hi = 0.0, 1.0
    if not round_ns(n, e, one, lo) <= target_ns <= round_ns(n, e, one, hi):
        return None
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if round_ns(n, e, one, mid) < target_ns else (lo, mid)
    return (lo + hi) / 2


def main():
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    print("| several-warp row | GPU | one-warp row (GPU) | N | FIFO in step | " + " | ".join(f"MVA c2 {c:g}" for c in C2S) + " |")
    print("| --- | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in C2S) + " |")
    seen, within = set(), {c: 0 for c in C2S}
    for one, many, warps, engine_ns in PAIRS_2 + PAIRS:
        if many in seen:
            continue
        seen.add(many)
        g1, gn = table[one][0], table[many][0]
        step = max(warps * engine_ns, g1)
        cells = []
        for c in C2S:
            r = round_ns(warps, engine_ns, g1, c)
            within[c] += abs(r / gn - 1) <= 0.10
            cells.append(f"{r:.0f} ({r / gn:.2f})")
        print(f"| `{many}` | {gn:.1f} | {g1:.1f} | {warps} | {step:.0f} ({step / gn:.2f}) | " + " | ".join(cells) + " |")
    print(f"| within 10% of {len(seen)} | | | | | " + " | ".join(str(within[c]) for c in C2S) + " |")


if __name__ == "__main__":
    main()
