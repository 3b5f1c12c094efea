#!/usr/bin/env python3
"""Each kernel whose bulk-store loop's SASS reconverges lane 0's store branch at an unguarded
WARPSYNC.ALL marks that loop's __syncwarp as ptx::syncwarp_all, and no kernel whose loop runs the
plain (BRA.DIV-guarded) form does (tools/sass-store/store_loops.py on the SASS the device calls
dumped). The model charges a marked sync sm.warpsync_all_ns where the SASS has it, nowhere else.
And each bulk-store loop that names its code a store (ptx::store_loop_code) names the figure the tool
reads off its kernel's stored listing, as the committed table (tools/sass-store/store_loop_cycles.txt,
checked to be tools/sass-store/make_table.sh's output) has it; and each loop nested in a store loop
that names its code (ptx::store_loop_inner_code) names the `inner` figures the table has for it."""
import os
import re
import subprocess
import sys

ROOT = sys.argv[1]
D1 = "hw/diff/results/h100-2026-12-05-s28-D1/store"
S27 = "hw/diff/results/h200-2026-12-05-s27-sass"
S19 = "hw/diff/results/h200-2026-12-04-s19-sass/sass"
S19B = "hw/diff/results/h200-2026-12-03-s19b-1gpu/sass"
# kernel source, its stored SASS, the kernel's name (as in the source's `__global__ void NAME` and in
# the listing's mangled names: every instantiation of a template)
CASES = [("kernels/nvlink/calib/fresh_rows_probe.cu", f"{D1}/fresh_rows_probe.cuobjdump.sass", "fresh_rows_probe"),
         ("kernels/nvlink/calib/fresh_rows_probe.cu", f"{D1}/fresh_rows_probe.cuobjdump.sass", "store_order_probe"),
         ("kernels/nvlink/calib/store_chain_probe.cu", f"{D1}/store_chain_probe.cuobjdump.sass", "store_chain_probe"),
         ("kernels/nvlink/calib/shim_parts_probe.cu", f"{S27}/shim_parts_probe.cuobjdump.sass", "shim_parts_probe"),
         ("kernels/nvlink/calib/shim_probe.cu", f"{S27}/shim_probe.cuobjdump.sass", "shim_probe"),
         ("kernels/nvlink/calib/dispatch_step_probe.cu", f"{S19}/dispatch_step_probe.cuobjdump.sass", "dispatch_step_probe"),
         ("kernels/nvlink/calib/dispatch_route_probe.cu", f"{S19}/dispatch_route_probe.cuobjdump.sass", "dispatch_route_probe"),
         ("kernels/nvlink/intranode/intranode_combine.cu", f"{S19B}/intranode_combine.sass.gz", "intranode_combine")]


def kernel_body(text, name):
    """The source of `__global__ void NAME(...)` up to the next kernel or the end of its namespace."""
    m = re.search(r"__global__ void " + re.escape(name) + r"\(", text)
    if not m:
        return None
    end = re.search(r"\n(?:template <[^>]*>\s*)?__global__ |\n}  // namespace", text[m.end():])
    return text[m.start():m.end() + (end.start() if end else len(text))]


# The kernels that name their store loops' code (ptx::store_loop_code), the kernel's function in the
# table, and how its named figures map to the table's loops: "each" (the i-th named figure is
# template instance i's loop: store_chain_probe<0..5>), "any" (each is one of
# the function's loops: calib_probe's tma_stream<K> is inlined once per K into one function).
CODE_CASES = [("kernels/nvlink/calib/fresh_rows_probe.cu", "16fresh_rows_probe", "any"),
              ("kernels/nvlink/calib/store_chain_probe.cu", "store_chain_probeILi{}E", "each"),
              ("kernels/nvlink/calib/calib_probe.cu", "11calib_probe", "any")]
