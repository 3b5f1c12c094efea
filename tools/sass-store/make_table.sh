#!/bin/sh
# The bulk-store loops' code a store as tools/sass-store/store_loops.py reads it off the stored
# listings of the kernels that name it (ptx::store_loop_code); writes tools/sass-store/store_loop_cycles.txt.
# tests/source/test_sass_store_loops.py checks the file is this script's output and each kernel's
# named figures are in it.  Run from the repository root: sh tools/sass-store/make_table.sh > tools/sass-store/store_loop_cycles.txt
set -e
echo "# listing, function, the bulk store, its loop and what store_loops.py reads of it (made by tools/sass-store/make_table.sh)"
for f in hw/diff/results/h100-2026-12-05-s28-D1/store/fresh_rows_probe.cuobjdump.sass \
         hw/diff/results/h100-2026-12-05-s28-D1/store/store_chain_probe.cuobjdump.sass \
         hw/diff/results/h200-2026-12-05-s29-D2/calib_probe.cuobjdump.sass \
         hw/diff/results/h200-2026-12-04-s19-sass/sass/tma_code_probe.cuobjdump.sass; do
  python3 tools/sass-store/store_loops.py "$f" | sed "s|^|$f |"
done
