# Issue 19, sixteenth pass (b): a set's rows, the GPU (RUN1, RUN2: run_s19d.sh's R/d_run1 and R/d_run2, or c_run*;
# the last repetition's figure) against simulator runs (hw_diff.py sim --set SET --kind micro --out DIR, one DIR each).
# python3 table.py SET RUN1 RUN2 SIM_DIR [SIM_DIR ...]
import json, os, re, sys

def value(f):
    if not os.path.exists(f): return None
    v = [re.search(r"value=([0-9.eE+-]+)", c["detail"]) for c in json.load(open(f))["checks"] if "measured" in c["what"]]
    return float(v[-1].group(1)) if v and v[-1] else None

set_file, runs, sims = sys.argv[1], sys.argv[2:4], sys.argv[4:]
fmt = lambda x: "-" if x is None else f"{x:.4g}"
print("| row | GPU run 1 | GPU run 2 | " + " | ".join(f"sim {i + 1} | / GPU" for i in range(len(sims))) + " |")
print("| --- | ---: | ---: |" + " ---: | ---: |" * len(sims))
for e in json.load(open(set_file))["entries"]:
    g1, g2 = (value(f"{r}/{e['id']}/result.json") for r in runs)
    cells = []
    for d in sims:
        s = value(f"{d}/{e['id']}/result.json")
        cells += [fmt(s), "-" if s is None or not g1 else f"{s / g1:.2f}"]
    print(f"| `{e['row']}` | {fmt(g1)} | {fmt(g2)} | " + " | ".join(cells) + " |")
