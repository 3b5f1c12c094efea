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

awk -F, '
function lg(v) { return log(v) / log(10) }
function py(lo, hi, v) { return 250 - (lg(v) - lo) / (hi - lo) * 200 }
FNR == 1 { next }
FILENAME ~ /bw.csv$/ { ax[++na] = $1; ay[na] = $5 }
FILENAME ~ /lat.csv$/ { lx[++nl] = $1; ly[nl] = $5; lt[nl] = $6 }
FILENAME ~ /batch.csv$/ { bx[++nb] = $8; by[nb] = $5 }
END {
  print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"300\" font-family=\"sans-serif\" font-size=\"11\">"
  print "<rect width=\"1000\" height=\"300\" fill=\"white\"/>"
  titles[0] = "Bandwidth (GB/s) vs message size"; titles[1] = "put + quiet latency (us) vs message size"; titles[2] = "Bandwidth (GB/s) vs batch, 64 KiB"
  for (p = 0; p < 3; p++) {
    printf "<text x=\"%d\" y=\"30\">%s</text>\n", p * 330 + 60, titles[p]
    printf "<rect x=\"%d\" y=\"50\" width=\"240\" height=\"200\" fill=\"none\" stroke=\"#888\"/>\n", p * 330 + 60
  }
  # Panel 0: x = log2 size 3..24, y = log10 GB/s -3..3.
  for (e = 3; e <= 24; e += 3) printf "<text x=\"%.1f\" y=\"265\" text-anchor=\"middle\">2^%d</text>\n", 60 + (e - 3) / 21 * 240, e
  for (d = -3; d <= 3; d++) printf "<text x=\"55\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", py(-3, 3, 10^d) + 4, d
  line = ""; for (i = 1; i <= na; i++) line = line sprintf("%.1f,%.1f ", 60 + (log(ax[i])/log(2) - 3) / 21 * 240, py(-3, 3, ay[i]))
  printf "<polyline points=\"%s\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n", line
  line = ""; for (i = 1; i <= nl; i++) line = line sprintf("%.1f,%.1f ", 60 + (log(lx[i])/log(2) - 3) / 21 * 240, py(-3, 3, ly[i]))
  printf "<polyline points=\"%s\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n", line
  print "<text x=\"70\" y=\"65\" fill=\"#1f77b4\">batch = loop (one quiet)</text><text x=\"70\" y=\"80\" fill=\"#d62728\">batch = 1 (quiet each)</text>"
  # Panel 1: y = log10 us -1..3.
  for (e = 3; e <= 24; e += 3) printf "<text x=\"%.1f\" y=\"265\" text-anchor=\"middle\">2^%d</text>\n", 390 + (e - 3) / 21 * 240, e
  for (d = -1; d <= 3; d++) printf "<text x=\"385\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", py(-1, 3, 10^d) + 4, d
  line = ""; for (i = 1; i <= nl; i++) line = line sprintf("%.1f,%.1f ", 390 + (log(lx[i])/log(2) - 3) / 21 * 240, py(-1, 3, lt[i]))
  printf "<polyline points=\"%s\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n", line
  # Panel 2: x = log2 batch 0..6, y = log10 GB/s 0..3.
  for (e = 0; e <= 6; e++) printf "<text x=\"%.1f\" y=\"265\" text-anchor=\"middle\">%d</text>\n", 720 + e / 6 * 240, 2^e
  for (d = 0; d <= 3; d++) printf "<text x=\"715\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", py(0, 3, 10^d) + 4, d
  line = ""; for (i = 1; i <= nb; i++) line = line sprintf("%.1f,%.1f ", 720 + log(bx[i])/log(2) / 6 * 240, py(0, 3, by[i]))
  printf "<polyline points=\"%s\" fill=\"none\" stroke=\"#2ca02c\" stroke-width=\"2\"/>\n", line
  print "<text x=\"500\" y=\"290\" text-anchor=\"middle\" fill=\"#555\">symsim udma_perftest, ascend910c, 2 PEs in one node (tools/perftest.sh)</text>"
  print "</svg>"
}' "$work/bw.csv" "$work/lat.csv" "$work/batch.csv" > "$svg"
echo "wrote $csv and $svg"
