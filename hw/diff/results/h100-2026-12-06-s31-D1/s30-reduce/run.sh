#!/bin/bash
# Session 30 (s30-reduce), issue 19: combine's reduce rows (and pass B's other out rows) in cudaMalloc memory, in the
# symmetric heap and freed. Usage (repository root of the lead's tree, carry ["build-dev-s30-reduce"]):
#   bash build-dev-s30-reduce/run.sh
# About 20-30 s of GPU time: pass A (s30reduce_rows.json, 25 entries) then pass B (s30reduce2_rows.json, 19 entries);
# 11 repetitions each, every one kept. Pass B may be cut (timeout) without losing pass A.
D=${CARRY:-build-dev-s30-reduce}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
pass() {  # name rows cut_s
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $3 python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_$1 >>$OUT/hw_log.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
}
pass s30reduce s30reduce_rows.json 40
pass s30reduce2 s30reduce2_rows.json 30
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s30reduce.tgz hw_s30reduce hw_s30reduce2)
