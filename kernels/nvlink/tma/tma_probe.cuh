// tma_probe: TMA and mbarrier accounting. One CTA per GPU; each round thread 0 arms an
// mbarrier with arrive-and-expect-tx for `chunks` x `chunk_bytes`, issues that many 1D bulk
// loads from the next rank's symmetric buffer (a remote TMA load over NVLink, the way
// DeepGEMM pulls) or from its own, every thread waits on the phase and flips it, and a bulk
// store copies the chunk back out to local memory (commit, wait). `tx_shortfall` arms the
// barrier for that many bytes fewer than the loads complete: a trap.
#pragma once
#include <cstdint>

#include "sym_buffer.cuh"

struct TmaProbeArgs {
  layout::SymBuffer<> sym;
  const uint8_t* src;  // symmetric: rounds x chunks x chunk_bytes, rank-stamped
  uint8_t* dst;        // local: same size
  int rounds;
  int chunks;
  int chunk_bytes;
  uint32_t from;       // the rank whose src this one loads (the next rank: over NVLink)
  int tx_shortfall;    // bytes the barrier is armed for below what the loads complete
};

// Shared memory: the mbarrier, then one round of chunks.
constexpr int kTmaProbeMbarBytes = 128;
int launch_tma_probe(int threads, int smem_bytes, const TmaProbeArgs& args);

__host__ __device__ inline uint8_t tma_probe_byte(int rank, uint64_t i) {
  return static_cast<uint8_t>((i * 131u + static_cast<uint64_t>(rank) * 29u + (i >> 8)) & 0xff);
}
