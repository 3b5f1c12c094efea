#!/usr/bin/env python3
"""Compares SystemC's module-registry removals at teardown for the Ascend platform's modules.

    bench/systemc_registry_model.py 64

SystemC 2.3.4's sc_module_registry::remove searches its vector from the front and moves the
last module into the hole (objdump -d of libsystemc-2.3.4.so). This replays that on the
platform's module tree (platform > fabric's switches and links, udma_doorbells, peN > hbm,
udma, mmio, aivK > ub) for a registration order (pre-order: at the start of a module's
construction; post-order: at its end) and a destruction order, and prints the compares.
Callgrind's counts of `remove` (EP 8: 1.0 M, EP 64: 66.7 M instructions on 9f48061, 128.6 M
with the anchor order) match post-order at about 6 instructions a compare.
"""
import sys

CORES = 48


def tree(n_pes, anchor):
    nodes = (n_pes + 15) // 16
    fabric = ([f'sw{i}' for i in range(nodes)] + [f'link{i}' for i in range(2 * n_pes)] + ['spine'] +
              [f'nlink{i}' for i in range(2 * nodes)])
    pes = [(f'pe{p}', [f'pe{p}.hbm', f'pe{p}.udma', f'pe{p}.mmio'],
            [(f'pe{p}.aiv{c}', f'pe{p}.aiv{c}.ub') for c in range(CORES)]) for p in range(n_pes)]
    return fabric, pes, anchor


def registration(t, post):
    fabric, pes, anchor = t
    out = [] if post else ['platform']
    if anchor:
        out.append('teardown')
    out += fabric + ['fabric'] if post else ['fabric'] + fabric
    out.append('doorbells')
    for pe, members, aivs in pes:
        if not post:
            out.append(pe)
        out += members
        for aiv, ub in aivs:
            out += [ub, aiv] if post else [aiv, ub]
        if post:
            out.append(pe)
    if post:
        out.append('platform')
    return out


def destruction(t, pe_order, cores_reversed):
    fabric, pes, anchor = t
    out = ['teardown'] if anchor else []
    for i in pe_order:
        pe, members, aivs = pes[i]
        for aiv, ub in (aivs[::-1] if cores_reversed else aivs):  # a core's ub before the core
            out += [ub, aiv]
        out += members[::-1] + [pe]
    return out + ['doorbells'] + fabric + ['fabric', 'platform']


def compares(registered, destroyed):
    v = list(registered)
    at = {m: i for i, m in enumerate(v)}
    total = 0
    for m in destroyed:
        i = at.pop(m)
        total += i + 1
        last = v.pop()
        if last != m:
            v[i] = last
            at[last] = i
    return total


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    orders = {
        'first to last (9f48061)': (False, list(range(n)), False),
        'anchor, then PEs and cores last to first (72f2e47)': (True, list(range(n))[::-1], True),
        'PE 0, then last down to PE 1 (this branch)': (False, [0] + list(range(n))[:0:-1], False),
    }
    for post in (False, True):
        for name, (anchor, pe_order, cores_reversed) in orders.items():
            t = tree(n, anchor)
            print(f"EP {n}, {'post' if post else 'pre'}-order registration, {name}: "
                  f"{compares(registration(t, post), destruction(t, pe_order, cores_reversed)):,} compares")


if __name__ == '__main__':
    main()
