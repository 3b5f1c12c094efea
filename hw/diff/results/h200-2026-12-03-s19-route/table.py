# Issue 19, sixteenth pass (c): hw/diff/s19e_set.json's rows, the GPU (RUN1, RUN2: run_s19e.sh's R/e_run1 and
# R/e_run2, the last repetition's figure) against a simulator run (hw_diff.py sim --set hw/diff/s19e_set.json --kind
# micro --out SIM); then each routing row less its shape's `none` row (the part's cost a token), GPU run 2 and model.
# python3 table.py SET RUN1 RUN2 SIM
import json, os, re, sys

def value(f):
    if not os.path.exists(f): return None
    v = [re.search(r"value=([0-9.eE+-]+)", c["detail"]) for c in json.load(open(f))["checks"] if "measured" in c["what"]]
    return float(v[-1].group(1)) if v and v[-1] else None

set_file, run1, run2, sim = sys.argv[1:5]
fmt = lambda x: "-" if x is None else f"{x:.4g}"
rows = []
for e in json.load(open(set_file))["entries"]:
    g1, g2, s = (value(f"{d}/{e['id']}/result.json") for d in (run1, run2, sim))
    rows.append((e["row"], g1, g2, s))
print("| row | GPU run 1 | GPU run 2 | model | model / GPU run 2 |")
print("| --- | ---: | ---: | ---: | ---: |")
for row, g1, g2, s in rows:
    print(f"| `{row}` | {fmt(g1)} | {fmt(g2)} | {fmt(s)} | {'-' if s is None or not g2 else f'{s / g2:.2f}'} |")
base = {r.rsplit(".", 1)[0]: (g2, s) for r, g1, g2, s in rows if r.endswith(".none_ns")}
print("\n| shape | part | GPU − none | model − none | model − GPU |")
print("| --- | --- | ---: | ---: | ---: |")
for row, g1, g2, s in rows:
    shape = row.rsplit(".", 1)[0]
    if shape not in base or row.endswith(".none_ns") or None in (g2, s, *base[shape]): continue
    dg, ds = g2 - base[shape][0], s - base[shape][1]
    print(f"| {shape.rsplit('.', 1)[1]} | {row.rsplit('.', 1)[1][:-3]} | {dg:.0f} | {ds:.0f} | {ds - dg:+.0f} |")

# The rows as docs/hw-calibration.md's table (value: GPU run 2, which hw_diff.calib_rows reads).
WHAT = {"none": "the bare round", "all": "the routing (ldg, division, shuffles), packed table",
        "all_line": "the routing, one line a token", "all_l1": "the routing with a plain (L1) load",
        "ldg": "the ldg alone, packed", "ldg_line": "the ldg alone, one line a token",
        "ldl1": "a plain ld.global alone, packed", "ldl1_line": "a plain ld.global alone, one line a token",
        "div": "the division alone", "shfl": "the shuffle loop alone", "ldg_div": "the ldg and the division",
        "div_shfl": "the division and the shuffles"}
print("\n| row | what | value | unit | run 1 | sim | sim / value |")
print("| --- | --- | ---: | --- | ---: | ---: | ---: |")
for row, g1, g2, s in rows:
    if not row.startswith("shim.dispatch_route."): continue
    what = f"{row.split('.')[4]}: {WHAT[row.rsplit('.', 1)[1][:-3]]}"
    print(f"| `{row}` | {what} | {fmt(g2)} | ns | {fmt(g1)} | {fmt(s)} | {'-' if s is None or not g2 else f'{s / g2:.2f}'} |")
