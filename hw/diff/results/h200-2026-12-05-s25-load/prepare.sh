#!/bin/bash
# Fills the carry folder for s25-load's device call (run.sh), here, not on the device:
#   bash hw/diff/results/h200-2026-12-05-s25-load/prepare.sh BRANCH_CHECKOUT CARRY_DIR
# BRANCH_CHECKOUT: a checkout with calib_probe's `hot` 5 (branch s25-load, or main after its merge);
# CARRY_DIR: an ignored folder of the checkout the device receives (e.g. /work/main/build-dev-s25l).
set -euo pipefail
src=$(cd "$1" && pwd); carry=$2
b=${TMPDIR:-/tmp}/s25l-hw
mkdir -p "$carry/lib"
cmake -S "$src" -B "$b" -G Ninja -DSYMSIM_HW=cuda -DCMAKE_BUILD_TYPE=Release >"$b.cfg.log"
nice cmake --build "$b" -j2 --target symsim-hw >"$b.log"
cp "$b/bin/symsim-hw" "$carry/symsim-hw"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
cp "$src/hw/diff/hw_diff.py" "$src/hw/diff/s25l_rows.json" "$src/hw/diff/results/h200-2026-12-05-s25-load/run.sh" "$carry/"
du -sh "$carry"
