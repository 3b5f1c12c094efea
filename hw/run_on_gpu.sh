#!/usr/bin/env bash
# On a machine with NVIDIA GPUs: builds the hardware build (-DSYMSIM_HW=cuda), runs the
# calibration microbenchmarks and the differential set's GPU half, and leaves under OUT:
#   calibration.md (symsim-calib's table), calib.log, hw-results.tar.gz (one result.json per
#   entry), diff-hw.log, versions.txt (GPU, driver, CUDA, topology), build.log.
#   hw/run_on_gpu.sh OUT [extra cmake args, e.g. -DCMAKE_INCLUDE_PATH=/path/to/json-and-fmt-headers]
set -uo pipefail
out=${1:?usage: hw/run_on_gpu.sh OUT [cmake args]}
shift
mkdir -p "$out"
jobs=$(nproc)
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm --format=csv
  nvidia-smi topo -m
  nvcc --version | tail -2
} >"$out/versions.txt" 2>&1

# Two runners: cooperative launches (as the kernels are written) and plain launches, in case
# this GPU does not run several PEs' cooperative grids at once.
for variant in coop plain; do
  plain=OFF
  [ "$variant" = plain ] && plain=ON
  cmake -S . -B "build-hw/$variant" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSYMSIM_HW=cuda -DSYMSIM_HW_PLAIN_LAUNCH=$plain "$@" \
    >>"$out/build.log" 2>&1 &
done
wait
cmake --build build-hw/coop -j"$jobs" -- -k 0 >>"$out/build.log" 2>&1 &
cmake --build build-hw/plain -j"$jobs" --target symsim-hw -- -k 0 >>"$out/build.log" 2>&1 &
wait
grep -A8 "FAILED\|error" "$out/build.log" | head -40
ls build-hw/*/bin

runner=build-hw/coop/bin/symsim-hw
if ! timeout 60 "$runner" run scenarios/nvidia/nvlink_barrier_8gpu.json --set pes=2 --repeat 2 --timeout-s 15 --gpus 1 \
    --out "$out/probe" >"$out/probe.log" 2>&1; then
  echo "cooperative grids of several PEs did not finish together on one GPU: using plain launches" | tee -a "$out/probe.log"
  runner=build-hw/plain/bin/symsim-hw
fi
echo "runner: $runner" | tee -a "$out/versions.txt"

build-hw/coop/bin/symsim-calib >"$out/calibration.md" 2>"$out/calib.log"
echo "symsim-calib exit $?"
python3 hw/diff/hw_diff.py hw --runner "$runner" --out build-hw/diff-hw >"$out/diff-hw.log" 2>&1
echo "hw_diff exit $?"
# A GPU-driven RDMA kernel: compiled, but it needs a NIC (docs/hw.md); the run says so.
"$runner" run scenarios/nvidia/rdma_write_then_atomic.json --out build-hw/diff-hw/ibgda_probe --repeat 1 --timeout-s 10 \
  >build-hw/diff-hw/ibgda_probe.log 2>&1
echo "ibgda probe exit $?" | tee -a build-hw/diff-hw/ibgda_probe.log
tar czf "$out/hw-results.tar.gz" -C build-hw diff-hw
cat "$out/diff-hw.log"
