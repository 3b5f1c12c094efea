#!/bin/bash
# Fills the carry folder for this device call (run.sh), here, not on the device:
#   bash hw/diff/results/prepared-s33-phases/prepare.sh CARRY_DIR [SYMSIM_HW]
# CARRY_DIR: an ignored folder of the checkout the device receives (/work/main/build-dev-s33-phases). No code change of
# this pass reaches the probe: main's symsim-hw (9f5091c) serves, by default the lead's build at /work/hw33/bin.
set -euo pipefail
src=$(git rev-parse --show-toplevel); carry=$1; hw=${2:-/work/hw33/bin/symsim-hw}
mkdir -p "$carry/lib"
cp "$hw" "$carry/symsim-hw"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
cp "$src/hw/diff/results/prepared-s33-phases/run.sh" "$src/hw/diff/hw_diff.py" "$src/hw/diff/s33phases_rows.json" "$carry/"
du -sh "$carry"
