#!/bin/sh
# Turns the lines of bench/moe_scale.sh into docs/moe.csv and docs/moe.svg (simulated dispatch
# and combine latency against EP size, direct drive vs the standard API).
#   bench/moe_scale.sh build | tee moe.txt; bench/moe_plot.sh moe.txt
#   bench/moe_plot.sh docs/moe.csv      (redraws the figure and the table from the kept CSV)
set -eu
in=${1:?usage: bench/moe_plot.sh BENCH_OUTPUT}
here=$(cd "$(dirname "$0")/.." && pwd)
csv=$here/docs/moe.csv
svg=$here/docs/moe.svg
[ "$in" -ef "$csv" ] || awk 'BEGIN { print "ep,variant,wqes,doorbells,cqes,dispatch_us,combine_us,wall_s,cpu_s,wqes_per_s,peak_rss_mib,deltas_per_s" }
     /^moe / { for (i = 2; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = kv[2] }
               printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", f["ep"], f["variant"] == 1 ? "direct" : "api", f["wqes"],
                      f["doorbells"], f["cqes"], f["dispatch_us"], f["combine_us"], f["wall_s"], f["cpu_s"],
                      f["wqes_per_s"], f["peak_rss_mib"], f["deltas_per_s"] }' "$in" > "$csv"
# The figure, drawn by matplotlib (Debian python3-matplotlib, as `symsim report` uses).
"${SYMSIM_PYTHON:-/usr/bin/python3}" - "$csv" "$svg" <<'PY'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
matplotlib.rcParams["svg.hashsalt"] = "symsim"  # stable ids: the same CSV gives the same file
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text (small, searchable)
rows = list(csv.DictReader(open(sys.argv[1])))
fig, ax = plt.subplots(figsize=(8, 3.2))
for phase, colour in (("dispatch", "#1f77b4"), ("combine", "#d62728")):
    for variant, style in (("direct", "-"), ("api", "--")):
        pts = sorted((int(r["ep"]), float(r[phase + "_us"])) for r in rows if r["variant"] == variant)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=colour, marker="o", markersize=3,
                    label=f"{phase}, {'direct drive' if variant == 'direct' else 'put_nbi'}")
ax.set_xscale("log", base=2)
eps = sorted({int(r["ep"]) for r in rows})
ax.set_xticks(eps, [f"EP {e}" for e in eps])
ax.set_ylim(bottom=0)
ax.set_ylabel("simulated latency (us)")
ax.set_title("simulated MoE latency vs EP size, cloudmatrix384, 128 tokens/rank, hidden 7168, top-8", fontsize=9)
ax.grid(alpha=0.3)
ax.legend(fontsize=8)
fig.savefig(sys.argv[2], format="svg", bbox_inches="tight", metadata={"Date": None})
PY
# The table of docs/moe.md: bytes per die = what each die sends (Data-as-Flag blocks:
# dispatch 15 per INT8 token plus a count block per peer, combine 30 per BF16 row).
awk -F, 'NR == 1 { print "| EP | variant | WQEs | doorbells / token | dispatch us | dispatch GB/s per die | combine us | combine GB/s per die | wall s | WQEs / s | delta cycles / s | peak RSS MiB |"
                   print "|---|---|---|---|---|---|---|---|---|---|---|---|"; next }
         { tokens = $1 * 128; disp = 128 * 8 * 15 * 512 + $1 * 512; comb = 128 * 8 * 30 * 512
           printf "| %s | %s | %s | %.2f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %s |\n", $1, $2 == "api" ? "API" : "direct",
                  $3, $4 / tokens, $6, disp / ($6 * 1e3), $7, comb / ($7 * 1e3), $8, $10, $12, $11 }' "$csv"
echo "wrote $csv and $svg"
