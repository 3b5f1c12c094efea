// The forms DeepEP's kernels needed beyond ptx_coverage, each checked for its value: asm
// templates spliced from a #define'd string, %laneid in extended asm, static __shared__ per CTA
// (also in a template, one copy per instantiation), named barriers (bar.sync id, count),
// __syncthreads_count, mbarrier state tokens and mbarrier.inval, lg2/ex2.approx, ld/st .b128,
// bf16 rounding and __hmax2, fp8 conversion, __float2uint_rd, atomicAdd on unsigned long long,
// mov.b64 pack/unpack and prmt.b32 (DeepEP's byte swaps).
#include <cuda_bf16.h>
#include <cuda_fp8.h>
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
constexpr int kResults = 22;
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
// Byte swaps as DeepEP's ibgda_device.cuh writes them (mov.b64 unpack/pack, prmt.b32).
__device__ __forceinline__ uint64_t swap64(uint64_t x) {
  uint64_t ret;
  asm("{\n\t"
      ".reg .b32 ign;\n\t"
      ".reg .b32 lo;\n\t"
      ".reg .b32 hi;\n\t"
      ".reg .b32 new_lo;\n\t"
      ".reg .b32 new_hi;\n\t"
      "mov.b64 {lo,hi}, %1;\n\t"
      "prmt.b32 new_hi, lo, ign, 0x0123;\n\t"
      "prmt.b32 new_lo, hi, ign, 0x0123;\n\t"
      "mov.b64 %0, {new_lo,new_hi};\n\t"
      "}"
      : "=l"(ret)
      : "l"(x));
  return ret;
}
__device__ __forceinline__ uint32_t prmt_sign(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, 0x8f40;" : "=r"(d) : "r"(a), "r"(b));  // bytes: a0, b0, sign(b3), sign(a0)
  return d;
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
  __shared__ unsigned long long shared_sum;
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
  if (tid < 4) atomicAdd(&shared_sum, static_cast<uint64_t>(tid + 1));  // uint64_t into the ull overload
  __syncthreads();
  if (tid == 2) {
    // fp8 (E4M3, saturating), float -> integer rounding, bf16 lane-wise max, a shared atomic sum.
    out[16] = __nv_cvt_float2_to_fp8x2(make_float2(1.0f, -2.5f), __NV_SATFINITE, __NV_E4M3);  // 0xc238
    out[17] = static_cast<int>(__nv_cvt_float_to_fp8(448.0f, __NV_SATFINITE, __NV_E4M3) |
                               __nv_cvt_float_to_fp8(500.0f, __NV_SATFINITE, __NV_E4M3) << 8 |
                               __nv_cvt_float_to_fp8(1.0f / 512.0f, __NV_SATFINITE, __NV_E4M3) << 16 |
                               static_cast<unsigned>(__nv_cvt_float_to_fp8(1.0625f, __NV_SATFINITE, __NV_E4M3)) << 24);
    const __nv_bfloat162 m = __hmax2(__nv_bfloat162(1.0f, 5.0f), __nv_bfloat162(3.0f, 2.0f));
    out[18] = static_cast<int>(__float2uint_rd(3.7f) + 10 * __float2uint_rd(-1.0f)) + 100 * static_cast<int>(float(m.y)) +
              1000 * static_cast<int>(float(m.x));  // 3 + 0 + 500 + 3000
    out[19] = static_cast<int>(shared_sum);             // 1 + 2 + 3 + 4
    const uint64_t swapped = swap64(0x0102030405060708ull);
    out[20] = static_cast<int>(swapped >> 32) ^ static_cast<int>(swapped);  // 0x08070605 ^ 0x04030201
    out[21] = static_cast<int>(prmt_sign(0x11223384u, 0x95667788u));      // 0xff ff 88 84 -> 0xffff8884
  }
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
                               host_input[4], host_input[5], host_input[6], host_input[7],
                               0xc238, 0x38017e7e, 3503, 10, 0x08070605 ^ 0x04030201, static_cast<int>(0xffff8884u)};
    for (int i = 0; i < kResults; ++i, ++total) {
      if (got[c * kResults + i] == want[i]) ++good;
      else std::printf("cta %d check %d: got %d, want %d\n", c, i, got[c * kResults + i], want[i]);
    }
  }
  std::printf("deepep forms: %d of %d checks hold\n", good, total);
  return good == total ? 0 : 1;
}
