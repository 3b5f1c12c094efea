#!/bin/bash
# Session 29 (s29-heap), issue 19: calibration rows with the window in cudaMalloc memory and in the symmetric heap.
# Usage (repository root of the lead's tree, carry ["build-dev-s29-heap"]): bash build-dev-s29-heap/run.sh
# About 50 s of GPU time: pass A (hw/diff/s29heap_rows.json, 68 entries, ~30 s) then pass B (s29heap2_rows.json,
# 46 entries, ~20 s); 11 repetitions each, every one kept. Pass B may be cut (timeout) without losing pass A.
D=${CARRY:-build-dev-s29-heap}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
pass() {  # name rows cut_s
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $3 python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_$1 >>$OUT/hw_log.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
}
pass s29heap s29heap_rows.json 60
pass s29heap2 s29heap2_rows.json 40
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s29heap.tgz hw_s29heap hw_s29heap2)
