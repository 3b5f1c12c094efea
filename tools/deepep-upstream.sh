#!/usr/bin/env bash
# Builds DeepEP's kernels, unmodified, with tools/symsim-nvcc together with this project's host
# drivers and runs them on simulated H200 GPUs; the drivers check every received byte against
# their references. None of DeepEP's code is part of this repository.
#   intranode:   csrc/kernels/intranode.cu (notify_dispatch, dispatch, cached_notify_dispatch,
#                cached_notify_combine, combine) with kernels/cuda_programs/deepep_intranode on the
#                8 GPUs of one NVLink node
#   low_latency: csrc/kernels/internode_ll.cu (clean_low_latency_buffer, dispatch, combine) with
#                its own ibgda_device.cuh, over the NVSHMEM shim on the NIC model, with
#                kernels/cuda_programs/deepep_low_latency on 4 GPUs
#   tools/deepep-upstream.sh [DEEPEP_CHECKOUT [BIN_DIR [symsim run options...]]]
# DEEPEP_KERNELS (default "intranode low_latency") picks which; the symsim run options (e.g.
# --set kernel.args.tokens=8) go to each run, so give them with one kernel picked.
# Without DEEPEP_CHECKOUT (or $SYMSIM_DEEPEP_DIR) DeepEP is fetched with git at the pinned
# commit into ${XDG_CACHE_HOME:-~/.cache}/symsim/DeepEP; where the network does not allow it
# the script says so and exits 77 (skipped).
# Exit: 0 all kernels built, ran and matched; 1 a failure; 77 no DeepEP checkout reachable.
set -uo pipefail
readonly commit=567632dd59810d77b3cc05553df953cc0f779799  # last commit with csrc/kernels/intranode.cu (2026-02-03)
readonly url=https://github.com/deepseek-ai/DeepEP.git
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-}
[[ -n $src ]] || src=${SYMSIM_DEEPEP_DIR:-}
if [[ -z $src ]]; then
  src=${XDG_CACHE_HOME:-$HOME/.cache}/symsim/DeepEP
  if [[ $(git -C "$src" rev-parse HEAD 2>/dev/null) != "$commit" ]]; then
    rm -rf "$src" && mkdir -p "$src"
    if ! (git -C "$src" init -q && git -C "$src" fetch -q --depth 1 "$url" "$commit" &&
          git -C "$src" checkout -q FETCH_HEAD) 2>"$src.fetch.log"; then
      echo "deepep-upstream: skipped: cannot fetch $url at $commit: $(tail -1 "$src.fetch.log")"
      echo "deepep-upstream: pass a checkout of that commit: tools/deepep-upstream.sh DIR (or set SYMSIM_DEEPEP_DIR)"
      rm -rf "$src" "$src.fetch.log"
      exit 77
    fi
  fi
fi
[[ -f $src/csrc/kernels/intranode.cu ]] || { echo "deepep-upstream: $src has no csrc/kernels/intranode.cu (want DeepEP $commit)"; exit 1; }
have=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
[[ $have == "$commit" ]] || echo "deepep-upstream: note: $src is at $have, not the pinned $commit"
bin=$(cd "${2:-$here/../build/bin}" && pwd)
export SYMSIM_REWRITE=$bin/symsim-rewrite
work=$(mktemp -d "${TMPDIR:-/tmp}/symsim-deepep.XXXXXX")
trap 'rm -rf "$work"' EXIT
k=$src/csrc/kernels
drv=$here/../kernels/cuda_programs/deepep_intranode
failed=0

kernels=${DEEPEP_KERNELS:-intranode low_latency}
ll=$here/../kernels/cuda_programs/deepep_low_latency

