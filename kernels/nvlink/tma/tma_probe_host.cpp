// Host driver of tma_probe: fills this rank's symmetric source with its pattern, runs the
// probe, and checks that every round's bytes came out of shared memory exactly as the source
// rank wrote them.
#include <fmt/format.h>

#include <vector>

#include "cuda_runtime.h"
#include "kernels/registry/kernel_registry.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"
#include "kernels/nvlink/tma/tma_probe.cuh"

namespace {

void tma_probe_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  const int ranks = cuda::n_ranks();
  TmaProbeArgs args{};
  args.rounds = static_cast<int>(a.u64("rounds"));
  args.chunks = static_cast<int>(a.u64("chunks"));
  args.chunk_bytes = static_cast<int>(a.u64("chunk_bytes"));
  args.tx_shortfall = static_cast<int>(a.u64("tx_shortfall"));
  args.from = static_cast<uint32_t>(a.u64("remote") ? (rank + 1) % ranks : rank);
  const size_t round_bytes = static_cast<size_t>(args.chunks) * args.chunk_bytes;
  const size_t bytes = round_bytes * args.rounds;
  std::vector<uint8_t> host(bytes);
  for (size_t i = 0; i < bytes; ++i) host[i] = tma_probe_byte(rank, i);
  auto* src = static_cast<uint8_t*>(cuda::sym_malloc(bytes, 128));
  cudaMemcpy(src, host.data(), bytes, cudaMemcpyHostToDevice);
  args.src = src;
  cudaMalloc(&args.dst, bytes);
  cudaMemset(args.dst, 0, bytes);
  args.sym = layout::SymBuffer<>(cuda::sym_addresses(cuda::sym_heap_base()), static_cast<uint32_t>(rank));
  cuda::host_barrier();

  const int launched = launch_tma_probe(static_cast<int>(a.u64("threads")), kTmaProbeMbarBytes + static_cast<int>(round_bytes), args);
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: tma_probe completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));
  if (status != cudaSuccess) return;
  cudaMemcpy(host.data(), args.dst, bytes, cudaMemcpyDeviceToHost);
  size_t wrong = 0;
  for (size_t i = 0; i < bytes; ++i) wrong += host[i] != tma_probe_byte(static_cast<int>(args.from), i);
  symsim::check(wrong == 0,
                fmt::format("gpu {}: {} rounds of {} B loaded from gpu {} and stored back byte for byte", rank,
                            args.rounds, round_bytes, args.from),
                fmt::format("{} bytes differ", wrong));
}

}  // namespace

SYMSIM_REGISTER_KERNEL(tma_probe, {"tma_probe", "nvidia",
                                   "TMA 1D bulk loads (local or from the next rank over NVLink) completing an "
                                   "mbarrier's transaction bytes, phase flips, and bulk stores with commit/wait",
                                   {{"threads", "threads per CTA (all wait on the mbarrier)", 1, 1024, 64},
                                    {"rounds", "mbarrier phases", 1, 10000, 4},
                                    {"chunks", "bulk loads per phase", 1, 64, 4},
                                    {"chunk_bytes", "bytes per bulk load (multiple of 16)", 16, 1 << 16, 4096},
                                    {"remote", "1: load from the next rank's memory over NVLink", 0, 1, 1},
                                    {"tx_shortfall", "bytes the mbarrier is armed for below what the loads complete", 0, 1 << 20, 0}},
                                   1, tma_probe_host});
