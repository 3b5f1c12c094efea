// Host driver of ll_combine: gives each rank's local experts the outputs for the tokens the
// routing sends them (what ll_dispatch delivered), sets up IBGDA as DeepEP V1 does (one RC QP
// per local expert per peer, the doorbell every 4th message), runs the combine, and checks that
// every token of this rank is the exact sum of its top-k experts' rows.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "cuda_runtime.h"
#include "kernels/registry/kernel_registry.h"
#include "kernels/ibgda/ll/ll_combine.cuh"
#include "kernels/nvlink/common/routing.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

// Element i of expert e's output for token t of rank `origin`.
int32_t expert_output(int e, int origin, int t, int i) { return (e * 131 + origin * 17 + t * 7 + i) & 0xffff; }

void ll_combine_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  const int ranks = cuda::n_ranks();
  const int tokens = static_cast<int>(a.u64("tokens")), hidden_ints = static_cast<int>(a.u64("hidden_bytes")) / 4;
  const int topk = static_cast<int>(a.u64("topk")), experts = static_cast<int>(a.u64("experts"));
  const int sms = a.blocks(), threads = static_cast<int>(a.u64("threads"));
  const int local = experts / ranks;
  if (experts % ranks != 0 || hidden_ints % 4 != 0) throw std::invalid_argument("experts must divide among ranks; hidden_bytes a multiple of 16");

  // Held here, grouped by (local expert, origin): every top-k slot that chose a local expert.
  std::vector<int> held, pair_begin;
  std::vector<int32_t> held_out;
  for (int le = 0; le < local; ++le)
    for (int s = 0; s < ranks; ++s) {
      pair_begin.push_back(static_cast<int>(held.size() / 4));
      const int e = rank * local + le;
      for (int t = 0; t < tokens; ++t) {
        const auto k = moe_routing::topk_of(s, t, topk, experts, 5);
        for (int j = 0; j < topk; ++j) {
          if (k[static_cast<size_t>(j)] != e) continue;
          held.insert(held.end(), {le, s, t, j});
          for (int i = 0; i < hidden_ints; ++i) held_out.push_back(expert_output(e, s, t, i));
        }
      }
    }
  pair_begin.push_back(static_cast<int>(held.size() / 4));
  std::vector<int> idx(static_cast<size_t>(tokens) * topk);
  for (int t = 0; t < tokens; ++t) {
    const auto k = moe_routing::topk_of(rank, t, topk, experts, 5);
    std::copy(k.begin(), k.end(), idx.begin() + static_cast<std::ptrdiff_t>(t) * topk);
  }

  cuda::IbgdaOptions o;
  o.qps_per_peer = local;
  o.ring_every = static_cast<int>(a.u64("ring_every"));
  o.wait_for_slots = false;
  o.check_cqe_errors = false;
  LLCombineArgs args{};
  args.rdma = cuda::ibgda_init(o);
  auto upload = [](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    T* p = nullptr;
    cudaMalloc(&p, std::max<size_t>(v.size(), 1) * sizeof(T));
    cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
    return p;
  };
  args.held = upload(held);
  args.pair_begin = upload(pair_begin);
  args.held_out = upload(held_out);
  args.topk_idx = upload(idx);
  const size_t recv_ints = static_cast<size_t>(tokens) * topk * hidden_ints;
  args.recv = static_cast<int32_t*>(cuda::sym_malloc(recv_ints * sizeof(int32_t), 1024));
  args.recv_flag = static_cast<int*>(cuda::sym_malloc(experts * sizeof(int)));
  cudaMemset(args.recv, 0, recv_ints * sizeof(int32_t));
  cudaMemset(args.recv_flag, 0, experts * sizeof(int));
  cudaMalloc(&args.out, static_cast<size_t>(tokens) * hidden_ints * sizeof(int32_t));
  args.window = cuda::sym_window();
  args.tokens = tokens;
  args.hidden_ints = hidden_ints;
  args.topk = topk;
  args.experts = experts;
  cuda::host_barrier();

  const int launched = launch_ll_combine(sms, threads, args);
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: ll_combine completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));

  std::vector<int32_t> out(static_cast<size_t>(tokens) * hidden_ints);
  cudaMemcpy(out.data(), args.out, out.size() * sizeof(int32_t), cudaMemcpyDeviceToHost);
  std::string diff;
  for (int t = 0; t < tokens && diff.empty(); ++t) {
    const auto k = moe_routing::topk_of(rank, t, topk, experts, 5);
    for (int i = 0; i < hidden_ints; ++i) {
      int32_t want = 0;
      for (int e : k)
        if (e >= 0) want += expert_output(e, rank, t, i);
      if (out[static_cast<size_t>(t) * hidden_ints + i] != want) {
        diff = fmt::format("token {}: element {} is {}, want {}", t, i, out[static_cast<size_t>(t) * hidden_ints + i], want);
        break;
      }
    }
  }
  symsim::check(diff.empty(), fmt::format("gpu {}: all {} tokens combined from their top-{} experts exactly", rank, tokens, topk),
                diff);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(ll_combine, {"ll_combine", "nvidia",
                                    "DeepEP V1-style low-latency combine over GPU-driven RDMA: put_nbi_warp of every "
                                    "expert output back to its origin, a per-expert flag by RDMA atomic on the same QP, "
                                    "top-k reduction",
                                    {{"threads", "threads per CTA", 32, 1024, 256},
                                     {"tokens", "tokens per rank", 1, 4096, 128},
                                     {"hidden_bytes", "bytes per output row (int32 elements; multiple of 16)", 16, 65536, 7168},
                                     {"topk", "experts per token", 1, 32, 8},
                                     {"experts", "experts in all (a multiple of the ranks)", 1, 4096, 64},
                                     {"ring_every", "ring the doorbell every Nth message (DeepEP: 4)", 1, 1024, 4}},
                                    132, ll_combine_host});
