// Host driver of ll_dispatch: sets up IBGDA the way DeepEP V1 does (one RC QP per local
// expert per peer, the doorbell rung every 4th message, no wait for SQ slots, no error-CQE
// check), runs `calls` dispatches in a row alternating the two buffer copies (no barrier in
// between), and after each checks on the receive side that every local expert got exactly
// the tokens routed to it from every rank, byte for byte.
#include <fmt/format.h>

#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "cuda_runtime.h"
#include "kernels/registry/kernel_registry.h"
#include "kernels/ibgda/ll/ll_layout.cuh"
#include "kernels/nvlink/common/host_check_buffer.h"
#include "kernels/nvlink/common/routing.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

void ll_dispatch_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  const int ranks = cuda::n_ranks();
  const int tokens = static_cast<int>(a.u64("tokens")), hidden = static_cast<int>(a.u64("hidden_bytes"));
  const int topk = static_cast<int>(a.u64("topk")), experts = static_cast<int>(a.u64("experts"));
  const int sms = a.blocks(), threads = static_cast<int>(a.u64("threads")), calls = static_cast<int>(a.u64("calls"));
  const int payload = hidden + hidden / 128 * 4;  // FP8 hidden + one fp32 scale per 128
  const int msg = ll_msg_bytes(payload);
  const int local = experts / ranks;
  if (experts % ranks != 0 || hidden % 128 != 0 || topk > threads / 32)
    throw std::invalid_argument("experts must divide among ranks, hidden_bytes be a multiple of 128, topk <= warps per CTA");

  cuda::IbgdaOptions o;
  o.qps_per_peer = local;
  o.ring_every = static_cast<int>(a.u64("ring_every"));
  o.wait_for_slots = a.u64("wait_for_slots") != 0;
  o.check_cqe_errors = false;
  o.sq_depth = static_cast<uint32_t>(a.u64("qp_depth"));
  LLDispatchArgs args{};
  args.rdma = cuda::ibgda_init(o);
  for (auto& b : args.buf) {
    b.send = static_cast<uint8_t*>(cuda::sym_malloc(static_cast<size_t>(tokens) * msg, 1024));
    b.recv = static_cast<uint8_t*>(cuda::sym_malloc(static_cast<size_t>(local) * ranks * tokens * msg, 1024));
    b.recv_count = static_cast<int*>(cuda::sym_malloc(static_cast<size_t>(local) * ranks * sizeof(int)));
    cudaMemset(b.recv_count, 0, static_cast<size_t>(local) * ranks * sizeof(int));
  }
  args.ws = static_cast<comm::Workspace*>(cuda::sym_malloc(sizeof(comm::Workspace)));
  cudaMemset(args.ws, 0, sizeof(comm::Workspace));
  uint8_t* x = nullptr;
  int* idx = nullptr;
  cudaMalloc(&x, static_cast<size_t>(tokens) * payload);
  cudaMalloc(&idx, static_cast<size_t>(tokens) * topk * sizeof(int));
  cudaMalloc(&args.expert_counter, experts * sizeof(int));
  cudaMalloc(&args.packed_x, static_cast<size_t>(local) * ranks * tokens * msg);
  cudaMalloc(&args.packed_count, local * sizeof(int));
  cudaMemset(args.expert_counter, 0, experts * sizeof(int));
  args.x = x;
  args.topk_idx = idx;
  args.window = cuda::sym_window();
  args.tokens = tokens;
  args.payload_bytes = payload;
  args.topk = topk;
  args.experts = experts;
  args.allow_nvlink = static_cast<int>(a.u64("allow_nvlink"));
  args.count_qp_offset = static_cast<int>(a.u64("count_qp_offset"));
  cuda::host_barrier();

  for (int call = 0; call < calls; ++call) {
    // This call's tokens and routing (a different draw every call). The host copies go once
    // they are on the GPU: held through the kernel they were 0.9 MiB per GPU, all GPUs at once.
    const int salt = call * 1009;
    {
      std::vector<uint8_t> hx(static_cast<size_t>(tokens) * payload);
      std::vector<int> hidx(static_cast<size_t>(tokens) * topk);
      for (int t = 0; t < tokens; ++t) {
        for (int i = 0; i < payload; ++i) hx[static_cast<size_t>(t) * payload + i] = moe_routing::token_byte(rank, t + salt, i);
        const auto k = moe_routing::topk_of(rank, t + salt, topk, experts, 5);
        std::copy(k.begin(), k.end(), hidx.begin() + static_cast<std::ptrdiff_t>(t) * topk);
      }
      cudaMemcpy(x, hx.data(), hx.size(), cudaMemcpyHostToDevice);
      cudaMemcpy(idx, hidx.data(), hidx.size() * sizeof(int), cudaMemcpyHostToDevice);
    }
    cudaMemset(args.packed_count, 0, local * sizeof(int));
    args.buffer_idx = call & 1;
    const int launched = launch_ll_dispatch(sms, threads, args);
    const cudaError_t status = cudaDeviceSynchronize();
    symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: ll_dispatch call {} completed", rank, call),
                  fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));
    if (status != cudaSuccess) return;

    // What each local expert must hold: (source, token) of every token routed to it.
    std::string diff;
    size_t total = 0;
    std::vector<int> counts(static_cast<size_t>(local));
    cudaMemcpy(counts.data(), args.packed_count, local * sizeof(int), cudaMemcpyDeviceToHost);
    for (int le = 0; le < local && diff.empty(); ++le) {
      std::set<std::pair<int, int>> want;
      for (int s = 0; s < ranks; ++s)
        for (int t = 0; t < tokens; ++t)
          for (int e : moe_routing::topk_of(s, t + salt, topk, experts, 5))
            if (e == rank * local + le) want.insert({s, t});
      total += want.size();
      if (counts[static_cast<size_t>(le)] != static_cast<int>(want.size())) {
        diff = fmt::format("expert {}: {} tokens, want {}", rank * local + le, counts[static_cast<size_t>(le)], want.size());
        break;
      }
      // Mapped for this copy alone (host_check_buffer.h): a malloc'd one per GPU was resident for
      // all GPUs at once, EP^2 bytes.
      symsim::harness::HostCheckBuffer got(want.size() * msg);
      cudaMemcpy(got.data(), args.packed_x + static_cast<size_t>(le) * ranks * tokens * msg, got.size(), cudaMemcpyDeviceToHost);
      for (size_t m = 0; m < want.size() && diff.empty(); ++m) {
        const uint8_t* p = got.data() + m * msg;
        LLHeader h{};
        std::memcpy(&h, p, sizeof(h));
        if (!want.erase({h.src_rank, h.token})) {
          diff = fmt::format("expert {} row {}: token {} of rank {} is not routed here (or came twice)", rank * local + le, m,
                             h.token, h.src_rank);
          break;
        }
        for (int i = 0; i < payload; ++i)
          if (p[sizeof(h) + i] != moe_routing::token_byte(h.src_rank, h.token + salt, i)) {
            diff = fmt::format("expert {}: token {} of rank {}: byte {} is {:#x}, want {:#x}", rank * local + le, h.token,
                               h.src_rank, i, p[sizeof(h) + i], moe_routing::token_byte(h.src_rank, h.token + salt, i));
            break;
          }
      }
    }
    symsim::check(diff.empty(), fmt::format("gpu {} call {}: {} local experts received their {} tokens byte for byte", rank, call,
                                            local, total),
                  diff);
  }
}

}  // namespace

