#!/usr/bin/env python3
"""The loops that name their loads before use (ptx::LoadsBeforeUse) name what their stored SASS
has (tools/sass-loads/loads_before_use.py on the SASS the device calls dumped)."""
import os
import re
import subprocess
import sys

ROOT = sys.argv[1]
S19B = "hw/diff/results/h200-2026-12-03-s19b-1gpu/sass"
S24 = "hw/diff/results/h200-2026-12-05-s24-window/R"
# kernel source, its SASS, the kernel's function in it (a part of its mangled name; the file may
# hold other kernels), the count the source must name: the largest group the SASS issues before
# a use (the loop body; the tails after it issue fewer)
CASES = [("kernels/nvlink/calib/fresh_rows_probe.cu", f"{S19B}/fresh_rows_probe.sass.gz", ""),
         ("kernels/nvlink/calib/shim_probe.cu", f"{S19B}/shim_probe.sass.gz", ""),
         ("kernels/nvlink/intranode/intranode_combine.cu", f"{S19B}/intranode_combine.sass.gz", ""),
         ("kernels/ibgda/ll/ll_combine.cu", f"{S24}/sass_ll_combine_litmus.txt", "ll_combine")]

failed = False
for source, sass, function in CASES:
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools/sass-loads/loads_before_use.py"), os.path.join(ROOT, sass)],
                         check=True, capture_output=True, text=True).stdout
    counts = [int(line.split()[2]) for line in out.splitlines() if function in line.split()[0]]
    named = [int(n) for n in re.findall(r"LoadsBeforeUse \w+\((\d+)\)", open(os.path.join(ROOT, source)).read())]
    if not counts or named != [max(counts)]:
        print(f"{source}: names {named}, its SASS {sass} issues {counts}")
        failed = True
    else:
        print(f"{source}: {named[0]}, as {sass} ({counts})")
sys.exit(1 if failed else 0)
