#!/bin/bash
# Session 24's second device call (carry: ["build-dev-s22w"]): the calibration rows measured a second
# time with the procedure that made the stored ones, for each row's reproducibility:
# symsim-calib's groups (one process each, 27% of the time), the 142 micro entries not in s22w_rows.json
# and the 286 of s22w_rows.json again, both with symsim-hw of 9f48061 (a new window per repetition).
# Usage: bash build-dev-s22w/run2.sh [TOTAL_S]: every step cut so the whole stays inside TOTAL_S (default 450).
D=build-dev-s22w
total=${1:-450}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v2.txt
start=$SECONDS
for g in flags fences atomics memory stores load_mlp tma tma_sm tma_mbar code atomics_pipe cold; do
  left=$((total * 27 / 100 - (SECONDS - start))); [ $left -le 5 ] && break
  echo "## $g" >>$OUT/calib_all.md
  timeout $left $D/symsim-calib $g >>$OUT/calib_all.md 2>&1; rc=$?
  echo "calib $g exit $rc at $((SECONDS - start)) s" >>$OUT/v2.txt
done
for pass in rest:s24_rest_rows.json:44 base2:s22w_rows.json:29; do
  IFS=: read name set share <<<"$pass"
  cut=$((total * share / 100))
  echo "$name start $(date -u +%T)" >>$OUT/v2.txt
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $cut python3 $D/hw_diff.py hw --set $D/$set --kind micro \
    --runner $D/symsim-hw.base --repeat 11 --hold wait --out /tmp/hw_$name >$OUT/hw_$name.txt 2>&1
  rc=$?; echo "$name end $(date -u +%T) exit $rc" >>$OUT/v2.txt
done
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v2.txt
cd /tmp && tar czf $OUT/hw2.tgz hw_rest hw_base2
