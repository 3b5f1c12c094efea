#!/bin/bash
# Session 27, device call C (issue 19): the helpers' follow-up questions (s27-store reduce by row size,
# s27-flag dispatch phases by memory state, s27-route two-warp rows over 21 repetitions).
D=build-dev-s27
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
pass() {  # name set cut repeat
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $3 python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat $4 --hold wait --out /tmp/hw_$1 >>$OUT/hw_log.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
}
pass s27red_1 s27red_rows.json 60 11
pass s27red_2 s27red_rows.json 60 11
pass s27phases s27phases_rows.json 120 11
pass s27route s27route_rows.json 150 21
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
cd /tmp && tar czf $OUT/hwC.tgz hw_*
