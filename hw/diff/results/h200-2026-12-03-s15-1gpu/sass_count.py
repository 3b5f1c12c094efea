import sys, re, subprocess
# per kernel: MUFU.RCP count (division sequences) and register-indexed parameter reads
for b in sys.argv[1:]:
    out = subprocess.run(["cuobjdump", "--dump-sass", b], capture_output=True, text=True).stdout
    k = None; cnt = {}
    for line in out.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m: k = m.group(1); cnt[k] = [0, 0]; continue
        if k is None: continue
        if "MUFU.RCP" in line: cnt[k][0] += 1
        if re.search(r"LDC[.\w]* R\d+, c\[0x0\]\[R\d+", line): cnt[k][1] += 1
    for k, (d, i) in sorted(cnt.items()):
        if re.search(r"dispatch|combine|pull|shim_parts", k): print(f"{b.split('/')[-1]}\t{d}\t{i}\t{k}")
