#!/bin/sh
# MoE scale benchmark: runs bench/scenarios/moe/moe_ep{8..256}_{direct,api}.json, one process
# each, and prints per run: wall time, SystemC deltas/s, WQEs/s, peak RSS and the simulated
# dispatch/combine latency; then the least-squares fit wall_s = a + b * WQEs over the runs.
#   bench/moe_scale.sh BUILD_DIR [EP...] [-- PATH=VALUE...]   (default EP: 8 16 32 64 128 256)
set -eu
build=${1:?usage: bench/moe_scale.sh BUILD_DIR [EP...] [-- PATH=VALUE...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
eps=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do eps="$eps $1"; shift; done
[ $# -gt 0 ] && shift
[ -n "$eps" ] || eps="8 16 32 64 128 256"
variants=${MOE_VARIANTS:-"direct api"}
out=$(mktemp)
for ep in $eps; do
  for v in $variants; do
    "$build/bin/symsim-bench" moe "$here/scenarios/moe/moe_ep${ep}_${v}.json" "$@" | tee -a "$out"
  done
done
# Least-squares lines through (WQEs, wall seconds) and (WQEs, CPU seconds).
awk '/^moe / { for (i = 2; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = kv[2] }
               x = f["wqes"]; y = f["wall_s"]; z = f["cpu_s"]; n++
               sx += x; sy += y; sz += z; sxx += x * x; sxy += x * y; sxz += x * z }
     END { if (n < 2) exit; d = n * sxx - sx * sx
           b = (n * sxy - sx * sy) / d; a = (sy - b * sx) / n
           printf "fit: wall_s = %.3f + %.1f us * WQEs over %d runs\n", a, b * 1e6, n
           b = (n * sxz - sx * sz) / d; a = (sz - b * sx) / n
           printf "fit: cpu_s = %.3f + %.1f us * WQEs over %d runs\n", a, b * 1e6, n }' "$out"
rm -f "$out"
