#!/bin/bash
# Session 28, device call D3 (issue 19): s28-part's prepared question, the L2-half hash above bit 15 (combine's reduce
# pairs, mode 13, one warp, at strides that change one higher address bit at a time), two passes. Main's symsim-hw.
D=build-dev-s27
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
for p in 1 2; do
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout 120 python3 $D/hw_diff.py hw --set $D/s28part_rows.json --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s28part_$p >>$OUT/hw_log.txt 2>&1
  echo "s28part_$p exit $? $(date -u +%T)" >>$OUT/v.txt
done
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
cd /tmp && tar czf $OUT/hwD3.tgz hw_s28part_*
