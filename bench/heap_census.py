#!/usr/bin/env python3
"""Heap blocks live when their total peaked, by call site, from bench/heap_census.c's log.

    bench/heap_census.py CENSUS.log BINARY [frames]

BINARY resolves the program's frames (addr2line); `frames` (default 3) is how much of each stack
names a site.
"""
import collections
import re
import subprocess
import sys


def main(log_path, binary, depth=3):
    lines = open(log_path).read().split('\n')
    live, total, peak, at_peak = {}, 0, 0, {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('A '):
            _, ptr, size = line.split()
            stack = []
            i += 1
            while i < len(lines) and lines[i] != '--':
                stack.append(lines[i])
                i += 1
            live[ptr] = (int(size), tuple(stack[:depth + 1]))
            total += int(size)
            if total > peak:
                peak, at_peak = total, dict(live)
        elif line.startswith('F '):
            gone = live.pop(line.split()[1], None)
            if gone:
                total -= gone[0]
        i += 1
    own = re.compile(r'\(\+(0x[0-9a-f]+)\)')
    offsets = sorted({m.group(1) for _, stack in at_peak.values() for f in stack for m in [own.search(f)] if m})
    names = subprocess.run(['addr2line', '-f', '-C', '-e', binary] + offsets, capture_output=True,
                           text=True).stdout.split('\n')
    name_of = {o: names[2 * k] for k, o in enumerate(offsets)}

    def frame(f):
        m = own.search(f)
        return name_of[m.group(1)] if m else f.split('(')[-1].split(')')[0]

    by_site, blocks = collections.Counter(), collections.Counter()
    for size, stack in at_peak.values():
        site = ' <- '.join(frame(f)[:100] for f in stack[1:depth + 1])  # past operator new / malloc
        by_site[site] += size
        blocks[site] += 1
    print(f'logged blocks live at their peak: {peak / 2**20:.1f} MiB; at the end: {total / 2**20:.1f} MiB')
    for site, size in by_site.most_common(30):
        print(f'{size / 2**20:8.1f} MiB {blocks[site]:6d} blocks  {site}')


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3)
