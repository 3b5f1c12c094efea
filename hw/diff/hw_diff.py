#!/usr/bin/env python3
"""Differential test: the same scenarios on the simulator and on a GPU (docs/hw-accuracy.md).

  hw_diff.py sim --symsim build/bin/symsim --out DIR       simulator runs (here)
  hw_diff.py hw  --runner build-hw/bin/symsim-hw --out DIR  GPU runs (on the GPU machine; each launch
                                                           held until its launch call returned: --hold)
  hw_diff.py compare --sim DIR --hw DIR [DIR ...]          markdown tables on stdout: application
                                                           rows, then micro rows (calib_probe) against
                                                           the calibration tables (--calib)

The simulator runs each scenario on the platform given by --platform (default h200, the GPU
measured), written into a copy of the scenario without the scenario's own `overrides` (by default;
--keep-overrides keeps them): those are the litmus scenarios' raised store reorder windows (1-2
us, assumed, chosen so that the simulator shows weak outcomes for bug hunting), which describe no
GPU and delay every release that waits for such a store; the preset's windows are what the
simulator holds for the GPU measured. Its kernel time is the scenario kernel's longest
launch (result.json stats.kernels[].max_us: from the end of the host's launch overhead to the
last thread's exit, the GPU side of the launch included), which is what the GPU's events around
each launch measure. Timing is like for like only where each PE had a GPU of its own on the
hardware (the simulator always gives each PE a GPU); elsewhere only the bytes compare. Several
--hw folders: an entry's result is taken from the first that has it (kept runs are in
hw/diff/results/, one JSON file per entry).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The calibration tables micro rows are compared with; the first table holding a row wins.
CALIB_TABLES = [os.path.join(HERE, "..", "calib", "results", d, f)
                for d, f in (("h200-2026-12-06-s37-keptref", "kept_refs.md"),  # heap rows writing kept cudaMalloc memory (s37-pull)
                             ("h200-2026-12-06-s35-heapmed", "heapmed_refs.md"),  # the heap rows' median repetition (s35-near)
                             ("h200-2026-12-05-s29-D1", "heap_rows.md"),  # multi-warp rows, window in the heap (s29-heap)
                             ("h200-2026-12-06-s32-heapref", "heap_refs.md"),  # the rest with an H200 heap reading
                             ("h200-2026-12-06-s33-syncref", "sync_refs.md"),  # s19b-route2's sync_probe rows (s33-sync)
                             ("h200-2026-12-06-s34-climbref", "climb_refs.md"),  # climbing cudaMalloc rows' first repetition (s34-route)
                             ("h200-2026-12-06-s35-levelref", "level_refs.md"),  # mode 22's cold-window rows' median repetition (s35-dispatch)
                             ("h200-2026-12-05-s27-A", "sync_rows.md"),  # mode 30's current loop, grid sync c64 / c128
                             ("h200-2026-12-05-s24", "flag_probe.md"),  # the flag rows by calib_probe mode 30's old loop
                             ("h200-2026-12-05-s24", "calib_flags.md"),  # rows measured again: before the older ones
                             ("h200-2026-12-04-s19b-warp", "rows.md"),
                             ("h200-2026-12-02", "run2.md"), ("h200-2026-12-02", "tma_sm-16warps-run2.md"),
                             ("h200-2026-12-02-code-cold", "code-cold-run2.md"),
                             ("h200-2026-12-02-code-cold", "tma-mbar-run2.md"),
                             ("h200-2026-12-02-s10-shim", "shim-run1.md"), ("h200-2026-12-02-s10-shim", "shim-run2.md"),
                             ("h200-2026-12-03-s12-shim", "shim-run1.md"))] + [
    os.path.join(HERE, "..", "..", "docs", "hw-calibration.md")]


def load_set(path):
    with open(path) as f:
        return json.load(f)["entries"]


def run(cmd, log, env=None):
    log.write("$ " + " ".join(cmd) + "\n")
    log.flush()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    log.write(p.stdout + f"(exit {p.returncode})\n")
    return p.returncode


def skipped(a, e):
    """Entries not asked for (--only ids, --kind micro|app)."""
    if a.only and e["id"] not in a.only:
        return True
    return bool(a.kind) and (e.get("kind") == "micro") != (a.kind == "micro")


def cmd_sim(a):
    os.makedirs(os.path.join(a.out, "scenarios"), exist_ok=True)
    with open(os.path.join(a.out, "log.txt"), "w") as log:
        for e in load_set(a.set):
            if skipped(a, e):
                continue
            with open(e["scenario"]) as f:
                scenario = json.load(f)
            scenario["platform"] = a.platform
            if not a.keep_overrides:
                scenario.pop("overrides", None)
            path = os.path.join(a.out, "scenarios", e["id"] + ".json")
            with open(path, "w") as f:
                json.dump(scenario, f, indent=2)
            cmd = [a.symsim, "run", path, "--out", os.path.join(a.out, e["id"])]
            for s in e["sets"] + (a.extra_set or []):
                cmd += ["--set", s]
            rc = run(cmd, log)
            print(f"sim {e['id']}: exit {rc}", flush=True)


def gpus_present():
    p = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return sum(line.startswith("GPU ") for line in p.stdout.splitlines())


def gpus_wanted(entry):
    args = entry.get("hw_args", ["--gpus", "1"])
    return int(args[args.index("--gpus") + 1]) if "--gpus" in args else 1


def hold_env(hold):
    """The runner's environment: each launch held until the host's launch call returned (docs/hw.md,
    Timing), so the events time the GPU's launch and the kernel, as the h200 preset's launch is fitted.
    A held launch must not wait on a lazy module load, hence every kernel loaded at the start."""
    env = dict(os.environ)
    env["SYMSIM_HW_HOLD_LAUNCH"] = hold
    if hold != "none":
        env["CUDA_MODULE_LOADING"] = "EAGER"
    return env


def cmd_hw(a):
    os.makedirs(a.out, exist_ok=True)
    present = gpus_present()
    env = hold_env(a.hold)
    with open(os.path.join(a.out, "log.txt"), "w") as log:
        for e in load_set(a.set):
            if skipped(a, e):
                continue
            # An entry meant for several GPUs run on fewer would no longer be like for like.
            if gpus_wanted(e) > present:
                print(f"hw {e['id']}: skipped, needs {gpus_wanted(e)} GPUs, {present} present", flush=True)
                continue
            cmd = ["timeout", str(a.timeout_s + 30), a.runner, "run", e["scenario"], "--out", os.path.join(a.out, e["id"]),
                   "--repeat", str(a.repeat), "--timeout-s", str(a.timeout_s)] + e.get("hw_args", ["--gpus", "1"])
            for s in e["sets"]:
                cmd += ["--set", s]
            rc = run(cmd, log, env)
            print(f"hw {e['id']}: exit {rc}", flush=True)


def read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_hw(dirs, entry_id):
    """The entry's GPU result from the first folder holding it (ID/result.json or ID.json)."""
    for d in dirs:
        for path in (os.path.join(d, entry_id, "result.json"), os.path.join(d, entry_id + ".json")):
            r = read(path)
            if r:
                return r
    return None


