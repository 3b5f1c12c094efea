#!/bin/bash
# Session 31 (s31-pull), issue 19: the 4 x 4 pull step part by part, in the heap and freed. Usage (repository root of
# the lead's tree, carry ["build-dev-s31-pull"]):
#   bash build-dev-s31-pull/run.sh
# About 15-25 s of GPU time: 28 entries (s31pull_rows.json), 11 repetitions each, every one kept; cut at 50 s.
D=${CARRY:-build-dev-s31-pull}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 50 python3 $D/hw_diff.py hw --set $D/s31pull_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s31pull >>$OUT/hw_log.txt 2>&1
echo "s31pull exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s31pull.tgz hw_s31pull)