run_intranode() {
  # DeepEP's own build options: NVSHMEM off (intranode needs none), SM90 features (TMA) on.
  if "$here/symsim-nvcc" -O2 -std=c++17 -arch=sm_90a -DDISABLE_NVSHMEM -I"$k" -I"$drv" "$k/intranode.cu" \
       "$drv/deepep_intranode.cu" -o "$work/libdeepep_intranode.so" --symsim-kernel deepep_intranode \
       --symsim-argv "{pe} {n_pes} {tokens} {hidden} {sms} {send_chunk} {recv_slots}" \
       --symsim-arg "tokens:1:4096:64:tokens per rank" --symsim-arg "hidden:16:8192:1024:hidden size (bf16 elements)" \
       --symsim-arg "sms:2:132:4:CTAs of dispatch and combine (two per channel)" \
       --symsim-arg "send_chunk:1:256:6:tokens a sender moves per round" \
       --symsim-arg "recv_slots:1:1024:32:ring slots per channel and rank" \
       --symsim-doc "DeepEP intranode notify_dispatch/dispatch/combine (unmodified) with a byte-checking host driver" \
       >"$work/intranode.build.log" 2>&1; then
    if "$bin/symsim" run "$drv/deepep_intranode.json" --kernel-lib "$work/libdeepep_intranode.so" \
         --out "$work/out" "${@}" >"$work/intranode.run.log" 2>&1; then
      echo "intranode.cu (notify_dispatch, dispatch, cached_notify_dispatch, cached_notify_combine, combine): builds, runs, bytes match"
    else
      echo "intranode.cu: builds; RUN FAILED"; failed=1
    fi
    grep -E "^deepep rank|^deepep_intranode: " "$work/intranode.run.log" || tail -15 "$work/intranode.run.log"
  else
    echo "intranode.cu: BUILD FAILED"; grep -m8 -E "error" "$work/intranode.build.log"; failed=1
  fi
}

run_low_latency() {
  # NVSHMEM on (the shim's nvshmem.h, IBGDA state and mlx5dv.h), as DeepEP builds it.
  if "$here/symsim-nvcc" -O2 -std=c++17 -arch=sm_90a -I"$k" -I"$ll" "$k/internode_ll.cu" "$ll/deepep_low_latency.cu" \
       -lnvshmem -lmlx5 -o "$work/libdeepep_low_latency.so" --symsim-kernel deepep_low_latency \
       --symsim-argv "{pe} {n_pes} {tokens} {hidden} {local_experts} {topk} {sms} {nvlink}" \
       --symsim-arg "tokens:1:1024:16:tokens per rank (also the most any rank dispatches)" \
       --symsim-arg "hidden:2048:8192:2048:hidden size (bf16 elements; one of DeepEP's builds)" \
       --symsim-arg "local_experts:1:64:4:experts per rank (one RC QP per local expert and peer)" \
       --symsim-arg "topk:1:11:4:experts per token" --symsim-arg "sms:2:132:8:SMs DeepEP may use (num_device_sms)" \
       --symsim-arg "nvlink:0:1:0:1: peers of the NVLink domain over NVLink (NVSHMEM P2P); 0: RDMA to every peer" \
       --symsim-doc "DeepEP low-latency dispatch/combine (unmodified internode_ll.cu, ibgda_device.cuh) over NVSHMEM on the NIC model" \
       >"$work/low_latency.build.log" 2>&1; then
    if "$bin/symsim" run "$ll/deepep_low_latency.json" --kernel-lib "$work/libdeepep_low_latency.so" \
         --out "$work/out_ll" "${@}" >"$work/low_latency.run.log" 2>&1; then
      echo "internode_ll.cu (clean_low_latency_buffer, dispatch, combine; NVSHMEM IBGDA on the NIC model): builds, runs, bytes match"
    else
      echo "internode_ll.cu: builds; RUN FAILED"; failed=1
    fi
    grep -E "^deepep_ll rank|^deepep_low_latency: |WQEs|hazard" "$work/low_latency.run.log" || tail -15 "$work/low_latency.run.log"
  else
    echo "internode_ll.cu: BUILD FAILED"; grep -m8 -E "error" "$work/low_latency.build.log"; failed=1
  fi
}

for kernel in $kernels; do
  case $kernel in
    intranode) run_intranode "${@:3}" ;;
    low_latency) run_low_latency "${@:3}" ;;
    *) echo "deepep-upstream: DEEPEP_KERNELS: unknown kernel set '$kernel' (intranode, low_latency)"; exit 2 ;;
  esac
done
exit $failed
