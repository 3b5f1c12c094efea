#!/bin/bash
# s26-copy's device call (carry: the folder prepare.sh filled, named by $1, default build-dev-s26c), run from the
# checkout's root: the 16 rows of hw/diff/s26copy_rows.json (one warp's copy rounds by size, calib_probe modes 11, 12,
# 19; 11 repetitions each, the stored rows' procedure: a fresh cudaMalloc window per repetition). About 10 s of GPU time.
D=${1:-build-dev-s26c}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 120 python3 $D/hw_diff.py hw --set $D/s26copy_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s26c >$OUT/hw_s26c.txt 2>&1
echo "pass exit $? $(date -u +%T)" >>$OUT/v.txt
cd /tmp && tar czf $OUT/hw_s26c.tgz hw_s26c
