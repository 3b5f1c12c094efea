#!/bin/bash
# Session 32 (s32-round), issue 19: dispatch's send loop (calib_probe mode 22, phase 1, the heap) with top-k a compile-time
# constant (the SASS unrolls the loop over the lanes' ranks) and at run time (+ 32: the loop rolled), the experts-per-rank
# division (+ 64) and the rank count (+ 16) at run time as controls, at 1 x 1 and 4 x 4 warps, 32 rounds a warp and one;
# hw/diff/s32round_rows.py says what each row answers. Usage (repository root of the lead's tree, carry ["build-dev-s32-round"]):
#   bash build-dev-s32-round/run.sh
# About 10 s of GPU time: 16 entries, 11 repetitions each, every one kept; cut at 40 s.
D=${CARRY:-build-dev-s32-round}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 40 python3 $D/hw_diff.py hw --set $D/s32round_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s32round >$OUT/hw_log.txt 2>&1
echo "s32round exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s32round.tgz hw_s32round)
