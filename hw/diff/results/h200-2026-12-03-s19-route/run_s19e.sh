#!/bin/bash
# Issue 19, sixteenth pass (c): one device call. Run from build-dev-s19-route (a copy of branch s19-route's tree with
# bin/symsim-hw = this branch's build). Results under R/, 11 repetitions per row: hw/diff/s19e_set.json's rows
# (calib_probe mode 29 with `stride` >= 65536: the routing step's parts alone, dispatch_route_probe.cu; three mode-29
# rows of the sixteenth pass (b) again), twice, each launch held by cuStreamWaitValue32 (SYMSIM_HW_HOLD_LAUNCH=wait).
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER  # every kernel loaded at start: a lazy load at a held launch waits for the held stream
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
for run in 1 2; do
  echo "s19e run $run: $(date -u)" >> R/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=wait timeout 90 $H --set hw/diff/s19e_set.json --kind micro --out R/e_run$run > R/e_run$run.log 2>&1
  echo "  rc $?" >> R/versions.txt
done
echo "end: $(date -u)" >> R/versions.txt
