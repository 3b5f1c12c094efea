#!/usr/bin/env python3
"""s21-dev2's rows: the harness (one window / a new window per launch) against symsim-hw's every repetition
(held launch `wait` and `none`), the stored row and the model.

  table.py R/harness.txt HWDIR SET SIM   (HWDIR: R/hw.tgz unpacked, holding hw_wait/ and hw_none/;
                                          SIM: hw_diff.py sim --set SET --kind micro --out SIM)
"""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import hw_diff  # noqa: E402


def key(sets):
    d = dict(s.split("=", 1) for s in sets)
    return (d["kernel.args.mode"], d["kernel.args.bytes"], d["kernel.blocks"], d["kernel.args.warps"],
            d.get("kernel.args.stride", "0"))


def reps(hwdir, hold, entry_id):
    """Every repetition's value=... reading, in order (the first is symsim-hw's warm-up)."""
    r = hw_diff.read(os.path.join(hwdir, "hw_" + hold, entry_id, "result.json")) or {}
    out = []
    for checks in r.get("measured", {}).get("checks_by_repetition", []):
        for c in checks:
            m = re.match(r"value=([\d.]+) ns", c.get("detail", ""))
            if m:
                out.append(float(m.group(1)))
    return out


def main():
    htxt, hwdir, set_path, sim = sys.argv[1:5]
    harness = {}
    for line in open(htxt):
        m = re.match(r"(\d+) (\d+) (\d+) (\d+) (\d+) alloc (\d) each ([\d. ]+) med ([\d.]+)", line)
        if m:
            harness[m.groups()[:5] + (m.group(6),)] = [float(x) for x in m.group(7).split()]
    table = hw_diff.calib_rows(hw_diff.CALIB_TABLES)
    f = lambda v: "-" if v is None else f"{v:.1f}"
    med = lambda v: statistics.median(v) if v else None
    print("| row | harness, one window: median | harness, new window per launch: median (launch 1 / 11) | "
          "symsim-hw `wait`: last (reported) / median of 2-11 | symsim-hw `none`: last / median of 2-11 | stored row | model |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    per_rep = []
    for e in hw_diff.load_set(set_path):
        k = key(e["sets"])
        one, new = harness.get(k + ("0",), []), harness.get(k + ("1",), [])
        w, n = reps(hwdir, "wait", e["id"]), reps(hwdir, "none", e["id"])
        s = hw_diff.probe_value(hw_diff.read(os.path.join(sim, e["id"], "result.json")))
        stored = table.get(e["row"], [None])[0]
        print(f"| `{e['row']}` | {f(med(one))} | {f(med(new))} ({f(new[0] if new else None)} / {f(new[-1] if new else None)}) | "
              f"{f(w[-1] if w else None)} / {f(med(w[1:]))} | {f(n[-1] if n else None)} / {f(med(n[1:]))} | {f(stored)} | {f(s)} |")
        per_rep.append((e["row"], w, n))
    print("\nsymsim-hw, every repetition in order (1 = warm-up, 11 = the one reported):\n")
    print("| row | hold | repetitions 1..11 (ns) |")
    print("| --- | --- | --- |")
    for row, w, n in per_rep:
        print(f"| `{row}` | wait | {' '.join(f(x) for x in w)} |")
        print(f"| `{row}` | none | {' '.join(f(x) for x in n)} |")


if __name__ == "__main__":
    main()
