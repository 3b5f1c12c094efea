#!/bin/bash
# Prepared in session 25 (no device was lent then): every calibration row measured twice more with the
# procedure that made the stored rows (main's symsim-hw: a fresh window per repetition; the value is the last
# repetition), in two passes of opposite order, and symsim-calib's groups once: each row's readings on a third
# and fourth occasion, for a reference that is the median of every reading (issue 19).
# Usage: bash build-dev-s25r/run.sh (about 480 s of GPU time); carry: ["build-dev-s25r"].
D=build-dev-s27
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
start=$SECONDS
pass() {  # name set seconds
  local cut=$3
  echo "$1 start $(date -u +%T)" >>$OUT/v.txt
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout $cut python3 $D/hw_diff.py hw --set $D/$2 --kind micro \
    --runner $D/symsim-hw --repeat 6 --hold wait --out /tmp/hw_$1 >$OUT/hw_$1.txt 2>&1
  echo "$1 end $(date -u +%T) exit $?" >>$OUT/v.txt
}
pass a1 s22w_rows.json 95
pass b1 s24_rest_rows.json 90
pass f1 s24f_set.json 8
for g in flags fences atomics memory stores load_mlp tma tma_sm tma_mbar code atomics_pipe cold; do
  left=$((283 - (SECONDS - start))); [ $left -le 5 ] && break
  echo "## $g" >>$OUT/calib_all.md
  timeout $left $D/symsim-calib $g >>$OUT/calib_all.md 2>&1
  echo "calib $g exit $? at $((SECONDS - start)) s" >>$OUT/v.txt
done
pass b2 s24_rest_rows.json 90
pass a2 s22w_rows.json 95
pass f2 s24f_set.json 8
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
cd /tmp && tar czf $OUT/hw.tgz hw_a1 hw_b1 hw_f1 hw_b2 hw_a2 hw_f2
