#!/usr/bin/env python3
"""A device question: the copy round's growth with the SM's warps and the copy's size (issue 19, thirty-eighth pass
(s32-mode11)).

  s32mode11_rows.py --out hw/diff/s32mode11_rows.json

calib_probe mode 11 (`copy_round`: wait_group 0, load, wait, store, commit), mode 16 (the same with
`wait_group.read 0`) and mode 12 (`copy_round_warp`: two buffers, wait_group 1, the next load issued behind the
warp's own store), one CTA of 1-8 warps at 7168 B, and modes 11 / 12 at 4 warps over the copy's size (2-10 KiB); all
in the symmetric heap (`heap` 1, the multi-warp rows' reference placement since s29-heap), every repetition kept.
The shape of the round against the warps tells a FIFO engine whose warps bunch behind the stores (the round rising by
one store's engine time a warp from two warps on, then N x E) from a queue with random copy times (the closed queue's
smooth mean); the size sweep shows where the 4-warp excess over the model starts (4 KiB rows match the model, 7 KiB
rows are 5-7% over it).
"""
import argparse

import probe_rows

BASE = ["kernel.args.count=64", "kernel.args.window_kib=16384", "kernel.args.hot=1", "kernel.args.heap=1",
        "kernel.args.inflight=1", "kernel.blocks=1"]
FAMILY = {11: "copy_round", 12: "copy_round_warp", 16: "copy_round_read"}


def entry(mode, nbytes, warps):
    fam = FAMILY[mode]
    size = f"{nbytes // 1024}k" if nbytes % 1024 == 0 else str(nbytes)
    return probe_rows.entry(f"shim.{fam}.l2.{size}.c1w{warps}.heap_ns",
                            [f"kernel.args.mode={mode}", f"kernel.args.bytes={nbytes}", f"kernel.args.warps={warps}"] + BASE,
                            f"micro_s32m11_{fam}_{size}_c1w{warps}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    entries = []
    for mode in (11, 12):
        for warps in (1, 2, 3, 4, 5, 6, 8):
            entries.append(entry(mode, 7168, warps))
    for warps in (2, 4, 8):
        entries.append(entry(16, 7168, warps))
    for mode in (11, 12):
        for nbytes in (2048, 4096, 5120, 6144, 8192, 10240):
            entries.append(entry(mode, nbytes, 4))
    doc = ("Issue 19, thirty-eighth pass (s32-mode11): calib_probe modes 11 / 16 / 12 at 7168 B on one SM of 1-8 warps, "
           "and modes 11 / 12 at 4 warps over 2-10 KiB, in the heap; every repetition kept.")
    probe_rows.write(a.out, doc, entries)
    print(f"{a.out}: {len(entries)} entries")


if __name__ == "__main__":
    main()
