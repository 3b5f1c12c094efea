# Issue 19, fifteenth pass: the 1-PE application rows held (SYMSIM_HW_HOLD_LAUNCH=wait; medians of the 10
# repetitions after the first) in this call and in call 2 of the fourteenth pass, against the simulator
# before and after (hw_diff.py sim --kind app --out DIR; kernel time as hw_diff.py takes it).
# python3 app_table.py THIS_CALL_DIR S18_CALL2_DIR SIM_BEFORE SIM_AFTER
import glob, json, os, statistics as st, sys

def held(f):
    if not os.path.exists(f): return None
    r = [x[0]["ns"] / 1e3 for x in json.load(open(f))["measured"].get("launches_by_repetition", [])[1:] if len(x) == 1]
    return st.median(r) if r else None

def sim(d, name):
    f = f"{d}/{name}/result.json"
    return max(k["max_us"] for k in json.load(open(f))["stats"]["kernels"]) if os.path.exists(f) else None

top, s18, before, after = sys.argv[1:5]
print("| row | held, this call (µs) | held, s18 call 2 (µs) | sim before (µs) | before / held | sim after (µs) | after / held | within 15% after |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
errs = {"before": [], "after": []}
for f in sorted(glob.glob(f"{top}/app_wait/*/result.json")):
    name = os.path.basename(os.path.dirname(f))
    if json.load(open(f))["config"].get("pes", 1) != 1: continue
    h, h18 = held(f), held(f"{s18}/app_wait/{name}/result.json")
    b, a = sim(before, name), sim(after, name)
    if h is None or b is None or a is None: continue
    errs["before"].append(abs(b / h - 1)), errs["after"].append(abs(a / h - 1))
    print(f"| {name} | {h:.1f} | {'-' if h18 is None else f'{h18:.1f}'} | {b:.1f} | {b / h:.2f} | {a:.1f} | {a / h:.2f} | {'yes' if abs(a / h - 1) <= 0.15 else '**no**'} |")
for k, v in errs.items():
    print(f"\n{k}: {sum(e <= 0.15 for e in v)} of {len(v)} within 15%, median |error| {100 * st.median(v):.1f}%")
