#!/bin/bash
# Issue 19, twelfth pass: one device call. Run from build-dev-nv2 (a copy of branch s15-nv2's tree with
# bin/symsim-hw = this branch's build). Results under R/: two runs of the 1-PE application rows and of
# s16_set's rows (mode 26: pull_dispatch's phases by clock64; mode 25: the launch's events), 11 repetitions.
cd "$(dirname "$0")"
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
# The SASS of pull_dispatch<1>, of its stamped copy and of shim_parts_probe<56> (pull's step as mode 21 + 56 runs it).
$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump) --dump-sass bin/symsim-hw | awk '/Function :/ { p = /pull_dispatchILi1E|pull_phases_probe|shim_parts_probeILi56E/ } p' > R/sass_pull.txt 2>&1
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
for r in 1 2; do
  echo "run $r: $(date -u)" >> R/versions.txt
  $H --kind app --out R/app$r > R/app$r.log 2>&1
  $H --set hw/diff/s16_set.json --kind micro --out R/m$r > R/m$r.log 2>&1
done
echo "end: $(date -u)" >> R/versions.txt
