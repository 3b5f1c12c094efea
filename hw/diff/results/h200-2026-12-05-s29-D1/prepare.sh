#!/bin/bash
# Fills the carry folder for this device call (run.sh), here, not on the device:
#   bash hw/diff/results/h200-2026-12-05-s29-D1/prepare.sh CARRY_DIR
# CARRY_DIR: an ignored folder of the checkout the device receives (e.g. /work/main/build-dev-s29-heap).
# symsim-hw is built from this checkout: calib_probe's `heap` argument is new (main's symsim-hw refuses it).
set -euo pipefail
src=$(git rev-parse --show-toplevel); carry=$1; build=${TMPDIR:-/tmp}/s29-heap-hw
mkdir -p "$carry/lib"
cmake -S "$src" -B "$build" -G Ninja -DSYMSIM_HW=cuda -DCMAKE_BUILD_TYPE=Release >"$build.cfg.log"
nice cmake --build "$build" -j2 --target symsim-hw >"$build.log"
cp "$build/bin/symsim-hw" "$carry/"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
cp "$src/hw/diff/results/h200-2026-12-05-s29-D1/run.sh" "$src/hw/diff/hw_diff.py" "$src/hw/diff/s29heap_rows.json" \
   "$src/hw/diff/s29heap2_rows.json" "$carry/"
du -sh "$carry"
