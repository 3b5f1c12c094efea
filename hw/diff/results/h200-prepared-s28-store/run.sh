#!/bin/bash
# Session 28 (s28-store), issue 19: what in mode 23's one-warp bulk-store loop costs ~40 ns a row over
# mode 20's. Two passes of hw/diff/s28chain_rows.json (29 rows, the stored rows' procedure: 11 repetitions,
# every one kept), then the SASS of store_chain_probe and fresh_rows_probe (the cubins beside this file).
# Usage: bash build-dev-s28s/run.sh (about 30 s of GPU time); carry: ["build-dev-s28s"].
D=${CARRY:-build-dev-s28s}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
pass() {  # name
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout 90 python3 $D/hw_diff.py hw --set $D/s28chain_rows.json --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_$1 >>$OUT/hw_log.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
}
pass s28chain_1
pass s28chain_2
for c in $D/*.cubin; do cuobjdump -sass $c >$OUT/$(basename ${c%.cubin}).cuobjdump.sass 2>&1; done
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
cd /tmp && tar czf $OUT/hw_s28chain.tgz hw_s28chain_*
