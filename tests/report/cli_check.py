#!/usr/bin/env python3
"""`symsim report` and `symsim trace diff` on bad input (exit 2 naming the file, the JSON
pointer and what is wrong) and `trace diff` on traces that differ (exit 1 naming the track).

  cli_check.py SYMSIM SOURCE_DIR WORK_DIR"""
import json
import os
import shutil
import subprocess
import sys

failures = []


def expect(cmd, code, *needles):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    missing = [n for n in needles if n not in p.stdout]
    if p.returncode != code or missing:
        failures.append(cmd)
        print(f"FAIL: {' '.join(cmd)}: exit {p.returncode} (want {code}), missing {missing}\n{p.stdout}")
    else:
        print(f"ok: exit {code}: {' '.join(os.path.basename(c) for c in cmd[1:])}")


def write(path, doc):
    with open(path, "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def main():
    symsim, src, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    golden = os.path.join(src, "traces/golden/udma_put_signal_2pe.trace.json")
    out = os.path.join(work, "run")
    subprocess.run([symsim, "run", os.path.join(src, "scenarios/udma/udma_put_signal_2pe.json"), "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "result.json")) as f:
        result = json.load(f)
    with open(golden) as f:
        trace = json.load(f)
    html = os.path.join(work, "r.html")

    # report: bad input
    missing = os.path.join(work, "nothing.json")
    expect([symsim, "report", missing, "-o", html], 2, missing)
    broken = write(os.path.join(work, "broken.json"), '{"symsim": 1,')
    expect([symsim, "report", broken, "-o", html], 2, broken)
    no_status = dict(result)
    del no_status["status"]
    expect([symsim, "report", write(os.path.join(work, "no_status.json"), no_status), "-o", html], 2,
           "no_status.json: /status: missing or not a string")
    bad_hazard = dict(result, hazards=[{"time_ns": 1.0}])
    expect([symsim, "report", write(os.path.join(work, "bad_hazard.json"), bad_hazard), "-o", html], 2,
           "bad_hazard.json: /hazards/0/id: missing or not a string")
    expect([symsim, "report", write(os.path.join(work, "scenario.json"), {"name": "x"}), "-o", html], 2,
           "scenario.json: /symsim: missing")
    os.makedirs(os.path.join(work, "empty"))
    expect([symsim, "report", os.path.join(work, "empty"), "-o", html], 2, "without results.json")
    bad_trace = json.loads(json.dumps(trace))
    bad_trace["traceEvents"][40]["ts"] = "soon"
    expect([symsim, "report", os.path.join(out, "result.json"), "--trace",
            write(os.path.join(work, "bad_trace.json"), bad_trace), "-o", html], 2,
           "bad_trace.json: /traceEvents/40/ts: missing or not a number")
    expect([symsim, "report", os.path.join(out, "result.json"), "-o", os.path.join(work, "no/such/dir/r.html")], 2,
           "no/such/dir")
    if os.path.exists(html):
        failures.append("a report was written from bad input")

    # trace diff: bad input
    expect([symsim, "trace", "diff", golden, os.path.join(out, "result.json")], 2, "/traceEvents: missing")
    expect([symsim, "trace", "diff", golden, golden, "--time-tolerance-pct", "-1"], 2, "--time-tolerance-pct")

    # trace diff: the same, and differences it must find
    expect([symsim, "trace", "diff", golden, golden], 0, "same structure")
    events = trace["traceEvents"]
    wqe = next(i for i, e in enumerate(events) if e.get("ph") == "X" and e.get("name") == "WRITE_WITH_NOTIFY")
    renamed = json.loads(json.dumps(trace))
    renamed["traceEvents"][wqe]["name"] = "READ"
    expect([symsim, "trace", "diff", golden, write(os.path.join(work, "renamed.json"), renamed)], 1,
           'track "pe 0/qp 1.0 sq": slice 0 (WRITE_WITH_NOTIFY at 55.70904 us): named "WRITE_WITH_NOTIFY" vs "READ"')
    dropped = json.loads(json.dumps(trace))
    del dropped["traceEvents"][wqe]
    expect([symsim, "trace", "diff", golden, write(os.path.join(work, "dropped.json"), dropped)], 1,
           'track "pe 0/qp 1.0 sq": 28 slices vs 27')
    shifted = json.loads(json.dumps(trace))
    for e in shifted["traceEvents"]:
        if "ts" in e:
            e["ts"] = round(e["ts"] + 0.3, 6)  # 0.3 us later: about 0.5% of starts near 55-70 us
    shifted_path = write(os.path.join(work, "shifted.json"), shifted)
    expect([symsim, "trace", "diff", golden, shifted_path, "--time-tolerance-pct", "1"], 0, "same structure")
    expect([symsim, "trace", "diff", golden, shifted_path, "--time-tolerance-pct", "0.1"], 1, "more than 0.1% apart")
    no_flow = json.loads(json.dumps(trace))
    no_flow["traceEvents"] = [e for e in no_flow["traceEvents"] if not (e.get("ph") == "f" and e.get("id") == 1)]
    expect([symsim, "trace", "diff", golden, write(os.path.join(work, "no_flow.json"), no_flow)], 1, "flow only in A: s pe 0/aiv 0")

    print(f"FAILED: {len(failures)}" if failures else "all report and trace diff checks hold")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
