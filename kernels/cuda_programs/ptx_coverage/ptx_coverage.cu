// Inline-PTX forms beyond the two example programs, each checked for its value: atom ops and
// types on global and shared memory, red.or, vector ld/st, sign-extending loads, setp/selp,
// membar/fence.sc, special registers, test_wait, bulk prefetch, predicated instructions.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

namespace {
constexpr int kThreads = 64;
constexpr int kResults = 24;
}  // namespace


__device__ __forceinline__ unsigned atom_inc(unsigned* p, unsigned limit) {
  unsigned old;
  asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(limit) : "memory");
  return old;
}
__device__ __forceinline__ int atom_min_s32(int* p, int v) {
  int old;
  asm volatile("atom.relaxed.gpu.global.min.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ unsigned long long atom_max_u64(unsigned long long* p, unsigned long long v) {
  unsigned long long old;
  asm volatile("atom.acq_rel.sys.global.max.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
}
__device__ __forceinline__ unsigned atom_exch(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ void red_or(unsigned* p, unsigned v) {
  asm volatile("red.relaxed.gpu.global.or.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void red_xor_and(unsigned* p, unsigned x, unsigned a) {
  asm volatile("red.global.xor.b32 [%0], %1;\n\tred.global.and.b32 [%0], %2;" ::"l"(p), "r"(x), "r"(a) : "memory");
}
__device__ __forceinline__ int atom_add_shared(int* p, int v) {
  int old;
  asm volatile("atom.shared::cta.add.s32 %0, [%1], %2;"
               : "=r"(old)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(p))), "r"(v)
               : "memory");
  return old;
}
__device__ __forceinline__ void st_v2(int2* p, int a, int b) {
  asm volatile("st.relaxed.gpu.global.v2.s32 [%0+8], {%1, %2};" ::"l"(p - 1), "r"(a), "r"(b) : "memory");
}
__device__ __forceinline__ int2 ld_v2(const int2* p) {
  int2 v;
  asm volatile("ld.acquire.gpu.global.v2.s32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ int ld_s8(const signed char* p) {
  int v;
  asm volatile("ld.global.s8 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ unsigned max_or_zero(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n .reg .pred gt;\n setp.gt.u32 gt, %1, %2;\n selp.u32 %0, %1, 0, gt;\n @!gt mov.u32 %0, %2;\n}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ unsigned special(int which) {
  unsigned v = 0;
  if (which == 0) asm volatile("mov.u32 %0, %%tid.x;" : "=r"(v));
  if (which == 1) asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(v));
  if (which == 2) asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(v));
  if (which == 3) asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(v));
  if (which == 4) asm volatile("mov.u32 %0, %%warpid;" : "=r"(v));
  if (which == 5) asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(v));
  return v;
}

__global__ void coverage(unsigned* words, int* ints, unsigned long long* wide, int2* pair, const signed char* bytes,
                         unsigned* results) {
  extern __shared__ int counter[];
  __shared__ uint64_t unused_static_shared;  // a static __shared__ variable compiles (not used)
  (void)unused_static_shared;
  if (threadIdx.x == 0) counter[0] = 0;
  __syncthreads();
  atom_inc(words + 0, 1000);
  atom_min_s32(ints + 0, -static_cast<int>(threadIdx.x));
  atom_max_u64(wide, 1000000000000ull + threadIdx.x);
  red_or(words + 1, 1u << (threadIdx.x % 32));
  atom_add_shared(counter, 2);
  __syncthreads();
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("fence.sc.gpu;" ::: "memory");
  if (threadIdx.x == 0) {
    results[0] = atom_exch(words + 2, 77);
    results[1] = static_cast<unsigned>(counter[0]);
    st_v2(pair, 11, -12);
    const int2 v = ld_v2(pair);
    results[2] = static_cast<unsigned>(v.x);
    results[3] = static_cast<unsigned>(v.y);
    results[4] = static_cast<unsigned>(ld_s8(bytes));
    results[5] = max_or_zero(7, 3);
    results[6] = max_or_zero(3, 9);
    red_xor_and(words + 3, 0xff, 0x0f);
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(bytes), "r"(16u));
  }
  if (threadIdx.x == 37) {
    for (int i = 0; i < 6; ++i) results[8 + i] = special(i);
  }
}

int main() {
  unsigned *words, *results;
  int* ints;
  unsigned long long* wide;
  int2* pair;
  signed char* bytes;
  cudaMalloc(&words, 4 * sizeof(unsigned));
  cudaMalloc(&ints, sizeof(int));
  cudaMalloc(&wide, sizeof(unsigned long long));
  cudaMalloc(&pair, sizeof(int2) * 2);
  cudaMalloc(&bytes, 16);
  cudaMalloc(&results, kResults * sizeof(unsigned));
  const unsigned words0[4] = {0, 0, 5, 0x3c};
  const int ints0 = 100;
  const unsigned long long wide0 = 1;
  const signed char bytes0[16] = {-3};
  cudaMemcpy(words, words0, sizeof(words0), cudaMemcpyHostToDevice);
  cudaMemcpy(ints, &ints0, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(wide, &wide0, sizeof(wide0), cudaMemcpyHostToDevice);
  cudaMemcpy(bytes, bytes0, sizeof(bytes0), cudaMemcpyHostToDevice);
  cudaMemset(results, 0, kResults * sizeof(unsigned));
  coverage<<<1, kThreads, sizeof(int)>>>(words, ints, wide, pair + 1, bytes, results);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  unsigned w[4], r[kResults];
  int i0;
  unsigned long long wd;
  cudaMemcpy(w, words, sizeof(w), cudaMemcpyDeviceToHost);
  cudaMemcpy(r, results, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(&i0, ints, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&wd, wide, sizeof(wd), cudaMemcpyDeviceToHost);
  struct Check {
    const char* what;
    unsigned long long got, want;
  } checks[] = {
      {"atom.inc", w[0], kThreads},
      {"red.or", w[1], 0xffffffffu},
      {"atom.exch old", r[0], 5},
      {"atom.exch new", w[2], 77},
      {"red.xor then red.and", w[3], (0x3cu ^ 0xffu) & 0x0fu},
      {"atom.min.s32", static_cast<unsigned>(i0), static_cast<unsigned>(-(kThreads - 1))},
      {"atom.max.u64", wd, 1000000000000ull + kThreads - 1},
      {"atom.shared::cta.add", r[1], 2 * kThreads},
      {"st.v2 [p+8] / ld.v2 x", r[2], 11},
      {"st.v2 [p+8] / ld.v2 y", r[3], static_cast<unsigned>(-12)},
      {"ld.s8 sign-extends", r[4], static_cast<unsigned>(-3)},
      {"setp/selp 7 > 3", r[5], 7},
      {"setp/@!p mov 3 > 9", r[6], 9},
      {"%tid.x", r[8], 37},
      {"%ctaid.x", r[9], 0},
      {"%nctaid.x", r[10], 1},
      {"%lanemask_lt", r[11], (1u << 5) - 1},
      {"%warpid", r[12], 1},
      {"%ntid.x", r[13], kThreads},
  };
  int bad = 0;
  for (const Check& c : checks) {
    if (c.got != c.want) {
      std::printf("%s: got %llu, want %llu\n", c.what, c.got, c.want);
      ++bad;
    }
  }
  std::printf("ptx coverage: %d of %zu checks hold\n", static_cast<int>(sizeof(checks) / sizeof(checks[0])) - bad,
              sizeof(checks) / sizeof(checks[0]));
  return bad == 0 ? 0 : 1;
}
