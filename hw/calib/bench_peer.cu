// GPU to GPU over NVLink, when a second GPU with peer access is present: flag latency (each
// side polls its own memory, the other writes it remotely), a bulk store's latency into the
// peer's memory against size, and write bandwidth to the peer by the copy engine, by SM
// stores and by bulk stores (the intranode dispatch path).
#include "calib.cuh"

namespace calib {

namespace {

constexpr int kIters = 10000;
constexpr size_t kBytes = size_t(1) << 30;
constexpr int kStages = 4;

template <int kFlavour>
__global__ void peer_ping(int* mine, int* theirs, int iters, int initiator, uint64_t* elapsed) {
  ping_pong<kFlavour>(mine, theirs, iters, initiator != 0, elapsed);
}

__global__ void sm_store(int4* dst, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = make_int4(1, 2, 3, static_cast<int>(i));
}

__global__ void bulk_store_stream(uint8_t* dst, size_t per_block, uint32_t bytes) {
  extern __shared__ __align__(128) uint8_t smem[];
  if (threadIdx.x != 0) return;
  uint8_t* base = dst + blockIdx.x * per_block;
  for (size_t c = 0; c < per_block / bytes; ++c) {
    bulk_store(base + c * bytes, smem + (c % kStages) * bytes, bytes);
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kStages - 1) : "memory");
  }
  bulk_wait<0>();
}

__global__ void bulk_store_latency(uint8_t* dst, uint32_t bytes, int iters, uint64_t* out) {
  extern __shared__ __align__(128) uint8_t smem[];
  const uint64_t t0 = globaltimer_ns();
  for (int i = 0; i < iters; ++i) {
    bulk_store(dst + static_cast<size_t>(i % 64) * 65536, smem, bytes);
    bulk_wait<0>();
  }
  out[0] = globaltimer_ns() - t0;
}

template <int kFlavour>
void flag_latency(int* flag0, int* flag1, uint64_t* elapsed, cudaStream_t s0, cudaStream_t s1, const char* what) {
  CALIB_CHECK(cudaSetDevice(0));
  CALIB_CHECK(cudaMemset(flag0, 0, 128));
  CALIB_CHECK(cudaSetDevice(1));
  CALIB_CHECK(cudaMemset(flag1, 0, 128));
  CALIB_CHECK(cudaDeviceSynchronize());
  CALIB_CHECK(cudaSetDevice(0));
  CALIB_CHECK(cudaDeviceSynchronize());
  CALIB_CHECK(cudaSetDevice(1));
  peer_ping<kFlavour><<<1, 1, 0, s1>>>(flag1, flag0, kIters, 0, nullptr);
  CALIB_CHECK(cudaGetLastError());
  CALIB_CHECK(cudaSetDevice(0));
  peer_ping<kFlavour><<<1, 1, 0, s0>>>(flag0, flag1, kIters, 1, elapsed);
  CALIB_CHECK(cudaGetLastError());
  CALIB_CHECK(cudaStreamSynchronize(s0));
  CALIB_CHECK(cudaStreamSynchronize(s1));
  uint64_t ns = 0;
  CALIB_CHECK(cudaMemcpy(&ns, elapsed, sizeof(ns), cudaMemcpyDeviceToHost));
  add_row({std::string("peer.flag.") + flavour_name(kFlavour) + ".one_way_ns", what, static_cast<double>(ns) / kIters / 2, "ns",
           std::to_string(kIters) + " GPU0-GPU1 round trips / 2, each side polls its own memory"});
}

template <typename Launch>
double gbps(cudaStream_t s, Launch launch, double bytes) {
  EventTimer timer(s);
  std::vector<double> v;
  for (int rep = 0; rep < 4; ++rep) {
    timer.start();
    launch();
    CALIB_CHECK(cudaGetLastError());
    const double ms = timer.stop_ms();
    if (rep > 0) v.push_back(bytes / (ms * 1e6));
  }
  return median(v);
}

}  // namespace

