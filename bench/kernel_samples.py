#!/usr/bin/env python3
"""Kernel samples of a `perf record -e cpu-clock -g` profile, by what the kernel was doing.

    perf record -e cpu-clock -F 250 -g -o ep256.perf build/bin/symsim-bench moe bench/scenarios/moe/moe_ep256_direct.json
    bench/kernel_samples.py ep256.perf [more.perf ...]
    bench/kernel_samples.py --by-thread ep256.perf   # the simulation thread (pid == tid) and the others apart

A sample counts for the first category whose kernel function is on its stack (session 24's
categories, docs/performance.md). Page clearing (`clear_page_erms`) is also split by what asked
for the page: on this VM a fresh page costs its clearing many times over (the host backs it on
first touch), so who takes fresh memory is most of the system time. Samples, not seconds.
"""
import collections
import subprocess
import sys

CATEGORIES = [
    ('huge-page faults (malloc heap)', {'do_huge_pmd_anonymous_page', '__do_huge_pmd_anonymous_page'}),
    ('page-table pages (__pte_alloc)', {'__pte_alloc'}),
    ('process_madvise (cold-page evictions)', {'__x64_sys_process_madvise', '__do_sys_process_madvise'}),
    ('madvise (store_zeros)', {'__x64_sys_madvise', '__do_sys_madvise'}),
    ('ioctl (UFFDIO_COPY)', {'userfaultfd_ioctl', '__x64_sys_ioctl'}),
    ('mincore', {'__x64_sys_mincore', '__do_sys_mincore'}),
    ('munmap', {'__x64_sys_munmap', '__vm_munmap'}),
    ('exit teardown', {'do_exit', 'exit_mmap'}),
    ('SIGBUS (cold-page fault, delivery, return)',
     {'handle_userfault', '__x64_sys_rt_sigreturn', 'arch_do_signal_or_restart', 'x64_setup_rt_frame', 'get_signal'}),
    ('4 KiB faults (data pages)', {'handle_mm_fault', 'exc_page_fault', 'do_user_addr_fault', 'asm_exc_page_fault'}),
    ('brk', {'__x64_sys_brk', '__do_sys_brk'}),
]
CLEARING = {'clear_page_erms', 'clear_pages_erms', 'folio_zero_user', 'clear_huge_page'}
CLEARED_FOR = [('huge page', 'do_huge_pmd_anonymous_page'), ('page table', '__pte_alloc'),
               ('data page', 'do_anonymous_page'), ('cold page (UFFDIO_COPY)', 'userfaultfd_ioctl')]


def stacks(path):
    """(function names leaf first, leaf in the kernel, sampled on the simulation thread) per sample."""
    out = subprocess.run(['perf', 'script', '-i', path, '-F', 'pid,tid,ip,sym,dso'], capture_output=True, text=True,
                         check=True).stdout
    for block in out.split('\n\n'):
        lines = [line for line in block.strip().split('\n') if line.strip()]
        if len(lines) < 2:
            continue
        pid, tid = lines[0].split()[0].split('/')  # "pid/tid"
        frames = [line.split(None, 1) for line in lines[1:]]
        # "ip sym+off (dso)": the function and whether the leaf is in the kernel.
        yield [f[1].split(' (')[0].split('+')[0] if len(f) > 1 else '' for f in frames], \
              '[kernel.kallsyms]' in frames[0][-1], pid == tid


def main(paths, by_thread):
    groups = [('simulation thread', True), ('other threads', False)] if by_thread else [('', None)]
    for path in paths:
        for label, main_thread in groups:
            report(path, label, main_thread)


def report(path, label, main_thread):
        total = kernel = 0
        by_category = collections.Counter()
        cleared = collections.Counter()
        for names, in_kernel, on_main in stacks(path):
            if main_thread is not None and on_main != main_thread:
                continue
            total += 1
            if not in_kernel:
                continue
            kernel += 1
            on_stack = set(names)
            by_category[next((c for c, keys in CATEGORIES if keys & on_stack), 'other')] += 1
            if names[0] in CLEARING:
                cleared[next((c for c, key in CLEARED_FOR if key in on_stack), 'other')] += 1
        print(f'{path}{" (" + label + ")" if label else ""}: {total:,} samples, {kernel:,} in the kernel '
              f'({100.0 * kernel / max(total, 1):.1f}%)')
        for c, n in by_category.most_common():
            print(f'  {c:<44} {n:>7,}  {100.0 * n / max(total, 1):5.1f}% of all')
        print(f'  page clearing by what took the page: ' + ', '.join(f'{c} {n:,}' for c, n in cleared.most_common()))


if __name__ == '__main__':
    args = sys.argv[1:]
    by_thread = '--by-thread' in args
    args = [a for a in args if a != '--by-thread']
    if not args:
        sys.exit(__doc__)
    main(args, by_thread)
