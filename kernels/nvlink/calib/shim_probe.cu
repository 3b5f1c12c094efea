// The kernels' own steps as probes both the simulator and the GPU run (rows shim.*, issue 19):
// each mode repeats one step of intranode_dispatch, intranode_combine, pull_dispatch or the
// NVLink barrier with the same ptx:: and comm:: calls, in the kernels' launch shape (CTAs of
// `warps` warps), and times it with clock64 from thread 0 of each CTA. Compiled for the
// simulator with the kernels' code counting (like code_probe.cu): a step's row holds its shim
// calls and the code around them, as the kernels run them.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "kernels/nvlink/common/comm.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

// Source and destination of warp w's round r: loads walk the window's first half, stores the
// second; every warp of every CTA on copies of its own.
struct CopyWalk {
  const uint8_t* src;
  uint8_t* dst;
  uint64_t half, step, off;
  __device__ void next() {
    off += step;
    if (off + step > half) off = 0;
  }
};

__device__ CopyWalk copy_walk(const CalibProbeArgs& a, uint64_t rows_per_copy = 1) {
  const uint64_t warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const uint64_t half = a.window_bytes / 2 / rows_per_copy, step = static_cast<uint64_t>(gridDim.x) * warps * a.bytes;
  return {a.buf, a.buf + half, half, step, (static_cast<uint64_t>(blockIdx.x) * warps + warp) * a.bytes};
}

__global__ void shim_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const bool copies = a.mode == kProbeCopyRound || a.mode == kProbeCopyRoundWarp || a.mode >= kProbeCopyRoundRead;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* bufs = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * 2 * a.bytes;
  if (copies && lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncthreads();
  const long long t0 = clock64();
  uint32_t phase = 0;
  if (a.mode == kProbeCopyRound) {
    // combine's and pull's send step: lane 0 loads a row into shared memory and stores it out.
    CopyWalk w = copy_walk(a);
    for (int r = 0; r < a.per_thread; ++r, w.next()) {
      if (lane == 0) {
        ptx::tma_store_wait<0>();  // the last row's store has read the buffer
        ptx::tma_load_1d(bufs, w.src + w.off, mbar, a.bytes);
        ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
        ptx::mbarrier_wait_and_flip_phase(mbar, phase);
        ptx::tma_store_1d(w.dst + w.off, bufs, a.bytes);
        ptx::tma_store_commit();
      }
      __syncwarp();
    }
    if (lane == 0) ptx::tma_store_wait<0>();
  } else if (a.mode >= kProbeCopyRoundRead) {  // modes 16-18
    // Mode 11 with one thing changed (calib_probe.cuh), a loop of its own so that mode 11's
    // code, which the simulator charges, stays as it was.
    CopyWalk w = copy_walk(a);
    const bool two = a.mode != kProbeCopyRoundRead;
    for (int r = 0; r < a.per_thread; ++r, w.next()) {
      uint8_t* load_buf = bufs + (two ? (r & 1) * a.bytes : 0);
      uint8_t* store_buf = a.mode == kProbeCopyRoundOther ? bufs + ((r + 1) & 1) * a.bytes : load_buf;
      if (lane == 0) {
#if defined(__CUDACC__)
        if (a.mode == kProbeCopyRoundRead)
          asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        else
          ptx::tma_store_wait<0>();
#else
        ptx::tma_store_wait<0>();  // the model does not tell wait_group.read from wait_group
#endif
        ptx::tma_load_1d(load_buf, w.src + w.off, mbar, a.bytes);
        ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
        ptx::mbarrier_wait_and_flip_phase(mbar, phase);
        ptx::tma_store_1d(w.dst + w.off, store_buf, a.bytes);
        ptx::tma_store_commit();
      }
      __syncwarp();
    }
    if (lane == 0) ptx::tma_store_wait<0>();
  } else if (a.mode == kProbeCopyRoundWarp) {
    // dispatch's send step: two buffers, the whole warp waits on the mbarrier.
    CopyWalk w = copy_walk(a);
    for (int r = 0; r < a.per_thread; ++r, w.next()) {
      uint8_t* buf = bufs + (r & 1) * a.bytes;
      ptx::tma_store_wait<1>();
      __syncwarp();
      if (lane == 0) {
        ptx::tma_load_1d(buf, w.src + w.off, mbar, a.bytes);
        ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
      }
      ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      if (lane == 0) {
        ptx::tma_store_fence();
        ptx::tma_store_1d(w.dst + w.off, buf, a.bytes);
      }
      ptx::tma_store_commit();
      __syncwarp();
    }
    ptx::tma_store_wait<0>();
  } else if (a.mode == kProbeReduceRow) {
    // combine's reduce: per row, 16 B per lane and load from `inflight` source rows, summed.
    CopyWalk w = copy_walk(a, static_cast<uint64_t>(a.inflight));
    const int vecs = static_cast<int>(a.bytes / 16);
    // The SASS (s19b) unrolls the sources' loop by 16 but issues its loads in pairs, each pair
    // used before the next pair's loads. Its tail after the by-4 loop (k % 4 sources) issues a
    // first load alone, then the rest (0x13d0, 0x1510 / 0x1540): for k = 2 both loads one at a
    // time (row shim.reduce_row.l2.7k.k2.w16m.c1w1_ns, 7,143 ns: k = 1's 4,296 and one more L2
    // wait a lane step). k = 6 would have pairs, then two singles; no row has it (misaligned).
    const ptx::LoadsBeforeUse pairs(2);
    const ptx::LoadsBeforeUse tail(a.inflight == 2 ? 1 : 2);
    for (int r = 0; r < a.per_thread; ++r, w.next()) {
      for (int i = static_cast<int>(lane); i < vecs; i += 32) {
        int4 sum = make_int4(0, 0, 0, 0);
        for (int k = 0; k < a.inflight; ++k) {
          const int4* row = reinterpret_cast<const int4*>(w.src + (w.off * a.inflight + static_cast<uint64_t>(k) * a.bytes));
          const int4 v = ptx::ld_weak(row + i);
          sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
        }
        ptx::st_na(reinterpret_cast<int4*>(w.dst + w.off) + i, sum);
      }
    }
  } else if (a.mode == kProbeGridSync) {
    // The barrier's grid sync (comm.cuh), one counter, every CTA.
    for (int r = 0; r < a.per_thread; ++r)
      comm::grid_sync(reinterpret_cast<uint32_t*>(a.word), blockIdx.x, gridDim.x, thread);
  } else if (a.mode == kProbeSignalWait) {
    // SM 0's part of the NVLink barrier at one PE: signal itself, wait for its own signal.
    auto* ws = reinterpret_cast<comm::Workspace*>(a.buf);
    auto map = [](int* p, int) { return p; };
    for (int r = 0; r < a.per_thread; ++r) comm::nvlink_signal_and_wait(ws, map, 1, thread);
  }
  __syncthreads();
  if (thread == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_shim_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(shim_probe, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
}
