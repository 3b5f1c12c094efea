#!/usr/bin/env python3
"""The whole accuracy table on one page (issue 19): every calibration row and every application row,
its reference, the simulated figure, the ratio and whether it is in.

  accuracy_table.py --symsim build/bin/symsim --out DIR [--md FILE]
      simulate first: every calibration row into DIR/<set>/ (calib_families.py's runs) and the
      application entries into DIR/app/ (hw_diff.py sim --kind app), then write the table
  accuracy_table.py --out DIR [--md FILE]   the table from the runs already in DIR

Calibration rows are counted exactly as calib_families.py counts them (its code: the same sets, the
same reference, the first calibration table holding the row, and the same 10%); application rows as
hw_diff.py compare --kind app counts them (the GPU's time with all PEs launched, within 15%, only
where each PE had a GPU of its own) against the held runs of session 18 (--hw). The rows still out
take their "why" from the first `| row | ... | why |` table of docs/hw-accuracy.md (the newest
pass's), where it names them. The output depends on the runs and these files only: the header names
the command and the commit of the simulator that made the runs (each result.json's tool.commit).
"""
import argparse
import collections
import io
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import calib_families  # noqa: E402
import hw_diff  # noqa: E402

HELD_APP_RUNS = os.path.join(HERE, "results", "h200-2026-12-03-s18-hold", "call2", "app_wait")
WHY_DOC = os.path.join(ROOT, "docs", "hw-accuracy.md")


def rel(path):
    """PATH from the project root where it is inside it (stable across checkouts)."""
    r = os.path.relpath(os.path.abspath(path), ROOT)
    return path if r.startswith("..") else r


def why_table(path):
    """Row id -> "why" from the first table in PATH whose header is `| row | ... | why |`, and the `## `
    heading it is under."""
    why, heading, col = {}, "", None
    try:
        with open(path) as f:
            lines = f.readlines()
    except OSError:
        return {}, ""
    for line in lines:
        if line.startswith("## ") and not why:
            heading = line[3:].strip()
        if not line.startswith("|"):
            if why:
                break
            col = None
            continue
        cols = [c.strip() for c in line.split("|")]
        if cols[1] == "row" and "why" in cols:
            col = cols.index("why")
        elif col and cols[1].startswith("`") and len(cols) > col:
            why[cols[1].strip("`")] = cols[col]
    return why, heading if why else ""


def tool_commit(path):
    r = hw_diff.read(path)
    return ((r or {}).get("tool") or {}).get("commit", "unknown")


