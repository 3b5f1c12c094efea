#!/bin/bash
# Issue 19, eleventh pass: the second device call (as run_s15.sh; the set now has the second call's rows).
# Run 1 runs the old binary's dispatch/combine rows after the new binary's, run 2 before.
cd "$(dirname "$0")"
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11"
OLD="dispatch_1pe dispatch_1pe_512tok combine_1pe"
DIAG="diag_pull_1pe_8tok diag_pull_1pe_64tok diag_pull_1pe_256tok"
for r in 1 2; do
  echo "run $r: $(date -u)" >> R/versions.txt
  [ $r = 2 ] && $H --only $OLD --runner bin/symsim-hw-old --out R/old$r > R/old$r.log 2>&1
  $H --kind app --runner bin/symsim-hw --out R/app$r > R/app$r.log 2>&1
  $H --set hw/diff/s15b_set.json --kind micro --runner bin/symsim-hw --out R/m$r > R/m$r.log 2>&1
  $H --set hw/diff/launch_set.json --only $DIAG --runner bin/symsim-hw --out R/diag$r > R/diag$r.log 2>&1
  [ $r = 1 ] && $H --only $OLD --runner bin/symsim-hw-old --out R/old$r > R/old$r.log 2>&1
done
echo "end: $(date -u)" >> R/versions.txt
