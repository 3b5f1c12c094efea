#!/bin/bash
# Session 32 (s32-route), issue 19: the multi-warp routing rows (calib_probe mode 29, dispatch_route_probe.cu) in the
# symmetric heap, one SM at 1-4 warps by part, and six of them in cudaMalloc windows; hw/diff/s32route_rows.py says what
# each row answers. Usage (repository root of the lead's tree, carry ["build-dev-s32-route"]):
#   bash build-dev-s32-route/run.sh
# About 25-35 s of GPU time: 41 entries, 11 repetitions each, every one kept; cut at 55 s.
D=${CARRY:-build-dev-s32-route}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 55 python3 $D/hw_diff.py hw --set $D/s32route_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s32route >$OUT/hw_log.txt 2>&1
echo "s32route exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s32route.tgz hw_s32route)
