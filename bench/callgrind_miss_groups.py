#!/usr/bin/env python3
"""Data LL misses a WQE by data structure, across callgrind runs of different sizes (MoE by EP).

    valgrind --tool=callgrind --cache-sim=yes --LL=33554432,16,64 --callgrind-out-file=ep8.cg \\
        build/bin/symsim-bench moe bench/scenarios/moe/moe_ep8_direct.json kernel.args.tokens=32 \\
        platform.hbm.bytes=1073741824
    valgrind ... --callgrind-out-file=ep32.cg ... moe_ep32_direct.json ...
    bench/callgrind_miss_groups.py ep8.cg 4160 ep32.cg 17408      # a Markdown table, one column a run

Counts are exclusive data LL misses (reads + writes) divided by each run's WQEs. libc's mem* functions
are shared out by their callers (a memcpy is the payload it copies: landing units, MTE copies, an early
write's old bytes), and memcmp under SparseRegion::is_zero by is_zero's callers, in proportion to their
inclusive misses; every other function goes to the group its name matches (GROUPS, first match). Set
MISS_GROUPS_OTHERS=1 to list the largest functions left in "other". Counts do not depend on the load.
"""
import os
import re
import subprocess
import sys

# (group, pattern on the function name; "mem<CALLER" for libc mem* by caller), first match wins.
GROUPS = [
    ('old bytes of early writes (before_write)',
     r'mem<.*(before_write|keep_forced_old|_M_assign_aux<unsigned char const|_M_range_insert<unsigned char const)'
     r'|keep_forced_old'),
    ('host program: its checks and copies', r'mem<.*(moe_host|host\(|aclrtMemcpy|make_rank_input|make_token)'),
    ('zero tests of copies (is_zero from force / settle_due)', r'mem<.*is_zero'),
    ('forced copies landing now (memcpy in force)', r'mem<.*VisibilityQueue::force'),
    ('landing units into the receivers\' windows (settle_due)', r'mem<.*settle_due'),
    ('MTE copies GM <-> UB landed at issue (copy_blocks_at)', r'mem<.*copy_blocks_at'),
    ('zero pages: neighbour scans (store_zeros)', r'mem<.*store_zeros'),
    ('kernels\' own code on UB (numerics, packing)',
     r'moe_combine_kernel|moe_dispatch_kernel|accumulate_wide|forward_wide|moe_aiv'),
    ('host program, rest (inputs, reference)', r'moe::|moe_host|aclrt'),
    ('checkers (records, rings, indexes)',
     r'Checker|CheckerSet|RingFifo|PageMultimap|CompletionKnowledge|QpTable|note_poll|pipe_sync_at|FlagBefore|classify'),
    ('visibility queue (entries, heap, lanes)', r'VisibilityQueue|VisibilityHeap|ChunkIndex|MemoryWatch'),
    ('SystemC (timed queue, processes)', r'sc_core|sc_dt'),
    ('malloc / free', r'malloc|_int_free|free$|cfree'),
]

NUM = r'([\d,]+|\.)(?:\s+\([^)]*\))?'
ROW = re.compile(r'\s*' + r'\s+'.join([NUM] * 3) + r'\s+([<*])\s+(.*)$')


def count(text):
    return 0 if text == '.' else int(text.replace(',', ''))


def functions(path, wqes):
    """(name, LL misses a WQE) per function, mem* split by caller as 'mem<CALLER'."""
    text = subprocess.run(['callgrind_annotate', '--inclusive=no', '--tree=caller', '--show=Ir,DLmr,DLmw',
                           '--threshold=100', path], capture_output=True, text=True, check=True).stdout
    out, callers, zero_test_callers = [], [], []
    for line in text.splitlines():
        m = ROW.match(line)
        if not m:
            callers = []
            continue
        _, reads, writes, kind, name = m.groups()
        name = re.sub(r'\s*\[[^\]]*\]$', '', name)  # the object file
        misses = count(reads) + count(writes)
        if kind == '<':  # a caller of the function that follows, with its inclusive cost
            callers.append((name, misses))
            continue
        if 'SparseRegion::is_zero' in name:
            zero_test_callers = callers
        if re.search(r'__mem(cpy|cmp|move|set)', name):
            for caller, m_caller in callers:
                out.append(('mem<' + caller, m_caller / wqes))
            out.append((name + ' (callers not shown)', (misses - sum(c[1] for c in callers)) / wqes))
        else:
            out.append((name, misses / wqes))
        callers = []
    # memcmp under is_zero, shared out by is_zero's own callers
    under = [o for o in out if o[0].startswith('mem<') and 'is_zero' in o[0]]
    if under and zero_test_callers:
        total = sum(c[1] for c in zero_test_callers) or 1
        misses = sum(o[1] for o in under)
        out = [o for o in out if o not in under]
        out += [('mem<is_zero<' + c, misses * m / total) for c, m in zero_test_callers]
    return out


def group(name):
    for g, pattern in GROUPS:
        if re.search(pattern, name):
            return g
    return 'other'


def main():
    args = sys.argv[1:]
    if len(args) < 2 or len(args) % 2:
        sys.exit('usage: callgrind_miss_groups.py RUN.cg WQES [RUN.cg WQES ...]')
    runs, others = [], {}
    for path, wqes in zip(args[::2], args[1::2]):
        groups = {'total': 0.0}
        for name, misses in functions(path, float(wqes)):
            g = group(name)
            groups[g] = groups.get(g, 0.0) + misses
            groups['total'] += misses
            if g == 'other':
                others[name] = others.get(name, 0.0) + misses
        runs.append(groups)
    print('| LL misses a WQE | ' + ' | '.join(args[::2]) + ' |')
    print('|---|' + '---:|' * len(runs))
    for g in ['total'] + [g for g, _ in GROUPS] + ['other']:
        print(f'| {g} | ' + ' | '.join(f'{r.get(g, 0.0):,.1f}' for r in runs) + ' |')
    if os.environ.get('MISS_GROUPS_OTHERS'):
        for name, misses in sorted(others.items(), key=lambda x: -x[1])[:15]:
            print(f'  other (all runs): {misses:.1f} {name[:120]}')


if __name__ == '__main__':
    main()
