#!/usr/bin/env bash
# Fuzzes the scenario parser and validator for a bounded time (default 60 s):
#   fuzz/run.sh [SECONDS] [extra libFuzzer flags]
# FUZZ_TARGET=service_fuzz fuzzes the service's request handling instead (seeded from
# fuzz/service_corpus/ with fuzz/service.dict; new finds in build-fuzz/service_corpus/).
# Builds build-fuzz/ with clang (libFuzzer + ASan + UBSan over the whole project). The
# committed corpus fuzz/corpus/ (scenarios, invalid-input tests, and a minimised set of earlier
# finds) seeds the run; new finds go to build-fuzz/corpus/. Fold them back, minimised, with
#   build-fuzz/bin/scenario_fuzz -merge=1 fuzz/corpus build-fuzz/corpus
# A crash leaves its input as build-fuzz/crash-*; reproduce with
#   build-fuzz/bin/scenario_fuzz build-fuzz/crash-<id>
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
if ! command -v clang++ >/dev/null; then
  echo "fuzz/run.sh needs clang and libFuzzer: apt-get install clang libclang-rt-14-dev" >&2
  exit 2
fi
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DSYMSIM_FUZZ=ON -DSYMSIM_SANITIZE=ON -DSYMSIM_WERROR=OFF -DSYMSIM_LITMUS=OFF >/dev/null
target="${FUZZ_TARGET:-scenario_fuzz}"
case "$target" in
  scenario_fuzz) corpus=corpus; dict=scenario.dict ;;
  service_fuzz) corpus=service_corpus; dict=service.dict ;;
  *) echo "fuzz/run.sh: FUZZ_TARGET is scenario_fuzz or service_fuzz" >&2; exit 2 ;;
esac
cmake --build build-fuzz --target "$target" -j"$(nproc)"
mkdir -p "build-fuzz/$corpus"
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
cd build-fuzz
exec "./bin/$target" "$corpus" "../fuzz/$corpus" -dict="../fuzz/$dict" -max_total_time="$seconds" -max_len=8192 \
     -timeout=10 -print_final_stats=1 "$@"
