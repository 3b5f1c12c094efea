#!/bin/sh
# Turns the lines of bench/moe_scale.sh into docs/moe.csv and docs/moe.svg (simulated dispatch
# and combine latency against EP size, direct drive vs the standard API).
#   bench/moe_scale.sh build | tee moe.txt; bench/moe_plot.sh moe.txt
set -eu
in=${1:?usage: bench/moe_plot.sh BENCH_OUTPUT}
here=$(cd "$(dirname "$0")/.." && pwd)
csv=$here/docs/moe.csv
svg=$here/docs/moe.svg
awk 'BEGIN { print "ep,variant,wqes,doorbells,cqes,dispatch_us,combine_us,wall_s,cpu_s,wqes_per_s,peak_rss_mib,deltas_per_s" }
     /^moe / { for (i = 2; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = kv[2] }
               printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", f["ep"], f["variant"] == 1 ? "direct" : "api", f["wqes"],
                      f["doorbells"], f["cqes"], f["dispatch_us"], f["combine_us"], f["wall_s"], f["cpu_s"],
                      f["wqes_per_s"], f["peak_rss_mib"], f["deltas_per_s"] }' "$in" > "$csv"
awk -F, 'NR > 1 { n++; ep[n] = $1; v[n] = $2; d[n] = $6; c[n] = $7; if ($6 > m) m = $6; if ($7 > m) m = $7 }
  function x(e) { return 60 + (log(e) / log(2) - 3) * 130 }
  function y(us) { return 260 - us / m * 220 }
  function series(var, which, color,   i, pts) {
    pts = ""
    for (i = 1; i <= n; ++i) if (v[i] == var) pts = pts sprintf("%.1f,%.1f ", x(ep[i]), y(which == "d" ? d[i] : c[i]))
    printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" %s points=\"%s\"/>\n", color,
           var == "api" ? "stroke-dasharray=\"6,4\"" : "", pts
  }
  END {
    m *= 1.1
    print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"300\" font-family=\"sans-serif\" font-size=\"11\">"
    print "<text x=\"60\" y=\"16\">simulated MoE latency (us) vs EP size, cloudmatrix384, 128 tokens/rank, hidden 7168, top-8</text>"
    print "<line x1=\"60\" y1=\"260\" x2=\"730\" y2=\"260\" stroke=\"black\"/><line x1=\"60\" y1=\"40\" x2=\"60\" y2=\"260\" stroke=\"black\"/>"
    for (e = 8; e <= 256; e *= 2) printf "<text x=\"%.1f\" y=\"276\" text-anchor=\"middle\">EP %d</text>\n", x(e), e
    for (k = 0; k <= 4; ++k) printf "<text x=\"55\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", y(m * k / 4) + 4, m * k / 4
    series("direct", "d", "#1f77b4"); series("api", "d", "#1f77b4"); series("direct", "c", "#d62728"); series("api", "c", "#d62728")
    print "<text x=\"600\" y=\"50\" fill=\"#1f77b4\">dispatch</text><text x=\"600\" y=\"64\" fill=\"#d62728\">combine</text>"
    print "<text x=\"600\" y=\"78\">solid: direct drive, dashed: put_nbi</text>"
    print "</svg>"
  }' "$csv" > "$svg"
# The table of docs/moe.md: bytes per die = what each die sends (Data-as-Flag blocks:
# dispatch 15 per INT8 token plus a count block per peer, combine 30 per BF16 row).
awk -F, 'NR == 1 { print "| EP | variant | WQEs | doorbells / token | dispatch us | dispatch GB/s per die | combine us | combine GB/s per die | wall s | WQEs / s | delta cycles / s | peak RSS MiB |"
                   print "|---|---|---|---|---|---|---|---|---|---|---|---|"; next }
         { tokens = $1 * 128; disp = 128 * 8 * 15 * 512 + $1 * 512; comb = 128 * 8 * 30 * 512
           printf "| %s | %s | %s | %.2f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %s |\n", $1, $2 == "api" ? "API" : "direct",
                  $3, $4 / tokens, $6, disp / ($6 * 1e3), $7, comb / ($7 * 1e3), $8, $10, $12, $11 }' "$csv"
echo "wrote $csv and $svg"
