#!/usr/bin/env python3
"""ns a store (calib_probe mode 1 rows: bytes / GB/s) or a row (store_chain rows: ns / count) for each
row and pass of this call, over every kept repetition: median, min, max.
Usage: read_ns.py DIR (where hw_s29count.tgz was unpacked: DIR/hw_s29count_{1,2}/ROW/result.json)."""
import json
import os
import re
import statistics
import sys

root = sys.argv[1]
for p in ("hw_s29count_1", "hw_s29count_2"):
    for row in sorted(os.listdir(os.path.join(root, p))):
        path = os.path.join(root, p, row, "result.json")
        if not os.path.exists(path):
            continue
        d = json.load(open(path))
        args = d["config"]["kernel"]["args"]
        values, unit = [], None
        for rep in d["measured"]["checks_by_repetition"]:
            for c in rep:
                m = re.search(r"value=([\d.]+) (\S+)", c["detail"])
                if m:
                    values.append(float(m.group(1)))
                    unit = m.group(2)
        # GB/s rows: one store of `bytes` each; ns rows: `count` rows in the figure.
        per = (lambda v: args["bytes"] / v) if unit == "GB/s" else (lambda v: v / args["count"])
        ns = sorted(per(v) for v in values)
        print("%s %-48s %-5s reps %2d  ns median %6.1f  min %6.1f  max %6.1f" %
              (p[-1], row, unit, len(ns), statistics.median(ns), ns[0], ns[-1]))
