// The forms DeepEP's kernels needed beyond ptx_coverage, each checked for its value: asm
// templates spliced from a #define'd string, %laneid in extended asm, static __shared__ per CTA
// (also in a template, one copy per instantiation), named barriers (bar.sync id, count),
// __syncthreads_count, mbarrier state tokens and mbarrier.inval, lg2/ex2.approx, ld/st .b128,
// bf16 rounding, min/max.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#ifndef USE_VOLATILE_LOADS
#define LD_FUNC "ld.global.nc.L1::no_allocate"
#else
#define LD_FUNC "ld.volatile.global"
#endif

namespace {
constexpr int kCtas = 4;
constexpr int kThreads = 64;
constexpr int kResults = 16;
}  // namespace

__device__ __forceinline__ int ld_spliced(const int* p) {
  int v;
  asm volatile(LD_FUNC ".s32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ int lane_plain() {
  int lane;
  asm("mov.s32 %0, %laneid;" : "=r"(lane));
  return lane;
}
__device__ __forceinline__ float lg2(float x) {
  float r;
  asm volatile("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ float ex2(float x) {
  float r;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ unsigned __int128 ld_b128(const void* p) {
  unsigned __int128 v;
  asm volatile("ld.relaxed.gpu.global.b128 %0, [%1];" : "=q"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ void st_b128(void* p, unsigned __int128 v) {
  asm volatile("st.global.b128 [%0], %1;" ::"l"(p), "q"(v) : "memory");
}
__device__ __forceinline__ void named_sync(int id, int threads) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads)); }

// One per-CTA array per instantiation: kSlots differs, so a shared copy would collide.
template <int kSlots>
__device__ int sum_through_shared(int value) {
  __shared__ volatile int slots[kSlots];
  if (threadIdx.x < kSlots) slots[threadIdx.x] = value + static_cast<int>(threadIdx.x);
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < kSlots; ++i) sum += slots[i];
  __syncthreads();
  return sum;
}

__global__ void forms(const int* input, int* results) {
  __shared__ int cta_tag[kThreads];
  __shared__ __align__(8) uint64_t bar;
  const int cta = static_cast<int>(blockIdx.x), tid = static_cast<int>(threadIdx.x);
  int* out = results + cta * kResults;

  // Static __shared__ per CTA: every CTA writes its own index; interleaved CTAs must not see others'.
  cta_tag[tid] = cta * 1000 + tid;
  __nanosleep(50 * (kCtas - cta));
  __syncthreads();
  int mine = 0;
  for (int i = 0; i < kThreads; ++i) mine += cta_tag[i] == cta * 1000 + i;
  const int a = sum_through_shared<4>(cta), b = sum_through_shared<8>(cta);

  // Two named barriers, each for one half of the CTA; then a CTA-wide count.
  named_sync(1 + tid / 32, 32);
  const int odd_threads = __syncthreads_count(tid % 2);

  if (tid == 0) {
    out[0] = mine;                              // kThreads
    out[1] = a;                                 // 4 * cta + 6
    out[2] = b;                                 // 8 * cta + 28
    out[3] = ld_spliced(input + cta);           // input[cta]
    out[4] = static_cast<int>(lg2(1024.0f));    // 10
    out[5] = static_cast<int>(ex2(5.0f));       // 32
    out[6] = max(min(cta, 2), 1) + 100 * odd_threads;  // clamp(cta, 1, 2) + 100 * kThreads / 2
    // mbarrier with state tokens: two arrivals complete phase 0; the token names that phase.
    const auto addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    uint64_t token = 0;
    uint32_t done_before = 0, done_after = 0;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" ::"r"(addr));
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(token) : "r"(addr));
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done_before) : "r"(addr), "l"(token));
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(addr));
    asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done_after) : "r"(addr), "l"(token));
    out[7] = static_cast<int>(done_before * 10 + done_after);  // 1
    out[8] = static_cast<int>(token);                          // phase 0
    // inval, then init again: a fresh barrier whose first token is phase 0 once more.
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(addr));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(addr));
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(token) : "r"(addr));
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(token) : "r"(addr));
    out[9] = static_cast<int>(token);  // the second arrival belongs to phase 1
  }
  if (tid == 33) out[10] = lane_plain();  // 1
  if (tid == 1) {
    // .b128: 16 bytes in one access each way (input[4..7] to out[12..15]).
    st_b128(out + 12, ld_b128(input + 4));
  }
  if (tid == 0) {
    // bf16: round to nearest even (1 + 2^-8 is a tie that rounds down; 1 + 3 * 2^-8 rounds up).
    const float up = __bfloat162float(__float2bfloat16(1.0f + 3.0f / 256.0f));
    const float tie = __bfloat162float(__float2bfloat16(1.0f + 1.0f / 256.0f));
    out[11] = (up == 1.0f + 1.0f / 64.0f) * 10 + (tie == 1.0f);  // 11
  }
}

int main() {
  int host_input[kCtas + 4] = {7, -3, 123456, 42, 0x01020304, -1, 0x7fffffff, 99};
  int *input = nullptr, *results = nullptr;
  cudaMalloc(&input, sizeof(host_input));
  cudaMalloc(&results, sizeof(int) * kCtas * kResults);
  cudaMemcpy(input, host_input, sizeof(host_input), cudaMemcpyHostToDevice);
  cudaMemset(results, 0, sizeof(int) * kCtas * kResults);
  forms<<<kCtas, kThreads>>>(input, results);
  if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) {
    std::printf("deepep forms: the kernel failed\n");
    return 1;
  }
  int got[kCtas * kResults];
  cudaMemcpy(got, results, sizeof(got), cudaMemcpyDeviceToHost);
  int good = 0, total = 0;
  for (int c = 0; c < kCtas; ++c) {
    const int want[kResults] = {kThreads, 4 * c + 6, 8 * c + 28, host_input[c], 10, 32, (c < 1 ? 1 : c > 2 ? 2 : c) + 100 * kThreads / 2, 1, 0, 1, 1, 11,
                               host_input[4], host_input[5], host_input[6], host_input[7]};
    for (int i = 0; i < kResults; ++i, ++total) {
      if (got[c * kResults + i] == want[i]) ++good;
      else std::printf("cta %d check %d: got %d, want %d\n", c, i, got[c * kResults + i], want[i]);
    }
  }
  std::printf("deepep forms: %d of %d checks hold\n", good, total);
  return good == total ? 0 : 1;
}
