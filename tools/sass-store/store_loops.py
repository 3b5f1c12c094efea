#!/usr/bin/env python3
"""What the GPU's code runs around each bulk store loop (issue 19, session 29).

Reads a SASS listing (`cuobjdump -sass`, gzipped or not; or tools/sass-cubin/cubin_sass.py's output
of a local hw build) and, per function, finds each loop that issues a bulk store (`UBLKCP.G.S`): the
innermost backward branch around it that is not the store's own `BRA.U.ANY` retry. For that loop it
prints two facts the host build's count cannot see (docs/hw-accuracy.md, thirty-fifth pass (s29-count)):

  sync      how the loop's `__syncwarp` runs: `all` (an unguarded `WARPSYNC.ALL`: the compiler
            reconverges lane 0's store branch there), `div` (`BRA.DIV` to a `WARPSYNC.COLLECTIVE`:
            the plain form), `none` (no warp sync in the loop)
  ldc_feed  `yes` when an `LDC` inside the loop writes a register that the store's operands are made
            from (through the loop's arithmetic and its `R2UR`s): the store waits that constant load
            each row (mode 23's `a.bytes`, its op dispatch around it); `no` when they come from
            registers set before the loop

Output: one line a loop, `FUNCTION 0xSTART-0xEND sync=... ldc_feed=...`. The kernels mark what it
finds (ptx::syncwarp_all, ptx::StoreOperandsLoadedEachRow); tests/source/test_sass_store_loops.py
checks each mark against the stored listings, as test_sass_loads_before_use.py does for
ptx::LoadsBeforeUse.

  tools/sass-store/store_loops.py hw/diff/results/h100-2026-12-05-s28-D1/store/fresh_rows_probe.cuobjdump.sass
"""
import gzip
import re
import sys

INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;")
FUNC = re.compile(r"Function : (\S+)")
REG = re.compile(r"\b(U?R)(\d+)\b")
TARGET = re.compile(r"0x([0-9a-f]+)")
# Opcodes whose operands are all read (no destination register first).
NO_DEST = ("ST", "STG", "STS", "STL", "RED", "BRA", "BSYNC", "BSSY", "EXIT", "BAR", "SYNCS", "UBLKCP", "WARPSYNC",
           "RET", "CALL", "MEMBAR", "FENCE", "CCTL", "NOP", "YIELD", "DEPBAR", "UTMACMDFLUSH")


def functions(lines):
    """{function: [(address, opcode, operands)]} in address order."""
    out, func = {}, None
    for line in lines:
        f = FUNC.search(line)
        if f:
            func = f.group(1)
            out[func] = []
            continue
        m = INSN.search(line)
        if m and func:
            ops = [o.strip() for o in m.group(4).split(",")] if m.group(4) else []
            # A guarded instruction keeps its guard on the opcode (`@P2 BRA`): a guarded branch falls through.
            out[func].append((int(m.group(1), 16), ("@" if m.group(2) else "") + m.group(3), ops))
    return out


def regs(operand):
    out = set()
    for m in REG.finditer(operand):
        base = int(m.group(2))
        n = 2 if operand[m.end():m.end() + 3] == ".64" or (operand.startswith("[") and ".64]" in operand) else 1
        out.update((m.group(1), base + i) for i in range(n))
    return out


def writes_reads(op, ops):
    """Registers written and read by one instruction (R2UR's `P0, UR5, R5` form included)."""
    base = op.lstrip("@").split(".")[0]
    if base in NO_DEST or not ops:
        return set(), set().union(*(regs(o) for o in ops)) if ops else set()
    dest = [o for o in ops if not re.fullmatch(r"!?U?P[T0-9]+", o)]
    if not dest:
        return set(), set()
    first = dest[0]
    wide = 2 if op.endswith(".64") or ".WIDE" in op else 1
    w = set()
    for kind, n in regs(first):
        w.update((kind, n + i) for i in range(wide))
    r = set().union(*(regs(o) for o in dest[1:])) if len(dest) > 1 else set()
    return w, r


