#!/bin/bash
# Reads this call's answer (repository root of branch s30-reduce, after `cmake --build build`):
#   bash hw/diff/results/h100-2026-12-06-s31-D1/s30-reduce/read.sh ANSWER_DIR "CARD call Dn (session 30)" TABLE_DIR
# ANSWER_DIR: hw_s30reduce.tgz unpacked (folders hw_s30reduce, hw_s30reduce2). TABLE_DIR: where pass A's heap readings
# go as a calibration table (heap_rows.md, hw_diff.py's format, under the stored rows' ids), e.g.
# hw/calib/results/h200-2026-12-06-s30-Dn; that file then goes into hw_diff.CALIB_TABLES ahead of the stored tables.
# Pass B is printed only (its 4 x 4 rows keep session 29's D1 reference: a second draw is not a better reference).
set -euo pipefail
ans=$1; card=$2; table=$3; sim=${TMPDIR:-/tmp}/s30-reduce-read-sim
mkdir -p "$table"
for f in s30reduce s30reduce2; do
  python3 hw/diff/hw_diff.py sim --set hw/diff/${f}_rows.json --kind micro --symsim build/bin/symsim --out "$sim" >/dev/null
done
python3 hw/diff/heap_compare.py --rows hw/diff/s30reduce_rows.json --hw "$ans/hw_s30reduce" --sim "branch=$sim" \
  --write-table "$table/heap_rows.md" --card "$card"
python3 hw/diff/heap_compare.py --rows hw/diff/s30reduce2_rows.json --hw "$ans/hw_s30reduce2" --sim "branch=$sim"
python3 hw/diff/heap_reps.py "$ans/hw_s30reduce" "$ans/hw_s30reduce2"
