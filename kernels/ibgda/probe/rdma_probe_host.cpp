// Host driver of rdma_probe (2 GPUs): sets up the QPs with the scenario's SQ/CQ options, runs
// the probe, and checks what GPU 1 saw (mode 0: every slot complete once its signal is seen)
// and that the probe finished.
#include <fmt/format.h>

#include <vector>

#include "cuda_runtime.h"
#include "kernels/registry/kernel_registry.h"
#include "kernels/ibgda/probe/rdma_probe.cuh"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

void rdma_probe_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  if (cuda::n_ranks() != 2) throw std::invalid_argument("rdma_probe runs on 2 GPUs");
  cuda::IbgdaOptions o;
  o.qps_per_peer = 2;
  o.sq_depth = static_cast<uint32_t>(a.u64("sq_depth"));
  o.cq_depth = static_cast<uint32_t>(a.u64("cq_depth"));
  o.collapsed_cq = a.u64("collapsed_cq") != 0;
  o.overrun_ignore = a.u64("overrun_ignore") != 0;
  o.wait_for_slots = a.u64("wait_for_slots") != 0;
  o.ring_every = static_cast<int>(a.u64("ring_every"));
  o.check_cqe_errors = true;
  RdmaProbeArgs args{};
  args.rdma = cuda::ibgda_init(o);
  args.mode = static_cast<int>(a.u64("mode"));
  args.count = static_cast<int>(a.u64("count"));
  args.bytes = static_cast<int>(a.u64("bytes"));
  args.atomic_qp = static_cast<int>(a.u64("atomic_qp"));
  args.quiet = static_cast<int>(a.u64("quiet"));
  args.rank = rank;
  const size_t total = static_cast<size_t>(args.count) * args.bytes;
  args.src = static_cast<uint8_t*>(cuda::sym_malloc(total, 64));
  args.dst = static_cast<uint8_t*>(cuda::sym_malloc(total, 64));
  args.signals = static_cast<int*>(cuda::sym_malloc(args.count * sizeof(int)));
  cudaMalloc(&args.errors, sizeof(int));
  std::vector<int> stamp(total / 4);
  for (int i = 0; i < args.count; ++i)
    for (int w = 0; w < args.bytes / 4; ++w) stamp[static_cast<size_t>(i) * (args.bytes / 4) + w] = i * 1000 + w + 1;
  cudaMemcpy(args.src, stamp.data(), total, cudaMemcpyHostToDevice);
  cudaMemset(args.dst, 0, total);
  cudaMemset(args.signals, 0, args.count * sizeof(int));
  cudaMemset(args.errors, 0, sizeof(int));
  cuda::host_barrier();
  const int launched = launch_rdma_probe(args);
  const cudaError_t status = cudaDeviceSynchronize();
  const bool expect_done = a.u64("expect_completion") != 0;
  symsim::check(!expect_done || (launched == cudaSuccess && status == cudaSuccess),
                fmt::format("gpu {}: rdma_probe completed", rank), fmt::format("launch {}, synchronize {}", launched, status));
  cuda::host_barrier();
  if (rank == 1 && args.mode == 0) {
    int errors = -1;
    cudaMemcpy(&errors, args.errors, sizeof(int), cudaMemcpyDeviceToHost);
    symsim::check(errors == 0, fmt::format("gpu 1: each of {} slots was complete when its signal was seen", args.count),
                  fmt::format("{} slots stale", errors));
  }
  if (rank == 1 && a.u64("check_landed")) {
    std::vector<int> got(total / 4);
    cudaMemcpy(got.data(), args.dst, total, cudaMemcpyDeviceToHost);
    symsim::check(got == stamp, fmt::format("gpu 1: all {} WRITEs landed byte for byte", args.count));
  }
}

}  // namespace

SYMSIM_REGISTER_KERNEL(rdma_probe, {"rdma_probe", "nvidia",
                                    "GPU-driven NIC probe: WRITE then ATOMIC per slot on one RC QP (order), or WRITEs "
                                    "only (SQ overrun, collapsed CQ, CQ overflow)",
                                    {{"mode", "0: WRITE + ATOMIC per slot, 1: WRITEs only", 0, 1, 0},
                                     {"count", "operations", 1, 100000, 16},
                                     {"bytes", "payload per WRITE (multiple of 4)", 4, 1 << 20, 256},
                                     {"atomic_qp", "QP of the atomics relative to the data's (0 or 1)", 0, 1, 0},
                                     {"quiet", "GPU 0 waits for all completions at the end", 0, 1, 1},
                                     {"sq_depth", "SQ depth in WQEBBs (0: preset)", 0, 65536, 0},
                                     {"cq_depth", "CQ depth (0: preset)", 0, 65536, 0},
                                     {"collapsed_cq", "1: collapsed CQ (cc=1)", 0, 1, 1},
                                     {"overrun_ignore", "1: the NIC ignores the CQ consumer index (oi=1)", 0, 1, 1},
                                     {"wait_for_slots", "1: wait for free SQ slots before posting", 0, 1, 1},
                                     {"ring_every", "ring the doorbell every Nth WRITE (mode 0)", 1, 1024, 1},
                                     {"expect_completion", "1: the kernels must finish cleanly", 0, 1, 1},
                                     {"check_landed", "1: GPU 1 checks every WRITE landed", 0, 1, 0}},
                                    1, rdma_probe_host});
