#include "kernels/ibgda/probe/rdma_probe.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void rdma_probe(RdmaProbeArgs a) {
  if (threadIdx.x != 0) return;
  if (a.rank == 0) {
    for (int i = 0; i < a.count; ++i) {
      ibgda::put_thread(a.rdma, a.dst + static_cast<int64_t>(i) * a.bytes, a.src + static_cast<int64_t>(i) * a.bytes,
                        static_cast<uint32_t>(a.bytes), 1, 0, (i + 1) % a.rdma->ring_every == 0 || i + 1 == a.count);
      if (a.mode == 0) ibgda::amo_add(a.rdma, a.signals + i, 1, false, 1, a.atomic_qp, true);
    }
    if (a.quiet) {
      ibgda::quiet(a.rdma, ibgda::get_qp(a.rdma, 1, 0));
      if (a.atomic_qp) ibgda::quiet(a.rdma, ibgda::get_qp(a.rdma, 1, a.atomic_qp));
    }
  } else if (a.mode == 0) {
    for (int i = 0; i < a.count; ++i) {
      while (ptx::ld_acquire_sys(a.signals + i) == 0) {
      }
      const int* slot = reinterpret_cast<const int*>(a.dst + static_cast<int64_t>(i) * a.bytes);
      for (int w = 0; w < a.bytes / 4; ++w)
        if (ptx::ld_weak(slot + w) != i * 1000 + w + 1) {
          atomicAdd(a.errors, 1);
          break;
        }
    }
  }
}

}  // namespace

int launch_rdma_probe(const RdmaProbeArgs& args) { return SYMSIM_LAUNCH(rdma_probe, dim3(1), dim3(32), 0, nullptr, args); }
