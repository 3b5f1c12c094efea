#!/usr/bin/env python3
"""s21-dev's rows: the device harness's medians (R/r.txt, two runs) against the model and the stored row.

  table.py R/r.txt SET SIM   (SIM: hw_diff.py sim --set SET --kind micro --out SIM)
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import hw_diff  # noqa: E402


def key(sets):
    d = dict(s.split("=", 1) for s in sets)
    return (d["kernel.args.mode"], d["kernel.args.bytes"], d["kernel.blocks"], d["kernel.args.warps"],
            d.get("kernel.args.stride", "0"))


def main():
    rtxt, set_path, sim = sys.argv[1:4]
    runs = {}
    for line in open(rtxt):
        m = re.match(r"(\d+) (\d+) (\d+) (\d+) (\d+) med ([\d.]+)", line)
        if m:
            runs.setdefault(m.groups()[:5], []).append(float(m.group(6)))
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    print("| row | GPU run 1 | GPU run 2 | stored row (symsim-hw) | model | model / run 2 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for e in hw_diff.load_set(set_path):
        g = runs.get(key(e["sets"]), [])
        s = hw_diff.probe_value(hw_diff.read(os.path.join(sim, e["id"], "result.json")))
        stored = table.get(e["row"], [None])[0]
        fmt = lambda v: "-" if v is None else f"{v:.1f}"
        ratio = f"{s / g[1]:.2f}" if s and len(g) > 1 else "-"
        print(f"| `{e['row']}` | {fmt(g[0] if g else None)} | {fmt(g[1] if len(g) > 1 else None)} | {fmt(stored)} | "
              f"{fmt(s)} | {ratio} |")


if __name__ == "__main__":
    main()
