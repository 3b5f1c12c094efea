#!/bin/bash
# Issue 19, eighteenth pass (s19-warp): one device call. Run from build-dev-s19-warp (a copy of branch s19-warp's tree with
# bin/symsim-hw = this branch's build). Results under R/: hw/diff/s19w_set.json (every calibration row of the one-warp
# memory families, 100 rows), 11 repetitions per row, three runs, each launch held by cuStreamWaitValue32
# (SYMSIM_HW_HOLD_LAUNCH=wait).
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER  # every kernel loaded at start: a lazy load at a held launch waits for the held stream
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
for run in 1 2 3; do
  echo "s19w run $run: $(date -u)" >> R/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=wait timeout 110 $H --set hw/diff/s19w_set.json --kind micro --out R/w_run$run > R/w_run$run.log 2>&1
  echo "  rc $?" >> R/versions.txt
done
echo "end: $(date -u)" >> R/versions.txt
