// Virtual ranks on one GPU relay chunks with TMA: CTA r bulk-loads rank (r + 1)'s chunks from
// global memory into shared memory (completing an mbarrier's transaction bytes), and bulk-stores
// them to its own output; a cooperative launch, launched with `void** args`. The host asks the
// runtime what the GPU offers first, writes a flag through mapped pinned memory, and checks
// every byte.
// Usage: tma_relay [RANKS [CHUNKS [CHUNK_BYTES]]]
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tma_ptx.cuh"

static uint8_t byte_of(int rank, size_t i) { return static_cast<uint8_t>(rank * 17 + i * 5 + 3); }

__global__ void relay(const uint8_t* in, uint8_t* out, int* done_flags, unsigned* same_key_lanes, int chunks,
                      int chunk_bytes) {
  extern __shared__ __align__(1024) uint8_t smem[];
  auto* bar = reinterpret_cast<uint64_t*>(smem);
  auto* scratch = reinterpret_cast<uint32_t*>(smem + 8);
  uint8_t* buffer = smem + 128;
  const int ranks = gridDim.x;
  const int rank = blockIdx.x;
  const int from = (rank + 1) % ranks;
  const size_t region = static_cast<size_t>(chunks) * chunk_bytes;
  if (threadIdx.x == 0) {
    tr::mbar_init(bar, 1);
    tr::st_shared(scratch, 0xabcd0000u + rank);
  }
  __syncthreads();
  for (int c = 0; c < chunks; ++c) {
    const uint8_t* src = in + from * region + static_cast<size_t>(c) * chunk_bytes;
    if (threadIdx.x == 0) {
      if (c + 1 < chunks) tr::prefetch_l2(src + chunk_bytes);
      tr::tma_wait_read();  // the previous store has read the buffer
      tr::mbar_arrive_expect_tx(bar, chunk_bytes);
      tr::tma_load(buffer, src, chunk_bytes, bar);
    }
    tr::mbar_wait(bar, c & 1);
    __syncthreads();  // every thread saw this phase before the next one can complete
    if (threadIdx.x == 0) {
      tr::fence_proxy_async();
      tr::tma_store(out + rank * region + static_cast<size_t>(c) * chunk_bytes, buffer, chunk_bytes);
      tr::tma_commit();
    }
  }
  if (threadIdx.x == 0) {
    tr::tma_wait_all();
    const bool phase_done = tr::mbar_test(bar, (chunks - 1) & 1);
    const bool scratch_ok = tr::ld_shared(scratch) == 0xabcd0000u + rank;
    tr::st_release_sys(done_flags + rank, phase_done && scratch_ok && tr::clock64_ptx() > 0 ? 1 : -1);
  }
  // Lanes with equal keys (lane / 8) find each other.
  if (threadIdx.x < 32) {
    const unsigned lanes = __match_any_sync(0xffffffffu, threadIdx.x / 8);
    if (threadIdx.x == 9) same_key_lanes[rank] = lanes;
  }
}

int main(int argc, char** argv) {
  const int ranks = argc > 1 ? std::atoi(argv[1]) : 4;
  const int chunks = argc > 2 ? std::atoi(argv[2]) : 4;
  const int chunk_bytes = argc > 3 ? std::atoi(argv[3]) : 8192;
  int driver = 0, runtime = 0, sms = 0, max_smem = 0, fit = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  const size_t smem = 128 + static_cast<size_t>(chunk_bytes);
  if (cudaFuncSetAttribute(relay, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)) != cudaSuccess) {
    std::fprintf(stderr, "%zu B of shared memory is more than the GPU's %d\n", smem, max_smem);
    return 2;
  }
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, relay, 128, smem);
  std::printf("driver %d runtime %d, %d SMs, %d B shared memory per block, %d block(s) of relay per SM\n", driver,
              runtime, sms, max_smem, fit);
  if (fit * sms < ranks) return 2;

  const size_t region = static_cast<size_t>(chunks) * chunk_bytes, total = region * ranks;
  std::vector<uint8_t> host(total);
  for (int r = 0; r < ranks; ++r)
    for (size_t i = 0; i < region; ++i) host[r * region + i] = byte_of(r, i);
  uint8_t *in = nullptr, *out = nullptr;
  unsigned* lanes = nullptr;
  int *flags_host = nullptr, *flags = nullptr;
  cudaMalloc(&in, total);
  cudaMalloc(&out, total);
  cudaMalloc(&lanes, ranks * sizeof(unsigned));
  cudaHostAlloc(&flags_host, ranks * sizeof(int), cudaHostAllocMapped);
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&flags), flags_host, 0);
  cudaMemcpy(in, host.data(), total, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, total);

  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  void* args[] = {&in, &out, &flags, &lanes, const_cast<int*>(&chunks), const_cast<int*>(&chunk_bytes)};
  cudaEventRecord(t0, stream);
  const cudaError_t launched = cudaLaunchCooperativeKernel((void*)relay, dim3(ranks), dim3(128), args, smem, stream);
  cudaEventRecord(t1, stream);
  const cudaError_t synced = cudaStreamSynchronize(stream);
  if (launched != cudaSuccess || synced != cudaSuccess) {
    std::fprintf(stderr, "relay: %s / %s\n", cudaGetErrorString(launched), cudaGetErrorString(synced));
    return 1;
  }
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  std::vector<uint8_t> got(total);
  std::vector<unsigned> same(ranks);
  cudaMemcpy(got.data(), out, total, cudaMemcpyDeviceToHost);
  cudaMemcpy(same.data(), lanes, ranks * sizeof(unsigned), cudaMemcpyDeviceToHost);
  size_t wrong = 0;
  int bad = 0;
  for (int r = 0; r < ranks; ++r) {
    for (size_t i = 0; i < region; ++i) wrong += got[r * region + i] != byte_of((r + 1) % ranks, i);
    bad += flags_host[r] != 1 || same[r] != 0x0000ff00u;
  }
  std::printf("relay: %d ranks x %d chunks x %d B by TMA: %.3f us; %zu B differ; %d ranks report a problem\n", ranks,
              chunks, chunk_bytes, ms * 1000.0f, wrong, bad);
  return wrong == 0 && bad == 0 ? 0 : 1;
}
