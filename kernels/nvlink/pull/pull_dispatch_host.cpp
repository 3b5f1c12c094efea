// Host driver of pull_dispatch: puts this rank's tokens and routing in symmetric memory, runs
// the kernel, and checks that this rank pulled exactly the tokens routed to it from every
// source, each once and byte for byte, whatever output slots the warps took.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "cuda_runtime.h"
#include "kernels/registry/kernel_registry.h"
#include "kernels/nvlink/pull/pull_dispatch.cuh"
#include "kernels/nvlink/common/host_check_buffer.h"
#include "kernels/nvlink/common/routing.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

void pull_dispatch_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  const int ranks = cuda::n_ranks();
  const int tokens = static_cast<int>(a.u64("tokens")), hidden = static_cast<int>(a.u64("hidden_bytes"));
  const int topk = static_cast<int>(a.u64("topk")), experts = static_cast<int>(a.u64("experts"));
  const int sms = a.blocks(), threads = static_cast<int>(a.u64("threads"));
  const bool kernel_ranks = ranks == 1 || ranks == 2 || ranks == 4 || ranks == 8;  // the kernel's kNumRanks
  if (experts % ranks != 0 || !kernel_ranks || topk > 32 || hidden % 16 != 0 || threads < ranks)
    throw std::invalid_argument(
        "experts must divide among ranks; ranks 1, 2, 4 or 8; topk <= 32; hidden_bytes a multiple of 16; threads >= ranks");

  std::vector<uint8_t> x(static_cast<size_t>(tokens) * hidden);
  std::vector<int> idx(static_cast<size_t>(tokens) * topk);
  for (int t = 0; t < tokens; ++t) {
    for (int i = 0; i < hidden; ++i) x[static_cast<size_t>(t) * hidden + i] = moe_routing::token_byte(rank, t, i);
    const auto k = moe_routing::topk_of(rank, t, topk, experts, 7);
    std::copy(k.begin(), k.end(), idx.begin() + static_cast<std::ptrdiff_t>(t) * topk);
  }
  PullDispatchArgs args{};
  auto* x_sym = static_cast<uint8_t*>(cuda::sym_malloc(x.size(), 128));
  auto* idx_sym = static_cast<int*>(cuda::sym_malloc(idx.size() * sizeof(int), 128));
  cudaMemcpy(x_sym, x.data(), x.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(idx_sym, idx.data(), idx.size() * sizeof(int), cudaMemcpyHostToDevice);
  args.x = x_sym;
  args.topk_idx = idx_sym;
  args.ws = static_cast<comm::Workspace*>(cuda::sym_malloc(sizeof(comm::Workspace)));
  cudaMemset(args.ws, 0, sizeof(comm::Workspace));
  const size_t max_out = static_cast<size_t>(ranks) * tokens;
  cudaMalloc(&args.recv_x, max_out * hidden);
  cudaMalloc(&args.recv_src, max_out * 2 * sizeof(int));
  cudaMalloc(&args.recv_counter, sizeof(int));
  cudaMemset(args.recv_counter, 0, sizeof(int));
  const layout::SymBuffer<> sym(cuda::sym_addresses(cuda::sym_heap_base()), static_cast<uint32_t>(rank));
  args.num_ranks = ranks;
  args.num_tokens = tokens;
  args.hidden_bytes = hidden;
  args.topk = topk;
  args.num_experts = experts;
  cuda::host_barrier();

  const int launched = launch_pull_dispatch(sms, threads, args, sym);
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: pull_dispatch completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));

  // What must have arrived: (source, token) pairs with an expert here.
  const int per_rank = experts / ranks;
  std::set<std::pair<int, int>> expected;
  for (int s = 0; s < ranks; ++s)
    for (int t = 0; t < tokens; ++t)
      for (int e : moe_routing::topk_of(s, t, topk, experts, 7))
        if (e >= 0 && e / per_rank == rank) expected.insert({s, t});
  int total = -1;
  cudaMemcpy(&total, args.recv_counter, sizeof(int), cudaMemcpyDeviceToHost);
  const size_t n = static_cast<size_t>(std::clamp(total, 0, static_cast<int>(max_out)));
  std::vector<int> src(n * 2);
  // Mapped for this copy alone (host_check_buffer.h): a zero-filled vector per GPU was resident
  // for all GPUs at once.
  symsim::harness::HostCheckBuffer got(n * hidden);
  cudaMemcpy(src.data(), args.recv_src, src.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got.data(), args.recv_x, got.size(), cudaMemcpyDeviceToHost);
  std::string diff;
  std::set<std::pair<int, int>> seen;
  for (size_t m = 0; m < n && diff.empty(); ++m) {
    const std::pair<int, int> st{src[2 * m], src[2 * m + 1]};
    if (!expected.count(st) || !seen.insert(st).second) {
      diff = fmt::format("slot {} holds token {} of rank {}: not routed here, or twice", m, st.second, st.first);
      break;
    }
    for (int i = 0; i < hidden; ++i)
      if (got.data()[m * hidden + i] != moe_routing::token_byte(st.first, st.second, i)) {
        diff = fmt::format("token {} of rank {}: byte {} is {:#x}, want {:#x}", st.second, st.first, i,
                           got.data()[m * hidden + i], moe_routing::token_byte(st.first, st.second, i));
        break;
      }
  }
  symsim::check(total == static_cast<int>(expected.size()) && diff.empty(),
                fmt::format("gpu {}: pulled {} tokens byte for byte, each once", rank, expected.size()),
                diff.empty() ? fmt::format("pulled {}", total) : diff);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(pull_dispatch, {"pull_dispatch", "nvidia",
                                       "DeepGEMM-style pull dispatch: receivers read routing over NVLink and pull "
                                       "their tokens with remote TMA loads (SymBuffer::map)",
                                       {{"threads", "threads per CTA (>= ranks; warps take (source, token) pairs)", 32, 1024, 128},
                                        {"tokens", "tokens per rank", 1, 4096, 128},
                                        {"hidden_bytes", "bytes per token (multiple of 16)", 16, 65536, 7168},
                                        {"topk", "experts per token", 1, 32, 8},
                                        {"experts", "experts in all (a multiple of the ranks)", 1, 1024, 64}},
                                       132, pull_dispatch_host});
