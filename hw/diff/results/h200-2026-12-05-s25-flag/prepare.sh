#!/bin/bash
# Makes the carry folder for run.sh: prepare.sh REPO OUT_DIR (REPO: a checkout of branch s25-flag,
# with build-hw configured: cmake -S . -B build-hw -G Ninja -DSYMSIM_HW=cuda -DCMAKE_BUILD_TYPE=Release).
set -e
R=$1; O=$2
nice cmake --build $R/build-hw -j2 --target symsim-hw symsim-calib
mkdir -p $O/lib
cp $R/build-hw/bin/symsim-hw $R/build-hw/bin/symsim-calib $O/
cp $R/hw/diff/hw_diff.py $R/hw/diff/s24f_set.json $R/hw/diff/s25f_set.json $O/
cp $R/hw/diff/results/h200-2026-12-05-s25-flag/run.sh $O/
# the sync probe's release rows of s19r2_set.json (grid_sync / signal_wait .probe / .relaxed / .rel_gpu)
python3 - $R/hw/diff/s19r2_set.json $O/sync_set.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["entries"] = [e for e in d["entries"] if any(k in e["row"] for k in (".probe.", ".relaxed.", ".rel_gpu."))]
d["doc"] = "s19r2_set.json's grid_sync / signal_wait rows with their release taken apart (s25-flag's device question)"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
# the CUDA runtime beside them, as build-dev-s24f had it
cp -L /usr/local/cuda/lib64/libcudart.so.13 $O/lib/
