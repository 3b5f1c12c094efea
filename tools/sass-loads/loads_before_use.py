#!/usr/bin/env python3
"""How many 16 B global loads the GPU's code issues before it uses the first (issue 19).

Reads a SASS listing (`cuobjdump -sass`, gzipped or not) and, per function, walks its
instructions in address order: from each LDG.E.128 that starts a group, it counts the
LDG.E.128 issued until an instruction reads a register one of them writes (the first use),
or a branch ends the straight-line code. Prints one line per group: address, loads before
the first use, and the address of that use. The kernels name the count of their loop next
to the loop (ptx::LoadsBeforeUse), which the model uses instead of sm.loads_before_use.

  tools/sass-loads/loads_before_use.py hw/diff/results/h200-2026-12-03-s19b-1gpu/sass/shim_probe.sass.gz
"""
import gzip
import re
import sys

INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;")
REG = re.compile(r"\bR(\d+)\b")
FUNC = re.compile(r"Function : (\S+)")
# Opcodes whose first operand is read, not written.
NO_DEST = ("ST", "STG", "STS", "STL", "RED", "BRA", "BSYNC", "BSSY", "EXIT", "BAR", "ISETP", "FSETP", "DSETP",
           "SYNCS", "UBLKCP", "WARPSYNC", "RET", "CALL", "MEMBAR", "FENCE", "CCTL", "NOP", "YIELD")


def regs(operand, wide=1):
    out = set()
    for m in REG.finditer(operand):
        base = int(m.group(1))
        tail = operand[m.end():m.end() + 3]
        n = 2 if tail.startswith(".64") else wide
        out.update(range(base, base + n))
    return out


def instructions(lines):
    func = None
    for line in lines:
        f = FUNC.search(line)
        if f:
            func = f.group(1)
            continue
        m = INSN.search(line)
        if m:
            yield func, int(m.group(1), 16), m.group(3), [o.strip() for o in m.group(4).split(",")] if m.group(4) else []


def groups(insns):
    """(function, address of the first load, loads before the first use, address of the use)."""
    out = []
    pending, count, start, func = set(), 0, None, None
    for fn, addr, op, ops in insns:
        if fn != func:
            pending, count, start, func = set(), 0, None, fn
        if op.startswith("LDG") and ".128" in op:
            if count == 0:
                start = addr
            count += 1
            pending |= regs(ops[0], 4)
            continue
        reads = set()
        base = op.split(".")[0]
        for i, o in enumerate(ops):
            if i == 0 and base not in NO_DEST and not o.startswith("["):
                continue  # the register this instruction writes
            reads |= regs(o)
        if count and (reads & pending or base in ("BRA", "EXIT", "RET", "BSYNC")):
            out.append((func, start, count, addr if reads & pending else None))
            pending, count = set(), 0
    return out


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    opener = gzip.open if argv[1].endswith(".gz") else open
    with opener(argv[1], "rt") as f:
        rows = groups(instructions(f))
    for func, start, count, use in rows:
        where = f"used at {use:#06x}" if use is not None else "a branch before any use"
        print(f"{func} {start:#06x} {count} {where}")


if __name__ == "__main__":
    main(sys.argv)