def sim_kernel_us(result):
    """The longest kernel launch on the simulator, in us (a scenario runs one kernel; its
    launches may carry their own name, e.g. nvlink_barrier_test)."""
    times = [k["max_us"] for k in result.get("stats", {}).get("kernels", [])]
    return max(times) if times else None


def check_set(result):
    return sorted((c["what"], c["ok"]) for c in result.get("checks", []))


def weak_detail(result):
    for c in result.get("checks", []):
        if "weak outcome in" in c.get("detail", ""):
            return c["detail"].replace("weak outcome in ", "")
    return ""


# A table's measured column, by its header (first match): `| id | quantity | value | unit |`,
# `| row | run 1 | run 2 | unit |`, `| row | GPU | sim ... |`; tables of other shapes hold no rows.
MEASURED_HEADERS = ("value", "run 2", "GPU", "GPU, median of 10")


def calib_rows(paths):
    """Row id -> (value, unit) from calibration tables (first file holding a row wins)."""
    rows = {}
    for path in paths:
        try:
            with open(path) as f:
                lines = f.readlines()
        except OSError:
            continue
        value_col = None
        for line in lines:
            if not line.startswith("|"):
                value_col = None
                continue
            cols = [c.strip() for c in line.split("|")]
            if cols[1] in ("id", "row"):
                value_col = next((cols.index(h) for h in MEASURED_HEADERS if h in cols), None)
                unit_col = cols.index("unit") if "unit" in cols else None
            elif value_col and cols[1].startswith("`") and cols[1].endswith("`") and len(cols) > value_col:
                try:
                    rows.setdefault(cols[1].strip("`"), (float(cols[value_col]), cols[unit_col] if unit_col else "ns"))
                except ValueError:
                    pass
    return rows


