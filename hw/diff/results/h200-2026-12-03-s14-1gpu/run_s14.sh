#!/bin/bash
# Issue 19, ninth pass: one device call. Run from build-dev-nv (a copy of branch s14-nv's tree with
# bin/symsim-hw = this branch, bin/symsim-hw-old = main cde0667). Results under R/, two runs.
cd "$(dirname "$0")"
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11"
OLDROWS="micro_app_dispatch_l2data_128tok_h7168 micro_app_dispatch_l2data_512tok_h7168 micro_shim_dispatch_phases_l2data_128tok_h7168_p3_ns micro_shim_dispatch_phases_l2data_512tok_h7168_p3_ns"
for r in 1 2; do
  echo "run $r: $(date -u)" >> R/versions.txt
  $H --kind app --runner bin/symsim-hw --out R/app$r > R/app$r.log 2>&1
  $H --set hw/diff/s14_set.json --kind micro --runner bin/symsim-hw --out R/m$r > R/m$r.log 2>&1
  $H --only dispatch_1pe dispatch_1pe_512tok --runner bin/symsim-hw-old --out R/old$r > R/old$r.log 2>&1
  $H --set hw/diff/s14_set.json --kind micro --only $OLDROWS --runner bin/symsim-hw-old --out R/oldm$r > R/oldm$r.log 2>&1
done
echo "end: $(date -u)" >> R/versions.txt
