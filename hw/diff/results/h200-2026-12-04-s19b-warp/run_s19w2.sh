#!/bin/bash
# Issue 19, eighteenth pass (s19-warp), second call: hw/diff/s19w2_set.json (8 rows the eighth pass read slower than
# today) as the eighth pass measured them (no launch hold, --repeat 3, the last kept) and as today (hold wait), twice
# each, alternating; the GPU's clocks before and after. bin/symsim-hw: this branch's build.
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER
mkdir -p R2
Q="nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,pstate"
{ $Q --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R2/versions.txt
H="python3 hw/diff/hw_diff.py hw --runner bin/symsim-hw --set hw/diff/s19w2_set.json --kind micro"
for run in 1 2; do
  echo "run $run nohold: $(date -u)" >> R2/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=none timeout 60 $H --repeat 3 --out R2/nohold_r3_run$run > R2/nohold_r3_run$run.log 2>&1; echo "  rc $?" >> R2/versions.txt
  echo "run $run hold: $(date -u)" >> R2/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=wait timeout 60 $H --repeat 3 --out R2/hold_r3_run$run > R2/hold_r3_run$run.log 2>&1; echo "  rc $?" >> R2/versions.txt
done
$Q --format=csv,noheader >> R2/versions.txt
echo "end: $(date -u)" >> R2/versions.txt
