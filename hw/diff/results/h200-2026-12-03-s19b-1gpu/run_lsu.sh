#!/bin/bash
# Issue 19, fifteenth pass (b): one device call. Run from build-dev-lsu (a copy of branch s19-lsu's tree with
# bin/symsim-hw = this branch's build). (1) the SASS of the plain-load loops (cubins built here with nvcc 13.0,
# -gencode arch=compute_90a,code=sm_90a -O3: fresh_rows_probe, shim_probe, intranode_combine) by cuobjdump;
# (2) hw/diff/s19b_set.json's rows, 11 repetitions (clock64 rows: no launch hold needed).
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER
mkdir -p R/sass
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; cuobjdump --version | tail -1; } > R/versions.txt 2>&1
for f in cubin/*.cubin; do b=$(basename $f .cubin); cuobjdump -sass $f > R/sass/$b.sass 2>&1 || nvdisasm -c $f > R/sass/$b.sass 2>&1; done
echo "micro: $(date -u)" >> R/versions.txt
timeout 240 python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw --set hw/diff/s19b_set.json --kind micro --out R/m_s19b > R/m_s19b.log 2>&1
echo "  rc $?" >> R/versions.txt
echo "end: $(date -u)" >> R/versions.txt
