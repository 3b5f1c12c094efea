#!/bin/bash
# Issue 19, tenth pass: one device call. Run from build-dev-nv2 (a copy of branch s14-nv2's tree with
# bin/symsim-hw = this branch, bin/symsim-hw-old = main cde0667's build, whose pull_dispatch is main's).
# Results under R/, two runs.
cd "$(dirname "$0")"
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
for b in symsim-hw symsim-hw-old; do cuobjdump --dump-sass bin/$b > R/$b.sass 2>&1; done
H="python3 hw/diff/hw_diff.py hw --repeat 11"
DIAG="diag_pull_1pe_8tok diag_pull_1pe_16tok diag_pull_1pe_32tok diag_pull_1pe_64tok diag_pull_1pe_256tok"
for r in 1 2; do
  echo "run $r: $(date -u)" >> R/versions.txt
  $H --kind app --runner bin/symsim-hw --out R/app$r > R/app$r.log 2>&1
  $H --set hw/diff/s15_set.json --kind micro --runner bin/symsim-hw --out R/m$r > R/m$r.log 2>&1
  $H --only pull_1pe pull_1pe_512tok --runner bin/symsim-hw-old --out R/old$r > R/old$r.log 2>&1
  $H --set hw/diff/s15_set.json --kind micro --only micro_shim_pull_step_l2_7k_c4w4_full_ns --runner bin/symsim-hw-old --out R/oldm$r > R/oldm$r.log 2>&1
  $H --set hw/diff/launch_set.json --only $DIAG --runner bin/symsim-hw --out R/diag$r > R/diag$r.log 2>&1
  $H --set hw/diff/launch_set.json --only $DIAG --runner bin/symsim-hw-old --out R/olddiag$r > R/olddiag$r.log 2>&1
done
echo "end: $(date -u)" >> R/versions.txt
