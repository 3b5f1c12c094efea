#!/usr/bin/env python3
"""The s19r2 set's rows: GPU (two runs) against the model.

  table.py SET RUN1 RUN2 SIM   (SIM: hw_diff.py sim --set SET --kind micro --out SIM)
"""
import json
import os
import sys


def value(d, entry_id):
    try:
        with open(os.path.join(d, entry_id, "result.json")) as f:
            r = json.load(f)
    except (OSError, ValueError):
        return None
    for c in r.get("checks", []):
        if c.get("detail", "").startswith("value="):
            return float(c["detail"].split()[0][len("value="):])
    return None


def main():
    set_path, run1, run2, sim = sys.argv[1:5]
    with open(set_path) as f:
        entries = json.load(f)["entries"]
    print("| row | GPU run 1 | GPU run 2 | model | model / run 2 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    fmt = lambda v: "-" if v is None else f"{v:.1f}"
    for e in entries:
        a, b, s = value(run1, e["id"]), value(run2, e["id"]), value(sim, e["id"])
        ratio = f"{s / b:.2f}" if s and b else "-"
        print(f"| `{e['row']}` | {fmt(a)} | {fmt(b)} | {fmt(s)} | {ratio} |")


if __name__ == "__main__":
    main()
