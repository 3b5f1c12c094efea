#!/usr/bin/env python3
"""A SASS listing of an sm_90a cubin on a machine without cuobjdump (issue 19, session 28).

Each 128-bit instruction of the named functions is printed with its scheduling control bits (as
hw/diff/results/h200-2026-12-04-s19-sass/sass_ctrl.py decodes them: stall cycles, yield, write / read
barrier, wait mask) and a name taken from the stored cuobjdump listings (hw/diff/results/**/*.sass):
the stored text where the whole encoding was seen before (operands included), else `~` and the
mnemonic most often seen with the same low 12 opcode bits (operands not decoded). Branch targets
are computed from the encoding (`-> 0x...`), since a stored text's target is another function's.
Enough to see which instruction classes a changed probe's loop runs, and its static stall cycles,
before a device call dumps the real listing (the cubin built as h200-2026-12-05-s27-sass's README says).

  tools/sass-cubin/cubin_sass.py X.cubin [FUNCTION_SUBSTRING] [--from 0x180 --to 0x390]
"""
import argparse
import collections
import glob
import os
import re
import struct
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINE = re.compile(r"\s*/\*([0-9a-f]{4})\*/\s+(.*?);\s*/\* (0x[0-9a-f]{16}) \*/")


def names(listings):
    exact, by_op = {}, collections.defaultdict(collections.Counter)
    for path in listings:
        lines = open(path, errors="replace").read().splitlines()
        for i, line in enumerate(lines[:-1]):
            m = LINE.match(line)
            hi = re.search(r"0x[0-9a-f]{16}", lines[i + 1]) if m else None
            if not hi:
                continue
            lo, text = int(m.group(3), 16), m.group(2).strip()
            exact[(lo, int(hi.group(0), 16))] = text
            by_op[lo & 0xFFF][text.split()[1] if text.startswith("@") else text.split()[0]] += 1
    return exact, {op: c.most_common(1)[0][0] for op, c in by_op.items()}


def text_sections(cubin):
    out = subprocess.run(["readelf", "-SW", cubin], capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.search(r"\]\s+\.text\.(\S+)\s+PROGBITS\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if m:
            yield m.group(1), int(m.group(2), 16), int(m.group(3), 16)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cubin")
    ap.add_argument("function", nargs="?", default="")
    ap.add_argument("--from", dest="first", type=lambda s: int(s, 16), default=0)
    ap.add_argument("--to", dest="last", type=lambda s: int(s, 16), default=1 << 30)
    args = ap.parse_args()
    exact, by_op = names(glob.glob(os.path.join(ROOT, "hw/diff/results/**/*.sass"), recursive=True))
    data = open(args.cubin, "rb").read()
    for name, offset, size in text_sections(args.cubin):
        if args.function not in name:
            continue
        print("Function :", name)
        count = stalls = 0
        for a in range(0, size, 16):
            lo, hi = struct.unpack_from("<QQ", data, offset + a)
            if not args.first <= a <= args.last:
                continue
            text = exact.get((lo, hi)) or "~" + by_op.get(lo & 0xFFF, "?%03x" % (lo & 0xFFF))
            if lo & 0xFFF == 0x947:  # BRA: a signed offset in 4 B words, bits 16-23 and 34 up
                high = lo >> 34
                high -= (high & (1 << 29)) << 1
                text = text.split(" 0x")[0] + " -> 0x%x" % (a + 16 + 4 * (((lo >> 16) & 0xFF) | (high << 8)))
            stall, yld = (hi >> 41) & 0xF, (hi >> 45) & 1
            wbar, rbar, wait = (hi >> 46) & 7, (hi >> 49) & 7, (hi >> 52) & 0x3F
            bars = ("W%d " % wbar if wbar != 7 else "") + ("R%d " % rbar if rbar != 7 else "") + ("wait%02x" % wait if wait else "")
            print("%04x  stall %2d %s %-10s %s" % (a, stall, "Y" if yld else " ", bars, text))
            count, stalls = count + 1, stalls + stall
        print("instructions %d, stall cycles %d" % (count, stalls))


if __name__ == "__main__":
    main()
