#!/bin/bash
# Session 28, device call D2 (issue 19): the helpers' follow-ups to D1: s28-sync (grid sync c1-c8 by window),
# s28-reduce (reduce pairs at 10-48 KiB rows), s28-phases (4 x 4 rows in cudaMalloc memory and in the heap), then
# s28-store's run2.sh (every store_chain variant at 1 KiB) into $OUT/store. Main's symsim-hw (sm_90a) otherwise.
D=build-dev-s27
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
pass() {  # name set cut repeat
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $3 python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat $4 --hold wait --out /tmp/hw_$1 >>$OUT/hw_log.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
}
pass s28sync2 s28sync2_rows.json 90 22
pass s28red2_1 s28red2_rows.json 120 11
pass s28phases2 s28phases2_rows.json 150 11
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hwD2.tgz hw_*)
mkdir -p $OUT/store && OUT=$OUT/store bash build-dev-s28s/run2.sh
