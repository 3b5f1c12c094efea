#!/usr/bin/env python3
"""Lists every device API function CANN SHMEM declares and whether symsim's shim declares it.

  tools/upstream-api-coverage.py SHMEM_CHECKOUT [SHIM_INCLUDE_DIR]

SHMEM_CHECKOUT is a checkout of hicann/shmem (none of its code is part of this repository). Each
header under include/device and include/device_simt is preprocessed on its own (its #include
lines dropped, the type-list macros of host_device/shmem_common_macros.h prepended), so the
NAME##_put style macros expand into the names upstream declares; the shim's shmem.h is
preprocessed the same way. A name counts as present when the shim declares it in the same
namespace (global, or simt for include/device_simt). Prints a Markdown table (header, function,
in symsim) and exits 1 when any upstream name is missing.
"""
import os
import re
import subprocess
import sys

NAME = re.compile(r"\b((?:aclshmemx?|shmemx?|dcci|util)_\w+)\s*\(")
ALIAS = re.compile(r"^\s*#\s*define\s+(shmemx?_\w+)\s+(aclshmemx?_\w+)\s*$", re.M)


def preprocess(text, include_dirs=()):
    args = ["g++", "-std=c++17", "-E", "-P", "-x", "c++", "-", "-D__gm__=", "-D__ubuf__=", "-D__aicore__=",
            "-DACLSHMEM_DEVICE=", "-D__simt_callee__=", "-w"]
    for d in include_dirs:
        args += ["-I", d]
    out = subprocess.run(args, input=text, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("preprocessing failed:\n" + out.stderr[-2000:])
    return out.stdout


def simt_block(text):
    """The text inside `namespace simt { ... }` blocks, and the rest."""
    inside, outside, pos = [], [], 0
    for m in re.finditer(r"namespace\s+simt\s*\{", text):
        if m.start() < pos:
            continue
        outside.append(text[pos:m.start()])
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        inside.append(text[m.end():i])
        pos = i
    outside.append(text[pos:])
    return "".join(inside), "".join(outside)


def names(text):
    return {m.group(1) for m in NAME.finditer(text)} - {"aclshmemi_get_state"}


def main():
    src = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    shim = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "kernels", "shim", "ascend", "include")
    inc = os.path.join(src, "include")
    with open(os.path.join(inc, "host_device", "shmem_common_macros.h")) as f:
        macros = re.sub(r"^\s*#\s*include.*$", "", f.read(), flags=re.M)
    upstream = {}  # (namespace, name) -> header
    aliases = {}
    for family in ("device", "device_simt"):
        for root, _, files in sorted(os.walk(os.path.join(inc, family))):
            for f in sorted(files):
                path = os.path.join(root, f)
                rel = os.path.relpath(path, inc)
                with open(path) as h:
                    raw = h.read()
                for a, target in ALIAS.findall(raw):
                    aliases[a] = rel
                body = re.sub(r"^\s*#\s*include.*$", "", raw, flags=re.M)
                text = preprocess(macros + "\n" + body)
                simt, plain = simt_block(text)
                for n in names(plain):
                    upstream.setdefault(("", n), rel)
                for n in names(simt):
                    upstream.setdefault(("simt", n), rel)
    shim_text = preprocess('#include "shmem.h"\n', [shim])
    shim_simt, shim_plain = simt_block(shim_text)
    have = {("", n) for n in names(shim_plain)} | {("simt", n) for n in names(shim_simt)}
    shim_raw = ""
    for root, _, files in os.walk(shim):
        for f in files:
            with open(os.path.join(root, f)) as h:
                shim_raw += h.read()
    have_alias = set(re.findall(r"#\s*define\s+(shmemx?_\w+)\b", shim_raw))
    missing = 0
    print("| upstream header | function | in symsim |")
    print("|---|---|---|")
    for (ns, n), rel in sorted(upstream.items(), key=lambda kv: (kv[1], kv[0][1])):
        ok = (ns, n) in have
        if not ok and "BITS" in n:
            # aclshmemx_put##BITS_block: a missing ## makes upstream declare this literal name,
            # which nothing defines (the definitions are aclshmemx_put8_block, ...).
            print(f"| {rel} | {'simt::' if ns else ''}{n} | not a call: upstream's macro typo, declared, never defined |")
            continue
        missing += not ok
        print(f"| {rel} | {'simt::' if ns else ''}{n} | {'yes' if ok else 'MISSING'} |")
    for a, rel in sorted(aliases.items(), key=lambda kv: (kv[1], kv[0])):
        ok = a in have_alias
        missing += not ok
        print(f"| {rel} | {a} (alias macro) | {'yes' if ok else 'MISSING'} |")
    print(f"\n{len(upstream) + len(aliases)} upstream device API names, {missing} missing in symsim", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
