#!/usr/bin/env python3
"""Which address function sends combine's reduce load pairs "far" (issue 19, s28-part).

Reads device calls D1 / D2 (calib_probe mode 13, one warp, 16 MiB window, k = 2 and 4 by row
size; hw/diff/s28red_rows.json, s28red2_rows.json) and fits, for each candidate function h of the
address, k4 - k2 a lane step = near + extra x (fraction of the probe's pairs with h(a) != h(b)).
The probe's pairs (shim_probe.cu, kProbeReduceRow): round r, pair p, lane step s load
a = 4 r B + 2 p B + 512 s and a + B from the window's base (B the row bytes; no wrap at these counts).
Families: the parity of a subset of bits 12-20 (the window 2 MiB aligned, as a 16 MiB cudaMalloc
is on the GPU); the same with the window at any 4 KiB offset in its 2 MiB; the parity of bits 12, 13
with a residue class of (address >> k) mod N.

  python3 hw/diff/s28part_hash.py D1/hw_s28red_1 D1/hw_s28red_2 D2/hw_s28red2_1
"""
import collections, itertools, json, os, re, statistics, sys


def row_value(checks):
    for c in checks:
        if 'measured' in c['what']:
            return float(re.search(r'value=([0-9.e+]+)', c['detail']).group(1))


def read_pass(folder):
    out = {}
    for d in os.listdir(folder):
        m = re.match(r'micro_shim_reduce_row_l2_(\w+?)_k(\d)_w16m_c1w1_ns$', d)
        if not m:
            continue
        size = {'1k': 1024, '7k': 7168}.get(m.group(1)) or int(m.group(1))
        r = json.load(open(os.path.join(folder, d, 'result.json')))
        out[(size, int(m.group(2)))] = [row_value(c) for c in r['measured']['checks_by_repetition']]
    return out


def per_step(passes):
    """k4 - k2 a lane step, ns: each pass's first three repetitions' median (the rows climb after), passes averaged."""
    by_size = collections.defaultdict(list)
    for R in passes:
        for (size, k) in R:
            if k == 4 and (size, 2) in R:
                k4 = statistics.median(R[(size, 4)][:3]); k2 = statistics.median(R[(size, 2)][:3])
                by_size[size].append((k4 - k2) / (size / 512))
    return {s: sum(v) / len(v) for s, v in sorted(by_size.items())}


