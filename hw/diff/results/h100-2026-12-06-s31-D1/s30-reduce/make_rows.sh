#!/bin/bash
# Writes session 30's (s30-reduce) device question from the calibration sets (repository root):
#   bash hw/diff/results/h100-2026-12-06-s31-D1/s30-reduce/make_rows.sh
# Pass A (hw/diff/s30reduce_rows.json): the ten multi-warp rows of combine's reduce (mode 13), each as stored
# (window in cudaMalloc memory, kept to the run's end) and with kernel.args.heap=1 (the window in the symmetric heap,
# the same bytes); three also with heap=2 (freed when the probe returns); two one-warp reduce rows as controls.
# Nine of the ten climb over a run on the nine H200 passes (first / last repetition 0.61-0.85, first_rep.py), none was
# read in the heap (session 29's call D1 read the copy / routing / dispatch / pull / load families only).
# Pass B (hw/diff/s30reduce2_rows.json): the other out rows' questions: the slot-atomic pull_step rows whose heap reading
# takes two levels by the repetition (read again, and with the window freed: then the probe's words are the same memory
# at every repetition too); bulk_load.evicted.128r.c4w4 (D1's heap row took its highest repetition); the one-warp out
# rows (pull_step c1w1, copy_round_warp c1w1, bulk_load evicted c1w1) in the heap; pull_phases' two 4 x 4 heap rows
# as stored (hot 4 is the heap already; the stored 512-token value is 1.19-1.23 of the nine passes' readings).
set -euo pipefail
REDUCE="shim.reduce_row.l2.7k.k1.c16w1_ns shim.reduce_row.l2.7k.k1.c2w4_ns shim.reduce_row.l2.7k.k1.c4w2_ns
 shim.reduce_row.l2.7k.k1.c4w4_ns shim.reduce_row.l2.7k.k1.c8w4_ns shim.reduce_row.l2.7k.k8.w16m.c4w4_ns
 shim.reduce_row.l2.7k.k1.c16w4_ns shim.reduce_row.l2.7k.k1.c1w4_ns shim.reduce_row.l2.7k.k1.c4w1_ns
 shim.reduce_row.l2.7k.k8.c4w4_ns"
REDUCE_FREED="shim.reduce_row.l2.7k.k1.c4w4_ns shim.reduce_row.l2.7k.k1.c16w1_ns shim.reduce_row.l2.7k.k8.w16m.c4w4_ns"
REDUCE_CONTROLS="shim.reduce_row.l2.7k.k1.c1w1_ns shim.reduce_row.l2.7k.k8.w16m.c1w1_ns"
OTHER="shim.pull_step.l2.7k.c4w4.no_route_ns shim.pull_step.l2.7k.c4w4.no_src_ns shim.pull_step.l2.7k.c4w4.full_ns
 fresh.bulk_load.evicted.7168.128r.c4w4_ns shim.pull_step.l2.7k.c1w1.full_ns shim.copy_round_warp.l2.7168.c1w1_ns
 fresh.bulk_load.evicted.7168.32r.c1w1_ns"
OTHER_FREED="shim.pull_step.l2.7k.c4w4.no_route_ns shim.pull_step.l2.7k.c4w4.no_src_ns shim.pull_step.l2.7k.c4w4.full_ns"
OTHER_CONTROLS="shim.pull_phases.heap.16tok.h7168 shim.pull_phases.heap.512tok.h7168"
# shellcheck disable=SC2086
python3 hw/diff/heap_rows.py --out hw/diff/s30reduce_rows.json $REDUCE --freed $REDUCE_FREED --control $REDUCE_CONTROLS --doc \
  "Issue 19, thirty-sixth pass (s30-reduce), pass A: the ten multi-warp rows of combine's reduce (mode 13; nine climb over a run on the nine H200 passes, first / last repetition 0.61-0.85), each as stored (window in cudaMalloc memory, kept to the run's end) and with kernel.args.heap=1 (the window in the symmetric heap, the same bytes); three also with heap=2 (the cudaMalloc memory given back when the probe returns); first two one-warp reduce rows as stored (controls, no climb on the nine passes). Which reference do these rows have: do they read flat at their first repetitions' figure in the heap, as session 29's call D1 read the other families?"
# shellcheck disable=SC2086
python3 hw/diff/heap_rows.py --out hw/diff/s30reduce2_rows.json $OTHER --freed $OTHER_FREED --control $OTHER_CONTROLS --doc \
  "Issue 19, thirty-sixth pass (s30-reduce), pass B: the pull_step 4 x 4 rows with the slot atomic (D1 read them in the heap at two levels by the repetition, the same repetitions high as dispatch_step's slot rows) again in both placements and freed (the probe's word and stamp memory then the same at every repetition too: one level would say the word's address sets the level); bulk_load.evicted.128r.c4w4 (D1's heap row is its highest repetition); three one-warp rows out of 10% in both placements; pull_phases' 16 / 512-token heap rows (hot 4) as stored."
