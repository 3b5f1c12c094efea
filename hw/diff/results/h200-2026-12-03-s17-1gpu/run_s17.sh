#!/bin/bash
# Issue 19, thirteenth pass: one device call. Run from build-dev-nv3 (a copy of branch s15-nv3's tree with
# bin/symsim-hw = this branch's build). Results under R/: the 1-PE application rows once and s16_set's rows
# (mode 26: pull's phases, now with the global timer's first entry and last exit in whole ns and each warp's
# step; mode 25) twice, 11 repetitions; every launch's host wall clock (CLOCK_REALTIME) in measured.launches*.
cd "$(dirname "$0")"
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
echo "app: $(date -u)" >> R/versions.txt
$H --kind app --out R/app1 > R/app1.log 2>&1
for r in 1 2; do
  echo "micro run $r: $(date -u)" >> R/versions.txt
  $H --set hw/diff/s16_set.json --kind micro --out R/m$r > R/m$r.log 2>&1
done
echo "end: $(date -u)" >> R/versions.txt
