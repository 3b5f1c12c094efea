#!/bin/bash
# One device question: a row set read on the GPU with every repetition kept (the shape of the issue-19 requests
# since session 28), in two steps.
#   here:    bash hw/diff/device_rows.sh prepare CARRY_DIR ROWS_JSON SYMSIM_HW
#            fills CARRY_DIR (a git-ignored folder of the checkout the device receives, e.g. build-dev-NAME) with
#            SYMSIM_HW, libcudart, hw_diff.py, the row set (as rows.json) and this script
#   device:  CARRY=build-dev-NAME bash build-dev-NAME/device_rows.sh run NAME CUT_S [REPEAT]   (repository root, $OUT set)
#            REPEAT (default 11) repetitions an entry, cut at CUT_S seconds; writes $OUT/v.txt (card, clocks, exit), $OUT/hw_log.txt
#            and $OUT/hw_NAME.tgz (the folder hw_NAME, read with hw/diff/heap_reps.py or hw_diff.py compare)
set -euo pipefail
case ${1:-} in
prepare)
  carry=$2; rows=$3; hw=$4
  src=$(git rev-parse --show-toplevel)
  mkdir -p "$carry/lib"
  cp "$hw" "$carry/symsim-hw"
  cp -L /usr/local/cuda/lib64/libcudart.so.13 "$carry/lib/"
  cp "$src/hw/diff/device_rows.sh" "$src/hw/diff/hw_diff.py" "$carry/"
  cp "$rows" "$carry/rows.json"
  du -sh "$carry" ;;
run)
  name=$2; cut_s=$3; repeat=${4:-11}; D=${CARRY:?CARRY: the carried folder, relative to the repository root}
  export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv || true; date -u; } >"$OUT/v.txt"
  rc=0
  SYMSIM_HW_KEEP_REPETITIONS=1 timeout "$cut_s" python3 "$D/hw_diff.py" hw --set "$D/rows.json" --kind micro \
    --runner "$D/symsim-hw" --repeat "$repeat" --hold wait --out "/tmp/hw_$name" >>"$OUT/hw_log.txt" 2>&1 || rc=$?
  echo "$name exit $rc $(date -u +%T)" >>"$OUT/v.txt"
  nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>"$OUT/v.txt" || true
  (cd /tmp && tar czf "$OUT/hw_$name.tgz" "hw_$name") ;;
*)
  echo "usage: $0 prepare CARRY_DIR ROWS_JSON SYMSIM_HW | run NAME CUT_S [REPEAT]" >&2; exit 2 ;;
esac
