# Issue 19, fifteenth pass: hw/diff/s19_set.json's rows, the GPU (R/m_run1, R/m_run2: the last repetition's
# figure) against the simulator before and after (hw_diff.py sim --set hw/diff/s19_set.json --kind micro).
# python3 s19_table.py RESULTS_DIR SIM_BEFORE SIM_AFTER
import json, os, re, sys

def value(f):
    if not os.path.exists(f): return None
    v = [re.search(r"value=([0-9.eE+-]+)", c["detail"]) for c in json.load(open(f))["checks"] if "measured" in c["what"]]
    return float(v[-1].group(1)) if v and v[-1] else None

top, before, after = sys.argv[1:4]
entries = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../s19_set.json")))["entries"]
print("| row | GPU run 1 | GPU run 2 | sim before | before / GPU | sim after | after / GPU |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for e in entries:
    g1, g2 = (value(f"{top}/{r}/{e['id']}/result.json") for r in ("m_run1", "m_run2"))
    b, a = (value(f"{d}/{e['id']}/result.json") for d in (before, after))
    r = lambda s: "-" if s is None or not g1 else f"{s / g1:.2f}"
    print(f"| `{e['row']}` | {g1:.4g} | {g2:.4g} | {b:.4g} | {r(b)} | {a:.4g} | {r(a)} |")
