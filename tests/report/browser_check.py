#!/usr/bin/env python3
"""The HTML report opened in a real browser (headless Chromium): a real run's report and a
small sweep's report render every section, every figure decodes, nothing is fetched from
outside the file and the console stays empty.

  browser_check.py SYMSIM SOURCE_DIR WORK_DIR

Exit 0 pass, 1 fail, 77 skipped (no Chromium that runs here, or no matplotlib; the message
says which and how to get it)."""
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
RUN_SECTIONS = ["summary", "expectations", "hazards", "timeline", "links", "latency"]
SWEEP_SECTIONS = ["summary", "sweep-plots", "sweep-table"]
SITE = "kernels/hazards/dst_write_race/dst_write_race_kernel.cpp:21"
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stdout}{p.stderr}")
    return p


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    print("SKIP: no chromium on PATH (Debian: apt-get install chromium; ./dev installs it)")
    sys.exit(SKIP)


def open_in_browser(browser, html, work):
    """The DOM after load, and the browser's console lines."""
    cmd = [browser, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
           "--disable-extensions", "--disable-background-networking", "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0",
           f"--user-data-dir={os.path.join(work, 'chromium-profile')}", "--virtual-time-budget=5000",
           "--dump-dom", "file://" + os.path.abspath(html)]
    if os.geteuid() == 0:
        cmd.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox (CI is root)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=90)
    except subprocess.TimeoutExpired:
        print("SKIP: chromium did not finish in 90 s here")
        sys.exit(SKIP)
    if p.returncode != 0 or "<html" not in p.stdout:
        print(f"SKIP: chromium cannot run here (exit {p.returncode}):\n{p.stderr[-2000:]}")
        sys.exit(SKIP)
    console = [l for l in p.stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
    return p.stdout, console


def section(dom, sid):
    m = re.search(rf'<section id="{sid}">(.*?)</section>', dom, re.S)
    return m.group(1) if m else None


def check_page(browser, html, work, sections, what):
    with open(html) as f:
        text = f.read()
    # Self-contained: every src/href is a data: URI or a fragment, no url(...) in the CSS.
    outside = re.findall(r'(?:src|href)\s*=\s*["\'](?!data:|#)([^"\']*)', text) + re.findall(r"url\(", text)
    check(not outside, f"{what}: refers to something outside the file: {outside[:3]}")
    dom, console = open_in_browser(browser, html, work)
    check(not console, f"{what}: console messages: {console[:5]}")
    for sid in sections:
        body = section(dom, sid)
        check(body is not None and "<h2>" in body and len(body) > 60, f"{what}: section {sid} did not render")
    images = len(re.findall(r"<img ", dom))
    m = re.search(r'<body[^>]*data-images="(\d+)/(\d+)"', dom)
    check(m is not None, f"{what}: the page's load script did not run (no data-images on <body>)")
    if m:
        check(int(m.group(1)) == int(m.group(2)) == images and images > 0,
              f"{what}: {m.group(1)} of {m.group(2)} figures decoded ({images} <img> in the DOM)")
    print(f"{what}: {len(sections)} sections checked, {images} figures, {len(console)} console messages")
    return dom


def main():
    symsim, src, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    browser = chromium()
    python = os.environ.get("SYMSIM_PYTHON", "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else "python3")
    if subprocess.run([python, "-c", "import matplotlib"], capture_output=True).returncode != 0:
        print(f"SKIP: {python} has no matplotlib (Debian: apt-get install python3-matplotlib; ./dev installs it)")
        sys.exit(SKIP)

    # A real run with a hazard, WQEs on several QPs, links and a trace beside its result.json.
    out = os.path.join(work, "run")
    run([symsim, "run", os.path.join(src, "scenarios/hazards/dst_write_race_buggy.json"), "--out", out,
         "--trace", os.path.join(out, "trace.json")])
    html = os.path.join(work, "run.html")
    p = run([symsim, "report", os.path.join(out, "result.json"), "-o", html])
    check("no trace" not in p.stdout, "the trace beside result.json was not picked up")
    dom = check_page(browser, html, work, RUN_SECTIONS, "run report")
    hazards = section(dom, "hazards") or ""
    check(hazards.count("dst_write_race") >= 2, "hazards: the two dst_write_race reports are not listed")
    check(SITE in hazards, f"hazards: the call site {SITE} is not shown")
    check("hazard dst_write_race reported" in (section(dom, "expectations") or ""),
          "expectations: the scenario's expectation is not listed")
    check("pe 0 qp 1.0" in dom or "<img" in (section(dom, "timeline") or ""), "timeline: no figure")

    # A two-point sweep: the table and a plot against the swept message size.
    sweep = os.path.join(work, "sweep.json")
    with open(sweep, "w") as f:
        f.write('{"symsim_sweep": 1, "name": "report_check", "scenarios": ["%s"], '
                '"grid": {"kernel.args.bytes": [512, 65536]}, "set": ["kernel.args.rounds=1"], '
                '"columns": {"pe0_p50_ns": "/stats/pes/0/qps/0/latency_ns/p50"}}'
                % os.path.join(src, "scenarios/udma/udma_put_2pe.json"))
    run([symsim, "sweep", sweep, "--out", os.path.join(work, "sweep"), "--jobs", "1", "--quiet"])
    html = os.path.join(work, "sweep.html")
    run([symsim, "report", os.path.join(work, "sweep"), "-o", html])
    dom = check_page(browser, html, work, SWEEP_SECTIONS, "sweep report")
    plots = section(dom, "sweep-plots") or ""
    check("pe0_p50_ns against kernel.args.bytes" in plots and "sim_time_ns against kernel.args.bytes" in plots,
          "sweep: the plots against kernel.args.bytes are missing")
    check((section(dom, "sweep-table") or "").count("<tr>") == 3, "sweep: the table does not have 2 point rows")

    print("FAILED: %d checks" % len(failures) if failures else "report pages render in Chromium")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
