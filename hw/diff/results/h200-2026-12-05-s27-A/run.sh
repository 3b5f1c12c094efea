#!/bin/bash
# Session 27, device call A (issue 19): the prepared questions of sessions 25-26 in one call.
D=build-dev-s27
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
timeout 20 $D/symsim-calib flags >$OUT/calib_flags.md 2>&1
echo "calib flags exit $? $(date -u +%T)" >>$OUT/v.txt
pass() {  # name set cut repeat
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $3 python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat ${4:-11} --hold wait --out /tmp/hw_$1 >>$OUT/hw_log.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
}
pass s24f s24f_set.json 30
pass s25f s25f_set.json 30
pass sync sync_set.json 40
pass s27g s27g_set.json 40
pass s25s s25s_set.json 60
pass s26c s26copy_rows.json 60
pass s25l s25l_rows.json 60
pass s25route s25route_rows.json 90
pass s25s_2 s25s_set.json 60
pass s26c_2 s26copy_rows.json 60
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
cd /tmp && tar czf $OUT/hwA.tgz hw_*
