#!/bin/bash
# Session 33 (s33-pull), issue 19: one warp's pull step part by part at one level (freed) and in the heap. Usage
# (repository root of the lead's tree, carry ["build-dev-s33-pull"]):
#   bash build-dev-s33-pull/run.sh
# About 5-10 s of GPU time: 10 entries (s33pull_rows.json), 11 repetitions each, every one kept; cut at 40 s.
# Any card (H100 or H200): one warp's L2 rows read alike on both (docs/hw-accuracy.md, thirty-eighth pass (s32-route)).
D=${CARRY:-build-dev-s33-pull}
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
SYMSIM_HW_KEEP_REPETITIONS=1 timeout 40 python3 $D/hw_diff.py hw --set $D/s33pull_rows.json --kind micro \
  --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_s33pull >>$OUT/hw_log.txt 2>&1
echo "s33pull exit $? $(date -u +%T)" >>$OUT/v.txt
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>$OUT/v.txt
(cd /tmp && tar czf $OUT/hw_s33pull.tgz hw_s33pull)
