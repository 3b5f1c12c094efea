#!/usr/bin/env python3
"""Where the time of the AIV-direct MoE dispatch and combine (variant 3) goes, read from a trace.

    tools/moe_aiv_breakdown.py TRACE.json [--markdown]

Every AIV core of a die sends, then receives (kernels/moe/aiv_direct). The kernels mark their
steps on the cores' trace tracks:

  moe pack   load the token (or the received token and run the expert), quantise, and pack it
             as Data-as-Flag blocks in UB (MTE2 + vector pipe), until the vector pipe is done
  moe put    from then until the MTE3 stores of the image into the peers' windows are complete
             (the peers' responses back): post and wire in one (memory semantics, no WQE)
  moe poll   a receiving core waits for a slot's last flag (the data is not there yet)
  moe copy   from the flag seen until the payload is consumed (load, unpack, copy-out or
             weighted add)
  moe sync   dispatch: waiting for every core of the die (after the sends, after the counts)

Per kernel (the spans of one kernel name, every PE; times from the kernel's first core start)
it prints the kernel's length, when the last pack / put / copy ended, and the per-core means of
the time spent in each step (summed over the core's spans, averaged over the cores). "busiest
link" is the fabric link that carried the most wire bytes (payload / fabric.payload_efficiency)
in the kernel's window, over the kernel's length.
"""
import argparse
import json
import sys
from collections import defaultdict

STEPS = ("moe pack", "moe put", "moe poll", "moe copy", "moe sync")


def load(path):
    with open(path) as f:
        t = json.load(f)
    return t["traceEvents"] if isinstance(t, dict) else t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    a = ap.parse_args()
    events = load(a.trace)
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}

    kernels = defaultdict(list)  # kernel -> [(pe, core, start, end)]
    steps = []                   # (pe, core, step, start, end)
    links = []                   # (track, start, end, bytes)
    for e in events:
        if e.get("ph") != "X":
            continue
        track = names.get((e["pid"], e["tid"]), "")
        if e.get("cat") == "core" and track.startswith("aiv "):
            span = (e["pid"], e["tid"], e["ts"], e["ts"] + e["dur"])
            if e["name"] in STEPS:
                steps.append((e["pid"], e["tid"], e["name"], span[2], span[3]))
            elif e["name"].startswith("moe_aiv_"):
                kernels[e["name"]].append(span)
        elif e.get("cat") == "link":
            links.append((e["tid"], e["ts"], e["ts"] + e["dur"], e.get("args", {}).get("bytes", 0)))
    if not kernels:
        sys.exit(f"{a.trace}: no moe_aiv_* kernel spans (a variant 3 run written with --trace?)")

    rows = []
    for kernel, spans in sorted(kernels.items(), key=lambda kv: min(s[2] for s in kv[1])):
        window = {(pe, core): (s, e) for pe, core, s, e in spans}
        t0 = min(s for s, _ in window.values())
        t1 = max(e for _, e in window.values())
        per_core = defaultdict(lambda: defaultdict(float))
        last = defaultdict(lambda: t0)
        for pe, core, step, s, e in steps:
            w = window.get((pe, core))
            if w and w[0] <= s and e <= w[1]:
                per_core[(pe, core)][step] += e - s
                last[step] = max(last[step], e)
        cores = len(window)
        port_bytes = defaultdict(int)
        for track, s, e, b in links:
            if t0 <= s and e <= t1:
                port_bytes[track] += b
        busiest = max(port_bytes.values(), default=0)  # bytes of the busiest link
        rows.append({
            "kernel": kernel, "total_us": t1 - t0, "cores": cores,
            "pack_done_us": last["moe pack"] - t0, "put_done_us": last["moe put"] - t0,
            "copy_done_us": last["moe copy"] - t0,
            **{f"{st.split()[1]}_us_per_core": sum(c[st] for c in per_core.values()) / cores for st in STEPS},
            "wire_gbytes_per_s": busiest / 1e3 / (t1 - t0) if t1 > t0 else 0.0,
        })

    if a.markdown:
        print("| kernel | total us | last pack | last put complete | last copy | per core: pack us | put us | poll us "
              "| copy us | sync us | busiest link, wire GB/s |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['kernel']} | {r['total_us']:.1f} | {r['pack_done_us']:.1f} | {r['put_done_us']:.1f} "
                  f"| {r['copy_done_us']:.1f} | {r['pack_us_per_core']:.1f} | {r['put_us_per_core']:.1f} "
                  f"| {r['poll_us_per_core']:.1f} | {r['copy_us_per_core']:.1f} | {r['sync_us_per_core']:.1f} "
                  f"| {r['wire_gbytes_per_s']:.1f} |")
    else:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
