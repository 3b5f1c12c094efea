// Device memory: HBM bandwidth (16 B accesses, grid-stride, 2 GiB buffers; read+write for the
// copy) and the latency of one dependent load from HBM and from L2 (a pointer chase).
#include "calib.cuh"

namespace calib {

namespace {

constexpr size_t kBytes = size_t(2) << 30;
constexpr int kChaseSteps = 4000;

__global__ void copy16(const int4* __restrict__ src, int4* __restrict__ dst, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) dst[i] = src[i];
}
__global__ void read16(const int4* __restrict__ src, size_t n, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = src[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678) *sink = acc;  // keeps the loads
}
__global__ void write16(int4* dst, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = make_int4(1, 2, 3, static_cast<int>(i));
}
// next[i] holds the index of the next element to load.
__global__ void chase(const uint64_t* next, uint64_t start, int steps, uint64_t* out) {
  uint64_t p = start;
  const uint64_t t0 = globaltimer_ns();
  for (int i = 0; i < steps; ++i) asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(p) : "l"(next + p) : "memory");
  out[0] = globaltimer_ns() - t0;
  out[1] = p;
}
__global__ void make_chain(uint64_t* next, uint64_t stride_elems, uint64_t n_elems) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  const uint64_t nodes = n_elems / stride_elems;
  if (i < nodes) next[i * stride_elems] = ((i * 2453 + 1) % nodes) * stride_elems;  // full-period walk (Hull-Dobell, nodes a power of 2)
}

template <typename Launch>
double gbps(Launch launch, double bytes_moved) {
  EventTimer timer;
  std::vector<double> v;
  for (int rep = 0; rep < 5; ++rep) {
    timer.start();
    launch();
    CALIB_CHECK(cudaGetLastError());
    const double ms = timer.stop_ms();
    if (rep > 0) v.push_back(bytes_moved / (ms * 1e6));
  }
  return median(v);
}

double chase_ns(uint64_t* next, uint64_t stride_elems, uint64_t span_elems, uint64_t* out) {
  make_chain<<<static_cast<unsigned>((span_elems / stride_elems + 255) / 256), 256>>>(next, stride_elems, span_elems);
  CALIB_CHECK(cudaGetLastError());
  std::vector<double> v;
  uint64_t start = 0;  // each run goes on where the last stopped: HBM runs see no line twice
  for (int rep = 0; rep < 3; ++rep) {
    chase<<<1, 1>>>(next, start, kChaseSteps, out);
    CALIB_CHECK(cudaGetLastError());
    CALIB_CHECK(cudaDeviceSynchronize());
    uint64_t h[2];
    CALIB_CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    v.push_back(static_cast<double>(h[0]) / kChaseSteps);
    start = h[1];
  }
  return median(v);
}

}  // namespace

void bench_memory() {
  int4 *a = nullptr, *b = nullptr;
  int* sink = nullptr;
  CALIB_CHECK(cudaMalloc(&a, kBytes));
  CALIB_CHECK(cudaMalloc(&b, kBytes));
  CALIB_CHECK(cudaMalloc(&sink, sizeof(int)));
  CALIB_CHECK(cudaMemset(a, 3, kBytes));
  const size_t n = kBytes / sizeof(int4);
  const unsigned blocks = static_cast<unsigned>(sm_count()) * 4;
  const std::string how = "16 B per thread, grid-stride, " + std::to_string(blocks) + " x 512 threads over 2 GiB (median of 4 after a warm-up)";
  add_row({"hbm.copy_gbps", "device copy, bytes read + written", gbps([&] { copy16<<<blocks, 512>>>(a, b, n); }, 2.0 * kBytes), "GB/s", how});
  add_row({"hbm.read_gbps", "device read", gbps([&] { read16<<<blocks, 512>>>(a, n, sink); }, 1.0 * kBytes), "GB/s", how});
  add_row({"hbm.write_gbps", "device write", gbps([&] { write16<<<blocks, 512>>>(b, n); }, 1.0 * kBytes), "GB/s", how});
  auto* next = reinterpret_cast<uint64_t*>(a);
  uint64_t* out = reinterpret_cast<uint64_t*>(sink);
  CALIB_CHECK(cudaFree(sink));
  CALIB_CHECK(cudaMalloc(&out, 2 * sizeof(uint64_t)));
  const std::string chase_how = std::to_string(kChaseSteps) + " dependent ld.global.cg by one thread (median of 3)";
  add_row({"mem.load_latency.hbm_ns", "one load from HBM (dependent chain, 64 KiB apart over 2 GiB, no line revisited)",
           chase_ns(next, (size_t(64) << 10) / 8, kBytes / 8, out), "ns", chase_how});
  add_row({"mem.load_latency.l2_ns", "one load hitting L2 (dependent chain, 256 B apart over 1 MiB)",
           chase_ns(next, 256 / 8, (size_t(1) << 20) / 8, out), "ns", chase_how + ", warm"});
  CALIB_CHECK(cudaFree(a));
  CALIB_CHECK(cudaFree(b));
  CALIB_CHECK(cudaFree(out));
}

}  // namespace calib
