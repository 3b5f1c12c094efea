#!/usr/bin/env python3
"""Where the time of a MoE dispatch and combine goes, read from a symsim trace.

    tools/moe_breakdown.py TRACE.json --writers W [--markdown]

The kernels' AIV cores split into roles (docs/moe.md): blocks [0, W) stage (dispatch) or run
the expert (combine) and pack Data-as-Flag blocks, [W, 2W) build WQEs and ring doorbells, the
rest receive. Per kernel (the core spans of one kernel name, every PE) it prints the phases on
the kernel's critical path, from the kernel's first core start:

  packing   until the last stage/expert core has packed its blocks
  send      until the last SQ doorbell of the kernel (WQE build + doorbells)
  wire      until the last byte of the kernel's WQEs has landed
  receive   until the last receiver core is done

and, per WQE, the mean time from its post to its doorbell, from the doorbell to the engine's
fetch, from the fetch to the wire (queued behind earlier WQEs for the HBM port and links), and
on the wire until it landed. A WQE the shim's put wrote is posted when the shim wrote it; one a
SIMT kernel wrote itself (direct drive) is posted at the end of the VF that built it (the
"simt vf" core spans). Direct drive's WQE build is those VFs: their count and mean length on
the writer cores are the "VFs" columns.
"""
import argparse
import json
import sys
from collections import defaultdict


def load(path):
    with open(path) as f:
        t = json.load(f)
    return t["traceEvents"] if isinstance(t, dict) else t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--writers", type=int, required=True, help="stage/expert cores = writer cores per PE")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    a = ap.parse_args()
    events = load(a.trace)

    # Thread names tell which track is which: AIV cores are "aiv N".
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    spans = defaultdict(list)  # kernel -> [(pe, role, start, end)]
    vfs = defaultdict(list)    # pe -> [(start, end)] of SIMT VFs on writer cores
    for e in events:
        if e.get("cat") != "core" or e.get("ph") != "X":
            continue
        track = names.get((e["pid"], e["tid"]), "")
        if not track.startswith("aiv "):
            continue
        block = int(track.split()[1])
        role = "pack" if block < a.writers else "send" if block < 2 * a.writers else "receive"
        if e["name"] == "simt vf":
            if role == "send":
                vfs[e["pid"]].append((e["ts"], e["ts"] + e["dur"]))
            continue
        spans[e["name"]].append((e["pid"], role, e["ts"], e["ts"] + e["dur"]))
    if not spans:
        sys.exit(f"{a.trace}: no AIV core spans (was it written with --trace?)")

    # WQE phases (one "X" per phase, named by the step it starts at), by the posting PE.
    phases = defaultdict(dict)  # (pid, tid, wqe, target) -> {phase: (ts, dur)}
    for e in events:
        if e.get("cat") == "wqe" and e.get("ph") == "X" and e["name"] in ("post", "doorbell", "fetch", "wire", "ack", "cqe"):
            key = (e["pid"], e["tid"], e["args"]["wqe"], e["args"].get("target_pe"))
            phases[key][e["name"]] = (e["ts"], e["dur"])
    by_pe = defaultdict(list)
    for (pid, _, _, _), p in phases.items():
        if "doorbell" in p:
            by_pe[pid].append(p)

    rows = []
    for kernel, ss in sorted(spans.items(), key=lambda kv: min(s[2] for s in kv[1])):
        # PEs run the kernels at different times (one may start combine while another still
        # dispatches): a WQE belongs to the kernel its PE was running when it rang the doorbell.
        window = {}
        for pe, _, a0, a1 in ss:
            w0, w1 = window.get(pe, (a0, a1))
            window[pe] = (min(w0, a0), max(w1, a1))
        t0 = min(w[0] for w in window.values())
        t1 = max(w[1] for w in window.values())
        packed = max((s[3] for s in ss if s[1] == "pack"), default=t0)
        received = max((s[3] for s in ss if s[1] == "receive"), default=t1)
        mine = [p for pe, (w0, w1) in window.items() for p in by_pe[pe] if w0 <= p["doorbell"][0] <= w1]
        bells = sorted(p["doorbell"][0] for p in mine)
        landed = [p["wire"][0] + p["wire"][1] for p in mine if "wire" in p]
        my_vfs = [v1 - v0 for pe, (w0, w1) in window.items() for v0, v1 in vfs[pe] if w0 <= v0 <= w1]

        def mean(name):
            v = [p[name][1] for p in mine if name in p]
            return sum(v) / len(v) if v else 0.0

        rows.append({
            "kernel": kernel, "start_us": t0, "total_us": t1 - t0, "wqes": len(mine),
            "packing_us": packed - t0, "send_us": (bells[-1] if bells else t0) - t0,
            "wire_us": (max(landed) if landed else t0) - t0, "receive_us": received - t0,
            "vfs": len(my_vfs), "vf_us": sum(my_vfs) / len(my_vfs) if my_vfs else 0.0,
            "post_us": mean("post"), "doorbell_us": mean("doorbell"), "fetch_us": mean("fetch"), "on_wire_us": mean("wire"),
        })

    if a.markdown:
        print("| kernel | total us | packing done | last doorbell | last landing | receivers done | WQEs | VFs | VF us "
              "| per WQE: post->doorbell | doorbell->fetch | fetch->wire (queued) | on the wire |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['kernel']} | {r['total_us']:.1f} | {r['packing_us']:.1f} | {r['send_us']:.1f} | {r['wire_us']:.1f} "
                  f"| {r['receive_us']:.1f} | {r['wqes']} | {r['vfs']} | {r['vf_us']:.3f} | {r['post_us']:.3f} "
                  f"| {r['doorbell_us']:.3f} "
                  f"| {r['fetch_us']:.3f} | {r['on_wire_us']:.3f} |")
    else:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
