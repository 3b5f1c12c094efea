#!/bin/bash
# Issue 19, eleventh pass: one device call. Run from build-dev-nv (a copy of branch s15-nv's tree with
# bin/symsim-hw = this branch, bin/symsim-hw-old = main 425f6c8's build). Results under R/, two runs;
# run 2 runs the old binary first.
cd "$(dirname "$0")"
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
python3 sass_count.py bin/symsim-hw bin/symsim-hw-old > R/sass_count.txt 2>&1
H="python3 hw/diff/hw_diff.py hw --repeat 11"
OLD="dispatch_1pe dispatch_1pe_512tok combine_1pe combine_1pe_512tok"
for r in 1 2; do
  echo "run $r: $(date -u)" >> R/versions.txt
  [ $r = 2 ] && $H --only $OLD --runner bin/symsim-hw-old --out R/old$r > R/old$r.log 2>&1
  $H --kind app --runner bin/symsim-hw --out R/app$r > R/app$r.log 2>&1
  $H --set hw/diff/s15b_set.json --kind micro --runner bin/symsim-hw --out R/m$r > R/m$r.log 2>&1
  [ $r = 1 ] && $H --only $OLD --runner bin/symsim-hw-old --out R/old$r > R/old$r.log 2>&1
done
echo "end: $(date -u)" >> R/versions.txt
