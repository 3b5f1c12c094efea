#!/bin/bash
# Fills the carry folder for s22-window's device call (run.sh), here, not on the device:
#   bash hw/diff/results/h200-2026-12-04-s22-window/prepare.sh BRANCH_CHECKOUT BASE_COMMIT CARRY_DIR
# BRANCH_CHECKOUT: a checkout with probe_memory.h (this branch or main after its merge);
# BASE_COMMIT: the procedure before it (9f48061), built for the A/B pass; CARRY_DIR: an ignored
# folder of the checkout the device receives (the lead's: /work/main/build-dev-s22w).
set -euo pipefail
src=$(cd "$1" && pwd); base=$2; carry=$3
tmp=${TMPDIR:-/tmp}/s22w-prepare
mkdir -p "$tmp" "$carry/lib"
build() {  # $1 source tree, $2 build dir
  cmake -S "$1" -B "$2" -G Ninja -DSYMSIM_HW=cuda -DCMAKE_BUILD_TYPE=Release >"$2.cfg.log"
  nice cmake --build "$2" -j2 --target symsim-hw >"$2.log"
}
rm -rf "$tmp/base-src" && mkdir -p "$tmp/base-src" && git -C "$src" archive "$base" | tar -x -C "$tmp/base-src"
build "$src" "$tmp/new" && cp "$tmp/new/bin/symsim-hw" "$carry/symsim-hw"
nice cmake --build "$tmp/new" -j2 --target symsim-calib >>"$tmp/new.log" && cp "$tmp/new/bin/symsim-calib" "$carry/symsim-calib"
build "$tmp/base-src" "$tmp/base" && cp "$tmp/base/bin/symsim-hw" "$carry/symsim-hw.base"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
here=$src/hw/diff/results/h200-2026-12-04-s22-window
cp "$here/run.sh" "$src/hw/diff/hw_diff.py" "$src/hw/diff/s22w_rows.json" "$carry/"
du -sh "$carry"
