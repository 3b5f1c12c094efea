#!/bin/bash
# Session 31 (s31-read), issue 19: session 31's call D1 ran on an H100; its reduce heap rows (pass A of s30-reduce), the
# memset chase rows (s30-route) and the sync rows (s30-sync) again, for the calibration card's figures if this call gets
# an H200, and the two 4 x 4 pull_step rows two GPU pins hold, freed. Usage (repository root of the lead's tree, carry
# ["build-dev-s31-read"]): bash build-dev-s31-read/run.sh   -- about 30 s of GPU time, each pass cut by timeout.
D=${CARRY:-build-dev-s31-read}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
pass() {  # name rows cut_s
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $3 python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_$1 >>$OUT/hw_log.txt 2>&1
  echo "$1 exit $? $(date -u +%T)" >>$OUT/v.txt
}
pass s31reduce s30reduce_rows.json 40
pass s31pins s31read_rows.json 20
pass s31route s30route_rows.json 30
timeout 15 $D/symsim-calib fences >$OUT/calib_fences.md 2>&1; echo "fences exit $? $(date -u +%T)" >>$OUT/v.txt
pass s31sync s30sync_rows.json 30
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s31read.tgz hw_s31reduce hw_s31pins hw_s31route hw_s31sync)
