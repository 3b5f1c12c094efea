// Shared pieces of the H200 calibration microbenchmarks (hw/calib): error checks, the result
// table, event timers and the PTX the benchmarks time. Every benchmark adds rows with a
// stable id (the h200 preset cites these ids) and prints nothing itself.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "flag_ping_pong.cuh"

#define CALIB_CHECK(call)                                                                                   \
  do {                                                                                                      \
    const cudaError_t calib_err_ = (call);                                                                  \
    if (calib_err_ != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(calib_err_)); \
      std::exit(1);                                                                                         \
    }                                                                                                       \
  } while (0)

namespace calib {

struct Row {
  std::string id;      // stable name, e.g. flag.relaxed_sys.one_way_ns
  std::string what;    // one line for people
  double value;
  std::string unit;
  std::string method;  // how it was measured
};
void add_row(const Row& row);

// Elapsed milliseconds between two events recorded on one stream.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream = nullptr) : m_stream(stream) {
    CALIB_CHECK(cudaEventCreate(&m_start));
    CALIB_CHECK(cudaEventCreate(&m_stop));
  }
  ~EventTimer() {
    cudaEventDestroy(m_start);
    cudaEventDestroy(m_stop);
  }
  void start() { CALIB_CHECK(cudaEventRecord(m_start, m_stream)); }
  double stop_ms() {
    CALIB_CHECK(cudaEventRecord(m_stop, m_stream));
    CALIB_CHECK(cudaEventSynchronize(m_stop));
    float ms = 0;
    CALIB_CHECK(cudaEventElapsedTime(&ms, m_start, m_stop));
    return ms;
  }

 private:
  cudaStream_t m_stream;
  cudaEvent_t m_start, m_stop;
};

double median(std::vector<double> v);
inline std::string num(double v) {  // 4 significant digits, for method texts
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}
int sm_count();

// Benchmarks (one file each).
void bench_flags();
void bench_fences();
void bench_tma();
void bench_memory();
void bench_atomics();
void bench_host_stores();
void bench_launch();
void bench_peer();
void bench_tma_sm();
void bench_load_mlp();
void bench_stores();
void bench_atomics_pipe();
void bench_launch_spacing();
void bench_memcpy();
void bench_code();
void bench_cold();
void bench_cold_launch();
void bench_tma_mbar();

// Least-squares line y = intercept + slope * x.
struct LineFit {
  double intercept, slope;
};
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y);


// ---- device helpers ----------------------------------------------------------------------
__device__ __forceinline__ uint64_t globaltimer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ uint32_t smid() {
  uint32_t s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Flag accesses by ordering flavour: 0 relaxed.sys, 1 release/acquire.sys, 2 relaxed.gpu,
// 3 release/acquire.gpu, 4 volatile.
template <int kFlavour>
__device__ __forceinline__ void flag_store(int* p, int v) {
  if constexpr (kFlavour == 0) asm volatile("st.relaxed.sys.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (kFlavour == 1) asm volatile("st.release.sys.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (kFlavour == 2) asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (kFlavour == 3) asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (kFlavour == 4) asm volatile("st.volatile.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
template <int kFlavour>
__device__ __forceinline__ int flag_load(const int* p) {
  int v = 0;
  if constexpr (kFlavour == 0) asm volatile("ld.relaxed.sys.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if constexpr (kFlavour == 1) asm volatile("ld.acquire.sys.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if constexpr (kFlavour == 2) asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if constexpr (kFlavour == 3) asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if constexpr (kFlavour == 4) asm volatile("ld.volatile.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
// flag_ping_pong's flavour policy over the accesses above.
template <int kFlavour>
struct AsmFlag {
  static __device__ __forceinline__ void store(int* p, int v) { flag_store<kFlavour>(p, v); }
  static __device__ __forceinline__ int load(const int* p) { return flag_load<kFlavour>(p); }
  static __device__ __forceinline__ void own_atomic(int* p) {
    int old = 0;
    asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 0;" : "=r"(old) : "l"(p) : "memory");
  }
};
inline const char* flavour_name(int f) {
  static const char* names[] = {"relaxed_sys", "release_acquire_sys", "relaxed_gpu", "release_acquire_gpu", "volatile"};
  return names[f];
}

// Ping-pong between thread 0 of two CTAs: `mine` is written by the other side and polled
// here, `theirs` written here. The initiator records the elapsed globaltimer ns.
// kOwnAtomic: before each wait the poller adds 0 to `mine` by a relaxed GPU-scope atomic, so the
// polled word is one its own thread's last atomic changed (the case the model charges an acquire
// poll's cost on, docs/hw-accuracy.md, twenty-eighth pass).
template <int kFlavour, bool kOwnAtomic = false>
__device__ __forceinline__ void ping_pong(int* mine, int* theirs, int iters, bool initiator, uint64_t* elapsed_ns) {
  const uint64_t t0 = globaltimer_ns();
  flag_ping_pong<AsmFlag<kFlavour>, kOwnAtomic>(mine, theirs, iters, initiator);
  if (initiator) *elapsed_ns = globaltimer_ns() - t0;
}

// ---- 1D bulk copies (TMA) with an mbarrier ----------------------------------------------
__device__ __forceinline__ uint32_t smem_u32(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void mbar_init(uint64_t* m, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(m)), "r"(count) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t* m, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(m)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* m, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W_%=;\n}" ::"r"(smem_u32(m)),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void bulk_load(void* smem, const void* gmem, uint32_t bytes, uint64_t* m) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem_u32(smem)),
               "l"(gmem), "r"(bytes), "r"(smem_u32(m))
               : "memory");
}
__device__ __forceinline__ void bulk_store(void* gmem, const void* smem, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(gmem), "r"(smem_u32(smem)), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
template <int N>
__device__ __forceinline__ void bulk_wait() {
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}

}  // namespace calib
