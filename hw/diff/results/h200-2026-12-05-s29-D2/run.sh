#!/bin/bash
# Session 29 (s29-count): hw/diff/s29count_rows.json (10 rows, one warp), two passes, and calib_probe's SASS.
# Usage: bash build-dev-s29-count/run.sh (about 20 s of GPU time); carry: ["build-dev-s29-count"].
D=${CARRY:-build-dev-s29-count}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
for p in 1 2; do
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout 60 python3 $D/hw_diff.py hw --set $D/s29count_rows.json --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s29count_$p >>$OUT/hw_log.txt 2>&1
  echo "s29count_$p exit $? $(date -u +%T)" >>$OUT/v.txt
done
cuobjdump -sass $D/calib_probe.cubin >$OUT/calib_probe.cuobjdump.sass 2>&1
cd /tmp && tar czf $OUT/hw_s29count.tgz hw_s29count_*
