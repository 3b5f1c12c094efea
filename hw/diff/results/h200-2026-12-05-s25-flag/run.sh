#!/bin/bash
# Session 25's s25-flag device question (carry: ["build-dev-s25f"], made by prepare.sh here), < 60 s:
# 1. calib_probe mode 30 with the flag loop of hw/calib/flag_ping_pong.cuh (the flavour no
#    longer switched inside the poll loop), the 8 flag rows of hw/diff/s24f_set.json: the stored
#    flag_probe.md rows measured the old loop;
# 2. the release/acquire rows taken apart (hw/diff/s25f_set.json: the store or the load relaxed);
# 3. symsim-calib flags (bench_flags, the same loop by raw PTX; its PTX is unchanged) on the same machine;
# 4. the sync probe's release rows (grid_sync / signal_wait, .probe / .relaxed / .rel_gpu), which
#    session 24 re-measured far from their stored values (an idle release.sys 584 ns over relaxed).
D=build-dev-s25f
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >$OUT/v.txt
timeout 15 $D/symsim-calib flags >$OUT/calib_flags.md 2>&1
echo "calib flags exit $? $(date -u +%T)" >>$OUT/v.txt
for s in s24f s25f sync; do
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout 20 python3 $D/hw_diff.py hw --set $D/${s}_set.json --kind micro \
    --runner $D/symsim-hw --repeat 11 --hold wait --out /tmp/hw_$s >$OUT/hw_$s.txt 2>&1
  echo "$s exit $? $(date -u +%T)" >>$OUT/v.txt
done
cd /tmp && tar czf $OUT/hw.tgz hw_s24f hw_s25f hw_sync
