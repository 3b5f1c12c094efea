#!/usr/bin/env python3
"""Print a cuobjdump -sass address range with each instruction's scheduling control bits
(sm_90: high word bits 41-44 stall cycles, 45 yield, 46-48 write barrier, 49-51 read barrier,
52-57 wait mask) and the range's total of stall cycles.
Usage: sass_ctrl.py FILE.cuobjdump.sass KERNEL_SUBSTRING FIRST_ADDR LAST_ADDR (hex, inclusive)."""
import re
import sys

path, kernel, first, last = sys.argv[1], sys.argv[2], int(sys.argv[3], 16), int(sys.argv[4], 16)
lines = open(path).read().splitlines()
inside = False
total = 0
count = 0
for i, line in enumerate(lines):
    if line.strip().startswith("Function :"):
        inside = kernel in line
    m = re.match(r"\s*/\*([0-9a-f]{4})\*/\s+(.*?);\s*/\* (0x[0-9a-f]{16}) \*/", line)
    if not (inside and m):
        continue
    addr = int(m.group(1), 16)
    if addr < first or addr > last:
        continue
    hi = int(re.search(r"0x[0-9a-f]{16}", lines[i + 1]).group(0), 16)
    stall, yld = (hi >> 41) & 0xF, (hi >> 45) & 1
    wbar, rbar, wait = (hi >> 46) & 7, (hi >> 49) & 7, (hi >> 52) & 0x3F
    total += stall
    count += 1
    bars = ("W%d " % wbar if wbar != 7 else "") + ("R%d " % rbar if rbar != 7 else "") + ("wait%02x" % wait if wait else "")
    print("%04x  stall %2d %s %-8s %s" % (addr, stall, "Y" if yld else " ", bars, m.group(2).strip()))
print("instructions %d, stall cycles %d" % (count, total))
