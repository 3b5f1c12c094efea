#!/bin/bash
# Session 31 batch: session 30's four prepared requests (s30-reduce A/B, s30-route, s30-phases, s30-sync) on main 52e9422's symsim-hw.
D=build-dev-s31
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
pass() {  # name rows cut_s
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $3 python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_$1 >>$OUT/hw_log_$1.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
  (cd /tmp && tar czf $OUT/hw_$1.tgz hw_$1)
}
pass s30reduce s30reduce_rows.json 45
pass s30route s30route_rows.json 50
pass s30phases s30phases_rows.json 50
timeout 15 $D/symsim-calib fences >$OUT/calib_fences.md 2>&1; echo "fences exit $? $(date -u +%T)" >>$OUT/v.txt
timeout 15 $D/symsim-calib flags >$OUT/calib_flags.md 2>&1; echo "flags exit $? $(date -u +%T)" >>$OUT/v.txt
pass s30sync s30sync_rows.json 50
pass s30reduce2 s30reduce2_rows.json 35
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
for c in $D/sass/*.cubin; do cuobjdump -sass $c >$OUT/$(basename ${c%.cubin}).cuobjdump.sass 2>&1; done
echo "all done $(date -u +%T)" >>$OUT/v.txt
