#!/usr/bin/env python3
"""Per function and per WQE, across callgrind runs of different sizes: what grows.

    valgrind --tool=callgrind --cache-sim=yes --LL=33554432,16,64 --callgrind-out-file=ep8.cg \
        build/bin/symsim-bench moe bench/scenarios/moe/moe_ep8_direct.json platform.hbm.bytes=2147483648
    valgrind ... --callgrind-out-file=ep32.cg ... moe_ep32_direct.json ...
    bench/callgrind_growth.py ll ep8.cg 16448 ep32.cg 66560      # data LL misses a WQE, largest growth first

The measure is ir (instructions), d1 (D1 misses, reads + writes), ll (data LL misses, reads +
writes) or llw (LL write misses); d1 and ll need runs with --cache-sim=yes. Counts are exclusive,
summed by function name (a recursion level's "'2" suffix is kept), divided by each run's WQEs, and
the rows sorted by last run minus first (the 40 largest growths, then the 10 largest falls). Counts do not depend on the machine's load.
"""
import re
import subprocess
import sys

EVENTS = ['Ir', 'D1mr', 'D1mw', 'DLmr', 'DLmw']
MEASURES = {
    'ir': lambda v: v[0],
    'd1': lambda v: v[1] + v[2],
    'll': lambda v: v[3] + v[4],
    'llw': lambda v: v[4],
}


def per_wqe(path, wqes):
    with open(path, errors='replace') as f:
        has_cache = 'D1mr' in f.read(8192)
    shown = EVENTS if has_cache else EVENTS[:1]
    text = subprocess.run(['callgrind_annotate', '--threshold=100', '--auto=no', '--inclusive=no',
                           '--show=' + ','.join(shown), path], capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in text.splitlines():
        # each column is a number with an optional "(x.x%)" after it, or "."
        m = re.match(r'\s*((?:(?:[\d,]+(?:\s+\([^)]*\))?|\.)\s+){%d})(\S.*)$' % len(shown), line)
        if not m:
            continue
        columns = re.sub(r'\([^)]*\)', ' ', m.group(1)).split()  # the percentages out
        values = [0 if t == '.' else int(t.replace(',', '')) for t in columns]
        name = m.group(2)
        if not name.startswith('PROGRAM TOTALS'):
            name = re.sub(r'^.*?[^:]:(?!:)', '', name, count=1)  # the file (or "???") before the function
            name = re.sub(r'\s*\[[^\]]*\]$', '', name)           # the object file after it
        values += [0] * (len(EVENTS) - len(values))
        old = rows.get(name, [0.0] * len(EVENTS))
        rows[name] = [a + b / wqes for a, b in zip(old, values)]
    return rows


def main():
    args = sys.argv[1:]
    if len(args) < 3 or len(args) % 2 != 1 or args[0] not in MEASURES:
        sys.exit('usage: callgrind_growth.py ir|d1|ll|llw RUN.cg WQES [RUN.cg WQES ...]')
    measure = MEASURES[args[0]]
    runs = [per_wqe(args[i], float(args[i + 1])) for i in range(1, len(args), 2)]
    zero = [0.0] * len(EVENTS)

    def value(run, name):
        return measure(run.get(name, zero))

    names = sorted(set().union(*runs) - {'PROGRAM TOTALS'},
                   key=lambda n: value(runs[0], n) - value(runs[-1], n) if len(runs) > 1 else -value(runs[0], n))
    print(' '.join(f'{value(r, "PROGRAM TOTALS"):12,.1f}' for r in runs), '  (total)')
    shown = names[:40] + [n for n in names[-10:] if n not in names[:40]] if len(runs) > 1 else names[:40]
    for n in shown:  # the 40 largest growths and, across runs, the 10 largest falls
        growth = value(runs[-1], n) - value(runs[0], n)
        print(' '.join(f'{value(r, n):12,.2f}' for r in runs), f'{growth:+10,.2f}' if len(runs) > 1 else '', n[:140])


if __name__ == '__main__':
    main()
