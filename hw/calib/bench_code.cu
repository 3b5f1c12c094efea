// Per-warp code cost: the instructions a kernel runs between its memory operations (integer
// arithmetic, loop control, shuffles, votes, __syncwarp), one warp alone and k warps of one
// SM sharing its four schedulers' issue slots. Each kernel times a run of n operations and one
// of 2n with globaltimer inside the kernel; the row is the difference over n (no launch, no
// loop set-up), per warp: every warp runs the same n operations at once.
#include "calib.cuh"

namespace calib {

namespace {

enum Kind : int {
  kImadDep = 0,     // x = x * a + b, one dependent chain
  kImadIndep8 = 1,  // 8 independent chains, interleaved: issue-bound
  kShflDep = 2,     // x = __shfl_sync(x, lane + 1), dependent
  kShflIndep4 = 3,  // 4 independent shuffles
  kBallotDep = 4,   // x += __ballot_sync(x & 1), dependent
  kSyncwarp = 5,    // __syncwarp(); x += 1
  kLoopIter = 6,    // a loop iteration with 64-bit index arithmetic (not unrolled)
};
constexpr int kUnroll = 16;

template <int kKind>
__global__ void code_ops(int n, uint32_t seed, uint64_t* ns_out, uint32_t* sink) {
  const uint32_t lane = threadIdx.x % 32;
  uint32_t x[8];
#pragma unroll
  for (int c = 0; c < 8; ++c) x[c] = seed + threadIdx.x * 8 + c;
  const uint32_t a = seed | 1u, b = seed >> 3;
  uint64_t acc = 0;
  __syncthreads();
  const uint64_t t0 = globaltimer_ns();
  if constexpr (kKind == kLoopIter) {
    // What `for (i = lane; i < n; i += 32) p = base + (t * ranks + r) * row + i` costs per
    // iteration once the body's memory operation is left out (the address is consumed).
    const uint64_t row = seed & 0xffff, t = seed >> 16;
#pragma unroll 1
    for (int i = static_cast<int>(lane); i < n * 32; i += 32) {
      const uint64_t off = (t * 8 + (i & 7)) * row + static_cast<uint64_t>(i);
      asm volatile("" ::"l"(off));
      acc += off;
    }
  } else {
    for (int i = 0; i < n; i += kUnroll) {
#pragma unroll
      for (int j = 0; j < kUnroll; ++j) {
        if constexpr (kKind == kImadDep) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x[0]) : "r"(a), "r"(b));
        if constexpr (kKind == kImadIndep8) {
#pragma unroll
          for (int c = 0; c < 8; ++c) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x[c]) : "r"(a), "r"(b));
        }
        if constexpr (kKind == kShflDep) x[0] = __shfl_sync(0xffffffffu, x[0], (lane + 1) & 31);
        if constexpr (kKind == kShflIndep4) {
#pragma unroll
          for (int c = 0; c < 4; ++c) x[c] = __shfl_sync(0xffffffffu, x[c], (lane + 1 + c) & 31);
        }
        if constexpr (kKind == kBallotDep) x[0] += __ballot_sync(0xffffffffu, x[0] & 1);
        if constexpr (kKind == kSyncwarp) {
          __syncwarp();
          asm volatile("add.u32 %0, %0, 1;" : "+r"(x[0]));
        }
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) ns_out[blockIdx.x] = globaltimer_ns() - t0;
  uint32_t all = static_cast<uint32_t>(acc);
#pragma unroll
  for (int c = 0; c < 8; ++c) all ^= x[c];
  if (all == 0x9e3779b9u) *sink = all;  // keeps the chains alive
}

// Operations per warp in the inner loop of one kernel pass, per loop count n.
int ops_per_n(int kind) { return kind == kImadIndep8 ? 8 : kind == kShflIndep4 ? 4 : 1; }

double kernel_ns(int kind, int warps, int n, uint64_t* ns_out, uint32_t* sink) {
  const uint32_t seed = 0x1234567u;
  switch (kind) {
    case kImadDep: code_ops<kImadDep><<<1, warps * 32>>>(n, seed, ns_out, sink); break;
    case kImadIndep8: code_ops<kImadIndep8><<<1, warps * 32>>>(n, seed, ns_out, sink); break;
    case kShflDep: code_ops<kShflDep><<<1, warps * 32>>>(n, seed, ns_out, sink); break;
    case kShflIndep4: code_ops<kShflIndep4><<<1, warps * 32>>>(n, seed, ns_out, sink); break;
    case kBallotDep: code_ops<kBallotDep><<<1, warps * 32>>>(n, seed, ns_out, sink); break;
    case kSyncwarp: code_ops<kSyncwarp><<<1, warps * 32>>>(n, seed, ns_out, sink); break;
    default: code_ops<kLoopIter><<<1, warps * 32>>>(n, seed, ns_out, sink); break;
  }
  CALIB_CHECK(cudaGetLastError());
  CALIB_CHECK(cudaDeviceSynchronize());
  uint64_t ns = 0;
  CALIB_CHECK(cudaMemcpy(&ns, ns_out, sizeof ns, cudaMemcpyDeviceToHost));
  return static_cast<double>(ns);
}

}  // namespace

void bench_code() {
  uint64_t* ns_out = nullptr;
  uint32_t* sink = nullptr;
  CALIB_CHECK(cudaMalloc(&ns_out, 64));
  CALIB_CHECK(cudaMalloc(&sink, 64));
  struct Case {
    int kind;
    const char* id;
    const char* what;
  };
  const Case cases[] = {
      {kImadDep, "imad_dep", "dependent integer multiply-add (mad.lo.u32 on one register)"},
      {kImadIndep8, "imad_indep8", "integer multiply-add, 8 independent chains interleaved (issue-bound), per instruction"},
      {kShflDep, "shfl_dep", "dependent __shfl_sync (each on the last one's result)"},
      {kShflIndep4, "shfl_indep4", "__shfl_sync, 4 independent chains interleaved, per shuffle"},
      {kBallotDep, "ballot_dep", "dependent __ballot_sync (x += ballot(x & 1))"},
      {kSyncwarp, "syncwarp", "__syncwarp() then a dependent add"},
      {kLoopIter, "loop_iter", "one iteration of a not-unrolled lane-strided loop with 64-bit index arithmetic, its memory operation left out"},
  };
  const int n = 8192;
  for (const Case& c : cases) {
    for (int warps : {1, 2, 4, 8, 16, 32}) {
      std::vector<double> v;
      for (int rep = 0; rep < 4; ++rep) {
        const double t1 = kernel_ns(c.kind, warps, n, ns_out, sink);
        const double t2 = kernel_ns(c.kind, warps, 2 * n, ns_out, sink);
        if (rep > 0) v.push_back((t2 - t1) / (static_cast<double>(n) * ops_per_n(c.kind)));
      }
      add_row({std::string("code.") + c.id + ".w" + std::to_string(warps) + "_ns",
               std::string(c.what) + ", " + std::to_string(warps) + " warp(s) of one CTA on one SM, each running the same ops; ns per op per warp",
               median(v), "ns",
               "globaltimer in the kernel around " + std::to_string(n) + " and " + std::to_string(2 * n) +
                   " loop steps (16 unrolled), difference / " + std::to_string(n * ops_per_n(c.kind)) + " ops (median of 3 after a warm-up)"});
    }
  }
  CALIB_CHECK(cudaFree(ns_out));
  CALIB_CHECK(cudaFree(sink));
}

}  // namespace calib
