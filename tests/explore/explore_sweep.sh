#!/bin/sh
# The clean-kernel sweep under schedule exploration (docs/explore.md), outside CI: every
# corrected kernel of the hazard matrix and every UDMA, MoE and NVIDIA scenario, N schedules
# each (default 64), through tests/explore/expect_sweep_clean.cmake. Exit 0: no schedule
# reported a hazard its scenario does not expect, and every schedule passed (bar ALLOW_FAIL).
#   tests/explore/explore_sweep.sh [N] [BUILD_DIR] [OUT_DIR] [scenario.json ...]
set -e
n=${1:-64}
build=${2:-build}
out=${3:-symsim-out/explore-sweep}
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -gt 3 ]; then
  shift 3
  list=$(printf '%s|' "$@")
else
  list=$(printf '%s|' "$root"/scenarios/hazards/*_fixed.json "$root"/scenarios/udma/*.json \
                      "$root"/scenarios/moe/*.json "$root"/scenarios/nvidia/*.json)
fi
exec cmake -DSYMSIM="$build/bin/symsim" "-DSCENARIOS=${list%|}" -DN="$n" \
  "-DALLOW_FAIL=udma_generic_amo|udma_p2p_sync_4pe|litmus_sb" -DOUT="$out" \
  -P "$root/tests/explore/expect_sweep_clean.cmake"
