#!/usr/bin/env python3
"""The golden traces of traces/manifest.json (docs/trace.md, "Reference traces").

  goldens.py replay --symsim BIN ID            run ID's scenario, `symsim trace diff` it with its golden
  goldens.py regenerate --symsim BIN [ID ...]  rewrite the golden files (`./dev traces`)
  goldens.py check                             goldens hold no machine paths; hardware folders are whole
  goldens.py ids                               the golden ids, one a line (for CMake)

A golden is the trace of `symsim run SCENARIO --set ... [--trace-pes ...]` with every source path
in it made relative to the repository (hazard details name call sites; a build with a compiler
cache writes them as ../../kernels/..., another build as /abs/path/kernels/...)."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MANIFEST = os.path.join(HERE, "manifest.json")
# A source path as a call site prints it: any ../ or /absolute/ prefix before a top folder.
SOURCE_PATH = re.compile(r"(?:(?:\.\./)+|/(?:[^\s\"':()]+/)*?)((?:kernels|sim|models|tools|tests|bench|hw)/[\w./+-]+)")
MACHINE_PATH = re.compile(r"\"/(?:work|home|root|tmp|usr|build)/|\.\./")


def manifest():
    with open(MANIFEST) as f:
        return json.load(f)


def entry(ident):
    for e in manifest()["golden"]:
        if e["id"] == ident:
            return e
    sys.exit(f"goldens.py: no golden {ident!r} in {MANIFEST}")


def golden_path(ident):
    return os.path.join(HERE, "golden", ident + ".trace.json")


def run_trace(symsim, e, out_dir):
    """Runs the entry's scenario; returns the trace path. The run's own verdict does not matter
    here (a buggy hazard scenario passes by reporting its hazard), only that it ran."""
    trace = os.path.join(out_dir, "trace.json")
    cmd = [symsim, "run", os.path.join(ROOT, e["scenario"]), "--out", out_dir, "--trace", trace]
    for s in e.get("set", []):
        cmd += ["--set", s]
    if "trace_pes" in e:
        cmd += ["--trace-pes", e["trace_pes"]]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode not in (0, 1) or not os.path.exists(trace):
        sys.stderr.write(p.stdout + f"goldens.py: {' '.join(cmd)} exited {p.returncode}\n")
        sys.exit(2)
    return trace


def normalise(text):
    return SOURCE_PATH.sub(r"\1", text)


def cmd_replay(a):
    e = entry(a.id)
    with tempfile.TemporaryDirectory(prefix="symsim-golden-") as tmp:
        trace = run_trace(a.symsim, e, tmp)
        tol = str(manifest()["time_tolerance_pct"])
        p = subprocess.run([a.symsim, "trace", "diff", golden_path(a.id), trace, "--time-tolerance-pct", tol])
        if p.returncode == 1:
            print(f"the trace of {a.id} differs from traces/golden/{a.id}.trace.json. If the model change is "
                  "intended, regenerate the goldens with ./dev traces and commit them (docs/trace.md).")
        return p.returncode


def cmd_regenerate(a):
    ids = a.ids or [e["id"] for e in manifest()["golden"]]
    for ident in ids:
        with tempfile.TemporaryDirectory(prefix="symsim-golden-") as tmp:
            with open(run_trace(a.symsim, entry(ident), tmp)) as f:
                text = normalise(f.read())
        with open(golden_path(ident), "w") as f:
            f.write(text)
        print(f"wrote traces/golden/{ident}.trace.json ({len(text)} bytes)")
    return cmd_check(a)


def cmd_check(_):
    m, bad = manifest(), []
    for e in m["golden"]:
        path = golden_path(e["id"])
        if not os.path.exists(path):
            bad.append(f"{path}: missing (./dev traces writes it)")
            continue
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if MACHINE_PATH.search(line):
                    bad.append(f"{path}:{n}: a machine-specific path: {line.strip()[:160]}")
    wanted = {e["id"] for e in m["golden"]}
    for name in sorted(os.listdir(os.path.join(HERE, "golden"))):
        if name.endswith(".trace.json") and name[: -len(".trace.json")] not in wanted:
            bad.append(f"traces/golden/{name}: not in the manifest")
    for h in m["hardware"]:
        with open(os.path.join(ROOT, h["set"])) as f:
            entries = {e["id"] for e in json.load(f)["entries"]}
        folder = os.path.join(ROOT, h["folder"])
        results = {n[:-5] for n in os.listdir(folder) if n.endswith(".json")} - set(h.get("probes", []))
        for r in sorted(results - entries):
            bad.append(f"{h['folder']}/{r}.json: not an entry of {h['set']}")
    for line in bad:
        print(line)
    if not bad:
        print(f"{len(m['golden'])} goldens without machine paths; {len(m['hardware'])} hardware folders match their sets")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replay")
    r.add_argument("--symsim", required=True)
    r.add_argument("id")
    g = sub.add_parser("regenerate")
    g.add_argument("--symsim", required=True)
    g.add_argument("ids", nargs="*")
    sub.add_parser("check")
    sub.add_parser("ids")
    a = ap.parse_args()
    if a.cmd == "ids":
        print("\n".join(e["id"] for e in manifest()["golden"]))
        return 0
    return {"replay": cmd_replay, "regenerate": cmd_regenerate, "check": cmd_check}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
