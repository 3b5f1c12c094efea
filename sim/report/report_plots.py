"""The report's figures, drawn with matplotlib (Debian python3-matplotlib) and returned as PNG
data: URIs, so the HTML file needs nothing beside it and no network."""
import base64
import io
import re

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # noqa: E402

MAX_TIMELINE_ROWS = 96
MAX_SERIES = 12
LINK_BINS = 200
# Deterministic output: no creation date or software version in the PNG metadata.
PNG_METADATA = {"Software": None}


def to_data_uri(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight", metadata=PNG_METADATA)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def natural(text):
    """"qp 10.0" after "qp 2.0": digit runs compare as numbers."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def timeline(trace):
    """One row per PE track (core spans, engine busy) and per QP (its WQEs, post to CQE),
    WQEs coloured by opcode. Returns (data URI, rows drawn, rows in all)."""
    rows = []  # (sort key, label, spans): PEs in order, a PE's core and engine tracks, then its QPs
    for (pe, track), spans in trace.spans.items():
        rows.append(((pe, 0, natural(track)), f"pe {pe} {track}", [(s, d, None) for s, d in spans]))
    for (pe, qp), wqes in trace.wqes.items():
        rows.append(((pe, 1, natural(qp)), f"pe {pe} {qp}", wqes))
    rows = [(label, spans) for _, label, spans in sorted(rows, key=lambda r: r[0])]
    total = len(rows)
    rows = rows[:MAX_TIMELINE_ROWS]
    opcodes = sorted({op for _, spans in rows for _, _, op in spans if op})
    colours = {op: plt.cm.tab10(i % 10) for i, op in enumerate(opcodes)}
    fig, ax = plt.subplots(figsize=(11, 1.2 + 0.28 * max(1, len(rows))))
    for y, (_, spans) in enumerate(rows):
        by_colour = {}
        for start, dur, op in spans:
            by_colour.setdefault(op, []).append((start, max(dur, 1e-6)))
        for op, bars in by_colour.items():
            ax.broken_barh(bars, (y - 0.4, 0.8), facecolors=colours.get(op, "0.55"), alpha=0.6 if op else 0.9)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("simulated time (us)")
    ax.set_xlim(trace.begin_us, trace.end_us)
    if opcodes:
        handles = [plt.Rectangle((0, 0), 1, 1, color=colours[op], alpha=0.6) for op in opcodes]
        ax.legend(handles, opcodes, fontsize=7, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=6, frameon=False)
    ax.grid(axis="x", alpha=0.3)
    return to_data_uri(fig), len(rows), total


def link_utilisation(trace):
    """Busy fraction per time bin of the busiest links. Returns (data URI, links drawn, links)."""
    begin, end = trace.begin_us, trace.end_us
    width = (end - begin) / LINK_BINS
    busy_total = {name: sum(d for _, d in spans) for name, spans in trace.links.items()}
    chosen = sorted(busy_total, key=lambda n: (-busy_total[n], n))[:MAX_SERIES]
    fig, ax = plt.subplots(figsize=(11, 3.6))
    centres = [begin + (i + 0.5) * width for i in range(LINK_BINS)]
    for name in chosen:
        bins = [0.0] * LINK_BINS
        for start_us, dur in trace.links[name]:
            start, stop = start_us - begin, start_us - begin + dur
            for i in range(min(int(start / width), LINK_BINS - 1), min(int(stop / width), LINK_BINS - 1) + 1):
                bins[i] += max(0.0, min(stop, (i + 1) * width) - max(start, i * width))
        ax.plot(centres, [min(1.0, b / width) for b in bins], label=name, linewidth=1.2)
    ax.set_xlabel("simulated time (us)")
    ax.set_ylabel(f"busy fraction ({width:.3g} us bins)")
    ax.set_ylim(0, 1.05)
    ax.set_xlim(begin, end)
    if chosen:
        ax.legend(fontsize=7, ncol=4, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False)
    ax.grid(alpha=0.3)
    return to_data_uri(fig), len(chosen), len(trace.links)


def link_bars(links):
    """Whole-run utilisation per link from result.json's stats (used when there is no trace)."""
    fig, ax = plt.subplots(figsize=(11, 1.2 + 0.22 * max(1, len(links))))
    ax.barh(range(len(links)), [l["utilization"] for l in links])
    ax.set_yticks(range(len(links)), [l["name"] for l in links], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("utilisation over the whole run")
    return to_data_uri(fig)


def latency_cdf(trace):
    """CDF of WQE latency (post or doorbell to CQE) per QP. Returns (data URI, QPs drawn, QPs)."""
    fig, ax = plt.subplots(figsize=(11, 4))
    keys = sorted(trace.wqes)
    for pe, qp in keys[:MAX_SERIES]:
        lat = sorted(d for _, d, _ in trace.wqes[(pe, qp)])
        n = len(lat)
        ax.step(lat, [(i + 1) / n for i in range(n)], where="post", label=f"pe {pe} {qp} ({n} WQEs)")
    if len(keys) > MAX_SERIES:
        pooled = sorted(d for k in keys for _, d, _ in trace.wqes[k])
        n = len(pooled)
        ax.step(pooled, [(i + 1) / n for i in range(n)], where="post", color="black", linewidth=2,
                label=f"all {len(keys)} QPs ({n} WQEs)")
    ax.set_xlabel("WQE latency (us): post to CQE")
    ax.set_ylabel("fraction of WQEs")
    ax.set_ylim(0, 1.02)
    if keys:
        ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3)
    return to_data_uri(fig), min(len(keys), MAX_SERIES), len(keys)


def against_parameter(points, axis, metric, other_axes):
    """`metric` of each sweep point against the numeric grid value `axis`, one line per
    combination of the scenario and the other axes."""
    series = {}
    for p in points:
        x, y = p["params"].get(axis), p["metrics"].get(metric)
        if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
            continue
        label = ", ".join([p["scenario_name"]] + [f"{a}={p['params'].get(a)}" for a in other_axes])
        series.setdefault(label, []).append((x, y))
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    for label in sorted(series)[:MAX_SERIES]:
        pts = sorted(series[label])
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", label=label, linewidth=1.2)
    xs = [x for s in series.values() for x, _ in s]
    if xs and min(xs) > 0 and max(xs) / min(xs) >= 16:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(axis)
    ax.set_ylabel(metric)
    if series:
        ax.legend(fontsize=6, loc="best")
    ax.grid(alpha=0.3)
    return to_data_uri(fig), len(series)
