// Atomics on one address: the throughput when every thread of a full grid hammers one word
// (the L2 slice serialises them), per flavour, and the latency of one returning atomic.
#include "calib.cuh"

namespace calib {

namespace {

constexpr int kPerThread = 64;

// 0 atom.relaxed.gpu, 1 red.relaxed.gpu, 2 atom.relaxed.sys, 3 red.release.sys
template <int kOp>
__device__ __forceinline__ uint32_t op(uint32_t* p, uint32_t v) {
  uint32_t r = 0;
  if constexpr (kOp == 0) asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  if constexpr (kOp == 1) asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (kOp == 2) asm volatile("atom.relaxed.sys.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  if constexpr (kOp == 3) asm volatile("red.release.sys.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  return r;
}

// one_lane: only lane 0 of each warp issues (one request per warp instruction; with all 32
// lanes on one address the hardware may combine a warp's adds).
template <int kOp>
__global__ void hammer(uint32_t* word, int per_thread, int one_lane, uint32_t* sink) {
  if (one_lane && threadIdx.x % 32 != 0) return;
  uint32_t acc = 0;
  for (int i = 0; i < per_thread; ++i) acc += op<kOp>(word, 1);
  if (acc == 0xffffffffu) *sink = acc;
}

__global__ void chain(uint32_t* word, int n, uint64_t* out) {
  uint32_t v = 0;
  const uint64_t t0 = globaltimer_ns();
  for (int i = 0; i < n; ++i) v = op<0>(word, v & 1);  // each waits for the last result
  out[0] = globaltimer_ns() - t0;
  out[1] = v;
}

template <int kOp>
void throughput(uint32_t* word, uint32_t* sink, const char* id, const char* what, int one_lane = 0) {
  const unsigned blocks = static_cast<unsigned>(sm_count()) * 2, threads = 256, issuing = one_lane ? threads / 32 : threads;
  EventTimer timer;
  std::vector<double> v;
  for (int rep = 0; rep < 4; ++rep) {
    CALIB_CHECK(cudaMemset(word, 0, sizeof(uint32_t)));
    timer.start();
    hammer<kOp><<<blocks, threads>>>(word, kPerThread, one_lane, sink);
    CALIB_CHECK(cudaGetLastError());
    const double ms = timer.stop_ms();
    uint32_t total = 0;
    CALIB_CHECK(cudaMemcpy(&total, word, sizeof(total), cudaMemcpyDeviceToHost));
    if (total != blocks * issuing * kPerThread) {
      std::fprintf(stderr, "atomics: %u of %u adds landed\n", total, blocks * issuing * kPerThread);
      std::exit(1);
    }
    if (rep > 0) v.push_back(static_cast<double>(blocks) * issuing * kPerThread / (ms * 1e6));
  }
  add_row({std::string("atomic.one_address.") + id + "_gops", what, median(v), "G ops/s",
           std::to_string(blocks) + " CTAs x " + std::to_string(issuing) + (one_lane ? " warps (lane 0 only)" : " threads") + " x " +
               std::to_string(kPerThread) + " adds on one word (median of 3 after a warm-up)"});
}

}  // namespace

void bench_atomics() {
  uint32_t *word = nullptr, *sink = nullptr;
  uint64_t* out = nullptr;
  CALIB_CHECK(cudaMalloc(&word, 256));
  CALIB_CHECK(cudaMalloc(&sink, sizeof(uint32_t)));
  CALIB_CHECK(cudaMalloc(&out, 2 * sizeof(uint64_t)));
  throughput<0>(word, sink, "atom_relaxed_gpu", "atom.add (result used), relaxed.gpu, one address");
  throughput<1>(word, sink, "red_relaxed_gpu", "red.add, relaxed.gpu, one address");
  throughput<2>(word, sink, "atom_relaxed_sys", "atom.add (result used), relaxed.sys, one address");
  throughput<3>(word, sink, "red_release_sys", "red.add, release.sys, one address");
  throughput<0>(word, sink, "atom_relaxed_gpu_one_lane", "atom.add (result used), relaxed.gpu, one address, one lane per warp", 1);
  throughput<3>(word, sink, "red_release_sys_one_lane", "red.add, release.sys, one address, one lane per warp", 1);
  std::vector<double> v;
  for (int rep = 0; rep < 3; ++rep) {
    chain<<<1, 1>>>(word, 4000, out);
    CALIB_CHECK(cudaGetLastError());
    CALIB_CHECK(cudaDeviceSynchronize());
    uint64_t h[2];
    CALIB_CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    v.push_back(static_cast<double>(h[0]) / 4000);
  }
  add_row({"atomic.latency_ns", "one atom.add.relaxed.gpu, result waited for", median(v), "ns",
           "4000 dependent atomics by one thread (median of 3)"});
  CALIB_CHECK(cudaFree(word));
  CALIB_CHECK(cudaFree(sink));
  CALIB_CHECK(cudaFree(out));
}

}  // namespace calib
