#!/bin/bash
# Fills the carry folder for this device call (run.sh), here, not on the device:
#   bash hw/diff/results/h200-prepared-s28-store/prepare.sh CARRY_DIR
# CARRY_DIR: an ignored folder of the checkout the device receives (e.g. build-dev-s28s). symsim-hw is
# built from this checkout (its store_chain_probe.cu is new, so main's build-dev-s27 does not have it);
# store_chain_probe.cubin is the same source compiled alone, for cuobjdump on the device.
set -euo pipefail
src=$(git rev-parse --show-toplevel); carry=$1; build=${TMPDIR:-/tmp}/s28-store-hw-build
mkdir -p "$carry/lib" "$build/hw_include/symsim/cuda"
cmake -S "$src" -B "$build" -G Ninja -DSYMSIM_HW=cuda -DCMAKE_BUILD_TYPE=Release >"$build.cfg.log"
nice cmake --build "$build" -j2 --target symsim-hw >"$build.log"
cp "$build/bin/symsim-hw" "$carry/"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
cp "$src"/kernels/shim/cuda/include/symsim/cuda/{runtime.h,ibgda_host.h} "$build/hw_include/symsim/cuda/"
for x in store_chain_probe fresh_rows_probe; do  # the s27-sass flags (that README)
  nice nvcc -cubin -DFMT_HEADER_ONLY -DSYMSIM_HW -I"$build/hw_include" -I"$src" -I"$src/kernels/shim/cuda/device" -O3 -DNDEBUG \
    -lineinfo -gencode=arch=compute_90a,code=sm_90a -std=c++17 -o "$carry/$x.cubin" "$src/kernels/nvlink/calib/$x.cu"
done
here=$src/hw/diff/results/h200-prepared-s28-store
cp "$here/run.sh" "$src/hw/diff/hw_diff.py" "$src/hw/diff/s28chain_rows.json" "$carry/"
du -sh "$carry"
