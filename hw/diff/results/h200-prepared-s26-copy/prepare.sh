#!/bin/bash
# Fills the carry folder for s26-copy's device call (run.sh), here, not on the device:
#   bash hw/diff/results/h200-prepared-s26-copy/prepare.sh CHECKOUT CARRY_DIR
# CHECKOUT: any checkout with hw/diff/s26copy_rows.json (calib_probe modes 11, 12 and 19 are unchanged since session 16,
# so main's symsim-hw measures them); CARRY_DIR: an ignored folder of the checkout the device receives
# (e.g. /work/main/build-dev-s26c).
set -euo pipefail
src=$(cd "$1" && pwd); carry=$2
b=${TMPDIR:-/tmp}/s26c-hw
mkdir -p "$carry/lib"
cmake -S "$src" -B "$b" -G Ninja -DSYMSIM_HW=cuda -DCMAKE_BUILD_TYPE=Release >"$b.cfg.log"
nice cmake --build "$b" -j2 --target symsim-hw >"$b.log"
cp "$b/bin/symsim-hw" "$carry/symsim-hw"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
cp "$src/hw/diff/hw_diff.py" "$src/hw/diff/s26copy_rows.json" "$src/hw/diff/results/h200-prepared-s26-copy/run.sh" "$carry/"
du -sh "$carry"
