#!/usr/bin/env bash
# Regenerates docs/perftest.csv and docs/perftest.svg with the udma_perftest kernel on
# ascend910c (two PEs in one node): bandwidth with one quiet per size (batch = loop) and the
# latency of put + quiet (batch = 1) for 8 B .. 16 MiB, and bandwidth against batch size at
# 64 KiB. Usage: tools/perftest.sh [SYMSIM] (default build/bin/symsim).
set -euo pipefail
cd "$(dirname "$0")/.."
symsim=${1:-build/bin/symsim}
scenario=scenarios/udma/udma_perftest_small.json
csv=docs/perftest.csv
svg=docs/perftest.svg
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { local out=$1; shift; SYMSIM_PERFTEST_CSV="$work/$out.csv" "$symsim" run "$scenario" --out "$work/out" "$@" > /dev/null; }
run bw --set kernel.args.min_exp=3 --set kernel.args.max_exp=24 --set kernel.args.loop=20 --set kernel.args.batch=0
run lat --set kernel.args.min_exp=3 --set kernel.args.max_exp=24 --set kernel.args.loop=10 --set kernel.args.batch=1
for b in 1 2 4 8 16 32 64; do
  run batch --set kernel.args.min_exp=16 --set kernel.args.max_exp=16 --set kernel.args.loop=64 --set kernel.args.batch=$b
done
{ head -1 "$work/bw.csv"; for f in bw lat batch; do tail -n +2 "$work/$f.csv"; done; } > "$csv"

# The figure, drawn by matplotlib (Debian python3-matplotlib, as `symsim report` uses).
"${SYMSIM_PYTHON:-/usr/bin/python3}" - "$work/bw.csv" "$work/lat.csv" "$work/batch.csv" "$svg" <<'PY'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
matplotlib.rcParams["svg.hashsalt"] = "symsim"  # stable ids: the same runs give the same file
matplotlib.rcParams["svg.fonttype"] = "none"    # text stays text (small, searchable)
bw, lat, batch = (list(csv.DictReader(open(f))) for f in sys.argv[1:4])
col = lambda rows, key: [float(r[key]) for r in rows]
fig, (a0, a1, a2) = plt.subplots(1, 3, figsize=(13, 3.6))
a0.loglog(col(bw, "DataSize/B"), col(bw, "Bandwidth/GB/s"), color="#1f77b4", label="batch = loop (one quiet)")
a0.loglog(col(lat, "DataSize/B"), col(lat, "Bandwidth/GB/s"), color="#d62728", label="batch = 1 (quiet each)")
a0.set(title="bandwidth (GB/s) vs message size", xlabel="bytes")
a0.legend(fontsize=8)
a1.loglog(col(lat, "DataSize/B"), col(lat, "CoreMaxTime/us"), color="#d62728")
a1.set(title="put + quiet latency (us) vs message size", xlabel="bytes")
a2.loglog(col(batch, "Batch"), col(batch, "Bandwidth/GB/s"), color="#2ca02c", marker="o", markersize=3)
a2.set_xscale("log", base=2)
a2.set(title="bandwidth (GB/s) vs batch, 64 KiB", xlabel="WQEs per quiet")
for a in (a0, a1):
    a.set_xscale("log", base=2)
for a in (a0, a1, a2):
    a.grid(alpha=0.3, which="both")
fig.suptitle("symsim udma_perftest, ascend910c, 2 PEs in one node (tools/perftest.sh)", fontsize=9, y=0.02)
fig.savefig(sys.argv[4], format="svg", bbox_inches="tight", metadata={"Date": None})
PY
echo "wrote $csv and $svg"
