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

  insns, cycles  the issuing lane's code from this store to its next (the cheapest path around the
            loop through the store; the store's own retry left out), per store on that path:
            instructions and the control words' stall cycles (static issue and stall time; the
            latency of a result the code waits for is not in it). Not printed for a store peeled
            out of its loop (no path back to itself)

  inner     each loop nested in the store's loop that the issuing lane can run between two of its
            stores (s31-store): `inner=0xSTART-0xEND`, an iteration's instructions and cycles (the
            cheapest cycle through its header), and what entering it adds (`entry_insns`,
            `entry_cycles`: once through the loop, one iteration, less the path that skips it, less
            that iteration). A pass that runs it n >= 1 times runs the store's `cycles` + entry + n
            iterations; a wait's spin loop shows here too (its iterations are waiting, not code)

Output: one line a store, `FUNCTION store 0xADDR loop 0xSTART-0xEND sync=... ldc_feed=... insns=... cycles=...`
(then `stores`, the waits and any `inner` loops).
The kernels mark what it finds (ptx::syncwarp_all; ptx::store_loop_code and ptx::store_loop_inner_code name the cycles, from the
table tools/sass-store/make_table.sh writes, store_loop_cycles.txt); tests/source/test_sass_store_loops.py
checks each mark against the stored listings, as test_sass_loads_before_use.py does for
ptx::LoadsBeforeUse. `--path` also prints each path.

  tools/sass-store/store_loops.py hw/diff/results/h100-2026-12-05-s28-D1/store/fresh_rows_probe.cuobjdump.sass
