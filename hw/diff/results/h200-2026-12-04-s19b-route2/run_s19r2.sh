#!/bin/bash
# Issue 19, eighteenth pass (s19-route2): one device call. Run from build-dev-s19-route2 (hw/diff, scenarios and
# bin/symsim-hw of branch s19-route2). hw/diff/s19r2_set.json's rows, 11 repetitions each, twice, each launch held by
# cuStreamWaitValue32 (SYMSIM_HW_HOLD_LAUNCH=wait); sync_probe's SASS when cuobjdump is there.
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER SYMSIM_PLATFORM_DIR="$PWD/scenarios/platforms"
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
for run in 1 2; do
  echo "s19r2 run $run: $(date -u)" >> R/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=wait timeout 150 $H --set hw/diff/s19r2_set.json --kind micro --out R/r_run$run > R/r_run$run.log 2>&1
  echo "  rc $?" >> R/versions.txt
done
C=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
if [ -n "$C" ]; then $C -sass bin/symsim-hw 2>/dev/null | awk '/Function : /{p = /sync_probe/} p' > R/sync_probe.sass; fi
echo "end: $(date -u)" >> R/versions.txt
