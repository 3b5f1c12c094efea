#!/bin/bash
# Fills the carry folder for this device call (run.sh), here, not on the device:
#   bash hw/diff/results/h100-2026-12-06-s31-D1/s30-reduce/prepare.sh CARRY_DIR [SYMSIM_HW]
# CARRY_DIR: an ignored folder of the checkout the device receives (/work/main/build-dev-s30-reduce). No code change
# of this pass reaches the probe: main's symsim-hw (8444bc2, calib_probe's `heap` argument since s29-heap) serves,
# by default the lead's build at /work/hw30/bin/symsim-hw.
set -euo pipefail
src=$(git rev-parse --show-toplevel); carry=$1; hw=${2:-/work/hw30/bin/symsim-hw}
mkdir -p "$carry/lib"
cp "$hw" "$carry/symsim-hw"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
cp "$src/hw/diff/results/h100-2026-12-06-s31-D1/s30-reduce/run.sh" "$src/hw/diff/hw_diff.py" "$src/hw/diff/s30reduce_rows.json" \
   "$src/hw/diff/s30reduce2_rows.json" "$carry/"
du -sh "$carry"
