#!/bin/bash
# Session 30 (s30-route), issue 19: what a host cudaMemset leaves in the L2 (hw/diff/s30route_rows.json, 11 entries).
# Usage (repository root of the lead's tree, carry ["build-dev-s30-route"]): bash build-dev-s30-route/run.sh
# About 10-20 s of GPU time (11 entries x 11 repetitions, every one kept), cut at 50 s.
D=${CARRY:-build-dev-s30-route}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 50 python3 $D/hw_diff.py hw --set $D/s30route_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s30route >>$OUT/hw_log.txt 2>&1
echo "s30route exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s30route.tgz hw_s30route)