def probe_pairs(B, count):
    for r in range(count):
        for p in (0, 1):
            for s in range(B // 512):
                a = r * 4 * B + 2 * p * B + 512 * s
                yield a, a + B


def pages_of(B, count):
    """(a >> 12, b >> 12, weight) of the probe's pairs (bits below 12 do not enter any h)."""
    c = collections.Counter((a >> 12, b >> 12) for a, b in probe_pairs(B, count))
    n = sum(c.values())
    return [(x, z, w / n) for (x, z), w in c.items()]


def pair_pages(y):
    return {B: pages_of(B, 32 if B <= 4096 else 16) for B in y}  # D1 / D2's counts


def fit(f, Y):
    n = len(f); mx = sum(f) / n; my = sum(Y) / n; sxx = sum((x - mx) ** 2 for x in f)
    if sxx == 0:
        return float('inf'), float('inf'), 0.0, 0.0
    d = sum((x - mx) * (v - my) for x, v in zip(f, Y)) / sxx; c = my - d * mx
    r = [v - c - d * x for x, v in zip(f, Y)]
    return (sum(e * e for e in r) / n) ** 0.5, max(map(abs, r)), c, d


PARITY = [bin(i).count('1') & 1 for i in range(1 << 12)]


def search(y, G):
    sizes = list(y); Y = [y[s] for s in sizes]
    frac = lambda h: [sum(w for x, z, w in G[B] if h(x) != h(z)) for B in sizes]
    best = {}
    for M in range(1, 1 << 9):  # parity of bits 12-20, window 2 MiB aligned
        h = lambda x, M=M: PARITY[x & M]
        best.setdefault('parity', []).append((fit(frac(h), Y), 'bits %s' % [12 + i for i in range(9) if M >> i & 1], frac(h), h))
    for extra in itertools.chain([()], itertools.combinations(range(14, 21), 1), itertools.combinations(range(14, 21), 2)):
        M = sum(1 << (b - 12) for b in (12, 13) + extra)
        for off in range(512):  # the window at any 4 KiB offset of its 2 MiB
            h = lambda x, M=M, off=off: PARITY[(x + off) & M]
            f = frac(h)
            best.setdefault('parity+offset', []).append((fit(f, Y), 'bits %s, base +%d KiB' % ([12 + i for i in range(9) if M >> i & 1], 4 * off), f, h))
    for N in (3, 5, 6):
        for k in range(13, 19):
            for M in range(16):
                for S in range(1, 1 << (N - 1)):
                    h = lambda x, M=M, S=S, k=k, N=N: PARITY[x & M] ^ ((S >> ((x >> (k - 12)) % N)) & 1)
                    f = frac(h)
                    best.setdefault('parity^mod', []).append((fit(f, Y), 'bits %s ^ ((a >> %d) mod %d in %s)' % ([12 + i for i in range(4) if M >> i & 1], k, N, [i for i in range(N) if S >> i & 1]), f, h))
    # b12 ^ b13 ^ G(bits 16-21) for any G (64 free choices): a local search from 12 fixed starts.
    import random
    for start in range(12):
        rnd = random.Random(start); tab = [rnd.randint(0, 1) for _ in range(64)]
        h = lambda x, tab=tab: PARITY[x & 3] ^ tab[(x >> 4) & 63]
        cur = fit(frac(h), Y)[0]; better = True
        while better:
            better = False
            for i in range(64):
                tab[i] ^= 1; r = fit(frac(h), Y)[0]
                if r < cur - 1e-9: cur, better = r, True
                else: tab[i] ^= 1
        best.setdefault('b12^b13^G(bits 16-21), any G', []).append((fit(frac(h), Y), 'G = %s' % ''.join(map(str, tab)), frac(h), h))
    return sizes, best


def bounds(y, passes):
    """4 and 8 KiB pairs (bit 12, bit 13 alone) always far, 16 and 32 KiB (bit 14, 15 alone) never: over the
    probe's samples h = b12 ^ b13 ^ G(bits 16 and up) for some G. Whatever G (per row: a window's
    2 MiB pages are the driver's), a pair whose parity of bits 12, 13 differs and whose bits 16 and up
    agree is far, one whose parity agrees and bits 16 and up agree near: the fraction's bounds."""
    print('\n## any h = b12 ^ b13 ^ G(bits 16 and up): bounds on the far fraction; read (near 25, full 110) over repetitions 1-5')
    for B in y:
        P = list(probe_pairs(B, 32 if B <= 4096 else 16))
        par = lambda a: ((a >> 12) ^ (a >> 13)) & 1
        near = sum(1 for a, b in P if par(a) == par(b) and a >> 16 == b >> 16) / len(P)
        far = sum(1 for a, b in P if par(a) != par(b) and a >> 16 == b >> 16) / len(P)
        reps = sorted(((R[(B, 4)][i] - R[(B, 2)][i]) / (B / 512) - 25) / 85 for R in passes if (B, 4) in R for i in range(5))
        print('%5g KiB: %.2f-%.2f; read %.2f-%.2f (median %.2f), first three %.2f' % (B / 1024, far, 1 - near, reps[0], reps[-1], statistics.median(reps), (y[B] - 25) / 85))


def main(folders):
    passes = [read_pass(f) for f in folders]
    y = per_step(passes)
    bounds(y, passes)
    sizes, best = search(y, pair_pages(y))
    print('size KiB      ' + ' '.join('%6s' % ('%g' % (B / 1024)) for B in sizes))
    print('GPU ns/step   ' + ' '.join('%6.1f' % y[B] for B in sizes))
    ask = [(int(m.group(1)), int(m.group(2))) for m in re.finditer(r'l2\.(\d+)\.k4\.c(\d+)', open(os.path.join(os.path.dirname(__file__), 's28part_rows.json')).read())]
    for fam, rows in best.items():
        rows.sort(key=lambda t: t[0][0])
        print('\n## %s: %d candidates, best 3 (rms / max residual ns; near + extra x fraction)' % (fam, len(rows)))
        for (rms, mx, c, d), name, f, _ in rows[:3]:
            print('%s: rms %.1f, max %.1f, near %.1f, extra %.1f' % (name, rms, mx, c, d))
            print('  predicted  ' + ' '.join('%6.2f' % v for v in f))
            print('  read       ' + ' '.join('%6.2f' % ((y[B] - c) / d) for B in sizes))
        h = rows[0][3]
        print('  s28part_rows.json (KiB x count): ' + ', '.join('%g x %d %.2f' % (B / 1024, n, sum(w for x, z, w in pages_of(B, n) if h(x) != h(z))) for B, n in ask))


if __name__ == '__main__':
    main(sys.argv[1:])
