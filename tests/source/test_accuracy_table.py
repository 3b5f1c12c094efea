#!/usr/bin/env python3
"""hw/diff/accuracy_table.py on a tiny fixture folder written here: two calibration sets, two calibration
tables, four application entries. Each calibration row is counted once (the first set's run), against
the first table holding it, with its ratio and verdict; a row with no reference or no run is left out;
application rows count only like for like; the rows out carry the "why" of the first why-table; the
header names the simulator's commit; the output is the same on a second run."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = sys.argv[1]
SCRIPT = os.path.join(ROOT, "hw", "diff", "accuracy_table.py")


def put(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(obj if isinstance(obj, str) else json.dumps(obj))


def probe_result(value):
    return {"tool": {"commit": "0123456789ab"}, "checks": [{"what": "probe", "ok": True, "detail": f"value={value} ns"}]}


def fixture(d):
    micro = lambda i, row: {"id": i, "kind": "micro", "row": row, "scenario": "-", "sets": []}
    put(f"{d}/sets/a_set.json", {"entries": [micro("m1", "fam.one.r1_ns"), micro("m2", "fam.one.r2_ns"),
                                             {"id": "app_in_a_set", "scenario": "-", "sets": []}]})
    put(f"{d}/sets/b_set.json", {"entries": [micro("m1b", "fam.one.r1_ns"), micro("m3", "other.two.r3"),
                                             micro("m4", "fam.one.no_reference"), micro("m5", "fam.one.r5_no_run")]})
    put(f"{d}/t1.md", "| row | run 1 | run 2 | unit |\n| --- | ---: | ---: | --- |\n"
                      "| `fam.one.r1_ns` | 99 | 100 | ns |\n| `other.two.r3` | 1 | 2000 | ns |\n")
    put(f"{d}/t2.md", "| id | quantity | value | unit |\n| --- | --- | ---: | --- |\n"
                      "| `fam.one.r1_ns` | shadowed | 999 | ns |\n| `fam.one.r2_ns` | x | 50 | ns |\n"
                      "| `fam.one.r5_no_run` | x | 7 | ns |\n")
    put(f"{d}/why.md", "# doc\n\n## Newest pass\n\n| row | sim / reference | why |\n|---|---:|---|\n"
                       "| `fam.one.r2_ns` | 1.2 | the fixture's reason |\n\n## Older pass\n\n"
                       "| row | sim / reference | why |\n|---|---:|---|\n| `other.two.r3` | 1 | stale |\n")
    put(f"{d}/C/a/m1/result.json", probe_result(105))   # 1.05: in
    put(f"{d}/C/a/m2/result.json", probe_result(60))    # 1.2: out
    put(f"{d}/C/b/m1b/result.json", probe_result(500))  # the row's second run: not counted
    put(f"{d}/C/b/m3/result.json", probe_result(1850))  # 0.925: in
    put(f"{d}/C/b/m4/result.json", probe_result(1))     # no reference: left out
    put(f"{d}/app_set.json", {"entries": [{"id": e, "scenario": "-", "sets": []} for e in ("e1", "e2", "e3", "e4")]
                              + [micro("m1", "fam.one.r1_ns")]})
    sim = lambda us: {"tool": {"commit": "0123456789ab"}, "stats": {"kernels": [{"max_us": us}]}}
    hw = lambda ns, pes, gpus: {"sim_time_ns": ns, "config": {"pes": pes},
                                "measured": {"gpus_used": gpus, "median_kernel_span_ns": ns}}
    put(f"{d}/C/app/e1/result.json", sim(11.0))
    put(f"{d}/C/app/e2/result.json", sim(30.0))
    put(f"{d}/C/app/e4/result.json", {"config": {"pes": 2}, **sim(7.0)})  # no GPU run
    put(f"{d}/hw/e1.json", hw(10000, 1, 1))   # like for like: 1.100, in
    put(f"{d}/hw/e2.json", hw(20000, 2, 1))   # PEs shared a GPU: not counted
    put(f"{d}/hw/e3.json", hw(5000, 1, 1))    # no simulator run


def table(d):
    cmd = [sys.executable, SCRIPT, "--out", f"{d}/C", "--sets", f"{d}/sets/a_set.json", f"{d}/sets/b_set.json",
           "--calib", f"{d}/t1.md", f"{d}/t2.md", "--why", f"{d}/why.md", "--hw", f"{d}/hw", "--set", f"{d}/app_set.json"]
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout


def main():
    failures = []

    def expect(line, text):
        if line not in text:
            failures.append(f"missing line: {line}")

    with tempfile.TemporaryDirectory() as d:
        fixture(d)
        text = table(d)
        if table(d) != text:
            failures.append("a second run differs")
        # Bad input: exit 2 with the path named, and no table written.
        for args, named in ((["--out", f"{d}/empty"], f"{d}/empty"),
                            (["--out", f"{d}/C", "--sets", f"{d}/sets/a_set.json", "--calib", f"{d}/t1.md",
                              "--md", f"{d}/missing/table.md"], f"{d}/missing/table.md")):
            r = subprocess.run([sys.executable, SCRIPT] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if r.returncode != 2 or named not in r.stderr or r.stdout:
                failures.append(f"bad input {args}: exit {r.returncode}, stderr {r.stderr!r}")
    expect(f"| `fam.one.r1_ns` | 100 | ns | 105 | 1.050 | yes | {d}/t1.md |", text)
    expect(f"| `fam.one.r2_ns` | 50 | ns | 60 | 1.200 | **no** | {d}/t2.md |", text)
    expect(f"| `other.two.r3` | 2000 | ns | 1850 | 0.925 | yes | {d}/t1.md |", text)
    expect("| `fam.one` | 2 | 1 | 1 | 20.0% | 1.200 (`fam.one.r2_ns`) |", text)
    expect("| `other.two` | 1 | 1 | 0 | 7.5% | 0.925 (`other.two.r3`) |", text)
    expect("| **all calibration rows (within 10%)** | 3 | 2 | 1 | 7.5% | 1.200 (`fam.one.r2_ns`) |", text)
    expect("| **application rows, like for like (within 15%)** | 1 | 1 | 0 | 10.0% | 1.100 (`e1`) |", text)
    expect("| `fam.one.r2_ns` | 1.200 | the fixture's reason |", text)
    expect("| e1 | 1 / 1 | 10.0 | 11.0 | 1.100 | yes |", text)
    expect("| e2 | 2 / 1 | 20.0 | 30.0 | (1.500) | n/a: PEs shared a GPU |", text)
    expect("| e3 | 1 / 1 | 5.0 | - | - | no simulator run |", text)
    expect("| e4 | 2 / - | - | 7.0 | - | no GPU run |", text)
    expect("Simulator commit (each run's `tool.commit`): `0123456789ab`.", text)
    for absent in ("no_reference", "r5_no_run", "stale", "app_in_a_set", "999", "| 500 |"):
        if absent in text:
            failures.append(f"should not be in the table: {absent}")
    if failures:
        print(text)
        print("\n".join(failures))
        return 1
    print("accuracy table: fixture rows, ratios, summaries and why as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
