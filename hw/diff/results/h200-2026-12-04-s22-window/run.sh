#!/bin/bash
# s22-window's one device call, from the checkout's root:  bash build-dev-s22w/run.sh
# (carry: ["build-dev-s22w"], filled by prepare.sh). Three passes of symsim-hw over the rows of
# s22w_rows.json, 11 repetitions, the launch held (as the stored rows), every repetition kept:
# new procedure (probe_memory.h), the base's procedure (new window per repetition), new again.
# Each pass is cut at 130 s so the call stays inside a 7-minute window.
D=build-dev-s22w
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2; date -u; } >$OUT/v.txt
# Session 23's questions (README, last section), a few seconds: two kernels' SASS, the flag rows
# with the poller's own atomic on its flag (symsim-calib flags).
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$cuobjdump -sass $D/symsim-hw | awk '/Function :/ { p = /ll_combine|litmus/ } p' >$OUT/sass_ll_combine_litmus.txt 2>&1
timeout 60 $D/symsim-calib flags >$OUT/calib_flags.md 2>&1; echo "calib flags exit $?" >>$OUT/v.txt
for pass in new1:symsim-hw base:symsim-hw.base new2:symsim-hw; do
  name=${pass%%:*}; bin=${pass#*:}
  echo "$name start $(date -u +%T)" >>$OUT/v.txt
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout 130 python3 $D/hw_diff.py hw --set $D/s22w_rows.json --kind micro \
    --runner $D/$bin --repeat 11 --hold wait --out /tmp/hw_$name >$OUT/hw_$name.txt 2>&1
  rc=$?; echo "$name end $(date -u +%T) exit $rc" >>$OUT/v.txt
done
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
cd /tmp && tar czf $OUT/hw.tgz hw_new1 hw_base hw_new2