void bench_peer() {
  int gpus = 0, can = 0;
  CALIB_CHECK(cudaGetDeviceCount(&gpus));
  if (gpus < 2) {
    std::fprintf(stderr, "  one GPU: no peer measurements\n");
    return;
  }
  CALIB_CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
  if (!can) {
    std::fprintf(stderr, "  GPU 0 cannot access GPU 1: no peer measurements\n");
    return;
  }
  cudaStream_t s0, s1;
  int *flag0 = nullptr, *flag1 = nullptr;
  uint8_t* remote = nullptr;
  uint64_t* elapsed = nullptr;
  CALIB_CHECK(cudaSetDevice(1));
  CALIB_CHECK(cudaDeviceEnablePeerAccess(0, 0));
  CALIB_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CALIB_CHECK(cudaMalloc(&flag1, 128));
  CALIB_CHECK(cudaMalloc(&remote, kBytes));
  CALIB_CHECK(cudaSetDevice(0));
  CALIB_CHECK(cudaDeviceEnablePeerAccess(1, 0));
  CALIB_CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CALIB_CHECK(cudaMalloc(&flag0, 128));
  CALIB_CHECK(cudaMalloc(&elapsed, sizeof(uint64_t)));
  uint8_t* local = nullptr;
  CALIB_CHECK(cudaMalloc(&local, kBytes));
  CALIB_CHECK(cudaMemset(local, 1, kBytes));

  flag_latency<0>(flag0, flag1, elapsed, s0, s1, "flag GPU->GPU over NVLink, st/ld.relaxed.sys");
  flag_latency<1>(flag0, flag1, elapsed, s0, s1, "flag GPU->GPU over NVLink, st.release.sys / ld.acquire.sys");

  CALIB_CHECK(cudaFuncSetAttribute(bulk_store_latency, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  CALIB_CHECK(cudaFuncSetAttribute(bulk_store_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  for (uint32_t bytes : {16u, 1024u, 16384u, 65536u}) {
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      bulk_store_latency<<<1, 1, bytes, s0>>>(remote, bytes, 400, elapsed);
      CALIB_CHECK(cudaGetLastError());
      CALIB_CHECK(cudaStreamSynchronize(s0));
      uint64_t ns = 0;
      CALIB_CHECK(cudaMemcpy(&ns, elapsed, sizeof(ns), cudaMemcpyDeviceToHost));
      v.push_back(static_cast<double>(ns) / 400);
    }
    const std::string n = bytes >= 1024 ? std::to_string(bytes / 1024) + "k" : std::to_string(bytes);
    add_row({"peer.tma_store." + n + ".ns", "bulk store " + n + " B shared -> peer GPU memory, wait_group 0", median(v), "ns",
             "400 stores in a row by one thread, each waited for (median of 3)"});
  }
  const int sms = sm_count();
  add_row({"peer.copy_engine_gbps", "cudaMemcpyPeerAsync GPU0 -> GPU1, 1 GiB",
           gbps(s0, [&] { CALIB_CHECK(cudaMemcpyPeerAsync(remote, 1, local, 0, kBytes, s0)); }, kBytes), "GB/s",
           "median of 3 after a warm-up"});
  add_row({"peer.sm_store_gbps", "SM threads storing 16 B into peer memory, full grid",
           gbps(s0, [&] { sm_store<<<sms * 2, 512, 0, s0>>>(reinterpret_cast<int4*>(remote), kBytes / sizeof(int4)); }, kBytes), "GB/s",
           "1 GiB, grid-stride (median of 3 after a warm-up)"});
  for (uint32_t bytes : {4096u, 32768u}) {
    const size_t per_block = kBytes / sms / bytes * bytes;
    const std::string n = std::to_string(bytes / 1024) + "k";
    add_row({"peer.tma_store_bw." + n + "_gbps", "bulk stores of " + n + " B into peer memory, one thread per SM",
             gbps(s0, [&] { bulk_store_stream<<<sms, 32, kStages * bytes, s0>>>(remote, per_block, bytes); }, double(per_block) * sms),
             "GB/s", "4 in flight per SM, 1 GiB (median of 3 after a warm-up)"});
  }
  CALIB_CHECK(cudaFree(local));
  CALIB_CHECK(cudaFree(flag0));
  CALIB_CHECK(cudaFree(elapsed));
  CALIB_CHECK(cudaSetDevice(1));
  CALIB_CHECK(cudaFree(flag1));
  CALIB_CHECK(cudaFree(remote));
  CALIB_CHECK(cudaSetDevice(0));
}

}  // namespace calib
