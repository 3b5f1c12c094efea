// Host driver of intranode_dispatch: builds tokens and top-k routing, runs the kernel, and
// checks on the receive side, byte for byte, that each rank got exactly the tokens routed to
// it from every source (each once, with its header), whatever slots the senders took.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

#include "cuda_runtime.h"
#include "kernels/nvlink/intranode/intranode_dispatch.cuh"
#include "kernels/registry/kernel_registry.h"
#include "kernels/nvlink/common/host_check_buffer.h"
#include "kernels/nvlink/common/routing.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

void intranode_dispatch_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  const int ranks = cuda::n_ranks();
  const int tokens = static_cast<int>(a.u64("tokens")), hidden = static_cast<int>(a.u64("hidden_bytes"));
  const int topk = static_cast<int>(a.u64("topk")), experts = static_cast<int>(a.u64("experts"));
  const int sms = a.blocks(), threads = static_cast<int>(a.u64("threads"));
  const int msg = static_cast<int>(sizeof(DispatchHeader)) + hidden;
  const bool kernel_ranks = ranks == 1 || ranks == 2 || ranks == 4 || ranks == 8;  // the kernel's kNumRanks
  if (experts % ranks != 0 || !kernel_ranks || topk > 32 || hidden % 16 != 0)
    throw std::invalid_argument("experts must divide among ranks; ranks 1, 2, 4 or 8; topk <= 32; hidden_bytes a multiple of 16");

  // Inputs.
  std::vector<uint8_t> x(static_cast<size_t>(tokens) * hidden);
  std::vector<int> idx(static_cast<size_t>(tokens) * topk);
  for (int t = 0; t < tokens; ++t) {
    for (int i = 0; i < hidden; ++i) x[static_cast<size_t>(t) * hidden + i] = moe_routing::token_byte(rank, t, i);
    const auto k = moe_routing::topk_of(rank, t, topk, experts, 7);
    std::copy(k.begin(), k.end(), idx.begin() + static_cast<std::ptrdiff_t>(t) * topk);
  }
  IntranodeDispatchArgs args{};
  uint8_t* x_dev = nullptr;
  int* idx_dev = nullptr;
  cudaMalloc(&x_dev, x.size());
  cudaMalloc(&idx_dev, idx.size() * sizeof(int));
  args.x = x_dev;
  args.topk_idx = idx_dev;
  cudaMalloc(&args.send_counter, ranks * sizeof(int));
  cudaMalloc(&args.recv_x, static_cast<size_t>(ranks) * tokens * msg);
  cudaMalloc(&args.recv_total, sizeof(int));
  args.recv_buf = static_cast<uint8_t*>(cuda::sym_malloc(static_cast<size_t>(ranks) * tokens * msg, 1024));
  args.recv_count = static_cast<int*>(cuda::sym_malloc(ranks * sizeof(int)));
  args.ws = static_cast<comm::Workspace*>(cuda::sym_malloc(sizeof(comm::Workspace)));
  cudaMemcpy(x_dev, x.data(), x.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(idx_dev, idx.data(), idx.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(args.send_counter, 0, ranks * sizeof(int));
  cudaMemset(args.recv_count, 0, ranks * sizeof(int));
  cudaMemset(args.ws, 0, sizeof(comm::Workspace));
  args.window = cuda::sym_window();
  args.num_tokens = tokens;
  args.hidden_bytes = hidden;
  args.topk = topk;
  args.num_experts = experts;
  args.max_tokens = tokens;
  cuda::host_barrier();

  const int launched = launch_intranode_dispatch(sms, threads, args);
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: intranode_dispatch completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));

  // What this rank must have received: per source, the tokens with an expert here.
  const int per_rank = experts / ranks;
  std::vector<std::set<int>> expected(static_cast<size_t>(ranks));
  size_t expected_total = 0;
  for (int s = 0; s < ranks; ++s)
    for (int t = 0; t < tokens; ++t) {
      for (int e : moe_routing::topk_of(s, t, topk, experts, 7))
        if (e >= 0 && e / per_rank == rank) {
          expected[static_cast<size_t>(s)].insert(t);
          break;
        }
      expected_total += expected[static_cast<size_t>(s)].count(t);
    }
  std::vector<int> counts(static_cast<size_t>(ranks));
  cudaMemcpy(counts.data(), args.recv_count, ranks * sizeof(int), cudaMemcpyDeviceToHost);
  std::string bad_counts;
  for (int s = 0; s < ranks; ++s)
    if (counts[static_cast<size_t>(s)] - 1 != static_cast<int>(expected[static_cast<size_t>(s)].size()))
      bad_counts += fmt::format(" from {}: {} (want {})", s, counts[static_cast<size_t>(s)] - 1, expected[static_cast<size_t>(s)].size());
  symsim::check(bad_counts.empty(), fmt::format("gpu {}: per-source receive counts match the routing ({} tokens)", rank, expected_total),
                bad_counts);

  int total = -1;
  cudaMemcpy(&total, args.recv_total, sizeof(int), cudaMemcpyDeviceToHost);
  // Mapped for this copy alone (host_check_buffer.h): a zero-filled vector per GPU was resident
  // for all GPUs at once.
  symsim::harness::HostCheckBuffer got(static_cast<size_t>(std::max(total, 0)) * msg);
  cudaMemcpy(got.data(), args.recv_x, got.size(), cudaMemcpyDeviceToHost);
  std::string diff;
  std::vector<std::set<int>> seen(static_cast<size_t>(ranks));
  int m = 0;
  for (int s = 0; s < ranks && diff.empty(); ++s) {
    for (int c = 0; c < counts[static_cast<size_t>(s)] - 1 && diff.empty(); ++c, ++m) {
      if (m >= total) {  // counts and total disagree: a failed check, not a read past `got`
        diff = fmt::format("the counts name more than the {} messages packed", total);
        break;
      }
      const uint8_t* p = got.data() + static_cast<size_t>(m) * msg;
      DispatchHeader h{};
      std::memcpy(&h, p, sizeof(h));
      if (h.src_rank != s || !expected[static_cast<size_t>(s)].count(h.token) || !seen[static_cast<size_t>(s)].insert(h.token).second) {
        diff = fmt::format("message {} (source {} slot {}): header says token {} of rank {}", m, s, c, h.token, h.src_rank);
        break;
      }
      for (int i = 0; i < hidden; ++i)
        if (p[sizeof(h) + i] != moe_routing::token_byte(s, h.token, i)) {
          diff = fmt::format("token {} of rank {}: byte {} is {:#x}, want {:#x}", h.token, s, i, p[sizeof(h) + i],
                             moe_routing::token_byte(s, h.token, i));
          break;
        }
    }
  }
  symsim::check(total == static_cast<int>(expected_total) && diff.empty(),
                fmt::format("gpu {}: received {} tokens byte for byte, each once", rank, expected_total),
                diff.empty() ? fmt::format("packed {} messages", total) : diff);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(intranode_dispatch, {"intranode_dispatch", "nvidia",
                                            "DeepEP V2-style intranode MoE dispatch: TMA loads, TMA stores to peer "
                                            "symmetric pointers, counts by st.relaxed.sys, NVLink barrier",
                                            {{"threads", "threads per CTA (warps take tokens in turn)", 32, 1024, 128},
                                             {"tokens", "tokens per rank", 1, 65536, 128},
                                             {"hidden_bytes", "bytes per token (multiple of 16)", 16, 65536, 7168},
                                             {"topk", "experts per token", 1, 32, 8},
                                             {"experts", "experts in all (a multiple of the ranks)", 1, 4096, 64}},
                                            132, intranode_dispatch_host});
