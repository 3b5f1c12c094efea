#!/bin/bash
# s19-sass: disassemble the sm_90a cubins built on the CPU machine (nvcc 13.0, -lineinfo). No GPU run.
# Was run as `bash build-dev-s19-sass/dump.sh` (the cubins beside it), carry ["build-dev-s19-sass"].
cd "$(dirname "$0")"
S=$OUT/s; mkdir -p $S
export PATH=$PATH:/usr/local/cuda/bin
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; ls /usr/local/cuda*/bin; command -v cuobjdump nvdisasm; cuobjdump --version; nvdisasm --version; } > $S/env.txt 2>&1
for c in *.cubin; do
  b=${c%.cubin}
  cuobjdump -sass $c > $S/$b.cuobjdump.sass 2>&1
  nvdisasm -c -gi $c > $S/$b.nvdisasm.sass 2>&1
  nvdisasm -cfg $c > $S/$b.cfg.dot 2>&1
done
if ! command -v cuobjdump >/dev/null; then find / -xdev \( -name cuobjdump -o -name nvdisasm \) 2>/dev/null | head > $S/find.txt; fi
tar -czf $OUT/sass.tgz -C $OUT s && rm -rf $S
ls -la $OUT
