#!/bin/bash
# Session 24's third device call (carry: ["build-dev-s24f"]): the flag rows twice more by symsim-calib, and
# calib_probe mode 30 (the ping-pong the simulator runs, hw/diff/s24f_set.json) by main's symsim-hw.
D=build-dev-s24f
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v3.txt
for i in 1 2; do timeout 30 $D/symsim-calib flags >>$OUT/calib_flags3.md 2>&1; done
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 60 python3 $D/hw_diff.py hw --set $D/s24f_set.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_flag >$OUT/hw_flag.txt 2>&1
echo "flag pass exit $? $(date -u +%T)" >>$OUT/v3.txt
cd /tmp && tar czf $OUT/hw3.tgz hw_flag
