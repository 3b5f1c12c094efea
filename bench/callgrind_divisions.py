#!/usr/bin/env python3
"""Divisions executed per WQE, by function, from a callgrind profile taken with --dump-instr=yes.

    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=put-di.cg build/bin/symsim-bench put \
        --only on kernel.args.rounds=2000 platform.hbm.bytes=4294967296
    bench/callgrind_divisions.py put-di.cg build/bin/symsim-bench 64000

An integer or floating division costs tens of cycles where most instructions cost one, so an
instruction count can stay level while a division is taken off: this counts them. The division
instructions are found with objdump -d in the binary; their executions are read from the
profile's per-instruction costs of that binary's object only (libraries' addresses overlap).
"""
import collections
import re
import subprocess
import sys


def division_addresses(binary):
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', binary], capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r'^\s+([0-9a-f]+):\s+(\S+)', line)
        if m and re.match(r'^(i?div[bwlq]?|div[sp][sd])$', m.group(2)):
            found[int(m.group(1), 16)] = m.group(2)
    return found


def named(table, line, key):
    # callgrind's name compression: "key=(id) name" the first time, "key=(id)" after.
    m = re.match(key + r'=\((\d+)\)(?: (.*))?', line.strip())
    if m.group(2):
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1))


def count(profile, binary):
    divisions = division_addresses(binary)
    fns, objs = {}, {}
    fn = obj = None
    addr = 0
    call_line = False
    counts = collections.Counter()
    with open(profile) as f:
        for line in f:
            if line.startswith('ob='):
                obj = named(objs, line, 'ob')
            elif line.startswith('cob='):
                named(objs, line, 'cob')
            elif line.startswith('fn='):
                fn = named(fns, line, 'fn')
            elif line.startswith('cfn='):
                named(fns, line, 'cfn')
            elif line.startswith('calls='):
                call_line = True  # the next cost line is the call's inclusive cost
            elif line and line[0] in '0123456789+-*':
                parts = line.split()  # positions "instr line", then Ir
                a = parts[0]
                if a.startswith('0x'):
                    addr = int(a, 16)
                elif a[0] == '+':
                    addr += int(a[1:], 0)
                elif a[0] == '-':
                    addr -= int(a[1:], 0)
                if call_line:
                    call_line = False
                elif obj and obj.endswith('/' + binary.split('/')[-1]) and addr in divisions:
                    counts[(fn.split('(')[0], divisions[addr])] += int(parts[2])
    return counts


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    profile, binary, wqes = sys.argv[1], sys.argv[2], int(sys.argv[3])
    counts = count(profile, binary)
    for (fn, op), n in sorted(counts.items(), key=lambda kv: -kv[1]):
        if n / wqes >= 0.01:
            print(f'{n / wqes:8.2f}  {op:6}  {fn}')
    print(f'{sum(counts.values()) / wqes:8.2f}  divisions per WQE')


if __name__ == '__main__':
    main()