"""
import gzip
import re
import sys

INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;")
FUNC = re.compile(r"Function : (\S+)")
REG = re.compile(r"\b(U?R)(\d+)\b")
TARGET = re.compile(r"0x([0-9a-f]+)")
CONTROL = re.compile(r"/\* (0x[0-9a-f]{16}) \*/")
# Opcodes whose operands are all read (no destination register first).
NO_DEST = ("ST", "STG", "STS", "STL", "RED", "BRA", "BSYNC", "BSSY", "EXIT", "BAR", "SYNCS", "UBLKCP", "WARPSYNC",
           "RET", "CALL", "MEMBAR", "FENCE", "CCTL", "NOP", "YIELD", "DEPBAR", "UTMACMDFLUSH")


def functions(lines):
    """{function: [(address, opcode, operands)]} in address order, and {(function, address): stall
    cycles} for the instructions whose control word the listing has (cuobjdump's second line)."""
    out, stalls, func = {}, {}, None
    lines = list(lines)
    for i, line in enumerate(lines):
        f = FUNC.search(line)
        if f:
            func = f.group(1)
            out[func] = []
            continue
        m = INSN.search(line)
        if m and func:
            ops = [o.strip() for o in m.group(4).split(",")] if m.group(4) else []
            # A guarded instruction keeps its guard on the opcode (`@P2 BRA`): a guarded branch falls through.
            addr = int(m.group(1), 16)
            out[func].append((addr, ("@" if m.group(2) else "") + m.group(3), ops))
            ctrl = CONTROL.fullmatch(lines[i + 1].strip()) if i + 1 < len(lines) else None
            if ctrl:
                stalls[(func, addr)] = int(ctrl.group(1), 16)
    return out, stalls


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


def chain(k, loop, spans, succ, insns, weight):
    """Lane 0's path from the store in block k to its next one: the cheapest cycle through k inside
    the loop (the store's own BRA.U.ANY retry left out: it is taken only when the operands were not
    uniform). Returns the cycle's instruction indices in issue order from k's first."""
    import heapq

    def edges(b):
        a, op, ops = insns[spans[b][1]]
        retry = TARGET.search(" ".join(ops)) if ".U.ANY" in op else None
        for n in succ[b]:
            if n in loop and not (retry and spans[n][0] <= spans[b][1] and insns[spans[n][0]][0] == int(retry.group(1), 16)):
                yield n

    def cost(b):
        return sum(weight(i) for i in range(spans[b][0], spans[b][1] + 1))

    best, prev, heap = {}, {}, []
    for n in edges(k):
        if n == k:
            return list(range(spans[k][0], spans[k][1] + 1))
        c = cost(k) + cost(n)
        if c < best.get(n, float("inf")):
            best[n], prev[n] = c, k
            heapq.heappush(heap, (c, n))
    while heap:
        c, b = heapq.heappop(heap)
        if c > best.get(b, float("inf")):
            continue
        if b == k:
            break
        for n in edges(b):
            nc = c + (cost(n) if n != k else 0)
            if nc < best.get(n, float("inf")):
                best[n], prev[n] = nc, b
                heapq.heappush(heap, (nc, n))
    if k not in prev:
        return []
    path, b = [], prev[k]
    while b != k:
        path.append(b)
        b = prev[b]
    path.append(k)
    return [i for b in reversed(path) for i in range(spans[b][0], spans[b][1] + 1)]


def shortest(src, dst, ok, spans, succ, insns, weight):
    """The cheapest block path from block src to block dst != src over the edges ok(b, n) allows (a
    BRA.U.ANY retry never): its blocks, src first, dst left out; None when dst is not reached."""
    import heapq

    def cost(b):
        return sum(weight(i) for i in range(spans[b][0], spans[b][1] + 1))

    def retry(b, n):
        a, op, ops = insns[spans[b][1]]
        t = TARGET.search(" ".join(ops)) if ".U.ANY" in op else None
        return t is not None and insns[spans[n][0]][0] == int(t.group(1), 16)

    best, prev, heap = {src: 0}, {}, [(0, src)]
    while heap:
        c, b = heapq.heappop(heap)
        if c > best[b]:
            continue
        if b == dst:
            path = []
            while b != src:
                b = prev[b]
                path.append(b)
            return list(reversed(path))
        for n in succ[b]:
            if ok(b, n) and not retry(b, n) and c + cost(b) < best.get(n, float("inf")):
                best[n], prev[n] = c + cost(b), b
                heapq.heappush(heap, (best[n], n))
    return None


def inner_loops(k, loop, loops, spans, succ, insns, weight, path0):
    """Each loop nested in the store's loop (block k's) that the issuing lane can run between two of
    its stores: (first and last address, an iteration's instructions and cycles (the cheapest cycle
    through its header), the entry's (what a pass through the loop, one iteration, adds to the path
    that skips it, less that iteration)). A row that runs the loop n >= 1 times between two stores
    runs `cycles` + entry + n x the iteration's; n = 0 the store's path alone."""
    out = []
    at = lambda blocks: [i for b in blocks for i in range(spans[b][0], spans[b][1] + 1)]
    for body in loops:
        if not body < loop or k in body:
            continue
        # its header: the block entered from outside it (a natural loop has one)
        h = next((b for b in body if any(b in succ[p] for p in range(len(spans)) if p not in body)), None)
        if h is None:
            continue
        one = chain(h, body, spans, succ, insns, weight)
        # once through the loop: no edge back to its header from inside it
        ok = lambda b, n: n in loop and not (n == h and b in body)
        there, back = shortest(k, h, ok, spans, succ, insns, weight), shortest(h, k, ok, spans, succ, insns, weight)
        if not one or there is None or back is None:
            continue
        through = at(there + back)
        cyc = lambda idx: sum(weight(i) for i in idx)
        out.append((insns[at([h])[0]][0], insns[max(at(body))][0], len(one), cyc(one),
                    len(through) - len(path0) - len(one), cyc(through) - cyc(path0) - cyc(one)))
    return out


# Variable-latency results the path's code waits for (a scoreboard, not a stall count): a constant
# or special register's (LDC, S2UR, S2R) and a memory barrier's (MEMBAR, waited by the fence after it).
CONSTANT = ("LDC", "S2UR", "S2R")
FENCE = ("MEMBAR",)


def control(word):
    """sm_90 control bits of an instruction's high word: stall cycles (41-44), write and read
    scoreboard (46-48, 49-51; 7: none), wait mask (52-57)."""
    return (word >> 41) & 0xF, (word >> 46) & 7, (word >> 49) & 7, (word >> 52) & 0x3F


def waits(func, path, insns, words):
    """The static cycles from each unguarded CONSTANT or FENCE producer to the first instruction on
    the path that waits for its scoreboard (around the loop: the path twice), as two lists."""
    out = {"const": [], "fence": []}
    t, board = 0, {}
    for rep in range(2):
        for i in path:
            a, op, ops = insns[i]
            stall, wb, rb, mask = control(words[(func, a)])
            for b in range(6):
                if mask >> b & 1 and b in board:
                    kind, t0 = board.pop(b)
                    if rep == 1 and kind:
                        out[kind].append(t - t0)
            base = op.split(".")[0]
            kind = None if op.startswith("@") else "const" if base in CONSTANT else "fence" if base in FENCE else None
            for b in (wb, rb):
                if b != 7:
                    board[b] = (kind, t)
            t += stall
    return out


def store_loops(func, insns, stalls=None):
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
        # Lane 0's code from this store to its next: instructions and the control words' stall cycles
        # (the static issue and stall time, no latency of a variable-latency result), per store on it.
        stall = (lambda i: control(stalls[(func, insns[i][0])])[0]) if stalls else (lambda i: 1)
        path = chain(k, loop, spans, succ, insns, stall)
        n_stores = max(1, sum(insns[i][1].lstrip("@").startswith("UBLKCP.G.S") for i in path))
        # (A store peeled out of its loop, with no path back to itself: no figure.)
        rows.append((func, insns[store][0], a0, a1, sync, "yes" if ldc else "no",
                     len(path) / n_stores if path else None,
                     sum(stall(i) for i in path) / n_stores if stalls and path else None, path,
                     n_stores, waits(func, path, insns, stalls) if stalls and path else None,
                     inner_loops(k, loop, loops, spans, succ, insns, stall, path) if stalls and path else []))
    return rows


def main(argv):
    argv = [a for a in argv if a != "--path"] + (["--path"] if "--path" in argv else [])
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    opener = gzip.open if argv[1].endswith(".gz") else open
    with opener(argv[1], "rt", errors="replace") as f:
        funcs, stalls = functions(f)
    for func, insns in funcs.items():
        for name, store, start, end, sync, ldc, n, cycles, path, n_stores, w, inner in store_loops(func, insns, stalls):
            code = "" if n is None else f" insns={n:g} cycles={cycles:g}" if cycles is not None else f" insns={n:g}"
            if w is not None:
                code += f" stores={n_stores}" + "".join(f" {k}_waits=" + (",".join(map(str, v)) or "-") for k, v in w.items())
            for a0, a1, i_n, i_c, e_n, e_c in inner:
                code += f" inner={a0:#06x}-{a1:#06x} inner_insns={i_n} inner_cycles={i_c} entry_insns={e_n} entry_cycles={e_c}"
            print(f"{name} store {store:#06x} loop {start:#06x}-{end:#06x} sync={sync} ldc_feed={ldc}{code}")
            if "--path" in argv:
                print("   ", " ".join(f"{insns[i][0]:04x}:{insns[i][1]}" for i in path))


if __name__ == "__main__":
    main(sys.argv)
