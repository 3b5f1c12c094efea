#!/bin/bash
# Session 32 (s32-mode11), issue 19: the copy round against the SM's warps (1-8) and the copy's size. Usage
# (repository root of the lead's tree, carry ["build-dev-s32-mode11"]):
#   bash build-dev-s32-mode11/run.sh
# About 15-25 s of GPU time: 29 entries (s32mode11_rows.json), 11 repetitions each, every one kept; cut at 50 s.
D=${CARRY:-build-dev-s32-mode11}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 50 python3 $D/hw_diff.py hw --set $D/s32mode11_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s32mode11 >>$OUT/hw_log.txt 2>&1
echo "s32mode11 exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s32mode11.tgz hw_s32mode11)
