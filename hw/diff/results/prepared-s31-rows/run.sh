#!/bin/bash
# Session 31 (s31-rows), issue 19: dispatch's send loop (calib_probe mode 22, phase 1) by shape (1 x 1, 1 x 4, 4 x 1,
# 4 x 4 warps; 32 rounds a warp and one) and memory state (heap, cudaMalloc l2data, fresh); hw/diff/s31rows_rows.py says
# what each row answers. Usage (repository root of the lead's tree, carry ["build-dev-s31-rows"]):
#   bash build-dev-s31-rows/run.sh
# About 10-15 s of GPU time: 18 entries, 11 repetitions each, every one kept; cut at 40 s.
D=${CARRY:-build-dev-s31-rows}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 40 python3 $D/hw_diff.py hw --set $D/s31rows_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s31rows >$OUT/hw_log.txt 2>&1
echo "s31rows exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s31rows.tgz hw_s31rows)
