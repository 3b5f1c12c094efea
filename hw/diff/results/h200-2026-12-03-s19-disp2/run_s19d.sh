#!/bin/bash
# Issue 19, sixteenth pass (b): one device call. Run from build-dev-s19-disp2 (a copy of branch s19-disp2's tree
# with bin/symsim-hw = this branch's build). Results under R/, 11 repetitions per row: hw/diff/s19d_set.json's rows
# (calib_probe mode 29: mode 12's round with dispatch's per-token work; mode 12 and dispatch's send loop again), twice;
# hw/diff/s19c_set.json's (mode 28: a waited bulk store, then n iterations of code), twice; then the application
# rows, each launch held by cuStreamWaitValue32 (SYMSIM_HW_HOLD_LAUNCH=wait, as run_s19.sh of the fifteenth pass).
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER  # every kernel loaded at start: a lazy load at a held launch waits for the held stream
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
for s in d c; do
  for run in 1 2; do
    echo "s19${s} run $run: $(date -u)" >> R/versions.txt
    SYMSIM_HW_HOLD_LAUNCH=wait timeout 80 $H --set hw/diff/s19${s}_set.json --kind micro --out R/${s}_run$run > R/${s}_run$run.log 2>&1
    echo "  rc $?" >> R/versions.txt
  done
done
echo "app wait: $(date -u)" >> R/versions.txt
SYMSIM_HW_HOLD_LAUNCH=wait timeout 100 $H --kind app --out R/app_wait > R/app_wait.log 2>&1
echo "  rc $?" >> R/versions.txt
echo "end: $(date -u)" >> R/versions.txt
