#!/usr/bin/env python3
"""The s22-window call's three passes against the stored rows, per family and kind (README's tables).

  families.py HW_DIR     HW_DIR: where R/hw.tgz was unpacked (hw_new1, hw_base, hw_new2)

Kinds as table.py: `single` (one warp, one CTA), `multi`, `symsim-calib` (rows stored from symsim-calib's
tables, measured here by calib_probe: controls of the other procedure). Readings: base `last` (the
repetition the stored rows took), base median of repetitions 2-11, new = the median of both new passes'
repetitions 2-11 (table.py's `new`). Cells: within 10% / within 5% of the stored value, and the median |dev|.
Last, per pass and kind, the climb over the repetitions: (median of 7-11 - median of 2-4) / median of 2-11.
"""
import collections
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
S22W = os.path.join(HERE, "..", "h200-2026-12-04-s22-window")
sys.path.insert(0, S22W)
import table  # noqa: E402  (s22-window's table.py: readings, multi, sources, SYMSIM_CALIB, hw_diff)


def main():
    hw = sys.argv[1]
    entries = table.hw_diff.load_set(os.path.join(table.ROOT, "hw", "diff", "s22w_rows.json"))
    stored, where = table.hw_diff.calib_rows(table.hw_diff.CALIB_TABLES), table.sources()
    devs = collections.defaultdict(list)  # (kind, family, reading) -> |dev| list
    climb = collections.defaultdict(list)  # (kind, pass) -> (climb, spread 2-11) per row
    for e in entries:
        if e["row"] not in stored:
            continue
        ref = stored[e["row"]][0]
        kind = ("symsim-calib" if where.get(e["row"], "").endswith(table.SYMSIM_CALIB)
                else "multi" if table.multi(e) else "single")
        fam = ".".join(e["row"].split(".")[:2])
        got = {p: table.readings(os.path.join(hw, "hw_" + p), e["id"]) for p in ("base", "new1", "new2")}
        pool = [x for p in ("new1", "new2") if got[p] for x in got[p][1:]]
        for p, v in got.items():
            if v and len(v) == 11:
                m = statistics.median(v[1:])
                climb[(kind, p)].append(((statistics.median(v[6:]) - statistics.median(v[1:4])) / m,
                                         (max(v[1:]) - min(v[1:])) / m))
        vals = {"base last": got["base"][-1] if got["base"] else None,
                "base median 2-11": statistics.median(got["base"][1:]) if got["base"] and len(got["base"]) > 1 else None,
                "new": statistics.median(pool) if pool else None}
        for name, v in vals.items():
            if v is not None:
                for f in (fam, "all"):
                    devs[(kind, f, name)].append(abs(v / ref - 1))
    names = ("base last", "base median 2-11", "new")
    for kind in ("single", "multi", "symsim-calib"):
        print(f"\n**{kind}**\n\n| family | rows | " + " | ".join(f"{n}: 10% / 5% (median dev)" for n in names) + " |")
        print("| --- | ---: |" + " ---: |" * len(names))
        fams = sorted({f for k, f, _ in devs if k == kind and f != "all"}) + ["all"]
        for f in fams:
            cells = []
            for n in names:
                d = devs.get((kind, f, n), [])
                cells.append(f"{sum(x <= 0.10 for x in d)} / {sum(x <= 0.05 for x in d)} ({statistics.median(d) * 100:.1f}%)"
                             if d else "-")
            print(f"| {'`' + f + '`' if f != 'all' else 'all'} | {len(devs.get((kind, f, names[0]), []))} | " + " | ".join(cells) + " |")

    print("\n| kind | pass | rows | median climb 2-4 -> 7-11 | rows climbing > 3% | falling > 3% | median spread 2-11 |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for (kind, p), c in sorted(climb.items()):
        print(f"| {kind} | {p} | {len(c)} | {statistics.median(x for x, _ in c) * 100:.1f}% | {sum(x > 0.03 for x, _ in c)} | "
              f"{sum(x < -0.03 for x, _ in c)} | {statistics.median(y for _, y in c) * 100:.1f}% |")


if __name__ == "__main__":
    main()
