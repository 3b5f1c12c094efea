#!/bin/bash
# Writes the device question's rows (hw/diff/s29heap_rows.json, s29heap2_rows.json) from the calibration sets:
#   bash hw/diff/results/h200-2026-12-05-s29-D1/make_rows.sh   (repository root)
# Pass A: the multi-warp rows of the copy-round, routing, dispatch_step, pull_step and bulk / plain-load families
# out of 10% on main 49c10c2 (/work/base29/calib-49c.txt), less the never-written (cold / HBM) rows. Pass B: the
# multi-warp rows of those families within 10% on main that s28-route's patch takes out (docs/hw-accuracy.md,
# thirty-fourth pass (s28-route) section 2), and copy_round_warp c4w4. Controls: one-warp rows within 2% of their
# stored value on all nine H200 passes (calib_reproduce.py's readings).
set -euo pipefail
OUT_ROWS="fresh.bulk_load.evicted.7168.128r.c4w4_ns fresh.bulk_load.l2.7168.128r.c4w4_ns fresh.bulk_load.l2.7168.512r.c4w4_ns
 fresh.bulk_load.l2data.7168.512r.c4w4_ns fresh.plain_load.l2.7168.512r.c4w4_ns shim.copy_round.l2.7k.c4w4_ns
 shim.copy_round.l2.7k.c4w1_ns shim.copy_round.l2.7k.c1w4_ns shim.copy_round_2buf.l2.7k.c1w4_ns
 shim.copy_round_other.l2.7k.c1w4_ns shim.copy_round_read.l2.7k.c1w4_ns shim.copy_round_warp.l2.1040.c1w4_ns
 shim.copy_round_warp.l2.4k.c1w4_ns shim.copy_round_warp.l2.7168.c1w4_ns shim.copy_round_warp.l2.7k.c1w2_ns
 shim.dispatch_route.l2.7168.c4w1.none_ns shim.dispatch_route.l2.7168.c4w1.shfl_ns shim.dispatch_route.l2.7168.c4w2.none_ns
 shim.dispatch_route.l2.7168.c4w4.ldg_line_ns shim.dispatch_route.l2.7168.c4w4.ldg_ns shim.dispatch_route.l2.7168.c4w4.ldl1_ns
 shim.dispatch_step.l2.7168.c4w4.code16_ns shim.dispatch_step.l2.7168.c4w4.code32_ns shim.dispatch_step.l2.7168.c4w4.s2_ns
 shim.load_round_warp.l2.7168.c1w4_ns shim.load_round_warp.l2.7168.c1w8_ns shim.pull_step.l2.7k.c1w4.full_ns
 shim.pull_step.l2.7k.c4w4.no_route_ns shim.pull_step.l2.7k.c4w4.route_only_ns
 shim.pull_step.l2.7k.c4w4.rtmapped.slots.outl2.8steps_ns"
IN_ROWS="shim.copy_round_warp.l2.7k.c4w4_ns shim.dispatch_route.l2.7168.c4w1.all_ns shim.dispatch_route.l2.7168.c4w4.all_ns
 shim.dispatch_route.l2.7168.c4w4.all_l1_ns shim.dispatch_route.l2.7168.c4w4.ldl1_line_ns shim.dispatch_route.l2.7168.c4w4.shfl_ns
 shim.dispatch_route.l2.7168.c4w4.none_ns shim.dispatch_step.l2.7168.c4w4.s1_ns shim.dispatch_step.l2.7168.c4w4.s3_ns
 shim.dispatch_step.l2.7168.c4w4.s7_ns shim.dispatch_step.l2data.7168.c4w4.s7_ns shim.dispatch_step.l2data.7168.c4w4.s7.n32_ns
 shim.pull_step.l2.7k.c4w4.mapped_ns shim.pull_step.l2.7k.c4w4.rt_ns shim.pull_step.l2.7k.c4w4.rtmapped_ns
 shim.pull_step.l2.7k.c4w4.rtmapped.wait1_ns shim.pull_step.l2.7k.c4w4.rtmapped.slots_ns
 shim.pull_step.l2.7k.c4w4.rtmapped.slots.wait1_ns shim.pull_step.l2.7k.c4w4.rtmapped.slots.outl2_ns
 shim.pull_step.l2.7k.c4w4.rtmapped.noatomic_ns shim.pull_step.l2.7k.c4w4.rtmapped.pairslots_ns
 shim.pull_step.l2.7k.c4w4.no_src_ns shim.pull_step.l2.7k.c4w4.full_ns"
CONTROLS="shim.dispatch_route.l2.7168.c1w1.none_ns shim.dispatch_step.l2.7168.c1w1.s0_ns fresh.bulk_load.l2.7168.32r.c1w1_ns
 shim.store_round_warp.l2.7168.c1w1_ns"
FREED="shim.dispatch_route.l2.7168.c4w1.none_ns shim.dispatch_route.l2.7168.c4w2.none_ns shim.dispatch_step.l2.7168.c4w4.code32_ns
 shim.load_round_warp.l2.7168.c1w4_ns"
# shellcheck disable=SC2086
python3 hw/diff/heap_rows.py --out hw/diff/s29heap_rows.json $OUT_ROWS --freed $FREED --control $CONTROLS --doc \
  "Issue 19, thirty-fifth pass (s29-heap), pass A: the multi-warp rows of the copy-round, routing, dispatch_step, pull_step and bulk / plain-load families out of 10% on main 49c10c2 (the cold / HBM rows left out: a heap window is the same memory at every repetition, so never-written heap memory is not fresh), each as stored (window in cudaMalloc memory, kept to the run's end) and with kernel.args.heap=1 (the window in the symmetric heap, the same bytes); four also with heap=2 (the cudaMalloc memory given back when the probe returns); first, four one-warp control rows within 2% on the nine H200 passes, as stored. Session 28's call D2 read the multi-warp rows 7-31% shorter in the heap (hot 4 against hot 3), its heap rows flat over the run's repetitions while the cudaMalloc rows climb from the heap's figure: which reference do these rows have?"
# shellcheck disable=SC2086
python3 hw/diff/heap_rows.py --out hw/diff/s29heap2_rows.json $IN_ROWS --doc \
  "Issue 19, thirty-fifth pass (s29-heap), pass B: the multi-warp rows of the same families within 10% on main 49c10c2 that s28-route's patch (hw/diff/unadopted/s28-route-word-use-loop-exit.patch) takes out (they carry the climb), and copy_round_warp c4w4 (no climb on the nine passes), each as stored and with kernel.args.heap=1 (the window in the symmetric heap, the same bytes)."
