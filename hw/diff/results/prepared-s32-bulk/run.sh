#!/bin/bash
# Session 32 (s32-bulk), issue 19: what a load pays for the dirty lines its misses push out of L2 (calib_probe mode 23,
# rows read once; `hot` 0 / 2 / 5: never written, written then 160 MiB memset elsewhere, never written then the memset),
# by row size (1, 4, 7, 16 KiB, one warp), by shape (7168 B, 4 warps on one SM / one warp on each of 4 SMs) and for plain
# loads; hw/diff/s32bulk_rows.py says what each row answers. Usage (repository root of the lead's tree, carry
# ["build-dev-s32-bulk"]):
#   bash build-dev-s32-bulk/run.sh
# About 10-20 s of GPU time: 18 entries, 11 repetitions each, every one kept; cut at 50 s.
D=${CARRY:-build-dev-s32-bulk}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 50 python3 $D/hw_diff.py hw --set $D/s32bulk_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s32bulk >$OUT/hw_log.txt 2>&1
echo "s32bulk exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s32bulk.tgz hw_s32bulk)
