#!/usr/bin/env python3
"""SystemC's module-registry removals at teardown for the NVIDIA platform's modules.

    bench/systemc_registry_model_nv.py 8 32 64

The registry as bench/systemc_registry_model.py replays it (post-order registration: a module
when its construction ends; removal by a search from the front, the last moved into the hole),
on NvidiaSystem's tree: platform > nvlink (2 links per GPU), fabric (IB: leaf switches, 2 links
per GPU, spine and 2 uplinks per leaf past one leaf), gpuG > hbm, nic, sm0..131, tma0..131.
Callgrind's counts of `sc_module_registry::remove` on a2af393 (EP 8: 7.3 M, EP 32: 116 M
instructions) are the first-to-last order's compares times about 6 instructions.
"""
import sys

from systemc_registry_model import compares

SMS = 132
GPUS_PER_LEAF = 8


def registration(n):
    leaves = (n + GPUS_PER_LEAF - 1) // GPUS_PER_LEAF
    nvlink = [f'nvl{i}' for i in range(2 * n)] + ['nvlink']
    fabric = [f'sw{i}' for i in range(leaves)] + [f'link{i}' for i in range(2 * n)]
    if leaves > 1:
        fabric += ['spine'] + [f'uplink{i}' for i in range(2 * leaves)]
    fabric.append('fabric')
    out = nvlink + fabric
    for g in range(n):
        out += [f'g{g}.hbm', f'g{g}.nic'] + [f'g{g}.sm{i}' for i in range(SMS)] + [f'g{g}.tma{i}' for i in range(SMS)]
        out.append(f'g{g}')
    return out + ['platform'], nvlink, fabric


def destruction(gpu_order, nvlink, fabric):
    out = []
    for g in gpu_order:  # ~Gpu: members last to first (nic, hbm, tmas, sms), then the Gpu itself
        out += ([f'g{g}.nic', f'g{g}.hbm'] + [f'g{g}.tma{i}' for i in range(SMS)] +
                [f'g{g}.sm{i}' for i in range(SMS)] + [f'g{g}'])
    return out + fabric + nvlink + ['platform']


def main():
    for n in [int(a) for a in sys.argv[1:]] or [64]:
        registered, nvlink, fabric = registration(n)
        orders = {
            'first to last (a2af393)': list(range(n)),
            'GPU 0, then last down to GPU 1 (s22-nvtear)': [0] + list(range(n))[:0:-1],
        }
        for name, order in orders.items():
            print(f"EP {n}, {name}: {compares(registered, destruction(order, nvlink, fabric)):,} compares")


if __name__ == '__main__':
    main()
