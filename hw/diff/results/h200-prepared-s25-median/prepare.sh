#!/bin/bash
# Fills the carry folder for this device call (run.sh), here, not on the device:
#   bash hw/diff/results/h200-prepared-s25-median/prepare.sh CARRY_DIR
# CARRY_DIR: an ignored folder of the checkout the device receives (e.g. build-dev-s25r, listed in
# .git/info/exclude). symsim-hw and symsim-calib are built from this checkout (main's procedure is
# the stored rows': a fresh window per repetition, the value the last repetition).
set -euo pipefail
src=$(git rev-parse --show-toplevel); carry=$1; build=${TMPDIR:-/tmp}/s25-median-build
mkdir -p "$carry/lib"
cmake -S "$src" -B "$build" -G Ninja -DSYMSIM_HW=cuda -DCMAKE_BUILD_TYPE=Release >"$build.cfg.log"
nice cmake --build "$build" -j2 --target symsim-hw symsim-calib >"$build.log"
cp "$build/bin/symsim-hw" "$build/bin/symsim-calib" "$carry/"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
here=$src/hw/diff/results/h200-prepared-s25-median
cp "$here/run.sh" "$src/hw/diff/hw_diff.py" "$src/hw/diff/s22w_rows.json" "$src/hw/diff/s24_rest_rows.json" \
   "$src/hw/diff/s24f_set.json" "$carry/"
du -sh "$carry"
