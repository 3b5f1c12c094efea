#!/usr/bin/env python3
"""Writes the HTML report of one run or one sweep (docs/report.md). `symsim report` runs this
after checking its inputs; it is not meant to be called by hand.

  symsim_report.py --result RESULT.json [--trace TRACE.json] --out REPORT.html
  symsim_report.py --sweep SWEEP_DIR --out REPORT.html

One self-contained file: CSS inline, figures as PNG data: URIs, no script or font from
anywhere else. A short inline script records, in <body data-images>, how many figures the
browser decoded (the report test reads it)."""
import argparse
import html
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    import report_plots as plots
except ImportError as e:  # matplotlib missing
    sys.stderr.write(f"symsim report: needs matplotlib for Python 3 ({e}); on Debian: apt-get install python3-matplotlib\n")
    sys.exit(3)
from report_trace import Trace  # noqa: E402

CSS = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1150px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
table { border-collapse: collapse; font-size: .85em; margin: .5em 0; }
td, th { border: 1px solid #ccc; padding: .2em .5em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; } .ok { color: #1a7f37; } .bad { color: #c62828; font-weight: bold; }
.note { color: #555; font-size: .9em; } img { max-width: 100%; } code { font-size: .95em; }
"""
# Counts decoded figures; no console output, so any console message in the test is an error.
SCRIPT = """
window.addEventListener('load', function () {
  var imgs = document.querySelectorAll('img'), ok = 0;
  for (var i = 0; i < imgs.length; ++i) if (imgs[i].complete && imgs[i].naturalWidth > 0) ++ok;
  document.body.setAttribute('data-images', ok + '/' + imgs.length);
});
"""

esc = html.escape


def cell(value):
    """A table cell's text: nothing for a missing value (a point that did not run)."""
    return "" if value is None else esc(str(value))


def table(header, rows):
    out = ["<table>"]
    if header:
        out.append("<tr>" + "".join(f"<th>{esc(str(h))}</th>" for h in header) + "</tr>")
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>")
    return "\n".join(out) + "</table>"


def section(sid, title, body):
    return f'<section id="{sid}"><h2>{esc(title)}</h2>\n{body}\n</section>'


def figure(uri, alt):
    return f'<img src="{uri}" alt="{esc(alt)}">'


def ok_cell(ok):
    return '<span class="ok">holds</span>' if ok else '<span class="bad">FAILS</span>'


def page(title, sections):
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>'
            f"<style>{CSS}</style></head>\n<body>\n<h1>{esc(title)}</h1>\n" + "\n".join(sections) +
            f"\n<script>{SCRIPT}</script>\n</body></html>\n")


def run_summary(r, trace_path):
    cfg = r.get("config", {})
    platform = cfg.get("platform", {})
    platform = platform.get("name") if isinstance(platform, dict) else platform
    totals = r.get("stats", {}).get("totals", {})
    tool = r.get("tool", {})
    status = r["status"]
    rows = [("status", f'<span class="{"ok" if status == "pass" else "bad"}">{esc(status)}</span>'),
            ("simulated time", f"{r['sim_time_ns'] / 1000:.3f} us"),
            ("platform", esc(str(platform))), ("PEs", esc(str(cfg.get("pes", "")))),
            ("kernel", esc(str(cfg.get("kernel", {}).get("name", "")))), ("seed", esc(str(r.get("seed", "")))),
            ("WQEs / bytes / doorbells / CQEs",
             esc(" / ".join(str(totals.get(k, "")) for k in ("wqes", "bytes", "doorbells", "cqes")))),
            ("hazards", str(len(r.get("hazards", [])))),
            ("built by", esc(f"{tool.get('name', 'symsim')} {tool.get('version', '?')} (commit {tool.get('commit', '?')})")),
            ("trace", esc(os.path.basename(trace_path)) if trace_path else "none (run with --trace for the timeline, "
             "link-over-time and latency-CDF figures)")]
    return section("summary", "Summary", table(None, [(esc(k), v) for k, v in rows]))


def expectations(r):
    rows = [(esc(e["what"]), ok_cell(e["ok"]), esc(e.get("detail", ""))) for e in r.get("expectations", [])]
    stated = {(e["what"], e.get("detail", "")) for e in r.get("expectations", [])}
    # Host checks not already listed among the expectations (Ascend runs list each in both).
    checks = [(esc(c["what"]), ok_cell(c["ok"]), esc(c.get("detail", ""))) for c in r.get("checks", [])
              if (c["what"], c.get("detail", "")) not in stated]
    body = table(["expectation", "", "detail"], rows) if rows else '<p class="note">The scenario states no expectations.</p>'
    if checks:
        body += "<h3>Host checks</h3>" + table(["check", "", "detail"], checks)
    return section("expectations", "Expectations", body)


def hazards(r):
    hz = r.get("hazards", [])
    if not hz:
        return section("hazards", "Hazards", '<p class="note">No hazard was reported.</p>')
    rows = []
    for h in hz:
        where = " ".join(f"{k} {h[k]}" for k in ("pe", "qp", "wqe") if k in h)
        seen = "observed" if h.get("observed", True) else "not observed (timing hid it)"
        rows.append((f"<code>{esc(h['id'])}</code>", esc(where), esc(str(h.get("addr", ""))),
                     f"{h.get('time_ns', 0) / 1000:.3f} us", f"<code>{esc(str(h.get('site', '')))}</code>",
                     esc(seen), esc(h.get("detail", ""))))
    return section("hazards", f"Hazards ({len(hz)})",
                   table(["id", "where", "address", "time", "call site", "", "detail"], rows))


def timeline(trace):
    if trace is None:
        return section("timeline", "Timeline per PE and QP",
                       '<p class="note">No trace: run <code>symsim run SCENARIO --trace DIR/trace.json</code> '
                       "and pass <code>--trace</code> for a timeline.</p>")
    if not trace.spans and not trace.wqes:
        return section("timeline", "Timeline per PE and QP",
                       '<p class="note">The trace holds no core, engine or WQE span (an NVLink-only NVIDIA run '
                       "records its links only, below).</p>")
    uri, drawn, total = plots.timeline(trace)
    note = "" if drawn == total else f'<p class="note">The first {drawn} of {total} rows.</p>'
    return section("timeline", "Timeline per PE and QP",
                   '<p class="note">Core and engine busy spans, and each WQE from post (or doorbell) to its CQE, '
                   "coloured by opcode.</p>" + figure(uri, "timeline") + note)


def links(r, trace):
    stats = r.get("stats", {}).get("links", []) + r.get("stats", {}).get("nvlink", [])
    body = ""
    if trace is not None and trace.links:
        uri, drawn, total = plots.link_utilisation(trace)
        body += figure(uri, "link utilisation over time")
        body += f'<p class="note">The {drawn} busiest of {total} links.</p>'
    elif stats:
        body += '<p class="note">No link spans in a trace: whole-run utilisation from result.json.</p>'
        body += figure(plots.link_bars(stats), "link utilisation")
    rows = [(esc(l["name"]), f"{l.get('utilization', 0):.4f}", esc(str(l.get("bytes", ""))),
             esc(str(l.get("messages", l.get("transfers", ""))))) for l in stats]
    body += table(["link", "utilisation", "bytes", "messages"], rows) if rows else '<p class="note">No links.</p>'
    return section("links", "Link utilisation over time", body)


def latency(r, trace):
    body = ""
    if trace is not None and trace.wqes:
        uri, drawn, total = plots.latency_cdf(trace)
        body += figure(uri, "WQE latency CDF")
        if drawn < total:
            body += f'<p class="note">{drawn} of {total} QPs drawn, and all of them pooled.</p>'
    elif trace is not None:
        body += '<p class="note">The trace holds no WQE.</p>'
    rows = []
    for pe in r.get("stats", {}).get("pes", []):
        for q in pe.get("qps", []):
            lat = q.get("latency_ns", {})
            rows.append([esc(str(pe["pe"])), esc(str(q.get("qp", ""))), esc(str(q.get("wqes", "")))] +
                        [esc(str(lat.get(k, ""))) for k in ("p50", "p90", "p99", "max")])
    body += table(["PE", "QP", "WQEs", "p50 ns", "p90 ns", "p99 ns", "max ns"], rows) if rows else \
        '<p class="note">No QP.</p>'
    return section("latency", "WQE latency per QP", body)


def run_report(args):
    with open(args.result) as f:
        r = json.load(f)
    trace = Trace(args.trace) if args.trace else None
    sections = [run_summary(r, args.trace), expectations(r), hazards(r), timeline(trace), links(r, trace),
                latency(r, trace)]
    return page(f"symsim report: {r['scenario']}", sections)


def sweep_report(args):
    with open(os.path.join(args.sweep, "results.json")) as f:
        s = json.load(f)
    axes = s.get("grid_keys", [])
    columns = s.get("columns", [])
    points = []
    for p in s["points"]:
        metrics = {"sim_time_ns": p.get("sim_time_ns"), "wqes": p.get("wqes")}
        metrics.update(p.get("columns", {}))
        points.append({"params": p.get("params", {}), "metrics": metrics,
                       "scenario_name": os.path.splitext(os.path.basename(p["scenario"]))[0]})
    passed = sum(p["status"] == "pass" for p in s["points"])
    tool = s.get("tool", {})
    summary = table(None, [("sweep", esc(s.get("name", ""))), ("points", f"{len(s['points'])} of {s.get('points_total')}"),
                               ("passed", f"{passed}"), ("partial", esc(json.dumps(s["partial"])) if "partial" in s else "no"),
                               ("built by", esc(f"symsim {tool.get('version', '?')} (commit {tool.get('commit', '?')})"))])
    header = ["index", "scenario"] + axes + ["status", "sim time ns", "WQEs", "bytes", "hazards"] + columns
    rows = []
    for p in s["points"]:
        status = p["status"]
        rows.append([str(p["index"]), esc(p["scenario"])] + [cell(p["params"].get(a)) for a in axes] +
                    [f'<span class="{"ok" if status == "pass" else "bad"}">{esc(status)}</span>',
                     cell(p.get("sim_time_ns")), cell(p.get("wqes")), cell(p.get("bytes")),
                     esc(";".join(p.get("hazards") or []))] + [cell(p.get("columns", {}).get(c)) for c in columns])
    figs = []
    swept = [a for a in axes if a != "seed" and
             len({v for p in points for v in [p["params"].get(a)] if isinstance(v, (int, float))}) >= 2]
    for axis in swept:
        for metric in ["sim_time_ns"] + columns:
            uri, n = plots.against_parameter(points, axis, metric, [a for a in axes if a != axis])
            if n:
                figs.append(f"<h3>{esc(metric)} against {esc(axis)}</h3>" + figure(uri, f"{metric} against {axis}"))
    plots_body = "\n".join(figs) if figs else '<p class="note">No numeric grid axis with two or more values.</p>'
    sections = [section("summary", "Summary", summary), section("sweep-plots", "Against the swept parameters", plots_body),
                section("sweep-table", "Points", table(header, rows))]
    return page(f"symsim sweep report: {s.get('name', '')}", sections)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--result")
    ap.add_argument("--trace")
    ap.add_argument("--sweep")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    text = sweep_report(args) if args.sweep else run_report(args)
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
