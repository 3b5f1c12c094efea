#!/bin/bash
# Issue 19, fifteenth pass: one device call. Run from build-dev-tma (a copy of branch s19-tma's tree with
# bin/symsim-hw = this branch's build). Results under R/, 11 repetitions per row: hw/diff/s19_set.json's rows
# (calib_probe mode 27: mode 9's bulk-load rounds with n iterations of index code before each copy; mode 9 and
# mode 1's one-in-flight stores again), twice, then the application rows, each launch held by
# cuStreamWaitValue32 (SYMSIM_HW_HOLD_LAUNCH=wait, as run_s18.sh's call 2).
cd "$(dirname "$0")"
# Every kernel loaded at start: a lazy load at a held launch waits for the held stream.
export CUDA_MODULE_LOADING=EAGER
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
for run in 1 2; do
  echo "micro run $run: $(date -u)" >> R/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=wait timeout 150 $H --set hw/diff/s19_set.json --kind micro --out R/m_run$run > R/m_run$run.log 2>&1
  echo "  rc $?" >> R/versions.txt
done
echo "app wait: $(date -u)" >> R/versions.txt
SYMSIM_HW_HOLD_LAUNCH=wait timeout 150 $H --kind app --out R/app_wait > R/app_wait.log 2>&1
echo "  rc $?" >> R/versions.txt
echo "end: $(date -u)" >> R/versions.txt
