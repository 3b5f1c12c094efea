#!/bin/bash
# Fills the carry folder for s30-route's device call (run.sh), here, not on the device:
#   bash hw/diff/results/h100-2026-12-06-s31-D1/s30-route/prepare.sh CARRY_DIR   (e.g. /work/main/build-dev-s30-route)
# symsim-hw is built from this checkout: calib_probe's `hot` 6-8 are new (main's symsim-hw refuses them).
set -euo pipefail
src=$(git rev-parse --show-toplevel); carry=$1; build=${TMPDIR:-/tmp}/s30-route-hw
mkdir -p "$carry/lib"
cmake -S "$src" -B "$build" -G Ninja -DSYMSIM_HW=cuda -DCMAKE_BUILD_TYPE=Release >"$build.cfg.log"
nice cmake --build "$build" -j2 --target symsim-hw >"$build.log"
cp "$build/bin/symsim-hw" "$carry/"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
cp "$src/hw/diff/results/h100-2026-12-06-s31-D1/s30-route/run.sh" "$src/hw/diff/hw_diff.py" "$src/hw/diff/s30route_rows.json" "$carry/"
du -sh "$carry"
