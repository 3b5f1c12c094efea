// GPU stores to pinned host memory (the doorbell-record path of GPU-driven NICs): what one
// thread pays per 8 B store, per store + fence.sc.sys, the write bandwidth of a full grid,
// and the one-way latency GPU -> CPU -> GPU of a flag in pinned memory.
#include <thread>

#include "calib.cuh"

namespace calib {

namespace {

constexpr int kStores = 20000;
constexpr int kPingPongs = 2000;
constexpr size_t kBandwidthBytes = size_t(256) << 20;

template <bool kFence>
__global__ void store_loop(uint64_t* host_word, int n, uint64_t* out) {
  const uint64_t t0 = globaltimer_ns();
  for (int i = 0; i < n; ++i) {
    asm volatile("st.relaxed.sys.global.b64 [%0], %1;" ::"l"(host_word), "l"(static_cast<uint64_t>(i)) : "memory");
    if (kFence) asm volatile("fence.sc.sys;" ::: "memory");
  }
  out[0] = globaltimer_ns() - t0;
}

__global__ void host_write(int4* host, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    host[i] = make_int4(1, 2, 3, static_cast<int>(i));
}

// GPU side of the ping-pong: writes `to_cpu`, waits for the CPU's echo in `to_gpu`.
__global__ void gpu_ping(int* to_cpu, int* to_gpu, int n, uint64_t* out) {
  const uint64_t t0 = globaltimer_ns();
  for (int i = 1; i <= n; ++i) {
    flag_store<1>(to_cpu, i);
    while (flag_load<1>(to_gpu) != i) {
    }
  }
  out[0] = globaltimer_ns() - t0;
}

template <bool kFence>
double per_store_ns(uint64_t* dev_word, uint64_t* out) {
  std::vector<double> v;
  for (int rep = 0; rep < 3; ++rep) {
    store_loop<kFence><<<1, 1>>>(dev_word, kStores, out);
    CALIB_CHECK(cudaGetLastError());
    CALIB_CHECK(cudaDeviceSynchronize());
    uint64_t ns = 0;
    CALIB_CHECK(cudaMemcpy(&ns, out, sizeof(ns), cudaMemcpyDeviceToHost));
    v.push_back(static_cast<double>(ns) / kStores);
  }
  return median(v);
}

}  // namespace

void bench_host_stores() {
  uint8_t* host = nullptr;
  CALIB_CHECK(cudaHostAlloc(&host, kBandwidthBytes, cudaHostAllocMapped));
  uint8_t* dev = nullptr;
  CALIB_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev), host, 0));
  uint64_t* out = nullptr;
  CALIB_CHECK(cudaMalloc(&out, sizeof(uint64_t)));

  const std::string one = std::to_string(kStores) + " stores by one thread to one pinned host word (median of 3)";
  add_row({"host_store.issue_ns", "8 B st.relaxed.sys to pinned host memory, one thread, back to back", per_store_ns<false>(reinterpret_cast<uint64_t*>(dev), out),
           "ns", one});
  add_row({"host_store.with_fence_sc_sys_ns", "8 B st.relaxed.sys to pinned host memory + fence.sc.sys",
           per_store_ns<true>(reinterpret_cast<uint64_t*>(dev), out), "ns", one});

  const unsigned blocks = static_cast<unsigned>(sm_count()) * 2;
  EventTimer timer;
  std::vector<double> v;
  for (int rep = 0; rep < 4; ++rep) {
    timer.start();
    host_write<<<blocks, 512>>>(reinterpret_cast<int4*>(dev), kBandwidthBytes / sizeof(int4));
    CALIB_CHECK(cudaGetLastError());
    const double ms = timer.stop_ms();
    if (rep > 0) v.push_back(static_cast<double>(kBandwidthBytes) / (ms * 1e6));
  }
  add_row({"host_store.bandwidth_gbps", "GPU threads writing pinned host memory, 16 B stores", median(v), "GB/s",
           "256 MiB, full grid (median of 3 after a warm-up)"});

  int* to_cpu = reinterpret_cast<int*>(host);
  int* to_gpu = reinterpret_cast<int*>(host + 128);
  __atomic_store_n(to_cpu, 0, __ATOMIC_SEQ_CST);
  __atomic_store_n(to_gpu, 0, __ATOMIC_SEQ_CST);
  std::thread echo([&] {
    for (int i = 1; i <= kPingPongs; ++i) {
      while (__atomic_load_n(to_cpu, __ATOMIC_ACQUIRE) != i) {
      }
      __atomic_store_n(to_gpu, i, __ATOMIC_RELEASE);
    }
  });
  gpu_ping<<<1, 1>>>(reinterpret_cast<int*>(dev), reinterpret_cast<int*>(dev + 128), kPingPongs, out);
  CALIB_CHECK(cudaGetLastError());
  CALIB_CHECK(cudaDeviceSynchronize());
  echo.join();
  uint64_t ns = 0;
  CALIB_CHECK(cudaMemcpy(&ns, out, sizeof(ns), cudaMemcpyDeviceToHost));
  add_row({"host_flag.one_way_ns", "flag GPU -> CPU or CPU -> GPU through pinned host memory (st.release.sys / ld.acquire.sys)",
           static_cast<double>(ns) / kPingPongs / 2, "ns", std::to_string(kPingPongs) + " GPU-CPU round trips / 2, CPU thread spinning"});
  CALIB_CHECK(cudaFreeHost(host));
  CALIB_CHECK(cudaFree(out));
}

}  // namespace calib
