#!/bin/bash
# Issue 19, seventeenth pass (s19-mem): one device call. Run from build-dev-s19-mem (a copy of branch s19-mem's tree with
# bin/symsim-hw = this branch's build). Results under R/, 11 repetitions per row: hw/diff/s19m_set.json's rows (calib_probe
# mode 23 with one warp by row count and window, mode 20 by round count, four eighth-pass rows again), twice, each launch
# held by cuStreamWaitValue32 (SYMSIM_HW_HOLD_LAUNCH=wait).
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER  # every kernel loaded at start: a lazy load at a held launch waits for the held stream
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
for run in 1 2; do
  echo "s19m run $run: $(date -u)" >> R/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=wait timeout 120 $H --set hw/diff/s19m_set.json --kind micro --out R/m_run$run > R/m_run$run.log 2>&1
  echo "  rc $?" >> R/versions.txt
done
echo "end: $(date -u)" >> R/versions.txt
