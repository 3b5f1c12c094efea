#!/bin/bash
# s25-load's device call (carry: the folder prepare.sh filled, named by $1, default build-dev-s25l), run from the
# checkout's root: the 22 rows of hw/diff/s25l_rows.json (calib_probe mode 23, 11 repetitions each, the stored
# rows' procedure: a fresh cudaMalloc window per repetition). About 10-20 s of GPU time.
D=${1:-build-dev-s25l}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 120 python3 $D/hw_diff.py hw --set $D/s25l_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s25l >$OUT/hw_s25l.txt 2>&1
echo "pass exit $? $(date -u +%T)" >>$OUT/v.txt
cd /tmp && tar czf $OUT/hw_s25l.tgz hw_s25l