def median_error(errs):
    """calib_families.py's median |error| (the upper median of an even count)."""
    errs = sorted(errs)
    return errs[len(errs) // 2] if errs else None


def pct(x):
    return f"{x * 100:.1f}%" if x is not None else "-"


def num(v):
    return f"{v:.6g}" if v is not None else "-"


def reference_sources(tables):
    """Row id -> the calibration table its reference comes from (the first holding it, as hw_diff.calib_rows)."""
    sources = {}
    for path in tables:
        for row in hw_diff.calib_rows([path]):
            sources.setdefault(row, path)
    return sources


def short_table_name(path):
    """A calibration table's name: its folder under hw/calib/results and file, or its path from the root."""
    results = os.path.join(ROOT, "hw", "calib", "results")
    r = os.path.relpath(os.path.abspath(path), results)
    return rel(path) if r.startswith("..") else r


def calib_rows(out, set_paths, tables):
    """[(family, row, reference, unit, sim, ratio, in, run folder, reference's table)] sorted by family and row."""
    tables = hw_diff.CALIB_TABLES if tables is None else tables
    sources = reference_sources(tables)
    rows = []
    for row, (ref, unit, sim, run) in calib_families.figures(out, set_paths, tables).items():
        r = sim / ref
        rows.append((calib_families.family(row), row, ref, unit, sim, r, abs(r - 1) <= calib_families.TOLERANCE, run,
                     short_table_name(sources[row])))
    return sorted(rows)


def app_rows(sim_dir, hw_dirs, set_path):
    """[(id, PEs, GPUs, measured us, simulated us, like for like)] in the set's order."""
    rows = []
    for e in hw_diff.load_set(set_path):
        if e.get("kind") == "micro":
            continue
        sim = hw_diff.read(os.path.join(sim_dir, e["id"], "result.json"))
        h = hw_diff.read_hw(hw_dirs, e["id"])
        sim_us, hw_us, like = hw_diff.app_times(sim, h)
        pes = h["config"]["pes"] if h else ((sim or {}).get("config") or {}).get("pes", "?")
        gpus = h["measured"]["gpus_used"] if h else "-"
        rows.append((e["id"], pes, gpus, hw_us, sim_us, like))
    return rows


def summary_line(name, n, within, errs, worst):
    w = f"{worst[1]:.3f} (`{worst[0]}`)" if worst else "-"
    return f"| {name} | {n} | {within} | {n - within} | {pct(median_error(errs))} | {w} |"


class NoRuns(Exception):
    """The runs folder holds no calibration row's run: a table of nothing is not written."""


def write(a, out):
    calib = calib_rows(a.out, a.sets, a.calib)
    if not calib:
        raise NoRuns(a.out)
    app = app_rows(a.app_sim, a.hw, a.set)
    why, why_heading = why_table(a.why)
    commits = sorted({tool_commit(os.path.join(a.out, c[7], "result.json")) for c in calib}
                     | {tool_commit(os.path.join(a.app_sim, r[0], "result.json")) for r in app if r[4] is not None})
    p = lambda s="": out.write(s + "\n")

    p("# Accuracy table: every calibration and application row against the H200")
    p()
    p("Generated; do not edit by hand. Regenerate with (from the project root, on a Release build):")
    p()
    p("```")
    p("python3 hw/diff/accuracy_table.py " + shlex.join(a.argv))
    p("```")
    p()
    p(f"Simulator commit (each run's `tool.commit`): {', '.join(f'`{c}`' for c in commits) or '-'}. "
      f"Calibration rows: the runs in the output folder, counted as `hw/diff/calib_families.py` counts them "
      f"(each row once; its reference is the first calibration table holding it, "
      f"{'of `hw_diff.py`' + chr(39) + 's list' if a.calib is None else 'of those given'}: the last column), in when "
      f"sim / reference is within {calib_families.TOLERANCE:.0%}. Application rows: `hw_diff.py compare --kind app` "
      f"against {', '.join(f'`{rel(d)}`' for d in a.hw)} (the GPU's kernel time with all PEs launched, median "
      f"of the repetitions), in when within {hw_diff.APP_TOLERANCE:.0%}; rows whose PEs shared one GPU on the "
      f"hardware compare only their bytes and are not counted. Median |error|: the upper median, as "
      f"`calib_families.py` prints it.")
    p()

    p("## Summary")
    p()
    p("| family | rows | in | out | median \\|error\\| | worst (sim / reference) |")
    p("| --- | ---: | ---: | ---: | ---: | --- |")
    by_family = collections.defaultdict(list)
    for c in calib:
        by_family[c[0]].append(c)

    def line(name, rows):
        worst = max(rows, key=lambda c: (abs(c[5] - 1), c[1]), default=None)
        return summary_line(name, len(rows), sum(c[6] for c in rows), [abs(c[5] - 1) for c in rows],
                            (worst[1], worst[5]) if worst else None)

    for fam in sorted(by_family):
        p(line(f"`{fam}`", by_family[fam]))
    p(line(f"**all calibration rows (within {calib_families.TOLERANCE:.0%})**", calib))
    counted = [r for r in app if r[5] and r[3] and r[4]]
    app_errs = [abs(r[4] / r[3] - 1) for r in counted]
    worst = max(counted, key=lambda r: (abs(r[4] / r[3] - 1), r[0]), default=None)
    p(summary_line(f"**application rows, like for like (within {hw_diff.APP_TOLERANCE:.0%})**", len(counted),
                   sum(e <= hw_diff.APP_TOLERANCE for e in app_errs), app_errs,
                   (worst[0], worst[4] / worst[3]) if worst else None))
    p()

    outside = [c for c in calib if not c[6]]
    p("## Rows still out, and why")
    p()
    if outside:
        head = why_heading if len(why_heading) <= 100 else why_heading[:100] + "..."
        src = f"`{rel(a.why)}`, under \"{head}\"" if why_heading else f"`{rel(a.why)}`"
        p(f"The \"why\" column is the first table of the rows out in {src}; \"-\" where it does not name the row.")
        p()
        p("| row | sim / reference | why |")
        p("| --- | ---: | --- |")
        for c in outside:
            p(f"| `{c[1]}` | {c[5]:.3f} | {why.get(c[1], '-')} |")
    else:
        p("None.")
    out_app = [r for r in counted if abs(r[4] / r[3] - 1) > hw_diff.APP_TOLERANCE]
    for r in out_app:
        p(f"\nApplication row `{r[0]}` out: sim / measured {r[4] / r[3]:.3f}.")
    p()

    p("## Calibration rows by family")
    for fam in sorted(by_family):
        rows = by_family[fam]
        p()
        p(f"### `{fam}`: {sum(c[6] for c in rows)} of {len(rows)} within {calib_families.TOLERANCE:.0%}")
        p()
        p("| row | reference | unit | simulated | sim / reference | in | reference from |")
        p("| --- | ---: | --- | ---: | ---: | --- | --- |")
        for _, row, ref, unit, sim, r, ok, _, source in rows:
            p(f"| `{row}` | {num(ref)} | {unit} | {num(sim)} | {r:.3f} | {'yes' if ok else '**no**'} | {source} |")
    p()

    p("## Application rows")
    p()
    p("| id | PEs / GPUs | measured (us) | simulated (us) | sim / measured | within 15% |")
    p("| --- | --- | ---: | ---: | ---: | --- |")
    for eid, pes, gpus, hw_us, sim_us, like in app:
        ratio = f"{sim_us / hw_us:.3f}" if hw_us and sim_us else "-"
        if not (hw_us and sim_us):
            verdict = "no GPU run" if sim_us else "no simulator run"
        elif not like:
            ratio, verdict = f"({ratio})", "n/a: PEs shared a GPU"
        else:
            verdict = "yes" if abs(sim_us / hw_us - 1) <= hw_diff.APP_TOLERANCE else "**no**"
        f1 = lambda v: f"{v:.1f}" if v is not None else "-"
        p(f"| {eid} | {pes} / {gpus} | {f1(hw_us)} | {f1(sim_us)} | {ratio} | {verdict} |")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="calibration runs (calib_families.py --out); app runs in OUT/app")
    p.add_argument("--symsim", help="simulate first, with this binary")
    p.add_argument("--platform", default="h200")
    p.add_argument("--md", help="write the table here (default: stdout)")
    p.add_argument("--app-sim", help="the application runs (default OUT/app)")
    p.add_argument("--hw", nargs="+", default=[HELD_APP_RUNS], help="the GPU's application runs")
    p.add_argument("--set", default=os.path.join(HERE, "differential_set.json"), help="the application entries")
    p.add_argument("--sets", nargs="+", help="calibration sets (default: calib_families.py's, hw/diff/*_set.json)")
    p.add_argument("--calib", nargs="+", help="calibration tables (default: hw_diff.py's list)")
    p.add_argument("--why", default=WHY_DOC, help="where the rows still out are explained")
    a = p.parse_args(argv)
    a.argv = argv
    a.app_sim = a.app_sim or os.path.join(a.out, "app")
    if a.symsim:
        calib_families.simulate(a.symsim, a.out, a.platform, set_paths=a.sets)
        subprocess.run([sys.executable, os.path.join(HERE, "hw_diff.py"), "sim", "--kind", "app", "--set", a.set,
                        "--symsim", a.symsim, "--platform", a.platform, "--out", a.app_sim],
                       stdout=subprocess.DEVNULL, check=True)
    text = io.StringIO()
    try:
        write(a, text)
    except NoRuns:
        print(f"accuracy_table.py: {a.out}: no calibration runs there (simulate with --symsim BIN)", file=sys.stderr)
        return 2
    if not a.md:
        sys.stdout.write(text.getvalue())
        return 0
    try:
        with open(a.md, "w") as f:
            f.write(text.getvalue())
    except OSError as e:
        print(f"accuracy_table.py: {a.md}: cannot write the table: {e.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
