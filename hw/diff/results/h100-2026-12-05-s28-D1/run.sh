#!/bin/bash
# Session 28, device call D1 (issue 19): s28-sync (sync rows by window), s28-reduce (reduce rows by row size, copy
# rounds by size), s28-phases (dispatch rounds by memory state), s28-route (the routing rows' climb), then s28-store's
# own script (store_chain_probe, built from branch s28-store) into $OUT/store. Main's symsim-hw (sm_90a) otherwise.
D=build-dev-s27
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
pass() {  # name set cut repeat
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $3 python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat $4 --hold wait --out /tmp/hw_$1 >>$OUT/hw_log.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
}
pass s28sync s28sync_rows.json 120 22
pass s28red_1 s28red_rows.json 120 11
pass s28red_2 s28red_rows.json 120 11
pass s28phases s28phases_rows.json 150 11
pass s28route s28route_rows.json 150 21
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hwD1.tgz hw_*)
mkdir -p $OUT/store && OUT=$OUT/store bash build-dev-s28s/run.sh