def blocks(insns):
    """Basic blocks: [(first index, last index)], and each block's successors (block indices)."""
    starts = {0}
    addr_index = {a: i for i, (a, _, _) in enumerate(insns)}
    for i, (a, op, ops) in enumerate(insns):
        if op.lstrip("@").startswith(("BRA", "EXIT", "RET", "BPT")):
            starts.add(i + 1)
            t = TARGET.search(" ".join(ops))
            if op.lstrip("@").startswith("BRA") and t and int(t.group(1), 16) in addr_index:
                starts.add(addr_index[int(t.group(1), 16)])
    starts = sorted(s for s in starts if s < len(insns))
    spans = [(s, (starts[k + 1] if k + 1 < len(starts) else len(insns)) - 1) for k, s in enumerate(starts)]
    block_of = {s: k for k, (s, _) in enumerate(spans)}
    succ = []
    for k, (first, last) in enumerate(spans):
        a, op, ops = insns[last]
        out = set()
        t = TARGET.search(" ".join(ops))
        if op.lstrip("@").startswith("BRA") and t and int(t.group(1), 16) in addr_index:
            out.add(block_of[addr_index[int(t.group(1), 16)]])
        unconditional = op in ("EXIT", "RET", "BRA") or op.startswith(("BPT", "BRA.U "))
        if not unconditional and k + 1 < len(spans):
            out.add(k + 1)
        succ.append(out)
    return spans, succ


def natural_loops(spans, succ, pred, insns):
    """Each natural loop (a branch to a block that dominates it, not a BRA.U.ANY retry): the header
    and every block that reaches the branch's block without passing the header."""
    # Dominators (block 0 is the entry): a back edge is one to a block that dominates its source.
    every = set(range(len(spans)))
    live, todo = {0}, [0]  # blocks reached from the entry (a listing's dead tail reaches none)
    while todo:
        for n in succ[todo.pop()]:
            if n not in live:
                live.add(n)
                todo.append(n)
    dom = [every for _ in spans]
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for n in sorted(live - {0}):
            d = set.intersection(*(dom[p] for p in pred[n] if p in live))
            d = d | {n}
            if d != dom[n]:
                dom[n], changed = d, True
    out = []
    for k, out_edges in enumerate(succ):
        for h in out_edges:
            if h not in dom[k] or ".U.ANY" in insns[spans[k][1]][1]:
                continue
            body, todo = {h, k}, [k]
            while todo:
                n = todo.pop()
                if n == h:
                    continue
                for p in pred[n]:
                    if p not in body:
                        body.add(p)
                        todo.append(p)
            out.append(body)
    return sorted(out, key=len)


def store_loops(func, insns):
    """For each bulk store: the innermost loop around it (its row loop), that loop's warp-sync form,
    and whether an LDC in it feeds the store's operands."""
    rows = []
    spans, succ = blocks(insns)
    pred = [set() for _ in spans]
    for k, out in enumerate(succ):
        for n in out:
            pred[n].add(k)
    loops = natural_loops(spans, succ, pred, insns)
    for k, (first, last) in enumerate(spans):
        stores = [i for i in range(first, last + 1) if insns[i][1].lstrip("@").startswith("UBLKCP.G.S")]
        if not stores:
            continue
        loop = next((body for body in loops if k in body), None)
        if loop is None:
            continue
        body = sorted(i for b in loop for i in range(spans[b][0], spans[b][1] + 1))
        ops = [insns[i][1].lstrip("@") for i in body]
        sync = "all" if "WARPSYNC.ALL" in ops else "div" if any(o.startswith(("BRA.DIV", "WARPSYNC")) for o in ops) else "none"
        store = stores[0]
        need = set().union(*(regs(o) for o in insns[store][2]))
        ldc = False
        for i in reversed([i for i in body if i < store]):
            w, r = writes_reads(insns[i][1], insns[i][2])
            if w & need:
                ldc = ldc or insns[i][1].lstrip("@").startswith("LDC")
                need = (need - w) | r
        a0, a1 = insns[body[0]][0], insns[body[-1]][0]
        rows.append((func, insns[store][0], a0, a1, sync, "yes" if ldc else "no"))
    return rows


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    opener = gzip.open if argv[1].endswith(".gz") else open
    with opener(argv[1], "rt", errors="replace") as f:
        funcs = functions(f)
    for func, insns in funcs.items():
        for name, store, start, end, sync, ldc in store_loops(func, insns):
            print(f"{name} store {store:#06x} loop {start:#06x}-{end:#06x} sync={sync} ldc_feed={ldc}")


if __name__ == "__main__":
    main(sys.argv)
