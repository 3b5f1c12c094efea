#!/usr/bin/env python3
"""Instructions per WQE from a callgrind profile, by observer and by model component.

    valgrind --tool=callgrind --callgrind-out-file=put.cg build/bin/symsim-bench put --only on \
        kernel.args.rounds=10000 platform.hbm.bytes=4294967296
    bench/callgrind_per_wqe.py put.cg 320000

Observers (checkers, statistics) are counted inclusive of everything their hooks call (their
maps, allocations); components are counted exclusive, by function name. Instruction counts do
not depend on the machine or its load, so they are what a later change is compared with.
"""
import collections
import re
import subprocess
import sys

COMPONENTS = [
    ('checkers', r'symsim::(\w+Checker|CompletionKnowledge|SiteIndex|WriteHistory|HazardLog|CheckerContext|CheckerSet|PerCore|RingFifo|CqeLog|BoundedRing|NodePool|IntervalList|PageMultimap)'),
    ('statistics', r'StatsCollector'),
    ('visibility queue', r'VisibilityQueue'),
    ('doorbell scheduler', r'DoorbellScheduler'),
    ('UDMA engine', r'UdmaEngine|symsim::udma::|decode_eid|HbmPort|Bandwidth'),
    ('fabric', r'Fabric|Link'),
    ('shim + kernel + AIV core', r'symsim::shim::|udma_put_kernel|AivCore|AddressMap|aclshmem'),
    ('SystemC kernel', r'libsystemc'),
    ('malloc/free', r'malloc|_int_free|\bfree\b|operator new|operator delete'),
    ('fmt', r'fmt::'),
    ('libc mem*', r'memmove|memcpy|memset|memcmp'),
    ('std::map (red-black tree)', r'_Rb_tree'),
]


def rows(path, inclusive):
    text = subprocess.run(['callgrind_annotate', '--threshold=100', '--auto=no', '--inclusive=' + ('yes' if inclusive else 'no'), path],
                          capture_output=True, text=True, check=True).stdout
    total = 0
    out = []
    for line in text.splitlines():
        m = re.match(r'\s*([\d,]+) \([^)]*\)\s+(.*)$', line)
        if not m:
            continue
        n = int(m.group(1).replace(',', ''))
        if 'PROGRAM TOTALS' in m.group(2):
            total = n
        else:
            out.append((n, m.group(2)))
    return total, out


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: callgrind_per_wqe.py CALLGRIND_OUT WQES')
    path, wqes = sys.argv[1], float(sys.argv[2])
    total, inclusive = rows(path, True)
    observers = collections.Counter()
    for n, f in inclusive:
        m = re.search(r'symsim::(\w+)::(on_\w+|finish)\(', f)
        if m and m.group(1) not in ('Observer', 'VisibilityQueue'):
            observers[m.group(1)] += n
    components = collections.Counter()
    for n, f in rows(path, False)[1]:
        name = next((c for c, rx in COMPONENTS if re.search(rx, f)), 'other')
        components[name] += n
    print(f'total: {total / wqes:,.0f} instructions per WQE ({total:,} over {wqes:,.0f} WQEs)')
    print('observers, inclusive of their hooks (per WQE):')
    for k, v in observers.most_common():
        if v / wqes >= 5:
            print(f'  {k:34s} {v / wqes:8,.0f}')
    print('components, exclusive (per WQE):')
    for k, v in components.most_common():
        print(f'  {k:34s} {v / wqes:8,.0f}')


if __name__ == '__main__':
    main()
