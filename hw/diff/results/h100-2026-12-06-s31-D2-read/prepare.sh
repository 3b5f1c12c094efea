#!/bin/bash
# Fills the carry folder for s31-read's device call (run.sh), here, not on the device:
#   bash hw/diff/results/h100-2026-12-06-s31-D2-read/prepare.sh CARRY_DIR [HW_BIN_DIR]   (e.g. /work/main/build-dev-s31-read)
# No probe change: main 52e9422's symsim-hw and symsim-calib (the lead's build, /work/hw31/bin) serve.
set -euo pipefail
src=$(git rev-parse --show-toplevel); carry=$1; hw=${2:-/work/hw31/bin}
mkdir -p "$carry/lib"
cp "$hw/symsim-hw" "$hw/symsim-calib" "$carry/"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
cp "$src/hw/diff/results/h100-2026-12-06-s31-D2-read/run.sh" "$src/hw/diff/hw_diff.py" "$src/hw/diff/s30reduce_rows.json" \
   "$src/hw/diff/s31read_rows.json" "$src/hw/diff/s30route_rows.json" "$src/hw/diff/s30sync_rows.json" "$carry/"
du -sh "$carry"
