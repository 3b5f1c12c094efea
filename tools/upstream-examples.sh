#!/usr/bin/env bash
# Builds CANN SHMEM's public UDMA examples, unmodified, against symsim's shim and runs them:
#   tools/upstream-examples.sh SHMEM_CHECKOUT [build/bin]
# SHMEM_CHECKOUT is a checkout of https://gitcode.com/cann/shmem (mirrored as hicann/shmem on
# GitHub); none of its code is part of this repository. Prints one line per example and exits
# non-zero when any example fails to build or run.
set -uo pipefail
src=${1:?usage: tools/upstream-examples.sh SHMEM_CHECKOUT [BIN_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "${2:-$here/../build/bin}" && pwd)
export SYMSIM_REWRITE=$bin/symsim-rewrite
work=$(mktemp -d "${TMPDIR:-/tmp}/symsim-upstream.XXXXXX")
trap 'rm -rf "$work"' EXIT
ex=$src/examples
failed=0

# example NAME PES DIR SOURCES ARGV [SCENARIO_ARGS] [SYMSIM_ARGS...]
example() {
  local name=$1 pes=$2 dir=$3 sources=$4 argv=$5 args=${6:-"{}"}
  shift $(($# < 6 ? $# : 6))
  local lib=$work/lib$name.so
  (cd "$ex/$dir" && "$here/symsim-cxx" -O1 -shared -o "$lib" $sources -I"$ex/utils" -I"$ex/$dir/../include" \
       --symsim-kernel "$name" --symsim-argv "$argv") >"$work/$name.build.log" 2>&1
  if (($? != 0)); then
    echo "$name: BUILD FAILED"; tail -5 "$work/$name.build.log"; failed=1; return
  fi
  printf '{"symsim": 1, "name": "%s", "seed": 1, "platform": "ascend910c", "pes": %d, "kernel": {"name": "%s", "args": %s}}\n' \
    "$name" "$pes" "$name" "$args" >"$work/$name.json"
  if (cd "$work" && "$bin/symsim" run "$name.json" --kernel-lib "$lib" --out "$work/out-$name" "$@") >"$work/$name.run.log" 2>&1; then
    echo "$name ($pes PEs): builds, runs, $(grep -m1 "^$name: " "$work/$name.run.log")"
  else
    echo "$name ($pes PEs): RUN FAILED"; tail -8 "$work/$name.run.log"; failed=1
  fi
}

example upstream_udma_demo 4 udma_demo "main.cpp udma_demo_kernel.cpp" "{n_pes} {pe} tcp://127.0.0.1:8899 {n_pes} 0 0 0"
example upstream_udma_demo_signal 4 udma_demo "main.cpp udma_demo_kernel.cpp" "{n_pes} {pe} tcp://127.0.0.1:8899 {n_pes} 0 0 1"
example upstream_udma_atomic_add 4 udma_atomic_add "main.cpp udma_atomic_add_kernel.cpp" "{n_pes} {pe} tcp://127.0.0.1:8899 {n_pes} 0 0"
example upstream_udma_perftest 2 shmem_perftest/udma_perftest "main.cpp udma_perftest_kernel.cpp" \
  "-t put -d uint8 -b 1 --exponent-range 3 12 --pes {n_pes} --pe-id {pe} --ipport tcp://127.0.0.1:8899 --gnpus {n_pes}"
exit $failed
