#include "kernels/nvlink/tma/tma_probe.cuh"

#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

__global__ void tma_probe(TmaProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem);
  uint8_t* buf = smem + kTmaProbeMbarBytes;
  const uint32_t round_bytes = static_cast<uint32_t>(a.chunks * a.chunk_bytes);
  if (threadIdx.x == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncthreads();
  uint32_t phase = 0;
  for (int r = 0; r < a.rounds; ++r) {
    const uint8_t* src = a.sym.map(a.src + static_cast<uint64_t>(r) * round_bytes, a.from);
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_and_set_tx(mbar, round_bytes - static_cast<uint32_t>(a.tx_shortfall));
      for (int c = 0; c < a.chunks; ++c)
        ptx::tma_load_1d(buf + c * a.chunk_bytes, src + c * a.chunk_bytes, mbar, static_cast<uint32_t>(a.chunk_bytes));
    }
    ptx::mbarrier_wait_and_flip_phase(mbar, phase);
    if (threadIdx.x == 0) {
      ptx::tma_store_1d(a.dst + static_cast<uint64_t>(r) * round_bytes, buf, round_bytes);
      ptx::tma_store_commit();
      ptx::tma_store_wait<0>();  // the shared buffer may be overwritten again
    }
    __syncthreads();
  }
}

}  // namespace

int launch_tma_probe(int threads, int smem_bytes, const TmaProbeArgs& args) {
  return SYMSIM_LAUNCH(tma_probe, dim3(1), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
}
