#!/usr/bin/env python3
"""An ordering's cost repetition by repetition: one row minus another of the same pass (issue 19,
thirty-sixth pass (s30-sync)).

  release_costs.py HW_DIR [HW_DIR ...] [--pair ENTRY BASELINE ...]

For each pair below whose two entries a folder holds (ID/result.json, symsim-hw run with
SYMSIM_HW_KEEP_REPETITIONS=1), prints the difference of their values repetition by repetition, its
median, and its median over the low and the high repetitions of the first entry's two address groups
(sync_modes.py's split of the relaxed row; '-' when that row has one group). Within a pass a
repetition's window, and so the sync word's address group, is the same for every entry, so the
difference takes the group's step out when both rows carry it alike. --pair (repeatable) names the
pairs instead (the device question's entries of hw/diff/s30sync_rows.json, e.g. --pair
micro_s30_signal_wait_probe_n1 micro_s30_signal_wait_relaxed_n1).
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402
import sync_modes  # noqa: E402

# (what, entry, baseline entry): the cost of the entry's one difference from its baseline.
PAIRS = [
    ("signal red.release.sys - red.relaxed.sys (idle MEMBAR.SYS)", "micro_signal_wait_probe_pe1_ns",
     "micro_signal_wait_relaxed_pe1_ns"),
    ("signal red.release.gpu - red.relaxed.sys (idle MEMBAR.GPU)", "micro_signal_wait_rel_gpu_pe1_ns",
     "micro_signal_wait_relaxed_pe1_ns"),
    ("comm.cuh's signal (red.release.sys) - red.relaxed.sys", "micro_shim_signal_wait_pe1_ns",
     "micro_signal_wait_relaxed_pe1_ns"),
    ("grid sync c1 atom.release.gpu - atom.relaxed.gpu", "micro_grid_sync_probe_c1_ns", "micro_grid_sync_relaxed_c1_ns"),
    ("flag st.release.sys + relaxed poll - relaxed flag", "micro_flag_release_sys_relaxed_load_ns",
     "micro_flag_relaxed_sys_ns"),
    ("flag relaxed store + ld.acquire.sys poll - relaxed flag", "micro_flag_relaxed_store_acquire_sys_ns",
     "micro_flag_relaxed_sys_ns"),
    ("flag st.release.gpu + relaxed poll - relaxed flag", "micro_flag_release_gpu_relaxed_load_ns",
     "micro_flag_relaxed_gpu_ns"),
    ("flag relaxed store + ld.acquire.gpu poll - relaxed flag", "micro_flag_relaxed_store_acquire_gpu_ns",
     "micro_flag_relaxed_gpu_ns"),
    ("flag release / acquire .gpu - relaxed flag", "micro_flag_release_acquire_gpu_ns", "micro_flag_relaxed_gpu_ns"),
    ("flag release / acquire .sys - relaxed flag", "micro_flag_release_acquire_sys_ns", "micro_flag_relaxed_sys_ns"),
]


def reps(folders, entry):
    """The entry's repetitions from the first of the folders that holds it."""
    for d in folders:
        path = os.path.join(d, entry, "result.json")
        if os.path.exists(path):
            return hw_diff.repetition_values(hw_diff.read(path))
    return []


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dirs", nargs="+", help="one pass: every folder of it (a pass's rows may sit in several)")
    p.add_argument("--pair", nargs=2, action="append", metavar=("ENTRY", "BASELINE"))
    a = p.parse_args()
    pairs = [(f"{x} - {y}", x, y) for x, y in a.pair] if a.pair else PAIRS
    for what, entry, base in pairs:
        x, y = reps(a.dirs, entry), reps(a.dirs, base)
        if not x or len(x) != len(y):
            continue
        d = [u - v for u, v in zip(x, y)]
        pat, _ = sync_modes.pattern(y)
        lo = [v for v, g in zip(d, pat) if g == "L"]
        hi = [v for v, g in zip(d, pat) if g == "H"]
        groups = f" L {statistics.median(lo):.0f} H {statistics.median(hi):.0f}" if lo and hi else ""
        print(f"{what:60s} median {statistics.median(d):6.1f}{groups}  [{pat}]")
        print(f"{'':60s} {' '.join(f'{v:.0f}' for v in d)}")


if __name__ == "__main__":
    main()
