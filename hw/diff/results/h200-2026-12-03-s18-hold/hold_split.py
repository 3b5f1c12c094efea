# Issue 19, fourteenth pass: the launch's events with and without the hold (SYMSIM_HW_HOLD_LAUNCH).
# python3 hold_split.py RESULTS_DIR SIM_APP_DIR: per 1-PE application row, the medians over the repetitions
# after the first of the events as issued (app_none; and the host's launch call in them), held by
# cuStreamWaitValue32 (app_wait) and by a spin kernel (app_spin), the model's time and its ratios; then per
# held mode-26 row (m_wait, m_spin) the events less pull's body by the global timer (last repetition): the
# GPU's own launch cost.
import glob, json, os, re, statistics as st, sys

def reps(f):
    m = json.load(open(f))["measured"]
    return [x[0] for x in m.get("launches_by_repetition", [])[1:] if len(x) == 1]

def med(f, key):
    r = reps(f) if os.path.exists(f) else []
    return st.median(key(x) for x in r) if r else None

def fmt(v):
    return "-" if v is None else f"{v:.1f}"

def app(top, sim):
    print("| row | as issued (µs) | call (µs) | issued - call (µs) | sim - (issued - call) (µs) | held: wait (µs) | held: spin (µs) | sim (µs) | sim / issued | sim / wait | sim / spin |")
    for f in sorted(glob.glob(f"{top}/app_none/*/result.json")):
        name = os.path.basename(os.path.dirname(f))
        if json.load(open(f))["config"].get("pes", 1) != 1 or not reps(f): continue
        E = {h: med(f"{top}/app_{h}/{name}/result.json", lambda x: x["ns"] / 1e3) for h in ("none", "wait", "spin")}
        call = med(f, lambda x: (x["host_realtime_ns"][2] - x["host_realtime_ns"][1]) / 1e3)
        less = med(f, lambda x: (x["ns"] - x["host_realtime_ns"][2] + x["host_realtime_ns"][1]) / 1e3)
        s = f"{sim}/{name}/result.json"
        t = max(k["max_us"] for k in json.load(open(s))["stats"]["kernels"]) if os.path.exists(s) else None  # as hw_diff.py
        ratio = lambda e: "-" if e is None or t is None else f"{t / e:.2f}"
        print(f"| {name} | {fmt(E['none'])} | {fmt(call)} | {fmt(less)} | {fmt(None if t is None else t - less)} | {fmt(E['wait'])} | {fmt(E['spin'])} | {fmt(t)} | {ratio(E['none'])} | {ratio(E['wait'])} | {ratio(E['spin'])} |")

def mode26(top, hold):
    print(f"\n{hold}: | row | events (µs) | body (µs) | events - body (µs) |")
    for f in sorted(glob.glob(f"{top}/m_{hold}/micro_pull_phases*/result.json")):
        r = json.load(open(f))
        if r["status"] != "pass": continue
        d = [c["detail"] for c in r["checks"] if "phases" in c["what"]][0]
        first, last = (int(re.search(rf"{k} (\d+)", d).group(1)) for k in ("first entry", "last exit"))
        L = r["measured"]["launches"][0]
        print(f"| {os.path.basename(os.path.dirname(f))} | {L['ns'] / 1e3:.1f} | {(last - first) / 1e3:.2f} | {L['ns'] / 1e3 - (last - first) / 1e3:.1f} |")

if __name__ == "__main__":
    app(sys.argv[1], sys.argv[2])
    for hold in ("wait", "spin"):
        mode26(sys.argv[1], hold)
