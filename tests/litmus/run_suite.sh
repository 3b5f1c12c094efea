#!/usr/bin/env bash
# ctest's litmus.ptx75_conformance: `symsim litmus` over the PTX suite, or exit 77 (skipped)
# with the command that gets the suite when it is not there.
# Usage: run_suite.sh CONFIGURED_DIR SYMSIM [symsim litmus options...]
set -euo pipefail
dir=${SYMSIM_LITMUS_DIR:-$1}
symsim=$2
shift 2
if [[ ! -f $dir/PTXv7_5-expected.csv ]]; then
  here=$(cd "$(dirname "$0")/../.." && pwd)
  echo "SKIPPED: no PTX litmus suite in $dir (PTXv7_5-expected.csv missing). Get it (network) with"
  echo "  $here/tools/get-litmus-suite.sh DIR && export SYMSIM_LITMUS_DIR=DIR"
  exit 77
fi
exec "$symsim" litmus "$dir" --expected "$dir/PTXv7_5-expected.csv" "$@"
