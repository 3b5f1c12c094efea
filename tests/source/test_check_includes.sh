#!/usr/bin/env bash
# test_check_includes.sh CHECK WORK: tools/check-includes.sh on a small tree of its own passes
# the allowed forms and fails each kind of break at the right file and line, naming the fix.
set -euo pipefail
check=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"
mkdir -p sim/checkers kernels/shim/ascend/include/symsim kernels/shim/ascend/src kernels/nvlink/common \
         kernels/moe/host kernels/cuda_programs/demo models/core
touch sim/checkers/catalog.h kernels/shim/ascend/include/shmem.h kernels/shim/ascend/include/symsim/launch.h \
      kernels/shim/ascend/src/world.h kernels/nvlink/common/nvlink_common.h models/core/time.h \
      kernels/cuda_programs/demo/ptx_utils.cuh
printf '%s\n' '#include "sim/checkers/catalog.h"' '#include "models/core/time.h"' '#include "shmem.h"' \
  '#include "symsim/launch.h"' '#include "generated_version.h"' '#include <vector>' > kernels/moe/host/good.cpp
printf '%s\n' '#include "ptx_utils.cuh"' > kernels/cuda_programs/demo/demo.cu
printf '%s\n' '#include "kernels/shim/ascend/src/world.h"' > kernels/shim/ascend/src/inside.cpp
expect_fail() {  # FILE LINE MESSAGE-PART: the check fails on FILE, at LINE, saying MESSAGE-PART
  local out
  if out=$(bash "$check" --root . "$1"); then echo "FAIL: no error for $1"; exit 1; fi
  grep -qF "$1:$2: " <<<"$out" || { echo "FAIL: $1 not reported at line $2:"; echo "$out"; exit 1; }
  grep -qF "$3" <<<"$out" || { echo "FAIL: $1: expected '$3' in:"; echo "$out"; exit 1; }
  echo "ok: $1 fails: $(head -1 <<<"$out")"
}
bash "$check" --root . kernels/moe/host/good.cpp kernels/cuda_programs/demo/demo.cu kernels/shim/ascend/src/inside.cpp
printf '%s\n' '#include <cstdint>' '#include "../../sim/checkers/catalog.h"' > kernels/moe/host/dotdot.cpp
expect_fail kernels/moe/host/dotdot.cpp 2 'no "../"'
printf '%s\n' '#include "checkers/catalog.h"' > kernels/moe/host/simrel.cpp
expect_fail kernels/moe/host/simrel.cpp 1 'write "sim/checkers/catalog.h"'
printf '%s\n' '#include "kernels/shim/ascend/src/world.h"' > kernels/moe/host/private.cpp
expect_fail kernels/moe/host/private.cpp 1 'a private header of the ascend shim'
printf '%s\n' '#include "nvlink_common.h"' > kernels/moe/host/flat.cpp
expect_fail kernels/moe/host/flat.cpp 1 '(kernels/nvlink/common/nvlink_common.h)'
printf '%s\n' '#include "catalog.h"' > sim/checkers/sibling.cpp
expect_fail sim/checkers/sibling.cpp 1 'write "sim/checkers/catalog.h"'
printf '%s\n' '#include "kernels/shim/ascend/include/shmem.h"' > kernels/moe/host/vendor.cpp
expect_fail kernels/moe/host/vendor.cpp 1 'by its vendor name: "shmem.h"'
echo "check-includes: every kind of break is caught"
