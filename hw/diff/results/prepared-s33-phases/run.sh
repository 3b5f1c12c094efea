#!/bin/bash
# Session 33 (s33-phases), issue 19: dispatch's phases (calib_probe mode 22, 4 x 4 warps) by rounds a warp (1-32), to the
# end of phase 1 and of phase 3, in the symmetric heap and in fresh memory; hw/diff/s33phases_rows.py says what each
# row answers. Usage (repository root of the lead's tree, carry ["build-dev-s33-phases"]):
#   bash build-dev-s33-phases/run.sh
# About 20-30 s of GPU time: 26 entries, 11 repetitions each, every one kept; cut at 50 s.
D=${CARRY:-build-dev-s33-phases}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 50 python3 $D/hw_diff.py hw --set $D/s33phases_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s33phases >$OUT/hw_log.txt 2>&1
echo "s33phases exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s33phases.tgz hw_s33phases)
