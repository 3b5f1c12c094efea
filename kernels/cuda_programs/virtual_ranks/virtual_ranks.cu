// A single-GPU, multi-virtual-rank all-to-all, written as an ordinary CUDA program: one CTA per
// virtual rank stages each destination's chunk through dynamic shared memory, stores it into
// the destination's receive slot and signals it with a release reduction; each rank waits for
// all arrivals with acquire loads. A CAS spin lock guards a plain counter. The host times the
// kernel and a device-to-device copy with CUDA events and checks every received byte.
// Usage: virtual_ranks [RANKS [BYTES_PER_PAIR]]
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ptx_utils.cuh"

#define CUDA_CHECK(call)                                                                        \
  do {                                                                                          \
    cudaError_t e_ = (call);                                                                    \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

struct Shared {
  int* arrivals;           // per rank: chunks that have landed in its receive slots
  int* lock;               // spin lock around `finished`
  int* finished;           // ranks done (a plain counter under the lock)
  unsigned* smids;         // the SM each rank ran on
  unsigned long long* ns;  // each rank's time from start to all chunks received
};

static uint8_t pattern(int src, int dst, size_t i) { return static_cast<uint8_t>(src * 31 + dst * 7 + i * 13 + 1); }

__global__ void __launch_bounds__(128) all_to_all(const int4* send, int4* recv, Shared s, int ranks, int bytes) {
  extern __shared__ __align__(16) int4 staging[];
  const int rank = blockIdx.x;
  const int words = bytes / 16;
  const uint64_t t0 = vr::global_timer_ns();
  for (int step = 0; step < ranks; ++step) {
    const int dst = (rank + step) % ranks;  // everyone starts with a different peer
    const int4* from = send + (static_cast<size_t>(rank) * ranks + dst) * words;
    int4* to = recv + (static_cast<size_t>(dst) * ranks + rank) * words;
    for (int w = threadIdx.x; w < words; w += blockDim.x) staging[w] = vr::ld_nc_v4(from + w);
    __syncthreads();
    for (int w = threadIdx.x; w < words; w += blockDim.x) vr::st_na_v4(to + w, staging[w]);
    __syncthreads();
    if (threadIdx.x == 0) vr::red_add_release_gpu(s.arrivals + dst, 1);
  }
  if (threadIdx.x < 32 && vr::elect_one()) {
    while (vr::ld_acquire_gpu(s.arrivals + rank) != ranks) vr::nanosleep(100);
    s.smids[rank] = vr::smid();
    s.ns[rank] = vr::global_timer_ns() - t0;
    while (vr::atomic_cas_acquire(s.lock, 0, 1) != 0) vr::nanosleep(50);
    *s.finished = vr::ld_volatile(s.finished) + 1;
    vr::fence_acq_rel_sys();
    vr::st_relaxed_sys(s.lock, 0);
  }
  __syncthreads();
  if (vr::lane_id() == 0 && threadIdx.x == 0) vr::atomic_add_relaxed(s.arrivals + rank, 1000);
}

int main(int argc, char** argv) {
  const int ranks = argc > 1 ? std::atoi(argv[1]) : 8;
  const int bytes = argc > 2 ? std::atoi(argv[2]) : 4096;
  if (ranks < 1 || bytes < 16 || bytes % 16 != 0) {
    std::fprintf(stderr, "usage: %s [RANKS [BYTES_PER_PAIR (multiple of 16)]]\n", argv[0]);
    return 2;
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, sm_%d%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
  if (ranks > prop.multiProcessorCount) {
    std::fprintf(stderr, "%d virtual ranks need %d co-resident CTAs\n", ranks, ranks);
    return 2;
  }
  const size_t total = static_cast<size_t>(ranks) * ranks * bytes;
  std::vector<uint8_t> host(total);
  for (int src = 0; src < ranks; ++src)
    for (int dst = 0; dst < ranks; ++dst)
      for (int i = 0; i < bytes; ++i) host[(static_cast<size_t>(src) * ranks + dst) * bytes + i] = pattern(src, dst, i);

  int4 *send = nullptr, *recv = nullptr, *copy = nullptr;
  Shared s{};
  CUDA_CHECK(cudaMalloc(&send, total));
  CUDA_CHECK(cudaMalloc(&recv, total));
  CUDA_CHECK(cudaMalloc(&copy, total));
  CUDA_CHECK(cudaMalloc(&s.arrivals, ranks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&s.lock, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&s.finished, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&s.smids, ranks * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&s.ns, ranks * sizeof(unsigned long long)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaMemcpy(send, host.data(), total, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemsetAsync(recv, 0, total, stream));
  CUDA_CHECK(cudaMemsetAsync(s.arrivals, 0, ranks * sizeof(int), stream));
  CUDA_CHECK(cudaMemsetAsync(s.lock, 0, sizeof(int), stream));
  CUDA_CHECK(cudaMemsetAsync(s.finished, 0, sizeof(int), stream));
  if (bytes > 48 * 1024)
    CUDA_CHECK(cudaFuncSetAttribute(all_to_all, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));

  cudaEvent_t start, stop, copied;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventCreate(&copied));
  CUDA_CHECK(cudaEventRecord(start, stream));
  all_to_all<<<ranks, 128, bytes, stream>>>(send, recv, s, ranks, bytes);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  CUDA_CHECK(cudaMemcpy(copy, recv, total, cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaEventRecord(copied, stream));
  CUDA_CHECK(cudaEventSynchronize(copied));
  float kernel_ms = 0, copy_ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&kernel_ms, start, stop));
  CUDA_CHECK(cudaEventElapsedTime(&copy_ms, stop, copied));

  std::vector<uint8_t> got(total);
  CUDA_CHECK(cudaMemcpy(got.data(), copy, total, cudaMemcpyDeviceToHost));
  std::vector<int> arrivals(ranks);
  std::vector<unsigned> smids(ranks);
  std::vector<unsigned long long> ns(ranks);
  int finished = 0;
  CUDA_CHECK(cudaMemcpy(arrivals.data(), s.arrivals, ranks * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(smids.data(), s.smids, ranks * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ns.data(), s.ns, ranks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&finished, s.finished, sizeof(int), cudaMemcpyDeviceToHost));

  size_t wrong = 0;
  for (int dst = 0; dst < ranks; ++dst)
    for (int src = 0; src < ranks; ++src)
      for (int i = 0; i < bytes; ++i)
        wrong += got[(static_cast<size_t>(dst) * ranks + src) * bytes + i] != pattern(src, dst, i);
  int bad_arrivals = 0;
  unsigned long long slowest_ns = 0;
  for (int r = 0; r < ranks; ++r) {
    bad_arrivals += arrivals[r] != ranks + 1000 || smids[r] >= static_cast<unsigned>(prop.multiProcessorCount);
    slowest_ns = ns[r] > slowest_ns ? ns[r] : slowest_ns;
  }
  std::printf("all_to_all: %d virtual ranks x %d B per pair: kernel %.3f us, slowest rank %llu ns (globaltimer)\n",
              ranks, bytes, kernel_ms * 1000.0f, slowest_ns);
  std::printf("device-to-device copy of %zu B: %.3f us\n", total, copy_ms * 1000.0f);
  std::printf("received %zu B, %zu differ; %d ranks finished under the lock; %d bad arrival counts\n", total, wrong,
              finished, bad_arrivals);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaEventDestroy(copied);
  cudaStreamDestroy(stream);
  return wrong == 0 && finished == ranks && bad_arrivals == 0 ? 0 : 1;
}
