#!/bin/bash
# Session 30 (s30-phases), issue 19: the TMA engine's queue in the heap (pass A) and a token load's HBM
# latency under one warp's dispatch round (pass B); hw/diff/s30phases_rows.py says what each row answers.
# Usage (repository root of the lead's tree, carry ["build-dev-s30-phases"]): bash build-dev-s30-phases/s30phases_run.sh
# About 20-25 s of GPU time: 44 entries, 11 repetitions each, every one kept; cut at 50 s. Then (no GPU) the SASS
# of dispatch_phases_probe and dispatch_step_probe (cubins built here: nvcc 13.0, the hw build's flags, -lineinfo,
# sm_90a): why the GPU's send round of mode 22 is ~250 ns shorter than mode 29's s7 round, the model's ~60.
# symsim-hw is main 8444bc2's (/work/hw30): calib_probe mode 29 and its `heap` argument are on main.
D=${CARRY:-build-dev-s30-phases}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 50 python3 $D/hw_diff.py hw --set $D/s30phases_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s30phases >$OUT/hw_log.txt 2>&1
echo "s30phases exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s30phases.tgz hw_s30phases)
export PATH=$PATH:/usr/local/cuda/bin
for c in $D/sass/*.cubin; do cuobjdump -sass $c >$OUT/$(basename ${c%.cubin}).cuobjdump.sass 2>&1; done
