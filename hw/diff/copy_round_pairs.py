#!/usr/bin/env python3
"""Every kept GPU reading of calib_probe mode 12 (dispatch's send step) at one SM, against the simulator
(issue 19, forty-fourth pass (s38-warp2)).

  copy_round_pairs.py --write-set FILE                 the mode-12 one-CTA entries of every set / rows file,
                                                       for `hw_diff.py sim --set FILE --kind micro`
  copy_round_pairs.py --hw DIR [DIR ...] [--sim DIR ...] [--row-only]

--hw: folders holding symsim-hw result folders (ID/result.json) anywhere below them (the nine H200
passes; hw/diff/results/ with its *.tgz unpacked). A run is one folder of results; the same run
stored twice (identical repetitions) counts once; s24-window's `hw_new*` passes (another read-out
procedure) are left out. A reading's statistic: the median of repetitions 2-5 in a `cudaMalloc`
window (before the procedure's climb), of repetitions 2-11 in the heap, the value if one repetition.

Prints (1) the row `shim.copy_round_warp.l2.7k.c1w2_ns`'s readings (7184 B, two warps, 64 rounds),
repetition by repetition, and their min / median / max per card; (2) unless --row-only, every
(run, size, warps) statistic with each --sim folder's figure and ratio, and per --sim folder the
readings within 10% by warps.
"""
import argparse
import glob
import json
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hw_diff  # noqa: E402

ROW = "shim.copy_round_warp.l2.7k.c1w2_ns"


def entries():
    """Entry id -> entry, mode 12 at one CTA, over every set and rows file (first wins)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(HERE, "*_rows.json")) + glob.glob(os.path.join(HERE, "*_set.json"))):
        for e in hw_diff.load_set(path):
            s = e.get("sets", [])
            if e.get("kind") == "micro" and "kernel.args.mode=12" in s and "kernel.blocks=1" in s:
                out.setdefault(e["id"], e)
    return out


def args(e):
    return {x.split("=")[0].split(".")[-1]: x.split("=", 1)[1] for x in e["sets"]}


def repetitions(result):
    m = result.get("measured", {})
    out = []
    for checks in m.get("checks_by_repetition") or [result.get("checks") or m.get("checks") or []]:
        for c in checks:
            hit = re.search(r"value=([\d.]+)", c.get("detail", "") if isinstance(c, dict) else "")
            if hit:
                out.append(float(hit.group(1)))
    return out


def readings(hw_dirs, ents):
    out, seen = [], set()
    for top in hw_dirs:
        for path in sorted(glob.glob(os.path.join(top, "**", "result.json"), recursive=True)):
            eid = os.path.basename(os.path.dirname(path))
            run = os.path.dirname(os.path.dirname(path))
            if eid not in ents or "hw_new" in os.path.basename(run):
                continue
            try:
                res = json.load(open(path))
            except (OSError, ValueError):
                continue
            v = repetitions(res)
            if not v or tuple(v) in seen:
                continue
            seen.add(tuple(v))
            a = args(ents[eid])
            name = (res.get("measured", {}).get("device") or {}).get("name", "?")
            heap = a.get("heap") == "1"
            stat = v[-1] if len(v) < 3 else statistics.median(v[1:] if heap else v[1:5])
            out.append(dict(run=os.path.relpath(run, os.path.dirname(os.path.abspath(top))).replace("hw_diff_results_", ""), card="H100" if "H100" in name else "H200" if "H200" in name else name,
                            eid=eid, a=a, heap=heap, v=v, stat=stat))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write-set")
    ap.add_argument("--hw", nargs="+", default=[])
    ap.add_argument("--sim", nargs="*", default=[])
    ap.add_argument("--row-only", action="store_true")
    o = ap.parse_args()
    ents = entries()
    if o.write_set:
        json.dump({"doc": "calib_probe mode 12 at one CTA, every entry of hw/diff's sets and rows files "
                          "(written by copy_round_pairs.py --write-set)", "entries": list(ents.values())},
                  open(o.write_set, "w"), indent=1)
        return 0
    rs = readings(o.hw, ents)
    print(f"## `{ROW}`: every kept reading (7184 B, 2 warps, 64 rounds), repetition by repetition\n")
    print("| card | run | memory | repetitions | min | median | max |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: |")
    by_card, early = {}, {}
    for r in sorted(rs, key=lambda r: (r["card"], r["run"])):
        a = r["a"]
        if a.get("bytes") != "7184" or a.get("warps") != "2" or a.get("count") != "64":
            continue
        by_card.setdefault(r["card"], []).extend(r["v"])
        early.setdefault(r["card"], []).extend(r["v"] if r["heap"] else r["v"][:5])
        v = r["v"]
        print(f"| {r['card']} | `{r['run'][-60:]}` | {'heap' if r['heap'] else 'cudaMalloc'} | "
              f"{' '.join(f'{x:.0f}' for x in v)} | {min(v):.1f} | {statistics.median(v):.1f} | {max(v):.1f} |")
    for card, v in sorted(by_card.items()):
        e = early[card]
        print(f"\n{card}: {len(v)} repetitions, min {min(v):.1f}, median {statistics.median(v):.1f}, max {max(v):.1f}; "
              f"before the climb (heap runs whole, `cudaMalloc` runs' repetitions 1-5): {len(e)}, min {min(e):.1f}, "
              f"median {statistics.median(e):.1f}, max {max(e):.1f}")
    if o.row_only:
        return 0
    sims = [(d, {eid: hw_diff.probe_value(hw_diff.read(os.path.join(d, eid, "result.json"))) for eid in ents
                 if os.path.exists(os.path.join(d, eid, "result.json"))}) for d in o.sim]
    print("\n## Every reading's statistic against the simulator (* outside 10%)\n")
    print("| card | bytes | warps | rounds | memory | run | GPU | " + " | ".join(f"`{d}`" for d, _ in sims) + " |")
    print("| --- | ---: | ---: | ---: | --- | --- | ---: |" + " ---: |" * len(sims))
    within = {d: {} for d, _ in sims}
    for r in sorted(rs, key=lambda r: (int(r["a"]["bytes"]), r["a"]["warps"], r["card"], r["run"])):
        cells = []
        for d, s in sims:
            m = s.get(r["eid"])
            if m is None:
                cells.append("-")
                continue
            ok = abs(m / r["stat"] - 1) <= 0.10
            k = within[d].setdefault(r["a"]["warps"], [0, 0])
            k[0] += ok
            k[1] += 1
            cells.append(f"{m:.1f} ({m / r['stat']:.3f}{'' if ok else '*'})")
        print(f"| {r['card']} | {r['a']['bytes']} | {r['a']['warps']} | {r['a'].get('count', '-')} | {'heap' if r['heap'] else 'cudaMalloc'} | "
              f"`{r['run'][-50:]}` | {r['stat']:.1f} | " + " | ".join(cells) + " |")
    for d, k in within.items():
        print(f"\n`{d}` within 10%: " + ", ".join(f"{w} warps {a} of {b}" for w, (a, b) in sorted(k.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