# The kernels that name a nested loop's code (ptx::store_loop_inner_code), the kernel's function in the table.
INNER_CASES = [("kernels/nvlink/calib/tma_code_probe.cu", "20tma_store_code_probe")]
INNER_MARK = re.compile(r"store_loop_inner_code\(([\d.]+)f?, (\d+), ([\d.]+)f?, (\d+), ")
INNER = re.compile(r"inner=\S+ inner_insns=(\d+) inner_cycles=([\d.]+) entry_insns=(-?\d+) entry_cycles=(-?[\d.]+)")
# The fifth argument (the head-to-first-store cycles, sm.store_loop_first_store_head) is read but not checked:
# the table does not split a loop at its store.
MARK = re.compile(r"store_loop_code\(([\d.]+)f?, \{([\d, ]*)\}, \{([\d, ]*)\}(?:, (\d+)(?:, [\d.]+f?)?)?\)")


def figures(cycles, const, fence, stores):
    """One loop's figures, comparable between a source's mark and the table."""
    ints = lambda text: tuple(sorted(int(x) for x in text.replace(",", " ").split() if x != "-"))
    return (float(cycles), ints(const), ints(fence), int(stores or 1))


def check_table():
    table = subprocess.run(["sh", os.path.join(ROOT, "tools/sass-store/make_table.sh")], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout
    committed = open(os.path.join(ROOT, "tools/sass-store/store_loop_cycles.txt")).read()
    ok = table == committed
    print("tools/sass-store/store_loop_cycles.txt:", "as make_table.sh writes it" if ok else "differs from make_table.sh's output")
    loops = {}  # function -> figures of its loops
    for line in table.splitlines():
        if line.startswith("#") or "cycles=" not in line:
            continue
        f = dict(x.split("=", 1) for x in line.split() if "=" in x)
        loops.setdefault(line.split()[1], set()).add(figures(f["cycles"], f["const_waits"], f["fence_waits"], f["stores"]))
    for source, name, how in CODE_CASES:
        named = [figures(*m) for m in MARK.findall(open(os.path.join(ROOT, source)).read())]
        if how == "each":
            want = [{x for fn, xs in loops.items() if name.format(i) in fn for x in xs} for i in range(len(named))]
            bad = [(i, n, w) for i, (n, w) in enumerate(zip(named, want)) if (n[0] == 0) != (not w) or (w and n not in w)]
        else:
            have = {x for fn, xs in loops.items() if name in fn for x in xs}
            bad = [(i, n, have) for i, n in enumerate(named) if n not in have]
        if not named or bad:
            print(f"{source}: names {named}; not in its SASS's loops: {bad}")
            ok = False
        else:
            print(f"{source}: names {named}, each as its SASS's loop")
    inner = {}  # function -> (cycles, insns, entry cycles, entry insns) of its nested loops
    for line in table.splitlines():
        if not line.startswith("#"):
            inner.setdefault(line.split()[1], set()).update(
                (float(c), int(i), float(ec), int(ei)) for i, c, ei, ec in INNER.findall(line))
    for source, name in INNER_CASES:
        named = [(float(c), int(i), float(ec), int(ei)) for c, i, ec, ei in INNER_MARK.findall(open(os.path.join(ROOT, source)).read())]
        have = {x for fn, xs in inner.items() if name in fn for x in xs}
        bad = [n for n in named if n not in have]
        if not named or bad:
            print(f"{source}: names nested loops {named}; not in its SASS's: {bad} (the table's: {sorted(have)})")
            ok = False
        else:
            print(f"{source}: names nested loops {named}, each as its SASS's")
    return ok


failed = not check_table()
for source, sass, name in CASES:
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools/sass-store/store_loops.py"), os.path.join(ROOT, sass)],
                         check=True, capture_output=True, text=True).stdout
    # mangled: ...<len>NAME[E|I...]: the name exactly, not a longer one ending in it
    forms = {re.search(r"sync=(\w+)", line).group(1) for line in out.splitlines()
             if re.search(r"\d" + re.escape(name) + r"(E|I)", line.split()[0])}
    body = kernel_body(open(os.path.join(ROOT, source)).read(), name)
    marked = body is not None and "ptx::syncwarp_all(" in body
    if not forms or body is None or marked != ("all" in forms):
        print(f"{source} {name}: marks ptx::syncwarp_all: {marked}; its SASS {sass} runs the bulk-store loops' syncs as {sorted(forms)}")
        failed = True
    else:
        print(f"{source} {name}: {'marked' if marked else 'not marked'}, as {sass} ({sorted(forms)})")
sys.exit(1 if failed else 0)
