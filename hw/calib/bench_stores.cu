// Store (and, for comparison, load) bandwidth to HBM by access width (4, 8, 16 B per thread, coalesced across the warp) at
// four levels: one thread, one warp, one SM (1024 threads) and the whole GPU. The per-SM
// model charges stores at every size from these rows.
#include "calib.cuh"

namespace calib {

namespace {

constexpr size_t kBufferBytes = size_t(2) << 30;

template <typename T>
__device__ __forceinline__ T value_of(size_t i);
template <>
__device__ __forceinline__ int value_of<int>(size_t i) { return static_cast<int>(i); }
template <>
__device__ __forceinline__ int2 value_of<int2>(size_t i) { return make_int2(1, static_cast<int>(i)); }
template <>
__device__ __forceinline__ int4 value_of<int4>(size_t i) { return make_int4(1, 2, 3, static_cast<int>(i)); }

template <typename T>
__global__ void store_stream(T* dst, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) dst[i] = value_of<T>(i);
}

template <typename T>
__device__ __forceinline__ int fold(T v);
template <>
__device__ __forceinline__ int fold<int>(int v) { return v; }
template <>
__device__ __forceinline__ int fold<int2>(int2 v) { return v.x ^ v.y; }
template <>
__device__ __forceinline__ int fold<int4>(int4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

template <typename T>
__global__ void load_stream(const T* src, size_t n, int* sink) {
  int acc = 0;
#pragma unroll 4
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) acc ^= fold(src[i]);
  if (acc == 0x7531) *sink = acc;
}

template <typename T>
double stream_gbps(bool load, uint8_t* buf, size_t* cursor, unsigned blocks, unsigned threads, size_t bytes) {
  EventTimer timer;
  std::vector<double> v;
  for (int rep = 0; rep < 4; ++rep) {
    if (*cursor + bytes > kBufferBytes) *cursor = 0;
    T* dst = reinterpret_cast<T*>(buf + *cursor);
    *cursor += bytes;  // each run writes lines the last runs did not
    timer.start();
    if (load)
      load_stream<T><<<blocks, threads>>>(dst, bytes / sizeof(T), reinterpret_cast<int*>(buf));
    else
      store_stream<T><<<blocks, threads>>>(dst, bytes / sizeof(T));
    CALIB_CHECK(cudaGetLastError());
    const double ms = timer.stop_ms();
    if (rep > 0) v.push_back(static_cast<double>(bytes) / (ms * 1e6));
  }
  return median(v);
}

}  // namespace

void bench_stores() {
  uint8_t* buf = nullptr;
  CALIB_CHECK(cudaMalloc(&buf, kBufferBytes));
  CALIB_CHECK(cudaMemset(buf, 0, kBufferBytes));
  size_t cursor = 0;
  const unsigned sms = static_cast<unsigned>(sm_count());
  struct Level {
    const char* name;
    unsigned blocks, threads;
    size_t bytes;
  };
  const Level levels[] = {{"thread", 1, 1, size_t(4) << 20},
                          {"warp", 1, 32, size_t(64) << 20},
                          {"sm", 1, 1024, size_t(512) << 20},
                          {"gpu", sms * 4, 512, kBufferBytes / 2}};
  for (bool load : {false, true}) {
    const std::string op = load ? "load" : "store", verb = load ? " reading " : " writing ";
    for (const Level& l : levels) {
      for (int width : {4, 8, 16}) {
        double gbps = 0;
        if (width == 4) gbps = stream_gbps<int>(load, buf, &cursor, l.blocks, l.threads, l.bytes);
        if (width == 8) gbps = stream_gbps<int2>(load, buf, &cursor, l.blocks, l.threads, l.bytes);
        if (width == 16) gbps = stream_gbps<int4>(load, buf, &cursor, l.blocks, l.threads, l.bytes);
        const double per_ns = gbps / width / (static_cast<double>(l.blocks) * l.threads);
        add_row({op + "." + l.name + "." + std::to_string(width) + "b_gbps",
                 std::to_string(width) + " B " + op + "s per thread, coalesced, grid-stride, " + l.name, gbps, "GB/s",
                 std::to_string(l.blocks) + " CTA(s) x " + std::to_string(l.threads) + " threads" + verb + std::to_string(l.bytes >> 20) +
                     " MiB not touched by the run before (median of 3 after a warm-up); " + num(1.0 / per_ns) + " ns per " + op + " per thread"});
      }
    }
  }
  CALIB_CHECK(cudaFree(buf));
}

}  // namespace calib