SYMSIM_REGISTER_KERNEL(ll_dispatch, {"ll_dispatch", "nvidia",
                                     "DeepEP V1-style low-latency dispatch over GPU-driven RDMA (IBGDA): put_nbi_warp per "
                                     "top-k slot, per-expert counts as -count-1 by RDMA atomics on the data's QP, "
                                     "double-buffered signals",
                                     {{"threads", "threads per CTA (warps >= topk)", 32, 1024, 256},
                                      {"tokens", "tokens per rank", 1, 4096, 128},
                                      {"hidden_bytes", "FP8 hidden bytes (multiple of 128; + hidden/128 fp32 scales)", 128, 65536, 7168},
                                      {"topk", "experts per token", 1, 32, 8},
                                      {"experts", "experts in all (a multiple of the ranks)", 1, 4096, 256},
                                      {"calls", "dispatches in a row (alternating buffers, no barrier)", 1, 100, 2},
                                      {"allow_nvlink", "1: NVLink peers by warp copies; 0: RDMA to every other rank", 0, 1, 0},
                                      {"count_qp_offset", "0: counts on the data's QP; k: k QPs over (unordered: a bug)", 0, 64, 0},
                                      {"ring_every", "ring the doorbell every Nth message (DeepEP: 4)", 1, 1024, 4},
                                      {"wait_for_slots", "1: wait for free SQ slots (NVSHMEM); 0: skip (DeepEP)", 0, 1, 0},
                                      {"qp_depth", "QP depth in WQEBBs (0: the preset's)", 0, 65536, 0}},
                                     132, ll_dispatch_host});
