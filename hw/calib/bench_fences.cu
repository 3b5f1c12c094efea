// Cost of a fence as seen by one thread: a loop of fences (optionally each after a weak store
// to a fresh line), in SM cycles and ns (globaltimer over the same loop), minus the same loop
// without the fence.
#include "calib.cuh"

namespace calib {

namespace {

constexpr int kIters = 20000;

template <int kFence>
__device__ __forceinline__ void fence() {
  if constexpr (kFence == 1) asm volatile("fence.sc.sys;" ::: "memory");
  if constexpr (kFence == 2) asm volatile("fence.acq_rel.sys;" ::: "memory");
  if constexpr (kFence == 3) asm volatile("fence.sc.gpu;" ::: "memory");
  if constexpr (kFence == 4) asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

template <int kFence, bool kStore>
__global__ void fence_loop(int* data, int iters, uint64_t* out) {
  const uint64_t c0 = clock64(), t0 = globaltimer_ns();
  for (int i = 0; i < iters; ++i) {
    if (kStore) asm volatile("st.global.b32 [%0], %1;" ::"l"(data + (i & 4095) * 32), "r"(i) : "memory");
    fence<kFence>();
  }
  out[0] = clock64() - c0;
  out[1] = globaltimer_ns() - t0;
}

struct Cost {
  double cycles, ns;
};

template <int kFence, bool kStore>
Cost run(int* data, uint64_t* out) {
  std::vector<double> cycles, ns;
  for (int rep = 0; rep < 3; ++rep) {
    fence_loop<kFence, kStore><<<1, 1>>>(data, kIters, out);
    CALIB_CHECK(cudaGetLastError());
    CALIB_CHECK(cudaDeviceSynchronize());
    uint64_t h[2];
    CALIB_CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    cycles.push_back(static_cast<double>(h[0]) / kIters);
    ns.push_back(static_cast<double>(h[1]) / kIters);
  }
  return {median(cycles), median(ns)};
}

template <int kFence>
void measure(int* data, uint64_t* out, const char* name, const char* ptx, Cost bare, Cost store_only) {
  const Cost alone = run<kFence, false>(data, out);
  const Cost after_store = run<kFence, true>(data, out);
  const std::string method = std::to_string(kIters) + " fences by one thread, minus the loop without them (median of 3)";
  add_row({std::string("fence.") + name + ".ns", std::string(ptx) + ", nothing pending", alone.ns - bare.ns, "ns", method});
  add_row({std::string("fence.") + name + ".cycles", std::string(ptx) + ", nothing pending", alone.cycles - bare.cycles, "SM cycles", method});
  add_row({std::string("fence.") + name + ".after_store_ns", std::string(ptx) + " after one weak store", after_store.ns - store_only.ns,
           "ns", method + "; each after a st.global to a fresh line"});
}

}  // namespace

void bench_fences() {
  int* data = nullptr;
  uint64_t* out = nullptr;
  CALIB_CHECK(cudaMalloc(&data, 4096 * 32 * sizeof(int)));
  CALIB_CHECK(cudaMalloc(&out, 2 * sizeof(uint64_t)));
  const Cost bare = run<0, false>(data, out);
  const Cost store_only = run<0, true>(data, out);
  add_row({"sm.clock_ghz", "SM clock while one thread runs (clock64 / globaltimer)", store_only.cycles / store_only.ns, "GHz",
           "cycles over ns of the store loop"});
  measure<1>(data, out, "sc_sys", "fence.sc.sys", bare, store_only);
  measure<2>(data, out, "acq_rel_sys", "fence.acq_rel.sys", bare, store_only);
  measure<3>(data, out, "sc_gpu", "fence.sc.gpu", bare, store_only);
  measure<4>(data, out, "acq_rel_gpu", "fence.acq_rel.gpu", bare, store_only);
  CALIB_CHECK(cudaFree(data));
  CALIB_CHECK(cudaFree(out));
}

}  // namespace calib
