// Rounds of scattered requests: every thread of a grid keeps kK requests in flight (8 B loads
// with ld.global.cg, or returning atomics that add 0), each one's address depending on the
// value the same slot read in the last round (the buffer holds zeros, so the value is 0 but
// the hardware must wait for it). Addresses are slots of `slot_bytes` picked by multiplying a
// running index with an odd constant modulo the slot count (a bijection): no two requests
// in flight share a slot while threads x kK <= slots, and a working set larger than the L2
// sees no slot twice until slots requests have passed. Time per round against requests in
// flight gives latency under load and memory-level parallelism (bench_load_mlp.cu,
// bench_atomics_pipe.cu).
#pragma once
#include "calib.cuh"

namespace calib {

template <int kK, bool kAtomic>
__global__ void scattered_rounds(uint64_t* buf, uint64_t slot_mask, uint32_t slot_words, int rounds, uint64_t first, uint64_t* cta_ns,
                                 uint64_t* sink) {
  const uint64_t per_round = uint64_t(gridDim.x) * blockDim.x * kK;
  const uint64_t mine = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) * kK;
  uint64_t carry[kK];
#pragma unroll
  for (int j = 0; j < kK; ++j) carry[j] = 0;
  __syncthreads();
  const uint64_t t0 = globaltimer_ns();
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int j = 0; j < kK; ++j) {
      const uint64_t slot = ((first + r * per_round + mine + j) * 0x9E3779B97F4A7C15ull) & slot_mask;
      const uint64_t* p = buf + slot * slot_words + carry[j];
      if constexpr (kAtomic)
        asm volatile("atom.relaxed.gpu.global.add.u64 %0, [%1], 0;" : "=l"(carry[j]) : "l"(p) : "memory");
      else
        asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(carry[j]) : "l"(p) : "memory");
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) cta_ns[blockIdx.x] = globaltimer_ns() - t0;
  uint64_t acc = 0;
#pragma unroll
  for (int j = 0; j < kK; ++j) acc |= carry[j];
  if (acc != 0) *sink = acc;
}

// The buffer the rounds read: zeros, split into a power-of-two number of slots.
struct ScatterBuffer {
  uint64_t* buf;
  size_t bytes;
  uint32_t slot_bytes;
  uint64_t slots() const { return bytes / slot_bytes; }
};

// Nanoseconds per round: the slowest CTA's span / rounds (median of 3 after a warm-up). Each
// run goes on with indices the last did not use, so a working set beyond L2 stays cold.
template <bool kAtomic>
double round_ns(int k, const ScatterBuffer& b, unsigned blocks, unsigned threads, int rounds, uint64_t* cta_ns) {
  static uint64_t next_index = 0;
  std::vector<double> v;
  std::vector<uint64_t> h(blocks);
  const uint64_t mask = b.slots() - 1, per_round = uint64_t(blocks) * threads * k;
  const uint32_t words = b.slot_bytes / 8;
  uint64_t* sink = cta_ns + blocks;
  for (int rep = 0; rep < 4; ++rep) {
    const uint64_t first = next_index;
    next_index += per_round * rounds;
    switch (k) {
      case 1: scattered_rounds<1, kAtomic><<<blocks, threads>>>(b.buf, mask, words, rounds, first, cta_ns, sink); break;
      case 2: scattered_rounds<2, kAtomic><<<blocks, threads>>>(b.buf, mask, words, rounds, first, cta_ns, sink); break;
      case 4: scattered_rounds<4, kAtomic><<<blocks, threads>>>(b.buf, mask, words, rounds, first, cta_ns, sink); break;
      case 8: scattered_rounds<8, kAtomic><<<blocks, threads>>>(b.buf, mask, words, rounds, first, cta_ns, sink); break;
      default: scattered_rounds<16, kAtomic><<<blocks, threads>>>(b.buf, mask, words, rounds, first, cta_ns, sink); break;
    }
    CALIB_CHECK(cudaGetLastError());
    CALIB_CHECK(cudaDeviceSynchronize());
    CALIB_CHECK(cudaMemcpy(h.data(), cta_ns, blocks * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    if (rep > 0) v.push_back(static_cast<double>(*std::max_element(h.begin(), h.end())) / rounds);
  }
  return median(v);
}

// Who issues: the levels the rows name.
struct Issuers {
  const char* name;
  unsigned blocks, threads;
  int rounds;
};
inline std::vector<Issuers> issuer_levels() {
  const unsigned sms = static_cast<unsigned>(sm_count());
  return {{"thread", 1, 1, 2000}, {"warp", 1, 32, 2000}, {"sm", 1, 1024, 400}, {"gpu", sms, 1024, 200}};
}
constexpr int kInflightPerThread[] = {1, 2, 4, 8, 16};

// Reads the whole buffer from every SM so that a working set under the L2's size is in L2.
static __global__ void touch_all(const int4* p, size_t n, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) acc ^= p[i].x;
  if (acc == 0x12345) *sink = acc;
}
inline void touch(const ScatterBuffer& b, uint64_t* scratch) {
  for (int pass = 0; pass < 2; ++pass) touch_all<<<sm_count() * 2, 1024>>>(reinterpret_cast<const int4*>(b.buf), b.bytes / 16,
                                                                             reinterpret_cast<int*>(scratch));
  CALIB_CHECK(cudaGetLastError());
  CALIB_CHECK(cudaDeviceSynchronize());
}

}  // namespace calib