def probe_value(result):
    """calib_probe's figure ("value=X unit" in its check) from a result.json."""
    for c in (result or {}).get("checks", []):
        d = c.get("detail", "")
        if d.startswith("value="):
            return float(d.split()[0][len("value="):])
    return None


def probe_value_at(folder, entry_id):
    """probe_value of FOLDER/ENTRY_ID/result.json (None when absent)."""
    return probe_value(read(os.path.join(folder, entry_id, "result.json")))


def repetitions(result):
    """A kept-repetitions result's figure at every repetition (measured.checks_by_repetition; None where one has
    none), [] where it kept none."""
    return [probe_value({"checks": c}) for c in ((result or {}).get("measured") or {}).get("checks_by_repetition") or []]


def repetition_values(result):
    """repetitions() without the repetitions that have no figure."""
    return [v for v in repetitions(result) if v is not None]


def median_repetition(folder, entry_id):
    """A kept-repetitions GPU result's median of repetitions 2..n (the first warms up); its figure when it kept
    fewer than three; None when absent."""
    r = read(os.path.join(folder, entry_id, "result.json"))
    if not r:
        return None
    reps = repetition_values(r)
    if len(reps) > 2:
        return statistics.median(reps[1:])
    return probe_value(r)


def cmd_compare_micro(a, entries):
    rows = calib_rows(a.calib)
    print("\n### Microbenchmark rows (calib_probe re-simulating a calibration row)\n")
    print("| row | calibration value | unit | sim | sim / calibration | hw, same probe | sim / hw probe |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    errs = []
    for e in entries:
        sim = probe_value(read(os.path.join(a.sim, e["id"], "result.json")))
        hw = probe_value(read_hw(a.hw, e["id"]))
        ref, unit = rows.get(e["row"], (None, ""))
        g = lambda v: f"{v:.4g}" if v is not None else "-"
        r1 = f"{sim / ref:.2f}" if sim and ref else "-"
        r2 = f"{sim / hw:.2f}" if sim and hw else "-"
        if sim and ref:
            errs.append(abs(sim - ref) / ref)
        print(f"| `{e['row']}` | {g(ref)} | {unit} | {g(sim)} | {r1} | {g(hw)} | {r2} |")
    if errs:
        print(f"\nCalibration rows re-simulated: {len(errs)}; within 10%: {sum(x <= 0.10 for x in errs)}; "
              f"median |error| {sorted(errs)[len(errs) // 2] * 100:.0f}%, worst {max(errs) * 100:.0f}%.")


def cmd_compare(a):
    entries = load_set(a.set)
    micro = [e for e in entries if e.get("kind") == "micro"]
    app = [e for e in entries if e.get("kind") != "micro"]
    print("### Application rows\n")
    rows = cmd_compare_app(a, app)
    cmd_compare_micro(a, micro)
    return rows


# An application row is in when its like-for-like kernel time is within this of the GPU's.
APP_TOLERANCE = 0.15


def app_times(sim, h):
    """An application entry's simulated kernel time and the GPU's with all PEs launched (us; None where its result
    is absent), and whether they are like for like (each PE had a GPU of its own on the hardware)."""
    sim_us = sim_kernel_us(sim) if sim else None
    hw_us = h["sim_time_ns"] / 1000 if h else None
    return sim_us, hw_us, bool(h) and h["measured"]["gpus_used"] == h["config"]["pes"]


def cmd_compare_app(a, entries):
    rows = []
    print("| id | PEs / GPUs | sim checks | hw checks | received bytes | sim kernel (us) | hw, all PEs launched (us) | sim / hw | error | hw, from first launch (us) | litmus weak (sim; hw) |")
    print("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    errors = []
    for e in entries:
        sim = read(os.path.join(a.sim, e["id"], "result.json"))
        h = read_hw(a.hw, e["id"])
        sim_us, hw_us, like_for_like = app_times(sim, h)
        hw_span_us = h["measured"]["median_kernel_span_ns"] / 1000 if h else None

        def status(r):
            if not r:
                return "no result"
            n = len(r.get("checks", []))
            bad = sum(not c["ok"] for c in r.get("checks", []))
            return f"{n - bad}/{n} ok" if n else r.get("status", "?")

        if sim and h:
            same = check_set(sim) == check_set(h)
            all_ok = all(ok for _, ok in check_set(h)) and all(ok for _, ok in check_set(sim))
            received = "identical" if same and all_ok and check_set(h) else ("differ" if not same else "checks failed")
        else:
            received = "-"
        ratio = f"{sim_us / hw_us:.2f}" if sim_us and hw_us else "-"
        error = f"{(sim_us - hw_us) / hw_us * 100:+.0f}%" if sim_us and hw_us else "-"
        if sim_us and hw_us and like_for_like:
            errors.append(abs(sim_us - hw_us) / hw_us)
        elif sim_us and hw_us:
            ratio, error = f"({ratio})", "n/a"
        pes = h["config"]["pes"] if h else (sim["config"].get("pes", "?") if sim else "?")
        gpus = h["measured"]["gpus_used"] if h else "-"
        weak = ""
        if "litmus" in e["id"]:
            weak = f"{weak_detail(sim) if sim else '-'}; {weak_detail(h) if h else '-'}"
        fmt = lambda v: f"{v:.1f}" if v is not None else "-"
        print(f"| {e['id']} | {pes} / {gpus} | {status(sim)} | {status(h)} | {received} | {fmt(sim_us)} | {fmt(hw_us)} | {ratio} | {error} | {fmt(hw_span_us)} | {weak} |")
        rows.append((e["id"], sim_us, hw_us))
    if errors:
        within = sum(x <= APP_TOLERANCE for x in errors)
        print(f"\nLike-for-like rows (one GPU per PE): {len(errors)}; within 15%: {within}; "
              f"median |error| {sorted(errors)[len(errors) // 2] * 100:.0f}%, worst {max(errors) * 100:.0f}%. "
              "Ratios in parentheses: the PEs shared one GPU on the hardware, so only the bytes compare.")
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["sim", "hw", "compare"])
    p.add_argument("--set", default=os.path.join(HERE, "differential_set.json"))
    p.add_argument("--symsim", default="build/bin/symsim")
    p.add_argument("--platform", default="h200", help="simulated platform preset (sim mode)")
    p.add_argument("--runner", default="build-hw/bin/symsim-hw")
    p.add_argument("--out")
    p.add_argument("--sim")
    p.add_argument("--hw", nargs="+")
    p.add_argument("--repeat", type=int, default=6)
    p.add_argument("--hold", choices=["wait", "spin", "none"],
                   default=os.environ.get("SYMSIM_HW_HOLD_LAUNCH", "wait"),
                   help="hw mode: SYMSIM_HW_HOLD_LAUNCH for the runner (default: the environment's, else wait; "
                        "none: events as issued, the host's launch call inside)")
    p.add_argument("--timeout-s", type=int, default=20)
    p.add_argument("--keep-overrides", action="store_true",
                   help="sim mode: keep the scenarios' own platform overrides (the litmus reorder windows)")
    p.add_argument("--only", nargs="*")
    p.add_argument("--extra-set", action="append", metavar="KEY=V",
                   help="(sim mode) one more --set for every entry, after the entry's own (e.g. platform.sim.quantum_ns=20)")
    p.add_argument("--kind", choices=["micro", "app"], help="only the micro (calib_probe) or the application entries")
    p.add_argument("--calib", nargs="+", help="calibration tables the micro rows are compared with (compare mode)",
                   default=CALIB_TABLES)
    a = p.parse_args()
    if a.mode == "sim":
        cmd_sim(a)
    elif a.mode == "hw":
        cmd_hw(a)
    else:
        cmd_compare(a)


if __name__ == "__main__":
    sys.exit(main())
