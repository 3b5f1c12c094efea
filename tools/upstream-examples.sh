#!/usr/bin/env bash
# Builds CANN SHMEM's UDMA examples and UDMA unit tests, unmodified, against symsim's shim, runs
# them, and lets upstream's own checks judge:
#   tools/upstream-examples.sh SHMEM_CHECKOUT [BIN_DIR]
# SHMEM_CHECKOUT is a checkout of https://gitcode.com/cann/shmem (mirrored as hicann/shmem on
# GitHub); none of its code is part of this repository. Prints a Markdown table, one row per
# example / unit-test group: builds, runs (symsim's exit status, PEs), upstream's checks (the
# lines upstream's programs print: "[Verification] SUCCESS/FAILED" of the perftest, the
# demos' "[SUCCESS]/[FAILED] demo run", gtest's "[ OK ]/[ FAILED ]" per test and PE),
# simulated time. Exits non-zero when anything does not build, or a check fails or is missing.
# As upstream's run.sh does, SHMEM_CYCLE_PROF_PE is exported (default 0).
set -uo pipefail
src=${1:?usage: tools/upstream-examples.sh SHMEM_CHECKOUT [BIN_DIR]}
src=$(cd "$src" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "${2:-$here/../build/bin}" && pwd)
export SYMSIM_REWRITE=$bin/symsim-rewrite
export SHMEM_CYCLE_PROF_PE=${SHMEM_CYCLE_PROF_PE:-0}
work=$(mktemp -d "${TMPDIR:-/tmp}/symsim-upstream.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0

echo "| example / unit test | builds | runs (PEs) | upstream's checks | simulated time |"
echo "|---|---|---|---|---|"

# row NAME BUILDS RUNS CHECKS TIME
row() { echo "| $1 | $2 | $3 | $4 | $5 |"; }

# compile TAG DIR SOURCES [FLAGS...]: objects $work/TAG-*.o, rewritten by symsim-cxx.
compile() {
  local tag=$1 dir=$2 sources=$3
  shift 3
  local s
  for s in $sources; do
    (cd "$dir" && "$here/symsim-cxx" -O1 -c -o "$work/$tag-$(basename "${s%.*}").o" "$s" "$@") \
      >>"$work/$tag.build.log" 2>&1 || return 1
  done
}

# link NAME TAG ARGV [LIBS...]: the kernel library $work/libNAME.so running main with ARGV.
link() {
  local name=$1 tag=$2 argv=$3
  shift 3
  "$here/symsim-cxx" -shared -o "$work/lib$name.so" "$work/$tag"-*.o "$@" --symsim-kernel "$name" \
    --symsim-argv "$argv" >>"$work/$name.build.log" 2>&1
}

# run LABEL NAME PES SUCCESS_REGEX FAILED_REGEX: runs the library, prints the row.
run() {
  local label=$1 name=$2 pes=$3 ok_re=$4 bad_re=$5
  printf '{"symsim": 1, "name": "%s", "seed": 1, "platform": "ascend910c", "pes": %d, "kernel": {"name": "%s", "args": {}}}\n' \
    "$name" "$pes" "$name" >"$work/$name.json"
  local runs=yes
  (cd "$work" && "$bin/symsim" run "$name.json" --kernel-lib "$work/lib$name.so" --out "$work/out-$name") \
    >"$work/$name.run.log" 2>&1 || runs="exit $?"
  local ok bad sim
  ok=$(grep -cE "$ok_re" "$work/$name.run.log")
  bad=$(grep -cE "$bad_re" "$work/$name.run.log")
  sim=$(grep -m1 -oE "^$name: [a-z]+ +simulated [0-9.]+ us" "$work/$name.run.log" | grep -oE '[0-9.]+ us')
  row "$label" yes "$runs ($pes)" "$ok passed, $bad failed" "${sim:-none}"
  if [[ $runs != yes || $ok == 0 || $bad != 0 ]]; then
    failed=1
    tail -8 "$work/$name.run.log" | sed 's/^/    /' >&2
  fi
}

build_failed() {
  row "$1" "NO (see below)" - - -
  tail -5 "$work/$2.build.log" | sed 's/^/    /' >&2
  failed=1
}

ex=$src/examples
demo_ok='^\[SUCCESS\] demo run success in pe'
demo_bad='^\[FAILED\]'
if compile demo "$ex/udma_demo" "main.cpp udma_demo_kernel.cpp" -I"$ex/utils" -I"$ex/include"; then
  for t in 0 1; do
    link upstream_udma_demo_$t demo "{n_pes} {pe} tcp://127.0.0.1:8899 {n_pes} 0 0 $t" &&
      run "udma_demo, test type $t" upstream_udma_demo_$t 4 "$demo_ok" "$demo_bad"
  done
else
  build_failed udma_demo demo
fi

if compile atomic "$ex/udma_atomic_add" "main.cpp udma_atomic_add_kernel.cpp" -I"$ex/utils" -I"$ex/include"; then
  link upstream_udma_atomic_add atomic "{n_pes} {pe} tcp://127.0.0.1:8899 {n_pes} 0 0" &&
    run udma_atomic_add upstream_udma_atomic_add 4 "$demo_ok" "$demo_bad"
else
  build_failed udma_atomic_add atomic
fi

# The same two examples in upstream's ENABLE_ASCENDC_DUMP build (examples/CMakeLists.txt's
# definitions): the kernels call InitDump, the host programs Adx::AdumpPrintWorkSpace.
dump_defs=(-DENABLE_ASCENDC_DUMP -DASCENDC_DUMP=1 -DASCENDC_DEBUG)
if compile demodump "$ex/udma_demo" "main.cpp udma_demo_kernel.cpp" -I"$ex/utils" -I"$ex/include" "${dump_defs[@]}"; then
  for t in 0 1; do
    link upstream_udma_demo_dump_$t demodump "{n_pes} {pe} tcp://127.0.0.1:8899 {n_pes} 0 0 $t" &&
      run "udma_demo, test type $t, ENABLE_ASCENDC_DUMP build" upstream_udma_demo_dump_$t 4 "$demo_ok" "$demo_bad"
  done
else
  build_failed "udma_demo (ENABLE_ASCENDC_DUMP)" demodump
fi
if compile atomicdump "$ex/udma_atomic_add" "main.cpp udma_atomic_add_kernel.cpp" -I"$ex/utils" -I"$ex/include" "${dump_defs[@]}"; then
  link upstream_udma_atomic_add_dump atomicdump "{n_pes} {pe} tcp://127.0.0.1:8899 {n_pes} 0 0" &&
    run "udma_atomic_add, ENABLE_ASCENDC_DUMP build" upstream_udma_atomic_add_dump 4 "$demo_ok" "$demo_bad"
else
  build_failed "udma_atomic_add (ENABLE_ASCENDC_DUMP)" atomicdump
fi

# udma_perftest with run.sh's defaults (2 PEs, 8 B to 128 KiB, 1000 loops, 16 KiB UB, bw, batch 0),
# every test type and data type run.sh's "all" covers.
pt=$ex/shmem_perftest/udma_perftest
if compile perf "$pt" "main.cpp udma_perftest_kernel.cpp" -I"$ex/utils" -I"$pt/../include" -I"$ex/include"; then
  for t in put bi_put get bi_get put_signal; do
    for d in float int8 int16 int32 int64 uint8 uint16 uint32 uint64 char; do
      name=upstream_udma_perftest_${t}_$d
      link "$name" perf "-t $t -d $d --exponent-range 3 17 --loop-count 1000 --ub-size 16 --metric bw --batch 0 \
--pes {n_pes} --pe-id {pe} --ipport tcp://127.0.0.1:8768 --gnpus {n_pes} --fpe 0 --fnpu 0" &&
        run "udma_perftest -t $t -d $d" "$name" 2 '^\[Verification\] SUCCESS' '^\[Verification\] FAILED'
    done
  done
else
  build_failed udma_perftest perf
fi

# tests/unittest: upstream's gtest main (one forked child per PE, mapped onto the simulated PEs
# by tools/upstream-unittest/fork_as_pe.cpp), its UDMA host tests and device kernels. Upstream's
# TESTs have their test_mutil_task call commented out; udma_enabled_tests.cpp makes that call.
ut=$src/tests/unittest
ut_sources="host/main_test.cpp host/mem/udma_mem/udma_mem_host_test.cpp host/mem/udma_amo/udma_amo_host_test.cpp
  device/mem/udma_mem/udma_mem_kernel.cpp device/mem/udma_amo/udma_amo_kernel.cpp"
if compile ut "$ut" "$ut_sources" -I"$ut" -I"$ut/include" -I"$ut/include/unittest/utils" &&
  compile ut "$here/upstream-unittest" "fork_as_pe.cpp udma_enabled_tests.cpp" -I"$ut/include/unittest/utils"; then
  ut_argv="{n_pes} tcp://127.0.0.1:8899 {n_pes} 0 0"
  gtest_libs=(-Wl,-Bstatic -lgtest -Wl,-Bdynamic -lpthread)
  # filter SUITE.PATTERN: one run each, so that each group has its simulated time.
  for group in "TestMemApi.*UDMA*:upstream's TESTs (udma_mem + udma_amo; bodies commented out upstream)" \
               "SymsimEnabledUdma.TestShmemUDMAMem:udma_mem (UDMAPutTest, UDMAGetTest, UDMAPutSignalTest)" \
               "SymsimEnabledUdma.*Atomic*:udma_amo (57 kernels: 14 operations x int32/uint32/int64/uint64, add also float)"; do
    filter=${group%%:*} label="tests/unittest ${group#*:}"
    name=upstream_unittest_$(echo "$filter" | tr -c 'A-Za-z0-9\n' _)
    link "$name" ut "$ut_argv --gtest_filter=$filter" "${gtest_libs[@]}" &&
      run "$label" "$name" 4 '^\[       OK \] ' '^\[  FAILED  \] [A-Za-z]+\.[A-Za-z0-9]+ \('
  done
else
  build_failed "tests/unittest (UDMA)" ut
fi
exit $failed
