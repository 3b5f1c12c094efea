#!/bin/bash
# Issue 19, fourteenth pass: one device call. Run from build-dev-nv4 (a copy of branch s15-nv4's tree with
# bin/symsim-hw = this branch's build). Results under R/, 11 repetitions per row: the 1-PE application rows
# as issued (app_none), with each launch held by cuStreamWaitValue32 (app_wait) and by a spin kernel
# (app_spin); s16_set's rows (mode 26: pull's body by the global timer; mode 25) held both ways.
# SYMSIM_HW_HOLD_LAUNCH (hw/runtime/hw_world.h): the stream waits on a host flag before the start
# event; the host writes it once the launch call returned and the stop event is queued.
cd "$(dirname "$0")"
# Every kernel loaded at start: a lazy load at a held launch waits for the held stream (call 1 hung so).
export CUDA_MODULE_LOADING=EAGER
mkdir -p R
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; uname -r; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; } > R/versions.txt
H="python3 hw/diff/hw_diff.py hw --repeat 11 --runner bin/symsim-hw"
for hold in none wait spin; do
  echo "app $hold: $(date -u)" >> R/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=$hold timeout 90 $H --kind app --out R/app_$hold > R/app_$hold.log 2>&1
  echo "  rc $?" >> R/versions.txt
done
for hold in wait spin; do
  echo "micro $hold: $(date -u)" >> R/versions.txt
  SYMSIM_HW_HOLD_LAUNCH=$hold timeout 45 $H --set hw/diff/s16_set.json --kind micro --out R/m_$hold > R/m_$hold.log 2>&1
  echo "  rc $?" >> R/versions.txt
done
echo "end: $(date -u)" >> R/versions.txt
