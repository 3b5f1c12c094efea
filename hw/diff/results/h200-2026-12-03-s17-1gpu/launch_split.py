# Issue 19, thirteenth pass: the launch's events split by the host's wall clock and the kernel's global timer.
# python3 launch_split.py RESULTS_DIR [SIM_APP_DIR]: per row, over the repetitions after the first, the medians of
# the events (E), the host's time inside the launch call (call: after the start event's record to the call's
# return, CLOCK_REALTIME) and E - call; mode 26 rows add the body by the global timer (last repetition) and,
# per run, the first CTA's entry against the host's clock before and after the launch call, less a straight-line
# drift of the global timer against CLOCK_REALTIME (residuals: which host instant the entry follows).
import glob, json, os, re, statistics as st, sys

def load(f):
    r = json.load(open(f))
    m = r["measured"]
    reps = [x for x in m.get("launches_by_repetition", [])[1:] if len(x) == 1]
    return r, m, reps

def one_pe_rows(run, sim=None):
    print(f"\n{run}: | row | E (µs) | call (µs) | E - call (µs) | sim (µs) | sim / E | sim - (E - call) |")
    for f in sorted(glob.glob(f"{run}/*/result.json")):
        r, m, reps = load(f)
        if not reps or r["config"].get("pes", 1) != 1: continue
        E = st.median(x[0]["ns"] / 1e3 for x in reps)
        call = st.median((x[0]["host_realtime_ns"][2] - x[0]["host_realtime_ns"][1]) / 1e3 for x in reps)
        diff = st.median((x[0]["ns"] - x[0]["host_realtime_ns"][2] + x[0]["host_realtime_ns"][1]) / 1e3 for x in reps)
        name = os.path.basename(os.path.dirname(f))
        s = ""
        if sim and os.path.exists(f"{sim}/{name}/result.json"):
            t = max(k["max_us"] for k in json.load(open(f"{sim}/{name}/result.json"))["stats"]["kernels"])  # as hw_diff.py
            s = f" {t:.1f} | {t / E:.2f} | {t - diff:.1f} |"
        print(f"| {name} | {E:.1f} | {call:.1f} | {diff:.1f} |{s}")

def entry_vs_host(run):
    pts = []
    for f in glob.glob(f"{run}/micro_pull_phases*/result.json"):
        r, m, reps = load(f)
        d = [c["detail"] for c in r["checks"] if "phases" in c["what"]][0]
        first, last = (int(re.search(rf"{k} (\d+)", d).group(1)) for k in ("first entry", "last exit"))
        L = m["launches"][0]
        h = L["host_realtime_ns"]
        pts.append((h[1], os.path.basename(os.path.dirname(f)), L["ns"] / 1e3, (h[2] - h[1]) / 1e3, (last - first) / 1e3,
                    (first - h[1]) / 1e3, (first - h[2]) / 1e3))
    pts.sort()
    xs = [(p[0] - pts[0][0]) / 1e9 for p in pts]
    print(f"\n{run} (last repetition): | row | E | call | body (global timer) | E - call - body | entry - record (detrended) | entry - call's return (detrended) |")
    res = {}
    for k in (5, 6):
        slope, icpt = st.linear_regression(xs, [p[k] for p in pts])
        res[k] = [p[k] - (slope * x + icpt) for p, x in zip(pts, xs)]
        print(f"  global timer - CLOCK_REALTIME drift {slope:.1f} us/s; residual sd {st.pstdev(res[k]):.2f} us ({'record' if k == 5 else 'return'})")
    for i, p in enumerate(pts):
        print(f"| {p[1]} | {p[2]:.1f} | {p[3]:.1f} | {p[4]:.2f} | {p[2] - p[3] - p[4]:.1f} | {res[5][i]:+.1f} | {res[6][i]:+.1f} |")

def warps(run, row="micro_pull_phases_heap_512tok_h7168"):
    r = json.load(open(f"{run}/{row}/result.json"))
    d = [c["detail"] for c in r["checks"] if "phases" in c["what"]][0]
    print(f"\n{run} {row}: loop ns per step by warp (CTA-major):{d.split('by warp:')[1]}")

if __name__ == "__main__":
    top, sim = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    for run in sorted(glob.glob(f"{top}/m[0-9]")):
        entry_vs_host(run)
        warps(run)
    for run in sorted(glob.glob(f"{top}/app[0-9]")) + sorted(glob.glob(f"{top}/m[0-9]")):
        one_pe_rows(run, sim if "app" in run else None)
