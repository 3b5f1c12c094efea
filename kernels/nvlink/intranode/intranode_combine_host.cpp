// Host driver of intranode_combine: gives each rank the expert outputs of the tokens the
// routing dispatches to it (what intranode_dispatch delivered), runs the combine, and checks
// that every token of this rank came back as the exact sum of its destination ranks' rows.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "cuda_runtime.h"
#include "kernels/nvlink/intranode/intranode_combine.cuh"
#include "kernels/registry/kernel_registry.h"
#include "kernels/nvlink/common/routing.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

// Element i of the expert output rank `holder` computed for token t of rank `origin`.
int32_t expert_output(int holder, int origin, int t, int i) { return (holder * 131 + origin * 17 + t * 7 + i) & 0xffff; }

// The ranks holding an expert of token t of rank `origin` (bit per rank).
uint32_t destinations(int origin, int t, int topk, int experts, int ranks) {
  uint32_t bits = 0;
  for (int e : moe_routing::topk_of(origin, t, topk, experts, 7))
    if (e >= 0) bits |= 1u << (e / (experts / ranks));
  return bits;
}

void intranode_combine_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  const int ranks = cuda::n_ranks();
  const int tokens = static_cast<int>(a.u64("tokens")), hidden_ints = static_cast<int>(a.u64("hidden_bytes")) / 4;
  const int topk = static_cast<int>(a.u64("topk")), experts = static_cast<int>(a.u64("experts"));
  const int sms = a.blocks(), threads = static_cast<int>(a.u64("threads"));
  if (experts % ranks != 0 || ranks > 32 || topk > 32 || hidden_ints % 4 != 0 || threads < ranks)
    throw std::invalid_argument("experts must divide among ranks; ranks <= 32; topk <= 32; hidden_bytes a multiple of 16; threads >= ranks");

  // Held here: every (origin, token) with an expert on this rank, and its output row.
  std::vector<int> held_src;
  std::vector<int32_t> held_out;
  for (int s = 0; s < ranks; ++s)
    for (int t = 0; t < tokens; ++t) {
      if (!(destinations(s, t, topk, experts, ranks) & (1u << rank))) continue;
      held_src.push_back(s);
      held_src.push_back(t);
      for (int i = 0; i < hidden_ints; ++i) held_out.push_back(expert_output(rank, s, t, i));
    }
  std::vector<int> idx(static_cast<size_t>(tokens) * topk);
  for (int t = 0; t < tokens; ++t) {
    const auto k = moe_routing::topk_of(rank, t, topk, experts, 7);
    std::copy(k.begin(), k.end(), idx.begin() + static_cast<std::ptrdiff_t>(t) * topk);
  }
  IntranodeCombineArgs args{};
  args.held = static_cast<int>(held_src.size() / 2);
  int* held_src_dev = nullptr;
  int32_t* held_out_dev = nullptr;
  int* idx_dev = nullptr;
  cudaMalloc(&held_src_dev, std::max<size_t>(held_src.size(), 1) * sizeof(int));
  cudaMalloc(&held_out_dev, std::max<size_t>(held_out.size(), 1) * sizeof(int32_t));
  cudaMalloc(&idx_dev, idx.size() * sizeof(int));
  cudaMemcpy(held_src_dev, held_src.data(), held_src.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(held_out_dev, held_out.data(), held_out.size() * sizeof(int32_t), cudaMemcpyHostToDevice);
  cudaMemcpy(idx_dev, idx.data(), idx.size() * sizeof(int), cudaMemcpyHostToDevice);
  args.held_src = held_src_dev;
  args.held_out = held_out_dev;
  args.topk_idx = idx_dev;
  const size_t recv_ints = static_cast<size_t>(tokens) * ranks * hidden_ints;
  args.recv = static_cast<int32_t*>(cuda::sym_malloc(recv_ints * sizeof(int32_t), 1024));
  cudaMemset(args.recv, 0, recv_ints * sizeof(int32_t));
  cudaMalloc(&args.out, static_cast<size_t>(tokens) * hidden_ints * sizeof(int32_t));
  args.ws = static_cast<comm::Workspace*>(cuda::sym_malloc(sizeof(comm::Workspace)));
  cudaMemset(args.ws, 0, sizeof(comm::Workspace));
  args.window = cuda::sym_window();
  args.num_tokens = tokens;
  args.hidden_ints = hidden_ints;
  args.topk = topk;
  args.num_experts = experts;
  cuda::host_barrier();

  const int launched = launch_intranode_combine(sms, threads, args);
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: intranode_combine completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));

  std::vector<int32_t> out(static_cast<size_t>(tokens) * hidden_ints);
  cudaMemcpy(out.data(), args.out, out.size() * sizeof(int32_t), cudaMemcpyDeviceToHost);
  std::string diff;
  for (int t = 0; t < tokens && diff.empty(); ++t) {
    const uint32_t from = destinations(rank, t, topk, experts, ranks);
    for (int i = 0; i < hidden_ints; ++i) {
      int32_t want = 0;
      for (int r = 0; r < ranks; ++r)
        if (from & (1u << r)) want += expert_output(r, rank, t, i);
      if (out[static_cast<size_t>(t) * hidden_ints + i] != want) {
        diff = fmt::format("token {}: element {} is {}, want {}", t, i, out[static_cast<size_t>(t) * hidden_ints + i], want);
        break;
      }
    }
  }
  symsim::check(diff.empty(),
                fmt::format("gpu {}: all {} tokens combined from their ranks' {} rows exactly", rank, tokens, args.held),
                diff);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(intranode_combine, {"intranode_combine", "nvidia",
                                           "DeepEP V2-style intranode MoE combine: TMA stores of expert outputs to "
                                           "the origin's symmetric buffer, NVLink barrier, top-k reduction",
                                           {{"threads", "threads per CTA (>= ranks)", 32, 1024, 128},
                                            {"tokens", "tokens per rank", 1, 4096, 128},
                                            {"hidden_bytes", "bytes per token row (int32 elements; multiple of 16)", 16, 65536, 7168},
                                            {"topk", "experts per token", 1, 32, 8},
                                            {"experts", "experts in all (a multiple of the ranks)", 1, 1024, 64}},
                                           132, intranode_combine_host});
