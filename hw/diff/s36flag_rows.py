#!/usr/bin/env python3
"""s36-flag's device question (issue 19): which word the own-atomic flag row's high address group needs, 22 repetitions.

  python3 hw/diff/s36flag_rows.py   writes hw/diff/s36flag_rows.json (part A) and s36flag_beside_rows.json (part B)

`flag.relaxed_gpu.own_atomic.one_way_ns` reads two levels set by the repetition's window (the plain relaxed flag's
~237 ns, and ~364: docs/hw-accuracy.md, thirty-fourth pass (s28-sync)); the acquire own-atomic rows read none. Mode 30
as the row's set runs it, beside: the poller's atomic 4 / 256 B after its flag (the same 32 B sector, another 128 B
line: inflight + 64 / 128) and, in an 8 KiB window beside the row's probe there, 4096 B after it (the next 4 KiB,
+ 192), the own atomic with a relaxed.sys and a volatile poll, with a
release store and a relaxed poll, with a relaxed store and an acquire.gpu poll (each with its twin without the
atomic), and mode 3's dependent atomics on the initiator's flag word itself (stride = the 1 KiB window), the atomic's
own latency at that address, repetition by repetition. Read with `python3 hw/diff/sync_modes.py DIR`: which entries
share the row's L / H pattern, and by how much (forty-second pass (s36-flag)).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_rows  # noqa: E402

ROW = "flag.relaxed_gpu.own_atomic.one_way_ns"


def flag(inflight, window_kib=1):
    return ["kernel.args.mode=30", "kernel.args.bytes=16", f"kernel.args.inflight={inflight}", "kernel.args.warps=1",
            "kernel.args.count=1000", f"kernel.args.window_kib={window_kib}", "kernel.args.hot=1", "kernel.blocks=2"]


def main():
    plain = probe_rows.entry("flag.relaxed_gpu.one_way_ns", flag(2), "micro_s36_flag_relaxed_gpu")
    own = probe_rows.entry(ROW, flag(10), "micro_s36_flag_own_atomic")
    # Part A: main's symsim-hw runs these as meant.
    a = [
        plain, own,
        probe_rows.entry(ROW, flag(10, 8), "micro_s36_flag_own_atomic_w8"),
        probe_rows.entry("flag.relaxed_sys.one_way_ns", flag(0 + 8), "micro_s36_flag_relaxed_sys_own_atomic"),
        probe_rows.entry("flag.volatile.one_way_ns", flag(4 + 8), "micro_s36_flag_volatile_own_atomic"),
        probe_rows.entry("flag.release_acquire_gpu.one_way_ns", flag(3 + 32), "micro_s36_flag_release_gpu_relaxed_load"),
        probe_rows.entry("flag.release_acquire_gpu.one_way_ns", flag(3 + 32 + 8), "micro_s36_flag_release_gpu_relaxed_load_own_atomic"),
        probe_rows.entry("flag.release_acquire_gpu.one_way_ns", flag(3 + 16), "micro_s36_flag_relaxed_store_acquire_gpu"),
        probe_rows.entry("flag.release_acquire_gpu.one_way_ns", flag(3 + 16 + 8), "micro_s36_flag_relaxed_store_acquire_gpu_own_atomic"),
        probe_rows.entry("atomic.latency.l2_ns", ["kernel.args.mode=3", "kernel.args.count=1000", "kernel.args.window_kib=1",
                                                 "kernel.args.hot=1", "kernel.args.stride=1024"], "micro_s36_atomic_chain_flag_word"),
        probe_rows.entry(ROW, flag(10), "micro_s36_flag_own_atomic_again"),
    ]
    # Part B: the branch's flag_probe.cu (inflight + 64 / 128 / 192), with the row's probe and the plain flag beside.
    b = [
        plain, own,
        probe_rows.entry(ROW, flag(10 + 64), "micro_s36_flag_own_atomic_at4"),
        probe_rows.entry(ROW, flag(10 + 128), "micro_s36_flag_own_atomic_at256"),
        probe_rows.entry(ROW, flag(10, 8), "micro_s36_flag_own_atomic_w8"),
        probe_rows.entry(ROW, flag(10 + 192, 8), "micro_s36_flag_own_atomic_at4096_w8"),
    ]
    doc = __doc__.split("\n\n")[2].replace("\n", " ")
    probe_rows.write(os.path.join(HERE, "s36flag_rows.json"), doc + " Part A (main's symsim-hw).", a)
    probe_rows.write(os.path.join(HERE, "s36flag_beside_rows.json"), doc + " Part B (the branch's flag_probe.cu).", b)
    print(f"{len(a)} + {len(b)} entries")


if __name__ == "__main__":
    main()
