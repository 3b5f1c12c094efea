#!/bin/bash
# Session 28 (s28-store) follow-up D2: hw/diff/s28chain2_rows.json (14 rows at 1 KiB, one warp), two passes.
# Usage: bash build-dev-s28s/run2.sh (about 15 s of GPU time); carry: ["build-dev-s28s"].
D=${CARRY:-build-dev-s28s}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v2.txt
for p in 1 2; do
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout 60 python3 $D/hw_diff.py hw --set $D/s28chain2_rows.json --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s28chain2_$p >>$OUT/hw_log2.txt 2>&1
  echo "s28chain2_$p exit $? $(date -u +%T)" >>$OUT/v2.txt
done
cd /tmp && tar czf $OUT/hw_s28chain2.tgz hw_s28chain2_*
