#!/usr/bin/env bash
# check-includes.sh [--root DIR] [FILE...]: the include rules of docs/includes.md on the
# project's C++/CUDA sources (all of them, or the FILEs given, as paths from the root). A "..." include must name
#   - a project header by its path from the project root ("sim/checkers/catalog.h"), or
#   - a header of a shim's public include folder by its vendor name ("shmem.h", "symsim/launch.h"),
#     kernels/shim/{ascend,cuda,nvshmem}/include and kernels/shim/cuda/device, or
#   - in a stand-alone program's folder (kernels/cuda_programs/*, hw/calib), a header beside it.
# It fails (exit 1, one line per include: file:line: what is wrong) on an include with "../" or
# "./", one relative to sim/ or to the including file's folder or another folder that is not an
# include root, and one of a shim's private src/ from outside that shim. Includes of files not in
# the tree (generated, third-party) are not judged. docs/includes.md gives the form to write.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${1:-} == --root ]]; then
  root=$(cd "$2" && pwd)
  shift 2
fi
cd "$root"
if [[ $# -eq 0 ]]; then
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files -- '*.h' '*.hpp' '*.cpp' '*.cc' '*.cu' '*.cuh' '*.inc')
  else
    mapfile -t files < <(find . -path ./build -prune -o -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' \
                           -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' -o -name '*.inc' \) -printf '%P\n')
  fi
else
  files=("$@")
fi
printf '%s\0' "${files[@]}" | python3 -c '
import os, re, sys
files = [f for f in sys.stdin.read().split("\0") if f]
public = ["kernels/shim/ascend/include", "kernels/shim/cuda/include", "kernels/shim/cuda/device",
          "kernels/shim/nvshmem/include"]
programs = ["kernels/cuda_programs/", "hw/calib/"]
# One shim = the folders of one library (the CUDA shim compiles the NVSHMEM sources too).
shims = {"kernels/shim/ascend/": "ascend", "kernels/shim/cuda/": "cuda", "kernels/shim/nvshmem/": "cuda"}
def shim_of(path):
    return next((s for p, s in shims.items() if path.startswith(p)), None)
names = {}  # file name -> files of that name, for includes that resolve nowhere
for dirpath, dirnames, filenames in os.walk("."):
    dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "build"]
    for n in filenames:
        names.setdefault(n, []).append(os.path.normpath(os.path.join(dirpath, n)))
pat = re.compile(r"^\s*#\s*include\s*\"([^\"]+)\"")
bad = 0
def fail(f, n, msg):
    global bad
    bad += 1
    print(f"{f}:{n}: {msg}")
for f in files:
    here = os.path.dirname(f)
    with open(f, encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            m = pat.match(line)
            if not m:
                continue
            inc = m.group(1)
            if inc.startswith("./") or "../" in inc:
                fail(f, n, f"\"{inc}\": no \"../\" or \"./\" includes; name the header by its path from the project root")
                continue
            if any(f.startswith(p) for p in programs) and os.path.isfile(os.path.join(here, inc)):
                continue
            if any(os.path.isfile(os.path.join(p, inc)) for p in public):
                continue
            pub = next((p for p in public if inc.startswith(p + "/")), None)
            if pub:
                fail(f, n, f"\"{inc}\": a shim header by its vendor name: \"{inc[len(pub) + 1:]}\"")
                continue
            if os.path.isfile(inc):
                s = shim_of(inc)
                if "/src/" in inc and s and shim_of(f) != s:
                    fail(f, n, f"\"{inc}\": a private header of the {s} shim; use its public include folder")
                continue
            if os.path.isfile(os.path.join("sim", inc)):
                fail(f, n, f"\"{inc}\": relative to sim/; write \"sim/{inc}\"")
            elif os.path.isfile(os.path.join(here, inc)):
                fail(f, n, f"\"{inc}\": relative to its own folder; write \"{os.path.normpath(os.path.join(here, inc))}\"")
            else:
                hits = [p for p in names.get(os.path.basename(inc), []) if p.endswith("/" + inc)]
                if hits:
                    fail(f, n, f"\"{inc}\": not an include root; write it by its path from the project root ({hits[0]})")
if bad:
    print(f"check-includes: {bad} include(s) break the rules (docs/includes.md)")
    sys.exit(1)
print(f"check-includes: {len(files)} files follow the include rules")
'
